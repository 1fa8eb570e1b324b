package main

// Browser test of the overview's lists of the files skipped or read in
// part and of the graphs, on a real log with truncated files and graphs
// (tf1-estimator-truncated), in the site and the single file: each
// skipped file of the model is named with its status and why, each graph
// is listed with its node and edge counts and a link to its view, nothing
// is listed as not drawn, and the lead's link leads to the list of files.

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/internal/analysis"
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
	Graphs   []string `json:"graphs"`
}

func TestBrowserOverviewNamesSkippedAndUndrawn(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logdir := sharedCorpus(t, "tf1-estimator-truncated")
	r := reportOf(t, logdir)

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
			i := slices.IndexFunc(run.Warnings, func(w model.Warning) bool { return w.File == f.Rel })
			if i < 0 {
				t.Fatalf("%s: no warning", f.Rel)
			}
			skipped = append(skipped, file{run.Name, f.Rel, f.Status, fmt.Sprintf("offset %d: %s", run.Warnings[i].Offset, run.Warnings[i].Msg)})
		}
		for _, g := range analysis.GraphCounts(run) {
			graphs = append(graphs, fmt.Sprintf("%s | op graph%s | %s | %s", run.Name, map[string]string{"meta_graph_def": " (meta graph)"}[g.Source], fmtThousands(int64(g.Nodes)), fmtThousands(int64(g.Edges))))
		}
	}
	if len(skipped) != 2 || len(graphs) != 6 {
		t.Fatalf("the corpus changed: %d skipped files, %d runs with graphs", len(skipped), len(graphs))
	}

	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "index.html"), "")},
		{"single-file", fileURL(r.single, "page=index")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			got := eval[overviewLists](tb, pageJS("overview.js", "lists"))
			if want := "2 files skipped or read in part (2 truncated)"; !got.NoteShown || got.Note != want {
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
			if got.NotDrawnShown || len(got.NotDrawn) > 0 {
				t.Errorf("not drawn (shown %v): %q, want nothing: the graphs page draws the graphs", got.NotDrawnShown, got.NotDrawn)
			}
			var rows []string
			for _, g := range got.Graphs {
				row, href, _ := strings.Cut(g, " -> ")
				rows = append(rows, row)
				if !strings.Contains(href, "graph=graphs") {
					t.Errorf("graph %s links to %q, not to its view", row, href)
				}
			}
			if !slices.Equal(rows, graphs) {
				t.Errorf("graphs:\n%q\nwant\n%q", rows, graphs)
			}
			for _, w := range skipped {
				if !strings.Contains(w.why, "the file ends in the record's data") {
					t.Errorf("%s: %q does not say where the file ends", w.path, w.why)
				}
			}
			tb.screenshot(shots, "overview-lists-"+c.name)
			for _, id := range []string{"skipped"} {
				if msg := eval[string](tb, pageJS("overview.js", "follow", id)); msg != "" {
					t.Errorf("following the lead's link: %s", msg)
				}
			}
		})
	}
}
