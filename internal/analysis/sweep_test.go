package analysis

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// bandSeriesOf is a tag's series of points (step, value) of runs named a, b,
// c, ... for band and sweepEnds.
func bandSeriesOf(runs ...[][2]float64) []*result.ScalarView {
	var out []*result.ScalarView
	for i, pts := range runs {
		s := &model.Scalar{Tag: "loss"}
		for _, p := range pts {
			s.Points = append(s.Points, model.Point{Step: int64(p[0]), Value: p[1]})
		}
		out = append(out, &result.ScalarView{Run: &model.Run{Name: string(rune('a' + i))}, Scalar: s})
	}
	return out
}

// TestBand checks the band against values worked out by hand: at
// each step the runs that have begun and not ended, each with its last
// value at or before the step, non-finite ones left out; quantiles
// interpolated between order statistics at (n-1)p (numpy's default).
func TestBand(t *testing.T) {
	nan := math.NaN()
	got := band(context.Background(), bandSeriesOf(
		[][2]float64{{0, 1}, {2, 3}, {4, 5}},
		[][2]float64{{1, 10}, {2, 20}},
		[][2]float64{{0, -1}, {3, nan}, {4, 7}},
	), 0)
	want := []struct {
		step int64
		n    int
		q    [5]float64 // 10, 25, 50, 75, 90 %
	}{
		{0, 2, [5]float64{-0.8, -0.5, 0, 0.5, 0.8}}, // a=1, c=-1
		{1, 3, [5]float64{-0.6, 0, 1, 5.5, 8.2}},    // a=1 (step 0), b=10, c=-1
		{2, 3, [5]float64{-0.2, 1, 3, 11.5, 16.6}},  // a=3, b=20, c=-1 (step 0)
		{3, 1, [5]float64{3, 3, 3, 3, 3}},           // a=3; b ended at 2; c is NaN
		{4, 2, [5]float64{5.2, 5.5, 6, 6.5, 6.8}},   // a=5, c=7
	}
	if len(got.Steps) != len(want) {
		t.Fatalf("steps %v, want %d", got.Steps, len(want))
	}
	for i, w := range want {
		if got.Steps[i] != w.step || got.N[i] != w.n {
			t.Errorf("row %d: step %d n %d, want step %d n %d", i, got.Steps[i], got.N[i], w.step, w.n)
		}
		for qi := range w.q {
			if got := got.Q[qi][i]; math.Abs(got-w.q[qi]) > 1e-12 {
				t.Errorf("step %d quantile %v = %v, want %v", w.step, result.SweepQuantiles[qi], got, w.q[qi])
			}
		}
	}
	// Too many steps: maxSteps of them evenly spread, first and last kept.
	var long [][2]float64
	for s := range 1000 {
		long = append(long, [2]float64{float64(s), float64(s)})
	}
	if b := band(context.Background(), bandSeriesOf(long, long), 11); len(b.Steps) != 11 || b.Steps[0] != 0 || b.Steps[10] != 999 || b.Q[2][10] != 999 {
		t.Errorf("capped band steps %v", b.Steps)
	}
}

// TestSweepEnds checks the ranking by final value: lowest and highest
// ends, ties in report order, non-finite finals in neither, and small
// sweeps split without a run in both.
func TestSweepEnds(t *testing.T) {
	finals := []float64{5, 1, math.NaN(), 9, 3, math.Inf(1), 7, 1, 8, 2}
	var runs [][][2]float64
	for _, v := range finals {
		runs = append(runs, [][2]float64{{0, 100}, {1, v}})
	}
	series := bandSeriesOf(runs...)
	names := func(idx []int) string {
		var b strings.Builder
		for _, i := range idx {
			b.WriteString(series[i].Run.Name)
		}
		return b.String()
	}
	low, high := sweepEnds(finals, 3)
	// Finals: a=5 b=1 c=NaN d=9 e=3 f=+Inf g=7 h=1 i=8 j=2.
	if got := names(low); got != "bhj" {
		t.Errorf("lowest %q, want bhj", got)
	}
	if got := names(high); got != "dig" {
		t.Errorf("highest %q, want dig", got)
	}
	low, high = sweepEnds(finals[:3], 5) // a=5 b=1 c=NaN
	if names(low) != "b" || names(high) != "a" {
		t.Errorf("two ranked runs: low %q high %q", names(low), names(high))
	}
}

