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
// also shot, a second after it was ready. With TRAINREPORT_LOADTIME_PROFILE
// set to N, the page's JavaScript is profiled (Chromium's sampling
// profiler, from navigation to ready) and the N functions of most self
// time logged, with the time of each: what a page does before its charts.
//
//	TRAINREPORT_LOADTIME=/tmp/report go test ./cmd/trainreport -run TestBrowserLoadTime -v

import (
	"cmp"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/profiler"
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
			top, _ := strconv.Atoi(os.Getenv("TRAINREPORT_LOADTIME_PROFILE"))
			if top > 0 {
				_, err := chromedp.Call(ctx, profiler.Enable, cdp.Empty{})
				if err == nil {
					_, err = chromedp.Call(ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200})
				}
				if err == nil {
					_, err = chromedp.Call(ctx, profiler.Start, cdp.Empty{})
				}
				if err != nil {
					t.Fatal(err)
				}
			}
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
			if top > 0 {
				res, err := chromedp.Call(ctx, profiler.Stop, cdp.Empty{})
				if err != nil {
					t.Fatal(err)
				}
				if tm.First > 0 {
					t.Logf("%s: before the first chart, the functions of most self time, of %s", name, profileTop(res.Profile, top, tm.First))
				}
				t.Logf("%s: until ready, the functions of most self time, of %s", name, profileTop(res.Profile, top, -1))
			}
			// What was drawn once the eager set is.
			tb.screenshot(screenshotDir(t), "loadtime-"+filepath.Base(filepath.Clean(dir))+"-"+name)
			if s := tb.problemSummary(); s != "" {
				t.Errorf("problems:%s", s)
			}
		})
	}
}

// profileTop sums a CPU profile's time by function (name, file and line),
// over its first until milliseconds (all of it when negative: the
// profile starts with the navigation, within a few milliseconds), and
// lists the top n with their milliseconds, after the total.
func profileTop(p *profiler.Profile, n int, until float64) string {
	self := map[int64]int64{} // node -> microseconds
	var total, at int64
	for i, id := range p.Samples {
		if i >= len(p.TimeDeltas) {
			break
		}
		at += p.TimeDeltas[i]
		if until >= 0 && float64(at) > until*1000 {
			break
		}
		self[id] += p.TimeDeltas[i]
		total += p.TimeDeltas[i]
	}
	byFunc := map[string]int64{}
	for _, node := range p.Nodes {
		f := node.CallFrame
		key := f.FunctionName
		if key == "" {
			key = "(anonymous)"
		}
		if f.URL != "" {
			key += fmt.Sprintf(" %s:%d", path.Base(f.URL), f.LineNumber+1)
		}
		byFunc[key] += self[node.ID]
	}
	keys := slices.SortedFunc(maps.Keys(byFunc), func(a, b string) int { return cmp.Or(cmp.Compare(byFunc[b], byFunc[a]), cmp.Compare(a, b)) })
	var b strings.Builder
	fmt.Fprintf(&b, "%.0f ms sampled:", float64(total)/1000)
	for _, k := range keys[:min(n, len(keys))] {
		fmt.Fprintf(&b, "\n\t%7.1f ms  %s", float64(byFunc[k])/1000, k)
	}
	return b.String()
}
