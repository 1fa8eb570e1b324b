package main

// Browser test of the PR curves page on the real writers' fixtures
// (tensorboardX, TF2, torch), from file:// with the network blocked, in
// the site and in the single-file report: every card draws its last step,
// the slider redraws the curve of the step it picks, the tooltip gives a
// point's threshold and counts, and the filters work.

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBrowserPRCurves(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	writers := filepath.Join(repoRoot(t), "collect", "testdata", "writers")
	r := buildReport(t, filepath.Join(writers, "tf2"), filepath.Join(writers, "tensorboardx"), filepath.Join(writers, "torch"))
	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "pr_curves.html"), "")},
		{"single-file", fileURL(r.single, "page=pr_curves")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			waitFor(tb, pageJS("prcurves.js", "shown"), 10*time.Second, "the page")
			// 5 series: tensorboardX and torch write one tag raw and one
			// computed (torch only the computed), TF2 both.
			if n := eval[int](tb, pageJS("prcurves.js", "cards")); n != 5 {
				t.Fatalf("%d PR cards, want 5", n)
			}
			// Scrolled through, every card draws its last step: one point
			// per threshold with finite precision and recall, up to the
			// last threshold with TP + FP > 0 and none past it (the
			// writers store those as precision 0 or 1, recall 0: a false
			// line to the axis).
			type card struct {
				Run, Tag                         string
				Drawn, Expected, Beyond, Trimmed int
				Step                             string
			}
			read := func() []card {
				t.Helper()
				var out []card
				if err := json.Unmarshal([]byte(eval[string](tb, pageJS("prcurves.js", "read"))), &out); err != nil {
					t.Fatal(err)
				}
				return out
			}
			trimmed := 0
			for _, c := range read() {
				if c.Drawn <= 0 || c.Drawn != c.Expected {
					t.Errorf("%s %s: %d points drawn, want %d", c.Run, c.Tag, c.Drawn, c.Expected)
				}
				if c.Beyond > 0 {
					t.Errorf("%s %s: %d points drawn past the last threshold with TP + FP > 0", c.Run, c.Tag, c.Beyond)
				}
				trimmed += c.Trimmed
			}
			if trimmed == 0 {
				t.Error("no card has a threshold past its last with TP + FP > 0: the fixtures no longer test the trim")
			}
			// The slider picks the first step of the first card with more
			// than one; its curve is drawn, point for point.
			moved := eval[string](tb, pageJS("prcurves.js", "firstStep"))
			if moved != "" {
				t.Errorf("after moving a slider to its first step: %s", moved)
			}
			tip := eval[string](tb, pageJS("prcurves.js", "tip"))
			for _, want := range []string{"threshold", "precision", "recall", "TP", "FP", "TN", "FN"} {
				if !strings.Contains(tip, want) {
					t.Errorf("tooltip %q lacks %q", tip, want)
				}
			}
			tb.screenshot(shots, "prcurves-"+c.name)
			checkPageFilters(t, tb, "pr_curves")
		})
	}
}
