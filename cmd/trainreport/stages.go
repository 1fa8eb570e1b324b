package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/outdir"
	"github.com/trainreport/trainreport/render"
)

// runPoints gives the stages of a report (analysis.Staged) its runs with
// their scalar points, one at a time in report order, so that a run's
// points need be held only while its stage runs and its data files are
// written: a direct build's runs are in memory (heldRuns), a merge's are
// read again from its parts (partRuns).
type runPoints interface {
	// Shapes are the shapes of every scalar series of the report, nil
	// when the runs Next gives hold them already.
	Shapes() *analysis.Shapes
	// Next returns the next run of the report with its scalar points,
	// nil after the last.
	Next() (*model.Run, error)
	// Close ends the runs, once Next returned nil: an error says that
	// what Next gave must not be used (a part changed while it was
	// read).
	Close() error
}

// heldRuns are runs in memory, points and all.
type heldRuns struct {
	runs []*model.Run
	i    int
}

func (h *heldRuns) Shapes() *analysis.Shapes { return nil }
func (h *heldRuns) Close() error             { return nil }

func (h *heldRuns) Next() (*model.Run, error) {
	if h.i == len(h.runs) {
		return nil, nil
	}
	h.i++
	return h.runs[h.i-1], nil
}

// stagedAnalysis analyses rep in stages: the report-wide decisions from
// the shapes of its series, then each run as points gives it, its data
// files written into site and its points dropped but for those the pages
// draw inline (render.ScalarReads), then the rest of the analysis.
func stagedAnalysis(ctx context.Context, rep *model.Report, points runPoints, aopt analysis.Options, site *outdir.Site, ropt render.Options, progress *embeddingProgress) (*result.Analysis, error) {
	st, err := analysis.Plan(ctx, rep, points.Shapes(), aopt)
	if err != nil {
		return nil, err
	}
	// Each series keeps, past its data files, what the outputs read of
	// it: the drawn points of those a page draws inline only.
	st.SetReads(render.ScalarReads(rep, st.Scalars(), st.Final, ropt))
	rd := render.NewRunData(site, ropt)
	err = stageAll(ctx, st, rd, points.Next, newRunHelp())
	if cerr := rd.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("writing the runs' data files: %w", cerr)
	}
	if cerr := points.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	stop := progress.watch()
	defer stop()
	return st.Finish(ctx)
}

// stageAll stages each run next gives (stageRun) on all cores, helped
// by help (nil: not at all), then, in report order, writes what of it is
// written so (RunData.Place: its rows of data/scalars.csv and its place
// in the packed bundles) and drops the points no output reads.
func stageAll(ctx context.Context, st *analysis.Staged, rd *render.RunData, next func() (*model.Run, error), help *runHelp) error {
	return stageRuns(ctx, next, func(run *model.Run) error {
		return help.work(func() error { return stageRun(ctx, st, rd, run, help) })
	}, func(run *model.Run) error {
		if err := rd.Place(run, st.Views(run)); err != nil {
			return err
		}
		st.Compact(run)
		return nil
	})
}

// stageRun is the stage of run: its analysis (st.Run) and its data
// files (rd.Write), a series at a time when the analysis can give the
// series so (analysis.Staged.Begin): each series is then formatted right
// after its walk, its values read from the walk's copy, in cache, and
// judged by the rules after its data (analysis.RunStage). A series of
// 100,000 points is 2.4 MB of points, past a core's 2 MiB L2: by the end
// of a whole run's analysis its points were in no core's cache, and
// each of the data columns' passes read them again from the shared one.
//
// A run alone in its bundle (render.RunData.Share) may be shared with
// helpers, a series at a time (stageShared), when help says a core is
// to spare, and so may the walks of a run Begin refused (walkShared);
// with help nil they are not.
func stageRun(ctx context.Context, st *analysis.Staged, rd *render.RunData, run *model.Run, help *runHelp) error {
	rs, ok := st.Begin(run)
	if !ok {
		if help != nil && len(run.Scalars) > 1 {
			if err := walkShared(st.Shared(run), help); err != nil {
				return err
			}
		} else {
			st.Run(run)
		}
		return rd.Write(ctx, run, st.Views(run))
	}
	views := st.Views(run)
	if help != nil {
		if sh := rd.Share(run, views); sh != nil {
			return stageShared(ctx, rs.Shared(), rd, sh, help)
		}
	}
	err := rd.WriteEach(ctx, run, views, rs.Through)
	rs.End() // the series WriteEach did not reach, if it stopped
	return err
}

