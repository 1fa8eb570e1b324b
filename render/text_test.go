package render

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"golang.org/x/net/html"

	"github.com/trainreport/trainreport/collect"
)

// hostileText are text summaries that try to run script or load something.
var hostileText = []string{
	"<script>alert(1)</script>",
	"[click](javascript:alert(2)) and [mixed](JaVaScRiPt:alert(3))",
	`<img src=x onerror="alert(4)">`,
	`<a href="javascript:alert(5)">raw link</a>`,
	"<div onclick=\"alert(6)\">\nblock\n</div>",
	"![remote](https://example.com/pixel.png)",
	"<iframe src=\"https://example.com\"></iframe>",
}

// inert checks, by parsing it, that rendered HTML holds no element that
// can run script or make a request: no script, iframe, object, embed,
// style, link, meta or base element, no on* attribute, no javascript:
// URL, and no src that is not empty.
func inert(t *testing.T, what, h string) {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(h))
	if err != nil {
		t.Fatal(err)
	}
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
		if n.Type != html.ElementNode {
			return
		}
		if n.Data == "script" && len(n.Attr) == 2 && n.Attr[0].Key == "type" && n.Attr[0].Val == "application/json" && n.Attr[1].Key == "class" {
			return // a page's data block, which html/template escapes
		}
		switch n.Data {
		case "script", "iframe", "object", "embed", "style", "link", "meta", "base":
			t.Errorf("%s: rendered HTML holds a %s element", what, n.Data)
		}
		for _, a := range n.Attr {
			v := strings.ToLower(strings.TrimSpace(a.Val))
			switch {
			case strings.HasPrefix(a.Key, "on"):
				t.Errorf("%s: <%s %s=%q>", what, n.Data, a.Key, a.Val)
			case strings.Contains(v, "javascript:"):
				t.Errorf("%s: <%s %s=%q>", what, n.Data, a.Key, a.Val)
			case a.Key == "src" && v != "":
				t.Errorf("%s: <%s src=%q> would load", what, n.Data, a.Val)
			}
		}
	}
	walk(doc)
}

func TestTextMarkdownInert(t *testing.T) {
	md := newMarkdown()
	for _, src := range hostileText {
		inert(t, src, string(md.HTML(src)))
	}
	// Raw HTML shows as text, as in TensorBoard, rather than vanishing.
	if got := string(md.HTML("a <b>bold</b> claim")); !strings.Contains(got, "&lt;b&gt;bold&lt;/b&gt;") {
		t.Errorf("raw inline HTML = %q, want it escaped", got)
	}
	if got := string(md.HTML("<div onclick=\"x()\">\nblock\n</div>")); !strings.Contains(got, "&lt;div onclick=") {
		t.Errorf("raw HTML block = %q, want it escaped", got)
	}
	// Markdown still renders.
	if got := string(md.HTML("| a |\n|---|\n| **b** |\n")); !strings.Contains(got, "<strong>b</strong>") || !strings.Contains(got, "<table>") {
		t.Errorf("table = %q", got)
	}
}

// TestTextPageInert renders text tensors of every rank holding hostileText
// strings and hostileText tag and run names, and checks the whole text page.
func TestTextPageInert(t *testing.T) {
	cell := strings.Join(hostileText, " ")
	run := &model.Run{Name: "<script>alert('run')</script>", Texts: []*model.Text{{
		Tag: `<img src=x onerror=alert("tag")>`, Plugin: "text",
		Entries: []model.TextEntry{
			{Step: 1, Values: hostileText[:1]},
			{Step: 2, Shape: []int64{int64(len(hostileText))}, Values: hostileText},
			{Step: 3, Shape: []int64{1, 2}, Values: []string{cell, "ok"}},
		},
	}}}
	r := newReport(&model.Report{Runs: []*model.Run{run}}, Options{})
	files := filesByName(t, r)
	page := string(files["text.html"])
	if page == "" {
		t.Fatal("no text.html")
	}
	main := page[strings.Index(page, `<main class="page" data-page="text">`):strings.Index(page, "</main>")]
	inert(t, "text page", main)
	if !strings.Contains(main, `<h2>&lt;img src=x onerror=alert(&#34;tag&#34;)&gt;</h2>`) {
		t.Error("the tag name is not shown as text")
	}
	if n := strings.Count(main, `class="text-step"`); n != 3 {
		t.Errorf("%d steps on the page, want 3", n)
	}
	if !strings.Contains(main, "<table class=\"text-table\">") {
		t.Error("no table for the rank-1 and rank-2 tensors")
	}
	for name := range files {
		if strings.Contains(name, "<") || strings.Contains(name, "'") {
			t.Errorf("file name from a hostileText name: %q", name)
		}
	}
}