// A sweep's summary of a tag draws its extreme runs at MaxPoints points,
// keeping each one's spike, and counts the runs ending non-finite.
func TestSweepTagDrawsItsEnds(t *testing.T) {
	rep := scalarReport(12, []string{"loss"}, 3000)
	last := rep.Runs[4].Scalars[0]
	last.Points[len(last.Points)-1].Value = math.NaN()
	an, err := Build(context.Background(), rep, Options{MaxPoints: 400})
	if err != nil {
		t.Fatal(err)
	}
	st := an.Scalars.Sweep[0]
	if len(st.Low) != result.SweepEnds || len(st.High) != result.SweepEnds || st.NonFinite != 1 {
		t.Fatalf("%d low, %d high, %d non-finite", len(st.Low), len(st.High), st.NonFinite)
	}
	if n := len(st.Band.Steps); n != 400 {
		t.Errorf("band at %d steps, want 400", n)
	}
	for _, e := range append(st.Low, st.High...) {
		if e.Series == 4 || len(e.Draw) > 400+8 || len(e.Buckets) != 100 || !contains(e.Draw, 1000) {
			t.Errorf("end %d draws %d points in %d buckets", e.Series, len(e.Draw), len(e.Buckets))
		}
		// The series' own view draws as many: shared, not copied.
		if v := an.Scalars.Tags[0].Series[e.Series]; &v.Draw[0] != &e.Draw[0] {
			t.Errorf("end %d holds a copy of its view's drawn points", e.Series)
		}
	}
	// Under a page budget the lines draw fewer; the ends still draw
	// MaxPoints.
	an, err = Build(context.Background(), rep, Options{MaxPoints: 400, MaxPagePoints: 2400})
	if err != nil {
		t.Fatal(err)
	}
	if an.Scalars.DrawCap >= 400 {
		t.Fatalf("draw cap %d, want below 400", an.Scalars.DrawCap)
	}
	for _, e := range an.Scalars.Sweep[0].Low {
		if len(e.Buckets) != 100 || !contains(e.Draw, 1000) {
			t.Errorf("end %d under a page budget draws %d points in %d buckets", e.Series, len(e.Draw), len(e.Buckets))
		}
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestSelectQuantilesMatchesSort checks the band's quantiles by selection
// against the same quantiles of a sorted copy, bit for bit, on values
// that trouble a quickselect: sorted, reversed, all equal, few distinct
// values, organ pipes, huge magnitudes, and every size up to 300 and some
// beyond; and with the partitions cut short, where it falls back to a
// sort.
func TestSelectQuantilesMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	shapes := map[string]func(i, n int) float64{
		"random":   func(int, int) float64 { return rng.NormFloat64() },
		"sorted":   func(i, _ int) float64 { return float64(i) },
		"reversed": func(i, n int) float64 { return float64(n - i) },
		"equal":    func(int, int) float64 { return 3 },
		"few":      func(int, int) float64 { return float64(rng.IntN(3)) },
		"organ":    func(i, n int) float64 { return float64(min(i, n-i)) },
		"huge":     func(int, int) float64 { return math.MaxFloat64 * (rng.Float64() - 0.5) },
	}
	sizes := []int{}
	for n := 1; n <= 300; n++ {
		sizes = append(sizes, n)
	}
	sizes = append(sizes, 1000, 2000, 2001, 4099)
	for name, f := range shapes {
		for _, n := range sizes {
			vals := make([]float64, n)
			for i := range vals {
				vals[i] = f(i, n)
			}
			sorted := slices.Clone(vals)
			slices.Sort(sorted)
			for _, depth := range []int{-1, 0, 1, 2, 3, 1000} {
				got := slices.Clone(vals)
				if depth < 0 {
					selectQuantiles(got)
				} else {
					selectRanks(got, 0, []int{n / 10, n / 2, n - 1}, depth)
				}
				if depth < 0 {
					for _, p := range result.SweepQuantiles {
						if q, want := quantile(got, p), quantile(sorted, p); math.Float64bits(q) != math.Float64bits(want) {
							t.Fatalf("%s, %d values: quantile %v = %v, want %v", name, n, p, q, want)
						}
					}
				} else {
					for _, r := range []int{n / 10, n / 2, n - 1} {
						if got[r] != sorted[r] {
							t.Fatalf("%s, %d values, depth %d: rank %d = %v, want %v", name, n, depth, r, got[r], sorted[r])
						}
					}
				}
				if !slices.Equal(slices.Sorted(slices.Values(got)), sorted) {
					t.Fatalf("%s, %d values: selection lost or changed values", name, n)
				}
			}
		}
	}
}

// TestBandStepsOfRunsStoppedEarly checks the steps of a band whose runs
// stopped at different steps of one grid, some on a grid of their own:
// every step of every run, each once, in order.
func TestBandStepsOfRunsStoppedEarly(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for trial := range 50 {
		var runs [][][2]float64
		want := map[int64]bool{}
		for range 1 + rng.IntN(30) {
			stride, n := 10, 1+rng.IntN(50)
			if rng.IntN(5) == 0 {
				stride = 7 // another grid
			}
			var pts [][2]float64
			for i := range n {
				pts = append(pts, [2]float64{float64(i * stride), rng.Float64()})
				want[int64(i*stride)] = true
			}
			runs = append(runs, pts)
		}
		got := band(context.Background(), bandSeriesOf(runs...), 0)
		steps := slices.Sorted(maps.Keys(want))
		if !slices.Equal(got.Steps, steps) {
			t.Fatalf("trial %d: steps %v, want %v", trial, got.Steps, steps)
		}
	}
}

// TestBandOfSameStepsMatchesSort checks the band of series on the same
// steps, gathered a tile of steps at a time, against a sort of each
// step's finite values: tiles shorter than 64 steps (5,000 series) and a
// last partial one, non-finite values, a step with none finite (left
// out), and steps spread under maxSteps.
func TestBandOfSameStepsMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	const runs, steps = 5_000, 130
	var series []*result.ScalarView
	for r := range runs {
		s := &model.Scalar{Tag: "loss", Points: make([]model.Point, steps)}
		for i := range s.Points {
			v := rng.NormFloat64()
			switch {
			case i == 77:
				v = math.NaN()
			case rng.IntN(50) == 0:
				v = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
			}
			s.Points[i] = model.Point{Step: int64(3 * i), Value: v}
		}
		series = append(series, &result.ScalarView{Run: &model.Run{Name: fmt.Sprint(r)}, Scalar: s})
	}
	for _, maxSteps := range []int{0, 50} {
		got := band(context.Background(), series, maxSteps)
		var want result.SweepBand
		idx := make([]int, steps)
		for i := range idx {
			idx[i] = i
		}
		if maxSteps > 0 {
			idx = spread(idx, maxSteps)
		}
		for _, j := range idx {
			var vals []float64
			for _, sv := range series {
				if v := sv.Scalar.Points[j].Value; !math.IsNaN(v) && !math.IsInf(v, 0) {
					vals = append(vals, v)
				}
			}
			if len(vals) == 0 {
				continue
			}
			slices.Sort(vals)
			want.Steps = append(want.Steps, int64(3*j))
			want.N = append(want.N, len(vals))
			for qi, p := range result.SweepQuantiles {
				want.Q[qi] = append(want.Q[qi], quantile(vals, p))
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("maxSteps %d: band differs from a sort of each step's values (%d steps, want %d)", maxSteps, len(got.Steps), len(want.Steps))
		}
		if len(want.Steps) == 0 || slices.Contains(want.Steps, 3*77) {
			t.Errorf("maxSteps %d: the test's steps %v prove little", maxSteps, want.Steps)
		}
	}
}

// TestBandOfRunsStoppedEarlyMatchesSort checks the band of series on
// different steps, gathered a tile of steps at a time by cursors, against
// a sort of each step's values found series by series: 3,000 series (tiles
// shorter than 64 steps, a last partial one), runs that stopped early or
// began late, a grid of their own, repeated steps, non-finite values, and
// steps spread under maxSteps.
func TestBandOfRunsStoppedEarlyMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	var series []*result.ScalarView
	for r := range 3_000 {
		stride, from, n := int64(10), int64(10*rng.IntN(5)), 1+rng.IntN(200)
		if r%7 == 0 {
			stride = 7
		}
		s := &model.Scalar{Tag: "loss"}
		for i := range n {
			v := rng.NormFloat64()
			if rng.IntN(40) == 0 {
				v = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
			}
			step := from + int64(i)*stride
			s.Points = append(s.Points, model.Point{Step: step, Value: v})
			if rng.IntN(30) == 0 { // the same step again: the last one counts
				s.Points = append(s.Points, model.Point{Step: step, Value: rng.NormFloat64()})
			}
		}
		series = append(series, &result.ScalarView{Run: &model.Run{Name: fmt.Sprint(r)}, Scalar: s})
	}
	for _, maxSteps := range []int{0, 90} {
		got := band(context.Background(), series, maxSteps)
		want := bandReference(series, maxSteps)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("maxSteps %d: band differs from a sort of each step's values (%d steps, want %d)", maxSteps, len(got.Steps), len(want.Steps))
		}
		if len(want.Steps) < 100 && maxSteps == 0 {
			t.Errorf("the test's %d steps prove little", len(want.Steps))
		}
	}
}

