package main

// Browser test of the scalars page of a sweep of 300 runs: each chart
// draws the median and bands across runs and the best and worst runs by
// final value, with their points as written; the run selector filters by
// hyperparameter, sorts by final value and pages its list; checking a run
// loads its data file's script and draws its points, and a second run of
// that file draws with no other load; the best end flips;
// the single file draws the band and loads nothing.

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/trainreport/trainreport/collect/eventpb"
)

const (
	bigSweepRuns  = 300
	bigSweepSteps = 50
)

func bigSweepRun(k int) string { return fmt.Sprintf("trial%03d", k) }

// bigSweepValue is run k's value of tag at step s, as written (float32).
// The loss ends lowest for k % 50 == 0 and highest for k % 50 == 49; run
// 7's loss is NaN at its end (in no end of the ranking).
func bigSweepValue(tag string, k, s int) float32 {
	loss := 1/float64(s+1) + float64(k%50)/100 + 0.001*float64(k/50) + 0.01*math.Sin(float64(k*s))
	if tag == "loss" && k == 7 && s == bigSweepSteps-1 {
		return float32(math.NaN())
	}
	if tag == "eval/accuracy" {
		return float32(1 - loss/2)
	}
	return float32(loss)
}

// sessionValue is a summary value of the hparams plugin starting a
// session with hparams.
func sessionValue(t *testing.T, hparams map[string]*structpb.Value) *eventpb.SummaryValue {
	t.Helper()
	content, err := proto.Marshal(&eventpb.HParamsPluginData{Data: &eventpb.HParamsPluginData_SessionStartInfo{
		SessionStartInfo: &eventpb.SessionStartInfo{Hparams: hparams, StartTimeSecs: 1_700_000_000}}})
	if err != nil {
		t.Fatal(err)
	}
	return &eventpb.SummaryValue{Tag: "_hparams_/session_start_info", Metadata: &eventpb.SummaryMetadata{
		PluginData: &eventpb.PluginData{PluginName: "hparams", Content: content}},
		Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_FLOAT,
			TensorShape: &eventpb.TensorShapeProto{}, FloatVal: []float32{0}}}}
}

// writeBigSweep writes the sweep: per run a session (lr of 10 values,
// optimizer of 2, width of 300) and a loss and an accuracy of 50 steps.
func writeBigSweep(t *testing.T, dir string) {
	t.Helper()
	for k := range bigSweepRuns {
		events := []*eventpb.Event{summaryEvent(0, 0, sessionValue(t, map[string]*structpb.Value{
			"lr":        structpb.NewNumberValue(float64(k%10+1) / 1000),
			"optimizer": structpb.NewStringValue([]string{"adam", "sgd"}[k%2]),
			"width":     structpb.NewNumberValue(float64(16 + k)),
		}))}
		for s := range bigSweepSteps {
			events = append(events, summaryEvent(int64(s), 0.5,
				simpleValue("loss", bigSweepValue("loss", k, s)), simpleValue("eval/accuracy", bigSweepValue("eval/accuracy", k, s))))
		}
		writeEventFile(t, filepath.Join(dir, bigSweepRun(k), "events.out.tfevents.1700000000.host"), events)
	}
}

type sweepChartState struct {
	Tag, Flip, Better string
	Steps             []int64
	Median            []float64
	Ends              []struct {
		Name, Rank string
		Points     [][2]float64
	}
	Series []struct {
		ID, Name string
		Points   [][2]*float64
		Segments int
	}
}

type sweepSelectorState struct {
	Count, Page    string
	Rows           []sweepRowState
	Filters, Notes []string
}

type sweepRowState struct {
	Name              string
	Checked, Disabled bool
	Final             string
}

// bigSweepFinals returns, per run, its final value of tag, NaN included.
func bigSweepFinals(tag string) []float64 {
	out := make([]float64, bigSweepRuns)
	for k := range out {
		out[k] = float64(bigSweepValue(tag, k, bigSweepSteps-1))
	}
	return out
}