// TestTextStepBudget checks that a long series is thinned on the page,
// evenly with the last step kept, and kept whole in its data file.
func TestTextStepBudget(t *testing.T) {
	var es []model.TextEntry
	for i := range 1000 {
		es = append(es, model.TextEntry{Step: int64(i), Values: []string{"s"}})
	}
	run := &model.Run{Name: "r", Texts: []*model.Text{{Tag: "t", Entries: es}}}
	r := newReport(&model.Report{Runs: []*model.Run{run}}, Options{})
	p, err := r.textPage(false)
	if err != nil {
		t.Fatal(err)
	}
	c := p.Tags[0].Cards[0]
	if len(c.Steps) != textPageSteps || c.Steps[len(c.Steps)-1].Step != 999 || c.Steps[0].Step != 0 || c.Label != "50 of 1,000 steps" {
		t.Errorf("card holds %d steps (%s), last %d", len(c.Steps), c.Label, c.Steps[len(c.Steps)-1].Step)
	}
	var files []file
	if _, err := r.textData(func(f file) error { files = append(files, f); return nil }); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(files[0].data), `"step":`); n != 1000 {
		t.Errorf("data file holds %d steps, want 1000", n)
	}
}

// collectWriters reads one of the writers' fixtures.
func collectWriters(t *testing.T, name string) *model.Report {
	t.Helper()
	rep, err := collect.Collect(context.Background(),
		[]model.Logdir{{Name: name, Path: filepath.Join("..", "collect", "testdata", "writers", name)}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestPRCurvesPages checks that the writers' fixtures that hold curves
// (tensorboardX's and torch's add_pr_curve, TF2's pr_curves summary, each
// also raw) have a PR curves page; their data files are pinned by
// TestGolden.
func TestPRCurvesPages(t *testing.T) {
	for _, w := range []string{"tensorboardx", "tf2", "torch"} {
		t.Run(w, func(t *testing.T) {
			files := filesByName(t, newReport(collectWriters(t, w), Options{Title: w}))
			if _, ok := files["pr_curves.html"]; !ok {
				t.Error("no PR curves page")
			}
		})
	}
}

// TestHParamsOverviewCount checks, for the corpus's TF2 hparams API
// experiment, Lightning's hparams.yaml and the writers' fixtures that hold
// sessions, that the overview counts the HParams page in sessions; their
// data/hparams.json is pinned by TestGolden.
func TestHParamsOverviewCount(t *testing.T) {
	inputs := map[string]func(t *testing.T) *model.Report{}
	for _, c := range []string{"tf2-hparams-api-experiment", "lightning-hparams-only"} {
		inputs[c] = func(t *testing.T) *model.Report { return collectDir(t, c, filepath.Join(corpus(t), c)) }
	}
	for _, w := range []string{"tensorboardx", "torch"} {
		inputs["writers-"+w] = func(t *testing.T) *model.Report { return collectWriters(t, w) }
	}
	for name, collectIt := range inputs {
		t.Run(name, func(t *testing.T) {
			files := filesByName(t, newReport(collectIt(t), Options{Title: name}))
			// The overview counts the page in sessions, not plugin tags.
			if !regexp.MustCompile(`HParams</a> <span class="muted">\d+ sessions? in \d+ runs?</span>`).Match(files["index.html"]) {
				t.Error("the overview does not count the HParams page's sessions")
			}
		})
	}
}

// TestTextPageCellBudget gives 16 runs of 50 steps of 4,000-cell tables
// (3.2M cells, what 855 KB of filled tensors yield): the page renders at
// most textPageCells of them and says where it stops; the data files hold
// every step.
func TestTextPageCellBudget(t *testing.T) {
	var runs []*model.Run
	for r := range 16 {
		var es []model.TextEntry
		for i := range 50 {
			es = append(es, model.TextEntry{Step: int64(i), Shape: []int64{4000}, Values: make([]string, 4000)})
		}
		runs = append(runs, &model.Run{Name: fmt.Sprintf("r%02d", r), Texts: []*model.Text{{Tag: "t", Entries: es}}})
	}
	p, err := newReport(&model.Report{Runs: runs}, Options{}).textPage(false)
	if err != nil {
		t.Fatal(err)
	}
	cells, notes := 0, 0
	for _, c := range p.Tags[0].Cards {
		for _, s := range c.Steps {
			for _, row := range s.Rows {
				cells += len(row)
			}
			if strings.Contains(s.Note, "this page already shows") {
				notes++
			}
		}
	}
	if cells > textPageCells || cells < textPageCells-4000 || notes == 0 {
		t.Errorf("page renders %d cells (budget %d) with %d notes", cells, textPageCells, notes)
	}
}
