package analysis

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/gate"
	"github.com/trainreport/trainreport/internal/summary"
)

// SummaryOf is what a gate reads of a report, and what a later report
// compares itself with when this one is its baseline: the figures of its
// summary.json, taken from the model and the analysis rather than read
// back from the text. It equals what summary.Read makes of the
// summary.json render writes of them (a float32 series' values are those
// of their shortest decimal form, as the file writes them); an's
// Baseline, when set, gives the regressions.
func SummaryOf(rep *model.Report, an *result.Analysis) *summary.File {
	f := &summary.File{Metrics: map[string]map[string]summary.Metric{}, Warnings: len(rep.Warnings)}
	stats := statsOf(an)
	for _, run := range rep.Runs {
		f.Runs = append(f.Runs, run.Name)
		f.Warnings += len(run.Warnings)
		for _, fl := range run.LogFiles() {
			if summary.Damaged(fl.Status) {
				f.Damaged++
			}
		}
		m := map[string]summary.Metric{}
		for _, s := range run.Scalars {
			if len(s.Points) == 0 {
				continue
			}
			st := stats(s)
			mt := summary.Metric{Points: st.Count, NonFinite: st.NonFinite, Last: asWritten(st.Last, s.Float32),
				Better: result.BetterOf(s.Tag).String()}
			if st.HasFinite {
				mn, mx := asWritten(st.Min, s.Float32), asWritten(st.Max, s.Float32)
				mt.Min, mt.Max = &mn, &mx
			}
			m[s.Tag] = mt
		}
		if len(m) > 0 {
			f.Metrics[run.Name] = m
		}
	}
	if an.Baseline != nil {
		for _, d := range an.Baseline.Deltas {
			if d.Regressed {
				f.Regressions = append(f.Regressions, summary.Regression{Run: d.Run, Tag: d.Tag, Why: d.Why})
			}
		}
		slices.SortFunc(f.Regressions, func(a, b summary.Regression) int {
			return cmp.Or(cmp.Compare(a.Run, b.Run), cmp.Compare(a.Tag, b.Tag))
		})
	}
	for _, a := range an.Anomalies {
		sa := summary.Anomaly{Rule: a.Rule, Run: a.Run, Tag: a.Tag, Message: a.Message}
		if a.HasStep {
			step := a.Step
			sa.Step = &step
		}
		f.Anomalies = append(f.Anomalies, sa)
	}
	return f
}

// asWritten is a point as summary.json's reader reads it back: a float32
// series' value is written in the shortest decimal form that reads back
// to the same float32, which, read as a float64, is not the float32's
// exact value.
func asWritten(e model.Extreme, f32 bool) summary.Point {
	v := e.Value
	if f32 && !math.IsNaN(v) && !math.IsInf(v, 0) {
		v, _ = strconv.ParseFloat(strconv.FormatFloat(v, 'g', -1, 32), 64)
	}
	return summary.Point{Step: e.Step, Value: v}
}

// evalGates evaluates the gates over the report's summary (SummaryOf)
// and the baseline's, failed first.
func evalGates(rep *model.Report, an *result.Analysis, gates []*gate.Gate, base *Baseline) []result.Gate {
	if len(gates) == 0 {
		return nil
	}
	cur := SummaryOf(rep, an)
	var bs *summary.File
	if base != nil {
		bs = base.Summary
	}
	var failed, passed []result.Gate
	for _, g := range gates {
		res := g.Eval(cur, bs)
		rg := result.Gate{Expr: res.Expr, Failed: res.Failed, Runs: res.Runs, Err: res.Err, Text: res.String()}
		for _, h := range res.Held {
			rg.Held = append(rg.Held, result.GateHeld{Run: h.Run, Values: h.Values})
		}
		if rg.Failed {
			failed = append(failed, rg)
		} else {
			passed = append(passed, rg)
		}
	}
	return append(failed, passed...)
}
