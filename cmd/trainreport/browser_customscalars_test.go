package main

// Browser test of the Custom Scalars page on the real writers' fixtures
// (tensorboardX's add_custom_scalars and TF2's custom_scalar summary both
// write a layout), from file:// with the network blocked, in the site and
// in the single file: the merged layout's charts draw every series their
// patterns match across runs, with the values the logs hold; the margin
// chart draws its band between the lower and upper tags; a chart pinned on
// the Scalars page is drawn on this page, carried by the URL hash and by
// the browser's storage.

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

type csLine struct {
	Name   string       `json:"name"`
	Points [][2]float64 `json:"points"`
}

type csChartInfo struct {
	Title  string   `json:"title"`
	Kind   string   `json:"kind"`
	Pinned bool     `json:"pinned"`
	Error  string   `json:"error"`
	Width  int      `json:"width"`
	Lines  []csLine `json:"lines"`
	Bands  []struct {
		Name     string       `json:"name"`
		Segments [][6]float64 `json:"segments"`
	} `json:"bands"`
}

func readCustomCharts(t *testing.T, tb *tab) []csChartInfo {
	t.Helper()
	waitFor(tb, pageJS("customscalars.js", "loaded"), 20*time.Second, "every chart drawn")
	var out []csChartInfo
	if err := json.Unmarshal([]byte(eval[string](tb, pageJS("customscalars.js", "charts"))), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBrowserCustomScalars(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	writers := filepath.Join(repoRoot(t), "collect", "testdata", "writers")
	r := buildReport(t, writers)
	values := scalarValues(t, writers)

	// What TensorBoard draws of the writers' layouts, worked out by hand
	// from them: runs in order of name merge their categories; the TF2
	// layout's margin chart equals tensorboardX's and is not repeated.
	// A multiline pattern matches at the start of a tag, in every run
	// (Python's re.match): "train/loss" takes torch's train/loss_double,
	// "acc.*" the hparams runs' accuracy.
	want := []struct {
		title, kind string
		lines       []string
	}{
		{"loss and acc", "multiline", []string{"train/acc (tensorboardx)", "train/loss (tensorboardx)",
			"train/loss (torch)", "train/loss_double (torch)", "train/loss_new_style (torch)"}},
		{"loss band", "margin", []string{"tensorboardx", "tf2/train"}},
		{"losses", "multiline", []string{"accuracy (tf2/hparam_tuning/run-0)", "accuracy (tf2/hparam_tuning/run-1)",
			"accuracy (tf2/hparam_tuning/run-2)", "accuracy (tf2/train)", "loss (tf2/train)"}},
	}
	lineSeries := func(chart, name string) (run, tag string) {
		if chart == "loss band" {
			return name, "band/mid"
		}
		tag, run, _ = strings.Cut(strings.TrimSuffix(name, ")"), " (")
		return run, tag
	}
	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "custom_scalars.html"), "smoothing=0")},
		{"single-file", fileURL(r.single, "page=custom_scalars&smoothing=0")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			waitFor(tb, pageJS("customscalars.js", "shown"), 10*time.Second, "the page")
			charts := readCustomCharts(t, tb)
			var layout []csChartInfo
			for _, ch := range charts {
				if !ch.Pinned {
					layout = append(layout, ch)
				}
			}
			if len(layout) != len(want) {
				t.Fatalf("%d layout charts, want %d: %+v", len(layout), len(want), layout)
			}
			for i, w := range want {
				got := layout[i]
				if got.Title != w.title || got.Kind != w.kind || got.Error != "" || got.Width <= 0 {
					t.Errorf("chart %d: %q %s (error %q, width %d), want %q %s", i, got.Title, got.Kind, got.Error, got.Width, w.title, w.kind)
				}
				var names []string
				for _, l := range got.Lines {
					names = append(names, l.Name)
					run, tag := lineSeries(w.title, l.Name)
					checkLine(t, w.title, l, values[run][tag])
				}
				if !slices.Equal(names, w.lines) {
					t.Errorf("chart %q draws %q, want %q", w.title, names, w.lines)
				}
				if w.kind != "margin" {
					if len(got.Bands) != 0 {
						t.Errorf("chart %q draws %d bands", w.title, len(got.Bands))
					}
					continue
				}
				// The band of each run: from band/low to band/high at every
				// pair of consecutive steps.
				if len(got.Bands) != len(w.lines) {
					t.Fatalf("margin chart: %d bands, want %d", len(got.Bands), len(w.lines))
				}
				for _, b := range got.Bands {
					lo, hi := values[b.Name]["band/low"], values[b.Name]["band/high"]
					if len(b.Segments) != len(lo)-1 || len(lo) < 2 {
						t.Errorf("band of %s: %d segments, want %d", b.Name, len(b.Segments), len(lo)-1)
						continue
					}
					for _, s := range b.Segments {
						s0, s1 := int64(s[0]), int64(s[1])
						if !sameF32(s[2], lo[s0]) || !sameF32(s[3], hi[s0]) || !sameF32(s[4], lo[s1]) || !sameF32(s[5], hi[s1]) || s[2] >= s[3] {
							t.Errorf("band of %s: segment %v, want [%d %d %v %v %v %v]", b.Name, s, s0, s1, lo[s0], hi[s0], lo[s1], hi[s1])
						}
					}
				}
			}
			csv := eval[string](tb, pageJS("customscalars.js", "csv", "loss and acc"))
			if !strings.HasPrefix(csv, "run,tag,step,wall_time,value\r\n") || !strings.Contains(csv, "\r\ntorch,train/loss_double,0,") {
				t.Errorf("CSV of a multiline chart:\n%.300s", csv)
			}
			tb.screenshot(shots, "customscalars-"+c.name)
			tb.assertClean()
		})
	}

	// Pins: in the site, pinned on the Scalars page, the chart is on the
	// Custom Scalars page opened from the navigation (the browser's
	// storage) and from a link (the hash); in the single file, on the
	// page the navigation shows next.
	t.Run("pin-site", func(t *testing.T) {
		forgetPins(t, browser, fileURL(filepath.Join(r.site, "index.html"), ""))
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), ""))
		eval[[]any](tb, pageJS("scalars.js", "figures"))
		pinned := eval[string](tb, pageJS("customscalars.js", "pin", "loss"))
		if pressed, hash, _ := strings.Cut(pinned, " "); pressed != "true" || parseHash(hash)["pins"] != "loss" {
			t.Fatalf("after pinning loss: aria-pressed and hash %q", pinned)
		}
		tb.screenshot(shots, "customscalars-pin-scalars")
		tb.assertClean()
		for _, u := range []string{fileURL(filepath.Join(r.site, "custom_scalars.html"), "smoothing=0"),
			fileURL(filepath.Join(r.site, "custom_scalars.html"), "smoothing=0&pins=loss")} {
			tb := openTab(t, browser, u)
			checkPinned(t, readCustomCharts(t, tb), values, "loss", []string{"tf2/train"})
			tb.screenshot(shots, "customscalars-pinned-site")
			if n := eval[int](tb, pageJS("customscalars.js", "unpin", "loss")); n != 0 {
				t.Errorf("after unpinning: %d pinned charts", n)
			}
			tb.assertClean()
		}
	})
	t.Run("pin-single-file", func(t *testing.T) {
		forgetPins(t, browser, fileURL(filepath.Join(r.site, "index.html"), ""))
		tb := openTab(t, browser, fileURL(r.single, "page=scalars&smoothing=0"))
		eval[[]any](tb, pageJS("scalars.js", "figures"))
		// A tag's slash is encoded twice, as the run selector's names are.
		pinned := eval[string](tb, pageJS("customscalars.js", "pin", "train/loss"))
		if pressed, hash, _ := strings.Cut(pinned, " "); pressed != "true" || parseHash(hash)["pins"] != "train%252Floss" {
			t.Fatalf("after pinning train/loss: aria-pressed and hash %q", pinned)
		}
		eval[bool](tb, `(() => { document.querySelector('nav a[data-page="custom_scalars"]').click(); return true; })()`)
		waitFor(tb, pageJS("customscalars.js", "shown"), 10*time.Second, "the page")
		checkPinned(t, readCustomCharts(t, tb), values, "train/loss", []string{"tensorboardx", "torch"})
		tb.screenshot(shots, "customscalars-pinned-single")
		tb.assertClean()
	})
}

