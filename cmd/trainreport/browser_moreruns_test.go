package main

// The browser test of the runs a card page leaves out over its byte
// budget: on a sweep with images, audio, text, tensors, PR curves and
// exceptions whose pages pass a small --max-page-bytes, each page draws
// the first runs of each tag, says so, and offers the others: "Show more
// runs" loads them, a script a click, until every card of the page without
// a budget is there, showing the same (its text, its images' sizes, its
// charts). The Runs filter applies to the runs not loaded: a filter that
// matches only a run left out loads the one script holding it, and the
// button says how many of the runs left the filter matches.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// writeCardSweep writes runs runs, each with an image tag (a PNG whose
// size is the run's own), an audio clip, a text, a numeric tensor of two
// steps (which the Exceptions page shows too) and a PR curve.
func writeCardSweep(t *testing.T, runs int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range runs {
		var vals []*eventpb.SummaryValue
		w, h := 4+i%7, 3+i%5
		vals = append(vals, &eventpb.SummaryValue{Tag: "samples", Value: &eventpb.SummaryValue_Image{
			Image: &eventpb.Image{Width: int32(w), Height: int32(h), Colorspace: 3, EncodedImageString: testPNG(t, w, h, uint8(i))}}})
		vals = append(vals, &eventpb.SummaryValue{Tag: "speech", Value: &eventpb.SummaryValue_Audio{
			Audio: &eventpb.Audio{SampleRate: 8000, NumChannels: 1, LengthFrames: 400, EncodedAudioString: testWAV(200+10*float64(i), 8000, 400), ContentType: "audio/wav"}}})
		vals = append(vals, &eventpb.SummaryValue{Tag: "notes", Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "text"}},
			Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_STRING, TensorShape: shape(),
				StringVal: [][]byte{fmt.Appendf(nil, "run **%d** of the sweep", i)}}}})
		pr := []float32{5, 3, 1, 5, 2, 0, 0, 3, 5, 0, 2, 4, 0.5, 0.6, 1, 1, 0.6, 0.2}
		pr[0] += float32(i)
		vals = append(vals, &eventpb.SummaryValue{Tag: "pr", Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "pr_curves"}},
			Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_FLOAT, TensorShape: shape(6, 3), FloatVal: pr}}})
		evs := []*eventpb.Event{summaryEvent(1, 0, vals...)}
		for step := range int64(2) {
			x := float32(i) + float32(step)
			evs = append(evs, summaryEvent(step, 0.5, &eventpb.SummaryValue{Tag: "activations", Value: &eventpb.SummaryValue_Tensor{
				Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_FLOAT, TensorShape: shape(4), FloatVal: []float32{x, 2 * x, -x, 0.5}}}}))
		}
		writeEventFile(t, filepath.Join(dir, fmt.Sprintf("trial%03d", i), "events.out.tfevents.1700000000.host"), evs)
	}
	return dir
}

// cardsTimeout is how long reading a page's cards, or loading the runs
// left out, may take: the page scripts wait for the state (each card
// drawn, each script in), this bounds a wait that never ends, 40 cards
// on a busy machine.
const cardsTimeout = time.Minute

// cutPage is render's: how many runs a script of the runs left out holds.
const cutPage = 24

type moreCard struct {
	Tag, Run, Text string
	Hidden         bool
	Images         []string
	Charts         int
}

type moreButton struct {
	Tag, Status string
	Shown       bool
}

var demandNoteRE = regexp.MustCompile(`This tag shows the first (\d+) of (\d+) runs within the page's budget .* load on demand`)

