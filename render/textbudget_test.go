package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// textReport is a report of one run with one text tag of the entries.
func textReport(entries ...model.TextEntry) *model.Report {
	return &model.Report{Runs: []*model.Run{{Name: "run", Path: "run",
		Texts: []*model.Text{{Tag: "text", Plugin: "text", Entries: entries}}}}}
}

// wideTable is a GFM table of cols header columns over rows one-cell
// rows, which goldmark pads to cols cells each: a few kilobytes of source
// for cols x (rows + 1) cells.
func wideTable(cols, rows int) string {
	return strings.Repeat("|h", cols) + "|\n" + strings.Repeat("|-", cols) + "|\n" + strings.Repeat("|x|\n", rows)
}

// TestTextStepBudgetCutsWideTables renders 50 steps of a text summary
// holding a table of 1,000 header columns over 1,000 rows (a million
// cells each, 80 MB of page before): each step shows 10,000 cells with a
// note saying what was cut, and the page stays within its card's budget.
func TestTextStepBudgetCutsWideTables(t *testing.T) {
	src := wideTable(1000, 1000)
	var es []model.TextEntry
	for i := range 50 {
		es = append(es, model.TextEntry{Step: int64(i), Values: []string{src}})
	}
	r := newReport(textReport(es...), Options{})
	p, err := r.textPage(false)
	if err != nil {
		t.Fatal(err)
	}
	last := p.Tags[0].Cards[0].Steps[49]
	html := string(last.Block)
	if n := strings.Count(html, "<td>"); n+strings.Count(html, "<th>") != mdStepCells {
		t.Errorf("last step shows %d body cells, want %d cells in all", n, mdStepCells)
	}
	if !strings.Contains(html, "Table cut to 9 of 1,000 rows and 1,000 of 1,000 columns") {
		t.Errorf("no note on the cut table: %.300s", html[max(0, len(html)-300):])
	}
	page := filesByName(t, r)["text.html"]
	t.Logf("text.html: %s", fmtBytes(len(page)))
	if len(page) > textCardBytes+64<<10 {
		t.Errorf("text.html is %s, over the card's budget of %s", fmtBytes(len(page)), fmtBytes(textCardBytes))
	}
	if !strings.Contains(string(page), "Not shown: this card already holds 4 MiB of text") {
		t.Error("a full card does not say it left steps out")
	}
}

// TestTextStepBudgetCutsTablesOfManyColumns checks a table whose header
// alone passes the budget: it keeps the columns that fit, with no body.
func TestTextStepBudgetCutsTablesOfManyColumns(t *testing.T) {
	h := string(newMarkdown().render(wideTable(20_000, 3), newBudget(mdStepCells, mdStepBytes)))
	if n := strings.Count(h, "<th>"); n != mdStepCells || strings.Contains(h, "<td>") {
		t.Errorf("%d header cells and %d body cells, want %d and none", n, strings.Count(h, "<td>"), mdStepCells)
	}
	if !strings.Contains(h, "Table cut to 0 of 3 rows and 10,000 of 20,000 columns") {
		t.Errorf("no note: %.200s", h[max(0, len(h)-200):])
	}
	// A second table finds the budget spent: it becomes its note.
	h = string(newMarkdown().render(wideTable(100, 99)+"\n"+wideTable(10, 10), newBudget(mdStepCells, mdStepBytes)))
	if !strings.Contains(h, "Table cut to 0 of 10 rows and 0 of 10 columns") || strings.Count(h, "<table>") != 1 {
		t.Errorf("second table over the budget: %.300s", h[max(0, len(h)-300):])
	}
}

// TestTextStepBudgetOfAMillionStrings renders a rank-1 string tensor of a
// million empty strings (and one of a million distinct ones): each step
// shows 10,000 rows and says so, and the page stays small.
func TestTextStepBudgetOfAMillionStrings(t *testing.T) {
	empty := make([]string, 1_000_000)
	distinct := make([]string, 1_000_000)
	for i := range distinct {
		distinct[i] = fmt.Sprint(i)
	}
	r := newReport(textReport(
		model.TextEntry{Step: 1, Shape: []int64{1_000_000}, Values: empty},
		model.TextEntry{Step: 2, Shape: []int64{1_000_000}, Values: distinct},
		model.TextEntry{Step: 3, Shape: []int64{1000, 1000}, Values: distinct},
	), Options{})
	p, err := r.textPage(false)
	if err != nil {
		t.Fatal(err)
	}
	steps := p.Tags[0].Cards[0].Steps
	for i, want := range []string{
		"Showing 10,000 of 1,000,000 rows and 1 of 1 columns",
		"Showing 10,000 of 1,000,000 rows and 1 of 1 columns",
		"Showing 10 of 1,000 rows and 1,000 of 1,000 columns",
	} {
		if !strings.HasPrefix(steps[i].Note, want) {
			t.Errorf("step %d: note %q, want %q", i+1, steps[i].Note, want)
		}
	}
	if len(steps[0].Rows) != 10_000 || len(steps[2].Rows) != 10 || len(steps[2].Rows[0]) != 1000 {
		t.Errorf("rows shown: %d, %d x %d", len(steps[0].Rows), len(steps[2].Rows), len(steps[2].Rows[0]))
	}
	page := filesByName(t, r)["text.html"]
	t.Logf("text.html: %s", fmtBytes(len(page)))
	if len(page) > 3*(mdStepBytes+10_000*len("<td></td>"))+64<<10 {
		t.Errorf("text.html is %s", fmtBytes(len(page)))
	}
}

// TestTextStepBudgetBoundsRenderedBytes checks the byte budget: a source
// longer than a step's budget, and a short one that renders to far more
// (a reference link repeating a long URL), show the start of their source
// as text with a note, within the budget.
func TestTextStepBudgetBoundsRenderedBytes(t *testing.T) {
	md := newMarkdown()
	long := strings.Repeat("word ", mdStepBytes/4)
	h := string(md.render(long, newBudget(mdStepCells, mdStepBytes)))
	if !strings.Contains(h, "Cut: this text is 320 KiB, over the budget of 256 KiB") || len(h) > mdStepBytes {
		t.Errorf("long text: %d bytes, %.200s", len(h), h)
	}
	refs := "[r]: https://x.example/" + strings.Repeat("a", 4000) + "\n\n" + strings.Repeat("[a][r] ", 30_000)
	if len(refs) > mdStepBytes {
		t.Fatalf("source of %d bytes, meant to fit the budget", len(refs))
	}
	b := newBudget(mdStepCells, mdStepBytes)
	h = string(md.render(refs, b))
	if !strings.Contains(h, "Cut: this text renders to more than 256 KiB") || len(h) > mdStepBytes || b.bytes != mdStepBytes-len(h) {
		t.Errorf("reference links: %d bytes (budget left %d), %.200s", len(h), b.bytes, h)
	}
	inert(t, "cut text", h+string(md.render("<script>alert(1)</script>"+long, newBudget(mdStepCells, mdStepBytes))))
	// An audio label has a smaller budget.
	if h := string(md.HTML(wideTable(100, 100))); !strings.Contains(h, "this text shows at most 1,000 table cells") {
		t.Errorf("label table not cut: %.200s", h)
	}
}
