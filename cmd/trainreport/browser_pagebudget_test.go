package main

// The browser test of a page over its byte budget: a sweep whose
// histograms pass a small --max-page-bytes draws, per tag, the first runs
// that fit, each exactly as the page without a budget draws it, and says
// on the page how many runs it leaves out and where their data is; "Show
// more runs" then draws the others, a page at a time from their scripts,
// each exactly as the page without a budget draws it too.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

// writeHistogramSweep writes runs runs of two histogram tags of three
// steps, each run's counts its own.
func writeHistogramSweep(t *testing.T, runs int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range runs {
		run := filepath.Join(dir, fmt.Sprintf("trial%03d", i))
		if err := os.MkdirAll(run, 0o755); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		w := tfrecord.NewWriter(&b)
		for step := range int64(3) {
			var vals []*eventpb.SummaryValue
			for k, tag := range []string{"layer1/weights", "layer2/weights"} {
				h := &eventpb.HistogramProto{Min: -1, Max: 2, Num: 6, BucketLimit: []float64{0, 1, 2},
					Bucket: []float64{float64(1 + i%5), float64(step + int64(k) + 1), float64(i % 3)}}
				vals = append(vals, &eventpb.SummaryValue{Tag: tag, Value: &eventpb.SummaryValue_Histo{Histo: h}})
			}
			data, err := proto.Marshal(&eventpb.Event{WallTime: 1.7e9 + float64(step), Step: step,
				What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: vals}}})
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
	return dir
}

type budgetCharts struct {
	Charts []struct {
		Tag, Run, Series string
		Drawn            bool
	}
	Notes []struct {
		Text  string
		Shown bool
	}
}

var cutNoteRE = regexp.MustCompile(`This tag shows the first (\d+) of 60 runs .* load on demand .* data/(histograms|distributions)/<run>/<tag>\.json`)

func TestBrowserPageOverItsBudget(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logs := writeHistogramSweep(t, 60)
	full := buildReport(t, logs)
	cut := buildReport(t, logs, "--max-page-bytes", "48000")
	for _, page := range []string{"histograms", "distributions"} {
		t.Run(page, func(t *testing.T) {
			if fi, err := os.Stat(filepath.Join(cut.site, page+".html")); err != nil || fi.Size() > 48000 {
				t.Fatalf("%s.html: %v, %v bytes, want under 48,000", page, err, fi.Size())
			}
			all := eval[budgetCharts](openTab(t, browser, fileURL(filepath.Join(full.site, page+".html"), "")), pageJS("pagebudget.js", "drawnCharts", page))
			tb := openTab(t, browser, fileURL(filepath.Join(cut.site, page+".html"), ""))
			got := eval[budgetCharts](tb, pageJS("pagebudget.js", "drawnCharts", page))
			tb.screenshot(shots, "pagebudget-"+page)
			if len(all.Charts) != 120 || len(got.Charts) == 0 || len(got.Charts) >= 120 {
				t.Fatalf("%d charts over the budget, %d without, want fewer than 120 and 120", len(got.Charts), len(all.Charts))
			}
			want := map[string]string{}
			for _, c := range all.Charts {
				want[c.Tag+"\x00"+c.Run] = c.Series
			}
			for _, c := range got.Charts {
				if !c.Drawn || c.Series == "" || c.Series != want[c.Tag+"\x00"+c.Run] {
					t.Errorf("%s of %s: drawn %v, draws %.200s, without a budget %.200s", c.Tag, c.Run, c.Drawn, c.Series, want[c.Tag+"\x00"+c.Run])
				}
			}
			// The first runs of each tag, as many for each, as the notes say.
			if len(got.Notes) != 2 {
				t.Fatalf("%d notes, want one per tag: %+v", len(got.Notes), got.Notes)
			}
			for _, n := range got.Notes {
				m := cutNoteRE.FindStringSubmatch(n.Text)
				if m == nil || !n.Shown || m[2] != page {
					t.Errorf("note %q (shown %v) does not say what the page leaves out", n.Text, n.Shown)
					continue
				}
				if shown := fmt.Sprint(len(got.Charts) / 2); m[1] != shown || !strings.HasPrefix(got.Charts[0].Run, "trial000") {
					t.Errorf("note says %s runs, the page draws %d charts from %s", m[1], len(got.Charts), got.Charts[0].Run)
				}
			}
			// The other runs, on demand: 24 a click (render's cutPage), each
			// tag's button gone when it drew them all, every chart as the
			// page without a budget draws it.
			more := eval[struct {
				Took           map[string]int
				Cards, Buttons int
			}](tb, pageJS("pagebudget.js", "showMore", page, 10))
			left := 60 - len(got.Charts)/2
			if want := (left + 23) / 24; more.Cards != 120 || more.Buttons != 0 || len(more.Took) != 2 ||
				more.Took["layer1/weights"] != want || more.Took["layer2/weights"] != want {
				t.Fatalf("after Show more runs: %+v, want 120 cards, no button, %d clicks per tag", more, want)
			}
			loaded := eval[budgetCharts](tb, pageJS("pagebudget.js", "drawnCharts", page))
			tb.screenshot(shots, "pagebudget-"+page+"-more")
			if len(loaded.Charts) != 120 {
				t.Fatalf("%d charts after loading the others, want 120", len(loaded.Charts))
			}
			for i, c := range loaded.Charts {
				if !c.Drawn || c.Series == "" || c.Series != want[c.Tag+"\x00"+c.Run] {
					t.Errorf("%s of %s: drawn %v, draws %.200s, without a budget %.200s", c.Tag, c.Run, c.Drawn, c.Series, want[c.Tag+"\x00"+c.Run])
				}
				if w := all.Charts[i]; c.Tag != w.Tag || c.Run != w.Run {
					t.Errorf("chart %d: %s of %s, without a budget %s of %s", i, c.Tag, c.Run, w.Tag, w.Run)
				}
			}
		})
	}
}
