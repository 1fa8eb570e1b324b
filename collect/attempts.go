package collect

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/collect/series"
)

// maxAttempts bounds the attempts a run records: a log whose steps go back
// at every few values (two processes writing one file) would otherwise
// cost a record per step. Restarts past the bound stay in the last
// attempt, and a warning says so.
const maxAttempts = 1000

// attemptState is where an attempt began: the file being read, and the
// number of summary events read before its first (the event that restarts
// a series being the new attempt's first).
type attemptState struct {
	file      string
	summaries int
}

// fileStart is where a file began: how many summary events the run had
// read before it.
type fileStart struct {
	rel       string
	summaries int
}

// beginAttempts makes attempt 1.
func (rr *runReader) beginAttempts() {
	rr.attempt = 1
	rr.attempts = []attemptState{{}}
}

// readingFile notes where the file being read begins.
func (rr *runReader) readingFile(rel string) {
	if len(rr.fileStarts) == 0 {
		rr.attempts[0].file = rel
	}
	rr.fileStarts = append(rr.fileStarts, fileStart{rel, rr.summaries})
}

// newAttempt begins the run's next attempt with the summary event being
// read (or the next, at a START).
func (rr *runReader) newAttempt(next bool) {
	if rr.keepAll {
		return // no rule, no attempts
	}
	if len(rr.attempts) == maxAttempts {
		if !rr.attemptsCapped {
			rr.attemptsCapped = true
			rr.run.Warnings = append(rr.run.Warnings, model.Warning{File: rr.file.Rel, Offset: rr.pos,
				Msg: fmt.Sprintf("more than %d attempts (steps that go back, SessionLog STARTs): later restarts are counted in attempt %d", maxAttempts, maxAttempts)})
		}
		return
	}
	from := rr.summaries
	if !next {
		from-- // the event being read, counted already
	}
	rr.attempt++
	rr.attempts = append(rr.attempts, attemptState{file: rr.file.Rel, summaries: from})
}

// attemptFiles returns the files that hold summary events of attempt k
// (from 0), or the file it began in when none does.
func (rr *runReader) attemptFiles(k int) []string {
	from, to := rr.attempts[k].summaries, rr.summaries
	if k+1 < len(rr.attempts) {
		to = rr.attempts[k+1].summaries
	}
	var files []string
	for i, f := range rr.fileStarts {
		end := rr.summaries
		if i+1 < len(rr.fileStarts) {
			end = rr.fileStarts[i+1].summaries
		}
		if max(from, f.summaries) < min(to, end) {
			files = append(files, f.rel)
		}
	}
	if files == nil && rr.attempts[k].file != "" {
		files = []string{rr.attempts[k].file}
	}
	return files
}

// sessionStart begins a new attempt at a SessionLog START, unless the
// latest attempt has no value yet (a START opens most runs).
func (rr *runReader) sessionStart() {
	if rr.summaries > rr.attempts[len(rr.attempts)-1].summaries {
		rr.newAttempt(true)
	}
}

// stepBack handles a value at step at or below the last step, lastStep, of
// a series whose last value was read in lastAttempt. A step strictly below
// is a restart: the run's next attempt begins, unless another series has
// already begun it since this one's last value (the next process logs
// each tag from 0: one attempt, not one per tag). A step equal to the last
// is a rewrite of that step within the attempt, so that a log writing
// every value at one constant step does not become thousands of attempts.
// Under TensorBoard's rule, an event below the most recent step of a file
// of file_version below 2 then purges the series at step.
func (rr *runReader) stepBack(k keptSeries, lastStep int64, lastAttempt int, step int64) {
	if step < lastStep && lastAttempt == rr.attempt {
		rr.newAttempt(false)
	}
	if rr.tbPurge {
		k.purge(step)
	}
}

