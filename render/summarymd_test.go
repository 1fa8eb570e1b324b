package render

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/net/html"
)

// mdHostile are run, tag and title names that GitHub's Markdown would turn
// into links, mentions, references, emoji, math or markup, or that would
// break a table row.
var mdHostile = []string{
	"www.x.example", "https://x.example/p?q=1", "http://x.example", "ftp://x.example",
	"a@b.example", "mailto:a@b.example", "xmpp:a@b.example", "user@host.example:22",
	"@user", "@org/team", "#123", "owner/repo#123", "GH-123", "x.example/@user#1",
	":tada:", "a5c3785ed8d6a35868bc169f07e40e889087fd2e", "run-deadbeef1",
	"col|umn", "`tick`", "``", "*star*", "**bold**", "_under_", "~~strike~~", "$x^2$", "$$",
	"<b>html</b>", "<https://x.example>", "<!-- c -->", "[link](https://x.example)",
	"![img](https://x.example/i.png)", "[^1]", "[ ] task", "&amp; &lt; &#64;", `back\slash\`,
	"line\nbreak", "tab\there", "cr\rhere", "nul\x00esc\x1b", "sep\u2028para\u2029", "bidi\u202eevil",
	"# heading", "> quote", "1. list", "- item", "---", "| a | b |", "\\|", "!", "a  b",
}

// visibleName is what a name must read as: control characters shown as
// spaces, the ends trimmed (a table cell or heading trims them).
func visibleName(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if breaksText(r) {
			return ' '
		}
		return r
	}, s))
}

// gitHubSpecial matches what GitHub turns into a link, a notification or
// an emoji in rendered text, beyond what goldmark's GFM extensions do.
// A commit is 7 to 40 hex digits at the start or after a space, '(',
// '[', '{', '@' or "..", ending a word (GitHub's commit mention filter).
var gitHubSpecial = regexp.MustCompile(`@[A-Za-z0-9]|#[0-9]|(?:^|[\s(\[{@]|\.\.)[0-9a-fA-F]{7,40}\b|:[a-z0-9_+-]+:|://|www\.|(?i:gh)-[0-9]|[A-Z]+-[0-9]|[A-Za-z0-9]@[A-Za-z0-9]`)

// TestMdTextLeavesNumbersWhole: no joiner goes inside a number, nor into
// a name where GitHub links nothing, so that either copies as itself; the
// names where GitHub would link get theirs.
func TestMdTextLeavesNumbersWhole(t *testing.T) {
	for _, s := range []string{
		"ends at -2.46388", "0.0012345678", "logs/image/20200409-142247/train", "events.out.tfevents.1671085786.ficino",
		"restarted: 2 attempts", "12:30:45", "run-0", "resnet-50.lr_0.1", "step 1,234,567", "run-deadbeef1", "x1234567",
	} {
		if got := mdText(s); strings.Contains(got, zwj) {
			t.Errorf("mdText(%q) = %q: a joiner where GitHub links nothing", s, got)
		}
	}
	for _, s := range []string{"1234567", "(deadbeef)", "a ..abcdef12", "GH-12", "gh-1", "JIRA-7", "#5", "@me", "https://x", ":tada:", "www.x"} {
		if got := mdText(s); !strings.Contains(got, zwj) {
			t.Errorf("mdText(%q) = %q: no joiner where GitHub links", s, got)
		}
	}
}

// TestSummaryMarkdownNamesAreInert renders summary.md, with hostile names
// as the title, run names and tag names, with goldmark and its GFM
// extensions (tables, autolinks, strikethrough, task lists): no link,
// autolink, image, raw HTML, emphasis, code or strikethrough node comes
// out of a name, every name reads as itself (less the zero-width joiners
// that break GitHub's own autolinks), each in its own row, and none holds
// what GitHub would link or notify; in both forms (the comment form ranks
// the runs of each tag under a heading of its own).
func TestSummaryMarkdownNamesAreInert(t *testing.T) {
	for _, form := range []MarkdownForm{MarkdownJob, MarkdownComment} {
		t.Run(form.String(), func(t *testing.T) { testMarkdownNamesAreInert(t, form) })
	}
}

func testMarkdownNamesAreInert(t *testing.T, form MarkdownForm) {
	runs := map[string]map[string][]float64{}
	for _, name := range mdHostile {
		runs[name] = map[string][]float64{name: {1, 2}}
	}
	rep := synthetic(runs)
	var md bytes.Buffer
	if err := newReport(rep, Options{Title: "title " + strings.Join(mdHostile[:8], " "), MarkdownForm: form}).WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	src := md.Bytes()
	gm := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := gm.Parser().Parse(text.NewReader(src))
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if img, ok := n.(*ast.Image); ok && ownChartImage.Match([]byte("![chart-0]("+string(img.Destination)+")")) {
			return ast.WalkSkipChildren, nil // one of the static charts
		}
		switch n.Kind() {
		case ast.KindLink, ast.KindAutoLink, ast.KindImage, ast.KindRawHTML, ast.KindHTMLBlock,
			ast.KindEmphasis, ast.KindCodeSpan, ast.KindCodeBlock, ast.KindFencedCodeBlock, ast.KindBlockquote,
			ast.KindList, ast.KindThematicBreak, extast.KindStrikethrough, extast.KindTaskCheckBox:
			t.Errorf("summary.md holds a %s node: %q", n.Kind(), nodeText(n, src))
		}
		return ast.WalkContinue, nil
	})

	var out bytes.Buffer
	if err := gm.Renderer().Render(&out, src, doc); err != nil {
		t.Fatal(err)
	}
	root, err := html.Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	var h1 string
	var h3 []string
	var tables [][][]string // table, row, cell text
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "img":
				if src := attrOf(n, "src"); !ownChartImage.MatchString("![chart-0](" + src + ")") {
					t.Errorf("rendered summary holds <img src=%q>", src)
				}
				return
			case "a", "script", "code", "em", "strong", "del", "input", "b", "ul", "ol", "blockquote":
				t.Errorf("rendered summary holds <%s>", n.Data)
			case "h1":
				h1 = textOf(n)
			case "h3":
				h3 = append(h3, textOf(n))
			case "table":
				tables = append(tables, nil)
			case "tr":
				var row []string
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					if c.Type == html.ElementNode {
						row = append(row, textOf(c))
					}
				}
				tables[len(tables)-1] = append(tables[len(tables)-1], row)
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	check := func(where, got, want string) {
		t.Helper()
		if strings.ReplaceAll(got, zwj, "") != want {
			t.Errorf("%s reads %q, want %q", where, strings.ReplaceAll(got, zwj, ""), want)
		}
		if m := gitHubSpecial.FindString(got); m != "" {
			t.Errorf("%s: %q holds %q, which GitHub links", where, got, m)
		}
	}
	check("title", h1, visibleName("title "+strings.Join(mdHostile[:8], " ")))
	if form == MarkdownComment {
		// Every heading is a tag and every cell of a Run column a run:
		// each reads as one of the names.
		names := map[string]bool{}
		for _, name := range mdHostile {
			names[visibleName(name)] = true
		}
		isName := func(where, got string) {
			t.Helper()
			if !names[strings.ReplaceAll(got, zwj, "")] {
				t.Errorf("%s reads %q, not one of the names", where, strings.ReplaceAll(got, zwj, ""))
			}
			if m := gitHubSpecial.FindString(got); m != "" {
				t.Errorf("%s: %q holds %q, which GitHub links", where, got, m)
			}
		}
		for _, h := range h3 {
			isName("heading", h)
		}
		if len(h3) != len(mdHostile) {
			t.Errorf("%d tag headings, want %d", len(h3), len(mdHostile))
		}
		cells := 0
		for _, tb := range tables {
			col := slices.Index(tb[0], "Run")
			for _, row := range tb[1:] {
				if col >= 0 && row[0] != "…" {
					isName("run cell", row[col])
					cells++
				}
			}
		}
		if cells < len(mdHostile) {
			t.Errorf("%d run cells, want at least one per tag", cells)
		}
		return
	}
	if len(tables) != 2 || len(tables[0]) != len(mdHostile)+1 || len(tables[1]) != len(mdHostile)+1 {
		t.Fatalf("tables of %d rows, want runs and key metrics of %d rows each", len(tables), len(mdHostile)+1)
	}
	// Rows are in report order: runs sorted by name.
	for i, name := range sortedKeys(runs) {
		check("runs table row", tables[0][i+1][0], visibleName(name))
		check("metrics table tag", tables[1][i+1][0], visibleName(name))
		check("metrics table run", tables[1][i+1][1], visibleName(name))
	}
}