// stageShared is stageRun of a run whose series may be shared with
// helper goroutines besides this one (help): each walks, judges and
// formats the series it takes (render.RunShare, analysis.SharedRun),
// this one writes them in the run's order. A run was otherwise one
// core's work: once the other runs were done (8 runs of 1 M points, some
// 50 ms of CPU each), the last left the other cores idle for half its
// time, and a report of one long run used one core. A panic of a helper
// becomes an error naming the run, with its stack, as stageRuns makes of
// one of work.
func stageShared(ctx context.Context, sr *analysis.SharedRun, rd *render.RunData, sh *render.RunShare, help *runHelp) error {
	var wg sync.WaitGroup
	panics := make(chan error, 1)
	hr := &helpedRun{}
	hr.start = helpers(sr, help, hr, &wg, panics, sh.Abort, func(ss *analysis.SeriesStage, k int) bool {
		return sh.Help(k, ss.Walk, help.idle)
	})
	help.join(hr)
	ss := sr.Stage()
	var err error
	func() {
		// On a panic too: the helpers end before it goes on.
		defer wg.Wait()
		defer help.leave(hr)
		defer sh.Close()
		err = rd.WriteShared(ctx, sh, ss.Walk)
	}()
	ss.Done()
	select {
	case perr := <-panics:
		err = perr // the cause of the writer's
	default:
	}
	sr.End() // the series no one reached, if the writer stopped
	return err
}

// walkShared is Staged.Run of sr's run, a run Begin refused (a series
// past the data cap, whose data indices its walk thins), its series
// walked by helpers besides this goroutine while a core is idle (help):
// its data files are written whole after (RunData.Write), so that only
// the analysis is shared. Such a run is a long training run's (series of
// more than 100,000 points by default), which was one core's work. A
// panic of a helper becomes an error naming the run, as stageShared's.
func walkShared(sr *analysis.SharedRun, help *runHelp) error {
	series := sr.Run().Scalars
	var next atomic.Int64
	// walk walks the series no one took, one after another, until none
	// is left or keep (nil: always) says to stop; stopped says it did.
	walk := func(ss *analysis.SeriesStage, keep func() bool) (stopped bool) {
		for {
			if keep != nil && !keep() {
				return true
			}
			i := int(next.Add(1) - 1)
			if i >= len(series) {
				return false
			}
			ss.Walk(series[i])
		}
	}
	var wg sync.WaitGroup
	panics := make(chan error, 1)
	hr := &helpedRun{}
	hr.start = helpers(sr, help, hr, &wg, panics, nil, func(ss *analysis.SeriesStage, _ int) bool {
		return walk(ss, help.idle)
	})
	help.join(hr)
	func() {
		defer wg.Wait()
		defer help.leave(hr)
		ss := sr.Stage()
		walk(ss, nil)
		ss.Done()
	}()
	select {
	case err := <-panics:
		return err
	default:
	}
	sr.End()
	return nil
}

// helpers returns the start of hr's helpers (helpedRun.start) for sr's
// run: helper k runs body(ss, k), ss a stage of sr of its own, on a
// goroutine wg counts, and reports to help whether help.idle stopped it
// (body's result). A panic of body becomes an error naming the run, with
// its stack, sent to panics (the first; it holds one), after abort (nil:
// none), which must free the run's writer of what the helper owed it.
func helpers(sr *analysis.SharedRun, help *runHelp, hr *helpedRun, wg *sync.WaitGroup, panics chan error, abort func(), body func(ss *analysis.SeriesStage, k int) (stopped bool)) func(int) {
	return func(k int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stopped bool
			ss := sr.Stage()
			defer func() {
				if v := recover(); v != nil {
					if abort != nil {
						abort()
					}
					select {
					case panics <- fmt.Errorf("internal error in the analysis of run %q: %v\n\n%s", sr.Run().Name, v, debug.Stack()):
					default:
					}
					return
				}
				ss.Done()
				help.ended(hr, stopped)
			}()
			stopped = body(ss, k)
		}()
	}
}

// runHelp has the shared runs at work (stageShared) helped while fewer
// runs are at work than cores, and not while every core has one: a
// helper then would take a core from another run, and hold columns
// formatted ahead, for nothing. A core is idle at the end of the stage
// (the last runs end one after another), while a run slower than those
// after it holds stageRuns' window (it places runs in order), at the
// start while the next runs are read (a merge's), and all along for a
// report of one run. Helpers started when a core was idle end once none
// is (idle), and start again when one is.
type runHelp struct {
	helpers int // a shared run's, besides its writer: GOMAXPROCS - 1
	cores   int // GOMAXPROCS

	mu      sync.Mutex
	working int                 // runs at work (work)
	waiting map[*helpedRun]bool // shared runs at work, not helped now
}

