package main

// Browser test of what every page shows around its charts (issue 26, item
// 8), on the demo's report, which has every page the product has but
// Visdom's: each page opens with its title, a caption of one line and a
// help toggle, closed; the rendered text boxes of the charts (axis labels
// and names, legends) overlap neither one another nor the chart's edge; a
// wall-time axis writes a day change as the date; run groups have a
// colour of their own and a legend; an empty chart says why; and Custom
// Scalars is listed only when it has a layout or a pin.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// chromeHead is testdata/js/chrome.js's head.
type chromeHead struct {
	Nav []struct {
		Name, Title string
		Hidden      bool
	}
	Page, Title, Caption, FirstAfter string
	Head, Help, HelpOpen, HelpShown  bool
	CaptionLines                     float64
	HelpText                         int
}

// chromeChart is one chart of chrome.js's boxes.
type chromeChart struct {
	Card          string
	W, H          float64
	PlotBottom    float64
	Texts         []chromeText
	page, setting string
}

type chromeText struct {
	Text       string
	X, Y, W, H float64
}

func (a chromeText) overlaps(b chromeText) bool {
	// Boxes that share an edge or a pixel's fraction of one do not collide:
	// ECharts' own label boxes are rounded to whole pixels.
	const slack = 0.5
	return a.X+a.W-slack > b.X && b.X+b.W-slack > a.X && a.Y+a.H-slack > b.Y && b.Y+b.H-slack > a.Y
}