// forgetPins empties the browser's storage of the file:// pages, which
// the tabs share, from a tab of its own opened at url: the pins of an
// earlier test are gone from the tabs opened after.
func forgetPins(t *testing.T, browser context.Context, url string) {
	t.Helper()
	tb := openTab(t, browser, url)
	eval[bool](tb, `(() => { localStorage.clear(); return localStorage.length === 0; })()`)
}

// checkPinned checks that charts has one pinned chart, of tag, drawing
// the runs that have it with their values.
func checkPinned(t *testing.T, charts []csChartInfo, values map[string]map[string]map[int64]float64, tag string, runs []string) {
	t.Helper()
	var pinned []csChartInfo
	for _, c := range charts {
		if c.Pinned {
			pinned = append(pinned, c)
		}
	}
	if len(pinned) != 1 || pinned[0].Title != tag || pinned[0].Error != "" {
		t.Fatalf("pinned charts %+v, want one of %s", pinned, tag)
	}
	var names []string
	for _, l := range pinned[0].Lines {
		names = append(names, l.Name)
		checkLine(t, tag, l, values[l.Name][tag])
	}
	if !slices.Equal(names, runs) {
		t.Errorf("pinned %s draws %q, want %q", tag, names, runs)
	}
}

// checkLine checks that a line draws, unsmoothed and by step, a point per
// step of want with its value.
func checkLine(t *testing.T, chart string, l csLine, want map[int64]float64) {
	t.Helper()
	if len(want) == 0 || len(l.Points) != len(want) {
		t.Errorf("chart %q, %s: %d points, want %d", chart, l.Name, len(l.Points), len(want))
		return
	}
	for _, p := range l.Points {
		if v, ok := want[int64(p[0])]; !ok || !sameF32(v, p[1]) {
			t.Errorf("chart %q, %s: point %v, want %v at step %v", chart, l.Name, p, v, p[0])
			return
		}
	}
}

