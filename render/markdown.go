package render

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"html/template"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/microcosm-cc/bluemonday"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown renders untrusted Markdown (text summaries, audio labels) to
// HTML that is safe to place in a page.
//
// Two layers keep it safe: goldmark, left without html.WithUnsafe, never
// passes raw HTML through and drops links with dangerous schemes as it
// renders; bluemonday then sanitises what is left to a user-content
// allow-list, so a flaw in either does not reach the page. Links keep only
// absolute http, https and mailto URLs: linkFilter turns every other link
// (relative, protocol-relative, javascript:, data:, file:, ...) into its
// text before rendering, and the policy drops any that remains. Two rules follow
// TensorBoard's text plugin while keeping the report offline: raw HTML in
// the Markdown is shown as text (escaped) rather than dropped, so a summary
// that holds "<b>" or a <script> shows it inert, as TensorBoard's sanitiser
// does; and images the Markdown refers to are not loaded (their src is
// emptied, so the alt text shows), since the report makes no request
// outside its own files.
type markdown struct {
	md     goldmark.Markdown
	policy *bluemonday.Policy
	// left is what remains of the page's budget of Markdown source
	// (mdPageBytes); parsed counts the texts given to goldmark.
	left, parsed int
}

func newMarkdown() *markdown {
	p := bluemonday.UGCPolicy()
	p.AllowURLSchemes("http", "https", "mailto")
	// No relative URLs either: the UGC policy lets them through, and
	// with them protocol-relative ones ("//host/x"), which leave the
	// report for any host. linkFilter makes such links text first.
	p.AllowRelativeURLs(false)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	// Fenced code keeps its language class ("language-go").
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^language-[\w+-]+$`)).OnElements("code")
	p.RewriteSrc(func(u *url.URL) { *u = url.URL{} })
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify),
		goldmark.WithParserOptions(
			// Before the table extension's (200; lower runs first):
			// tableRows must see the paragraph before it becomes a table.
			parser.WithParagraphTransformers(util.Prioritized(tableRows{}, 100)),
			parser.WithASTTransformers(util.Prioritized(linkFilter{}, 1000), util.Prioritized(tableBudget{}, 1001))))
	md.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(rawHTMLAsText{}, 100)))
	return &markdown{md: md, policy: p, left: mdPageBytes}
}

// Budgets of rendered Markdown. A few bytes of Markdown can render to
// megabytes: a GFM table pads every row to the columns of its header (a
// header of 1,000 columns over 1,000 one-character rows renders a million
// cells), and a reference link repeats its long URL wherever it is used.
// A text step (or an audio label) therefore renders within a budget of
// table cells and of HTML bytes; beyond it, tables are cut and, failing
// that, the source is shown as plain text, each time with a note saying
// what was cut.
const (
	// mdStepCells bounds the table cells of one text step: those of
	// Markdown tables and of a rank-1 or rank-2 tensor's table.
	mdStepCells = 10_000
	// mdStepBytes bounds the HTML of one text step.
	mdStepBytes = 256 << 10
	// mdLabelCells and mdLabelBytes bound an audio clip's label.
	mdLabelCells = 1_000
	mdLabelBytes = 16 << 10
)

// mdBudget is what is left of a budget as a step renders; maxCells is
// the budget of cells it started from, for the notes.
type mdBudget struct {
	cells, bytes, maxCells int
}

func newBudget(cells, bytes int) *mdBudget {
	return &mdBudget{cells: cells, bytes: bytes, maxCells: cells}
}

// mdBudgetKey carries the budget of a rendering to tableBudget.
var mdBudgetKey = parser.NewContextKey()

// HTML renders src, an audio label, within the budget of a label.
func (m *markdown) HTML(src string) template.HTML {
	return m.render(src, newBudget(mdLabelCells, mdLabelBytes))
}

// render renders src within what is left of b, and takes what it used
// from b. Tables beyond the budget of cells are cut (tableBudget); when
// the HTML would pass the budget of bytes, the start of the source shows
// as plain text instead.
func (m *markdown) render(src string, b *mdBudget) template.HTML {
	if src == "" {
		return ""
	}
	if len(src) > b.bytes { // it would not fit even if it rendered to itself
		return b.take(plainCut(src, b.bytes, "this text is "+fmtBytes(len(src))))
	}
	if why := mdPathology(src); why != "" {
		return b.take(plainText(src, b.bytes, why))
	}
	if len(src) > m.left {
		return b.take(plainText(src, b.bytes, "this page already renders "+fmtBytes(mdPageBytes-m.left)+
			" of Markdown, and at most "+fmtBytes(mdPageBytes)))
	}
	m.left -= len(src)
	m.parsed++
	pc := parser.NewContext()
	pc.Set(mdBudgetKey, b)
	source := []byte(src)
	doc := m.md.Parser().Parse(text.NewReader(source), parser.WithContext(pc))
	out := &limitedBuffer{limit: b.bytes}
	if err := m.md.Renderer().Render(out, source, doc); err != nil || out.over {
		return b.take(plainCut(src, b.bytes, "this text renders to more than "+fmtBytes(b.bytes)))
	}
	return b.take(template.HTML(m.policy.SanitizeBytes(out.Bytes()))) // sanitised here
}

// sanitizeHTML renders src, untrusted HTML (a Visdom text window), within
// what is left of b: through the same policy as rendered Markdown, so that
// scripts, event handlers, styles and links to anything but http, https
// and mailto are dropped and images load nothing; what would pass the
// budget shows as plain text, cut.
func (m *markdown) sanitizeHTML(src string, b *mdBudget) template.HTML {
	if src == "" {
		return ""
	}
	if len(src) > b.bytes || len(src) > m.left {
		return b.take(plainCut(src, b.bytes, "this HTML is "+fmtBytes(len(src))))
	}
	m.left -= len(src)
	h := m.policy.Sanitize(src)
	if len(h) > b.bytes {
		return b.take(plainCut(src, b.bytes, "this HTML is "+fmtBytes(len(src))))
	}
	return b.take(template.HTML(h)) // sanitised here
}

// take counts h against the budget of bytes and returns it.
func (b *mdBudget) take(h template.HTML) template.HTML {
	b.bytes = max(0, b.bytes-len(h))
	return h
}

// plainCut shows the start of src as escaped plain text, in at most
// limit bytes of HTML, after a note that says why (what it is) and what
// was cut.
func plainCut(src string, limit int, what string) template.HTML {
	note := `<p class="note">Cut: ` + template.HTMLEscapeString(what) + `, over the budget of ` + fmtBytes(limit) +
		` a step (or label) may fill; the data file holds all of it.`
	var b strings.Builder
	b.WriteString("<pre class=\"text-cut\">")
	room := limit - len(note) - len(" Its first 1023.9 KiB as text:</p></pre>")
	shown := 0
	for _, r := range src {
		e := html.EscapeString(string(r))
		if b.Len()+len(e) > room {
			break
		}
		b.WriteString(e)
		shown += len(string(r))
	}
	if shown == 0 {
		return template.HTML(note + "</p>")
	}
	return template.HTML(note + fmt.Sprintf(" Its first %s as text:</p>", fmtBytes(shown)) + b.String() + "</pre>")
}

// plainText shows src as escaped plain text in at most limit bytes of
// HTML, after a note saying why it is not rendered as Markdown; what does
// not fit is cut as plainCut cuts.
func plainText(src string, limit int, why string) template.HTML {
	note := `<p class="note">Shown as plain text, not as Markdown: ` + template.HTMLEscapeString(why) + `.</p>`
	body := html.EscapeString(src)
	if h := note + `<pre class="text-cut">` + body + `</pre>`; len(h) <= limit {
		return template.HTML(h)
	}
	return plainCut(src, limit, "not rendered as Markdown ("+why+"), this text is "+fmtBytes(len(body))+" as plain text")
}

// fmtBytes formats a size: "512 bytes", "256 KiB", "1.5 MiB".
func fmtBytes(n int) string {
	unit := func(x float64) string { return strings.TrimSuffix(strconv.FormatFloat(x, 'f', 1, 64), ".0") }
	switch {
	case n < 1<<10:
		return result.FormatCount(n) + " bytes"
	case n < 1<<20:
		return unit(float64(n)/(1<<10)) + " KiB"
	}
	return unit(float64(n)/(1<<20)) + " MiB"
}

// limitedBuffer is a buffer that stops taking bytes past limit, so that
// rendering a huge document costs no more memory than the budget: the
// renderer then walks the rest of the tree writing nothing.
type limitedBuffer struct {
	bytes.Buffer
	limit int
	over  bool
}

func (w *limitedBuffer) Write(p []byte) (int, error) {
	if w.over || w.Len()+len(p) > w.limit {
		w.over = true
		return 0, errTooBig
	}
	return w.Buffer.Write(p)
}

var errTooBig = errors.New("rendered Markdown over its budget")

// tableRows is a paragraph transformer that runs before goldmark's table
// transformer and keeps it from building rows the budget will cut anyway:
// goldmark pads every row to the header's columns, so a header of 1,000
// columns over 1,000 short lines allocates a million cells from a few
// kilobytes of source. A paragraph that will become a table too big for
// the budget keeps only the lines of the rows that fit; the rows it had
// are recorded by position for tableBudget's note.
type tableRows struct{}

// mdCutRowsKey maps the position of each table so cut to its count of
// body rows.
var mdCutRowsKey = parser.NewContextKey()

func (tableRows) Transform(node *ast.Paragraph, reader text.Reader, pc parser.Context) {
	b, _ := pc.Get(mdBudgetKey).(*mdBudget)
	lines := node.Lines()
	if b == nil || lines.Len() < 3 {
		return
	}
	src := reader.Source()
	for i := 1; i < lines.Len(); i++ {
		delim, above := lines.At(i), lines.At(i-1)
		cols := tableCells(delim.Value(src), true)
		if cols == 0 {
			continue
		}
		// As goldmark's transformer: the first delimiter row makes a
		// table if the row above has as many cells.
		if tableCells(above.Value(src), false) != cols {
			return
		}
		rows := lines.Len() - i // the header and the body rows
		keep := max(1, b.cells/cols)
		if rows > keep {
			cut, _ := pc.Get(mdCutRowsKey).(map[int]int)
			if cut == nil {
				cut = map[int]int{}
				pc.Set(mdCutRowsKey, cut)
			}
			cut[node.Pos()] = rows - 1
			lines.SetSliced(0, i+keep)
		}
		return
	}
}

// tableCells counts the cells of a table row as goldmark splits it (at
// each '|' not escaped, less one at either end); for a delimiter row it
// returns 0 unless the line is one (only '-', ':', '|' and spaces, some
// '-', and each cell dashes with optional colons).
func tableCells(line []byte, delimiter bool) int {
	l := bytes.TrimSpace(line)
	if delimiter && (len(bytes.Trim(l, "-:| \t")) > 0 || !bytes.Contains(l, []byte("-"))) {
		return 0
	}
	l = bytes.TrimPrefix(l, []byte("|"))
	if len(l) > 0 && l[len(l)-1] == '|' && (len(l) < 2 || l[len(l)-2] != '\\') {
		l = l[:len(l)-1]
	}
	n := 1
	for i, c := range l {
		if c == '|' && (i == 0 || l[i-1] != '\\') {
			n++
		}
	}
	if delimiter {
		for _, cell := range bytes.Split(l, []byte("|")) {
			if !bytes.Contains(cell, []byte("-")) {
				return 0
			}
		}
	}
	return n
}

// tableBudget cuts the GFM tables of a document to the budget of cells
// its parser context carries, table by table in document order: a table
// keeps as many of its columns as fit, then as many of its rows (its
// header first) as fit with them, and a note after it says what it lost.
// A table that gets no cell is replaced by the note alone.
type tableBudget struct{}

func (tableBudget) Transform(doc *ast.Document, _ text.Reader, pc parser.Context) {
	b, _ := pc.Get(mdBudgetKey).(*mdBudget)
	if b == nil {
		return
	}
	var tables []*extast.Table
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := n.(*extast.Table); ok && entering {
			tables = append(tables, t)
			return ast.WalkSkipChildren, nil // a cell holds inline content only
		}
		return ast.WalkContinue, nil
	})
	cut, _ := pc.Get(mdCutRowsKey).(map[int]int)
	for _, t := range tables {
		rows, cols := t.ChildCount(), 0
		if h := t.FirstChild(); h != nil {
			cols = h.ChildCount() // goldmark pads every row to the header's columns
		}
		keepCols := min(cols, b.cells)
		keepRows := 0
		if keepCols > 0 {
			keepRows = min(rows, b.cells/keepCols)
		}
		b.cells -= keepRows * keepCols
		if body, ok := cut[t.Pos()]; ok { // tableRows left out rows already
			rows = body + 1
		}
		if keepRows == rows && keepCols == cols {
			continue
		}
		em := ast.NewEmphasis(1)
		em.AppendChild(em, ast.NewString([]byte(fmt.Sprintf(
			"Table cut to %s of %s rows and %s of %s columns: this text shows at most %s table cells; the data file holds all of it.",
			result.FormatCount(max(keepRows-1, 0)), result.FormatCount(rows-1), result.FormatCount(keepCols), result.FormatCount(cols), result.FormatCount(b.maxCells)))))
		note := ast.NewParagraph()
		note.AppendChild(note, em)
		parent := t.Parent()
		parent.InsertAfter(parent, t, note)
		if keepRows == 0 {
			parent.RemoveChild(parent, t)
			continue
		}
		for i, row := 0, t.FirstChild(); row != nil; i++ {
			next := row.NextSibling()
			if i >= keepRows {
				t.RemoveChild(t, row)
			} else {
				for c := row.ChildCount(); c > keepCols; c-- {
					row.RemoveChild(row, row.LastChild())
				}
			}
			row = next
		}
		if len(t.Alignments) > keepCols {
			t.Alignments = t.Alignments[:keepCols]
		}
	}
}

// rawHTMLAsText renders goldmark's raw HTML nodes as escaped text; it
// takes precedence over goldmark's renderer, which drops them.
type rawHTMLAsText struct{}

func (rawHTMLAsText) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			segs := n.(*ast.RawHTML).Segments
			for i := range segs.Len() {
				w.WriteString(escSeg(segs.At(i), src))
			}
		}
		return ast.WalkSkipChildren, nil
	})
	reg.Register(ast.KindHTMLBlock, func(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
		b := n.(*ast.HTMLBlock)
		if entering {
			w.WriteString("<p>")
			lines := b.Lines()
			for i := range lines.Len() {
				w.WriteString(escSeg(lines.At(i), src))
			}
		} else {
			if b.HasClosure() {
				w.WriteString(escSeg(b.ClosureLine, src))
			}
			w.WriteString("</p>\n")
		}
		return ast.WalkContinue, nil
	})
}

// escSeg is a segment of the Markdown source, HTML-escaped.
func escSeg(s text.Segment, src []byte) string { return html.EscapeString(string(s.Value(src))) }

// linkFilter replaces every link and autolink whose destination is not an
// absolute http, https or mailto URL by its text, so that such a link reads
// as what it says rather than as a dead or dangerous link.
type linkFilter struct{}

func (linkFilter) Transform(doc *ast.Document, reader text.Reader, _ parser.Context) {
	src := reader.Source()
	var bad []ast.Node
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch l := n.(type) {
		case *ast.Link:
			if !allowedLink(string(l.Destination)) {
				bad = append(bad, l)
			}
		case *ast.AutoLink:
			u := string(l.URL(src))
			if l.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
				u = "mailto:" + u
			}
			if !allowedLink(u) {
				bad = append(bad, l)
			}
		}
		return ast.WalkContinue, nil
	})
	for _, n := range bad { // after the walk, which must not see the tree change
		parent := n.Parent()
		if a, ok := n.(*ast.AutoLink); ok {
			parent.ReplaceChild(parent, a, ast.NewString(a.Label(src)))
			continue
		}
		for c := n.FirstChild(); c != nil; c = n.FirstChild() {
			n.RemoveChild(n, c)
			parent.InsertBefore(parent, n, c)
		}
		parent.RemoveChild(parent, n)
	}
}

// allowedLink reports whether a link may keep its destination: an
// absolute http or https URL with a host, or a mailto URL with an address.
// Everything else, relative and protocol-relative URLs included, would
// either point into the report's own files or leave it by a route the
// reader cannot see.
func allowedLink(dest string) bool {
	u, err := url.Parse(dest)
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u.Host != "" && u.Opaque == ""
	case "mailto":
		return u.Opaque != ""
	}
	return false
}
