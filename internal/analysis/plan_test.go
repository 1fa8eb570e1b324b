package analysis

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
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
				vals[i] = valuesAt(sv.Scalar, g, stepsSorted(sv.Scalar.Points))
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
		if n := testing.AllocsPerRun(20, func() { v = valuesAt(s, g, stepsSorted(s.Points)) }); n != 1 {
			t.Errorf("%s: %v allocations a series, want 1", name, n)
		}
		if v.F32 == nil || v.at(v.off+v.Len()-1) != 1 || v.at(slices.Index(g.steps, 20)) != 0.5 {
			t.Errorf("%s: float32 series held as %+v", name, v)
		}
	}
	s.Points[2].Value = 0.1 // not a float32
	g := grids["by cursor"]
	v := valuesAt(s, g, stepsSorted(s.Points))
	if v.F64 == nil || v.F32 != nil || v.at(slices.Index(g.steps, 20)) != 0.1 || v.at(slices.Index(g.steps, 25)) != 0.1 {
		t.Errorf("a float32 series holding 0.1 is held as %+v", v)
	}
}

// arithmeticReference is the steps of pts as an arithmetic sequence by
// the definition, with the strides' arithmetic exact (no int64
// overflow): every step follows the one before it by the first stride,
// which is not negative.
func arithmeticReference(pts []model.Point) (first, stride int64, ok bool) {
	if len(pts) == 1 {
		return pts[0].Step, 0, true
	}
	d := new(big.Int).Sub(big.NewInt(pts[1].Step), big.NewInt(pts[0].Step))
	if d.Sign() < 0 || !d.IsInt64() {
		return 0, 0, false
	}
	for i := 2; i < len(pts); i++ {
		if new(big.Int).Sub(big.NewInt(pts[i].Step), big.NewInt(pts[i-1].Step)).Cmp(d) != 0 {
			return 0, 0, false
		}
	}
	return pts[0].Step, d.Int64(), true
}

// checkScanSteps checks scanSteps of pts against the definitions of an
// arithmetic sequence and of step order.
func checkScanSteps(t *testing.T, pts []model.Point) {
	t.Helper()
	sc := scanSteps(pts)
	sorted := slices.IsSortedFunc(pts, func(a, b model.Point) int { return cmp.Compare(a.Step, b.Step) })
	first, stride, arith := arithmeticReference(pts)
	if sc.sorted != sorted || (sc.arith != nil) != arith {
		t.Fatalf("steps %v: scan %+v (sorted %v), want sorted %v, arithmetic %v", stepsOf(pts), sc.arith, sc.sorted, sorted, arith)
	}
	if arith && (sc.arith.first != first || sc.arith.stride != stride || sc.arith.n != len(pts) || sc.arith.steps != nil) {
		t.Fatalf("steps %v: %+v, want first %d, stride %d", stepsOf(pts), *sc.arith, first, stride)
	}
}

func stepsOf(pts []model.Point) []int64 {
	s := make([]int64, len(pts))
	for i, p := range pts {
		s[i] = p.Step
	}
	return s
}

// TestScanStepsIsOneScanOfBoth checks the one pass that finds whether a
// series' steps are arithmetic and whether they are sorted against both
// definitions: regular grids, grids broken at their start, middle or end,
// repeated steps and strides that overflow an int64.
func TestScanStepsIsOneScanOfBoth(t *testing.T) {
	const m = math.MaxInt64
	cases := [][]int64{
		{7}, {1, 1}, {2, 1}, {0, 10, 20, 30}, {0, 10, 20, 31}, {0, 10, 21, 30}, {0, 11, 20, 30},
		{0, 10, 20, 15}, {5, 5, 5, 5}, {5, 5, 6, 6}, {0, 10, 20, 25, 30}, {30, 20, 10},
		{-m - 1, 0, m}, {-m - 1, -1, m - 1}, {m - 2, m - 1, m}, {-m - 1, m, -m - 1},
		{0, m, -2}, {-10, m - 10, -m + 8},
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		n := 1 + rng.IntN(12)
		steps := make([]int64, n)
		first, stride := rng.Int64N(100)-50, rng.Int64N(4)
		for i := range steps {
			steps[i] = first + int64(i)*stride
		}
		if rng.IntN(2) == 0 {
			steps[rng.IntN(n)] += rng.Int64N(5) - 2
		}
		cases = append(cases, steps)
	}
	for _, steps := range cases {
		checkScanSteps(t, pointsAt(steps...))
	}
}

// FuzzScanSteps checks scanSteps against the definitions on steps read
// from the input, 8 bytes each, so that any int64 comes up.
func FuzzScanSteps(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0x80, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		var steps []int64
		for ; len(data) >= 8; data = data[8:] {
			steps = append(steps, int64(binary.LittleEndian.Uint64(data)))
		}
		if len(steps) == 0 {
			return
		}
		checkScanSteps(t, pointsAt(steps...))
	})
}

// TestShapesOnAllCoresAreAdds checks that the shapes Plan takes of a
// direct build's runs on all cores (addAll) are those Add takes a run at
// a time, in order: the same counts and finals, and every irregular grid
// interned as the same one of its copies, the first in report order.
func TestShapesOnAllCoresAreAdds(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var runs []*model.Run
	for r := range 40 {
		run := &model.Run{Name: fmt.Sprint(r)}
		for k := range 6 {
			s := &model.Scalar{Tag: fmt.Sprint(k)}
			n := rng.IntN(50)
			for i := range n {
				step := int64(i) * 10
				switch k {
				case 1:
					step = int64(i * i) // one irregular grid, shared
				case 2:
					step = rng.Int64N(30) // unsorted
				}
				s.Points = append(s.Points, model.Point{Step: step, Value: float64(i)})
			}
			if k == 3 && n > 0 {
				s.Superseded = []model.Superseded{{Points: s.Points[:n/2]}}
			}
			run.Scalars = append(run.Scalars, s)
		}
		runs = append(runs, run)
	}
	one := NewShapes()
	for _, run := range runs {
		one.Add(run)
	}
	all := NewShapes()
	if err := all.addAll(context.Background(), runs); err != nil {
		t.Fatal(err)
	}
	irregular := 0
	firstOf := map[string]*stepSeq{} // an irregular grid's copy in all, the first in report order
	for _, run := range runs {
		for _, s := range run.Scalars {
			a, b := one.m[s], all.m[s]
			if a.points != b.points || a.superseded != b.superseded || a.final != b.final && !(math.IsNaN(a.final) && math.IsNaN(b.final)) {
				t.Fatalf("run %s, tag %s: shape %+v, want %+v", run.Name, s.Tag, b, a)
			}
			if (a.steps == nil) != (b.steps == nil) || a.steps != nil && !a.steps.equal(b.steps) {
				t.Fatalf("run %s, tag %s: steps %+v, want %+v", run.Name, s.Tag, b.steps, a.steps)
			}
			if b.steps == nil || b.steps.steps == nil {
				continue
			}
			irregular++
			key := fmt.Sprint(b.steps.steps)
			if firstOf[key] == nil {
				firstOf[key] = b.steps
			}
			if b.steps != firstOf[key] {
				t.Fatalf("run %s, tag %s: its grid is not interned as the first series' of it", run.Name, s.Tag)
			}
		}
	}
	if irregular < 40 {
		t.Errorf("%d irregular series: the test proves little", irregular)
	}
}
