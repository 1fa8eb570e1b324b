package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"math"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// spread returns n of xs evenly spread by index, the first and last
// included (n >= 2): the steps of a band a chart draws at fewer steps
// than the analysis summarised, as bandText.appendColumn keeps them.
func spread[T any](xs []T, n int) []T {
	if n < 2 {
		n = 2
	}
	out := make([]T, 0, n)
	for i := range n {
		out = append(out, xs[i*(len(xs)-1)/(n-1)])
	}
	return out
}

// thinBand returns the band at n of its steps, evenly spread: what
// appendSweepChart formatted before it copied the band's elements from a
// bandText.
func thinBand(b result.SweepBand, n int) result.SweepBand {
	if len(b.Steps) <= n {
		return b
	}
	idx := make([]int, len(b.Steps))
	for i := range idx {
		idx[i] = i
	}
	idx = spread(idx, n)
	var out result.SweepBand
	for _, i := range idx {
		out.Steps = append(out.Steps, b.Steps[i])
		out.N = append(out.N, b.N[i])
		for qi := range b.Q {
			out.Q[qi] = append(out.Q[qi], b.Q[qi][i])
		}
	}
	return out
}

// TestThinBandKeepsEvenlySpreadSteps checks the band a chart draws at
// fewer steps than the analysis summarised: the first, the middle and the
// last, their values unchanged.
func TestThinBandKeepsEvenlySpreadSteps(t *testing.T) {
	band := result.SweepBand{Steps: []int64{0, 1, 2, 3, 4}, N: []int{2, 3, 3, 1, 2}}
	for qi := range band.Q {
		band.Q[qi] = []float64{0, 1, 3, 3, 6}
	}
	th := thinBand(band, 3)
	if !slices.Equal(th.Steps, []int64{0, 2, 4}) || th.Q[2][1] != 3 || th.N[2] != 2 {
		t.Errorf("thinned band %+v", th)
	}
	if th := thinBand(band, 5); !slices.Equal(th.Steps, band.Steps) {
		t.Errorf("band within its budget thinned to %v", th.Steps)
	}
}

// TestBandTextIsTheBandFormatted checks the band's columns copied from
// its text (bandText) against the band thinned, then formatted as
// appendSweepChart formatted it before: bands of 0 to 40 steps with
// non-finite and float64-only values, at every number of points from 0
// to past the band's steps.
func TestBandTextIsTheBandFormatted(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	odd := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e21, 1e-7, 0.1}
	for steps := range 41 {
		for _, f32 := range []bool{true, false} {
			var band result.SweepBand
			for i := range steps {
				band.Steps = append(band.Steps, int64(i)*int64(rng.IntN(1e6))-int64(rng.IntN(3)))
				band.N = append(band.N, rng.IntN(5000))
				for qi := range band.Q {
					v := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
					if rng.IntN(8) == 0 {
						v = odd[rng.IntN(len(odd))]
					}
					if f32 && rng.IntN(2) == 0 {
						// A quantile between two float32 values is
						// no float32 (appendBandValue's case).
						v = float64(float32(v))
					}
					band.Q[qi] = append(band.Q[qi], v)
				}
			}
			text := newBandText(&band, f32)
			for points := range steps + 3 {
				th := thinBand(band, points)
				want := [][]byte{appendInts(nil, th.Steps), appendInts(nil, th.N)}
				for qi := range th.Q {
					want = append(want, appendValues(nil, th.Q[qi], f32))
				}
				for c, w := range want {
					if got := text.appendColumn(nil, c, points); !bytes.Equal(got, w) {
						t.Fatalf("%d steps (float32 %v) at %d points, column %d: %s, want %s", steps, f32, points, c, got, w)
					}
				}
			}
		}
	}
}

