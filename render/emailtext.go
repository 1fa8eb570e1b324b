package render

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// emailText renders the Markdown of summary.md as the email's text/plain
// part: the same content as its HTML part for a client that shows no
// HTML, or a reader who prefers text. Markdown's escapes and markup are
// gone (a backslash before each "_" of a tag would be noise), headings are
// underlined, tables are padded into columns, an image is its alternative
// text in brackets, a link its text and address.
func emailText(md []byte) string {
	doc := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough)).Parser().Parse(text.NewReader(md))
	var b strings.Builder
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		writeBlock(&b, n, md, "")
	}
	return strings.TrimRight(b.String(), "\n") + "\n"
}

// plainTableWidth is the widest a padded table gets: past it, cells are
// separated by " | " unpadded, since a mail client wraps long lines.
const plainTableWidth = 120

// writeBlock writes the block n, each line after indent, followed by a
// blank line.
func writeBlock(b *strings.Builder, n ast.Node, src []byte, indent string) {
	switch n := n.(type) {
	case *ast.Heading:
		t := inlineText(n, src)
		under := "-"
		if n.Level == 1 {
			under = "="
		}
		b.WriteString(indent + t + "\n" + indent + strings.Repeat(under, max(utf8.RuneCountInString(t), 3)) + "\n\n")
	case *ast.Paragraph, *ast.TextBlock:
		for _, line := range strings.Split(inlineText(n, src), "\n") {
			b.WriteString(indent + line + "\n")
		}
		if _, ok := n.(*ast.Paragraph); ok {
			b.WriteString("\n")
		}
	case *ast.List:
		i := n.Start
		for item := n.FirstChild(); item != nil; item = item.NextSibling() {
			marker := "- "
			if n.IsOrdered() {
				marker = strconv.Itoa(i) + ". "
				i++
			}
			var ib strings.Builder
			for c := item.FirstChild(); c != nil; c = c.NextSibling() {
				writeBlock(&ib, c, src, "")
			}
			lines := strings.Split(strings.TrimRight(ib.String(), "\n"), "\n")
			for k, line := range lines {
				if k == 0 {
					b.WriteString(indent + marker + line + "\n")
				} else if line != "" {
					b.WriteString(indent + strings.Repeat(" ", len(marker)) + line + "\n")
				}
			}
		}
		b.WriteString("\n")
	case *ast.Blockquote:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			writeBlock(b, c, src, indent+"> ")
		}
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			b.WriteString(indent + "    " + strings.TrimRight(string(seg.Value(src)), "\n") + "\n")
		}
		b.WriteString("\n")
	case *ast.ThematicBreak:
		b.WriteString(indent + "----\n\n")
	case *east.Table:
		writeTable(b, n, src, indent)
	case *ast.HTMLBlock:
		// summary.md writes none; the HTML part leaves raw HTML out too.
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			writeBlock(b, c, src, indent)
		}
	}
}

// writeTable writes a table's rows as columns padded to their widest
// cell, or, past plainTableWidth, its cells separated by " | ".
func writeTable(b *strings.Builder, t *east.Table, src []byte, indent string) {
	var rows [][]string
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var row []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			row = append(row, strings.ReplaceAll(inlineText(c, src), "\n", " "))
		}
		rows = append(rows, row)
	}
	var widths []int
	for _, row := range rows {
		for i, c := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	total := 0
	for _, w := range widths {
		total += w + 2
	}
	pad := total <= plainTableWidth
	for k, row := range rows {
		b.WriteString(indent)
		for i, c := range row {
			switch {
			case i == len(row)-1:
				b.WriteString(c)
			case pad:
				b.WriteString(c + strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
			default:
				b.WriteString(c + " | ")
			}
		}
		b.WriteString("\n")
		if k == 0 && pad { // under the header
			b.WriteString(indent)
			for i, w := range widths {
				b.WriteString(strings.Repeat("-", max(w, 1)))
				if i < len(widths)-1 {
					b.WriteString("  ")
				}
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("\n")
}

// inlineText is the text of n's inline children, without markup: a
// text's backslash escapes and character references resolved, as the HTML
// renderer resolves them (not in code, where they are literal), and the
// zero-width characters summary.md puts into names to keep GitHub from
// linking them dropped.
func inlineText(n ast.Node, src []byte) string {
	var b bytes.Buffer
	var walk func(n ast.Node, code bool)
	walk = func(n ast.Node, code bool) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				v := c.Segment.Value(src)
				if !code && !c.IsRaw() {
					v = util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v)))
				}
				b.Write(v)
				switch {
				case c.HardLineBreak(), c.SoftLineBreak():
					b.WriteByte('\n')
				}
			case *ast.CodeSpan:
				walk(c, true)
			case *ast.String:
				b.Write(c.Value)
			case *ast.Image:
				b.WriteString("[")
				walk(c, code)
				b.WriteString("]")
			case *ast.Link:
				before := b.Len()
				walk(c, code)
				if label := b.String()[before:]; label != string(c.Destination) {
					b.WriteString(" <" + string(c.Destination) + ">")
				}
			case *ast.AutoLink:
				b.Write(c.URL(src))
			case *ast.RawHTML:
			default:
				walk(c, code)
			}
		}
	}
	walk(n, false)
	return strings.TrimRight(zeroWidth.Replace(b.String()), "\n")
}

// zeroWidth drops the invisible characters summary.md may put into a name.
var zeroWidth = strings.NewReplacer("\u200b", "", "\u200c", "", "\u200d", "", "\u2060", "", "\ufeff", "")
