// Package series accumulates the points of one time series (a run and a
// tag) under the restart rule (docs/FORMATS.md section 18).
package series

import (
	"cmp"
	"slices"
	"sort"

	"github.com/trainreport/trainreport/collect/model"
)

// Scalars is the kept points of one scalar series, in arrival order, which
// the restart rule keeps in increasing step order: the series' line. The
// points the rule takes off the line are counted in Dropped and, when
// KeepSuperseded is set, kept in Superseded, each with the attempt it was
// added in.
type Scalars struct {
	Points []model.Point
	// Dropped counts the points that restarts took off the line.
	Dropped int
	// KeepSuperseded keeps the points taken off the line in Superseded
	// instead of only counting them.
	KeepSuperseded bool
	// Superseded is the points taken off the line, in the order they were
	// taken off, when KeepSuperseded is set.
	Superseded []model.Point

	// Attempts in run-length form, so that model.Point stays 24 bytes on the hot
	// path: lineRuns[i] is the attempt of Points[lineRuns[i].start:], up to
	// the next run's start (the line's attempts only go up); dropRuns
	// counts the points taken off the line by attempt, in the order taken
	// off.
	lineRuns []attemptRun
	dropRuns []attemptRun
	// unsorted is set when Add with keepAll put a step below the last:
	// Purge then filters instead of cutting the tail.
	unsorted bool
	// latest is the attempt of the line's last run, 0 when it is empty.
	latest int
	// off is the index of the line's first point whose step is off the
	// progression of those before it (model.StepShape's Arith), 0 when
	// none is (the first never is), and stride the progression's stride,
	// that of the first two points: kept as each point is added, so that
	// the line's shape is known without a pass over its steps.
	off    int
	stride int64
}

// attemptRun is a run of points of one attempt: in the line, the index of
// its first point; of the points taken off, how many, and their steps'
// bounds.
type attemptRun struct {
	attempt     int
	n           int
	first, last int64
}

// Append appends p when the line has two points or more, p's step is above
// the last and p is of the attempt of the last, and reports whether it
// did: the hot path of a log, which Add completes.
func (s *Scalars) Append(p model.Point, attempt int) bool {
	n := len(s.Points)
	if n < 2 || p.Step <= s.Points[n-1].Step || attempt != s.latest {
		return false // the second point sets the stride: Add's
	}
	// p.Step is above the last, so that a difference of the stride (not
	// negative) is the step's distance from it, with no wrap. A regular
	// log's point costs the subtraction and one comparison.
	if p.Step-s.Points[n-1].Step != s.stride && s.off == 0 {
		s.off = n
	}
	s.Points = append(s.Points, p)
	return true
}

// follow notes whether a point at step, added after the line's n points
// (the last at step last), keeps their steps a progression: when it is
// at or above last by the stride, which the second point sets (scanSteps'
// rule in internal/analysis: a stride is not negative and no step wraps).
// A progression that stopped short of the line's end stays short: only a
// cut (Purge) brings the end back within it.
func (s *Scalars) follow(n int, last, step int64) {
	d := step - last
	switch {
	case n == 0 || s.off != 0:
	case n == 1 && step >= last && d >= 0:
		s.stride = d
	case n == 1 || step < last || d != s.stride:
		s.off = n
	}
}

// StepShape returns what the line knows of its points' steps, in their
// order, without reading them: whether they are a progression (and its
// stride) and whether they are sorted (model.StepShape).
func (s *Scalars) StepShape() model.StepShape {
	n := len(s.Points)
	sh := model.StepShape{N: n, Sorted: !s.unsorted, Arith: n > 0 && s.off == 0}
	if sh.Arith && n > 1 {
		sh.Stride = s.stride
	}
	return sh
}

// Add appends p, read in attempt (from 1). Unless keepAll is set, a point
// whose step is at or below the last kept step first takes every kept point
// with a step at or above its own off the line: the latest write of a step
// wins, and a run resumed from a checkpoint overwrites what it repeats.
func (s *Scalars) Add(p model.Point, attempt int, keepAll bool) {
	n := len(s.Points)
	if n > 0 && p.Step <= s.Points[n-1].Step {
		if keepAll {
			s.unsorted = s.unsorted || p.Step < s.Points[n-1].Step
		} else {
			s.Purge(p.Step)
			n = len(s.Points)
		}
	}
	if k := len(s.lineRuns); k == 0 || s.lineRuns[k-1].attempt != attempt {
		s.lineRuns = append(s.lineRuns, attemptRun{attempt: attempt, n: n})
		s.latest = attempt
	}
	if n > 0 {
		s.follow(n, s.Points[n-1].Step, p.Step)
	}
	s.Points = append(s.Points, p)
}