// TestBandOfSeriesOutOfStepOrder checks that a series whose points are
// not in step order counts as its points sorted by step would: the band
// of series on the same steps, some of them shuffled, some of them the
// first, is the band of the sorted series.
func TestBandOfSeriesOutOfStepOrder(t *testing.T) {
	for _, shuffled := range [][]int{{0}, {1}, {0, 2}} {
		sorted, mixed := sweepSeries(4, 50), sweepSeries(4, 50)
		rng := rand.New(rand.NewPCG(19, 20))
		for _, i := range shuffled {
			pts := mixed[i].Scalar.Points
			rng.Shuffle(len(pts), func(a, b int) { pts[a], pts[b] = pts[b], pts[a] })
		}
		if got, want := band(context.Background(), mixed, 0), band(context.Background(), sorted, 0); !reflect.DeepEqual(got, want) {
			t.Errorf("series %v shuffled: band differs from the sorted series'", shuffled)
		}
	}
}

// bandReference is band worked out plainly: every step of any series
// (sorted, each once, spread to maxSteps), and at each the sorted finite
// values of the series that have begun and not ended, each its last
// point's at or before the step (series in step order, or sorted first).
func bandReference(series []*result.ScalarView, maxSteps int) result.SweepBand {
	var all []int64
	var sorted [][]model.Point
	for _, sv := range series {
		pts := slices.Clone(sv.Scalar.Points)
		slices.SortStableFunc(pts, func(a, b model.Point) int { return cmp.Compare(a.Step, b.Step) })
		if len(pts) > 0 {
			sorted = append(sorted, pts)
		}
		for _, p := range pts {
			all = append(all, p.Step)
		}
	}
	slices.Sort(all)
	all = slices.Compact(all)
	if maxSteps > 0 && len(all) > maxSteps {
		all = spread(all, maxSteps)
	}
	var want result.SweepBand
	for _, step := range all {
		var vals []float64
		for _, pts := range sorted {
			if step < pts[0].Step || step > pts[len(pts)-1].Step {
				continue
			}
			k := 0
			for k+1 < len(pts) && pts[k+1].Step <= step {
				k++
			}
			if v := pts[k].Value; !math.IsNaN(v) && !math.IsInf(v, 0) {
				vals = append(vals, v)
			}
		}
		if len(vals) == 0 {
			continue
		}
		slices.Sort(vals)
		want.Steps = append(want.Steps, step)
		want.N = append(want.N, len(vals))
		for qi, p := range result.SweepQuantiles {
			want.Q[qi] = append(want.Q[qi], quantile(vals, p))
		}
	}
	return want
}

