package main

// Browser tests of the text page: the step slider changes the text shown,
// rank-2 tensors are tables, and hostile text summaries, tag names and run
// names stay inert (no script runs, no on* attribute, no javascript: link,
// nothing loaded), in the site and in the single-file report.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

func TestBrowserText(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)

	demo := sharedDemo(t)
	t.Run("demo", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(demo.site, "text.html"), ""))
		checkTextPage(t, tb)
		tb.screenshot(shots, "text-demo")
	})
	t.Run("demo-single-file", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(demo.single, "page=text"))
		checkTextPage(t, tb)
		tb.screenshot(shots, "text-demo-single")
	})

	hostile := buildReport(t, writeHostileText(t))
	for _, c := range []struct{ name, url string }{
		{"hostile", fileURL(filepath.Join(hostile.site, "text.html"), "")},
		{"hostile-single-file", fileURL(hostile.single, "page=text")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			trapScripts(t, tb)
			checkTextPage(t, tb)
			checkTextInert(t, tb)
			// The hostile strings reached the page, as text.
			text := eval[string](tb, `document.querySelector('main.page[data-page="text"]').textContent`)
			for _, want := range []string{`<script>alert("tag")</script>`, `<img src=x onerror=alert("run")>`, "<script>alert('script')</script>", `<img src=x onerror="alert('img')">`} {
				if !strings.Contains(text, want) {
					t.Errorf("the page does not show %q as text", want)
				}
			}
			// Every step of every card, shown in turn, stays inert.
			eval[chromedp.Void](tb, pageJS("text.js", "slideAll"))
			checkTextInert(t, tb)
			tb.screenshot(shots, "text-"+c.name)
		})
	}
}

// trapScripts makes alert and friends record their calls instead of
// blocking, and reloads the page so the trap is in place before any of its
// scripts runs; checkInert then asserts that nothing called them.
func trapScripts(t *testing.T, tb *tab) {
	t.Helper()
	trap := pageJS("text.js", "trap")
	if _, err := chromedp.Call(tb.ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: trap}); err != nil {
		t.Fatalf("installing the script trap: %v", err)
	}
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Reload()); err != nil {
		t.Fatalf("installing the script trap: %v", err)
	}
}

// textInfo is what the text page shows.
type textInfo struct {
	Cards   int        `json:"cards"`
	Tables  int        `json:"tables"`
	Sliders []slideRes `json:"sliders"`
}

type slideRes struct {
	Tag          string `json:"tag"`
	Label        string `json:"label"`
	Steps        int    `json:"steps"`
	Visible      int    `json:"visible"` // text-step divs shown
	LastStep     string `json:"lastStep"`
	FirstStep    string `json:"firstStep"`
	ShownAtFirst string `json:"shownAtFirst"`
	Changed      bool   `json:"changed"`
	Output       string `json:"output"`
}

// checkTextPage checks the page shows, every card shows one step (its
// last), and moving a slider to its start shows the first step instead.
func checkTextPage(t *testing.T, tb *tab) {
	t.Helper()
	info := eval[textInfo](tb, pageJS("text.js", "info"))
	if info.Cards == 0 {
		t.Fatal("no text card")
	}
	if len(info.Sliders) == 0 {
		t.Error("no card with a step slider")
	}
	for _, s := range info.Sliders {
		if s.Visible != 1 || s.ShownAtFirst != s.FirstStep || s.LastStep == s.FirstStep {
			t.Errorf("%s: slider to 0 shows step %q (want %q, the last was %q); %d shown", s.Tag, s.ShownAtFirst, s.FirstStep, s.LastStep, s.Visible)
		}
		if s.Output == "" {
			t.Errorf("%s: slider has no label", s.Tag)
		}
	}
	t.Logf("%d cards, %d tables, %d sliders", info.Cards, info.Tables, len(info.Sliders))
}

// checkTextInert asserts that no script the logs carry ran and that the page
// holds no element that could run one or load anything.
func checkTextInert(t *testing.T, tb *tab) {
	t.Helper()
	bad := eval[[]string](tb, pageJS("text.js", "notInert"))
	for _, b := range bad {
		t.Error(b)
	}
}

// writeHostileText writes a log directory whose run name, tag names and
// text summaries try to inject HTML and script.
func writeHostileText(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	run := filepath.Join(dir, `<img src=x onerror=alert("run")>`)
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(run, "events.out.tfevents.1700000000.host"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := tfrecord.NewWriter(f)
	write := func(ev *eventpb.Event) {
		b, err := proto.Marshal(ev)
		if err == nil {
			err = w.Write(b)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	write(&eventpb.Event{WallTime: 1_700_000_000, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}})
	texts := []string{
		"<script>alert('script')</script> **bold**",
		"[click](javascript:alert('link')) and [mixed](JaVaScRiPt:alert('mixed'))",
		`<img src=x onerror="alert('img')"> and ![remote](https://example.com/pixel.png)`,
		`<a href="javascript:alert('raw')">raw link</a> <iframe src="https://example.com"></iframe>`,
	}
	for step, tag := range []string{`<script>alert("tag")</script>`, `<b onmouseover=alert("tag2")>tag</b>`} {
		for i := range 3 {
			var vals [][]byte
			for _, s := range texts {
				vals = append(vals, []byte(fmt.Sprintf("step %d: %s", i, s)))
			}
			shape := &eventpb.TensorShapeProto{Dim: []*eventpb.TensorShapeProto_Dim{{Size: 2}, {Size: 2}}}
			if step == 1 {
				shape = &eventpb.TensorShapeProto{Dim: []*eventpb.TensorShapeProto_Dim{{Size: 4}}}
			}
			write(&eventpb.Event{WallTime: float64(1_700_000_001 + i), Step: int64(i), What: &eventpb.Event_Summary{Summary: &eventpb.Summary{
				Value: []*eventpb.SummaryValue{{Tag: tag, Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "text"}},
					Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_STRING, TensorShape: shape, StringVal: vals}}}},
			}}})
		}
	}
	return dir
}
