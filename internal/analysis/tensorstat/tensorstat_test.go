package tensorstat

import (
	"math"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/internal/testsupport"
)

var (
	nan  = math.NaN()
	pinf = math.Inf(1)
	ninf = math.Inf(-1)
)

// same compares floats, NaN equal to NaN.
func TestOf(t *testing.T) {
	for _, c := range []struct {
		name   string
		values []float64
		want   Stats
	}{
		{"empty tensor", nil, Stats{Min: nan, Max: nan, Mean: nan}},
		{"rank 0", []float64{2.5}, Stats{Count: 1, Finite: 1, Min: 2.5, Max: 2.5, Mean: 2.5}},
		{"mean over finite values only", []float64{1, nan, 2, pinf, 3, ninf, ninf},
			Stats{Count: 7, Finite: 3, NaN: 1, PosInf: 1, NegInf: 2, Min: 1, Max: 3, Mean: 2}},
		{"zeros, negative zero included", []float64{0, math.Copysign(0, -1), -4, 4},
			Stats{Count: 4, Finite: 4, Zero: 2, Min: -4, Max: 4, Mean: 0}},
		{"only non-finite", []float64{nan, pinf}, Stats{Count: 2, NaN: 1, PosInf: 1, Min: nan, Max: nan, Mean: nan}},
		{"compensated mean", []float64{0.1, 0.2, 0.3, 1e16, -1e16},
			Stats{Count: 5, Finite: 5, Min: -1e16, Max: 1e16, Mean: 0.6 / 5}},
		{"large values do not overflow the mean", []float64{math.MaxFloat64, math.MaxFloat64},
			Stats{Count: 2, Finite: 2, Min: math.MaxFloat64, Max: math.MaxFloat64, Mean: math.MaxFloat64}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Of(c.values)
			w := c.want
			if got.Count != w.Count || got.Finite != w.Finite || got.NaN != w.NaN || got.PosInf != w.PosInf ||
				got.NegInf != w.NegInf || got.Zero != w.Zero || !testsupport.Same(got.Min, w.Min) || !testsupport.Same(got.Max, w.Max) || !testsupport.Same(got.Mean, w.Mean) {
				t.Errorf("Of(%v) = %+v, want %+v", c.values, got, w)
			}
		})
	}
}

// TestOfDTypes summarises integer and bool tensors decoded by package
// event, as collect.TensorEntry.Load does.
func TestOfDTypes(t *testing.T) {
	shape := func(dims ...int64) *eventpb.TensorShapeProto {
		s := &eventpb.TensorShapeProto{}
		for _, d := range dims {
			s.Dim = append(s.Dim, &eventpb.TensorShapeProto_Dim{Size: d})
		}
		return s
	}
	for _, c := range []struct {
		name string
		t    *eventpb.TensorProto
		want Stats
	}{
		{"int32", &eventpb.TensorProto{Dtype: eventpb.DataType_DT_INT32, TensorShape: shape(2, 3), IntVal: []int32{0, -7, 3, 0, 10, 6}},
			Stats{Count: 6, Finite: 6, Zero: 2, Min: -7, Max: 10, Mean: 2}},
		{"int64", &eventpb.TensorProto{Dtype: eventpb.DataType_DT_INT64, TensorShape: shape(3), Int64Val: []int64{1 << 40, 0, -(1 << 40)}},
			Stats{Count: 3, Finite: 3, Zero: 1, Min: -(1 << 40), Max: 1 << 40, Mean: 0}},
		{"bool", &eventpb.TensorProto{Dtype: eventpb.DataType_DT_BOOL, TensorShape: shape(4), BoolVal: []bool{true, false, true, true}},
			Stats{Count: 4, Finite: 4, Zero: 1, Min: 0, Max: 1, Mean: 0.75}},
		{"rank-0 uint8", &eventpb.TensorProto{Dtype: eventpb.DataType_DT_UINT8, TensorShape: shape(), IntVal: []int32{255}},
			Stats{Count: 1, Finite: 1, Min: 255, Max: 255, Mean: 255}},
	} {
		t.Run(c.name, func(t *testing.T) {
			vals, err := event.Values(c.t)
			if err != nil {
				t.Fatal(err)
			}
			if got := Of(vals); got != c.want {
				t.Errorf("Of(%v) = %+v, want %+v", vals, got, c.want)
			}
		})
	}
}