// sameF32 reports whether a and b are the same float32: the pages write a
// float32 value in its shortest form.
func sameF32(a, b float64) bool { return float32(a) == float32(b) }

// scalarValues reads logdir with package collect: run -> tag -> step ->
// value of the line (the last write of a step).
func scalarValues(t *testing.T, logdir string) map[string]map[string]map[int64]float64 {
	t.Helper()
	rep := collectReport(t, logdir)
	out := map[string]map[string]map[int64]float64{}
	for _, run := range rep.Runs {
		out[run.Name] = map[string]map[int64]float64{}
		for _, s := range run.Scalars {
			m := map[int64]float64{}
			for _, p := range s.Points {
				if !math.IsNaN(p.Value) {
					m[p.Step] = p.Value
				}
			}
			out[run.Name][s.Tag] = m
		}
	}
	if len(out) == 0 {
		t.Fatalf("no run in %s", logdir)
	}
	return out
}

// writeHostileLayout writes a run whose scalar tags and layout carry
// markup, patterns RE2 refuses and a margin series without its upper
// bound.
func writeHostileLayout(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "logs")
	const bad = `<img src=x onerror="window.__pwned=1">`
	layout, err := proto.Marshal(&eventpb.Layout{Category: []*eventpb.Category{{
		Title: "<script>window.__pwned=1</script>", Closed: true,
		Chart: []*eventpb.Chart{
			{Title: bad, Content: &eventpb.Chart_Multiline{Multiline: &eventpb.MultilineChartContent{
				Tag: []string{"<img", `(?=x)`, `(a)\1`}}}},
			{Title: "margin", Content: &eventpb.Chart_Margin{Margin: &eventpb.MarginChartContent{
				Series: []*eventpb.MarginChartContent_Series{{Value: "loss", Lower: "loss", Upper: "absent"}}}}},
		},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	scalar := func(tag string, v float32) *eventpb.SummaryValue {
		return &eventpb.SummaryValue{Tag: tag, Value: &eventpb.SummaryValue_SimpleValue{SimpleValue: v}}
	}
	events := []*eventpb.Event{{WallTime: 1.7e9, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}},
		{WallTime: 1.7e9, What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: []*eventpb.SummaryValue{{
			Tag:      "custom_scalars__config__",
			Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "custom_scalars"}},
			Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_STRING,
				TensorShape: &eventpb.TensorShapeProto{}, StringVal: [][]byte{layout}}},
		}}}}},
	}
	for step := range 5 {
		events = append(events, &eventpb.Event{WallTime: 1.7e9 + float64(step), Step: int64(step),
			What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: []*eventpb.SummaryValue{
				scalar(bad, float32(step)), scalar("loss", 1/float32(step+1))}}}})
	}
	writeEventFile(t, filepath.Join(dir, bad, "events.out.tfevents.1700000000.host"), events)
	return dir
}

