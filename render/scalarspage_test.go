package render

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/cputime"
)

// p8mReport is the report of the 8 M-point benchmark log's shape
// (examples/synth -runs 8 -tags 10 -steps 100000): runs runs of 10 tags
// x steps noisy float32 points, wall times a tenth of a second apart.
func p8mReport(runs, steps int) *Report {
	rep := synthetic(nil)
	for r := range runs {
		rng := rand.New(rand.NewPCG(uint64(r), 42))
		run := &model.Run{Name: fmt.Sprintf("run_%d", r), Logdir: "logs", Path: fmt.Sprint(r), HasEvents: true, Start: 1.7e9 + float64(r)}
		for k := range 10 {
			s := &model.Scalar{Tag: fmt.Sprintf("group%d/metric_%d", k%3, k), Float32: true, Points: make([]model.Point, steps)}
			for i := range s.Points {
				v := (2+float64(r)/10)*math.Exp(-float64(i)/float64(steps/4)) + 0.1 + rng.NormFloat64()*0.02
				s.Points[i] = model.Point{Step: int64(i), WallTime: 1.7e9 + float64(r) + float64(i)*0.1, Value: float64(float32(v))}
			}
			run.Scalars = append(run.Scalars, s)
		}
		run.LastStep = int64(steps - 1)
		rep.Runs = append(rep.Runs, run)
	}
	return newReport(rep, Options{})
}

// BenchmarkScalarsPage8M builds the scalars page of the 8 M-point log:
// 8 runs whose every-run page passes the page's budget, so that it is a
// sweep's page drawing the extremes at fewer points. cpu-ns/op is its
// CPU time, ns/op its wall time.
// go test ./render -run '^$' -bench ScalarsPage8M
func BenchmarkScalarsPage8M(b *testing.B) {
	r := p8mReport(8, 100_000)
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.ReportPerOp(b, cputime.Used())
	for b.Loop() {
		p, err := r.scalarsPage(false)
		if err != nil {
			b.Fatal(err)
		}
		if p.Sweep == nil {
			b.Fatal("not a sweep's page")
		}
	}
}

// TestEnvelopeIsAppendValues checks an envelope's shortcuts against
// appendValue of each of its six numbers as float64s: steps about 2^53
// and the int64 bounds, wall times of every form (few decimals, seven,
// none, huge, tiny, negative, non-finite).
func TestEnvelopeIsAppendValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	steps := []int64{0, 1, -1, 9, 10, 99, 1e15, stepExact - 1, stepExact, stepExact + 1, -stepExact + 1, -stepExact, -stepExact - 1,
		math.MaxInt64, math.MinInt64, 1<<62 + 12345}
	walls := []float64{0, 1, 1.5, 1.7e9, 1.7e9 + 0.1, 1622543341.7903051, 8999999999.999999, 1e21, 1e-7, -3.25, math.Copysign(0, -1),
		math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, math.SmallestNonzeroFloat64}
	for range 20_000 {
		steps = append(steps, int64(rng.Uint64())>>rng.IntN(64))
		walls = append(walls, 1.7e9+float64(rng.IntN(1e7))/10, rng.Float64()*math.Pow(10, float64(rng.IntN(40)-20)), math.Float64frombits(rng.Uint64()))
	}
	for i := range max(len(steps), len(walls)) {
		p0 := model.Point{Step: steps[i%len(steps)], WallTime: walls[i%len(walls)]}
		p1 := model.Point{Step: steps[(i+1)%len(steps)], WallTime: walls[(i+7)%len(walls)]}
		lo, hi := walls[(i+3)%len(walls)], float64(float32(walls[(i+5)%len(walls)]))
		want := []byte{'['}
		for k, v := range [6]float64{float64(p0.Step), float64(p1.Step), p0.WallTime, p1.WallTime, lo, hi} {
			if k > 0 {
				want = append(want, ',')
			}
			want = appendValue(want, v, false)
		}
		want = append(want, ']')
		if got := appendEnvelope(nil, p0, p1, lo, hi); string(got) != string(want) {
			t.Fatalf("envelope of %+v, %+v: %s, want %s", p0, p1, got, want)
		}
	}
}

