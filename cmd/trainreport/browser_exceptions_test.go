package main

// Browser tests of the exceptions page on OneFlow exception records
// (collect/testdata/oneflow-exceptions, beside the corpus's TS-VIS logs):
// every card draws a box per step equal to what package tensorview
// computes of the values package collect reads, its heat map, histogram
// and outliers for the step with a NaN; the whisker factor k redraws
// them; the overview's anomaly link opens the page on the series; in the
// site and the single-file report.

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/internal/analysis/tensorview"
	"github.com/trainreport/trainreport/internal/testcorpus"
)

type excCard struct {
	Boxes         [][]float64 `json:"boxes"`
	OutlierPoints int         `json:"outlierPoints"`
	Bad           []int       `json:"bad"`
	Step          string      `json:"step"`
	Msg           string      `json:"msg"`
	HeatFinite    int         `json:"heatFinite"`
	HeatBad       int         `json:"heatBad"`
	Hist          []int       `json:"hist"`
	Rows          [][]string  `json:"rows"`
	Summary       string      `json:"summary"`
	Width         int         `json:"width"`
}

func TestBrowserExceptions(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	fixture, err := filepath.Abs(filepath.Join("..", "..", "collect", "testdata", "oneflow-exceptions", "logs"))
	if err != nil {
		t.Fatal(err)
	}
	tsvis := filepath.Join(testcorpus.Dir(t), "tsvis-oneflow-logs")
	r := buildReport(t, "exc="+fixture, "tsvis="+tsvis)

	// What the page must draw: each step's box at k, from the values
	// package collect reads.
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "exc", Path: fixture}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Close()
	values := map[string][][]float64{}
	for _, x := range slices.Concat(rep.Runs[0].Exceptions, rep.Runs[1].Exceptions) {
		for _, e := range x.Entries {
			v, err := e.Load(rep.Decoders())
			if err != nil {
				t.Fatal(err)
			}
			values[x.Tag] = append(values[x.Tag], v)
		}
	}
	if len(values) != 3 || len(values["conv1.weight.grad"]) != 16 || len(values["layer2.grad"]) != 8 {
		t.Fatalf("fixture: %d exception series", len(values))
	}
	checkBoxes := func(t *testing.T, tag string, got [][]float64, k float64) {
		t.Helper()
		if len(got) != len(values[tag]) {
			t.Fatalf("%s: %d boxes, want %d", tag, len(got), len(values[tag]))
		}
		for i, vals := range values[tag] {
			p, _ := tensorview.Percentiles(vals)
			b := tensorview.BoxOf(p, k)
			want := []float64{b.Down, b.Q1, b.Median, b.Q3, b.Up}
			for j := range want {
				if math.Abs(got[i][j]-want[j]) > 1e-12*math.Max(1, math.Abs(want[j])) {
					t.Errorf("%s step %d at k=%v: box %v, want %v", tag, i, k, got[i], want)
					break
				}
			}
		}
	}

	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "exceptions.html"), "")},
		{"single-file", fileURL(r.single, "page=exceptions")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			if n := eval[int](tb, pageJS("exceptions.js", "cards")); n != 3 {
				t.Fatalf("%d cards, want 3", n)
			}
			for i := range 3 {
				eval[bool](tb, fmt.Sprintf(`(() => { document.querySelectorAll('article.exc-card')[%d].scrollIntoView(); return true; })()`, i))
				waitFor(tb, fmt.Sprintf(`!!echarts.getInstanceByDom(document.querySelectorAll('article.exc-card')[%d].querySelector("[data-exc-hist]"))`, i),
					5*time.Second, fmt.Sprintf("card %d draws", i))
			}
			conv := eval[excCard](tb, pageJS("exceptions.js", "card", "conv1.weight.grad"))
			checkBoxes(t, "conv1.weight.grad", conv.Boxes, 1.5)
			// The slider starts on the step with the NaN: step 10, its
			// NaN, +Inf and 3.0 listed at their indices in the [2, 5, 6, 3]
			// tensor, the heat map showing the two non-finite cells, the
			// histogram counting the 178 finite values.
			if !slices.Equal(conv.Bad, []int{10}) || !strings.HasPrefix(conv.Step, "step 10 ") {
				t.Errorf("conv: NaN markers at %v, slider on %q; want step 10", conv.Bad, conv.Step)
			}
			if conv.HeatBad != 2 || conv.HeatFinite != 178 || conv.Width < 300 {
				t.Errorf("conv heat map: %d finite and %d non-finite cells (%dpx wide), want 178 and 2", conv.HeatFinite, conv.HeatBad, conv.Width)
			}
			sum := 0
			for _, n := range conv.Hist {
				sum += n
			}
			if len(conv.Hist) != 100 || sum != 178 {
				t.Errorf("conv histogram: %d bins counting %d, want 100 counting 178", len(conv.Hist), sum)
			}
			want := map[string][2]string{"24": {"(0, 1, 2, 0)", "NaN"}, "179": {"(1, 4, 5, 2)", "+Inf"}, "91": {"(1, 0, 0, 1)", "3"}}
			found := 0
			for _, row := range conv.Rows {
				if w, ok := want[row[0]]; ok {
					found++
					if row[1] != w[0] || row[2] != w[1] {
						t.Errorf("outlier %s: %q, want %q", row[0], row, w)
					}
				}
			}
			if found != 3 || !strings.Contains(conv.Summary, "2 NaN or infinite") {
				t.Errorf("outliers %q (%s): want indices 24, 91 and 179", conv.Rows, conv.Summary)
			}
			// TS-VIS's gradient: rank 3, [3, 4, 5], tiled two slices wide
			// (8 x 10 with a tile of padding); all zero at its last step, a
			// constant box there.
			ts := eval[excCard](tb, pageJS("exceptions.js", "card", "layer2.grad"))
			checkBoxes(t, "layer2.grad", ts.Boxes, 1.5)
			if !strings.HasPrefix(ts.Step, "step 7 ") || ts.HeatFinite != 60 || ts.HeatBad != 0 || !slices.Equal(ts.Boxes[7], []float64{0, 0, 0, 0, 0}) {
				t.Errorf("layer2.grad: slider on %q, heat map %d+%d cells, last box %v", ts.Step, ts.HeatFinite, ts.HeatBad, ts.Boxes[7])
			}
			tb.screenshot(shots, "exceptions-"+c.name)

			// A wider k: the whiskers move out as tensorview's, and fewer
			// (never more) outliers are listed.
			hash := eval[string](tb, pageJS("exceptions.js", "setK", 3))
			if !strings.Contains(hash, "k=3") {
				t.Errorf("hash %q does not keep k=3", hash)
			}
			wide := eval[excCard](tb, pageJS("exceptions.js", "card", "conv1.weight.grad"))
			checkBoxes(t, "conv1.weight.grad", wide.Boxes, 3)
			if len(wide.Rows) > len(conv.Rows) || len(wide.Rows) < 2 {
				t.Errorf("k=3: %d outliers, at k=1.5 %d", len(wide.Rows), len(conv.Rows))
			}
			fc := eval[excCard](tb, pageJS("exceptions.js", "card", "fc.weight.grad"))
			checkBoxes(t, "fc.weight.grad", fc.Boxes, 3)
			eval[bool](tb, pageJS("exceptions.js", "setStep", "fc.weight.grad", 0))
			fc0 := eval[excCard](tb, pageJS("exceptions.js", "card", "fc.weight.grad"))
			if !strings.HasPrefix(fc0.Step, "step 0 ") || fc0.HeatFinite != 240 || fc0.HeatBad != 0 {
				t.Errorf("fc at stop 0: %q, heat map %d+%d cells, want step 0 and 240 cells", fc0.Step, fc0.HeatFinite, fc0.HeatBad)
			}
			tb.screenshot(shots, "exceptions-"+c.name+"-k3")
		})
	}

	// The overview lists the NaN as an anomaly linking to its series.
	t.Run("anomaly link", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "index.html"), ""))
		href := eval[string](tb, `(() => { const a = document.querySelector("table.anomalies a[href^='exceptions.html']"); return a ? a.getAttribute("href") : ""; })()`)
		if dec, err := url.QueryUnescape(href); err != nil || !strings.Contains(dec, `tags=^conv1\.weight\.grad$`) {
			t.Fatalf("overview anomaly link %q", href)
		}
		tb.screenshot(shots, "exceptions-overview")
		tb2 := openTab(t, browser, fileURL(filepath.Join(r.site, "exceptions.html"), strings.TrimPrefix(href, "exceptions.html#")))
		eval[int](tb2, pageJS("exceptions.js", "cards"))
		if shown := eval[[]string](tb2, pageJS("exceptions.js", "shown")); !slices.Equal(shown, []string{"conv1.weight.grad"}) {
			t.Errorf("the anomaly's link shows %q, want the conv card alone", shown)
		}
	})
}

