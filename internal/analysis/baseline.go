package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/downsample"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// Baseline is an earlier report to compare this one with (--baseline):
// its summary, read from the summary.json given or made from the log
// directory given (SummaryOf).
type Baseline struct {
	// Source names it on the pages: the path given.
	Source  string
	Summary *summary.File
	// Threshold is the relative change, in the worse direction, of a
	// metric's last or best value past which the change is flagged as a
	// regression. Zero means DefaultRegressionThreshold.
	Threshold float64
	// Runs are the baseline's runs with their scalar series, when a log
	// directory was given (nil for a summary.json): the charts draw
	// them beside this report's. Only Name and Scalars are read.
	Runs []*model.Run
}

// DefaultRegressionThreshold flags a metric 2% worse than the baseline.
const DefaultRegressionThreshold = 0.02

// scalarTag is one scalar tag across the runs that have it, in run order.
type scalarTag struct {
	tag    string
	series []runScalar
}

type runScalar struct {
	run    *model.Run
	scalar *model.Scalar
}

// scalarTags are the scalar series with points by tag, the tags whose
// better direction is known first (losses, accuracies), each part in tag
// order, each tag's runs in report order: the order of the outputs'
// tables.
func scalarTags(rep *model.Report) []scalarTag {
	var tags []scalarTag
	at := map[string]int{}
	for _, run := range rep.Runs {
		for _, s := range run.Scalars {
			if len(s.Points) == 0 {
				continue
			}
			i, ok := at[s.Tag]
			if !ok {
				i = len(tags)
				at[s.Tag] = i
				tags = append(tags, scalarTag{tag: s.Tag})
			}
			tags[i].series = append(tags[i].series, runScalar{run, s})
		}
	}
	slices.SortFunc(tags, func(a, b scalarTag) int { return cmp.Compare(a.tag, b.tag) })
	slices.SortStableFunc(tags, func(a, b scalarTag) int {
		ka, kb := result.BetterOf(a.tag) == result.UnknownBetter, result.BetterOf(b.tag) == result.UnknownBetter
		switch {
		case ka == kb:
			return 0
		case kb:
			return -1
		}
		return 1
	})
	return tags
}

// compare compares each series of rep with the baseline's of the same run
// and tag, regressions first; nil without a baseline.
func compare(rep *model.Report, b *Baseline, drawCap int, stats func(*model.Scalar) model.Stats) *result.Baseline {
	if b == nil {
		return nil
	}
	th := b.Threshold
	if th == 0 {
		th = DefaultRegressionThreshold
	}
	if b.Summary == nil {
		return &result.Baseline{Source: b.Source, Threshold: th, Series: baselineSeries(rep, b.Runs, drawCap)}
	}
	var out, rest []result.Delta
	for _, tv := range scalarTags(rep) {
		for _, rs := range tv.series {
			bm, ok := b.Summary.Metrics[rs.run.Name][tv.tag]
			if !ok {
				continue
			}
			st := stats(rs.scalar)
			f32 := rs.scalar.Float32
			d := result.Delta{Run: rs.run.Name, Tag: tv.tag, Better: result.BetterOf(tv.tag), Float32: f32,
				Last: st.Last.Value, BaseLast: asStored(bm.Last.Value, f32), Step: st.Last.Step, BaseStep: bm.Last.Step}
			if d.Better != result.UnknownBetter && st.HasFinite {
				d.Best = st.Min.Value
				if d.Better == result.HigherBetter {
					d.Best = st.Max.Value
				}
				bb := bm.Min
				if d.Better == result.HigherBetter {
					bb = bm.Max
				}
				if bb != nil {
					d.BaseBest, d.HasBest = asStored(bb.Value, f32), true
				}
			}
			finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
			switch {
			case !finite(d.Last) && finite(d.BaseLast):
				d.Why = append(d.Why, "last value "+result.FormatValue(d.Last)+", the baseline's was finite")
			case worse(result.RelChange(d.Last, d.BaseLast), d.Better, th):
				d.Why = append(d.Why, fmt.Sprintf("last %s than the baseline's by %s", worseWord(d.Better), result.FormatPercent(result.RelChange(d.Last, d.BaseLast))))
			}
			if d.HasBest && worse(result.RelChange(d.Best, d.BaseBest), d.Better, th) {
				d.Why = append(d.Why, fmt.Sprintf("best %s than the baseline's by %s", worseWord(d.Better), result.FormatPercent(result.RelChange(d.Best, d.BaseBest))))
			}
			if d.BaseStep > 0 && float64(d.Step) < (1-th)*float64(d.BaseStep) {
				d.Why = append(d.Why, fmt.Sprintf("stopped at step %d, the baseline reached %d", d.Step, d.BaseStep))
			}
			d.Regressed = len(d.Why) > 0
			if d.Regressed {
				out = append(out, d)
			} else {
				rest = append(rest, d)
			}
		}
	}
	rb := &result.Baseline{Source: b.Source, Threshold: th, Deltas: append(out, rest...)}
	if b.Runs != nil {
		rb.Series = baselineSeries(rep, b.Runs, drawCap)
	} else {
		rb.Refs = baselineRefs(rep, b.Summary)
	}
	return rb
}

