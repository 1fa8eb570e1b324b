package render

import (
	"fmt"
	"html"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
)

// section returns the HTML of index.html from the heading with id to the
// next heading.
func section(t *testing.T, page, id string) string {
	t.Helper()
	i := strings.Index(page, `<h2 id="`+id+`">`)
	if i < 0 {
		t.Fatalf("index.html has no section %s", id)
	}
	s := page[i+4:]
	if j := strings.Index(s, "<h2"); j >= 0 {
		s = s[:j]
	}
	return s
}

// The overview names every file skipped or read in part with its status
// and why (its first warning, else what the status means), grouped per
// run, the first 50 of them and a count of the others; refusals of the
// log directory (links, FIFOs) too; and the lead says how many.
func TestOverviewNamesSkippedFiles(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": {1, 2}}, "b<i>": {"loss": {1}}})
	a, b := rep.Runs[0], rep.Runs[1]
	a.Files = append(a.Files,
		model.File{Rel: "a/events.out.tfevents.2.host", Status: "empty"},
		model.File{Rel: "a/events.out.tfevents.3.host.profile-empty", Status: "profile-empty"})
	b.Files[0].Status = "truncated"
	b.Warnings = []model.Warning{{File: b.Files[0].Rel, Offset: 1234, Msg: "truncated record: the file ends in the record's checksum (0 of 4 bytes; its 10 data bytes are whole)"}}
	rep.Warnings = []model.Warning{{File: "logs/a/events.out.tfevents.9.fifo", Offset: -1, Msg: "not a regular file (named pipe): not read"}}
	page := string(filesByName(t, newReport(rep, Options{}))["index.html"])
	if !strings.Contains(page, `<a href="#skipped" class="warn">4 files skipped or read in part</a> (1 empty, 1 profile-empty, 1 truncated, 1 not read)`) {
		t.Errorf("the lead does not count the skipped files")
	}
	sec := html.UnescapeString(section(t, page, "skipped"))
	for _, want := range []string{
		"<b>a</b>", "<code>a/events.out.tfevents.2.host</code>", ">empty</span> zero-byte file: nothing was written",
		">profile-empty</span> profiler marker file, holds no summaries",
		"<b>b<i></b>", // escaped in the page; unescaped here
		">truncated</span> offset 1234: truncated record: the file ends in the record's checksum (0 of 4 bytes; its 10 data bytes are whole)",
		"<b>log directories</b>", "<code>logs/a/events.out.tfevents.9.fifo</code>", ">not read</span> not a regular file (named pipe): not read",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("skipped files section lacks %q:\n%s", want, sec)
		}
	}
	if strings.Contains(page, "<b>b<i></b>") {
		t.Errorf("a run name reaches the page unescaped")
	}

	// 60 empty files: 50 named, and a count of the others.
	for i := range 60 {
		a.Files = append(a.Files, model.File{Rel: fmt.Sprintf("a/events.out.tfevents.%d.more", 100+i), Status: "empty"})
	}
	sec = section(t, string(filesByName(t, newReport(rep, Options{}))["index.html"]), "skipped")
	if n := strings.Count(sec, "<code>"); n != maxSkippedListed+1 { // and "trainreport inspect"
		t.Errorf("%d files named, want %d", n-1, maxSkippedListed)
	}
	if !strings.Contains(sec, "and 14 more files;") {
		t.Errorf("no count of the files left out:\n%s", sec)
	}
}

// The kinds the analysis counts as drawn (analysis.DrawnKinds, which
// inspect reads too) are those of pageTable, so that a page that draws a
// kind removes its "not drawn" line; the overview lists what is left.
func TestUndrawnFollowsPageTable(t *testing.T) {
	var pages []model.Kind
	for _, pg := range pageTable {
		pages = append(pages, pg.kinds...)
	}
	slices.Sort(pages)
	pages = slices.Compact(pages)
	drawn := analysis.DrawnKinds()
	slices.Sort(drawn)
	if !slices.Equal(pages, drawn) {
		t.Errorf("pageTable draws %q, analysis.DrawnKinds says %q", pages, drawn)
	}

	rep := synthetic(map[string]map[string][]float64{"a": {"loss": {1}}, "b": {"loss": {1}}})
	a := rep.Runs[0]
	a.Graphs = []*model.Graph{{Source: model.GraphSource("graph_def")}, {Source: model.GraphSource("graph_def"), Tag: "keras"}}
	a.Embeddings = []*model.Embedding{{Name: "embed0"}}
	a.Layout = &model.Layout{}
	a.Tags = []model.TagInfo{{Tag: "keras", Kind: model.KindGraph}, {Tag: "odd", Kind: model.KindOther}, {Tag: "loss", Kind: model.KindScalar}}
	idx := string(filesByName(t, newReport(rep, Options{}))["index.html"])
	if !strings.Contains(section(t, idx, "not-drawn"), "<li><b>a</b>: 1 tag of kind other: not drawn yet</li>") {
		t.Errorf("the overview does not list run a's undrawn data:\n%s", section(t, idx, "not-drawn"))
	}
}

// A side file read in part (a projector config) is named with the event
// files of its run: its embeddings are lost.
func TestSkippedFilesNameSideFiles(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": {1}}})
	rep.Runs[0].SideFiles = []model.File{{Rel: "a/projector_config.pbtxt", Status: "damaged"}}
	rep.Runs[0].Warnings = []model.Warning{{File: "a/projector_config.pbtxt", Offset: -1, Msg: "not a projector config"}}
	s := skippedFiles(rep)
	if s.Total != 1 || s.ByStatus != "1 damaged" || !s.Bad || len(s.Groups) != 1 ||
		s.Groups[0].Files[0] != (skippedFile{Path: "a/projector_config.pbtxt", Status: "damaged", Why: "not a projector config"}) {
		t.Errorf("skippedFiles = %+v", s)
	}
}
