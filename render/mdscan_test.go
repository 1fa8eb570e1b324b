package render

import (
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/model"

	"html/template"
)

// mdPatterns are inputs on which goldmark's work grows faster than their
// size, each built at n bytes: superlinear says whether it does (measured:
// 200 KB of "[a](" took 17.5 s, of ">" 26 s), so that mdPathology must
// send it to plain text; the others are the worst linear ones measured.
var mdPatterns = []struct {
	name        string
	superlinear bool
	make        func(n int) string
}{
	{"unclosed links [a](", true, func(n int) string { return strings.Repeat("[a](", n/4) }},
	{"unclosed images ![a](", true, func(n int) string { return strings.Repeat("![a](", n/5) }},
	{"link titles [a](b \"", true, func(n int) string { return strings.Repeat("[a](b \"", n/7) }},
	{"block quotes >", true, func(n int) string { return strings.Repeat(">", n) }},
	{"block quotes > ", true, func(n int) string { return strings.Repeat("> ", n/2) }},
	{"quoted lists > - ", true, func(n int) string { return strings.Repeat("> - ", n/4) }},
	{"ordered lists 1. ", true, func(n int) string { return strings.Repeat("1. ", n/3) }},
	{"reference definitions", true, func(n int) string { return strings.Repeat("[a]: b\n", n/7) }},
	{"lists nested by indentation", true, func(n int) string {
		var b strings.Builder
		for i := 0; b.Len() < n; i++ {
			b.WriteString(strings.Repeat(" ", 2*i) + "- a\n")
		}
		return b.String()[:n]
	}},
	{"brackets [", false, func(n int) string { return strings.Repeat("[", n) }},
	{"emphasis *a", false, func(n int) string { return strings.Repeat("*a", n/2) }},
	{"emphasis _a", false, func(n int) string { return strings.Repeat("_a", n/2) }},
	{"mixed [*", false, func(n int) string { return strings.Repeat("[*", n/2) }},
	{"backtick runs", false, func(n int) string {
		var b strings.Builder
		for i := 1; b.Len() < n; i++ {
			b.WriteString(strings.Repeat("`", i%64+1) + "a")
		}
		return b.String()[:n]
	}},
	{"less-than <", false, func(n int) string { return strings.Repeat("<", n) }},
	{"tags <a ", false, func(n int) string { return strings.Repeat("<a ", n/3) }},
	{"entities &amp", false, func(n int) string { return strings.Repeat("&amp", n/4) }},
	{"setext headings", false, func(n int) string { return strings.Repeat("a\n=\n", n/4) }},
	{"strikethrough ~~a", false, func(n int) string { return strings.Repeat("~~a", n/3) }},
	{"linkify www.", false, func(n int) string { return strings.Repeat("www.", n/4) }},
}

// TestMarkdownWorkIsBounded renders each pattern at the largest size a
// step may have (mdStepBytes): the superlinear ones must never reach
// goldmark and show as plain text with a note; every pattern renders
// within its step's budget. It logs the time each takes (run with -v),
// which is not asserted.
func TestMarkdownWorkIsBounded(t *testing.T) {
	for _, p := range mdPatterns {
		src := p.make(mdStepBytes - 1)
		md := newMarkdown()
		start := time.Now()
		h := md.render(src, newBudget(mdStepCells, mdStepBytes))
		t.Logf("%-28s %7s: %v, goldmark %v", p.name, fmtBytes(len(src)), time.Since(start).Round(time.Millisecond), md.parsed > 0)
		if p.superlinear && (md.parsed != 0 || !strings.Contains(string(h), "not rendered as Markdown") && !strings.Contains(string(h), "Shown as plain text")) {
			t.Errorf("%s: given to goldmark (%d), or no note: %.200s", p.name, md.parsed, h)
		}
		if len(h) > mdStepBytes {
			t.Errorf("%s: %d bytes of HTML", p.name, len(h))
		}
	}
}

// TestMarkdownPageBudget fills a text page with 1 MB of the slowest linear
// pattern in many steps: goldmark parses at most mdPageBytes of it, and
// the steps past it show as plain text with a note.
func TestMarkdownPageBudget(t *testing.T) {
	step := strings.Repeat("[", 64<<10)
	var es []model.TextEntry
	for i := range 48 { // 3 MiB: past the page's budget
		es = append(es, model.TextEntry{Step: int64(i), Values: []string{step + strings.Repeat("a", i)}})
	}
	tr := &textRenderer{md: newMarkdown(), memo: map[string]template.HTML{}}
	plain := 0
	for _, e := range es {
		s, _ := tr.step(e, mdStepBytes, false)
		if strings.Contains(string(s.Block), "this page already renders") {
			plain++
		}
	}
	if parsed := mdPageBytes - tr.md.left; parsed > mdPageBytes || tr.md.parsed*len(step) > mdPageBytes {
		t.Errorf("goldmark parsed %d texts, %d bytes", tr.md.parsed, parsed)
	}
	if want := len(es) - mdPageBytes/(len(step)+len(es)); plain < want {
		t.Errorf("%d steps shown as plain text past the page's budget, want at least %d", plain, want)
	}
}

// TestOrdinaryMarkdownIsRendered checks that mdPathology passes real
// documents: nested lists and quotes a few deep, many links.
func TestOrdinaryMarkdownIsRendered(t *testing.T) {
	var b strings.Builder
	b.WriteString("# Run notes\n\n> quoted\n> > twice\n\n- a\n  - b\n    - c\n      1. d\n\n")
	for i := range 300 {
		b.WriteString("See [the run](https://example.com/run) and ![plot](https://example.com/p.png) line ")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString("\n\n")
	}
	b.WriteString("[ref]: https://example.com\n[other]: https://example.org\n\nUse [ref] and [other].\n")
	if why := mdPathology(b.String()); why != "" {
		t.Fatalf("an ordinary document is sent to plain text: %s", why)
	}
}
