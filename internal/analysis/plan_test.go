package analysis

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// refGrid is the steps of a band by its definition: every step of every
// series, once, in order, maxSteps of them spread when they are more.
func refGrid(series [][]model.Point, maxSteps int) []int64 {
	var steps []int64
	for _, pts := range series {
		for _, p := range pts {
			steps = append(steps, p.Step)
		}
	}
	slices.Sort(steps)
	steps = slices.Compact(steps)
	if maxSteps > 0 && len(steps) > maxSteps {
		steps = spread(steps, maxSteps)
	}
	return steps
}

func pointsAt(steps ...int64) []model.Point {
	pts := make([]model.Point, len(steps))
	for i, s := range steps {
		pts[i] = model.Point{Step: s, Value: float64(i)}
	}
	return pts
}

func TestPlanBandFromShapesIsTheGridOfEveryStep(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	arith := func(first, stride int64, n int) []model.Point {
		s := make([]int64, n)
		for i := range s {
			s[i] = first + int64(i)*stride
		}
		return pointsAt(s...)
	}
	irregular := func(n int) []model.Point {
		s := make([]int64, n)
		for i := range s {
			s[i] = rng.Int64N(50)
		}
		return pointsAt(s...) // unsorted, with repeats
	}
	cases := map[string][][]model.Point{
		"one grid":             {arith(0, 10, 100), arith(0, 10, 100), arith(0, 10, 100)},
		"stopped early":        {arith(0, 10, 100), arith(0, 10, 40), arith(0, 10, 100), arith(0, 10, 7)},
		"other strides":        {arith(0, 10, 100), arith(5, 3, 60), arith(1000, 1, 1)},
		"repeated steps":       {arith(0, 0, 5), arith(0, 0, 5)},
		"irregular and sorted": {pointsAt(1, 2, 5, 9), pointsAt(1, 2, 5, 9), pointsAt(1, 2, 5)},
		"unsorted":             {irregular(30), irregular(30), arith(0, 2, 20)},
		"same unsorted steps":  {pointsAt(3, 1, 2), pointsAt(1, 2, 3), pointsAt(2, 3, 1)},
		"one point":            {pointsAt(7)},
	}
	for name, series := range cases {
		for _, maxSteps := range []int{0, 2, 11, 1000} {
			var in stepInterner
			var seqs []*stepSeq
			for _, pts := range series {
				seqs = append(seqs, shapeOf(&model.Scalar{Points: pts}, &in).steps)
			}
			g := planBand(seqs, maxSteps)
			if want := refGrid(series, maxSteps); !slices.Equal(g.steps, want) {
				t.Errorf("%s, %d steps: grid %v, want %v", name, maxSteps, g.steps, want)
			}
			if g.byIndex {
				// Index at[k] of every series (sorted) is step k.
				for _, pts := range series {
					sorted := slices.Clone(pts)
					slices.SortStableFunc(sorted, func(a, b model.Point) int { return int(a.Step - b.Step) })
					for k, j := range g.at {
						if sorted[j].Step != g.steps[k] {
							t.Fatalf("%s: step %d is index %d, which holds step %d", name, g.steps[k], j, sorted[j].Step)
						}
					}
				}
			}
		}
	}
}

func TestStepShapesHoldOneCopyPerIrregularGrid(t *testing.T) {
	var in stepInterner
	grid := pointsAt(0, 1, 3, 7, 15, 31, 63)
	var seqs []*stepSeq
	for range 1000 {
		seqs = append(seqs, shapeOf(&model.Scalar{Points: slices.Clone(grid)}, &in).steps)
	}
	held := 0
	for _, ss := range in.seqs {
		for _, s := range ss {
			held += len(s.steps)
		}
	}
	if held != len(grid) {
		t.Errorf("1000 series of one irregular grid of %d steps hold %d steps", len(grid), held)
	}
	if s := shapeOf(&model.Scalar{Points: pointsAt(10, 20, 30, 40)}, &in).steps; s.steps != nil || s.first != 10 || s.stride != 10 || s.n != 4 {
		t.Errorf("an arithmetic grid is held as %+v", *s)
	}
	if g := planBand(seqs, 0); !g.byIndex || len(g.steps) != len(grid) {
		t.Errorf("one grid shared by every series: %+v", g)
	}
}

