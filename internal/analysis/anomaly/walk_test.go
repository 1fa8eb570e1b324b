package anomaly

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/downsample"
)

// sameExtreme compares extremes bit for bit: a NaN last value equals
// itself, and -0 is not 0.
func sameExtreme(a, b model.Extreme) bool {
	return a.Step == b.Step && math.Float64bits(a.WallTime) == math.Float64bits(b.WallTime) &&
		math.Float64bits(a.Value) == math.Float64bits(b.Value)
}

// checkWalk checks that one Walk of s finds what the separate passes did:
// model.Scalar.Stats, bit for bit, the values when all are finite,
// whether the steps are in order, and downsample.Points under each of
// budgets, the first one Walk's (Thinned, when it can); and that
// WalkCopyingWalls finds the same, and the wall times, bit for bit, when
// every value is finite, none else (nor from Walk).
func checkWalk(t *testing.T, wk *Walker, s *model.Scalar, budgets ...int) {
	t.Helper()
	budgets = append(budgets, 0)
	checkWalked(t, wk.Walk(s, budgets[0]), s, budgets, false)
	checkWalked(t, wk.WalkCopyingWalls(s, budgets[0]), s, budgets, true)
}

func checkWalked(t *testing.T, ser Series, s *model.Scalar, budgets []int, copied bool) {
	t.Helper()
	sorted := slices.IsSortedFunc(s.Points, func(a, b model.Point) int { return cmp.Compare(a.Step, b.Step) })
	if ser.StepsSorted() != sorted {
		t.Fatalf("%d points: steps sorted %v, want %v", len(s.Points), ser.StepsSorted(), sorted)
	}
	for _, budget := range budgets {
		keep, buckets, ok := ser.Thinned(budget)
		if want := budget == budgets[0] && s.Stats().NonFinite == 0; ok != want {
			t.Fatalf("%d points, budget %d (walked %d): thinned %v, want %v", len(s.Points), budget, budgets[0], ok, want)
		}
		wantKeep, wantBuckets := downsample.Points(s.Points, budget)
		same := func(a, b downsample.Bucket) bool {
			return a.First == b.First && a.Last == b.Last && a.HasFinite == b.HasFinite &&
				math.Float64bits(a.Min) == math.Float64bits(b.Min) && math.Float64bits(a.Max) == math.Float64bits(b.Max)
		}
		if ok && (!slices.Equal(keep, wantKeep) || !slices.EqualFunc(buckets, wantBuckets, same)) {
			t.Fatalf("%d points, budget %d: thinned %v %v, want %v %v", len(s.Points), budget, keep, buckets, wantKeep, wantBuckets)
		}
	}
	got, want := ser.Stats(), s.Stats()
	if got.Count != want.Count || got.NonFinite != want.NonFinite || got.HasFinite != want.HasFinite ||
		!sameExtreme(got.Last, want.Last) || !sameExtreme(got.Min, want.Min) || !sameExtreme(got.Max, want.Max) {
		t.Fatalf("%d points: walked stats %+v, want %+v", len(s.Points), got, want)
	}
	vals, ok := ser.Values()
	if ok != (want.NonFinite == 0) {
		t.Fatalf("%d points, %d not finite: values ok %v", len(s.Points), want.NonFinite, ok)
	}
	if ok && !slices.EqualFunc(vals, s.Points, func(v float64, p model.Point) bool { return math.Float64bits(v) == math.Float64bits(p.Value) }) {
		t.Fatalf("%d points: values %v", len(s.Points), vals)
	}
	walls, wallsOK := ser.WallTimes()
	if wallsOK != (copied && ok) {
		t.Fatalf("%d points, %d not finite, wall times copied %v: wall times ok %v", len(s.Points), want.NonFinite, copied, wallsOK)
	}
	if wallsOK && !slices.EqualFunc(walls, s.Points, func(w float64, p model.Point) bool { return math.Float64bits(w) == math.Float64bits(p.WallTime) }) {
		t.Fatalf("%d points: wall times %v", len(s.Points), walls)
	}
}

// A series walked once has the statistics its own pass gave it, for
// series that try every branch: none, one point, every value non-finite,
// NaN and infinities first, last and between, signed zeros and ties at
// the extremes (the first one reached counts), the largest magnitudes;
// one Walker for all of them, as a run's, so that a long series' buffer
// left behind cannot leak into a short one's.
func TestWalkedSeriesHasTheScalarsStats(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	negZero := math.Copysign(0, -1)
	cases := [][]float64{
		decay(500),
		nil,
		{7},
		{nan},
		{nan, inf, -inf},
		{nan, 3, 1, 2},
		{3, 1, 2, inf},
		{1, nan, -inf, 0.5, inf, 2, nan},
		{0, negZero, 0, negZero},
		{negZero, 0},
		{2, 1, 1, 2, 1, 2},
		{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64},
		{-inf, 5, inf, 5},
		decay(3),
	}
	wk := NewWalker(&model.Run{Name: "r"}, DefaultThresholds)
	for _, vals := range cases {
		pts := points(vals...)
		for i := range pts {
			pts[i].WallTime = 1.7e9 + float64(len(pts)-i)/10 // none a step or a value
		}
		// Steps out of order too: the statistics do not read them.
		if len(pts) > 2 {
			pts[1].Step, pts[2].Step = pts[2].Step, pts[1].Step
		}
		for _, budget := range []int{0, 1, 4, 5, 17, len(pts), len(pts) + 1} {
			checkWalk(t, wk, &model.Scalar{Tag: "train/loss", Points: pts}, budget, budget+4)
		}
	}
}

