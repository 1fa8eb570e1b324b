package render

import (
	"strings"
	"testing"
)

func TestMarkdownRendersAndSanitises(t *testing.T) {
	md := newMarkdown()
	for _, c := range []struct {
		name, src   string
		want, avoid []string
	}{
		{"table", "| a | b |\n|---|---|\n| 1 | 2 |\n", []string{"<table>", "<td>1</td>"}, nil},
		{"fenced code", "```go\nfmt.Println(\"<b>\")\n```\n", []string{`<code class="language-go">`, "&lt;b&gt;"}, []string{"<b>"}},
		{"emphasis", "**loss** went _down_", []string{"<strong>loss</strong>", "<em>down</em>"}, nil},
		{"https link", "[docs](https://example.com/x)", []string{`href="https://example.com/x"`, `rel="nofollow noreferrer noopener"`}, nil},
		{"script", "<script>alert(1)</script>hi", nil, []string{"<script", "alert(1)</script"}},
		{"javascript link", "[x](javascript:alert(1))", nil, []string{"javascript:"}},
		{"javascript link, mixed case", "[x](JaVaScRiPt:alert(1))", nil, []string{"javascript:", "JaVaScRiPt"}},
		{"data link", "[x](data:text/html;base64,PHNjcmlwdD4=)", nil, []string{"data:"}},
		{"raw html shown as text", `<img src=x onerror="alert(1)">`, []string{"&lt;img src=x onerror="}, []string{"<img"}},
		{"inline html shown as text", "a <b onclick=\"x()\">b</b>", []string{"a &lt;b onclick="}, []string{"<b "}},
		{"script block shown as text", "<script>alert(1)</script>", []string{"&lt;script&gt;"}, []string{"<script"}},
		{"remote image not loaded", "![chart](https://example.com/c.png)", []string{`alt="chart"`}, []string{"example.com"}},
		{"image with javascript", "![x](javascript:alert(1))", nil, []string{"javascript:"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := string(md.HTML(c.src))
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("HTML(%q) = %q, want it to contain %q", c.src, got, w)
				}
			}
			for _, a := range c.avoid {
				if strings.Contains(strings.ToLower(got), strings.ToLower(a)) {
					t.Errorf("HTML(%q) = %q, holds %q", c.src, got, a)
				}
			}
		})
	}
}
