package main

// Browser test of the overview's lists of the files skipped or read in
// part and of the data no page draws yet, on a real log with truncated
// files and graphs (tf1-estimator-truncated), in the site and the single
// file: each skipped file of the model is named with its status and why,
// each run's graphs are counted, and the lead's links lead to the lists.

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect"
)

type overviewLists struct {
	Note          string `json:"note"`
	NoteShown     bool   `json:"noteShown"`
	SkippedShown  bool   `json:"skippedShown"`
	NotDrawnShown bool   `json:"notDrawnShown"`
	Skipped       []struct {
		Run   string `json:"run"`
		Files []struct {
			Path, Status, Why string
			Shown             bool
		} `json:"files"`
	} `json:"skipped"`
	NotDrawn []string `json:"notDrawn"`
}

func TestBrowserOverviewNamesSkippedAndUndrawn(t *testing.T) {
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logdir := sharedCorpus(t, "tf1-estimator-truncated")
	r := buildReport(t, logdir)

	// The truth, from package collect: files not read whole, with their
	// first warning, and each run's graphs.
	rep := collectReport(t, logdir)
	type file struct{ run, path, status, why string }
	var skipped []file
	var graphs []string
	for _, run := range rep.Runs {
		for _, f := range run.Files {
			if f.Status == "ok" {
				continue
			}
			i := slices.IndexFunc(run.Warnings, func(w collect.Warning) bool { return w.File == f.Rel })
			if i < 0 {
				t.Fatalf("%s: no warning", f.Rel)
			}
			skipped = append(skipped, file{run.Name, f.Rel, f.Status, fmt.Sprintf("offset %d: %s", run.Warnings[i].Offset, run.Warnings[i].Msg)})
		}
		if n := len(run.Graphs); n > 0 {
			graphs = append(graphs, fmt.Sprintf("%s: %d graphs: not drawn yet", run.Name, n))
		}
	}
	if len(skipped) != 2 || len(graphs) != 3 {
		t.Fatalf("the corpus changed: %d skipped files, %d runs with graphs", len(skipped), len(graphs))
	}

	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "index.html"), "")},
		{"single-file", fileURL(r.single, "page=index")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			got := eval[overviewLists](tb, pageJS("overview.js", "lists"))
			if want := "2 files skipped or read in part (2 truncated) · 6 graphs: not drawn yet"; !got.NoteShown || got.Note != want {
				t.Errorf("lead note %q (shown %v), want %q", got.Note, got.NoteShown, want)
			}
			var seen []file
			for _, g := range got.Skipped {
				for _, f := range g.Files {
					if !f.Shown {
						t.Errorf("%s is not shown", f.Path)
					}
					seen = append(seen, file{g.Run, f.Path, f.Status, f.Why})
				}
			}
			if !got.SkippedShown || !slices.Equal(seen, skipped) {
				t.Errorf("skipped files (shown %v):\n%q\nwant\n%q", got.SkippedShown, seen, skipped)
			}
			if !got.NotDrawnShown || !slices.Equal(got.NotDrawn, graphs) {
				t.Errorf("not drawn (shown %v): %q, want %q", got.NotDrawnShown, got.NotDrawn, graphs)
			}
			for _, w := range skipped {
				if !strings.Contains(w.why, "the file ends in the record's data") {
					t.Errorf("%s: %q does not say where the file ends", w.path, w.why)
				}
			}
			tb.screenshot(shots, "overview-lists-"+c.name)
			for _, id := range []string{"skipped", "not-drawn"} {
				if msg := eval[string](tb, pageJS("overview.js", "follow", id)); msg != "" {
					t.Errorf("following the lead's link: %s", msg)
				}
			}
		})
	}
}