// Grow makes room for at least n more points without another allocation.
// The new array is made, not grown by slices.Grow, which clears the room
// it adds: a big array fresh from the operating system is zero already,
// and the allocator clears one only when it is not (at 8 M points the
// clearing was a twelfth of the report's CPU time).
func (s *Scalars) Grow(n int) {
	if n > 0 && cap(s.Points)-len(s.Points) < n {
		grown := make([]model.Point, len(s.Points), len(s.Points)+n)
		copy(grown, s.Points)
		s.Points = grown
	}
}

// Purge takes the kept points with a step at or above step off the line, as
// a SessionLog START at that step asks, wherever they are on it.
func (s *Scalars) Purge(step int64) {
	if s.unsorted {
		s.filter(step)
		return
	}
	i := sort.Search(len(s.Points), func(i int) bool { return s.Points[i].Step >= step })
	if i == len(s.Points) {
		return
	}
	s.Dropped += len(s.Points) - i
	if s.KeepSuperseded {
		s.Superseded = append(s.Superseded, s.Points[i:]...)
	}
	// The line's runs from the one holding point i on lose their points.
	k := sort.Search(len(s.lineRuns), func(k int) bool { return s.lineRuns[k].n > i }) - 1
	for j := k; j < len(s.lineRuns); j++ {
		end := len(s.Points)
		if j+1 < len(s.lineRuns) {
			end = s.lineRuns[j+1].n
		}
		from := max(i, s.lineRuns[j].n)
		s.countDropped(attemptRun{s.lineRuns[j].attempt, end - from, s.Points[from].Step, s.Points[end-1].Step})
	}
	if s.lineRuns[k].n == i {
		k--
	}
	s.lineRuns = s.lineRuns[:k+1]
	s.Points = s.Points[:i]
	if s.off >= i {
		s.off = 0 // the point off the progression is cut: the rest is one
	}
	s.latest = s.LastAttempt()
}

// filter is Purge on a line whose steps go back (TensorBoard's rule keeps
// them): every point at or above step is taken off, the others keep their
// order.
func (s *Scalars) filter(step int64) {
	var kept []model.Point
	var runs []attemptRun
	for k, r := range s.lineRuns {
		end := len(s.Points)
		if k+1 < len(s.lineRuns) {
			end = s.lineRuns[k+1].n
		}
		start := len(kept)
		for _, p := range s.Points[r.n:end] {
			if p.Step < step {
				kept = append(kept, p)
				continue
			}
			s.Dropped++
			s.countDropped(attemptRun{r.attempt, 1, p.Step, p.Step})
			if s.KeepSuperseded {
				s.Superseded = append(s.Superseded, p)
			}
		}
		if len(kept) > start {
			runs = append(runs, attemptRun{attempt: r.attempt, n: start})
		}
	}
	s.Points = append(s.Points[:0], kept...)
	s.lineRuns = runs
	s.latest = s.LastAttempt()
	s.unsorted = !slices.IsSortedFunc(s.Points, func(a, b model.Point) int { return cmp.Compare(a.Step, b.Step) })
	// The points kept are no longer a prefix of the line: its progression
	// is found again, as Add would have found it.
	s.off = 0
	for i := 1; i < len(s.Points) && s.off == 0; i++ {
		s.follow(i, s.Points[i-1].Step, s.Points[i].Step)
	}
}

func (s *Scalars) countDropped(r attemptRun) {
	if k := len(s.dropRuns); k > 0 && s.dropRuns[k-1].attempt == r.attempt {
		last := &s.dropRuns[k-1]
		last.n += r.n
		last.first, last.last = min(last.first, r.first), max(last.last, r.last)
		return
	}
	s.dropRuns = append(s.dropRuns, r)
}

// LastAttempt returns the attempt of the last point on the line, 0 when
// there is none.
func (s *Scalars) LastAttempt() int {
	if len(s.Points) == 0 {
		return 0
	}
	return s.lineRuns[len(s.lineRuns)-1].attempt
}

// EachLine calls f with the points of the line of each attempt, in order.
func (s *Scalars) EachLine(f func(attempt int, pts []model.Point)) {
	for k, r := range s.lineRuns {
		end := len(s.Points)
		if k+1 < len(s.lineRuns) {
			end = s.lineRuns[k+1].n
		}
		f(r.attempt, s.Points[r.n:end])
	}
}

// EachDropped calls f with how many points of an attempt were taken off
// the line, the bounds of their steps and, when KeepSuperseded is set,
// those points, in the order they were taken off (an attempt may come
// several times).
func (s *Scalars) EachDropped(f func(attempt, n int, first, last int64, pts []model.Point)) {
	at := 0
	for _, r := range s.dropRuns {
		var pts []model.Point
		if s.KeepSuperseded {
			pts = s.Superseded[at : at+r.n]
			at += r.n
		}
		f(r.attempt, r.n, r.first, r.last, pts)
	}
}
