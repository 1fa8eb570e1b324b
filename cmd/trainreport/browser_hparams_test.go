package main

// Browser test of the HParams page, from file:// with the network blocked,
// in the site and in the single-file report, on the corpus's hparams logs
// and the writers' fixtures. What is drawn is checked against the page's
// data (testdata/js/hparams.js): every session's line passes through every
// axis inside it at its value's place, whatever session comes first; the
// columns shown at first are the hyperparameters that vary and the
// metrics; unticking a column takes away its axis, table column and
// matrix charts; brushing an axis leaves exactly the sessions within it in
// the table; the scatter matrix plots each metric against each varying
// hyperparameter, a point per session; tooltips name the session's run.

import (
	"path/filepath"
	"testing"
	"time"
)

func TestBrowserHParams(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	writers := filepath.Join(repoRoot(t), "collect", "testdata", "writers")
	for _, in := range []struct {
		name string
		logs []string // the first is the log directory, the others are given before it
		// constant is set when the logs hold hyperparameters with one
		// value in every session, which the page must leave out at first.
		constant bool
	}{
		// Sessions of three writers: many values missing, booleans, strings.
		{"mixed", []string{sharedCorpus(t, "tf2-hparams-api-experiment"), filepath.Join(writers, "tensorboardx"), filepath.Join(writers, "torch")}, false},
		{"keras", []string{sharedCorpus(t, "tf2-hparams-keras")}, false},
		// 25 sessions of 49 hyperparameters, paths among them, some constant.
		{"sweep", []string{sharedCorpus(t, "lightning-tbx-sweep")}, true},
	} {
		t.Run(in.name, func(t *testing.T) {
			r := buildReport(t, in.logs[0], in.logs[1:]...)
			for _, c := range []struct{ name, url string }{
				{"site", fileURL(filepath.Join(r.site, "hparams.html"), "")},
				{"single-file", fileURL(r.single, "page=hparams")},
			} {
				t.Run(c.name, func(t *testing.T) {
					tb := openTab(t, browser, c.url)
					waitFor(tb, pageJS("hparams.js", "chart"), 10*time.Second, "the charts")
					check := func(what string, problems []string) {
						t.Helper()
						for _, p := range problems {
							t.Errorf("%s: %s", what, p)
						}
					}
					check("lines on the axes", eval[[]string](tb, pageJS("hparams.js", "geometry")))
					type defaults struct {
						Problems []string
						Hidden   int
					}
					d := eval[defaults](tb, pageJS("hparams.js", "defaults"))
					check("default columns", d.Problems)
					if in.constant && d.Hidden == 0 {
						t.Errorf("default columns: every column shown, want the constant hyperparameters left out")
					}
					check("scatter matrix", eval[[]string](tb, pageJS("hparams.js", "matrix")))
					check("tooltips", eval[[]string](tb, pageJS("hparams.js", "tooltips")))
					check("column chooser", eval[[]string](tb, pageJS("hparams.js", "toggle")))
					check("brushing", eval[[]string](tb, pageJS("hparams.js", "brush")))
					sorted := eval[[]float64](tb, pageJS("hparams.js", "sort"))
					if len(sorted) < 2 {
						t.Errorf("sorted metric column holds %v", sorted)
					}
					for i := 1; i < len(sorted); i++ {
						if sorted[i] < sorted[i-1] {
							t.Errorf("metric column not sorted ascending: %v", sorted)
							break
						}
					}
					tb.screenshot(shots, "hparams-"+in.name+"-"+c.name)
				})
			}
		})
	}
}
