package render

import (
	"bytes"
	"html/template"
	"regexp"

	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// markdown renders untrusted Markdown (text summaries, audio labels) to
// HTML that is safe to place in a page.
//
// Two layers keep it safe: goldmark, left without html.WithUnsafe, drops
// raw HTML and links with dangerous schemes as it renders; bluemonday then
// sanitises what is left to a user-content allow-list, so a flaw in either
// does not reach the page.
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
	return &markdown{
		md:     goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify)),
		policy: p,
	}
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