// TestBandValueIsAppendValue checks appendBandValue against appendValue
// on values of a float32 band that are no float32 (quantiles between
// two runs' values): between float32 neighbours, at their midpoints
// (round half to even), about the ends of appendFloat32's range (2^-10
// and 2^24, where float32(v) may cross it), about 1e-6 (where
// AppendValue's form changes), past float32's range, and the zeros,
// subnormals, NaN and the infinities; and that the float32s of the range
// take appendFloat32 (which the test would otherwise not compare).
func TestBandValueIsAppendValue(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 1))
	vs := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat32, math.MaxFloat64,
		math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat32, 1e-6, 1e21, 0x1p-10, 0x1p24, -0x1p24, 0.1}
	// The float64s about a float32 f: its neighbours' midpoints and the
	// float64s next to them.
	around := func(f float32) {
		up, down := math.Nextafter32(f, float32(math.Inf(1))), math.Nextafter32(f, float32(math.Inf(-1)))
		for _, m := range []float64{(float64(f) + float64(up)) / 2, (float64(f) + float64(down)) / 2} {
			vs = append(vs, m, math.Nextafter(m, math.Inf(1)), math.Nextafter(m, math.Inf(-1)))
		}
		vs = append(vs, math.Nextafter(float64(f), 0), math.Nextafter(float64(f), math.Inf(1)))
	}
	for _, f := range []float32{0x1p-10, 0x1p24, 0x1p-20, 1e-6, 1, 0.1, 3, 1000, math.MaxFloat32, math.SmallestNonzeroFloat32} {
		around(f)
		around(-f)
	}
	for range 200_000 {
		f := float32(rng.NormFloat64() * math.Pow(2, float64(rng.IntN(44)-14)))
		around(f)
		vs = append(vs, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(50)-25)))
	}
	fast := 0
	for _, v := range vs {
		if got, want := appendBandValue(nil, v, true), appendValue(nil, v, true); !bytes.Equal(got, want) {
			t.Fatalf("appendBandValue(%v (bits %#x), true) = %s, appendValue %s", v, math.Float64bits(v), got, want)
		}
		if got, want := appendBandValue(nil, v, false), appendValue(nil, v, false); !bytes.Equal(got, want) {
			t.Fatalf("appendBandValue(%v, false) = %s, appendValue %s", v, got, want)
		}
		if _, ok := appendFloat32(nil, float64(float32(v))); ok && float64(float32(v)) != v {
			fast++
		}
	}
	if fast < len(vs)/2 {
		t.Fatalf("%d of %d values no float32 took appendFloat32: the test compares little", fast, len(vs))
	}
}

// FuzzBandValue checks appendBandValue against appendValue on any
// float64's bits, and on those of a float32 nudged by a few ulps of a
// float64.
func FuzzBandValue(f *testing.F) {
	f.Add(uint64(0x3fb999999999999a), int8(0))
	f.Add(uint64(0x3f50000000000000), int8(-1))
	f.Fuzz(func(t *testing.T, bits uint64, nudge int8) {
		for _, v := range []float64{math.Float64frombits(bits), float64(math.Float32frombits(uint32(bits))) * (1 + float64(nudge)*0x1p-52)} {
			if got, want := appendBandValue(nil, v, true), appendValue(nil, v, true); !bytes.Equal(got, want) {
				t.Fatalf("appendBandValue(%v (bits %#x), true) = %s, appendValue %s", v, math.Float64bits(v), got, want)
			}
		}
	})
}