// newRunHelp returns the help of a stage's runs, nil when there is no
// core to spare (GOMAXPROCS 1).
func newRunHelp() *runHelp {
	n := runtime.GOMAXPROCS(0)
	if n < 2 {
		return nil
	}
	return &runHelp{helpers: n - 1, cores: n, waiting: map[*helpedRun]bool{}}
}

// helpedRun is a shared run at work. Its fields are runHelp.mu's.
type helpedRun struct {
	start   func(k int) // starts helper k
	running int         // helpers started, not ended
	done    bool        // its writer is done: no helper starts
}

// work runs f, the work of a run, counted among the runs at work. h may
// be nil.
func (h *runHelp) work(f func() error) error {
	if h == nil {
		return f()
	}
	h.add(1)
	defer h.add(-1)
	return f()
}

// add counts d more runs at work, and helps the shared runs waiting
// when fewer are than cores.
func (h *runHelp) add(d int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.working += d
	if h.working < h.cores {
		for hr := range h.waiting {
			h.begin(hr)
		}
	}
}

// begin starts hr's helpers, unless running or done. h.mu is held.
func (h *runHelp) begin(hr *helpedRun) {
	delete(h.waiting, hr)
	if hr.running > 0 || hr.done {
		return
	}
	hr.running = h.helpers
	for k := range h.helpers {
		hr.start(k)
	}
}

// idle reports whether fewer runs are at work than cores: a helper goes
// on while they are.
func (h *runHelp) idle() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.working < h.cores
}

// join adds hr, a shared run at work (within work): helped at once when
// fewer runs are at work than cores, else once they are.
func (h *runHelp) join(hr *helpedRun) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.waiting[hr] = true
	if h.working < h.cores {
		h.begin(hr)
	}
}

// ended says that one of hr's helpers returned, stopped by idle or with
// no series left to take: once they all did, hr waits to be helped
// again when stopped, unless its writer is done.
func (h *runHelp) ended(hr *helpedRun, stopped bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if hr.running--; hr.running > 0 || hr.done || !stopped {
		return
	}
	h.waiting[hr] = true
	if h.working < h.cores {
		// A core went idle since the helper stopped: add will not say.
		h.begin(hr)
	}
}

// leave ends hr: no helper of it starts any more (those running end
// once its writer closed its share).
func (h *runHelp) leave(hr *helpedRun) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hr.done = true
	delete(h.waiting, hr)
}

// stageRuns hands each run next gives (nil: no more) to work, on all
// cores, then to after, one at a time in the order next gave them; at
// most a window of runs is between next and the end of after at once,
// which bounds the points held. It returns the first error of next, work
// or after, or ctx's, once every work started has ended. A panic of work
// becomes an error naming the run, with its stack.
func stageRuns(ctx context.Context, next func() (*model.Run, error), work, after func(*model.Run) error) error {
	window := 2 * runtime.GOMAXPROCS(0)
	type item struct {
		run  *model.Run
		err  error      // next's
		done chan error // work's
	}
	queue := make(chan item, window)
	slots := make(chan struct{}, window)
	stop := make(chan struct{})
	go func() {
		defer close(queue)
		for {
			select {
			case slots <- struct{}{}:
			case <-stop:
				return
			}
			if err := ctx.Err(); err != nil {
				queue <- item{err: err}
				return
			}
			run, err := next()
			if err != nil || run == nil {
				if err != nil {
					queue <- item{err: err}
				}
				return
			}
			it := item{run: run, done: make(chan error, 1)}
			go func() {
				defer func() {
					if v := recover(); v != nil {
						it.done <- fmt.Errorf("internal error in the analysis of run %q: %v\n\n%s", run.Name, v, debug.Stack())
					}
				}()
				it.done <- work(run)
			}()
			queue <- it
		}
	}()
	var first error
	for it := range queue {
		err := it.err
		if it.done != nil {
			if werr := <-it.done; err == nil {
				err = werr
			}
		}
		if err == nil && first == nil {
			err = after(it.run)
		}
		if err != nil && first == nil {
			first = err
			close(stop)
		}
		<-slots
	}
	return first
}
