package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// deltas are the comparison with the baseline (the analysis made it),
// regressions first; nil without a baseline.
func (r *Report) deltas() []result.Delta {
	if r.an.Baseline == nil {
		return nil
	}
	return r.an.Baseline.Deltas
}

// fmtPercent writes a relative change as a signed percentage.
func fmtPercent(rel float64) string { return result.FormatPercent(rel) }

// relChange is (v - base) / |base| (result.RelChange).
func relChange(v, base float64) float64 { return result.RelChange(v, base) }

// fmtChange writes a value against its baseline: "0.41 (0.38, +7.89%)".
func fmtChange(v, base float64) string {
	s := fmtValue(v) + " (" + fmtValue(base)
	if p := fmtPercent(relChange(v, base)); p != "" {
		s += ", " + p
	}
	return s + ")"
}

// changeJSON is v against base in summary.json: the change and the
// relative change are float64s whatever the series.
func changeJSON(v, base float64, f32 bool) summary.Change {
	return summary.Change{Value: summary.Scalar{V: v, F32: f32}, Baseline: summary.Scalar{V: base, F32: f32},
		Change: summary.Scalar{V: v - base}, Relative: summary.Scalar{V: relChange(v, base)}}
}

// baselineJSON is summary.json's "baseline", nil without one.
func (r *Report) baselineJSON() *summary.Comparison {
	b := r.an.Baseline
	if b == nil {
		return nil
	}
	sb := &summary.Comparison{Source: b.Source, Threshold: b.Threshold, Metrics: map[string]map[string]summary.Delta{}}
	for _, d := range b.Deltas {
		ds := summary.Delta{Last: changeJSON(d.Last, d.BaseLast, d.Float32), Regressed: d.Regressed, Why: d.Why,
			Step: summary.StepChange{Value: d.Step, Baseline: d.BaseStep, Change: d.Step - d.BaseStep}}
		if ds.Why == nil {
			ds.Why = []string{}
		}
		if d.HasBest {
			c := changeJSON(d.Best, d.BaseBest, d.Float32)
			ds.Best = &c
		}
		if sb.Metrics[d.Run] == nil {
			sb.Metrics[d.Run] = map[string]summary.Delta{}
		}
		sb.Metrics[d.Run][d.Tag] = ds
		sb.Compared++
		if d.Regressed {
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
	b := r.an.Baseline
	if b == nil {
		return nil
	}
	ds := b.Deltas
	s := &baselineSection{Source: b.Source, Threshold: fmtPercent(b.Threshold)[1:], Compared: len(ds)}
	for _, d := range ds {
		if d.Regressed {
			s.Regressions++
		}
		if len(s.Rows) == overviewMetricRows {
			continue
		}
		row := deltaRow{Tag: d.Tag, Run: d.Run, Last: fmtValue(d.Last), BaseLast: fmtValue(d.BaseLast),
			LastRel: fmtPercent(relChange(d.Last, d.BaseLast)), LastSort: sortable(relChange(d.Last, d.BaseLast)),
			Step: d.Step, BaseStep: d.BaseStep, Regressed: d.Regressed, Why: strings.Join(d.Why, "; "), BestSort: -math.MaxFloat64}
		if d.HasBest {
			row.Best, row.BaseBest = fmtValue(d.Best), fmtValue(d.BaseBest)
			row.BestRel, row.BestSort = fmtPercent(relChange(d.Best, d.BaseBest)), sortable(relChange(d.Best, d.BaseBest))
		}
		s.Rows = append(s.Rows, row)
	}
	if len(ds) > len(s.Rows) {
		s.Cut = fmt.Sprintf("This table shows the first %s of %s series, regressions first; summary.json compares all of them.", result.FormatCount(len(s.Rows)), result.FormatCount(len(ds)))
	}
	return s
}

// appendBaselineChart adds to a chart's data b (an object, ending in
// '}') what the chart of tag draws of the baseline, when there is one:
// "baseline": {"source", "runs": [{"run", "points", "total"}] (a log
// directory's series, drawn dashed), "refs": [{"run", "last", "best"}]
// (a summary.json's values, drawn as reference lines)}.
func (r *Report) appendBaselineChart(b []byte, tag string) []byte {
	base := r.an.Baseline
	if base == nil || len(b) == 0 || b[len(b)-1] != '}' {
		return b
	}
	series, refs := base.Series[tag], base.Refs[tag]
	if len(series) == 0 && len(refs) == 0 {
		return b
	}
	b = append(b[:len(b)-1], `,"baseline":{"source":`...)
	b = appendJSONString(b, base.Source)
	b = append(b, `,"runs":[`...)
	for i, s := range series {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"run":`...)
		b = appendJSONString(b, s.Run)
		b = append(b, `,"points":[`...)
		for j, p := range s.Points {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, p.Step, 10)
			b = append(b, ',')
			b = appendValue(b, p.Value, s.Float32)
			b = append(b, ',')
			b = appendWallTime(b, p.WallTime)
			b = append(b, ']')
		}
		b = append(b, `],"total":`...)
		b = strconv.AppendInt(b, int64(s.Total), 10)
		b = append(b, '}')
	}
	b = append(b, `],"refs":[`...)
	for i, ref := range refs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"run":`...)
		b = appendJSONString(b, ref.Run)
		b = append(b, `,"last":`...)
		b = appendValue(b, ref.Last, ref.Float32)
		if ref.HasBest {
			b = append(b, `,"best":`...)
			b = appendValue(b, ref.Best, ref.Float32)
		}
		b = append(b, '}')
	}
	return append(b, "]}}"...)
}
