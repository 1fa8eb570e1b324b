package main

// Browser tests of the histograms and distributions pages: opened from
// file:// with the network blocked (the demo's histograms plus a run and a
// tag with hostile names), in the site and in the single-file report. The
// charts in view draw, the others draw when scrolled to, the offset/overlay
// toggle redraws the histograms, tooltips show a bucket's range and count
// or a step's percentiles, and no name runs as HTML.
//
// TestHistogramLoadTime measures how fast both pages open on a big logdir;
// it runs only with $TRAINREPORT_HIST_PERF set (see its comment).

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
	"github.com/trainreport/trainreport/examples/demo/demolog"
)

const (
	hostileRun = `<i>run"'&amp;`
	hostileTag = `<img src=x onerror=document.title='pwned'>/<script>alert(1)</script>`
)

// writeHostileHistograms writes one TF1 histogram tag of three steps into
// dir/hostileRun, named to break out of HTML if it were not escaped, and
// two tags of odd values.
func writeHostileHistograms(t *testing.T, dir string) {
	t.Helper()
	run := filepath.Join(dir, hostileRun)
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	w := tfrecord.NewWriter(&b)
	for step := range int64(3) {
		h := &eventpb.HistogramProto{Min: -1, Max: 2, Num: 6, BucketLimit: []float64{0, 1, math.MaxFloat64},
			Bucket: []float64{1, float64(step + 2), 3 - float64(step)}}
		// Odd values: infinite outer edges, values beyond float32's range.
		inf := &eventpb.HistogramProto{Min: math.Inf(-1), Max: math.Inf(1), Num: 3, BucketLimit: []float64{0, 1, math.MaxFloat64},
			Bucket: []float64{1, 1, 1}}
		huge := &eventpb.HistogramProto{Min: -1e300, Max: 1e300, Num: 3, BucketLimit: []float64{0, 1e299, math.MaxFloat64},
			Bucket: []float64{1, float64(step), 1}}
		ev := &eventpb.Event{WallTime: 1.7e9 + float64(step), Step: step, What: &eventpb.Event_Summary{Summary: &eventpb.Summary{
			Value: []*eventpb.SummaryValue{{Tag: hostileTag, Value: &eventpb.SummaryValue_Histo{Histo: h}},
				{Tag: "odd/inf", Value: &eventpb.SummaryValue_Histo{Histo: inf}},
				{Tag: "odd/huge", Value: &eventpb.SummaryValue_Histo{Histo: huge}}}}}}
		data, err := proto.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(run, "events.out.tfevents.1700000000.host"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBrowserHistograms(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	dir := t.TempDir()
	logs, hostile := filepath.Join(dir, "logs"), filepath.Join(dir, "hostile")
	if err := demolog.Write(logs); err != nil {
		t.Fatal(err)
	}
	writeHostileHistograms(t, hostile)
	r := buildReport(t, logs, hostile)
	// The demo: 2 tags x 2 runs; the hostile logdir: 3 tags x 1 run.
	const charts = 7

	// The writers' fixtures: empty and constant histograms, tensorboardX's
	// and PyTorch's HistogramProto, Keras's.
	writers := filepath.Join(repoRoot(t), "collect", "testdata", "writers")
	w := buildReport(t, filepath.Join(writers, "tf2"), filepath.Join(writers, "tensorboardx"),
		filepath.Join(writers, "torch"), filepath.Join(writers, "keras"))
	for _, page := range []string{"histograms", "distributions"} {
		t.Run("writers-"+page, func(t *testing.T) {
			tb := openTab(t, browser, fileURL(filepath.Join(w.site, page+".html"), ""))
			checkStatPage(t, tb, page, 12, false)
			tb.screenshot(shots, "hist-writers-"+page)
		})
	}

	for _, page := range []string{"histograms", "distributions"} {
		t.Run(page, func(t *testing.T) {
			tb := openTab(t, browser, fileURL(filepath.Join(r.site, page+".html"), ""))
			checkStatPage(t, tb, page, charts, true)
			tb.screenshot(shots, "hist-"+page)
			if page == "histograms" && shots != "" {
				eval[chromedp.Void](tb, pageJS("histograms.js", "overlay"))
				tb.screenshot(shots, "hist-histograms-overlay")
			}
		})
		t.Run(page+"-single-file", func(t *testing.T) {
			tb := openTab(t, browser, fileURL(r.single, "page=index"))
			eval[chromedp.Void](tb, fmt.Sprintf(`(() => { location.hash = "#page=%s"; })()`, page))
			checkStatPage(t, tb, page, charts, true)
			tb.screenshot(shots, "hist-single-"+page)
		})
	}
}

type statInfo struct {
	Cards, Drawn, InView, InViewDrawn int
	Items                             []int
	Title                             string
	Tags, Runs                        []string
}

func checkStatPage(t *testing.T, tb *tab, page string, charts int, hostile bool) {
	t.Helper()
	q := pageJS("histograms.js", "stats", page)
	waitFor(tb, pageJS("histograms.js", "inViewDrawn", page), 10*time.Second, "the charts in view are drawn")
	info := eval[statInfo](tb, q)
	if info.Cards != charts {
		t.Errorf("%d charts, want %d", info.Cards, charts)
	}
	if strings.Contains(info.Title, "pwned") {
		t.Errorf("a hostile name ran as HTML: title %q", info.Title)
	}
	if hostile && (!slices.Contains(info.Tags, hostileTag) || !slices.Contains(info.Runs, "hostile/"+hostileRun)) {
		t.Errorf("hostile names not shown as text: tags %q, runs %q", info.Tags, info.Runs)
	}
	// Scrolled through, every chart draws, with something in it.
	eval[chromedp.Void](tb, pageJS("histograms.js", "scrollThrough", page))
	waitFor(tb, pageJS("histograms.js", "drawn", page, charts), 10*time.Second, "every chart drawn after scrolling")
	for i, n := range eval[statInfo](tb, q).Items {
		if n <= 0 {
			t.Errorf("chart %d draws %d items", i, n)
		}
	}
	eval[chromedp.Void](tb, `(() => { window.scrollTo(0, 0); })()`)

	// A tooltip: on a histogram, the pointer over the tallest bin of the
	// newest step; on a distribution, the axis tooltip at the middle step.
	tip := eval[string](tb, pageJS("histograms.js", "tip", page))
	t.Logf("tooltip: %q", tip)
	if page == "histograms" {
		if !strings.Contains(tip, "step ") || !strings.Contains(tip, "[") || !strings.Contains(tip, ")") {
			t.Errorf("histogram tooltip %q lacks the step, the bucket range and its count", tip)
		}
		// The toggle: overlay draws counts from zero, offset steps reversed.
		view := eval[string](tb, pageJS("histograms.js", "toggleView"))
		if view != "overlay true false 0 offset true" {
			t.Errorf("view toggle: got %q, want overlay true false 0 offset true", view)
		}
	} else if !strings.Contains(tip, "50%: ") || !strings.Contains(tip, "93.32%: ") {
		t.Errorf("distribution tooltip %q lacks the percentiles", tip)
	}
}

// loadTimes are a page's timings, in milliseconds since navigation.
type loadTimes struct {
	DCL, Load, Drawn, InView float64
	Marks                    string
}

// TestHistogramLoadTime opens both pages of a report of a big logdir in
// headless chromium from file:// and prints how long they take until every
// chart in view is drawn. It runs only with TRAINREPORT_HIST_PERF set to the
// logdir, for example 50 histogram tags x 8 runs x 1,000 steps:
//
//	go run ./examples/synth -runs 8 -tags 1 -steps 1000 -histogram-tags 50 -histogram-every 1 -o /tmp/hist-perf/logs
//	TRAINREPORT_HIST_PERF=/tmp/hist-perf/logs go test ./cmd/trainreport -run TestHistogramLoadTime -v
//
// It prints, it does not assert: timings depend on the machine.
func TestHistogramLoadTime(t *testing.T) {
	logdir := os.Getenv("TRAINREPORT_HIST_PERF")
	if logdir == "" {
		t.Skip("set TRAINREPORT_HIST_PERF to a logdir to measure")
	}
	browser := startBrowser(t)
	start := time.Now()
	r := buildReport(t, logdir)
	t.Logf("report built in %v", time.Since(start).Round(time.Millisecond))
	var total int64
	filepath.Walk(r.site, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			total += fi.Size()
		}
		return nil
	})
	t.Logf("site: %.1f MB in all", float64(total)/1e6)
	for _, f := range []string{"histograms.html", "distributions.html", r.single} {
		if fi, err := os.Stat(filepath.Join(r.site, f)); err == nil {
			t.Logf("%s: %.2f MB", f, float64(fi.Size())/1e6)
		} else if fi, err := os.Stat(f); err == nil {
			t.Logf("single file: %.2f MB", float64(fi.Size())/1e6)
		}
	}
	for _, c := range []struct{ page, url string }{
		{"index", fileURL(filepath.Join(r.site, "index.html"), "")}, // for reference: no histograms
		{"histograms", fileURL(filepath.Join(r.site, "histograms.html"), "")},
		{"distributions", fileURL(filepath.Join(r.site, "distributions.html"), "")},
		{"histograms", fileURL(r.single, "page=histograms")},
		{"distributions", fileURL(r.single, "page=distributions")},
	} {
		for range 2 { // the second run has a warm file cache
			ctx, cancel := chromedp.NewContext(browser)
			wall := time.Now()
			if err := chromedp.Do(ctx, chromedp.Navigate(c.url)); err != nil {
				t.Fatal(err)
			}
			res, err := chromedp.Run(ctx, chromedp.Evaluate[loadTimes](pageJS("histograms.js", "loadTimes", c.page), chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: DOMContentLoaded %.0f ms, load %.0f ms, %d charts in view drawn at %.0f ms (%v wall clock to here); %s",
				shortURL(c.url), res.DCL, res.Load, int(res.InView), res.Drawn, time.Since(wall).Round(time.Millisecond), res.Marks)
			cancel()
		}
	}
}
