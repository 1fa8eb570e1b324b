package render

import (
	"context"
	"errors"
	"sync"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// maxAheadPoints bounds the points of shared runs' series formatted
// ahead of their bundles' writers and waiting for them (RunShare), those
// of every run at once: their text, some 13 to 25 bytes a point, is held
// until the writer reaches them. A series of more points is never
// formatted ahead: its writer formats it in its turn, streamed as any
// other, so that no series is held whole for the sharing. 256 Ki points
// is some 3.5 to 7 MB: two series of the data files' default cap
// (100,000 points, analysis.DefaultMaxDataPoints), which a writer and a
// helper take in turns; more, as a bound, only cost memory and its
// clearing (the chunks that hold them).
const maxAheadPoints = 1 << 18

// shareGate is what the shared runs of a RunData share: the lock of
// their state and the points formatted ahead of their writers.
type shareGate struct {
	mu    sync.Mutex
	cond  sync.Cond
	ahead int // points of the series taken ahead of their writers' turns, not written yet
	max   int // maxAheadPoints; a test's smaller
	peak  int // the most points ahead at once, for tests
}

// newShareGate returns a gate of at most max points ahead.
func newShareGate(max int) *shareGate {
	g := &shareGate{max: max}
	g.cond.L = &g.mu
	return g
}

// A column formatted ahead is held in chunks of about bundleChunk bytes
// (shareChunk of room, for what an encoder appends past bundleChunk
// before it hands the buffer on), which go from column to column and run
// to run: a column in one array of its size (1.3 MB for a series of
// 100,000 points) was an allocation, cleared, and garbage, at every
// series. RunData keeps maxPooledChunks of them, as many as the columns
// ahead hold at most at 13 bytes a point.
const (
	shareChunk      = bundleChunk + 64<<10
	maxPooledChunks = maxAheadPoints * 13 / bundleChunk
)

// errShareAborted is the error of a shared run's bundle whose helper
// stopped (RunShare.Abort) before handing the series it took.
var errShareAborted = errors.New("a series of the run was not formatted")

// RunShare is the formatting of a run's scalar bundle by several
// goroutines at once (RunData.Share): the bundle's writer
// (RunData.WriteShared) formats the series in its turn, streamed into
// the file, while helpers (Help) format the next ones into buffers of
// their own, which the writer writes as it reaches them, in the run's
// order: the same bytes as one goroutine writes. A long run's series are
// then shared by every core, rather than the run being one core's work,
// the other cores idle once the other runs are done.
type RunShare struct {
	run    *model.Run
	series []*seriesView
	g      *shareGate // RunData's: its lock guards what follows

	next   int // series[next:] are not taken
	turn   int // the series the writer is at
	held   int // the run's points in g.ahead
	parts  []sharePart
	chunks chan []byte  // buffers for the columns, RunData's (chunks)
	ints   chan []int64 // RunData's (ints), for Help
	closed bool         // the writer is done: no more series are taken
	failed bool         // a helper stopped without its series (Abort)

	took []int // series formatted, per helper (Help's who), for tests
}

// sharePart is a series of a shared run: who formats it and, once
// formatted ahead, its column, in chunks.
type sharePart struct {
	state  uint8 // partFree, partTaken, partDone
	chunks [][]byte
}

const (
	partFree  = iota // not taken
	partTaken        // being formatted by a helper, or ahead by the writer
	partDone         // formatted ahead, in b
)

// Share returns a RunShare of run, whose views (those of Write) must be
// as Write takes them, when its bundle is worth the sharing: a run alone
// in its file (past maxBundlePoints points: a smaller run is a
// millisecond's work or less), of more than one series. It returns nil
// otherwise: the run is written by WriteEach.
func (d *RunData) Share(run *model.Run, views []*result.ScalarView) *RunShare {
	if len(views) < 2 {
		return nil
	}
	series := viewsOfRun(run, views)
	if bundlePoints(series) <= maxBundlePoints {
		return nil
	}
	return &RunShare{run: run, series: series, g: d.gate, parts: make([]sharePart, len(series)), chunks: d.chunks, ints: d.ints}
}

// points is how many points series i's column holds.
func (sh *RunShare) points(i int) int {
	sv := sh.series[i]
	return keptLen(sv.data, sv.scalar.Points)
}

// Help formats series of the run ahead of its writer, each taken once,
// until none is left or the writer is done, or keep (nil: always true),
// asked before each, says to stop: stopped says it did. values is called
// with each series right before it is formatted, as WriteEach's (from
// this goroutine only). who numbers the helper, for Took. Help waits
// while the series ahead of the writers, every shared run's, hold
// maxAheadPoints points.
func (sh *RunShare) Help(who int, values func(*model.Scalar) (vals, walls []float64), keep func() bool) (stopped bool) {
	// The wall-time column's integers, RunData's: 8 bytes a point of a
	// series, not made again each time a helper starts.
	var ints []int64
	select {
	case ints = <-sh.ints:
	default:
	}
	defer func() {
		select {
		case sh.ints <- ints:
		default:
		}
	}()
	for {
		if keep != nil && !keep() {
			return true
		}
		// No deferred unlock: a panic of values is with sh.g.mu free.
		sh.g.mu.Lock()
		i, ok := sh.takeAhead(true)
		if ok {
			for len(sh.took) <= who {
				sh.took = append(sh.took, 0)
			}
			sh.took[who]++
		}
		sh.g.mu.Unlock()
		if !ok {
			return false
		}
		sh.format(i, values, &ints)
	}
}

// takeAhead takes the next series ahead of the writer's turn, waiting
// (when wait) while the series ahead, every run's, hold too many points; ok is false
// when there is none to take (or, without wait, none now). sh.g.mu is
// held.
func (sh *RunShare) takeAhead(wait bool) (i int, ok bool) {
	for {
		if sh.closed || sh.next == len(sh.series) {
			return 0, false
		}
		// The series at the writer's turn is the writer's: it formats it
		// streamed.
		if i, n := sh.next, sh.points(sh.next); i > sh.turn && sh.g.ahead+n <= sh.g.max {
			sh.next++
			sh.g.ahead += n
			sh.held += n
			sh.g.peak = max(sh.g.peak, sh.g.ahead)
			sh.parts[i].state = partTaken
			return i, true
		}
		if !wait {
			return 0, false
		}
		sh.g.cond.Wait()
	}
}

// format formats series i, taken ahead, into chunks of its own, and
// hands them to the writer. sh.g.mu is not held.
func (sh *RunShare) format(i int, values func(*model.Scalar) (vals, walls []float64), ints *[]int64) {
	var chunks [][]byte
	spill := func(b []byte) []byte {
		if len(b) < bundleChunk {
			return b
		}
		chunks = append(chunks, b)
		return sh.chunk()
	}
	sv := sh.series[i]
	c := column{kept: kept{sv.scalar.Points, sv.data}, steps: sv.steps}
	if values != nil {
		c.vals, c.walls = values(sv.scalar)
	}
	b := appendColumns(sh.chunk(), c, sv.scalar.Float32, -1, spill, ints)
	chunks = append(chunks, b)
	sh.g.mu.Lock()
	sh.parts[i] = sharePart{state: partDone, chunks: chunks}
	sh.g.cond.Broadcast()
	sh.g.mu.Unlock()
}

// chunk returns an empty chunk, of the pool's when it has one.
func (sh *RunShare) chunk() []byte {
	select {
	case b := <-sh.chunks:
		return b
	default:
		return make([]byte, 0, shareChunk)
	}
}

// column writes series i's column, the writer's turn: a column formatted
// ahead is written as it is; a series no one took is formatted here, by
// the writer (formatHere true); while a helper formats it, the writer
// formats a series ahead itself, or waits.
func (sh *RunShare) column(i int, w *bundleWriter) (formatHere bool) {
	// No deferred unlock: the writer's own formatting ahead may panic,
	// with sh.g.mu free.
	sh.g.mu.Lock()
	sh.turn = i
	for {
		p := &sh.parts[i]
		switch {
		case sh.failed:
			sh.g.mu.Unlock()
			w.err = errShareAborted
			return false
		case p.state == partFree:
			// Not taken: i is sh.next, as series are taken in order.
			sh.next++
			sh.g.cond.Broadcast() // helpers may take the one after
			sh.g.mu.Unlock()
			return true
		case p.state == partDone:
			chunks := p.chunks
			p.chunks = nil
			sh.g.ahead -= sh.points(i)
			sh.held -= sh.points(i)
			sh.g.cond.Broadcast()
			sh.g.mu.Unlock()
			// What is formatted goes first, then the column straight
			// from its chunks, not copied.
			w.flush()
			for _, b := range chunks {
				w.put(b)
				if cap(b) <= 2*shareChunk {
					select {
					case sh.chunks <- b[:0]:
					default:
					}
				}
			}
			return false
		}
		// A helper formats it: rather than wait, the writer formats the
		// next ahead when it may.
		if j, ok := sh.takeAhead(false); ok {
			sh.g.mu.Unlock()
			sh.format(j, w.values, &w.ints)
			sh.g.mu.Lock()
			continue
		}
		sh.g.cond.Wait()
	}
}

// Close ends the sharing: the helpers take no more series and return
// once done with theirs. The writer calls it when done (WriteShared);
// call it too when a writer stops early (a panic).
func (sh *RunShare) Close() {
	sh.g.mu.Lock()
	sh.closed = true
	// The columns a writer that stopped early did not write: the
	// other runs' may take their place.
	sh.g.ahead -= sh.held
	sh.held = 0
	sh.g.cond.Broadcast()
	sh.g.mu.Unlock()
}

// Abort says that a helper stopped without handing the series it took
// (a panic): the writer stops waiting for it, and its bundle fails.
func (sh *RunShare) Abort() {
	sh.g.mu.Lock()
	sh.failed = true
	sh.g.mu.Unlock()
	sh.Close()
}

// Took returns how many series each helper formatted (by Help's who),
// the writer's not counted: what the tests read of who took part.
func (sh *RunShare) Took() []int {
	sh.g.mu.Lock()
	defer sh.g.mu.Unlock()
	return append([]int(nil), sh.took...)
}

// WriteShared is WriteEach of the run of sh (RunData.Share), its series
// shared with sh's helpers: values, as WriteEach's, is called from this
// goroutine with each series this one formats. It closes sh.
func (d *RunData) WriteShared(ctx context.Context, sh *RunShare, values func(*model.Scalar) (vals, walls []float64)) error {
	defer sh.Close()
	return d.writeEach(ctx, sh.run, sh.series, values, sh)
}
