package anomaly

import (
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/downsample"
)

// Walker walks the scalar series of one run, each once, for the rules on
// scalar series and for whatever else reads a series' values (the
// analysis' statistics and drawn points): one pass over a series' points
// (finiteValues) finds its finite values, its non-finite count, its
// largest step and its extremes, which every reader then shares, rather
// than each reader going over the 24-byte points again. A staged
// analysis uses one per run, from one goroutine; ScalarsOf is a Walker
// over every series of a run.
type Walker struct {
	rules []Rule
	run   string
	th    Thresholds
	sc    scratch
	out   RunScalars
}

// NewWalker returns a Walker of run's scalar series, for the rules with
// the thresholds th.
func NewWalker(run *model.Run, th Thresholds) *Walker {
	return &Walker{rules: tableOf(Rules()).scalar, run: run.Name, th: th}
}

// Reset makes wk a Walker of run's scalar series, as NewWalker with its
// thresholds, keeping its buffers (a series' values: 8 bytes a point of
// the longest) for the next run's; what Result returned stays as it was.
func (wk *Walker) Reset(run *model.Run) {
	wk.run, wk.out = run.Name, RunScalars{}
}

// Series is a scalar series as a Walker's pass found it. It lives in the
// Walker's buffers: it is valid until the Walker's next Walk.
type Series struct {
	s    *model.Scalar
	thin int // Walk's budget
	ser  *scalarSeries
}

// Walk reads s's points once and returns what it found; Judge then runs
// the rules on it. The pass also finds what downsample.Values of the
// series under thin, a budget of points, reads (Series.Thinned): the
// extremes of its buckets, which cost the pass, whose time goes to
// reading the points, next to nothing. thin <= 0 finds none.
func (wk *Walker) Walk(s *model.Scalar, thin int) Series {
	nb := downsample.Buckets(len(s.Points), thin)
	return Series{s: s, thin: thin, ser: walkPoints(s.Tag, s.Points, &wk.sc, nb, false)}
}

// WalkCopyingWalls is Walk that also copies the series' wall times
// (Series.WallTimes), for a writer of its whole wall-time column: one
// store a point more than Walk, which reads their cache lines anyway.
func (wk *Walker) WalkCopyingWalls(s *model.Scalar, thin int) Series {
	nb := downsample.Buckets(len(s.Points), thin)
	return Series{s: s, thin: thin, ser: walkPoints(s.Tag, s.Points, &wk.sc, nb, true)}
}

// Judge runs the rules on a series Walk returned, its last Walk's. The
// findings keep the order of the calls: judge a run's series in the
// run's order (scalarsRules').
func (wk *Walker) Judge(s Series) {
	for _, r := range wk.rules {
		if a := r.scalar(s.ser, wk.th); a != nil {
			wk.out.Findings = append(wk.out.Findings, r.fired(a, wk.run, s.s.Tag))
		}
	}
	if l := s.ser.maxStep; len(s.s.Points) > 0 && (!wk.out.HasLast || l > wk.out.LastStep) {
		wk.out.LastStep, wk.out.HasLast = l, true
	}
}

// Result returns what the rules found on the series judged so far, and
// the last step of those series.
func (wk *Walker) Result() RunScalars { return wk.out }

// Stats returns the series' statistics, those of model.Scalar.Stats.
func (s Series) Stats() model.Stats {
	pts, ser := s.s.Points, s.ser
	st := model.Stats{Count: len(pts), NonFinite: ser.nonFinite}
	if len(pts) == 0 {
		return st
	}
	extreme := func(i int) model.Extreme {
		return model.Extreme{Step: pts[i].Step, WallTime: pts[i].WallTime, Value: pts[i].Value}
	}
	if ser.min >= 0 {
		st.Min, st.Max, st.HasFinite = extreme(ser.min), extreme(ser.max), true
	}
	st.Last = extreme(len(pts) - 1)
	return st
}

// Values returns the series' values, in its points' order, when every
// one is finite (ok): a reader of the values alone then reads 8 bytes a
// point, already in cache, rather than the 24 of the points. They are
// the Walker's buffer: read only, until its next Walk.
func (s Series) Values() (vals []float64, ok bool) {
	if s.ser.nonFinite > 0 {
		return nil, false
	}
	return s.ser.vals, true
}

// WallTimes returns the series' wall times, in its points' order, when
// the walk copied them (WalkCopyingWalls) and every value is finite (ok;
// the copy stops at the first value that is not, as Values'): the
// Walker's buffer, read only, until its next Walk.
func (s Series) WallTimes() (walls []float64, ok bool) {
	return s.ser.walls, s.ser.hasWalls
}

// StepsSorted reports whether the series' steps are in order (none below
// one before it), as the pass found them.
func (s Series) StepsSorted() bool { return !s.ser.unsorted }

// Thinned returns downsample.Values of the series' values under budget
// (the indices kept and their buckets) from the extremes the pass found,
// when every value is finite and budget is the one Walk was given (ok);
// with ok false the caller thins the series itself.
func (s Series) Thinned(budget int) (keep []int, buckets []downsample.Bucket, ok bool) {
	vals, finite := s.Values()
	if !finite || budget != s.thin {
		return nil, nil, false
	}
	if downsample.Buckets(len(vals), budget) == 0 {
		keep, buckets = downsample.Values(vals, budget) // every index: no pass
		return keep, buckets, true
	}
	keep, buckets = downsample.FromExtremes(vals, s.ser.mins, s.ser.maxs)
	return keep, buckets, true
}