// Hostile names stay text: the layout's titles and patterns, the tags and
// the run; patterns Go's RE2 refuses are named in notes, and a margin
// series without its upper bound draws its line without a band.
func TestBrowserCustomScalarsHostile(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	r := buildReport(t, writeHostileLayout(t))
	const bad = `<img src=x onerror="window.__pwned=1">`
	// As the page writes it: the tag URI-encoded, then the hash's value.
	uri := func(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "+", "%20") }
	pins := "pins=" + uri(uri(bad))
	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "custom_scalars.html"), "smoothing=0&"+pins)},
		{"single-file", fileURL(r.single, "page=custom_scalars&smoothing=0&"+pins)},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			waitFor(tb, pageJS("customscalars.js", "shown"), 10*time.Second, "the page")
			if eval[bool](tb, `document.querySelector('details.layout-category').open`) {
				t.Error("the category the layout marks closed starts open")
			}
			charts := readCustomCharts(t, tb)
			if len(charts) != 3 {
				t.Fatalf("%d charts, want a pinned one and two of the layout: %+v", len(charts), charts)
			}
			pinned, multi, margin := charts[0], charts[1], charts[2]
			if !pinned.Pinned || pinned.Title != bad || len(pinned.Lines) != 1 || pinned.Lines[0].Name != bad || len(pinned.Lines[0].Points) != 5 {
				t.Errorf("pinned chart %+v", pinned)
			}
			// "<img" matches the tag at its start; the others are refused.
			if multi.Title != bad || len(multi.Lines) != 1 || multi.Lines[0].Name != bad {
				t.Errorf("multiline chart %+v", multi)
			}
			if len(margin.Lines) != 1 || len(margin.Bands) != 1 || len(margin.Bands[0].Segments) != 0 {
				t.Errorf("margin chart without an upper bound: %+v", margin)
			}
			text := eval[string](tb, `document.querySelector('main.page[data-page="custom_scalars"]').textContent`)
			for _, want := range []string{"<script>window.__pwned=1</script>", `The pattern "(?=x)" is not one Go's RE2 syntax accepts`,
				`The pattern "(a)\\1" is not one`, "has no scalar tag absent"} {
				if !strings.Contains(text, want) {
					t.Errorf("the page does not say %q", want)
				}
			}
			if eval[bool](tb, `window.__pwned === 1 || !!document.querySelector('main img, main script:not([type="application/json"])')`) {
				t.Error("markup from the logs became elements")
			}
			tb.screenshot(shots, "customscalars-hostile-"+c.name)
			tb.assertClean()
		})
	}
}

