package render

import (
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// TestNotesOpenTheOverviewAndSummary: the author's notes are rendered at
// the top of the overview, sanitised as the logs' text is (a script shown
// as text, no image loaded, no javascript: link), and written under the
// title of summary.md; a pull-request comment gives them at most a
// quarter of itself, cut at a paragraph's end with a line saying so, and
// the job summary keeps them whole.
func TestNotesOpenTheOverviewAndSummary(t *testing.T) {
	dir := t.TempDir()
	writeEvents(t, dir, "a", summaryEvent(0, &eventpb.SummaryValue{Tag: "loss", Value: &eventpb.SummaryValue_SimpleValue{SimpleValue: 1}}))
	rep := collectDir(t, "logs", dir)
	defer rep.Close()
	notes := "## Why\n\nA **sweep** of lr.\n\n<script>alert(1)</script>\n\n![x](http://evil.example/x.png) [y](javascript:alert(1))\n"
	files := filesByName(t, newReport(rep, Options{Title: "T", Notes: notes}))
	index := string(files["index.html"])
	i := strings.Index(index, `<section class="author-notes"`)
	if i < 0 || i > strings.Index(index, `<p class="lead">`) {
		t.Fatalf("the overview has no notes before its headline:\n%.2000s", index)
	}
	section := index[i : i+strings.Index(index[i:], "</section>")]
	for _, want := range []string{"<h2>Why</h2>", "A <strong>sweep</strong> of lr.", "&lt;script&gt;alert(1)&lt;/script&gt;", `<img src="" alt="x">`} {
		if !strings.Contains(section, want) {
			t.Errorf("notes on the overview lack %q:\n%s", want, section)
		}
	}
	if strings.Contains(section, "javascript:") || strings.Contains(section, "evil.example") {
		t.Errorf("notes on the overview keep a javascript: link or a remote image:\n%s", section)
	}
	if md := string(files["summary.md"]); !strings.HasPrefix(md, "# T\n\n"+strings.TrimSpace(notes)+"\n\n") {
		t.Errorf("summary.md does not open with the title and the notes:\n%.500s", md)
	}

	para := strings.Repeat("word ", 1000) // 5,000 characters
	long := strings.Repeat(para+"\n\n", 8)
	for _, form := range []MarkdownForm{MarkdownComment, MarkdownJob} {
		var b strings.Builder
		if err := newReport(rep, Options{Title: "T", Notes: long, MarkdownForm: form}).WriteMarkdown(&b); err != nil {
			t.Fatal(err)
		}
		md := b.String()
		switch form {
		case MarkdownComment:
			n := strings.Count(md, para)
			if n == 0 || n >= 4 || !strings.Contains(md, "*The notes go on in the overview (") {
				t.Errorf("comment: %d of 8 paragraphs of notes, want 1 to 3 and a line saying the rest is in the overview", n)
			}
		case MarkdownJob:
			if !strings.Contains(md, strings.TrimSpace(long)) || strings.Contains(md, "The notes go on") {
				t.Error("job summary: the notes are not whole")
			}
		}
	}
}
