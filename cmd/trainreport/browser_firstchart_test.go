package main

// Browser tests of what a sweep's pages do before their first chart,
// counted with Chromium's precise coverage (how many times each function
// of the page's scripts ran), not timed: at 100,000 runs each call per run
// listed or per session costs a share of the first chart's time.

import (
	"context"
	"path"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// callCounts opens url in a new tab with Chromium's precise coverage on,
// awaits the page's ready() and returns how many times each function of
// the page's scripts ran, by script file and function name
// ("app.js hslHex").
func callCounts(t *testing.T, browser context.Context, url string) map[string]int64 {
	t.Helper()
	tb := &tab{t: t, url: url}
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithListener(tb.listen))
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	tb.ctx = ctx
	yes := true
	if _, err := chromedp.Call(ctx, profiler.Enable, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, profiler.StartPreciseCoverage, profiler.StartPreciseCoverageParams{CallCount: &yes}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	eval[bool](tb, pageJS("firstchart.js", "ready"))
	res, err := chromedp.Call(ctx, profiler.TakePreciseCoverage, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int64{}
	for _, s := range res.Result {
		for _, f := range s.Functions {
			if len(f.Ranges) > 0 && f.FunctionName != "" {
				counts[path.Base(s.URL)+" "+f.FunctionName] += f.Ranges[0].Count
			}
		}
	}
	tb.assertClean()
	return counts
}

// A sweep's pages make the colours of the runs they show, not of every
// run their list names: the list gives each run its place, the colour is
// made from the place when first asked for (assets/app.js colorOf). At
// 100,000 runs making the 50,000 colours of the list took a fifth of a
// second of each page's first chart. The colours are the same: by place
// in the list, in whatever order they are asked for.
func TestBrowserSweepPagesMakeOnlyTheColoursTheyShow(t *testing.T) {
	t.Parallel()
	const runs = 600 // sharedTrials'
	r := sharedTrials(t)
	browser := startBrowser(t)
	for _, page := range []string{"scalars", "hparams"} {
		t.Run(page, func(t *testing.T) {
			url := fileURL(filepath.Join(r.site, page+".html"), "")
			counts := callCounts(t, browser, url)
			// The sweep's scalars page draws bands and the best and
			// worst runs; the paged sessions table 50 rows.
			if made := counts["app.js hslHex"]; made > 60 {
				t.Errorf("%s.html made %d colours of runs, want at most those it shows (60), not one per run listed (%d)", page, made, runs)
			}
			if counts["app.js colorOf"] == 0 {
				t.Fatalf("%s.html asked for no colour: the count proves nothing", page)
			}
			tb := openTab(t, browser, url)
			eval[bool](tb, pageJS("firstchart.js", "ready"))
			names := eval[[]string](tb, pageJS("firstchart.js", "listed"))
			if len(names) != runs {
				t.Fatalf("the run list names %d runs, want %d", len(names), runs)
			}
			reversed := slices.Clone(names)
			slices.Reverse(reversed)
			back := eval[[]string](tb, pageJS("firstchart.js", "colors", reversed))
			slices.Reverse(back)
			fresh := openTab(t, browser, url)
			forward := eval[[]string](fresh, pageJS("firstchart.js", "colors", names))
			if !slices.Equal(forward, back) {
				t.Errorf("colours depend on the order they are asked in")
			}
			palette := []string{"#1f77b4", "#ff7f0e", "#2ca02c"}
			if !slices.Equal(forward[:3], palette) || len(distinct(forward[:40])) != 40 {
				t.Errorf("the first runs' colours %q, want the palette's %q first and 40 distinct colours for 40 runs", forward[:5], palette)
			}
		})
	}
}

func distinct(s []string) map[string]bool {
	m := map[string]bool{}
	for _, v := range s {
		m[v] = true
	}
	return m
}