func TestGridCoversEveryStep(t *testing.T) {
	steps := [][]float64{
		{0.5, 1, 2, nan},
		{-3, pinf, 0},
		{},             // empty
		{nan, ninf},    // nothing finite
		{7.25, 7.25},   // the maximum of the series
		{-3, -3, 7.25}, // both ends
	}
	var stats []Stats
	for _, v := range steps {
		stats = append(stats, Of(v))
	}
	g, ok := GridOf(stats, 10, false)
	if !ok || g.Lo != -3 || g.Hi != 7.25 || g.Bins != 10 {
		t.Fatalf("GridOf = %+v, %v; want [-3, 7.25] in 10 bins", g, ok)
	}
	for i, v := range steps {
		c := g.Counts(v)
		n := 0
		for _, k := range c {
			n += k
		}
		if n != stats[i].Finite {
			t.Errorf("step %d: %d values binned, want its %d finite values", i, n, stats[i].Finite)
		}
	}
	// The ends land in the first and last bins; a value on an inner edge
	// opens the bin on its right.
	if c := g.Counts([]float64{-3, 7.25, -3 + 1.025}); c[0] != 1 || c[9] != 1 || c[1] != 1 {
		t.Errorf("Counts of the ends and an inner edge = %v", c)
	}
	e := g.Edges()
	if len(e) != 11 || e[0] != -3 || e[10] != 7.25 || !slices.IsSorted(e) {
		t.Errorf("Edges = %v", e)
	}
}

func TestGridEdgeCases(t *testing.T) {
	if _, ok := GridOf([]Stats{Of(nil), Of([]float64{nan})}, 5, false); ok {
		t.Error("GridOf of tensors without a finite value reported a grid")
	}
	g, ok := GridOf([]Stats{Of([]float64{4, 4})}, 3, false)
	if !ok || g.Lo != 3.5 || g.Hi != 4.5 {
		t.Errorf("constant tensor: grid %+v, want [3.5, 4.5] like TensorBoard", g)
	}
	if c := g.Counts([]float64{4, 4}); !slices.Equal(c, []int{0, 2, 0}) {
		t.Errorf("constant tensor: counts %v", c)
	}
	wide := []float64{-math.MaxFloat64, 0, math.MaxFloat64}
	g, _ = GridOf([]Stats{Of(wide)}, 4, false)
	if c := g.Counts(wide); !slices.Equal(c, []int{1, 0, 1, 1}) {
		t.Errorf("range wider than float64: counts %v over %v", c, g.Edges())
	}
}

func TestGridIntegers(t *testing.T) {
	bools := []Stats{Of([]float64{0, 1, 1}), Of([]float64{1, 1})}
	g, _ := GridOf(bools, 30, true)
	if g.Lo != -0.5 || g.Hi != 1.5 || g.Bins != 2 {
		t.Errorf("bool grid %+v, want 2 bins over [-0.5, 1.5]", g)
	}
	if c := g.Counts([]float64{0, 1, 1}); !slices.Equal(c, []int{1, 2}) {
		t.Errorf("bool counts %v", c)
	}
	ints := []Stats{Of([]float64{-2, 5}), Of([]float64{3})}
	if g, _ := GridOf(ints, 30, true); g.Bins != 8 || g.Lo != -2.5 || g.Hi != 5.5 {
		t.Errorf("small int range: grid %+v, want one bin per integer -2..5", g)
	}
	wide := []Stats{Of([]float64{0, 1000})}
	if g, _ := GridOf(wide, 30, true); g.Bins != 30 || g.Lo != 0 || g.Hi != 1000 {
		t.Errorf("wide int range: grid %+v, want 30 bins over [0, 1000]", g)
	}
	if g, _ := GridOf([]Stats{Of([]float64{7})}, 30, true); g.Bins != 1 || g.Lo != 6.5 || g.Hi != 7.5 {
		t.Errorf("constant int: grid %+v, want one bin [6.5, 7.5]", g)
	}
}
