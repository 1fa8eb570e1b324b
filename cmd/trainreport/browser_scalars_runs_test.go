package main

// Browser test of the scalars page with many runs whose names share a long
// prefix: the run selector (one list for every chart, full names, natural
// order, colours the same as on another page), tooltips with full names,
// dots for points no line can draw, and downloads holding every point of
// the data files, checked against what was written and what the files
// hold.

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// sweepRuns is how many runs the test writes; sweepRun(k) names run k.
// Past 20 runs, colours leave the palette; past 18, legends needed a pager.
const sweepRuns = 26

func sweepRun(k int) string { return fmt.Sprintf("sweep/resnet50_lr=0.001_wd=0.0001_bs=128_seed%d", k) }

// sweepLoss is run k's loss: 150 steps, 400 for run 3 (the data files cap
// it at 300), a NaN and an infinity in run 5.
func sweepLoss(k int) (steps []int64, values []float32) {
	n := 150
	if k == 3 {
		n = 400
	}
	for s := range n {
		v := float32(k) + float32(math.Sin(float64(s)/7))/3 + 1/float32(s+1)
		if k == 5 && s == 10 {
			v = float32(math.NaN())
		}
		if k == 5 && s == 11 {
			v = float32(math.Inf(1))
		}
		steps, values = append(steps, int64(s)), append(values, v)
	}
	return steps, values
}

// sweepHPMetric is run k's only hp_metric point, at step 7.
func sweepHPMetric(k int) float32 { return 0.1 + 0.05*float32(k) }

// gappy is run 0's "gappy" series: 1 and 2 stand alone between NaNs (no
// line can draw them), 3 and 4 make a line.
var gappy = []float32{1, float32(math.NaN()), 2, float32(math.NaN()), float32(math.NaN()), 3, 4}

func writeSweep(t *testing.T, dir string) {
	t.Helper()
	for k := range sweepRuns {
		var events []*eventpb.Event
		write := func(step int64, v *eventpb.SummaryValue) {
			events = append(events, summaryEvent(step, 0.25, v))
		}
		steps, values := sweepLoss(k)
		for i, s := range steps {
			write(s, simpleValue("loss", values[i]))
		}
		write(7, simpleValue("hp_metric", sweepHPMetric(k)))
		if k == 0 {
			for i, v := range gappy {
				write(int64(i), simpleValue("gappy", v))
			}
		}
		if k == 0 || k == 22 {
			write(1, &eventpb.SummaryValue{Tag: "notes", Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "text"}},
				Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_STRING, StringVal: [][]byte{[]byte("run notes")}}}})
		}
		writeEventFile(t, filepath.Join(dir, filepath.FromSlash(sweepRun(k)), "events.out.tfevents.1700000000.host"), events)
	}
}

type sweepRunItem struct {
	Name, Title, Color string
	Checked, Listed    bool
}

type sweepDot struct {
	X, Y, PX, PY float64
	Inside       bool
	RGB          string
}

type sweepChart struct {
	Tag   string
	Lines []struct{ Name, Color string }
	Dots  []struct {
		Name   string
		Points []sweepDot
	}
}

type sweepDownload struct{ Name, Text, Title string }

