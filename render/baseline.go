package render

import (
	"fmt"
	"math"
	"strings"

	"github.com/trainreport/trainreport/internal/summary"
)

// Baseline is an earlier report to compare this one with (--baseline):
// its summary.json, read back.
type Baseline struct {
	// Source names it on the pages: the path given.
	Source  string
	Summary *summary.File
	// Threshold is the relative change, in the worse direction, of a
	// metric's last or best value past which the change is flagged as a
	// regression. Zero means DefaultRegressionThreshold.
	Threshold float64
}

// DefaultRegressionThreshold flags a metric 2% worse than the baseline.
const DefaultRegressionThreshold = 0.02

// delta is one (run, tag) series against the same run and tag of the
// baseline.
type delta struct {
	run, tag string
	sv       *seriesView
	better   direction
	// f32: the series is of float32 values; the baseline's, read back
	// from their shortest decimal form, are rounded to float32 too, so
	// that an unchanged value compares equal.
	f32 bool
	// last and step: this report's last value and step, and the
	// baseline's.
	last, baseLast float64
	step, baseStep int64
	// best: over finite values, by the direction the name says; ok when
	// both reports have one.
	best, baseBest float64
	hasBest        bool
	regressed      bool
	why            []string
}

// relChange is (v - base) / |base|: +Inf or -Inf when base is 0 and v is
// not, NaN when either is not finite.
func relChange(v, base float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) || math.IsNaN(base) || math.IsInf(base, 0) {
		return math.NaN()
	}
	if base == 0 {
		switch {
		case v > 0:
			return math.Inf(1)
		case v < 0:
			return math.Inf(-1)
		}
		return 0
	}
	return (v - base) / math.Abs(base)
}

// worse reports whether the relative change rel of a metric whose better
// direction is dir goes the wrong way by more than th.
func worse(rel float64, dir direction, th float64) bool {
	switch dir {
	case lowerBetter:
		return rel > th
	case higherBetter:
		return rel < -th
	}
	return false
}

// deltas compares each series with the baseline's of the same run and
// tag, regressions first, then in tag and run order; nil without a
// baseline.
func (r *Report) deltas() []*delta {
	b := r.opt.Baseline
	if b == nil || b.Summary == nil {
		return nil
	}
	th := b.Threshold
	if th == 0 {
		th = DefaultRegressionThreshold
	}
	var out, rest []*delta
	for _, tv := range r.orderedTags() {
		for _, sv := range tv.series {
			bm, ok := b.Summary.Metrics[sv.run.Name][tv.tag]
			if !ok {
				continue
			}
			st := sv.stats
			f32 := sv.scalar.Float32
			d := &delta{run: sv.run.Name, tag: tv.tag, sv: sv, better: betterOf(tv.tag), f32: f32,
				last: st.Last.Value, baseLast: asStored(bm.Last.Value, f32), step: st.Last.Step, baseStep: bm.Last.Step}
			if d.better != unknownBetter && st.HasFinite {
				d.best = st.Min.Value
				if d.better == higherBetter {
					d.best = st.Max.Value
				}
				bb := bm.Min
				if d.better == higherBetter {
					bb = bm.Max
				}
				if bb != nil {
					d.baseBest, d.hasBest = asStored(bb.Value, f32), true
				}
			}
			finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
			switch {
			case !finite(d.last) && finite(d.baseLast):
				d.why = append(d.why, "last value "+fmtValue(d.last)+", the baseline's was finite")
			case worse(relChange(d.last, d.baseLast), d.better, th):
				d.why = append(d.why, fmt.Sprintf("last %s than the baseline's by %s", worseWord(d.better), fmtPercent(relChange(d.last, d.baseLast))))
			}
			if d.hasBest && worse(relChange(d.best, d.baseBest), d.better, th) {
				d.why = append(d.why, fmt.Sprintf("best %s than the baseline's by %s", worseWord(d.better), fmtPercent(relChange(d.best, d.baseBest))))
			}
			if d.baseStep > 0 && float64(d.step) < (1-th)*float64(d.baseStep) {
				d.why = append(d.why, fmt.Sprintf("stopped at step %d, the baseline reached %d", d.step, d.baseStep))
			}
			d.regressed = len(d.why) > 0
			if d.regressed {
				out = append(out, d)
			} else {
				rest = append(rest, d)
			}
		}
	}
	return append(out, rest...)
}

func worseWord(d direction) string {
	if d == higherBetter {
		return "lower"
	}
	return "higher"
}

// fmtPercent writes a relative change as a signed percentage.
func fmtPercent(rel float64) string {
	switch {
	case math.IsNaN(rel):
		return ""
	case math.IsInf(rel, 1):
		return "+∞%"
	case math.IsInf(rel, -1):
		return "−∞%"
	}
	s := fmt.Sprintf("%+.2f%%", 100*rel)
	return strings.Replace(s, "-", "−", 1)
}