// appendInts appends xs as a JSON array of integers.
func appendInts[T int | int64](b []byte, xs []T) []byte {
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// TestBetterOfTagNames checks which way a tag improves, by its name.
func TestBetterOfTagNames(t *testing.T) {
	for tag, want := range map[string]direction{"loss": lowerBetter, "val/accuracy": higherBetter, "lr": unknownBetter} {
		if got := betterOf(tag); got != want {
			t.Errorf("betterOf(%q) = %v, want %v", tag, got, want)
		}
	}
}

// scalarSweep is a sweep of n runs with a loss and an accuracy of steps
// points each, and hyperparameters in their sessions.
func scalarSweep(n, steps int) *model.Report {
	runs := map[string]map[string][]float64{}
	for k := range n {
		loss, acc := make([]float64, steps), make([]float64, steps)
		for s := range steps {
			loss[s] = 1/float64(s+1) + float64(k%97)/100
			acc[s] = 1 - loss[s]/2
		}
		runs[fmt.Sprintf("trial-%05d", k)] = map[string][]float64{"loss": loss, "accuracy": acc}
	}
	rep := synthetic(runs)
	for k, run := range rep.Runs {
		run.HParams = &model.HParams{Sessions: []*model.Session{{Start: model.SessionStart{HParams: map[string]model.HParamValue{
			"lr":        {Kind: model.NumberValue, Number: float64(k%10) / 1000},
			"optimizer": {Kind: model.StringValue, Str: []string{"adam", "sgd"}[k%2]},
		}}}}}
	}
	return rep
}

var chartDataRE = regexp.MustCompile(`(?s)<script type="application/json" class="chart-data">(.*?)</script>`)

// sweepChartData is what the tests read of a chart of a sweep.
type sweepChartData struct {
	Tag  string `json:"tag"`
	Runs []struct {
		Name   string   `json:"name"`
		Rank   string   `json:"rank"`
		Index  int      `json:"index"`
		Points [][3]any `json:"points"`
		Script string   `json:"script"`
	} `json:"runs"`
	Sweep *struct {
		Runs   int         `json:"runs"`
		Better string      `json:"better"`
		Steps  []int64     `json:"steps"`
		N      []int       `json:"n"`
		Q      [][]float64 `json:"q"`
	} `json:"sweep"`
}

// bundleOfName is the scalar bundle file of the run of r named name, ""
// when it has none.
func bundleOfName(r *Report, name string) string {
	for run, f := range r.bundleOf {
		if run.Name == name {
			return f
		}
	}
	return ""
}

func chartsOf(t *testing.T, page []byte) []sweepChartData {
	t.Helper()
	var out []sweepChartData
	for _, m := range chartDataRE.FindAllSubmatch(page, -1) {
		var c sweepChartData
		if err := json.Unmarshal(m[1], &c); err != nil {
			t.Fatalf("chart data: %v: %.200s", err, m[1])
		}
		out = append(out, c)
	}
	return out
}

// TestScalarsPageBudget checks that the scalars page stays under
// Options.MaxPageBytes as a sweep grows to 10,000 runs, in the site and
// the single file, and that each chart then holds its band and extreme
// runs, and the page its run table; and that a page of few runs is as it
// was.
func TestScalarsPageBudget(t *testing.T) {
	for _, tc := range []struct {
		runs, steps int
		sweep       bool
	}{
		{50, 20, false},
		{101, 20, true},
		{2000, 20, true},
		{10_000, 20, true},
		{400, 1000, true},
	} {
		r := newReport(scalarSweep(tc.runs, tc.steps), Options{})
		var page bytes.Buffer
		if err := r.writePage(&page, r.pages()[1], nil); err != nil {
			t.Fatal(err)
		}
		if page.Len() > DefaultMaxPageBytes {
			t.Errorf("%d runs x %d steps: scalars.html is %d bytes, over %d", tc.runs, tc.steps, page.Len(), DefaultMaxPageBytes)
		}
		charts := chartsOf(t, page.Bytes())
		if len(charts) != 2 {
			t.Fatalf("%d runs: %d charts", tc.runs, len(charts))
		}
		got := bytes.Contains(page.Bytes(), []byte("data-sweep-selector"))
		if got != tc.sweep || (charts[0].Sweep != nil) != tc.sweep {
			t.Fatalf("%d runs: sweep page %v, want %v", tc.runs, got, tc.sweep)
		}
		if !tc.sweep {
			if len(charts[0].Runs) != tc.runs {
				t.Errorf("%d runs: the chart draws %d", tc.runs, len(charts[0].Runs))
			}
			continue
		}
		t.Logf("%d runs x %d steps: %d bytes", tc.runs, tc.steps, page.Len())
		for _, c := range charts {
			sw := c.Sweep
			if sw.Runs != tc.runs || len(sw.Steps) == 0 || len(sw.Q) != 5 || len(sw.Q[2]) != len(sw.Steps) || sw.N[0] != tc.runs {
				t.Errorf("%d runs, %s: band of %d runs, %d steps, n %v", tc.runs, c.Tag, sw.Runs, len(sw.Steps), sw.N[:1])
			}
			if len(c.Runs) != 2*result.SweepEnds {
				t.Errorf("%s: %d extreme runs", c.Tag, len(c.Runs))
			}
			if c.Runs[0].Script != bundleOfName(r, c.Runs[0].Name) || c.Runs[0].Script == "" {
				t.Errorf("%s: script %q of run %q", c.Tag, c.Runs[0].Script, c.Runs[0].Name)
			}
			// loss falls with k % 97: the lowest final values are runs
			// 0, 97, 194, ... and the highest those of k % 97 = 96.
			want := map[string]string{"loss": "lower", "accuracy": "higher"}[c.Tag]
			if sw.Better != want {
				t.Errorf("%s: better %q, want %q", c.Tag, sw.Better, want)
			}
			// The low end holds the lowest final values, the high end
			// the highest: the value of run k is its last point.
			final := func(k int) float64 {
				loss := 1/float64(tc.steps) + float64(k%97)/100
				if c.Tag == "accuracy" {
					return 1 - loss/2
				}
				return loss
			}
			lowMax, highMin := math.Inf(-1), math.Inf(1)
			chosen := map[int]bool{}
			for _, run := range c.Runs {
				var k int
				fmt.Sscanf(run.Name, "trial-%d", &k)
				chosen[k] = true
				if run.Index != k || len(run.Points) != tc.steps {
					t.Errorf("%s: run %s at row %d, %d points", c.Tag, run.Name, run.Index, len(run.Points))
				}
				if run.Rank == "low" {
					lowMax = max(lowMax, final(k))
				} else {
					highMin = min(highMin, final(k))
				}
			}
			for k := range tc.runs {
				if !chosen[k] && (final(k) < lowMax || final(k) > highMin) {
					t.Errorf("%s: run %d (final %v) is not among the ends (low up to %v, high from %v)", c.Tag, k, final(k), lowMax, highMin)
				}
			}
		}
		m := regexp.MustCompile(`(?s)<script type="application/json" class="sweep-runs">(.*?)</script>`).FindSubmatch(page.Bytes())
		if m == nil {
			t.Fatalf("%d runs: no run table", tc.runs)
		}
		var table struct {
			Names   []string `json:"names"`
			Bundles []string `json:"bundles"`
			HParams []struct {
				Name   string `json:"name"`
				Values []any  `json:"values"`
			} `json:"hparams"`
			Tags []struct {
				Tag    string    `json:"tag"`
				Finals []float64 `json:"finals"`
			} `json:"tags"`
		}
		if err := json.Unmarshal(m[1], &table); err != nil {
			t.Fatal(err)
		}
		if len(table.Names) != tc.runs || len(table.Bundles) != tc.runs || len(table.HParams) != 2 || len(table.Tags) != 2 {
			t.Fatalf("run table: %d names, %d bundles, %d hparams, %d tags", len(table.Names), len(table.Bundles), len(table.HParams), len(table.Tags))
		}
		if table.HParams[0].Name != "lr" || table.HParams[0].Values[3] != 0.003 || table.HParams[1].Values[1] != "sgd" {
			t.Errorf("hparams %v %v", table.HParams[0].Values[:4], table.HParams[1].Values[:2])
		}
		if f := table.Tags[1].Finals[5]; table.Tags[1].Tag != "loss" || math.Abs(f-(1/float64(tc.steps)+0.05)) > 1e-12 {
			t.Errorf("final loss of run 5: %s %v", table.Tags[1].Tag, f)
		}
		if table.Bundles[7] != bundleOfName(r, table.Names[7]) || table.Bundles[7] == "" {
			t.Errorf("bundle %q of run %q", table.Bundles[7], table.Names[7])
		}
	}
}

// TestScalarsPageBudgetSmall checks that a small budget turns a page of
// few runs into a sweep's, and that the page, leaving out what it must,
// stays under it.
func TestScalarsPageBudgetSmall(t *testing.T) {
	for _, budget := range []int{400 << 10, 150 << 10, 80 << 10} {
		r := newReport(scalarSweep(60, 2000), Options{MaxPageBytes: budget})
		var page bytes.Buffer
		if err := r.writePage(&page, r.pages()[1], nil); err != nil {
			t.Fatal(err)
		}
		if page.Len() > budget {
			t.Errorf("budget %d: page of %d bytes", budget, page.Len())
		}
		if !bytes.Contains(page.Bytes(), []byte("data-sweep-selector")) {
			t.Errorf("budget %d: not a sweep's page", budget)
		}
		if !bytes.Contains(page.Bytes(), []byte("each chart draws at most")) {
			t.Errorf("budget %d: the page does not say its charts draw fewer points", budget)
		}
		t.Logf("budget %d: %d bytes, %d charts: %s", budget, page.Len(), len(chartsOf(t, page.Bytes())),
			html.UnescapeString(regexp.MustCompile(`each chart draws at most [0-9,]+`).FindString(page.String())))
	}
}

// BenchmarkSweepPage builds the scalars page of a sweep of 10,000 runs x
// 2 tags x 100 steps: the bands (every point of every run), the ends and
// the run table. go test ./render -run '^$' -bench SweepPage -benchtime 1x
func BenchmarkSweepPage(b *testing.B) {
	r := newReport(scalarSweep(10_000, 100), Options{})
	b.ReportAllocs()
	for b.Loop() {
		var buf bytes.Buffer
		r.bodies = map[bodyKey]any{}
		if err := r.writePage(&buf, r.pages()[1], nil); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(buf.Len()), "page-bytes")
	}
}

