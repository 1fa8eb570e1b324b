package main

// A measurement, not a test: how long a report's pages take to draw in
// headless Chromium, run by hand on reports of big sweeps (docs/
// DEVELOPMENT.md, "Measuring pages"):
//
//	TRAINREPORT_MEASURE_PAGES=/tmp/r2k/scalars.html,/tmp/r10k/scalars.html \
//	    go test ./cmd/trainreport -run TestMeasurePages -v
//
// For each page it logs its size, the time from navigation to its load
// event, to the first chart drawn and to every chart in the viewport
// drawn (a figure.chart-card with data-ready set, or any canvas or svg
// drawn by ECharts in a page without them).

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// measureScript runs in the page before its own scripts: it records, in
// milliseconds since navigation, when the first chart was drawn and when
// every chart in the viewport was.
const measureScript = `(() => {
	const m = window.__measure = {first: -1, inView: -1};
	const charts = () => [...document.querySelectorAll("figure.chart-card, [_echarts_instance_]")];
	const drawn = el => el.matches("figure.chart-card") ? el.getAttribute("data-ready") === "1" : !!el.querySelector("canvas, svg");
	const check = () => {
		const all = charts();
		if (m.first < 0 && all.some(drawn)) m.first = performance.now();
		const h = window.innerHeight;
		const visible = all.filter(el => { const r = el.getBoundingClientRect(); return r.bottom > 0 && r.top < h && r.height > 0; });
		if (m.inView < 0 && visible.length && visible.every(drawn)) m.inView = performance.now();
	};
	new MutationObserver(check).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ["data-ready"]});
})();`

func TestMeasurePages(t *testing.T) {
	pages := os.Getenv("TRAINREPORT_MEASURE_PAGES")
	if pages == "" {
		t.Skip("set TRAINREPORT_MEASURE_PAGES to a comma-separated list of pages to measure")
	}
	browser := startBrowser(t)
	for _, p := range strings.Split(pages, ",") {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := chromedp.NewContext(browser)
		if err := chromedp.Do(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: measureScript}); err != nil {
			t.Fatal(err)
		}
		nctx, ncancel := context.WithTimeout(ctx, 5*time.Minute)
		if err := chromedp.Do(nctx, chromedp.Navigate(fileURL(p, ""))); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		type times struct{ Load, First, InView float64 }
		var m times
		deadline := time.Now().Add(2 * time.Minute)
		for {
			var err error
			m, err = chromedp.Run(nctx, chromedp.Evaluate[times](
				`({load: performance.getEntriesByType("navigation")[0].loadEventStart, first: window.__measure.first, inView: window.__measure.inView})`))
			if err != nil {
				t.Fatal(err)
			}
			if m.InView >= 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		t.Logf("%s: %.1f MB, load event %.0f ms, first chart %.0f ms, every chart in view %.0f ms",
			p, float64(fi.Size())/(1<<20), m.Load, m.First, m.InView)
		ncancel()
		cancel()
	}
}