// TestBandOfRunsStoppedOnOneGridMatchesSort checks the band of series
// whose steps all begin one grid's (a sweep whose runs stopped early or
// failed), gathered by index rather than by cursors, against a plain
// reference: an uneven grid, 3,000 series (tiles shorter than 64 steps, a
// last partial one), the longest series neither first nor last, series
// out of step order, non-finite values, steps spread under maxSteps; and
// with one series off the grid (a repeated step, a late start, another
// grid), which the cursors then read.
func TestBandOfRunsStoppedOnOneGridMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	grid := make([]int64, 150)
	for i := 1; i < len(grid); i++ {
		grid[i] = grid[i-1] + 1 + rng.Int64N(20)
	}
	var series []*result.ScalarView
	for r := range 3_000 {
		n := 1 + rng.IntN(len(grid)-1)
		if r == 1_234 {
			n = len(grid)
		}
		s := &model.Scalar{Tag: "loss"}
		for i := range n {
			v := rng.NormFloat64()
			if rng.IntN(40) == 0 {
				v = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
			}
			s.Points = append(s.Points, model.Point{Step: grid[i], Value: v})
		}
		if r%500 == 3 {
			rng.Shuffle(n, func(a, b int) { s.Points[a], s.Points[b] = s.Points[b], s.Points[a] })
		}
		series = append(series, &result.ScalarView{Run: &model.Run{Name: fmt.Sprint(r)}, Scalar: s})
	}
	offGrid := map[string][]model.Point{
		"repeated step": {{Step: grid[0], Value: 1}, {Step: grid[1], Value: 2}, {Step: grid[1], Value: 3}},
		"late start":    {{Step: grid[5], Value: 1}, {Step: grid[6], Value: 2}},
		"another grid":  {{Step: grid[0], Value: 1}, {Step: grid[1] + 1, Value: 2}},
	}
	cases := map[string][]*result.ScalarView{"on the grid": series}
	for name, pts := range offGrid {
		extra := &result.ScalarView{Run: &model.Run{Name: name}, Scalar: &model.Scalar{Tag: "loss", Points: pts}}
		cases[name] = append(slices.Clip(series), extra)
	}
	for name, series := range cases {
		for _, maxSteps := range []int{0, 1, 2, 60, 149, 150} {
			got := band(context.Background(), series, maxSteps)
			want := bandReference(series, maxSteps)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, maxSteps %d: band differs from the reference (%d steps, want %d)", name, maxSteps, len(got.Steps), len(want.Steps))
			}
			if len(want.Steps) < min(maxSteps, 60) {
				t.Errorf("%s, maxSteps %d: the test's %d steps prove little", name, maxSteps, len(want.Steps))
			}
		}
	}
}