// TestSweepPageHostileNames checks that run names, tags and
// hyperparameters from the logs stay inert in a sweep's page: no script
// element of theirs, the run table and charts still JSON, names intact,
// and a long hyperparameter value cut.
func TestSweepPageHostileNames(t *testing.T) {
	rep := scalarSweep(sweepPageRuns+1, 5)
	for i, name := range hostile {
		run := rep.Runs[i]
		run.Name = name
		run.Scalars = append(run.Scalars, &model.Scalar{Tag: name, Points: []model.Point{{Step: 1, Value: 1}}})
		run.HParams.Sessions[0].Start.HParams[name] = model.HParamValue{Kind: model.StringValue, Str: name + strings.Repeat("x", 300)}
	}
	r := newReport(rep, Options{})
	var page bytes.Buffer
	if err := r.writePage(&page, r.pages()[1], nil); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(page.String(), "<script>alert"); n != 0 {
		t.Errorf("%d script elements from names", n)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" class="sweep-runs">(.*?)</script>`).FindSubmatch(page.Bytes())
	if m == nil {
		t.Fatal("no run table")
	}
	var table struct {
		Names   []string `json:"names"`
		HParams []struct {
			Name   string `json:"name"`
			Values []any  `json:"values"`
		} `json:"hparams"`
	}
	if err := json.Unmarshal(m[1], &table); err != nil {
		t.Fatal(err)
	}
	for i, name := range hostile {
		if table.Names[i] != strings.ToValidUTF8(name, "\uFFFD") {
			t.Errorf("name %d: %q, want %q", i, table.Names[i], name)
		}
	}
	cut := 0
	for _, h := range table.HParams {
		for _, v := range h.Values {
			s, ok := v.(string)
			if ok && len(s) > maxHParamText+len("…") {
				t.Errorf("hyperparameter %.20q: a value of %d bytes", h.Name, len(s))
			}
			if ok && strings.HasSuffix(s, "…") {
				cut++
			}
		}
	}
	if cut != len(hostile) {
		t.Errorf("%d values cut, want %d", cut, len(hostile))
	}
	if got := len(chartsOf(t, page.Bytes())); got < 2 {
		t.Errorf("%d charts", got)
	}
}

// TestSweepPageSharesRunObjects checks that the page of a sweep built
// after an every-run page past its budget, sharing that page's run
// objects where it draws the same points, is the page built afresh:
// with a budget its charts fit at once (every object shared) and one
// they pass (the points thinned: none shared).
func TestSweepPageSharesRunObjects(t *testing.T) {
	for _, budget := range []int{-1, 300 << 10} {
		r := newReport(scalarSweep(8, 3000), Options{MaxPageBytes: budget})
		runs := r.rep.Runs
		every, err := r.everyRunPage(runs, false, pageFrameBytes, math.MaxInt, nil)
		if err != nil {
			t.Fatal(err)
		}
		shared := 0
		for sv := range every.drawn {
			if _, ok := every.drawn.of(sv, sv.draw, sv.buckets); !ok {
				t.Fatalf("budget %d: run %s's own points not shared", budget, sv.run.Name)
			}
			if thin, _ := r.an.Scalars.Thin(sv.scalar.Points, len(sv.draw)/2, sv.draw, sv.buckets); len(thin) > 0 {
				if _, ok := every.drawn.of(sv, thin, nil); ok {
					t.Fatalf("budget %d: run %s's thinned points shared", budget, sv.run.Name)
				}
			}
			shared++
		}
		if shared != 2*len(runs) {
			t.Errorf("budget %d: %d run objects, want %d", budget, shared, 2*len(runs))
		}
		got, err := r.sweepPage(runs, false, pageFrameBytes, every.drawn, nil)
		if err != nil {
			t.Fatal(err)
		}
		want, err := r.sweepPage(runs, false, pageFrameBytes, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("budget %d: the sweep page differs when it shares the every-run page's objects", budget)
		}
		if budget > 0 && got.Sweep.Points == "" {
			t.Errorf("budget %d: the charts were not thinned: the test proves less", budget)
		}
	}
}

// When the run table cannot be inlined at all, the note says what would not
// fit: in the site the runs' data files' names, most of its bytes (some 50
// a run; the site of 100,000 runs said "the runs' names alone", which fit),
// in the single file, which names no data file, the names.
func TestSweepPageSaysWhyItListsNoRun(t *testing.T) {
	r := newReport(scalarSweep(300, 3), Options{MaxPageBytes: 2000})
	for _, single := range []bool{false, true} {
		p, err := r.sweepPage(r.rep.Runs, single, 0, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		files := strings.Contains(p.Sweep.TableNote, "the names of their data files")
		if p.Sweep.Table != "null" || !strings.Contains(p.Sweep.TableNote, "lists no run: the runs' names") || files == single {
			t.Errorf("single %v: table %.40s, note %q", single, p.Sweep.Table, p.Sweep.TableNote)
		}
	}
}