// reportTags are the scalar tags of rep with points.
func reportTags(rep *model.Report) map[string]bool {
	tags := map[string]bool{}
	for _, run := range rep.Runs {
		for _, s := range run.Scalars {
			if len(s.Points) > 0 {
				tags[s.Tag] = true
			}
		}
	}
	return tags
}

// baselineSeries are the baseline runs' series of rep's tags, in the
// baseline's run order, at most result.MaxBaselineRuns per tag, each
// downsampled to drawCap points as the report's own are (the same
// buckets: first, last, lowest and highest).
func baselineSeries(rep *model.Report, runs []*model.Run, drawCap int) map[string][]result.BaselineSeries {
	if len(runs) == 0 {
		return nil
	}
	tags := reportTags(rep)
	out := map[string][]result.BaselineSeries{}
	for _, run := range runs {
		for _, s := range run.Scalars {
			if len(s.Points) == 0 || !tags[s.Tag] || len(out[s.Tag]) >= result.MaxBaselineRuns {
				continue
			}
			keep, _ := downsample.Points(s.Points, drawCap)
			pts := make([]model.Point, len(keep))
			for i, k := range keep {
				pts[i] = s.Points[k]
			}
			out[s.Tag] = append(out[s.Tag], result.BaselineSeries{Run: run.Name, Float32: s.Float32, Points: pts, Total: len(s.Points)})
		}
	}
	return out
}

// baselineRefs are the last and best values of rep's tags in the
// baseline's summary, at most result.MaxBaselineRuns per tag, in run name
// order (the summary's runs are a map).
func baselineRefs(rep *model.Report, sum *summary.File) map[string][]result.BaselineRef {
	tags := reportTags(rep)
	names := make([]string, 0, len(sum.Metrics))
	for name := range sum.Metrics {
		names = append(names, name)
	}
	slices.Sort(names)
	f32 := map[string]bool{}
	for _, run := range rep.Runs {
		for _, s := range run.Scalars {
			if s.Float32 {
				f32[s.Tag] = true
			}
		}
	}
	out := map[string][]result.BaselineRef{}
	for _, name := range names {
		for tag, m := range sum.Metrics[name] {
			if !tags[tag] || len(out[tag]) >= result.MaxBaselineRuns {
				continue
			}
			ref := result.BaselineRef{Run: name, Float32: f32[tag], Last: asStored(m.Last.Value, f32[tag])}
			if bp := m.Best(); bp != nil {
				ref.Best, ref.HasBest = asStored(bp.Value, f32[tag]), true
			}
			out[tag] = append(out[tag], ref)
		}
	}
	return out
}

// worse reports whether the relative change rel of a metric whose better
// direction is dir goes the wrong way by more than th.
func worse(rel float64, dir result.Direction, th float64) bool {
	switch dir {
	case result.LowerBetter:
		return rel > th
	case result.HigherBetter:
		return rel < -th
	}
	return false
}

func worseWord(d result.Direction) string {
	if d == result.HigherBetter {
		return "lower"
	}
	return "higher"
}

// asStored rounds a value read back from summary.json as its series
// stores it: to float32 for a float32 series.
func asStored(v float64, f32 bool) float64 {
	if f32 {
		return float64(float32(v))
	}
	return v
}

// BaselineRuns returns what the charts can draw of a baseline log
// directory's runs: per tag the first result.MaxBaselineRuns runs with
// points (the runs compare draws), each series downsampled to maxPoints
// (zero means DefaultMaxPoints) and copied, so that the baseline's
// points are let go before the report's own are read.
func BaselineRuns(runs []*model.Run, maxPoints int) []*model.Run {
	if maxPoints <= 0 {
		maxPoints = DefaultMaxPoints
	}
	perTag := map[string]int{}
	var out []*model.Run
	for _, run := range runs {
		kept := &model.Run{Name: run.Name}
		for _, s := range run.Scalars {
			if len(s.Points) == 0 || perTag[s.Tag] >= result.MaxBaselineRuns {
				continue
			}
			perTag[s.Tag]++
			keep, _ := downsample.Points(s.Points, maxPoints)
			pts := make([]model.Point, len(keep))
			for i, k := range keep {
				pts[i] = s.Points[k]
			}
			kept.Scalars = append(kept.Scalars, &model.Scalar{Tag: s.Tag, Points: pts, Float32: s.Float32})
		}
		if len(kept.Scalars) > 0 {
			out = append(out, kept)
		}
	}
	return out
}