// On the demo the page draws its numeric tensors (no exception records):
// every card draws, the attention tensor's slider starts on its NaN step,
// and its NaN shows in the heat map.
func TestBrowserExceptionsDemo(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	r := sharedDemo(t)
	logs := r.logdir
	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "exceptions.html"), ""))
	n := eval[int](tb, pageJS("exceptions.js", "cards"))
	if n < 2 {
		t.Fatalf("%d cards", n)
	}
	for i := range n {
		eval[bool](tb, fmt.Sprintf(`(() => { document.querySelectorAll('article.exc-card')[%d].scrollIntoView(); return true; })()`, i))
		waitFor(tb, fmt.Sprintf(`!!echarts.getInstanceByDom(document.querySelectorAll('article.exc-card')[%d].querySelector("[data-exc-hist]"))`, i),
			5*time.Second, fmt.Sprintf("card %d draws", i))
	}
	att := eval[excCard](tb, pageJS("exceptions.js", "card", "layers/attention"))
	att3750 := demoTensor(t, logs, "layers/attention")
	if !strings.HasPrefix(att.Step, "step 3,750 ") || att.HeatBad == 0 || len(att.Boxes) != len(att3750.Entries) {
		t.Errorf("layers/attention: slider on %q, %d non-finite heat-map cells, %d boxes of %d steps", att.Step, att.HeatBad, len(att.Boxes), len(att3750.Entries))
	}
	tb.screenshot(shots, "exceptions-demo")

	// An anomaly on a scalar links to the scalars page showing that one
	// chart and that one run.
	idx := openTab(t, browser, fileURL(filepath.Join(r.site, "index.html"), ""))
	href := eval[string](idx, `(() => { const a = document.querySelector("table.anomalies a[href^='scalars.html']"); return a ? a.getAttribute("href") : ""; })()`)
	if href == "" {
		t.Fatal("no anomaly links to the scalars page")
	}
	sc := openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), strings.TrimPrefix(href, "scalars.html#")))
	eval[bool](sc, `window.trainreport.ready().then(() => true)`)
	shown := eval[[]string](sc, `[...document.querySelectorAll("figure.chart-card")].filter(e => e.offsetParent !== null).map(e => e.dataset.tag)`)
	if !slices.Equal(shown, []string{"optim/grad_norm"}) {
		t.Errorf("%s shows the charts of %q, want optim/grad_norm alone", href, shown)
	}
	sc.screenshot(shots, "exceptions-demo-anomaly-scalars")
}