// With no layout the page still holds the pins. The demo's baseline run
// has 20,001 points of metrics/loss: its chart draws at most 4,000 of
// them, from the data file, keeping the extremes. The demo's layout is
// taken out of its baseline run.
func TestBrowserCustomScalarsPinsWithoutLayout(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logs := demoLogs(t)
	dropLayouts(t, filepath.Join(logs, "baseline"))
	r := buildReport(t, logs)
	values := scalarValues(t, logs)
	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "custom_scalars.html"), "smoothing=0&pins=metrics%252Floss"))
	waitFor(tb, pageJS("customscalars.js", "shown"), 10*time.Second, "the page")
	charts := readCustomCharts(t, tb)
	if len(charts) != 1 || !charts[0].Pinned || charts[0].Error != "" {
		t.Fatalf("charts %+v, want the pinned one", charts)
	}
	if !strings.Contains(eval[string](tb, `document.body.textContent`), "No run of the report wrote a custom-scalars layout.") {
		t.Error("the page does not say that no run wrote a layout")
	}
	var runs []string
	for _, l := range charts[0].Lines {
		runs = append(runs, l.Name)
		want := values[l.Name]["metrics/loss"]
		if len(want) <= 4000 {
			checkLine(t, "metrics/loss", l, want)
			continue
		}
		if len(l.Points) > 4000 || len(l.Points) < 3000 {
			t.Errorf("%s: %d of %d points drawn, want at most 4,000", l.Name, len(l.Points), len(want))
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range want {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		dlo, dhi := math.Inf(1), math.Inf(-1)
		for _, p := range l.Points {
			if v, ok := want[int64(p[0])]; !ok || !sameF32(v, p[1]) {
				t.Fatalf("%s: point %v is not the data's (%v)", l.Name, p, v)
			}
			dlo, dhi = math.Min(dlo, p[1]), math.Max(dhi, p[1])
		}
		if !sameF32(lo, dlo) || !sameF32(hi, dhi) {
			t.Errorf("%s: drawn range [%v, %v], the data's [%v, %v]", l.Name, dlo, dhi, lo, hi)
		}
	}
	if len(runs) < 2 {
		t.Errorf("pinned metrics/loss draws %q", runs)
	}
	tb.screenshot(shots, "customscalars-demo-pinned")
	tb.assertClean()

	sc := openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), "pins=metrics%252Floss"))
	eval[[]any](sc, pageJS("scalars.js", "figures"))
	if got := eval[string](sc, `document.querySelector('figure.chart-card[data-tag="metrics/loss"] [data-action="pin"]').getAttribute("aria-pressed")`); got != "true" {
		t.Errorf("the pinned chart's button on the Scalars page: aria-pressed %q", got)
	}
	sc.screenshot(shots, "customscalars-demo-scalars")
	sc.assertClean()
}

// dropLayouts rewrites the event files of dir without their custom-scalars
// layouts.
func dropLayouts(t *testing.T, dir string) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "events.out.tfevents.*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no event file in %s (%v)", dir, err)
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var kept []*eventpb.Event
		dropped := 0
		r := tfrecord.NewReader(bytes.NewReader(b), name)
		for r.Next() {
			ev := &eventpb.Event{}
			if err := proto.Unmarshal(r.Record(), ev); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if vs := ev.GetSummary().GetValue(); len(vs) == 1 && vs[0].GetMetadata().GetPluginData().GetPluginName() == "custom_scalars" {
				dropped++
				continue
			}
			kept = append(kept, ev)
		}
		if err := r.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if dropped > 0 {
			writeEventFile(t, name, kept)
		}
	}
}

// A pin of a tag that 230 runs of a sweep have draws its first 200 runs,
// each from its bundle, and its caption counts them all; the page's run
// selector lists the 200 runs it can draw and a note says how many it
// leaves out (render names no run past them: the index of 100,000 runs made
// a 15 MB page).
func TestBrowserCustomScalarsPinOfASweep(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logs := t.TempDir()
	writeTrials(t, logs, 230, 4)
	r := buildReport(t, logs)
	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "custom_scalars.html"), "smoothing=0&pins=loss"))
	waitFor(tb, pageJS("customscalars.js", "shown"), 20*time.Second, "the page")
	charts := readCustomCharts(t, tb)
	if len(charts) != 1 || !charts[0].Pinned || charts[0].Error != "" {
		t.Fatalf("charts %+v, want the pinned one", charts)
	}
	if n := len(charts[0].Lines); n != 200 || charts[0].Lines[0].Name != "trial000" || charts[0].Lines[199].Name != "trial199" {
		t.Errorf("the pin draws %d lines, want trial000 to trial199", n)
	}
	page := eval[struct {
		Caption, Note string
		Listed        int
	}](tb, `({caption: document.querySelector('figure[data-pinned] .points').textContent,
		note: (document.querySelector('p.runs-cut') || {}).textContent || '',
		listed: JSON.parse(document.querySelector('script.run-names').textContent).length})`)
	if page.Caption != "the first 200 of 230 runs" || page.Listed != 200 ||
		!strings.Contains(page.Note, "lists the 200 runs a chart of this page can draw") || !strings.Contains(page.Note, "other 30 runs") {
		t.Errorf("caption %q, %d runs listed, note %q", page.Caption, page.Listed, page.Note)
	}
	tb.screenshot(shots, "customscalars-sweep-pinned")
	tb.assertClean()
}