// ends returns the runs with the n lowest and n highest finite finals.
func ends(finals []float64, n int) (low, high []string) {
	var ks []int
	for k, v := range finals {
		if !math.IsNaN(v) {
			ks = append(ks, k)
		}
	}
	slices.SortStableFunc(ks, func(a, b int) int {
		switch {
		case finals[a] < finals[b]:
			return -1
		case finals[a] > finals[b]:
			return 1
		}
		return 0
	})
	for i := range n {
		low = append(low, bigSweepRun(ks[i]))
		high = append(high, bigSweepRun(ks[len(ks)-1-i]))
	}
	return low, high
}

// median7 is the median of vals by numpy's default rule.
func median7(vals []float64) float64 {
	s := slices.Clone(vals)
	slices.Sort(s)
	h := float64(len(s)-1) * 0.5
	lo := int(h)
	if lo+1 >= len(s) {
		return s[lo]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

func TestBrowserScalarsSweep(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logs := filepath.Join(t.TempDir(), "logs")
	writeBigSweep(t, logs)
	r := buildReport(t, logs)

	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), "smoothing=0"))
	charts := eval[[]sweepChartState](tb, pageJS("scalarsweep.js", "charts"))
	if len(charts) != 2 {
		t.Fatalf("%d charts", len(charts))
	}
	for _, c := range charts {
		finals := bigSweepFinals(c.Tag)
		low, high := ends(finals, 5)
		best, worst := low, high
		wantBetter, wantFlip := "lower", "Best: lowest"
		if c.Tag == "eval/accuracy" {
			best, worst, wantBetter, wantFlip = high, low, "higher", "Best: highest"
		}
		if c.Better != wantBetter || c.Flip != wantFlip {
			t.Errorf("%s: better %q, button %q", c.Tag, c.Better, c.Flip)
		}
		// The band: the median at each step is that of the values written.
		if len(c.Steps) != bigSweepSteps {
			t.Fatalf("%s: band of %d steps", c.Tag, len(c.Steps))
		}
		var median []float64
		for s := range bigSweepSteps {
			var vals []float64
			for k := range bigSweepRuns {
				if v := float64(bigSweepValue(c.Tag, k, s)); !math.IsNaN(v) {
					vals = append(vals, v)
				}
			}
			median = append(median, median7(vals))
		}
		var drawnMedian []float64
		bestNames, worstNames := map[string][][2]float64{}, map[string][][2]float64{}
		outer, inner := 0, 0
		for _, s := range c.Series {
			switch {
			case s.ID == "sweep:median":
				for i, p := range s.Points {
					if p[1] == nil || *p[0] != float64(c.Steps[i]) {
						t.Fatalf("%s: median point %d: %v", c.Tag, i, p)
					}
					drawnMedian = append(drawnMedian, *p[1])
				}
			case s.ID == "sweep:outer":
				outer = s.Segments
			case s.ID == "sweep:inner":
				inner = s.Segments
			case strings.HasPrefix(s.ID, "run:"):
				name, role, _ := strings.Cut(s.Name, " · ")
				pts := make([][2]float64, len(s.Points))
				for i, p := range s.Points {
					pts[i] = [2]float64{*p[0], *p[1]}
				}
				if strings.HasPrefix(role, "best") {
					bestNames[name] = pts
				} else if strings.HasPrefix(role, "worst") {
					worstNames[name] = pts
				} else {
					t.Errorf("%s: series %q drawn before any run is checked", c.Tag, s.Name)
				}
			}
		}
		if len(drawnMedian) != bigSweepSteps || outer != bigSweepSteps-1 || inner != bigSweepSteps-1 {
			t.Errorf("%s: median of %d points, bands of %d and %d segments", c.Tag, len(drawnMedian), outer, inner)
		}
		for i := range drawnMedian {
			if math.Abs(drawnMedian[i]-median[i]) > 1e-6 {
				t.Errorf("%s: median at step %d drawn %v, want %v", c.Tag, i, drawnMedian[i], median[i])
				break
			}
		}
		for _, want := range []struct {
			role  string
			names []string
			got   map[string][][2]float64
		}{{"best", best, bestNames}, {"worst", worst, worstNames}} {
			if got := slices.Sorted(func(yield func(string) bool) {
				for n := range want.got {
					if !yield(n) {
						return
					}
				}
			}); !slices.Equal(got, slices.Sorted(slices.Values(want.names))) {
				t.Errorf("%s: %s runs drawn %v, want %v", c.Tag, want.role, got, want.names)
			}
			// Their points are the values written.
			for name, pts := range want.got {
				var k int
				fmt.Sscanf(name, "trial%d", &k)
				if len(pts) != bigSweepSteps {
					t.Errorf("%s: %s has %d points", c.Tag, name, len(pts))
					continue
				}
				for s, p := range pts {
					// Values are written in float32's shortest form.
					if p[0] != float64(s) || float32(p[1]) != bigSweepValue(c.Tag, k, s) {
						t.Errorf("%s: %s point %d drawn %v, want %v", c.Tag, name, s, p, bigSweepValue(c.Tag, k, s))
						break
					}
				}
			}
		}
	}

	// The selector: a page of 50 rows of 300, a list filter for lr and
	// optimizer, a range for width.
	sel := eval[sweepSelectorState](tb, pageJS("scalarsweep.js", "selector"))
	if len(sel.Rows) != 50 || sel.Page != "page 1 of 6" || sel.Count != "300 runs, 0 checked" {
		t.Errorf("selector: %d rows, %q, %q", len(sel.Rows), sel.Page, sel.Count)
	}
	if want := []string{"lr:select", "optimizer:select", "width:input,input"}; !slices.Equal(sel.Filters, want) {
		t.Errorf("filters %v, want %v", sel.Filters, want)
	}
	// Only sgd, width 100 to 199, sorted by final loss decreasing: the
	// runs of odd k from 85 to 183... with the highest loss first.
	eval[bool](tb, pageJS("scalarsweep.js", "filter", "optimizer", "sgd"))
	eval[bool](tb, pageJS("scalarsweep.js", "range", "width", 100, 199))
	eval[bool](tb, pageJS("scalarsweep.js", "sort", "loss", true))
	sel = eval[sweepSelectorState](tb, pageJS("scalarsweep.js", "selector"))
	finals := bigSweepFinals("loss")
	var want []int
	for k := range bigSweepRuns {
		if k%2 == 1 && 16+k >= 100 && 16+k <= 199 {
			want = append(want, k)
		}
	}
	slices.SortStableFunc(want, func(a, b int) int {
		fa, fb := finals[a], finals[b]
		switch {
		case math.IsNaN(fa) != math.IsNaN(fb):
			if math.IsNaN(fa) {
				return 1
			}
			return -1
		case fa > fb:
			return -1
		case fa < fb:
			return 1
		}
		return a - b
	})
	if sel.Count != fmt.Sprintf("300 runs, %d match the filters, 0 checked", len(want)) || len(sel.Rows) != len(want) {
		t.Fatalf("filtered: %q, %d rows, want %d", sel.Count, len(sel.Rows), len(want))
	}
	for i, row := range sel.Rows {
		if row.Name != bigSweepRun(want[i]) {
			t.Errorf("row %d: %s, want %s (final %v)", i, row.Name, bigSweepRun(want[i]), finals[want[i]])
			break
		}
	}
	// Check the run of the third row: its bundle, one script for every
	// tag of the run, loads once and each chart draws its points.
	picked := sel.Rows[2].Name
	var k int
	fmt.Sscanf(picked, "trial%d", &k)
	eval[bool](tb, pageJS("scalarsweep.js", "check", 2))
	waitFor(tb, pageJS("scalarsweep.js", "drawnEverywhere", picked), 10*time.Second, "the checked run drawn on every chart")
	loaded := eval[[]string](tb, pageJS("scalarsweep.js", "loaded"))
	if len(loaded) != 1 || !strings.HasPrefix(loaded[0], "file://") || !strings.Contains(loaded[0], "/data/scalars/trial") || !strings.HasSuffix(loaded[0], ".js") {
		t.Errorf("scripts loaded: %v", loaded)
	}
	for _, c := range eval[[]sweepChartState](tb, pageJS("scalarsweep.js", "charts")) {
		for _, s := range c.Series {
			if s.Name != picked {
				continue
			}
			if len(s.Points) != bigSweepSteps {
				t.Errorf("%s: %s drawn with %d points", c.Tag, picked, len(s.Points))
			}
			for i, p := range s.Points {
				w := bigSweepValue(c.Tag, k, i)
				if *p[0] != float64(i) || (p[1] == nil) != math.IsNaN(float64(w)) || (p[1] != nil && float32(*p[1]) != w) {
					t.Errorf("%s: %s point %d drawn %v, want %v", c.Tag, picked, i, fmtPoint(p), w)
					break
				}
			}
		}
	}
	// The download holds the runs drawn, every point of their data files.
	dl := eval[struct {
		Note string
		Runs map[string][][3]any
	}](tb, pageJS("scalarsweep.js", "exportJSON", "loss"))
	// The filters narrow the best and worst runs drawn too.
	kept := func(name string) bool {
		var k int
		fmt.Sscanf(name, "trial%d", &k)
		return k%2 == 1 && 16+k >= 100 && 16+k <= 199
	}
	low, high := ends(bigSweepFinals("loss"), 5)
	wantRuns := []string{picked}
	for _, n := range append(low, high...) {
		if kept(n) {
			wantRuns = append(wantRuns, n)
		}
	}
	slices.Sort(wantRuns)
	gotRuns := slices.Sorted(maps.Keys(dl.Runs))
	if !slices.Equal(gotRuns, wantRuns) || len(dl.Runs[picked]) != bigSweepSteps ||
		!strings.HasPrefix(dl.Note, fmt.Sprintf("The %d runs this chart draws", len(wantRuns))) {
		t.Errorf("loss download: runs %v (want %v), %d points of %s, note %q", gotRuns, wantRuns, len(dl.Runs[picked]), picked, dl.Note)
	}
	sel = eval[sweepSelectorState](tb, pageJS("scalarsweep.js", "selector"))
	if !sel.Rows[2].Checked || !strings.HasSuffix(sel.Count, "1 checked") {
		t.Errorf("after checking %s: %q, row %+v", picked, sel.Count, sel.Rows[2])
	}
	// A second run of the picked run's bundle file (data layout 3 packs
	// consecutive runs into one) draws from the file loaded once.
	idx, err := os.ReadFile(filepath.Join(r.site, "data", "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var index struct {
		Bundles map[string]string `json:"scalar_bundles"`
	}
	if err := json.Unmarshal(idx, &index); err != nil {
		t.Fatal(err)
	}
	// Not one of a chart's ends, which draw under another name.
	var atEnds []string
	for _, tag := range []string{"loss", "eval/accuracy"} {
		lo, hi := ends(bigSweepFinals(tag), 5)
		atEnds = append(append(atEnds, lo...), hi...)
	}
	second := slices.IndexFunc(sel.Rows, func(row sweepRowState) bool {
		return row.Name != picked && index.Bundles[row.Name] == index.Bundles[picked] && !slices.Contains(atEnds, row.Name)
	})
	if second < 0 || index.Bundles[picked] == "" {
		t.Fatalf("no row shares %s's bundle %q", picked, index.Bundles[picked])
	}
	// (The download above loaded the files of the runs it holds.)
	before := eval[[]string](tb, pageJS("scalarsweep.js", "loaded"))
	if !slices.ContainsFunc(before, func(u string) bool { return strings.HasSuffix(u, "/data/"+index.Bundles[picked]) }) {
		t.Errorf("scripts loaded %v, want %s among them", before, index.Bundles[picked])
	}
	eval[bool](tb, pageJS("scalarsweep.js", "check", second))
	waitFor(tb, pageJS("scalarsweep.js", "drawnEverywhere", sel.Rows[second].Name), 10*time.Second, "the second checked run drawn on every chart")
	if l := eval[[]string](tb, pageJS("scalarsweep.js", "loaded")); !slices.Equal(l, before) {
		t.Errorf("checking %s, of %s's file %s, loaded %v", sel.Rows[second].Name, picked, index.Bundles[picked], l[len(before):])
	}
	tb.screenshot(shots, "scalars-sweep-site")

	// Without the filters, flipping the loss chart's best end swaps its
	// best and worst runs.
	eval[bool](tb, pageJS("scalarsweep.js", "filter", "optimizer", "\u0000"))
	eval[bool](tb, pageJS("scalarsweep.js", "range", "width", "", ""))
	eval[bool](tb, pageJS("scalarsweep.js", "click", `[data-action="flip"]`, "loss"))
	low, _ = ends(bigSweepFinals("loss"), 5)
	// The charts draw again in a later frame: on a loaded machine the
	// first look can come before it, so the page waits for it first.
	flipped := func() (string, []string, bool) {
		for _, c := range eval[[]sweepChartState](tb, pageJS("scalarsweep.js", "charts")) {
			if c.Tag != "loss" {
				continue
			}
			var worst []string
			for _, s := range c.Series {
				if name, role, ok := strings.Cut(s.Name, " · "); ok && strings.HasPrefix(role, "worst") {
					worst = append(worst, name)
				}
			}
			return c.Flip, worst, c.Flip == "Best: highest" && slices.Equal(slices.Sorted(slices.Values(worst)), slices.Sorted(slices.Values(low)))
		}
		return "", nil, false
	}
	// The same test as flipped's, in the page at each frame, up to 5 s;
	// then flipped says what is drawn.
	wantLow, _ := json.Marshal(low)
	eventually(tb, fmt.Sprintf(`(async () => {
	const want = %s.sort();
	const c = (await %s).find(c => c.tag === "loss");
	if (!c) return false;
	const worst = c.series.map(s => s.name).filter(n => n.includes(" · ") && n.slice(n.indexOf(" · ") + 3).startsWith("worst")).map(n => n.slice(0, n.indexOf(" · "))).sort();
	return c.flip === "Best: highest" && worst.length === want.length && worst.every((w, i) => w === want[i]);
})()`, wantLow, pageJS("scalarsweep.js", "charts")), 5*time.Second)
	button, worst, ok := flipped()
	if !ok {
		t.Errorf("flipped: button %q, worst %v, want %v", button, worst, low)
	}

	// The single file: the band and ends, no run to check, nothing loaded.
	ts := openTab(t, browser, fileURL(r.single, "page=scalars"))
	sc := eval[[]sweepChartState](ts, pageJS("scalarsweep.js", "charts"))
	if len(sc) != 2 || len(sc[0].Median) != bigSweepSteps {
		t.Fatalf("single file: %d charts", len(sc))
	}
	ss := eval[sweepSelectorState](ts, pageJS("scalarsweep.js", "selector"))
	if len(ss.Rows) == 0 || !ss.Rows[0].Disabled || !strings.Contains(strings.Join(ss.Notes, " "), "cannot load") {
		t.Errorf("single file selector: %+v", ss)
	}
	if l := eval[[]string](ts, pageJS("scalarsweep.js", "loaded")); len(l) != 0 {
		t.Errorf("single file loaded %v", l)
	}
	ts.screenshot(shots, "scalars-sweep-single")
}

func fmtPoint(p [2]*float64) string {
	f := func(v *float64) string {
		if v == nil {
			return "null"
		}
		return fmt.Sprint(*v)
	}
	return "[" + f(p[0]) + ", " + f(p[1]) + "]"
}
