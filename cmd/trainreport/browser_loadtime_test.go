package main

// A measurement run by hand, not a test of the build: how long each page of
// a report takes to draw in headless Chromium, from file:// with the network
// blocked. Set TRAINREPORT_LOADTIME to a report's site directory (and
// TRAINREPORT_LOADTIME_PAGES to a comma-separated list of pages, default
// every page of the site); it logs, per page, its size, the time to its load event,
// to its first chart (the first canvas ECharts adds, which it draws in the
// same task: our charts draw without animation) and to every chart of the
// page's eager set drawn (trainreport.ready(): the charts in view and those
// drawn in idle time), each from the start of navigation, and the JS heap
// then in use (Chromium's performance.memory). Without the
// variable it is skipped. With TRAINREPORT_SCREENSHOTS set, each page is
// also shot, a second after it was ready.
//
//	TRAINREPORT_LOADTIME=/tmp/report go test ./cmd/trainreport -run TestBrowserLoadTime -v

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// firstCanvasJS records when the first canvas enters the document.
const firstCanvasJS = `(() => {
  window.__firstCanvas = null;
  new MutationObserver((list, obs) => {
    for (const m of list) for (const n of m.addedNodes) {
      if (n.nodeType === 1 && (n.tagName === 'CANVAS' || n.querySelector && n.querySelector('canvas'))) {
        window.__firstCanvas = performance.now(); obs.disconnect(); return;
      }
    }
  }).observe(document, { childList: true, subtree: true });
})();`

func TestBrowserLoadTime(t *testing.T) {
	dir := os.Getenv("TRAINREPORT_LOADTIME")
	if dir == "" {
		t.Skip("TRAINREPORT_LOADTIME names no report")
	}
	var pages []string
	if p := os.Getenv("TRAINREPORT_LOADTIME_PAGES"); p != "" {
		pages = strings.Split(p, ",")
	} else {
		all, err := filepath.Glob(filepath.Join(dir, "*.html"))
		if err != nil || len(all) == 0 {
			t.Fatalf("%s holds no page (%v)", dir, err)
		}
		for _, p := range all {
			pages = append(pages, strings.TrimSuffix(filepath.Base(p), ".html"))
		}
	}
	browser := startBrowser(t)
	for _, name := range pages {
		path := filepath.Join(dir, name+".html")
		st, err := os.Stat(path)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		t.Run(name, func(t *testing.T) {
			tb := &tab{t: t, url: fileURL(path, "")}
			ctx, cancel := chromedp.NewContext(browser, chromedp.WithListener(tb.listen))
			defer cancel()
			if err := chromedp.Do(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: firstCanvasJS}); err != nil {
				t.Fatal(err)
			}
			tb.ctx = ctx
			start := time.Now()
			if err := chromedp.Do(ctx, chromedp.Navigate(tb.url)); err != nil {
				t.Fatal(err)
			}
			loaded := time.Since(start)
			type times struct {
				Load, First, All float64
				Heap             float64 // the page's JS heap in use (Chromium's performance.memory), bytes
			}
			tm := evalWithin[times](tb, `trainreport.ready().then(() => ({
				load: performance.getEntriesByType('navigation')[0].loadEventEnd,
				first: window.__firstCanvas == null ? -1 : window.__firstCanvas,
				all: performance.now(),
				heap: performance.memory ? performance.memory.usedJSHeapSize : -1}))`, 5*time.Minute)
			t.Logf("%s: %.1f MB, load event %.0f ms (%.0f ms seen from Go), first chart %.0f ms, every chart of the page's eager set %.0f ms, JS heap %.0f MB",
				name, float64(st.Size())/(1<<20), tm.Load, float64(loaded.Milliseconds()), tm.First, tm.All, tm.Heap/(1<<20))
			// What was drawn once the eager set is.
			tb.screenshot(screenshotDir(t), "loadtime-"+filepath.Base(filepath.Clean(dir))+"-"+name)
			if s := tb.problemSummary(); s != "" {
				t.Errorf("problems:%s", s)
			}
		})
	}
}
