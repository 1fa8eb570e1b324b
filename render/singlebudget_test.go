package render

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/assets"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/testsupport"
)

// singleSections returns the content of each page's section of a single
// file, by page.
func singleSections(t *testing.T, doc []byte) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, m := range pageSection.FindAllSubmatchIndex(doc, -1) {
		end := bytes.Index(doc[m[1]:], []byte("</main>"))
		if end < 0 {
			t.Fatalf("section %s has no end", doc[m[2]:m[3]])
		}
		out[string(doc[m[2]:m[3]])] = string(doc[m[1] : m[1]+end])
	}
	return out
}

var singleCutNote = regexp.MustCompile(`This page \(([^)]*)\) is left out of this single file, which keeps under its budget of ([^ ]+ [^ ]+) \(--max-single-file-bytes\): the site's <code>([a-z_]+)\.html</code> has it\.`)

// TestSingleFileKeepsUnderItsBudget writes the single file of a sweep with
// every kind of page under a budget of half its size and checks that it
// is under it, that the pages it keeps are those that fit in the
// navigation's order, each byte for byte as without a budget, that every
// page it leaves out says so and names the site's file, and that the
// overview lists them; and that a budget the file fits changes nothing.
func TestSingleFileKeepsUnderItsBudget(t *testing.T) {
	rep := everyKindReport(t, 300)
	var whole bytes.Buffer
	if err := newReport(rep, Options{MaxSingleFileBytes: -1}).WriteSingleFile(&whole); err != nil {
		t.Fatal(err)
	}
	all := singleSections(t, whole.Bytes())
	var fits bytes.Buffer
	if err := newReport(rep, Options{MaxSingleFileBytes: whole.Len()}).WriteSingleFile(&fits); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(fits.Bytes(), whole.Bytes()) {
		t.Errorf("a budget of its own size changes the single file: %d bytes, %d without a budget", fits.Len(), whole.Len())
	}
	budget := whole.Len() / 2
	var cut bytes.Buffer
	if err := newReport(rep, Options{MaxSingleFileBytes: budget}).WriteSingleFile(&cut); err != nil {
		t.Fatal(err)
	}
	t.Logf("single file: %s, %s under a budget of %s", fmtBytes(whole.Len()), fmtBytes(cut.Len()), fmtBytes(budget))
	if cut.Len() > budget {
		t.Fatalf("single file: %d bytes, over its budget of %d", cut.Len(), budget)
	}
	got := singleSections(t, cut.Bytes())
	if len(got) != len(all) {
		t.Fatalf("%d sections, %d without a budget: a page left out keeps its section", len(got), len(all))
	}
	var kept, left []string
	for name, s := range got {
		switch m := singleCutNote.FindStringSubmatch(s); {
		case s == all[name] || name == "index" && strings.HasSuffix(s, all[name]):
			kept = append(kept, name)
		case m != nil && m[3] == name && m[2] == fmtBytes(budget):
			left = append(left, name)
		default:
			t.Errorf("section %s: neither the page nor a note saying it is left out: %.300s", name, s)
		}
	}
	if len(kept) == 0 || len(left) == 0 {
		t.Fatalf("kept %q and left out %q, want some of each", kept, left)
	}
	if !strings.Contains(got["index"], "This single file leaves out "+result.FormatCount(len(left))+" of its pages") {
		t.Errorf("the overview does not say which pages are left out: %.400s", got["index"])
	}
	// Each page left out would not have fitted, in the navigation's
	// order: adding its content to what was kept passes the budget.
	for _, name := range left {
		if extra := len(all[name]) - len(got[name]); cut.Len()+extra <= budget {
			t.Errorf("%s left out, but %d more bytes fit in %d", name, extra, budget-cut.Len())
		}
	}
}

// TestSingleFileLeavesOutAPageWithItsScripts: the scripts only a page
// left out uses go with it. An embedding's report is its overview and its
// Embeddings page, which alone loads echarts-gl.min.js (640 KB): under a
// budget that holds the overview but not the page and that script, the
// file keeps under it, without the script; scripts shared with the pages
// kept stay.
func TestSingleFileLeavesOutAPageWithItsScripts(t *testing.T) {
	rep := collectDir(t, "proj", testsupport.TinyEmbeddings(t, 1))
	defer rep.Close()
	var whole bytes.Buffer
	if err := newReport(rep, Options{MaxSingleFileBytes: -1}).WriteSingleFile(&whole); err != nil {
		t.Fatal(err)
	}
	gl, err := assets.FS.ReadFile("echarts-gl.min.js")
	if err != nil {
		t.Fatal(err)
	}
	marker := gl[:200] // the script's opening: its licence and first lines
	if !bytes.Contains(whole.Bytes(), marker) {
		t.Fatalf("the single file without a budget lacks echarts-gl.min.js")
	}
	budget := whole.Len() - len(gl)/2
	var cut bytes.Buffer
	if err := newReport(rep, Options{MaxSingleFileBytes: budget}).WriteSingleFile(&cut); err != nil {
		t.Fatal(err)
	}
	t.Logf("single file: %s, %s under a budget of %s", fmtBytes(whole.Len()), fmtBytes(cut.Len()), fmtBytes(budget))
	if cut.Len() > budget {
		t.Errorf("single file: %d bytes, over its budget of %d: the page left out kept its scripts", cut.Len(), budget)
	}
	if bytes.Contains(cut.Bytes(), marker) {
		t.Errorf("the page is left out but echarts-gl.min.js is still in the file")
	}
	if m := singleCutNote.FindSubmatch(cut.Bytes()); m == nil || string(m[3]) != "embeddings" {
		t.Errorf("the file does not say the Embeddings page is left out")
	}
	for _, shared := range []string{"echarts.min.js", "app.js"} {
		js, err := assets.FS.ReadFile(shared)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(cut.Bytes(), js[:200]) {
			t.Errorf("%s, which every page uses, is left out", shared)
		}
	}
}