func TestBrowserEveryCardPageLoadsTheRunsItLeavesOut(t *testing.T) {
	t.Parallel()
	const runs, budget = 40, 28000
	shots := screenshotDir(t)
	logs := writeCardSweep(t, runs)
	full := buildReport(t, logs)
	cut := buildReport(t, logs, "--max-page-bytes", fmt.Sprint(budget))
	// The pages side by side, each in a browser context of its own opened
	// when it runs: one budget (browserBudget) for all six ran out on the
	// busy machine (145 s of it spent in a row).
	for _, page := range []string{"images", "audio", "text", "tensors", "pr_curves", "exceptions"} {
		t.Run(page, func(t *testing.T) {
			t.Parallel()
			browser := startBrowser(t)
			if fi, err := os.Stat(filepath.Join(cut.site, page+".html")); err != nil || fi.Size() > budget {
				t.Fatalf("%s.html: %v, %v bytes, want at most %d", page, err, fi.Size(), budget)
			}
			all := evalWithin[[]moreCard](openTab(t, browser, fileURL(filepath.Join(full.site, page+".html"), "")), pageJS("moreruns.js", "cards", page), cardsTimeout)
			want := map[string]moreCard{}
			for _, c := range all {
				want[c.Tag+"\x00"+c.Run] = c
			}
			if len(all) != runs || len(want) != runs {
				t.Fatalf("%d cards without a budget, want %d", len(all), runs)
			}
			tb := openTab(t, browser, fileURL(filepath.Join(cut.site, page+".html"), ""))
			first := evalWithin[[]moreCard](tb, pageJS("moreruns.js", "cards", page), cardsTimeout)
			if len(first) == 0 || len(first) >= runs {
				t.Fatalf("%d cards over the budget, want 1 to %d", len(first), runs-1)
			}
			note := eval[string](tb, `document.querySelector('main.page p.budget-cut').textContent`)
			if m := demandNoteRE.FindStringSubmatch(note); m == nil || m[1] != fmt.Sprint(len(first)) || m[2] != fmt.Sprint(runs) {
				t.Errorf("note %q, want it to say the first %d of %d runs show and the others load on demand", note, len(first), runs)
			}
			buttons := eval[[]moreButton](tb, pageJS("moreruns.js", "more", page))
			if left := fmt.Sprintf("%d more", runs-len(first)); len(buttons) != 1 || !buttons[0].Shown || buttons[0].Status != left {
				t.Errorf("buttons %+v, want one saying %q", buttons, left)
			}
			tb.screenshot(shots, "moreruns-"+page)
			took := evalWithin[map[string]int](tb, pageJS("moreruns.js", "showMore", page, 10), cardsTimeout)
			if n := (runs - len(first) + cutPage - 1) / cutPage; len(took) != 1 || took[first[0].Tag] != n {
				t.Errorf("clicks %v, want %d", took, n)
			}
			got := evalWithin[[]moreCard](tb, pageJS("moreruns.js", "cards", page), cardsTimeout)
			tb.screenshot(shots, "moreruns-"+page+"-all")
			if len(got) != runs {
				t.Fatalf("%d cards after Show more runs, want %d", len(got), runs)
			}
			for i, c := range got {
				w := want[c.Tag+"\x00"+c.Run]
				if c.Run != all[i].Run || c.Text != w.Text || strings.Join(c.Images, ",") != strings.Join(w.Images, ",") || c.Charts != w.Charts || c.Hidden {
					t.Errorf("card %d: %+v,\nwithout a budget %+v", i, c, w)
				}
			}
			if b := eval[[]moreButton](tb, pageJS("moreruns.js", "more", page)); len(b) != 1 || b[0].Shown {
				t.Errorf("button after every run loaded: %+v", b)
			}

			// The Runs filter on a fresh page: a run left out loads (its
			// script only) and shows; then a filter matching more of them
			// says how many are left.
			tb = openTab(t, browser, fileURL(filepath.Join(cut.site, page+".html"), ""))
			last := fmt.Sprintf("trial%03d", runs-1)
			eval[any](tb, pageJS("moreruns.js", "filter", page, last+"$"))
			waitFor(tb, fmt.Sprintf(`!!document.querySelector('main.page [data-filter-run=%q]:not([hidden])')`, last), 10*time.Second, "the left-out run the filter matches")
			shown := 0
			for _, c := range evalWithin[[]moreCard](tb, pageJS("moreruns.js", "cards", page), cardsTimeout) {
				if !c.Hidden {
					shown++
					if w := want[c.Tag+"\x00"+c.Run]; c.Run != last || c.Text != w.Text || strings.Join(c.Images, ",") != strings.Join(w.Images, ",") {
						t.Errorf("filtered for %s: %+v, without a budget %+v", last, c, w)
					}
				}
			}
			if shown != 1 {
				t.Errorf("%d cards shown for the filter %s$, want 1", shown, last)
			}
			loaded := loadedScripts(tb, "/_cut/")
			if script := fmt.Sprintf("/%d.js", (runs-1-len(first))/cutPage); len(loaded) != 2 ||
				!strings.HasSuffix(loaded[0], "/runs.js") || !strings.HasSuffix(loaded[1], script) {
				t.Errorf("loaded %q, want the list of runs and the one script holding %s", loaded, last)
			}
			// The even runs: the first drawn is one, so that nothing loads by
			// itself; the button counts those in the scripts not loaded.
			f, lastScript, left := len(first), (runs-1-len(first))/cutPage, 0
			for r := f; r < runs; r += 1 {
				if r%2 == 0 && (r-f)/cutPage != lastScript {
					left++
				}
			}
			status := fmt.Sprintf("%d of the %d more match the Runs filter", left, runs-f-min(cutPage, runs-f-lastScript*cutPage))
			eval[any](tb, pageJS("moreruns.js", "filter", page, "[02468]$"))
			if !eventually(tb, pageJS("moreruns.js", "more", page)+fmt.Sprintf(`[0].status === %q`, status), 10*time.Second) {
				t.Errorf("button with the filter [02468]$: %+v, want %q", eval[[]moreButton](tb, pageJS("moreruns.js", "more", page)), status)
			}
		})
	}
}