// fmtChange writes a value against its baseline: "0.41 (0.38, +7.89%)".
func fmtChange(v, base float64) string {
	s := fmtValue(v) + " (" + fmtValue(base)
	if p := fmtPercent(relChange(v, base)); p != "" {
		s += ", " + p
	}
	return s + ")"
}

// summaryBaseline is summary.json's "baseline".
type summaryBaseline struct {
	Source      string                                 `json:"source"`
	Threshold   float64                                `json:"threshold"`
	Compared    int                                    `json:"compared"`
	Regressions int                                    `json:"regressions"`
	Metrics     map[string]map[string]summaryDeltaStat `json:"metrics"` // run -> tag
}

type summaryDeltaStat struct {
	Last      summaryChange  `json:"last"`
	Best      *summaryChange `json:"best"`
	Step      summaryStep    `json:"step"`
	Regressed bool           `json:"regressed"`
	Why       []string       `json:"why"`
}

type summaryChange struct {
	Value    jsonScalar `json:"value"`
	Baseline jsonScalar `json:"baseline"`
	Change   jsonScalar `json:"change"`
	Relative jsonScalar `json:"relative"`
}

type summaryStep struct {
	Value    int64 `json:"value"`
	Baseline int64 `json:"baseline"`
	Change   int64 `json:"change"`
}

func changeJSON(v, base float64, f32 bool) summaryChange {
	return summaryChange{jsonScalar{v, f32}, jsonScalar{base, f32}, jsonScalar{v: v - base}, jsonScalar{v: relChange(v, base)}}
}

// asStored rounds a value read back from summary.json as its series
// stores it: to float32 for a float32 series.
func asStored(v float64, f32 bool) float64 {
	if f32 {
		return float64(float32(v))
	}
	return v
}

// baselineJSON is summary.json's "baseline", nil without one.
func (r *Report) baselineJSON() *summaryBaseline {
	if r.opt.Baseline == nil {
		return nil
	}
	th := r.opt.Baseline.Threshold
	if th == 0 {
		th = DefaultRegressionThreshold
	}
	sb := &summaryBaseline{Source: r.opt.Baseline.Source, Threshold: th, Metrics: map[string]map[string]summaryDeltaStat{}}
	for _, d := range r.deltas() {
		ds := summaryDeltaStat{Last: changeJSON(d.last, d.baseLast, d.f32), Regressed: d.regressed, Why: d.why,
			Step: summaryStep{d.step, d.baseStep, d.step - d.baseStep}}
		if ds.Why == nil {
			ds.Why = []string{}
		}
		if d.hasBest {
			c := changeJSON(d.best, d.baseBest, d.f32)
			ds.Best = &c
		}
		if sb.Metrics[d.run] == nil {
			sb.Metrics[d.run] = map[string]summaryDeltaStat{}
		}
		sb.Metrics[d.run][d.tag] = ds
		sb.Compared++
		if d.regressed {
			sb.Regressions++
		}
	}
	return sb
}

// baselineSection is the overview's comparison with the baseline.
type baselineSection struct {
	Source, Threshold string
	Compared          int
	Regressions       int
	Rows              []deltaRow
	// Cut says how many rows the table leaves out, when it does.
	Cut string
}

type deltaRow struct {
	Tag, Run                string
	Last, BaseLast, LastRel string
	Best, BaseBest, BestRel string
	LastSort, BestSort      float64
	Step, BaseStep          int64
	Regressed               bool
	Why                     string
}

// baselineSection builds the overview's comparison, nil without a
// baseline; at most overviewMetricRows rows, regressions first.
func (r *Report) baselineSection() *baselineSection {
	b := r.opt.Baseline
	if b == nil {
		return nil
	}
	th := b.Threshold
	if th == 0 {
		th = DefaultRegressionThreshold
	}
	ds := r.deltas()
	s := &baselineSection{Source: b.Source, Threshold: fmtPercent(th)[1:], Compared: len(ds)}
	for _, d := range ds {
		if d.regressed {
			s.Regressions++
		}
		if len(s.Rows) == overviewMetricRows {
			continue
		}
		row := deltaRow{Tag: d.tag, Run: d.run, Last: fmtValue(d.last), BaseLast: fmtValue(d.baseLast),
			LastRel: fmtPercent(relChange(d.last, d.baseLast)), LastSort: sortable(relChange(d.last, d.baseLast)),
			Step: d.step, BaseStep: d.baseStep, Regressed: d.regressed, Why: strings.Join(d.why, "; "), BestSort: -math.MaxFloat64}
		if d.hasBest {
			row.Best, row.BaseBest = fmtValue(d.best), fmtValue(d.baseBest)
			row.BestRel, row.BestSort = fmtPercent(relChange(d.best, d.baseBest)), sortable(relChange(d.best, d.baseBest))
		}
		s.Rows = append(s.Rows, row)
	}
	if len(ds) > len(s.Rows) {
		s.Cut = fmt.Sprintf("This table shows the first %s of %s series, regressions first; summary.json compares all of them.", fmtCount(len(s.Rows)), fmtCount(len(ds)))
	}
	return s
}