// tensorBoardEvent applies TensorBoard's out-of-order rule to an event (its
// plugin_event_accumulator.py, _MaybePurgeOrphanedData, which every plugin's
// data goes through): in files of no file_version 2 or more, a summary event
// below the most recent step purges its tags at and above its step (see
// stepBack); every summary event's step then becomes the most recent.
func (rr *runReader) tensorBoardEvent(step int64, summary bool) {
	rr.tbPurge = false
	if rr.rule != model.RestartsTensorBoard || !summary {
		return
	}
	rr.tbPurge = rr.fileVersion < 2 && step < rr.recentStep
	rr.recentStep = step
}

// tensorBoardStart reports whether TensorBoard's rule purges at a
// SessionLog START: in files of file_version 2 or more, every START but the
// run's first.
func (rr *runReader) tensorBoardStart() bool {
	if rr.fileVersion < 2 {
		return false
	}
	first := !rr.tbStarted
	rr.tbStarted = true
	return !first
}

// countAttempts adds a scalar series' points to its attempts, and moves its
// superseded points, grouped by attempt in step order, to sc.
func (rr *runReader) countAttempts(s *series.Scalars, sc *model.Scalar) {
	add := func(attempt int, first, last int64) {
		a := &rr.counts[attempt-1]
		if a.Points+a.Superseded == 0 {
			a.FirstStep, a.LastStep = first, last
		}
		a.FirstStep, a.LastStep = min(a.FirstStep, first), max(a.LastStep, last)
	}
	if rr.counts == nil {
		rr.counts = make([]model.Attempt, len(rr.attempts))
	}
	// A line in step order (always, under a restart rule: countAttempts'
	// only case) has its attempts' bounds at their ends, without the pass
	// over every point that stepRange makes (some 0.03 CPU-s of an 8
	// M-point log's collection).
	sorted := s.StepShape().Sorted
	s.EachLine(func(attempt int, pts []model.Point) {
		lo, hi := pts[0].Step, pts[len(pts)-1].Step
		if !sorted {
			lo, hi = stepRange(pts)
		}
		add(attempt, lo, hi)
		rr.counts[attempt-1].Points += len(pts)
	})
	byAttempt := map[int][]model.Point{}
	s.EachDropped(func(attempt, n int, first, last int64, pts []model.Point) {
		add(attempt, first, last)
		rr.counts[attempt-1].Superseded += n
		if len(pts) > 0 {
			byAttempt[attempt] = append(byAttempt[attempt], pts...)
		}
	})
	for _, attempt := range slices.Sorted(maps.Keys(byAttempt)) {
		pts := byAttempt[attempt]
		slices.SortStableFunc(pts, func(a, b model.Point) int { return cmp.Compare(a.Step, b.Step) })
		sc.Superseded = append(sc.Superseded, model.Superseded{Attempt: attempt, Points: pts})
	}
	s.Superseded = nil
}

// finishAttempts sets the run's attempts, when it restarted or a line lost
// a point.
func (rr *runReader) finishAttempts() {
	if rr.keepAll {
		return
	}
	// A START after the run's last value began an attempt that holds
	// nothing: not one.
	if n := len(rr.attempts); n > 1 && rr.attempts[n-1].summaries == rr.summaries {
		rr.attempts = rr.attempts[:n-1]
	}
	if rr.counts == nil {
		rr.counts = make([]model.Attempt, len(rr.attempts))
	}
	rr.counts = rr.counts[:len(rr.attempts)]
	if len(rr.attempts) == 1 && rr.run.Restarts == 0 {
		return
	}
	for k := range rr.attempts {
		rr.counts[k].Files = rr.attemptFiles(k)
	}
	rr.run.Attempts = rr.counts
}

func stepRange(pts []model.Point) (lo, hi int64) {
	lo, hi = pts[0].Step, pts[0].Step
	for _, p := range pts[1:] {
		lo, hi = min(lo, p.Step), max(hi, p.Step)
	}
	return lo, hi
}

// parseFileVersion reads an Event's file_version ("brain.Event:2") as
// TensorBoard does (event_util.ParseFileVersion): the number after the
// last "brain.Event:", or -1 when there is none.
func parseFileVersion(s string) float64 {
	const sep = "brain.Event:"
	if i := strings.LastIndex(s, sep); i >= 0 {
		s = s[i+len(sep):]
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return -1
	}
	return f
}