// TestBrowserSingleFileOverItsBudget opens the single file of the card
// sweep written under a budget its pages pass: the overview says which
// pages it leaves out, and such a page, opened from the navigation's link,
// says so and names the site's file; no console error.
func TestBrowserSingleFileOverItsBudget(t *testing.T) {
	t.Parallel()
	const budget = 1_500_000 // the scripts and styles are some 1.2 MB
	browser := startBrowser(t)
	r := buildReport(t, writeCardSweep(t, 40), "--max-single-file-bytes", fmt.Sprint(budget))
	if fi, err := os.Stat(r.single); err != nil || fi.Size() > budget {
		t.Fatalf("%s: %v, %v bytes, over %d", r.single, err, fi.Size(), budget)
	}
	tb := openTab(t, browser, fileURL(r.single, "page=index"))
	note := eval[string](tb, `(() => { const p = document.querySelector('main.page[data-page="index"] p.single-cut'); return p && p.getClientRects().length ? p.textContent : ""; })()`)
	m := regexp.MustCompile(`leaves out (\d+) of its pages .*--max-single-file-bytes\): (.*)\. The site has (?:it|them)\.`).FindStringSubmatch(note)
	if m == nil {
		t.Fatalf("the overview's note %q does not say which pages the file leaves out", note)
	}
	left := strings.Split(m[2], ", ")
	if m[1] != fmt.Sprint(len(left)) {
		t.Errorf("note %q: %s pages, lists %d", note, m[1], len(left))
	}
	for _, title := range left {
		name := eval[string](tb, fmt.Sprintf(`(() => { const a = [...document.querySelectorAll('header.top nav a')].find(a => a.textContent === %q); if (!a) return ""; a.click(); return a.getAttribute("data-page"); })()`, title))
		if name == "" {
			t.Fatalf("no link to the page %q left out", title)
		}
		waitFor(tb, fmt.Sprintf(`(() => { const p = document.querySelector('main.page[data-page=%q] p.single-cut'); return !!p && p.getClientRects().length > 0 && p.textContent.includes("the site's %s.html has it"); })()`, name, name), 10*time.Second, "the note of the page "+title)
	}
}

// loadedScripts returns the local URLs the tab loaded that hold part,
// each from part on.
func loadedScripts(tb *tab, part string) []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var out []string
	for _, u := range tb.local {
		if i := strings.Index(u, part); i >= 0 {
			out = append(out, u[i:])
		}
	}
	return out
}
