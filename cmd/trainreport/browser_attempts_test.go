package main

// Browser test of restarts on the scalars page: a run whose second process
// resumed from a checkpoint keeps one continuous line, the latest write of
// each step, and the points it rewrote are drawn faded behind it, every
// one at its step and value, under --restarts=attempts (the default); under
// --restarts=latest the same line is drawn alone.

import (
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// writeAttempts writes one run, "resumed", of two event files: the first
// process logs "loss" at steps 0..20 (value step), the second resumes at
// step 15 and logs 15..40 (value 100+step).
func writeAttempts(t *testing.T, dir string) {
	t.Helper()
	for _, f := range []struct {
		name     string
		from, to int64
		base     float32
	}{{"events.out.tfevents.1700000000.host", 0, 20, 0}, {"events.out.tfevents.1700000100.host", 15, 40, 100}} {
		var events []*eventpb.Event
		for s := f.from; s <= f.to; s++ {
			events = append(events, summaryEvent(s, 0, simpleValue("loss", f.base+float32(s))))
		}
		writeEventFile(t, filepath.Join(dir, "resumed", f.name), events)
	}
}

func TestBrowserSupersededPointsDrawnFadedBehindTheLine(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logs := filepath.Join(t.TempDir(), "logs")
	writeAttempts(t, logs)
	type series struct {
		ID, Name, Color string
		Z               float64
		Opacity         float64
		Dashed          bool
		Silent, Tooltip bool
		Data            [][]float64
	}
	read := func(tb *tab) []series {
		t.Helper()
		var out []series
		if err := json.Unmarshal([]byte(eval[string](tb, pageJS("attempts.js", "series"))), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	// The line: steps 0..14 of the first process, 15..40 of the second.
	var wantLine [][]float64
	for s := range 41 {
		v := float64(s)
		if s >= 15 {
			v += 100
		}
		wantLine = append(wantLine, []float64{float64(s), v})
	}
	// Superseded: what the first process wrote at 15..20.
	var wantFaded [][]float64
	for s := 15; s <= 20; s++ {
		wantFaded = append(wantFaded, []float64{float64(s), float64(s)})
	}

	for _, rule := range []string{"attempts", "latest"} {
		r := buildReport(t, logs, "--restarts="+rule)
		for _, c := range []struct{ name, url string }{
			{"site", fileURL(filepath.Join(r.site, "scalars.html"), "smoothing=0")},
			{"single-file", fileURL(r.single, "page=scalars&smoothing=0")},
		} {
			t.Run(rule+"/"+c.name, func(t *testing.T) {
				tb := openTab(t, browser, c.url)
				got := read(tb)
				i := slices.IndexFunc(got, func(s series) bool { return s.ID == "run:0" })
				if i < 0 {
					t.Fatalf("no line among %d series", len(got))
				}
				line := got[i]
				if !slices.EqualFunc(line.Data, wantLine, slices.Equal) {
					t.Errorf("line %v, want %v", line.Data, wantLine)
				}
				var faded []series
				for _, s := range got {
					if strings.HasPrefix(s.ID, "sup:") {
						faded = append(faded, s)
					}
				}
				caption := eval[string](tb, pageJS("attempts.js", "caption"))
				if rule == "latest" {
					if len(faded) != 0 || strings.Contains(caption, "superseded") {
						t.Errorf("--restarts=latest draws %d faded series, caption %q", len(faded), caption)
					}
					// No attempt, no attempt column.
					dl := eval[sweepDownload](tb, pageJS("scalars.js", "download", "loss", "csv"))
					if !strings.HasPrefix(dl.Text, "run,step,wall_time,value\r\n") || strings.Count(dl.Text, "\r\n") != 1+len(wantLine) {
						t.Errorf("--restarts=latest CSV: %q", dl.Text)
					}
					return
				}
				if len(faded) != 1 {
					t.Fatalf("%d faded series, want 1 (attempt 1)", len(faded))
				}
				f := faded[0]
				if !slices.EqualFunc(f.Data, wantFaded, slices.Equal) {
					t.Errorf("faded points %v, want every superseded point %v", f.Data, wantFaded)
				}
				if f.Name != line.Name || f.Color != line.Color || f.Z >= line.Z || f.Opacity >= 1 || !f.Dashed || !f.Silent || f.Tooltip {
					t.Errorf("faded series %+v is not the run's, behind its line %+v, faded, dashed and silent", f, line)
				}
				if !strings.Contains(caption, "6 superseded") {
					t.Errorf("caption %q does not count the 6 superseded points", caption)
				}
				checkAttemptDownloads(t, tb, c.name == "site", wantLine, wantFaded)
				tb.screenshot(shots, "attempts-"+c.name)

				// Unchecking the run in the run selector takes its faded
				// points off the chart with its line.
				eval[bool](tb, pageJS("scalars.js", "toggleRun", "resumed"))
				for _, s := range read(tb) {
					if s.Name == "resumed" && len(s.Data) > 0 {
						t.Errorf("unchecked run: series %s still draws %d points", s.ID, len(s.Data))
					}
				}
			})
		}
	}
}

// checkAttemptDownloads checks that the CSV and JSON downloads of "loss"
// hold every point the report keeps of the run "resumed": its line
// (wantLine, [step, value] each) and, marked with their attempt (1), the
// superseded points (wantFaded), with no note since nothing is left out;
// on the site, read from the data files' scripts (the line's and the
// superseded points').
func checkAttemptDownloads(t *testing.T, tb *tab, site bool, wantLine, wantFaded [][]float64) {
	t.Helper()
	csvDl := eval[sweepDownload](tb, pageJS("scalars.js", "download", "loss", "csv"))
	recs, err := csv.NewReader(strings.NewReader(csvDl.Text)).ReadAll()
	if err != nil {
		t.Fatalf("CSV %q: %v", csvDl.Text, err)
	}
	if !slices.Equal(recs[0], []string{"run", "step", "wall_time", "value", "attempt"}) {
		t.Fatalf("CSV header %q, want an attempt column", recs[0])
	}
	var line, faded [][]float64
	for _, rec := range recs[1:] {
		step, err1 := strconv.ParseFloat(rec[1], 64)
		v, err2 := strconv.ParseFloat(rec[3], 64)
		if rec[0] != "resumed" || err1 != nil || err2 != nil {
			t.Fatalf("CSV row %q", rec)
		}
		switch rec[4] {
		case "":
			line = append(line, []float64{step, v})
		case "1":
			faded = append(faded, []float64{step, v})
		default:
			t.Errorf("CSV row %q: attempt %q, want 1 or empty", rec, rec[4])
		}
	}
	if !slices.EqualFunc(line, wantLine, slices.Equal) || !slices.EqualFunc(faded, wantFaded, slices.Equal) {
		t.Errorf("CSV: line %v and superseded %v,\nwant %v and %v", line, faded, wantLine, wantFaded)
	}
	if !strings.Contains(csvDl.Title, "6 superseded points") {
		t.Errorf("CSV button title %q does not say it holds the 6 superseded points", csvDl.Title)
	}
	// On the site the title says the download reads the data files, and
	// the JSON's empty note below that they loaded.
	if site {
		if !strings.HasPrefix(csvDl.Title, "CSV: Every point of the data files") {
			t.Errorf("site CSV button title %q: not from the data files", csvDl.Title)
		}
	}

	jsonDl := eval[sweepDownload](tb, pageJS("scalars.js", "download", "loss", "json"))
	var doc struct {
		Tag, Note  string
		Runs       map[string][][3]float64
		Superseded map[string][]struct {
			Attempt, Total int
			Points         [][3]float64
		}
	}
	if err := json.Unmarshal([]byte(jsonDl.Text), &doc); err != nil {
		t.Fatalf("JSON download %q: %v", jsonDl.Text, err)
	}
	strip := func(pts [][3]float64) [][]float64 { // [wall, step, value] -> [step, value]
		var out [][]float64
		for _, p := range pts {
			out = append(out, []float64{p[1], p[2]})
		}
		return out
	}
	if doc.Note != "" || !slices.EqualFunc(strip(doc.Runs["resumed"]), wantLine, slices.Equal) {
		t.Errorf("JSON: note %q, line %v", doc.Note, doc.Runs["resumed"])
	}
	sup := doc.Superseded["resumed"]
	if len(sup) != 1 || sup[0].Attempt != 1 || sup[0].Total != len(wantFaded) || !slices.EqualFunc(strip(sup[0].Points), wantFaded, slices.Equal) {
		t.Errorf("JSON: superseded %+v, want attempt 1 with %v", sup, wantFaded)
	}
}

// TestBrowserEveryKindDrawsBothAttempts opens the report of
// collect/testdata/attempts/twowriters (two tensorboardX writers into one
// run, steps 0..2 each): the images page's step slider stops at both
// writes of every step, each labelled with its attempt, the first
// writer's faded; the histograms page draws all six ridges, the first
// writer's three dashed and faded in front of the line's.
func TestBrowserEveryKindDrawsBothAttempts(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logs, err := filepath.Abs(filepath.Join("..", "..", "collect", "testdata", "attempts", "twowriters"))
	if err != nil {
		t.Fatal(err)
	}
	r := buildReport(t, logs)

	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "images.html"), ""))
	type cell struct {
		Caption string
		Faded   bool
		Src     string
	}
	type stop struct {
		Label string
		Cells []cell
	}
	var stops []stop
	if err := json.Unmarshal([]byte(eval[string](tb, pageJS("attempts.js", "mediaWrites", "images"))), &stops); err != nil {
		t.Fatal(err)
	}
	var labels, captions []string
	srcs := map[string]bool{}
	for _, s := range stops {
		if len(s.Cells) != 1 {
			t.Fatalf("stop %q: %d cells, want 1", s.Label, len(s.Cells))
		}
		c := s.Cells[0]
		labels, captions = append(labels, s.Label), append(captions, c.Caption)
		if c.Faded != strings.Contains(c.Caption, "superseded") {
			t.Errorf("stop %q: caption %q, faded %v", s.Label, c.Caption, c.Faded)
		}
		srcs[c.Src] = true
	}
	wantLabels := []string{"0 (write 1 of 2)", "0 (write 2 of 2)", "1 (write 1 of 2)", "1 (write 2 of 2)", "2 (write 1 of 2)", "2 (write 2 of 2)"}
	wantCaptions := []string{"step 0 (attempt 1 of 2, superseded)", "step 0 (attempt 2 of 2)", "step 1 (attempt 1 of 2, superseded)",
		"step 1 (attempt 2 of 2)", "step 2 (attempt 1 of 2, superseded)", "step 2 (attempt 2 of 2)"}
	if !slices.Equal(labels, wantLabels) || !slices.Equal(captions, wantCaptions) {
		t.Errorf("slider stops %q with captions %q; want %q and %q", labels, captions, wantLabels, wantCaptions)
	}
	if len(srcs) != 6 {
		t.Errorf("the six stops show %d distinct images, want 6: %v", len(srcs), srcs)
	}
	tb.screenshot(shots, "attempts-images")

	tb = openTab(t, browser, fileURL(filepath.Join(r.site, "histograms.html"), ""))
	var hist struct {
		Steps  [][3]any
		Ridges []struct {
			Z2          float64
			FillOpacity float64
			Dashed      bool
		}
	}
	if err := json.Unmarshal([]byte(eval[string](tb, pageJS("attempts.js", "histogramWrites"))), &hist); err != nil {
		t.Fatal(err)
	}
	if len(hist.Steps) != 6 || len(hist.Ridges) != 6 {
		t.Fatalf("histograms: %d steps in the data, %d ridges drawn; want 6 and 6: %+v", len(hist.Steps), len(hist.Ridges), hist)
	}
	faded := 0
	for _, r := range hist.Ridges {
		if r.Dashed {
			faded++
			if r.FillOpacity >= 1 || r.Z2 <= 1 {
				t.Errorf("superseded ridge %+v is not faded in front", r)
			}
		} else if r.FillOpacity != 1 {
			t.Errorf("line ridge %+v is faded", r)
		}
	}
	if faded != 3 {
		t.Errorf("%d dashed ridges, want the first writer's 3: %+v", faded, hist.Ridges)
	}
	for k, s := range hist.Steps {
		want := "attempt 2 of 2"
		if k%2 == 0 {
			want = "attempt 1 of 2, superseded"
		}
		if s[1] != want || s[2] != (k%2 == 0) {
			t.Errorf("histogram step %d: %v, want note %q", k, s, want)
		}
	}
	tb.screenshot(shots, "attempts-histograms")
}