// FuzzWalkedStats checks a walked series' statistics and values against
// model.Scalar.Stats on values of any bits, and its thinned points against
// downsample.Points under a budget of the input's first byte, one Walker
// for the series and its halves in turn.
func FuzzWalkedStats(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xf0, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0, 0, 0, 0, 0, 0, 0xf0, 0xff})
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0xf0, 0xbf, 0x82})
	f.Fuzz(func(t *testing.T, data []byte) {
		// A byte past the values: the budget, and steps out of order
		// when its high bit is set.
		budget, backwards := 0, false
		if len(data)%8 != 0 {
			budget, backwards = int(data[len(data)-1]%32), data[len(data)-1] >= 128
		}
		vals := make([]float64, len(data)/8)
		for i := range vals {
			vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
		}
		wk := NewWalker(&model.Run{Name: "r"}, DefaultThresholds)
		for _, vs := range [][]float64{vals, vals[len(vals)/2:], vals[:len(vals)/2]} {
			pts := points(vs...)
			for i := range pts { // wall times of any bits too: the values' backwards
				pts[i].WallTime = vs[len(vs)-1-i]
			}
			if backwards && len(pts) > 2 {
				pts[len(pts)/2].Step = -1
			}
			checkWalk(t, wk, &model.Scalar{Tag: "x", Points: pts}, budget)
		}
	})
}

// A run's series walked and judged one at a time find what the rules
// over the whole run find (scalarsRules, Find's path), in the same order,
// with the same last step: a spike, a non-finite value, a diverging loss,
// a learning rate at zero, a series with no point.
func TestWalkerFindsWhatTheRunsRulesFind(t *testing.T) {
	spiky := decay(400)
	spiky[200] = 50
	diverged := decay(400)
	for i := 300; i < 400; i++ {
		diverged[i] = 5
	}
	withNaN := decay(300)
	withNaN[17] = math.NaN()
	lr := make([]float64, 200)
	run := &model.Run{Name: "r", Scalars: []*model.Scalar{
		{Tag: "train/loss", Points: points(spiky...)},
		{Tag: "val/loss", Points: points(diverged...)},
		{Tag: "acc", Points: points(withNaN...)},
		{Tag: "empty"},
		{Tag: "lr", Points: points(lr...)},
	}}
	var sc scratch
	want, wantLast, wantOK := scalarsRules(tableOf(Rules()), run, DefaultThresholds, &sc)
	got := ScalarsOf(run, DefaultThresholds)
	if len(want) < 4 {
		t.Fatalf("the run's rules found %d findings, want one per rule tried", len(want))
	}
	// Printed, so that a NaN value equals itself.
	if fmt.Sprintf("%+v", got.Findings) != fmt.Sprintf("%+v", want) || got.LastStep != wantLast || got.HasLast != wantOK {
		t.Fatalf("walked: %+v, last %d %v\nwant %+v, last %d %v", got.Findings, got.LastStep, got.HasLast, want, wantLast, wantOK)
	}
}

// The rules' smallest and largest values come from the walk's extremes
// and are slices.Min's and slices.Max's bit for bit: a zero's sign too,
// which the builtins decide (-0 below 0) and the walk's first extreme
// does not.
func TestWalkedExtremesAreTheBuiltins(t *testing.T) {
	negZero := math.Copysign(0, -1)
	for _, vals := range [][]float64{
		{3, 1, 2, 1},
		{0, negZero, 1},
		{negZero, 0, -1},
		{1, 0, negZero, 0},
		{negZero, negZero, 0},
		{0, 0, negZero},
		{math.NaN(), 0, negZero, math.Inf(-1)},
		{-math.MaxFloat64, math.MaxFloat64},
	} {
		ser := finiteValues("loss", points(vals...), nil, 0)
		if lo, want := ser.minValue(), slices.Min(ser.vals); math.Float64bits(lo) != math.Float64bits(want) {
			t.Errorf("%v: smallest %v, want %v", vals, lo, want)
		}
		if hi, want := ser.maxValue(), slices.Max(ser.vals); math.Float64bits(hi) != math.Float64bits(want) {
			t.Errorf("%v: largest %v, want %v", vals, hi, want)
		}
	}
}
