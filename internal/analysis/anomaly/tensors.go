package anomaly

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/analysis/tensorstat"
)

// stepStats is what the rules on tensors, histograms and exception
// tensors look at in one step.
type stepStats struct {
	step int64
	// count counts the values; nonFinite those that are NaN or infinite
	// (for a histogram, 1 when its min, max, sum or rows are not finite);
	// zero those equal to zero.
	count, nonFinite, zero int
	// bad is the first non-finite value seen.
	bad float64
	// min and max are over the finite values, NaN when there are none.
	min, max float64
}

// scale is the largest magnitude of the step's finite values.
func (s stepStats) scale() float64 { return max(math.Abs(s.min), math.Abs(s.max)) }

func fromTensorStats(step int64, st tensorstat.Stats) stepStats {
	s := stepStats{step: step, count: st.Count, nonFinite: st.NaN + st.PosInf + st.NegInf, zero: st.Zero, min: st.Min, max: st.Max}
	switch {
	case st.NaN > 0:
		s.bad = math.NaN()
	case st.PosInf > 0:
		s.bad = math.Inf(1)
	case st.NegInf > 0:
		s.bad = math.Inf(-1)
	}
	return s
}

// histogramSteps summarises a histogram series' steps from what each
// histogram says of its values.
func histogramSteps(h *model.Histogram) []stepStats {
	out := make([]stepStats, 0, len(h.Entries))
	for _, e := range h.Entries {
		count := 0
		if e.Count > 0 { // false for NaN, which a damaged histogram may hold
			count = int(min(e.Count, math.MaxInt32))
		}
		s := stepStats{step: e.Step, count: count, min: e.Min, max: e.Max}
		for _, v := range []float64{e.Min, e.Max, e.Sum} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				s.nonFinite, s.bad = 1, v
				break
			}
		}
		for _, b := range e.Buckets {
			if s.nonFinite == 0 && (!finite(b.Left) || !finite(b.Right) || !finite(b.Count)) {
				s.nonFinite, s.bad = 1, math.NaN()
			}
		}
		if s.nonFinite > 0 {
			s.min, s.max = math.NaN(), math.NaN()
		} else if e.Min == 0 && e.Max == 0 {
			s.zero = s.count
		}
		out = append(out, s)
	}
	return out
}

// Decoded holds the statistics of the readable steps of tensor and
// exception series, decoded once by the caller (the analysis stage, which
// decodes each tensor for its pages too), so that the rules read no
// payload again.
type Decoded struct {
	Tensors    map[*model.Tensor]TensorSteps
	Exceptions map[*model.Exception]TensorSteps
}

// TensorSteps are the statistics of the steps of a series that could be
// read, in the series' order: Stats[i] of step Steps[i]. A step that
// could not be read is left out (the tensors page says why).
type TensorSteps struct {
	Steps []int64
	Stats []tensorstat.Stats
}

func (ts TensorSteps) stepStats() []stepStats {
	out := make([]stepStats, len(ts.Steps))
	for i, step := range ts.Steps {
		out[i] = fromTensorStats(step, ts.Stats[i])
	}
	return out
}

// tensorRules runs the rules over the tensor and exception series of a
// run: with the statistics d holds, else decoding the series with dec.
func tensorRules(ctx context.Context, run *model.Run, tab table, th Thresholds, dec model.Decoders, d *Decoded) []result.Anomaly {
	var out []result.Anomaly
	for _, t := range run.Tensors {
		var steps []stepStats
		if ts, ok := d.tensor(t); ok {
			steps = ts.stepStats()
		} else {
			steps = loadSteps(ctx, t.Entries, func(e model.TensorEntry) (int64, []float64, error) {
				v, err := e.Load(dec)
				return e.Step, v, err
			})
		}
		out = append(out, stepRules(tab.steps[result.KindTensor], run.Name, t.Tag, steps, th)...)
	}
	for _, x := range run.Exceptions {
		var steps []stepStats
		if xs, ok := d.exception(x); ok {
			steps = xs.stepStats()
		} else {
			steps = loadSteps(ctx, x.Entries, func(e model.ExceptionEntry) (int64, []float64, error) {
				v, err := e.Load(dec)
				return e.Step, v, err
			})
		}
		out = append(out, stepRules(tab.steps[result.KindException], run.Name, x.Tag, steps, th)...)
	}
	return out
}

func (d *Decoded) tensor(t *model.Tensor) (TensorSteps, bool) {
	if d == nil {
		return TensorSteps{}, false
	}
	ts, ok := d.Tensors[t]
	return ts, ok
}

