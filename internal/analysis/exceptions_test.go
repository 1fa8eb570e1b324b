package analysis

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
)

// The detail steps of a series are spread evenly with the last kept, the
// first step holding a NaN among them, never more than asked for; a step
// that cannot be read has no box and is counted; and every step is
// decoded once.
func TestExceptionDetailSteps(t *testing.T) {
	const steps = 100
	loads := make([]int, steps)
	load := func(i int) ([]float64, error) {
		loads[i]++
		switch i {
		case 37:
			return []float64{1, math.NaN(), 2, 3, 4, 5}, nil
		case 50:
			return nil, fmt.Errorf("unreadable")
		}
		return []float64{float64(i), 1, 2, 3, 4, 5}, nil
	}
	d, err := decodeSeries(context.Background(), steps, load, func(i int) int64 { return int64(10 * i) },
		func(int) []int64 { return []int64{2, 3} }, true, 10, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.tensorViews(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := d.exception
	var picked []int
	for _, d := range s.Details {
		picked = append(picked, d.Index)
	}
	if len(picked) > 10 || !slices.Contains(picked, 37) || picked[len(picked)-1] != steps-1 || !slices.IsSorted(picked) {
		t.Errorf("detail steps %v: want at most 10, sorted, with 37 and %d", picked, steps-1)
	}
	if s.NonFinite[37] != 1 || len(s.Errs) != 1 || s.Errs[50] == nil || s.OK[50] {
		t.Errorf("nonfinite %d, errs %v", s.NonFinite[37], s.Errs)
	}
	dt := s.Details[slices.Index(picked, 37)]
	if dt.Outliers.Total < 1 || !slices.Contains(dt.Outliers.Indices, 1) || dt.Heat.Rows != 2 || dt.Heat.Cols != 3 || !dt.HasHist {
		t.Errorf("step 37: outliers %+v, heat map %dx%d", dt.Outliers, dt.Heat.Rows, dt.Heat.Cols)
	}
	for i, n := range loads {
		if n != 1 {
			t.Errorf("step %d decoded %d times, want once", i, n)
		}
	}
	if len(d.steps.Steps) != steps-1 || slices.Contains(d.steps.Steps, 500) {
		t.Errorf("the anomaly rules get %d steps, want every readable one (%d)", len(d.steps.Steps), steps-1)
	}
}

// A series whose values are more than retainValues keeps none of them
// between its pass and its views: it decodes again only the steps its
// views need, and a failure then is recorded, not fatal.
func TestTensorViewsOfALargeSeriesDecodeAgainWithinBounds(t *testing.T) {
	const steps = 10
	size := retainValues/4 + 1 // four steps fit, not five
	loads := make([]int, steps)
	fail := false
	load := func(i int) ([]float64, error) {
		loads[i]++
		if fail && i == steps-1 {
			return nil, fmt.Errorf("gone")
		}
		return make([]float64, size), nil
	}
	d, err := decodeSeries(context.Background(), steps, load, func(i int) int64 { return int64(i) },
		func(int) []int64 { return []int64{int64(size)} }, false, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	if d.kept != nil {
		t.Fatalf("kept the values of %d steps over the bound", len(d.kept))
	}
	fail = true
	if err := d.tensorViews(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := d.tensor
	if len(s.Hist) != steps || s.Reread[steps-1] == nil || len(s.Hist[steps-1]) == 0 {
		t.Errorf("%d histogram rows, reread errors %v: want a row per step, the last empty with its error", len(s.Hist), s.Reread)
	}
	for i, n := range loads {
		if n > 2 {
			t.Errorf("step %d decoded %d times, want at most twice", i, n)
		}
	}
}

// Build stops with the context's error when it is cancelled.
func TestTensorsStopWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	loads := 0
	_, err := decodeSeries(ctx, 5, func(int) ([]float64, error) { loads++; return []float64{1}, nil },
		func(i int) int64 { return int64(i) }, func(int) []int64 { return nil }, true, 2, true)
	if err == nil || loads != 0 {
		t.Errorf("cancelled: %v after %d decodes, want the context's error before any", err, loads)
	}
}
