package analysis

import (
	"context"
	"math"
	"slices"
	"sync"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/anomaly"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/analysis/tensorstat"
)

// Budgets of the Tensors page, per (run, tag).
const (
	// tensorPageSteps bounds the steps the statistics chart and the heat
	// map draw: beyond it they are thinned evenly, the last kept. The
	// data file holds the statistics of every step.
	tensorPageSteps = 500
	// tensorPageValues bounds the tensor values the page inlines for its
	// table: the values of as many of the charted steps as fit, spread
	// evenly with the last kept.
	tensorPageValues = 200_000
	// tensorDataValues bounds the values a data file holds, chosen the
	// same way from every step.
	tensorDataValues = 1_000_000
	// tensorBins is the number of bins of the shared histogram grid.
	tensorBins = 30
	// retainValues bounds the decoded values a series keeps between its
	// pass over the steps and its views (the charted steps' counts on the
	// grid that pass finds, the values the outputs hold): a series of
	// more decodes the steps its views need a second time rather than
	// hold them all (a tensor may hold 2^25 values).
	retainValues = 1 << 22
)

// tensorsAndExceptions decodes every tensor of the Tensors and Exceptions
// pages once, a series per worker, and derives both pages' views and the
// statistics the anomaly rules on tensors read.
func tensorsAndExceptions(ctx context.Context, rep *model.Report) (*result.Tensors, *result.Exceptions, *anomaly.Decoded, error) {
	ts := &result.Tensors{Series: map[*model.Tensor]*result.TensorSeries{},
		PageSteps: tensorPageSteps, PageValues: tensorPageValues, DataValues: tensorDataValues}
	xs := &result.Exceptions{Series: map[*model.Exception]*result.ExceptionSeries{}, Tensors: map[*model.Tensor]*result.ExceptionSeries{},
		DetailSteps: exceptionDetailSteps, HeatSide: exceptionHeatSide, Outliers: exceptionOutliers, OutlierK: exceptionOutlierK, K: exceptionK}
	dec := &anomaly.Decoded{Tensors: map[*model.Tensor]anomaly.TensorSteps{}, Exceptions: map[*model.Exception]anomaly.TensorSteps{}}
	type job struct {
		t *model.Tensor
		x *model.Exception
	}
	var jobs []job
	drawn := 0 // series the Exceptions page draws
	for _, run := range rep.Runs {
		for _, x := range run.Exceptions {
			if len(x.Entries) > 0 {
				jobs = append(jobs, job{x: x})
				drawn++
			}
		}
		for _, t := range run.Tensors {
			if len(t.Entries) > 0 {
				jobs = append(jobs, job{t: t})
				if exceptionTensor(t) {
					drawn++
				}
			}
		}
	}
	perSeries := exceptionDetailSteps
	if drawn > 0 {
		perSeries = max(1, min(exceptionDetailSteps, exceptionPageCells/(drawn*exceptionHeatSide*exceptionHeatSide)))
	}
	var mu sync.Mutex
	err := parallel(ctx, len(jobs), func(i int) error {
		j := jobs[i]
		if j.x != nil {
			es := j.x.Entries
			s, err := decodeSeries(ctx, len(es), func(i int) ([]float64, error) { return es[i].Load(rep.Decoders()) },
				func(i int) int64 { return es[i].Step }, func(i int) []int64 { return es[i].Tensor.Shape }, true, perSeries, false)
			if err != nil {
				return err
			}
			mu.Lock()
			defer mu.Unlock()
			xs.Series[j.x] = s.exception
			dec.Exceptions[j.x] = s.steps
			return nil
		}
		es := j.t.Entries
		s, err := decodeSeries(ctx, len(es), func(i int) ([]float64, error) { return es[i].Load(rep.Decoders()) },
			func(i int) int64 { return es[i].Step }, func(i int) []int64 { return es[i].Shape }, exceptionTensor(j.t), perSeries, true)
		if err != nil {
			return err
		}
		s.tensor.F32 = len(es) > 0
		for _, e := range es {
			s.tensor.F32 = s.tensor.F32 && result.IsFloat32(e.DType)
			s.tensor.Float = s.tensor.Float || isFloat(e.DType)
		}
		if err := s.tensorViews(ctx); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		ts.Series[j.t] = s.tensor
		if s.exception != nil {
			xs.Tensors[j.t] = s.exception
		}
		dec.Tensors[j.t] = s.steps
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return ts, xs, dec, nil
}

// exceptionTensor reports whether the Exceptions page draws a tensor
// series: one with a step of more than one value (a box of one value says
// nothing).
func exceptionTensor(t *model.Tensor) bool {
	return slices.ContainsFunc(t.Entries, func(e model.TensorEntry) bool { return elements(e.Shape) > 1 })
}

// isFloat reports whether dtype is a floating-point type, whose values
// are binned on an even grid rather than one bin per integer.
func isFloat(dtype string) bool {
	return result.IsFloat32(dtype) || dtype == "float64"
}

// decoded is one series as decodeSeries leaves it.
type decoded struct {
	n         int
	load      func(i int) ([]float64, error)
	stats     []tensorstat.Stats
	errs      map[int]error
	steps     anomaly.TensorSteps
	exception *result.ExceptionSeries // nil unless the Exceptions page draws it
	tensor    *result.TensorSeries    // nil unless asked for
	// kept are the decoded values of every readable step, nil when they
	// are more than retainValues.
	kept map[int][]float64
}

// decodeSeries decodes each of the n steps of a series once and derives
// from it its statistics, its exception view (when exception is set, with
// the details of perSeries steps) and, when tensor is set, keeps the
// values for tensorViews within retainValues.
func decodeSeries(ctx context.Context, n int, load func(int) ([]float64, error), step func(int) int64, shape func(int) []int64,
	exception bool, perSeries int, tensor bool) (*decoded, error) {
	d := &decoded{n: n, load: load, stats: make([]tensorstat.Stats, n), errs: map[int]error{}}
	var x *exceptionSteps
	if exception {
		x = newExceptionSteps(n, perSeries)
	}
	if tensor {
		d.kept = map[int][]float64{}
	}
	held := 0
	for i := range n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		vals, err := load(i)
		if err != nil {
			d.errs[i] = err
			continue
		}
		st := tensorstat.Of(vals)
		d.stats[i] = st
		d.steps.Steps = append(d.steps.Steps, step(i))
		d.steps.Stats = append(d.steps.Stats, st)
		if x != nil {
			x.add(i, vals, shape(i), st)
		}
		if d.kept != nil {
			if held += len(vals); held > retainValues {
				d.kept = nil
			} else {
				d.kept[i] = vals
			}
		}
	}
	if x != nil {
		d.exception = x.series(d.errs)
	}
	if tensor {
		d.tensor = &result.TensorSeries{Stats: make([]result.TensorStats, n), Errs: d.errs}
		for i, st := range d.stats {
			d.tensor.Stats[i] = result.TensorStats(st)
		}
	}
	return d, nil
}

// tensorViews derives the Tensors page's views of a series: the charted
// steps, their counts on the grid their statistics span, and the values
// the page and the data file hold.
func (d *decoded) tensorViews(ctx context.Context) error {
	s := d.tensor
	for _, i := range result.EvenSteps(d.n, tensorPageSteps) {
		if d.errs[i] == nil {
			s.Charted = append(s.Charted, i)
		}
	}
	all := make([]int, d.n)
	for i := range all {
		all[i] = i
	}
	s.PageValues = d.valueSteps(s.Charted, tensorPageValues)
	s.DataValues = d.valueSteps(all, tensorDataValues)
	stats := make([]tensorstat.Stats, len(s.Charted))
	for k, i := range s.Charted {
		stats[k] = d.stats[i]
	}
	grid, hasGrid := tensorstat.GridOf(stats, tensorBins, !s.Float)
	if hasGrid {
		s.Edges = grid.Edges()
	}
	s.Values, s.Values32 = map[int][]float64{}, map[int][]float32{}
	s.Reread = map[int]error{}
	keep := func(i int, vals []float64) {
		if !s.F32 {
			s.Values[i] = vals
			return
		}
		v32 := make([]float32, len(vals))
		for k, v := range vals {
			v32[k] = float32(v) // exact: single precision or narrower
		}
		s.Values32[i] = v32
	}
	withValues := map[int]bool{}
	for _, i := range s.PageValues {
		withValues[i] = true
	}
	for _, i := range s.DataValues {
		withValues[i] = true
	}
	// The values of a step, kept from the first pass or decoded again.
	values := func(i int) ([]float64, bool) {
		if d.kept != nil {
			return d.kept[i], true
		}
		vals, err := d.load(i)
		if err != nil {
			s.Reread[i] = err
			return nil, false
		}
		return vals, true
	}
	for _, i := range s.Charted {
		if err := ctx.Err(); err != nil {
			return err
		}
		if !hasGrid && !withValues[i] {
			continue
		}
		vals, ok := values(i)
		if hasGrid {
			if ok {
				s.Hist = append(s.Hist, grid.Counts(vals))
			} else {
				s.Hist = append(s.Hist, make([]int, grid.Bins)) // one row per charted step
			}
		}
		if ok && withValues[i] {
			keep(i, vals)
		}
		delete(withValues, i)
	}
	for _, i := range s.DataValues {
		if !withValues[i] {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if vals, ok := values(i); ok {
			keep(i, vals)
		}
	}
	d.kept = nil
	return nil
}

// valueSteps picks, among the entries at indices idx, those whose values
// fit in budget: evenly spread, the last kept, as many as the largest of
// them allows. Entries that could not be read are never picked.
func (d *decoded) valueSteps(idx []int, budget int) []int {
	var ok []int
	largest := 1
	for _, i := range idx {
		if d.errs[i] == nil {
			ok = append(ok, i)
			largest = max(largest, d.stats[i].Count)
		}
	}
	var out []int
	for _, j := range result.EvenSteps(len(ok), budget/largest) {
		out = append(out, ok[j])
	}
	return out
}

// elements is the number of elements of shape, 0 for a negative or
// overflowing one.
func elements(shape []int64) int64 {
	n := int64(1)
	for _, d := range shape {
		if d < 0 || d != 0 && n > math.MaxInt32/d {
			return 0
		}
		n *= d
	}
	return n
}