// dataFilePoints reads the points of tag in every run's scalar bundle
// (data layout 2, docs/OUTPUTS.md), as a script with a JSON parser does:
// per run, [wall_time, step, value] each, wall times and steps decoded
// from their columns, values as written.
func dataFilePoints(t *testing.T, site, tag string) map[string][][3]json.RawMessage {
	t.Helper()
	var index struct {
		Scalar map[string]map[string]string `json:"scalar"`
	}
	b, err := os.ReadFile(filepath.Join(site, "data", "index.json"))
	if err != nil || json.Unmarshal(b, &index) != nil {
		t.Fatalf("data/index.json: %v", err)
	}
	out := map[string][][3]json.RawMessage{}
	for run, tags := range index.Scalar {
		f, ok := tags[tag]
		if !ok {
			continue
		}
		b, err := os.ReadFile(filepath.Join(site, "data", filepath.FromSlash(f)))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		var bundle struct {
			Runs map[string]struct {
				Scalars map[string]struct {
					Count    int
					Step     json.RawMessage
					WallTime json.RawMessage `json:"wall_time"`
					Value    []json.RawMessage
				}
			}
		}
		if len(lines) < 2 || json.Unmarshal([]byte(lines[1]), &bundle) != nil {
			t.Fatalf("%s is not a bundle", f)
		}
		c := bundle.Runs[run].Scalars[tag]
		steps := make([]int64, c.Count)
		var prog struct{ First, Stride int64 }
		if json.Unmarshal(c.Step, &steps) != nil {
			if err := json.Unmarshal(c.Step, &prog); err != nil {
				t.Fatalf("%s: steps %s", f, c.Step)
			}
			for i := range steps {
				steps[i] = prog.First + int64(i)*prog.Stride
			}
		}
		walls := make([]json.RawMessage, c.Count)
		var fixed struct {
			Scale int
			Base  int64
			Delta []int64
		}
		if json.Unmarshal(c.WallTime, &walls) != nil {
			if err := json.Unmarshal(c.WallTime, &fixed); err != nil || len(fixed.Delta) != c.Count {
				t.Fatalf("%s: wall times %.100s", f, c.WallTime)
			}
			p, acc := math.Pow10(fixed.Scale), float64(fixed.Base)
			for i, d := range fixed.Delta {
				acc += float64(d)
				walls[i] = json.RawMessage(strconv.FormatFloat(acc/p, 'g', -1, 64))
			}
		}
		pts := make([][3]json.RawMessage, c.Count)
		for i := range pts {
			pts[i] = [3]json.RawMessage{walls[i], json.RawMessage(strconv.FormatInt(steps[i], 10)), c.Value[i]}
		}
		out[run] = pts
	}
	return out
}

// number reads a data file's or a download's number: a JSON number or
// string, or CSV text ("NaN", "Infinity", "-Infinity" included).
func number(t *testing.T, s string) float64 {
	t.Helper()
	s = strings.Trim(s, `"`)
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return v
}

