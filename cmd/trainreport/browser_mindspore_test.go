package main

// Browser test of the report of a MindSpore summary folder (the fixture
// MindSpore 2.10 wrote, collect/testdata/mindspore): opened from file://
// with the network blocked, with no console error. Scalars draw a chart per
// tag (the hostile tag as text); the histograms and distributions draw every
// tag, and a histogram's tooltip at a step with NaN and infinite values says
// how many no bucket holds; the tensors page slices the values package
// collect reads; the images load; the lineage is a session on the HParams
// page whose lines pass through their axes. The single file draws the
// histograms, images and tensors too.

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect"
)

func TestBrowserMindSpore(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	dir := filepath.Join(repoRoot(t), "collect", "testdata", "mindspore")
	r := buildReport(t, dir)
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "mindspore", Path: dir}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Close()
	tensors := map[string]*model.Tensor{}
	for _, run := range rep.Runs {
		for _, ts := range run.Tensors {
			tensors[ts.Tag] = ts
		}
	}

	t.Run("overview", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "index.html"), ""))
		tb.screenshot(shots, "mindspore-index")
	})
	t.Run("scalars", func(t *testing.T) {
		c := &reportCase{name: "mindspore", report: r, truth: readScalars(t, dir), browser: browser, shots: shots}
		st := c.testScalars(t, fileURL(filepath.Join(r.site, "scalars.html"), ""), "scalars")
		if title := eval[string](st.tab, `document.title`); strings.Contains(title, "alert") {
			t.Errorf("the hostile tag ran: title %q", title)
		}
	})
	for _, page := range []string{"histograms", "distributions"} {
		t.Run(page, func(t *testing.T) {
			tb := openTab(t, browser, fileURL(filepath.Join(r.site, page+".html"), ""))
			checkStatPage(t, tb, page, 6, false)
			if page == "histograms" {
				// The first chart is "activations" of records; its newest
				// step (9) holds 1 NaN, 2 +Inf and 1 -Inf.
				tip := eval[string](tb, pageJS("histograms.js", "tip", page))
				if !strings.Contains(tip, "step 9") || !strings.Contains(tip, "not in any bucket: 1 NaN, 2 +Inf, 1 \u2212Inf") {
					t.Errorf("tooltip %q does not count the values no bucket holds", tip)
				}
			}
			tb.screenshot(shots, "mindspore-"+page)
		})
	}
	t.Run("tensors", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "tensors.html"), ""))
		checkTensorCharts(t, tb)
		w := tensors["weights"].Entries
		last := w[len(w)-1]
		vals := loadTensor(t, last)
		tensorIndex(t, tb, "weights", "[:, :]", last.Step, 2, 3, func(r, c int) float64 { return vals[r*3+c] })
		cnt := tensors["counts"].Entries
		lastC := cnt[len(cnt)-1]
		cv := loadTensor(t, lastC)
		tensorIndex(t, tb, "counts", "[:]", lastC.Step, 4, 1, func(r, _ int) float64 { return cv[r] })
		tb.screenshot(shots, "mindspore-tensors")
	})
	t.Run("images", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "images.html"), ""))
		waitFor(tb, pageJS("media.js", "imagesLoaded"), 10*time.Second, "every image loads")
		tb.screenshot(shots, "mindspore-images")
	})
	// The single file: the same pages from one HTML file, images inline.
	t.Run("single-file", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(r.single, "page=histograms"))
		checkStatPage(t, tb, "histograms", 6, false)
		tb = openTab(t, browser, fileURL(r.single, "page=images"))
		waitFor(tb, pageJS("media.js", "imagesLoaded"), 10*time.Second, "every image loads")
		tb = openTab(t, browser, fileURL(r.single, "page=tensors"))
		checkTensorCharts(t, tb)
		tb.screenshot(shots, "mindspore-single-tensors")
	})
	t.Run("hparams", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "hparams.html"), ""))
		waitFor(tb, pageJS("hparams.js", "chart"), 10*time.Second, "the charts")
		for _, p := range eval[[]string](tb, pageJS("hparams.js", "geometry")) {
			t.Errorf("lines on the axes: %s", p)
		}
		for _, p := range eval[[]string](tb, pageJS("hparams.js", "tooltips")) {
			t.Errorf("tooltips: %s", p)
		}
		text := eval[string](tb, `document.querySelector('main.page[data-page="hparams"]').textContent`)
		for _, want := range []string{"Momentum", "SoftmaxCrossEntropyWithLogits", "accuracy", "train_loss"} {
			if !strings.Contains(text, want) {
				t.Errorf("the HParams page does not show %q", want)
			}
		}
		tb.screenshot(shots, "mindspore-hparams")
	})
}