func TestBrowserPageChrome(t *testing.T) {
	t.Parallel()
	shots := screenshotDir(t)
	r := sharedDemo(t)
	js := func(fn string, args ...any) string { return pageJS("chrome.js", fn, args...) }

	// Every page of the demo, in the navigation's order: Custom Scalars is
	// listed, as the demo writes a layout; Visdom's page needs Visdom's
	// files, which a TensorBoard log directory has none of.
	wantPages := []string{"index", "scalars", "custom_scalars", "histograms", "distributions", "images", "audio", "text",
		"tensors", "exceptions", "hparams", "pr_curves", "graphs", "meshes", "embeddings"}
	t.Run("help", func(t *testing.T) {
		t.Parallel()
		for _, page := range wantPages {
			t.Run(page, func(t *testing.T) { t.Parallel(); checkPageHelp(t, r, page, wantPages, shots) })
		}
	})

	// The charts' text boxes, in the settings that put the most text on
	// them: groups (their legend), wall time (dates), each histogram view.
	t.Run("labels", func(t *testing.T) {
		t.Parallel()
		browser := startBrowser(t)
		var charts []chromeChart
		read := func(tb *tab, page, setting, sel string) {
			t.Helper()
			var cs []chromeChart
			if err := json.Unmarshal([]byte(evalWithin[string](tb, js("boxes", sel), 60*time.Second)), &cs); err != nil {
				t.Fatal(err)
			}
			if len(cs) == 0 {
				t.Fatalf("%s (%s): no chart drawn", page, setting)
			}
			for i := range cs {
				cs[i].page, cs[i].setting = page, setting
			}
			charts = append(charts, cs...)
			tb.screenshot(shots, "chrome-labels-"+page+"-"+setting)
		}
		for _, c := range []struct{ page, hash, setting string }{
			{"scalars", "group=" + strings.ReplaceAll(`lr=[0-9.]+`, "+", "%2B"), "groups"},
			{"scalars", "x=wall", "wall"},
			{"scalars", "x=relative&log=1", "relative-log"},
			{"custom_scalars", "", "layout"},
		} {
			tb := openTab(t, browser, fileURL(filepath.Join(r.site, c.page+".html"), c.hash))
			read(tb, c.page, c.setting, "figure.chart-card div.chart")
			if c.setting == "wall" {
				day := eval[string](tb, js("dayChange"))
				if day == "" {
					t.Fatalf("the demo's wall times hold no day change in the browser's time zone")
				}
				xs := xLabels(charts[len(charts)-1])
				if !slices.Contains(xs, day) {
					t.Errorf("wall-time axis labels %q: the day change is not written %q", xs, day)
				}
				for _, x := range xs {
					if regexp.MustCompile(`^\d{1,2}$`).MatchString(x) {
						t.Errorf("wall-time axis label %q: a day of the month without its month", x)
					}
				}
			}
		}
		for _, page := range []string{"histograms", "distributions", "pr_curves"} {
			tb := openTab(t, browser, fileURL(filepath.Join(r.site, page+".html"), ""))
			read(tb, page, "default", "figure.stat-card .stat-chart")
			if page == "histograms" {
				eval[bool](tb, js("set", "view", "overlay"))
				read(tb, page, "overlay", "figure.stat-card .stat-chart")
			}
		}
		for _, ch := range charts {
			where := fmt.Sprintf("%s (%s), chart %q", ch.page, ch.setting, ch.Card)
			for i, a := range ch.Texts {
				if a.X < -0.5 || a.Y < -0.5 || a.X+a.W > ch.W+0.5 || a.Y+a.H > ch.H+0.5 {
					t.Errorf("%s: text %q at [%.1f,%.1f %.1fx%.1f] passes the chart's edge (%gx%g)", where, a.Text, a.X, a.Y, a.W, a.H, ch.W, ch.H)
				}
				for _, b := range ch.Texts[i+1:] {
					if a.overlaps(b) {
						t.Errorf("%s: text %q [%.1f,%.1f %.1fx%.1f] overlaps %q [%.1f,%.1f %.1fx%.1f]", where, a.Text, a.X, a.Y, a.W, a.H, b.Text, b.X, b.Y, b.W, b.H)
					}
				}
			}
		}
		// The names the fix moved are among the boxes checked.
		for _, want := range []struct{ page, text string }{{"scalars", "step"}, {"pr_curves", "precision"}} {
			if !slices.ContainsFunc(charts, func(c chromeChart) bool {
				return c.page == want.page && slices.ContainsFunc(c.Texts, func(x chromeText) bool { return x.Text == want.text })
			}) {
				t.Errorf("%s: no chart shows the axis name %q", want.page, want.text)
			}
		}
	})

	t.Run("groups", func(t *testing.T) {
		t.Parallel()
		tb := openTab(t, startBrowser(t), fileURL(filepath.Join(r.site, "scalars.html"), "smoothing=0&group="+strings.ReplaceAll(`lr=[0-9.]+`, "+", "%2B")))
		eval[bool](tb, js("ready"))
		s := readScalarChart(t, tb, "metrics/loss")
		want := []string{"/train · mean ± std of 2 runs", "/validation · mean ± std of 2 runs"}
		if !s.Legend || !slices.Equal(s.LegendData, want) {
			t.Errorf("legend shown %v with %q, want %q", s.Legend, s.LegendData, want)
		}
		// A group's colour is its own: no run's, and not the other group's.
		runs := map[string]bool{}
		var groups []string
		for id, c := range s.Colors {
			if strings.HasPrefix(id, "group:") {
				groups = append(groups, c)
			}
		}
		for _, c := range eval[[]string](tb, `[...document.querySelectorAll('#trainreport-runs')].flatMap(e => JSON.parse(e.textContent)).map(n => trainreport.util.colorOf(n))`) {
			runs[c] = true
		}
		if len(groups) != 2 || groups[0] == groups[1] || runs[groups[0]] || runs[groups[1]] {
			t.Errorf("group colours %v, run colours %v: want two colours of their own", groups, runs)
		}
		tb.screenshot(shots, "chrome-groups")
	})

	t.Run("empty-message", func(t *testing.T) {
		// The Runs filter matches the validation runs, which log no
		// optim/ tags: those charts say so; metrics/loss draws.
		t.Parallel()
		tb := openTab(t, startBrowser(t), fileURL(filepath.Join(r.site, "scalars.html"), "runs=validation"))
		eval[bool](tb, js("ready"))
		empty := readScalarChart(t, tb, "optim/grad_norm")
		if !empty.MessageShown || !strings.HasPrefix(empty.Message, "No run shown has this tag") || strings.Contains(empty.Message, "matches the filter") {
			t.Errorf("optim/grad_norm with only validation runs shown: message %q (shown %v), want that no run shown has the tag", empty.Message, empty.MessageShown)
		}
		if full := readScalarChart(t, tb, "metrics/loss"); full.MessageShown {
			t.Errorf("metrics/loss with validation runs shown: message %q shown", full.Message)
		}
		tb.screenshot(shots, "chrome-empty-message")
	})
}