func sameNumber(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

func TestBrowserScalarsManyRuns(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logs := filepath.Join(t.TempDir(), "logs")
	writeSweep(t, logs)
	r := buildReport(t, logs, "--max-points", "40", "--max-data-points", "300")
	var want []string
	for k := range sweepRuns {
		want = append(want, sweepRun(k))
	}

	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), "smoothing=0"))
	var list struct {
		Count string
		Runs  []sweepRunItem
	}
	list = eval[struct {
		Count string
		Runs  []sweepRunItem
	}](tb, pageJS("scalars.js", "runList"))

	// One list: every run, in natural order (seed2 before seed10), by its
	// full name, checked, with its colour.
	var names []string
	colors := map[string]string{}
	for _, it := range list.Runs {
		names = append(names, it.Name)
		colors[it.Name] = it.Color
		if it.Title != it.Name || !it.Checked || !it.Listed {
			t.Errorf("run %q: title %q, checked %v, listed %v", it.Name, it.Title, it.Checked, it.Listed)
		}
	}
	if !slices.Equal(names, want) {
		t.Fatalf("run selector lists %q,\nwant %q", names, want)
	}
	if list.Count != "26 of 26 shown" {
		t.Errorf("run count %q", list.Count)
	}
	distinct := map[string]bool{}
	for _, c := range colors {
		distinct[c] = true
	}
	if len(distinct) != sweepRuns {
		t.Errorf("%d distinct run colours for %d runs: %v", len(distinct), sweepRuns, colors)
	}

	charts := eval[[]sweepChart](tb, pageJS("scalars.js", "drawn"))
	byTag := map[string]sweepChart{}
	for _, c := range charts {
		byTag[c.Tag] = c
		// Each line is drawn in its run's colour, as the selector shows it.
		for _, l := range c.Lines {
			if got := hexRGB(l.Color); got != colors[l.Name] {
				t.Errorf("%s: line of %q in %s (%s), the selector shows %s", c.Tag, l.Name, l.Color, got, colors[l.Name])
			}
		}
	}

	// One-point series: a dot per run at its value, inside the axes, in
	// the run's colour on the canvas; and the lone points of "gappy".
	hp := byTag["hp_metric"]
	if len(hp.Dots) != sweepRuns {
		t.Fatalf("hp_metric: %d series of dots, want one per run (%d)", len(hp.Dots), sweepRuns)
	}
	for _, d := range hp.Dots {
		k := slices.Index(want, d.Name)
		if len(d.Points) != 1 {
			t.Errorf("hp_metric %q: %d dots, want 1", d.Name, len(d.Points))
			continue
		}
		p := d.Points[0]
		// The page reads the data's shortest float32 text as a float64.
		if p.X != 7 || float32(p.Y) != sweepHPMetric(k) || !p.Inside {
			t.Errorf("hp_metric %q: dot at (%v, %v), inside the axes %v; want (7, %v) inside", d.Name, p.X, p.Y, p.Inside, sweepHPMetric(k))
		}
		if p.RGB != colors[d.Name] {
			t.Errorf("hp_metric %q: the canvas at the dot (%.1f, %.1f) is %s, want the run's %s", d.Name, p.PX, p.PY, p.RGB, colors[d.Name])
		}
	}
	g := byTag["gappy"]
	if len(g.Dots) != 1 || len(g.Dots[0].Points) != 2 {
		t.Fatalf("gappy: dots %+v, want the two lone points (steps 0 and 2)", g.Dots)
	}
	for i, step := range []float64{0, 2} {
		if p := g.Dots[0].Points[i]; p.X != step || float32(p.Y) != gappy[int(step)] || !p.Inside || p.RGB != colors[want[0]] {
			t.Errorf("gappy: dot %d is %+v, want step %v value %v inside, in %s", i, p, step, gappy[int(step)], colors[want[0]])
		}
	}
	// A line has dots only where it has lone points: none but in run 5,
	// whose NaN and infinity may leave one of its drawn points alone.
	for _, d := range byTag["loss"].Dots {
		if d.Name != want[5] {
			t.Errorf("loss: dots %+v on run %q", d.Points, d.Name)
		}
	}

	// Tooltips give every full name, never cut.
	tip := eval[struct {
		Names, Cut []string
	}](tb, pageJS("scalars.js", "tipNames", "loss"))
	if !slices.Equal(tip.Names, want) || len(tip.Cut) > 0 {
		t.Errorf("tooltip names %q (cut: %q),\nwant %q", tip.Names, tip.Cut, want)
	}

	// Downloads: every point of the data files, for every run, values
	// exact; the capped series said so in the first line and the title.
	files := dataFilePoints(t, r.site, "loss")
	if len(files) != sweepRuns || len(files[want[3]]) >= 400 {
		t.Fatalf("data files: %d runs, run 3 keeps %d points", len(files), len(files[want[3]]))
	}
	csvDl := eval[sweepDownload](tb, pageJS("scalars.js", "download", "loss", "csv"))
	lines := strings.SplitN(csvDl.Text, "\r\n", 2)
	if !strings.HasPrefix(lines[0], "# The data files cap 1 series") || !strings.Contains(csvDl.Title, "cap 1 series") || csvDl.Name != "loss.csv" {
		t.Errorf("CSV %q: first line %q, button title %q", csvDl.Name, lines[0], csvDl.Title)
	}
	recs, err := csv.NewReader(strings.NewReader(lines[1])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][][]string{}
	for _, rec := range recs[1:] {
		got[rec[0]] = append(got[rec[0]], rec[1:])
	}
	if recs[0][0] != "run" || len(got) != sweepRuns {
		t.Fatalf("CSV header %q, %d runs", recs[0], len(got))
	}
	for run, pts := range files {
		if len(got[run]) != len(pts) {
			t.Errorf("CSV: run %q has %d points, its data file %d", run, len(got[run]), len(pts))
			continue
		}
		for i, p := range pts {
			c := got[run][i] // step, wall_time, value
			if number(t, c[0]) != number(t, string(p[1])) || number(t, c[1]) != number(t, string(p[0])) || !sameNumber(number(t, c[2]), number(t, string(p[2]))) {
				t.Errorf("CSV: run %q point %d is %q, the data file's %s", run, i, c, p)
				break
			}
		}
	}
	jsonDl := eval[sweepDownload](tb, pageJS("scalars.js", "download", "loss", "json"))
	var doc struct {
		Tag, Note string
		Runs      map[string][][3]json.RawMessage
	}
	if err := json.Unmarshal([]byte(jsonDl.Text), &doc); err != nil {
		t.Fatalf("JSON download: %v", err)
	}
	if doc.Tag != "loss" || !strings.HasPrefix(doc.Note, "The data files cap 1 series") || len(doc.Runs) != sweepRuns || !strings.Contains(jsonDl.Title, "cap 1 series") {
		t.Errorf("JSON download: tag %q, note %q, %d runs, title %q", doc.Tag, doc.Note, len(doc.Runs), jsonDl.Title)
	}
	for run, pts := range files {
		if len(doc.Runs[run]) != len(pts) {
			t.Errorf("JSON: run %q has %d points, its data file %d", run, len(doc.Runs[run]), len(pts))
			continue
		}
		for i, p := range pts {
			q := doc.Runs[run][i]
			for j := range 3 {
				if !sameNumber(number(t, string(q[j])), number(t, string(p[j]))) {
					t.Errorf("JSON: run %q point %d is %s, the data file's %s", run, i, q, p)
					break
				}
			}
		}
	}
	// A tag no file caps: the download says nothing more.
	hpDl := eval[sweepDownload](tb, pageJS("scalars.js", "download", "hp_metric", "csv"))
	if !strings.HasPrefix(hpDl.Text, "run,step,wall_time,value\r\n") || strings.Count(hpDl.Text, "\r\n") != sweepRuns+1 {
		t.Errorf("hp_metric CSV: %q", hpDl.Text)
	}
	// The PNG carries a legend of the runs in full, below the chart
	// (26 long names: several rows); the chart is drawn as before after.
	png := eval[struct {
		Image, Before, After []float64
		Legend               []bool
		Data                 []byte
	}](tb, pageJS("scalars.js", "png", "loss"))
	if shots != "" {
		if err := os.WriteFile(filepath.Join(shots, "scalars-many-runs-loss-export.png"), png.Data, 0o644); err != nil {
			t.Error(err)
		}
	}
	if png.Image[0] != 2*png.Before[0] || png.Image[1] < 2*png.Before[1]+2*4*20 || !slices.Equal(png.After, png.Before) || slices.Contains(png.Legend, true) {
		t.Errorf("PNG of loss: %v pixels for a %v chart (want 2x, with legend rows); after: %v, legend shown %v", png.Image, png.Before, png.After, png.Legend)
	}
	tb.screenshot(shots, "scalars-many-runs")
	if shots != "" {
		eval[any](tb, pageJS("scalars.js", "tipNames", "loss", true))
		tb.screenshot(shots, "scalars-many-runs-tooltip")
	}

	// Unchecking a run takes its line off every chart, and goes into the
	// URL.
	eval[bool](tb, pageJS("scalars.js", "toggleRun", want[10]))
	waitFor(tb, `location.hash.includes("off=")`, stepTimeout, "the unchecked run in the URL")
	for _, c := range eval[[]sweepChart](tb, pageJS("scalars.js", "drawn")) {
		for _, l := range c.Lines {
			if l.Name == want[10] {
				t.Errorf("%s: unchecked run %q still drawn", c.Tag, l.Name)
			}
		}
		for _, d := range c.Dots {
			if d.Name == want[10] {
				t.Errorf("%s: unchecked run %q still has dots", c.Tag, d.Name)
			}
		}
		if c.Tag == "loss" && len(c.Lines) != sweepRuns-1 {
			t.Errorf("loss: %d lines after unchecking one of %d runs", len(c.Lines), sweepRuns)
		}
	}
	// The URL brings the view back: a new tab with it has the run
	// unchecked.
	hash := eval[string](tb, `location.hash.slice(1)`)
	tb2 := openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), hash))
	for _, it := range eval[struct {
		Count string
		Runs  []sweepRunItem
	}](tb2, pageJS("scalars.js", "runList")).Runs {
		if it.Checked == (it.Name == want[10]) {
			t.Errorf("from the URL: run %q checked %v", it.Name, it.Checked)
		}
	}

	// The same run has the same colour on the text page.
	tt := openTab(t, browser, fileURL(filepath.Join(r.site, "text.html"), ""))
	waitFor(tt, `document.querySelectorAll("[data-run-color]").length === 2`, stepTimeout, "the text cards")
	for run, c := range eval[map[string]string](tt, pageJS("scalars.js", "runColors")) {
		if c != colors[run] {
			t.Errorf("run %q: %s on the text page, %s on the scalars page", run, c, colors[run])
		}
	}

	// The single file has no data files: its download holds the drawn
	// points and says so.
	ts := openTab(t, browser, fileURL(r.single, "page=scalars&smoothing=0"))
	one := eval[sweepDownload](ts, pageJS("scalars.js", "download", "loss", "csv"))
	if first, _, _ := strings.Cut(one.Text, "\r\n"); !strings.HasPrefix(first, "# Drawn points only:") || !strings.Contains(one.Title, "Drawn points only") {
		t.Errorf("single-file CSV: first line %q, title %q", first, one.Title)
	}
}

// hexRGB writes a #rrggbb colour as CSS computes it: rgb(r, g, b).
func hexRGB(hex string) string {
	var r, g, b int
	if _, err := fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b); err != nil {
		return "bad colour " + hex
	}
	return fmt.Sprintf("rgb(%d, %d, %d)", r, g, b)
}
