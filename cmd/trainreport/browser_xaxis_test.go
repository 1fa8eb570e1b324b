package main

// Browser test of the scalar charts' view controls (issue 27 items 1 and
// 5): the x axis by another scalar (the drawn x values are that scalar's
// values at the same steps; runs without it, or with it at other steps,
// are named under the chart), Ignore outliers (the y range leaves out an
// injected spike), the tooltip's order (by value, by name, nearest the
// pointer) and the legend under each chart, each kept in the URL.

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// xaxisRun is a run of the test: the level of its loss, and at which
// steps it logs epoch (none: it does not).
type xaxisRun struct {
	level float64
	epoch func(step int64) bool
}

// xaxisRuns: alpha logs epoch with every loss and has a spike; bravo logs
// it at every other step; charlie at odd steps only, where it logs no
// loss; delta never. Their levels order them apart from their names.
var xaxisRuns = map[string]xaxisRun{
	"alpha":   {3, func(int64) bool { return true }},
	"bravo":   {1, func(s int64) bool { return s%4 == 0 }},
	"charlie": {4, func(int64) bool { return false }},
	"delta":   {2, nil},
}

const (
	xaxisSteps = 200 // loss at steps 0, 2, ..., 2*(xaxisSteps-1)
	xaxisSpike = 60  // alpha's point with the spike
)

func xaxisLoss(level float64, i int) float64 {
	v := level + 0.01*math.Sin(float64(i)/7)
	if level == 3 && i == xaxisSpike {
		v = 1000
	}
	return float64(float32(v))
}

func xaxisEpoch(step int64) float64 { return float64(float32(float64(step) / 37)) }