// checkPageHelp checks the head of one page of the demo's report: the
// navigation (on the overview), or the caption and the help toggle.
func checkPageHelp(t *testing.T, r builtReport, page string, wantPages []string, shots string) {
	js := func(fn string, args ...any) string { return pageJS("chrome.js", fn, args...) }
	tb := openTab(t, startBrowser(t), fileURL(filepath.Join(r.site, page+".html"), ""))
	var h chromeHead
	if err := json.Unmarshal([]byte(eval[string](tb, js("head"))), &h); err != nil {
		t.Fatal(err)
	}
	if page == "index" {
		var shown []string
		for _, n := range h.Nav {
			if !n.Hidden {
				shown = append(shown, n.Name)
			}
		}
		if !slices.Equal(shown, wantPages) {
			t.Errorf("the navigation shows %v, want %v", shown, wantPages)
		}
		return // the overview's lead line counts what the report holds: no prose to hide
	}
	if !h.Head || !h.Help {
		t.Errorf("%s: no page head with a help toggle: %+v", page, h)
		return
	}
	if h.CaptionLines > 1.5 || h.Caption == "" {
		t.Errorf("%s: caption %q takes %.2f lines, want one", page, h.Caption, h.CaptionLines)
	}
	if h.HelpOpen || h.HelpShown || h.HelpText < 100 {
		t.Errorf("%s: help open %v, shown %v, %d characters: want closed, hidden, and the page's prose in it", page, h.HelpOpen, h.HelpShown, h.HelpText)
	}
	if !eval[bool](tb, js("openHelp")) {
		t.Errorf("%s: a click on the help toggle does not show it", page)
	}
	tb.screenshot(shots, "chrome-help-"+page)
}

// readScalarChart is chrome.js's scalarChart.
func readScalarChart(t *testing.T, tb *tab, tag string) (s struct {
	Message      string
	MessageShown bool
	Legend       bool
	LegendData   []string
	Colors       map[string]string
}) {
	t.Helper()
	if err := json.Unmarshal([]byte(eval[string](tb, pageJS("chrome.js", "scalarChart", tag))), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// xLabels returns the texts of a chart under its plot: the x axis's.
func xLabels(c chromeChart) []string {
	var out []string
	for _, x := range c.Texts {
		if x.Y >= c.PlotBottom && x.Y < c.PlotBottom+24 {
			out = append(out, x.Text)
		}
	}
	return out
}

// TestBrowserCustomScalarsUnlisted: without a layout the Custom Scalars
// page is neither in the navigation nor in the overview's list of pages
// until a chart is pinned on Scalars; then its link shows.
func TestBrowserCustomScalarsUnlisted(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	logs := filepath.Join(t.TempDir(), "logs")
	var events []*eventpb.Event
	for step := range 5 {
		events = append(events, summaryEvent(int64(step), 0, simpleValue("loss", 1/float32(step+1))))
	}
	writeEventFile(t, filepath.Join(logs, "run", "events.out.tfevents.1700000000.host"), events)
	r := buildReport(t, logs)
	js := func(fn string, args ...any) string { return pageJS("chrome.js", fn, args...) }

	forgetPins(t, browser, fileURL(filepath.Join(r.site, "index.html"), ""))
	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "index.html"), ""))
	if eval[bool](tb, js("navShown", "custom_scalars")) {
		t.Errorf("the overview's navigation shows Custom Scalars without a layout or a pin")
	}
	if got := eval[string](tb, `document.querySelector("nav.contents") ? document.querySelector("nav.contents").textContent : ""`); strings.Contains(got, "Custom Scalars") {
		t.Errorf("the overview's list of pages names Custom Scalars without a layout: %q", got)
	}
	tb = openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), ""))
	eval[bool](tb, js("ready"))
	if eval[bool](tb, js("navShown", "custom_scalars")) {
		t.Errorf("the Scalars page's navigation shows Custom Scalars before a pin")
	}
	eval[bool](tb, js("pin", "loss"))
	if !eventually(tb, js("navShown", "custom_scalars"), 5*time.Second) {
		t.Errorf("after pinning loss the navigation does not show Custom Scalars")
	}
	forgetPins(t, browser, fileURL(filepath.Join(r.site, "index.html"), ""))
}