func (d *Decoded) exception(x *model.Exception) (TensorSteps, bool) {
	if d == nil {
		return TensorSteps{}, false
	}
	xs, ok := d.Exceptions[x]
	return xs, ok
}

// loadSteps reads and summarises each step of a tensor series; steps that
// cannot be read are left out (the tensors page says why).
func loadSteps[E any](ctx context.Context, entries []E, load func(E) (int64, []float64, error)) []stepStats {
	out := make([]stepStats, 0, len(entries))
	for _, e := range entries {
		if ctx.Err() != nil {
			break
		}
		step, vals, err := load(e)
		if err != nil {
			continue
		}
		out = append(out, fromTensorStats(step, tensorstat.Of(vals)))
	}
	return out
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// stepRules runs the rules of a table over the steps of one series (their
// kind is the table's: rules holds those of one kind).
func stepRules(rules []Rule, run, tag string, steps []stepStats, th Thresholds) []result.Anomaly {
	var out []result.Anomaly
	for _, r := range rules {
		if a := r.steps(steps, th); a != nil {
			out = append(out, r.fired(a, run, tag))
		}
	}
	return out
}

// stepNonFinite fires at the first step holding a NaN or an infinity.
func stepNonFinite(steps []stepStats, _ Thresholds) *result.Anomaly {
	first, n := -1, 0
	for i, s := range steps {
		if s.nonFinite > 0 {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	if first < 0 {
		return nil
	}
	s := steps[first]
	return stepFinding(s, s.bad, n, fmt.Sprintf("NaN or infinity first at step %d (%d of %d steps)", s.step, n, len(steps)))
}

// lastJudged returns the last step of a series of at least two steps when
// it is finite and holds more than one value: what the rules all_zero and
// constant look at.
func lastJudged(steps []stepStats) (stepStats, bool) {
	if len(steps) < 2 {
		return stepStats{}, false
	}
	last := steps[len(steps)-1]
	return last, last.nonFinite == 0 && last.count >= 2
}

// stepAllZero fires when every value of the last step is zero.
func stepAllZero(steps []stepStats, _ Thresholds) *result.Anomaly {
	last, ok := lastJudged(steps)
	if !ok || last.zero != last.count {
		return nil
	}
	return stepFinding(last, 0, last.count, fmt.Sprintf("all %d values are zero at the last step, %d", last.count, last.step))
}

// stepConstant fires when every value of the last step equals one
// non-zero value (all zero is stepAllZero's).
func stepConstant(steps []stepStats, _ Thresholds) *result.Anomaly {
	last, ok := lastJudged(steps)
	if !ok || last.zero == last.count || last.min != last.max {
		return nil
	}
	return stepFinding(last, last.min, last.count, fmt.Sprintf("all %d values equal %.6g at the last step, %d", last.count, last.min, last.step))
}

// scales returns the first step with finite values and the last step of a
// series of at least two steps, when the last is finite and is not that
// first step, and their scales: what the rules exploding and vanishing
// compare.
func scales(steps []stepStats) (from, last stepStats, a, b float64, ok bool) {
	if len(steps) < 2 {
		return
	}
	last = steps[len(steps)-1]
	i := slices.IndexFunc(steps, func(s stepStats) bool { return finite(s.min) })
	if i < 0 || !finite(last.min) || i == len(steps)-1 {
		return
	}
	from = steps[i]
	return from, last, from.scale(), last.scale(), true
}

// stepExploding fires when the scale of the last step is more than
// th.ScaleFactor times that of the first.
func stepExploding(steps []stepStats, th Thresholds) *result.Anomaly {
	from, last, a, b, ok := scales(steps)
	if !ok || !(a > 0 && b > th.ScaleFactor*a) {
		return nil
	}
	return stepFinding(last, b, 1, fmt.Sprintf("largest magnitude grew from %.6g (step %d) to %.6g (step %d)", a, from.step, b, last.step))
}

// stepVanishing fires when the scale of the last step is below that of
// the first by more than th.ScaleFactor, and not zero; never with
// stepExploding (which thresholds below 1 could both satisfy).
func stepVanishing(steps []stepStats, th Thresholds) *result.Anomaly {
	from, last, a, b, ok := scales(steps)
	if !ok || a > 0 && b > th.ScaleFactor*a || !(b > 0 && a > th.ScaleFactor*b) {
		return nil
	}
	return stepFinding(last, b, 1, fmt.Sprintf("largest magnitude shrank from %.6g (step %d) to %.6g (step %d)", a, from.step, b, last.step))
}

func stepFinding(s stepStats, value float64, count int, detail string) *result.Anomaly {
	return &result.Anomaly{HasStep: true, Step: s.step, Value: value, Count: count, Detail: detail}
}