func TestBrowserScalarViewControls(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logs := filepath.Join(t.TempDir(), "logs")
	for run, rr := range xaxisRuns {
		var events []*eventpb.Event
		for i := range xaxisSteps {
			s := int64(2 * i)
			vals := []*eventpb.SummaryValue{simpleValue("loss", float32(xaxisLoss(rr.level, i)))}
			if rr.epoch != nil && rr.epoch(s) {
				vals = append(vals, simpleValue("epoch", float32(xaxisEpoch(s))))
			}
			events = append(events, summaryEvent(s, 0, vals...))
			if run == "charlie" {
				events = append(events, summaryEvent(s+1, 0, simpleValue("epoch", float32(xaxisEpoch(s+1)))))
			}
		}
		writeEventFile(t, filepath.Join(logs, run, "events.out.tfevents.1700000000.host"), events)
	}
	r := buildReport(t, logs, "--max-points", "1000")
	// Downsampled: the lines draw some of their points, so the x values
	// come from the runs' bundles.
	rds := buildReport(t, logs, "--max-points", "40")

	type line struct {
		Name string
		Data [][]*float64
	}
	type view struct {
		XAxis  string
		Lines  []line
		Steps  map[string][]float64
		YRange []float64
		XName  string
		Note   string
		Legend []string
	}
	read := func(t *testing.T, tb *tab, tag, xaxis string) view {
		t.Helper()
		var v view
		if err := json.Unmarshal([]byte(eval[string](tb, pageJS("xaxis.js", "view", tag, xaxis))), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	rows := func(t *testing.T, s string) []string {
		t.Helper()
		var out []string
		if err := json.Unmarshal([]byte(s), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	// checkByEpoch checks the loss chart drawn against epoch: every drawn
	// x is the run's epoch at the point's step, exactly; a point whose
	// step has no epoch is left out of the line; charlie and delta are
	// left out and named. whole: every point is drawn.
	checkByEpoch := func(t *testing.T, v view, whole bool) {
		t.Helper()
		if v.XAxis != "ready" || v.XName != "epoch" {
			t.Errorf("figure data-xaxis %q, axis name %q, want ready and epoch", v.XAxis, v.XName)
		}
		drawn := map[string]bool{}
		for _, l := range v.Lines {
			drawn[l.Name] = true
			rr := xaxisRuns[l.Name]
			// The line joins the points whose step has an epoch, in order.
			var want [][2]float64
			for i, st := range v.Steps[l.Name] {
				if s := int64(st); rr.epoch(s) {
					want = append(want, [2]float64{xaxisEpoch(s), xaxisLoss(rr.level, int(s/2))})
				}
				if whole && int64(st) != int64(2*i) {
					t.Fatalf("run %s: point %d at step %v, want every point drawn", l.Name, i, st)
				}
			}
			if whole && len(v.Steps[l.Name]) != xaxisSteps {
				t.Fatalf("run %s: %d points in the data, want %d", l.Name, len(v.Steps[l.Name]), xaxisSteps)
			}
			if len(l.Data) != len(want) {
				t.Fatalf("run %s: %d points drawn by epoch, want %d (those whose step has one)", l.Name, len(l.Data), len(want))
			}
			xs, bad := len(want), 0
			for j, p := range l.Data {
				// The data hold float32 values in their shortest form.
				if p[0] == nil || float32(*p[0]) != float32(want[j][0]) || p[1] == nil || float32(*p[1]) != float32(want[j][1]) {
					if bad++; bad < 5 {
						t.Errorf("run %s, point %d: drawn at (%v, %v), want (%v, %v): epoch at its step", l.Name, j, deref(p[0]), deref(p[1]), want[j][0], want[j][1])
					}
				}
			}
			if xs == 0 {
				t.Errorf("run %s: no point drawn by epoch", l.Name)
			}
		}
		if !drawn["alpha"] || !drawn["bravo"] || drawn["charlie"] || drawn["delta"] {
			t.Errorf("runs drawn by epoch %v, want alpha and bravo", drawn)
		}
		bravo := "bravo (100 of 200)"
		if !whole {
			bravo = "bravo ("
		}
		for _, want := range []string{"no epoch: delta", "epoch at other steps: charlie", bravo} {
			if !strings.Contains(v.Note, want) {
				t.Errorf("note under the chart %q, want it to say %q", v.Note, want)
			}
		}
	}

	t.Run("site", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), "smoothing=0"))
		var opts []string
		if err := json.Unmarshal([]byte(eval[string](tb, pageJS("xaxis.js", "options"))), &opts); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(opts, "tag:epoch") || !slices.Contains(opts, "step") {
			t.Errorf("x axis options %v, want step and tag:epoch", opts)
		}
		// Step: every run drawn, the spike in the y range.
		v := read(t, tb, "loss", "")
		if len(v.Lines) != 4 || v.Note != "" {
			t.Errorf("by step: %d lines, note %q; want 4 and none", len(v.Lines), v.Note)
		}
		if v.YRange[1] < 1000 {
			t.Errorf("outliers shown: y range %v leaves out the spike at 1000", v.YRange)
		}
		// Ignore outliers: the spike is out of the range, every level in.
		eval[bool](tb, pageJS("xaxis.js", "set", "outliers", true))
		waitFor(tb, hashHas("outliers", "1"), stepTimeout, "outliers in the URL")
		v = read(t, tb, "loss", "")
		if v.YRange[1] >= 1000 || v.YRange[1] < 4.01 || v.YRange[0] > 0.99 {
			t.Errorf("outliers ignored: y range %v, want it to hold 1 to 4 and not the spike at 1000", v.YRange)
		}
		tb.screenshot(shots, "xaxis-outliers")

		// The tooltip's order, for each mode, at another point each (the
		// series order is the names' order: by value first).
		byName := []string{"alpha", "bravo", "charlie", "delta"}
		byValue := []string{"charlie", "alpha", "delta", "bravo"}
		for _, c := range []struct {
			mode string
			want []string
			at   int
		}{{"value", byValue, 10}, {"name", byName, 11}} {
			eval[bool](tb, pageJS("xaxis.js", "set", "tipsort", c.mode))
			waitFor(tb, hashHas("tipsort", c.mode), stepTimeout, "tipsort in the URL")
			if got := rows(t, eval[string](tb, pageJS("xaxis.js", "tip", "loss", c.at))); !slices.Equal(got, c.want) {
				t.Errorf("tooltip sorted by %s: %v, want %v", c.mode, got, c.want)
			}
		}
		// Nearest: the pointer on delta's line (level 2) lists delta,
		// then the lines at 1 and 3, then 4's.
		eval[bool](tb, pageJS("xaxis.js", "set", "tipsort", "nearest"))
		waitFor(tb, hashHas("tipsort", "nearest"), stepTimeout, "tipsort in the URL")
		xy := eval[[]float64](tb, pageJS("xaxis.js", "pointAt", "loss", "delta", 120))
		for k := range 2 { // a move from elsewhere, then onto the point
			if _, err := chromedp.Run(tb.ctx, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, xy[0]+float64(5*(1-k)), xy[1]+float64(20*(1-k)))); err != nil {
				t.Fatal(err)
			}
		}
		waitFor(tb, `document.querySelector(".trainreport-tooltip") !== null`, stepTimeout, "the tooltip")
		if got := rows(t, eval[string](tb, pageJS("xaxis.js", "rows"))); len(got) != 4 || got[0] != "delta" || got[3] != "charlie" {
			t.Errorf("tooltip nearest the pointer on delta's line: %v, want delta first and charlie last", got)
		}

		// Legend: the drawn runs named under the chart.
		eval[bool](tb, pageJS("xaxis.js", "set", "legend", true))
		waitFor(tb, hashHas("legend", "1"), stepTimeout, "legend in the URL")
		v = read(t, tb, "loss", "")
		if got := slices.Sorted(slices.Values(v.Legend)); !slices.Equal(got, byName) {
			t.Errorf("legend under the chart %v, want %v", v.Legend, byName)
		}

		// X axis by epoch, chosen on the page and kept in the URL.
		eval[bool](tb, pageJS("xaxis.js", "set", "x", "tag:epoch"))
		waitFor(tb, hashHas("x", "tag:epoch"), stepTimeout, "x=tag:epoch in the URL")
		v = read(t, tb, "loss", "tag:epoch")
		checkByEpoch(t, v, true)
		// Every point drawn: the x values come from the page's chart of
		// epoch; only delta's bundle is loaded, the run that chart lacks
		// (a page may leave runs out), the file of the first run it
		// holds (data layout 3: here, every run's).
		delta := bundlesOf(t, r.site)["delta"]
		if got := loadedScripts(tb, "data/scalars/"); len(got) != 1 || got[0] != "data/"+delta || !strings.HasPrefix(delta, "scalars/alpha-") {
			t.Errorf("bundles %v loaded, want delta's alone (%s): the page's own chart of epoch holds the others whole", got, delta)
		}
		if got := slices.Sorted(slices.Values(v.Legend)); !slices.Equal(got, []string{"alpha", "bravo"}) {
			t.Errorf("legend by epoch %v, want the runs drawn: alpha, bravo", v.Legend)
		}
		tb.screenshot(shots, "xaxis-epoch")
		// The PNG carries the note of the runs left out, above its legend.
		png := eval[struct {
			Image, Before []float64
			Data          []byte
		}](tb, pageJS("scalars.js", "png", "loss"))
		if shots != "" {
			if err := os.WriteFile(filepath.Join(shots, "xaxis-epoch-export.png"), png.Data, 0o644); err != nil {
				t.Error(err)
			}
		}
		note := eval[string](tb, `document.querySelector('figure.chart-card[data-tag="loss"]').dataset.pngNote`)
		if v.Note == "" || note != v.Note || png.Image[1] < 2*(png.Before[1]+32+20) {
			t.Errorf("PNG by epoch: note %q (the page's %q), %v pixels for a %v chart: want the note in a row of its own", note, v.Note, png.Image, png.Before)
		}
		tb.assertClean()
	})
	t.Run("link", func(t *testing.T) {
		// A link carries the x axis: the page opens with it.
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), "smoothing=0&x="+strings.ReplaceAll("tag:epoch", ":", "%3A")))
		checkByEpoch(t, read(t, tb, "loss", "tag:epoch"), true)
		tb.assertClean()
	})
	t.Run("downsampled", func(t *testing.T) {
		// The chart of epoch draws some points: the runs' bundles give
		// epoch at every step.
		tb := openTab(t, browser, fileURL(filepath.Join(rds.site, "scalars.html"), "smoothing=0&x=tag%3Aepoch"))
		checkByEpoch(t, read(t, tb, "loss", "tag:epoch"), false)
		// The 4 runs share one bundle file, loaded once.
		var want []string
		for _, f := range bundlesOf(t, rds.site) {
			if !slices.Contains(want, "data/"+f) {
				want = append(want, "data/"+f)
			}
		}
		if got := loadedScripts(tb, "data/scalars/"); len(want) != 1 || !slices.Equal(got, want) {
			t.Errorf("bundles %v loaded, want the 4 runs' %v, each once", got, want)
		}
		tb.screenshot(shots, "xaxis-epoch-downsampled")
		tb.assertClean()
	})
	t.Run("custom-scalars", func(t *testing.T) {
		// The Custom Scalars page shares the control: a pinned chart of
		// loss by epoch, the values from the runs' bundles.
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "custom_scalars.html"), "smoothing=0&pins=loss&x=tag%3Aepoch"))
		var opts []string
		if err := json.Unmarshal([]byte(eval[string](tb, pageJS("xaxis.js", "options"))), &opts); err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(opts, "tag:epoch") || !slices.Contains(opts, "tag:loss") {
			t.Errorf("x axis options %v, want the report's tags", opts)
		}
		v := read(t, tb, "loss", "tag:epoch")
		epochs := map[float32]bool{}
		for s := int64(0); s < 2*xaxisSteps; s++ {
			epochs[float32(xaxisEpoch(s))] = true
		}
		names := []string{}
		for _, l := range v.Lines {
			names = append(names, l.Name)
			for _, p := range l.Data {
				if p[0] == nil || !epochs[float32(*p[0])] {
					t.Fatalf("run %s: a point at x %v, no epoch value", l.Name, deref(p[0]))
				}
			}
			if n := map[string]int{"alpha": xaxisSteps, "bravo": xaxisSteps / 2}[l.Name]; len(l.Data) != n {
				t.Errorf("run %s: %d points by epoch, want %d", l.Name, len(l.Data), n)
			}
		}
		if slices.Sort(names); !slices.Equal(names, []string{"alpha", "bravo"}) || v.XName != "epoch" ||
			!strings.Contains(v.Note, "no epoch: delta") {
			t.Errorf("custom scalars by epoch: runs %v, axis %q, note %q", names, v.XName, v.Note)
		}
		tb.assertClean()
	})
	t.Run("single-file", func(t *testing.T) {
		// No data files: the epoch values come from the page's own chart
		// of epoch.
		tb := openTab(t, browser, fileURL(r.single, "page=scalars&smoothing=0&x=tag%3Aepoch"))
		checkByEpoch(t, read(t, tb, "loss", "tag:epoch"), true)
		tb.assertClean()
	})
}

// bundlesOf reads data/index.json's scalar_bundles of the site: each
// run's scalar bundle file, relative to data/.
func bundlesOf(t *testing.T, site string) map[string]string {
	t.Helper()
	var index struct {
		Bundles map[string]string `json:"scalar_bundles"`
	}
	b, err := os.ReadFile(filepath.Join(site, "data", "index.json"))
	if err != nil || json.Unmarshal(b, &index) != nil || len(index.Bundles) == 0 {
		t.Fatalf("data/index.json: %v", err)
	}
	return index.Bundles
}