// TestEveryRunPageStopsPastItsBudget checks that the page of a sweep of
// 40 runs x 12 tags, whose every-run page passes the budget, is built
// without formatting every run's chart first (the charts built stop once
// they pass the budget: fewer run objects than series), and that it is
// the page the whole every-run page led to: the same sweep page, whether
// it shares all the every-run page's objects, those built, or none.
func TestEveryRunPageStopsPastItsBudget(t *testing.T) {
	runs := map[string]map[string][]float64{}
	for k := range 40 {
		tags := map[string][]float64{}
		for tg := range 12 {
			vals := make([]float64, 3000)
			for i := range vals {
				vals[i] = math.Exp(-float64(i)/700) + float64((k*7+tg)%13)/50 + math.Sin(float64(i*(tg+1)))/100
			}
			tags[fmt.Sprintf("g%d/metric%02d", tg%3, tg)] = vals
		}
		runs[fmt.Sprintf("trial-%02d", k)] = tags
	}
	const budget = 1 << 20
	r := newReport(synthetic(runs), Options{MaxPageBytes: budget})
	layoutRuns, _, err := r.runNames()
	if err != nil {
		t.Fatal(err)
	}
	frame := pageFrameBytes + len(layoutRuns)
	all := r.rep.Runs
	series := 0
	for _, tv := range r.tags[:r.drawnTags()] {
		series += len(tv.series)
	}
	whole, err := r.everyRunPage(all, false, frame, math.MaxInt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if whole.over || whole.inlined(frame) <= budget || len(whole.drawn) != series {
		t.Fatalf("the whole every-run page: over %v, %d bytes, %d objects of %d series: the test proves little", whole.over, whole.inlined(frame), len(whole.drawn), series)
	}
	cut, err := r.everyRunPage(all, false, frame, budget, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !cut.over || len(cut.drawn) >= series/2 {
		t.Errorf("past its budget: over %v, %d run objects of %d series formatted", cut.over, len(cut.drawn), series)
	}
	got, err := r.scalarsPage(false)
	if err != nil {
		t.Fatal(err)
	}
	if got.Sweep == nil || !got.Sweep.ForBudget {
		t.Fatal("not a sweep's page for its budget")
	}
	for name, objs := range map[string]runObjects{"every object": whole.drawn, "those built": cut.drawn, "none": nil} {
		want, err := r.sweepPage(all, false, frame, objs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the page differs from the sweep page sharing %s", name)
		}
	}
}

// TestMeasuredSweepRoundIsTheRoundBuilt checks the sweep page's first
// round measured rather than built (measuredSweepRound: its run objects
// all the every-run page's, counted, not copied): each chart's length is
// that of the chart built, and the page at each budget (the round past
// it, then a later one built; or the round within it, then built) is the
// page of the same sweep built with no object shared, which measures no
// round.
func TestMeasuredSweepRoundIsTheRoundBuilt(t *testing.T) {
	runs := map[string]map[string][]float64{}
	for k := range 24 {
		tags := map[string][]float64{}
		for tg := range 6 {
			vals := make([]float64, 2500)
			for i := range vals {
				vals[i] = math.Exp(-float64(i)/700) + float64((k*7+tg)%13)/50 + math.Sin(float64(i*(tg+1)))/100
			}
			tags[fmt.Sprintf("g%d/metric%02d", tg%3, tg)] = vals
		}
		runs[fmt.Sprintf("trial-%02d", k)] = tags
	}
	r := newReport(synthetic(runs), Options{})
	layoutRuns, _, err := r.runNames()
	if err != nil {
		t.Fatal(err)
	}
	frame := pageFrameBytes + len(layoutRuns)
	all := r.rep.Runs
	whole, err := r.everyRunPage(all, false, frame, math.MaxInt, nil)
	if err != nil {
		t.Fatal(err)
	}
	drawn := r.drawnTags()
	tags := r.tags[:drawn]
	rowOf := map[*model.Run]int{}
	for i, run := range all {
		rowOf[run] = i
	}
	sts := r.sweepTags(drawn)
	points := r.an.Scalars.MaxPoints
	lens, _, ok := r.measuredSweepRound(sts, tags, points, true, rowOf, whole.drawn, nil)
	if !ok {
		t.Fatal("a round of the every-run page's objects is not measured")
	}
	for i, tv := range tags {
		b := appendSweepChart(nil, &r.an.Scalars, tv, &sts[i], points, true, rowOf, whole.drawn)
		b = r.appendBaselineChart(b, tv.tag)
		if lens[i] != len(b) {
			t.Fatalf("chart of %s measured %d bytes, built %d", tv.tag, lens[i], len(b))
		}
	}
	if _, _, ok := r.measuredSweepRound(sts, tags, points-1, true, rowOf, whole.drawn, nil); ok {
		t.Fatal("a round at other points than the objects' measured")
	}
	// Budgets from under the every-run page's size down: the first round
	// fits some and not others.
	size := whole.inlined(frame)
	fits, past := 0, 0
	for _, budget := range []int{size - 1, size * 9 / 10, size * 3 / 4, size * 2 / 3, size / 2, size / 3, size / 4, size / 8} {
		r.opt.MaxPageBytes = budget
		cut, err := r.everyRunPage(all, false, frame, budget, nil)
		if err != nil {
			t.Fatal(err)
		}
		lens, more, measured := r.measuredSweepRound(sts, tags, points, true, rowOf, cut.drawn, nil)
		for i, tv := range tags {
			if !measured {
				break
			}
			// Built from the every-run page's objects, those it built
			// before its budget stopped it, and from those measuring added.
			for _, objs := range []runObjects{cut.drawn, more} {
				b := appendSweepChart(nil, &r.an.Scalars, tv, &sts[i], points, true, rowOf, objs)
				if b = r.appendBaselineChart(b, tv.tag); lens[i] != len(b) {
					t.Fatalf("budget %d: chart of %s measured %d bytes, built %d", budget, tv.tag, lens[i], len(b))
				}
			}
		}
		if measured && len(more) <= len(cut.drawn) && len(cut.drawn) < len(whole.drawn) {
			t.Fatalf("budget %d: measuring added no object to the %d the every-run page built", budget, len(cut.drawn))
		}
		got, err := r.scalarsPage(false)
		if err != nil {
			t.Fatal(err)
		}
		if got.Sweep == nil || !got.Sweep.ForBudget {
			t.Fatalf("budget %d: not a sweep's page for its budget", budget)
		}
		want, err := r.sweepPage(all, false, frame, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("budget %d: the page differs from the sweep page that shares no object", budget)
		}
		switch {
		case !measured:
		case got.Sweep.Points == "":
			fits++
		default:
			past++
		}
	}
	if fits == 0 || past == 0 {
		t.Fatalf("the first round measured fits %d budgets and passes %d: the test checks one case only", fits, past)
	}
}

// TestDrawnPointsAreStrconvs checks appendDrawnPoints' steps (appendInt)
// against strconv's, with the value and wall time as appendValue and
// appendWallTime write them: steps of every sign and size, the int64
// bounds among them, and indices out of order and repeated.
func TestDrawnPointsAreStrconvs(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 2))
	steps := []int64{0, 1, -1, 9, 10, -10, 99, 1e15, 1e16, 1e18, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	var pts []model.Point
	for i := range 5000 {
		s := int64(rng.Uint64()) >> rng.IntN(64)
		if i < len(steps) {
			s = steps[i]
		}
		pts = append(pts, model.Point{Step: s, Value: float64(float32(rng.NormFloat64())), WallTime: 1.7e9 + float64(i)/10})
	}
	idx := make([]int, 3000)
	for i := range idx {
		idx[i] = rng.IntN(len(pts))
	}
	idx[0], idx[1] = 0, 11
	for _, f32 := range []bool{true, false} {
		want := []byte{'['}
		for i, k := range idx {
			if i > 0 {
				want = append(want, ',')
			}
			p := pts[k]
			want = append(strconv.AppendInt(append(want, '['), p.Step, 10), ',')
			want = append(appendWallTime(append(appendValue(want, p.Value, f32), ','), p.WallTime), ']')
		}
		want = append(want, ']')
		if got := appendDrawnPoints(nil, pts, idx, f32); string(got) != string(want) {
			t.Fatalf("float32 %v: drawn points differ from strconv's:\n%.300s\n%.300s", f32, got, want)
		}
	}
}
