package render

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// planProgression is what the analysis' plan says of steps st, a
// series' points' steps in their order: its progression when each step
// follows the one before by the same stride >= 0 (never wrapping), the
// zero value else.
func planProgression(st []int64) result.StepProgression {
	if len(st) == 0 {
		return result.StepProgression{}
	}
	var stride int64
	if len(st) > 1 {
		stride = st[1] - st[0]
	}
	for i := 1; i < len(st); i++ {
		if st[i]-st[i-1] != stride || st[i] < st[i-1] {
			return result.StepProgression{}
		}
	}
	return result.StepProgression{First: st[0], Stride: stride, Count: len(st)}
}

// TestKnownStepsWriteWhatTheScanWrites checks that a step column written
// with what the plan knows of its series' steps is the column the scan
// of its steps writes, byte for byte, whatever the column keeps of the
// points the plan saw: every point, a downsampled subset (evenly spread,
// or not), or points the analysis cut since (fewer than the plan
// counted), and for progressions the scan refuses (past maxExactStep at
// an end, wrapping int64).
func TestKnownStepsWriteWhatTheScanWrites(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 1))
	cases := [][]int64{{5}, {0, 1, 2}, {3, 2, 1}, {7, 7, 7}, {1 << 52, 1<<52 + 1}, {0, 1 << 51, 1 << 52},
		progression(-(1<<52 - 1), 1<<51, 5), progression(0, 1<<51, 1<<13+3), progression(10, 3, 1000)}
	for range 500 {
		n := 1 + rng.IntN(200)
		st := progression(rng.Int64N(1<<20)-1<<19, rng.Int64N(1<<10), n)
		if rng.IntN(3) == 0 {
			st[rng.IntN(n)] += 1 + rng.Int64N(3)
		}
		cases = append(cases, st)
	}
	used := 0
	for _, st := range cases {
		known := planProgression(st)
		if known.Count > 0 {
			used++
		}
		pts := stepPoints(st).pts
		n := len(pts)
		spread := make([]int, 0, n)
		for i := 0; i < n; i += 1 + n/7 {
			spread = append(spread, i)
		}
		var random []int
		for i := range n {
			if rng.IntN(3) == 0 {
				random = append(random, i)
			}
		}
		for _, c := range []kept{{pts, nil}, {pts, spread}, {pts, random}, {pts[:n/2], nil}, {pts[n/2:], nil}, {pts[:1], nil}} {
			if c.len() == 0 {
				continue
			}
			got := appendSteps(nil, c, known, nil)
			want := appendSteps(nil, c, result.StepProgression{}, nil)
			if !bytes.Equal(got, want) {
				t.Fatalf("steps %.40v (%d), %d of them kept (indices %.20v): %.80s with %+v, %.80s from the scan", st, n, c.len(), c.idx, got, known, want)
			}
		}
	}
	if used < len(cases)/2 {
		t.Fatalf("%d of %d cases a progression by the plan: the test checks little", used, len(cases))
	}
}

// TestKnownStepsSpareThePass checks that a step column keeping every
// point the plan counted takes the plan's progression, its ends checked,
// without reading the steps between them: steps between the ends that
// the plan did not see (a hint not of these points, which no build
// hands it) are not read. This is what spares the column a pass over
// every point; the hint must come from the same points.
func TestKnownStepsSpareThePass(t *testing.T) {
	c := stepPoints(progression(100, 4, 50))
	c.pts[20].Step = 7 // not the plan's
	known := result.StepProgression{First: 100, Stride: 4, Count: 50}
	if got, want := string(appendSteps(nil, c, known, nil)), `{"first":100,"stride":4}`; got != want {
		t.Errorf("with the plan's progression: %.60s, want %s (the steps between the ends read again)", got, want)
	}
	// The ends are still checked: a hint whose last term is not the
	// last step, or of another count, is not taken.
	c.pts[20].Step = 180
	c.pts[49].Step = 1000
	for _, k := range []result.StepProgression{known, {First: 100, Stride: 4, Count: 49}, {First: 100, Stride: 8, Count: 50}} {
		if got := string(appendSteps(nil, c, k, nil)); got[0] != '[' {
			t.Errorf("steps ending at 1000 with %+v: %.60s, want the array", k, got)
		}
	}
}

// TestBundleStepsFromThePlanOnlyWhenWhole checks, through the analysis,
// that a series whose plan says its steps are a progression carries it
// to the writer (its view's steps), and that its bundle is byte for byte
// the one written without it: a downsampled data file (MaxDataPoints)
// and superseded points (an attempt restarted) write what the scan of
// their own steps writes.
func TestBundleStepsFromThePlanOnlyWhenWhole(t *testing.T) {
	vals := make([]float64, 3000)
	for i := range vals {
		vals[i] = float64(i%17) / 3
	}
	rep := synthetic(map[string]map[string][]float64{"run": {"a": vals, "b": vals[:40]}})
	a := rep.Runs[0].Scalars[0]
	// An attempt restarted at step 100: its points from there on were
	// superseded, on steps of another stride.
	var sup []model.Point
	for i := range 30 {
		sup = append(sup, model.Point{Step: 100 + int64(i)*3, WallTime: 1e9 + float64(i), Value: 1})
	}
	a.Superseded = []model.Superseded{{Attempt: 0, Points: sup}}
	for _, limit := range []int{-1, 500, 2999} {
		r := newReport(rep, Options{}, analysis.Options{MaxDataPoints: limit})
		series := []*seriesView{r.tags[0].series[0], r.tags[1].series[0]}
		for _, sv := range series {
			if want := len(sv.scalar.Points); sv.steps != (result.StepProgression{First: 0, Stride: 1, Count: want}) {
				t.Fatalf("limit %d: %s's steps %+v, want the plan's progression of %d points", limit, sv.scalar.Tag, sv.steps, want)
			}
		}
		if limit > 0 && series[0].data == nil || len(series[0].faded) != 1 {
			t.Fatalf("limit %d: data %d, faded %d: the case tests neither a downsampled column nor superseded points", limit, len(series[0].data), len(series[0].faded))
		}
		g := &bundleGroup{file: "scalars/x.js", runs: rep.Runs[:1], series: [][]*seriesView{series}}
		var with, without bytes.Buffer
		if err := (&bundleWriter{js: &with}).write(g); err != nil {
			t.Fatal(err)
		}
		for _, sv := range series {
			sv.steps = result.StepProgression{}
		}
		if err := (&bundleWriter{js: &without}).write(g); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(with.Bytes(), without.Bytes()) {
			t.Errorf("limit %d: the bundle written with the plan's steps differs from the scan's", limit)
		}
		doc := readRunBundle(t, "scalars/x.js", with.Bytes(), "run")
		if got := string(doc.Scalars["b"].Step); got != `{"first":0,"stride":1}` {
			t.Errorf("limit %d: b's steps %.40s", limit, got)
		}
	}
}
