package render

import (
	"bytes"
	"html"
	"html/template"
	"net/url"
	"regexp"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
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
// allow-list, so a flaw in either does not reach the page. Two rules follow
// TensorBoard's text plugin while keeping the report offline: raw HTML in
// the Markdown is shown as text (escaped) rather than dropped, so a summary
// that holds "<b>" or a <script> shows it inert, as TensorBoard's sanitiser
// does; and images the Markdown refers to are not loaded (their src is
// emptied, so the alt text shows), since the report makes no request
// outside its own files.
type markdown struct {
	md     goldmark.Markdown
	policy *bluemonday.Policy
}

func newMarkdown() *markdown {
	p := bluemonday.UGCPolicy()
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	// Fenced code keeps its language class ("language-go").
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^language-[\w+-]+$`)).OnElements("code")
	p.RewriteSrc(func(u *url.URL) { *u = url.URL{} })
	md := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify))
	md.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(rawHTMLAsText{}, 100)))
	return &markdown{md: md, policy: p}
}

// HTML renders src. Markdown cannot fail to render; should the renderer
// fail anyway, the source is shown escaped.
func (m *markdown) HTML(src string) template.HTML {
	var b bytes.Buffer
	if err := m.md.Convert([]byte(src), &b); err != nil {
		return template.HTML("<pre>" + template.HTMLEscapeString(src) + "</pre>")
	}
	return template.HTML(m.policy.SanitizeBytes(b.Bytes())) // sanitised above
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