// TestSummaryMarkdownWarningsAreInert checks the warnings list: a hostile
// run name in bold and a hostile warning in code, neither of which links,
// notifies or breaks out of its item.
func TestSummaryMarkdownWarningsAreInert(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"@user www.x.example": {"loss": {1}}})
	rep.Runs[0].Warnings = append(rep.Runs[0].Warnings,
		collectWarning("f``ile", "a ` b ``` c\n- [x](javascript:alert(1)) @user #1 <b>"))
	var md bytes.Buffer
	if err := newReport(rep, Options{}).WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	src := md.Bytes()
	doc := goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser().Parse(text.NewReader(src))
	var items, codes int
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.Kind() {
		case ast.KindListItem:
			items++
		case ast.KindCodeSpan:
			codes++
			if got, want := nodeText(n, src), "f``ile: offset 7: a ` b ``` c - [x](javascript:alert(1)) @user #1 <b>"; got != want {
				t.Errorf("warning reads %q, want %q", got, want)
			}
		case ast.KindLink, ast.KindAutoLink, ast.KindRawHTML:
			t.Errorf("warnings hold a %s node", n.Kind())
		}
		return ast.WalkContinue, nil
	})
	if items != 1 || codes != 1 {
		t.Errorf("%d list items, %d code spans, want 1 each:\n%s", items, codes, src)
	}
	if strings.Contains(md.String(), "**@user") || !strings.Contains(md.String(), "**@"+zwj+"user") {
		t.Errorf("run name in the warnings not escaped:\n%s", src)
	}
}

// nodeText is the text of a node's inline children as goldmark reads it.
func nodeText(n ast.Node, src []byte) string {
	var b strings.Builder
	ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			if t, ok := c.(*ast.Text); ok {
				b.Write(t.Segment.Value(src))
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// textOf is the text content of an HTML element.
func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

func collectWarning(file, msg string) model.Warning {
	return model.Warning{File: file, Offset: 7, Msg: msg}
}

// attrOf is the value of n's attribute key, "" when it has none.
func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
