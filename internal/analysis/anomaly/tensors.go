package anomaly

import (
	"context"
	"fmt"
	"math"

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
func tensorRules(ctx context.Context, run *model.Run, th Thresholds, dec model.Decoders, d *Decoded) []result.Anomaly {
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
		out = append(out, stepRules(result.KindTensor, run.Name, t.Tag, steps, th)...)
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
		out = append(out, stepRules(result.KindException, run.Name, x.Tag, steps, th)...)
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

// tensorKindRules are the names of the rules over the steps of a tensor,
// histogram or exception series, after MindInsight's watchpoint conditions
// (docs/ANOMALIES.md): prefixed with the kind.
var tensorKindRules = []struct {
	name     string
	severity result.Severity
	doc      string
}{
	{"nonfinite", result.Error, "the first step holding a NaN or an infinity (MindInsight: tensor overflow, gradient explosion)"},
	{"all_zero", result.Warning, "every value is zero at the last step, in a series of at least two steps (MindInsight: all zero)"},
	{"constant", result.Warning, "every value equals one non-zero value at the last step, in a tensor of more than one value and a series of at least two steps (MindInsight: tensor unchanged)"},
	{"exploding", result.Warning, "the largest magnitude of the last step is more than ScaleFactor times that of the first (MindInsight: tensor too large, weight change above threshold)"},
	{"vanishing", result.Warning, "the largest magnitude of the last step is below that of the first by more than ScaleFactor, and not zero (MindInsight: tensor too small, gradient vanishing)"},
}

// stepRules runs the rules over the steps of one series of kind k.
func stepRules(k result.Kind, run, tag string, steps []stepStats, th Thresholds) []result.Anomaly {
	var out []result.Anomaly
	add := func(name string, severity result.Severity, s stepStats, value float64, count int, msg string) {
		out = append(out, result.Anomaly{Rule: string(k) + "." + name, Severity: severity, Kind: k, Run: run, Tag: tag,
			HasStep: true, Step: s.step, Value: value, Count: count,
			Detail: msg})
	}
	first, n := -1, 0
	for i, s := range steps {
		if s.nonFinite > 0 {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	if first >= 0 {
		s := steps[first]
		add("nonfinite", result.Error, s, s.bad, n, fmt.Sprintf("NaN or infinity first at step %d (%d of %d steps)", s.step, n, len(steps)))
	}
	if len(steps) < 2 {
		return out
	}
	last := steps[len(steps)-1]
	switch {
	case last.nonFinite > 0 || last.count < 2:
	case last.zero == last.count:
		add("all_zero", result.Warning, last, 0, last.count, fmt.Sprintf("all %d values are zero at the last step, %d", last.count, last.step))
	case last.min == last.max:
		add("constant", result.Warning, last, last.min, last.count, fmt.Sprintf("all %d values equal %.6g at the last step, %d", last.count, last.min, last.step))
	}
	var from *stepStats
	for i := range steps {
		if finite(steps[i].min) {
			from = &steps[i]
			break
		}
	}
	if from == nil || !finite(last.min) || from == &steps[len(steps)-1] {
		return out
	}
	a, b := from.scale(), last.scale()
	switch {
	case a > 0 && b > th.ScaleFactor*a:
		add("exploding", result.Warning, last, b, 1, fmt.Sprintf("largest magnitude grew from %.6g (step %d) to %.6g (step %d)", a, from.step, b, last.step))
	case b > 0 && a > th.ScaleFactor*b:
		add("vanishing", result.Warning, last, b, 1, fmt.Sprintf("largest magnitude shrank from %.6g (step %d) to %.6g (step %d)", a, from.step, b, last.step))
	}
	return out
}