// FuzzBand checks band against bandReference on series built from the
// input: each byte pair a point (a step from a small range, so that
// series share, repeat and interleave steps; a value, some non-finite), a
// zero byte starting the next series.
func FuzzBand(f *testing.F) {
	f.Add([]byte{1, 1, 2, 2, 3, 3, 0, 1, 4, 2, 5, 0, 1, 6}, 0)
	f.Add([]byte{1, 1, 2, 255, 3, 254, 0, 1, 4, 2, 253, 3, 9, 0, 1, 6, 2, 7}, 2)
	f.Add([]byte{2, 1, 1, 2, 0, 1, 3, 1, 4, 0, 3, 3}, 1)
	f.Fuzz(func(t *testing.T, data []byte, maxSteps int) {
		if len(data) > 4096 {
			return
		}
		maxSteps = max(0, maxSteps%50)
		special := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
		var series []*result.ScalarView
		s := &model.Scalar{Tag: "loss"}
		for i := 0; i+1 < len(data); i += 2 {
			if data[i] == 0 {
				series = append(series, &result.ScalarView{Run: &model.Run{}, Scalar: s})
				s = &model.Scalar{Tag: "loss"}
				i--
				continue
			}
			v := float64(int8(data[i+1]))
			if k := 255 - int(data[i+1]); k < len(special) {
				v = special[k]
			}
			s.Points = append(s.Points, model.Point{Step: int64(data[i] % 16), Value: v})
		}
		series = append(series, &result.ScalarView{Run: &model.Run{}, Scalar: s})
		got := band(context.Background(), series, maxSteps)
		if want := bandReference(series, maxSteps); !reflect.DeepEqual(got, want) {
			t.Errorf("band %+v, want %+v", got, want)
		}
	})
}

// TestQuantilesOfSignedZeros checks that the quantiles of values with
// both -0 and +0 among them have the bits of those of a sort and of the
// same values with every -0 made +0: which zero a rank holds after the
// selection (ties in any order) never shows.
func TestQuantilesOfSignedZeros(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	negZero := math.Copysign(0, -1)
	zeros := 0
	for trial := range 2_000 {
		n := 2 + rng.IntN(300) // one value is its own quantile, -0 included
		vals := make([]float64, n)
		for i := range vals {
			switch rng.IntN(4) {
			case 0:
				vals[i] = negZero
			case 1:
				vals[i] = 0
			default:
				vals[i] = float64(rng.IntN(5)-2) * []float64{1, 1e-310, 0.5}[rng.IntN(3)]
			}
		}
		got, sorted, positive := slices.Clone(vals), slices.Clone(vals), slices.Clone(vals)
		selectQuantiles(got)
		slices.Sort(sorted)
		for i, v := range positive {
			if v == 0 {
				positive[i] = 0
			}
		}
		slices.Sort(positive)
		for _, p := range result.SweepQuantiles {
			q := quantile(got, p)
			for name, want := range map[string]float64{"a sort": quantile(sorted, p), "+0 for -0": quantile(positive, p)} {
				if math.Float64bits(q) != math.Float64bits(want) {
					t.Fatalf("trial %d, %d values: quantile %v = %v, want %v (%s)", trial, n, p, q, want, name)
				}
			}
			if q == 0 {
				zeros++
			}
		}
	}
	if zeros < 1_000 {
		t.Errorf("%d quantiles were zero: the test proves little", zeros)
	}
}