// TestStagedBandIsTheBand checks the band Finish makes of the values Run
// gathers at the planned steps (valuesAt, bandFromValues) against band
// over every series' points at once: series on one grid, stopped early,
// on other grids, unsorted, with non-finite values, float32 or not.
func TestStagedBandIsTheBand(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 200 {
		var series []*result.ScalarView
		nseries := 1 + rng.IntN(40)
		shape := rng.IntN(4)
		for r := range nseries {
			n := 1 + rng.IntN(60)
			stride := int64(10)
			switch {
			case shape == 0:
				n = 60 // one grid
			case shape == 2 && rng.IntN(3) == 0:
				stride = 7
			}
			s := &model.Scalar{Tag: "loss", Float32: rng.IntN(2) == 0}
			for i := range n {
				v := rng.NormFloat64()
				if rng.IntN(20) == 0 {
					v = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
				}
				if s.Float32 {
					v = float64(float32(v))
				}
				step := int64(i) * stride
				if shape == 3 {
					step = rng.Int64N(80) // unsorted, repeated steps
				}
				s.Points = append(s.Points, model.Point{Step: step, Value: v})
			}
			series = append(series, &result.ScalarView{Run: &model.Run{Name: fmt.Sprint(r)}, Scalar: s})
		}
		for _, maxSteps := range []int{0, 2, 25} {
			want := band(context.Background(), series, maxSteps)
			var in stepInterner
			var seqs []*stepSeq
			for _, sv := range series {
				seqs = append(seqs, shapeOf(sv.Scalar, &in).steps)
			}
			g := planBand(seqs, maxSteps)
			vals := make([]bandValues, len(series))
			for i, sv := range series {
				vals[i] = valuesAt(sv.Scalar, g)
			}
			got := bandFromValues(context.Background(), vals, g.steps)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("trial %d (shape %d), %d steps: staged band\n%+v\nwant\n%+v", trial, shape, maxSteps, got, want)
			}
		}
	}
}

// TestValuesAtAllocatesOnce checks that a series' values at its band's
// steps cost one allocation, the slice held (valuesAt runs for every
// series of a sweep), on one grid and by a cursor, and that a series
// marked float32 whose values a float32 does not hold exactly is held as
// float64, every value as it is.
func TestValuesAtAllocatesOnce(t *testing.T) {
	var in stepInterner
	s := &model.Scalar{Tag: "loss", Float32: true, Points: pointsAt(0, 10, 20, 30, 40)}
	for i := range s.Points {
		s.Points[i].Value = float64(float32(i) / 4) // exact in float32
	}
	other := &model.Scalar{Tag: "loss", Points: pointsAt(5, 15, 25)}
	grids := map[string]bandGrid{
		"one grid":  planBand([]*stepSeq{shapeOf(s, &in).steps}, 0),
		"by cursor": planBand([]*stepSeq{shapeOf(s, &in).steps, shapeOf(other, &in).steps}, 0),
	}
	for name, g := range grids {
		var v bandValues
		if n := testing.AllocsPerRun(20, func() { v = valuesAt(s, g) }); n != 1 {
			t.Errorf("%s: %v allocations a series, want 1", name, n)
		}
		if v.F32 == nil || v.at(v.off+v.Len()-1) != 1 || v.at(slices.Index(g.steps, 20)) != 0.5 {
			t.Errorf("%s: float32 series held as %+v", name, v)
		}
	}
	s.Points[2].Value = 0.1 // not a float32
	g := grids["by cursor"]
	v := valuesAt(s, g)
	if v.F64 == nil || v.F32 != nil || v.at(slices.Index(g.steps, 20)) != 0.1 || v.at(slices.Index(g.steps, 25)) != 0.1 {
		t.Errorf("a float32 series holding 0.1 is held as %+v", v)
	}
}
