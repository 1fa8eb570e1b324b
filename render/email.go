package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/textproto"
	"strings"
	"unicode/utf8"

	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// emailStyle is the email body's only style: mail clients run no script
// and keep little CSS, so the body is plain HTML tables and images.
const emailStyle = `body{font-family:-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;font-size:14px;color:#222;max-width:900px}` +
	`table{border-collapse:collapse;margin:8px 0}th,td{border:1px solid #ddd;padding:3px 8px;text-align:left}` +
	`th{background:#f4f4f4}code{background:#f4f4f4;padding:0 3px}img{max-width:100%;height:auto;margin:4px 0}`

// maxSubjectRunes bounds the email's subject, which holds the title.
const maxSubjectRunes = 200

// emailHTMLBytes bounds the email's HTML part as sent (quoted-printable):
// Gmail clips a message whose HTML passes about 102 KB, hiding the rest
// behind a link.
const emailHTMLBytes = 100_000

// WriteEmail writes the report as an email (RFC 2045, 2046 and 2387): a
// multipart/alternative message of a text/plain part and a
// multipart/related one, whose root is an HTML body with no script
// (summary.md in its comment form, as HTML) and whose other parts are the
// static charts as PNG, shown inline by Content-ID. The text part says
// the same as the HTML (emailText), for clients that show no HTML. The
// HTML stays under emailHTMLBytes: past it, summary.md is written again
// within a smaller budget, which leaves rows out and says so, as a
// comment does. It has no From, To or Date: the CI step that sends it
// adds them; X-Unsent lets a mail client open it as a draft. The same
// report gives the same bytes.
func (r *Report) WriteEmail(w io.Writer) error {
	charts := r.StaticCharts()
	var md, body, qpBody bytes.Buffer
	budget := commentBudget
	for try := 0; ; try++ {
		md.Reset()
		if err := r.writeMarkdownWithin(&md, MarkdownComment, func(c StaticChart) string { return "cid:" + contentID(c) }, r.whereEverything(true), budget); err != nil {
			return err
		}
		body.Reset()
		fmt.Fprintf(&body, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title><style>%s</style></head><body>\n",
			html.EscapeString(r.opt.Title), emailStyle)
		// Raw HTML in the Markdown is left out (goldmark's default): names from
		// the logs are escaped already, and nothing else is HTML.
		if err := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough)).Convert(md.Bytes(), &body); err != nil {
			return fmt.Errorf("email body: %w", err)
		}
		body.WriteString("</body></html>\n")
		qpBody.Reset()
		if err := writeQuotedPrintable(&qpBody, body.Bytes()); err != nil {
			return err
		}
		// HTML is some twice its Markdown (a table's cells): a few tries
		// at a budget scaled by how far over it is reach it.
		if qpBody.Len() <= emailHTMLBytes || try == 4 || budget <= closingReserve {
			break
		}
		budget = max(int(float64(budget)*0.9*emailHTMLBytes/float64(qpBody.Len())), closingReserve)
	}

	sum := sha256.Sum256(body.Bytes())
	boundary := hex.EncodeToString(sum[:12])
	subject := r.opt.Title
	if line := r.emailVerdict(); line != "" {
		subject += ": " + line
	}
	if utf8.RuneCountInString(subject) > maxSubjectRunes {
		subject = string([]rune(subject)[:maxSubjectRunes-1]) + "…"
	}
	var msg bytes.Buffer
	alt := multipart.NewWriter(&msg)
	if err := alt.SetBoundary("trainreport-alt-" + boundary); err != nil {
		return err
	}
	fmt.Fprintf(w, "MIME-Version: 1.0\r\n%sX-Unsent: 1\r\nContent-Type: %s\r\n\r\n",
		subjectHeader(subject), headerParams(mime.FormatMediaType("multipart/alternative", map[string]string{"boundary": alt.Boundary()})))

	// The plainest part first: a client shows the last it can.
	tp, err := alt.CreatePart(textproto.MIMEHeader{
		"Content-Type":              {"text/plain; charset=utf-8"},
		"Content-Transfer-Encoding": {"quoted-printable"},
	})
	if err != nil {
		return err
	}
	if err := writeQuotedPrintable(tp, []byte(emailText(md.Bytes()))); err != nil {
		return err
	}
	rp, err := alt.CreatePart(textproto.MIMEHeader{"Content-Type": {headerParams(mime.FormatMediaType("multipart/related",
		map[string]string{"boundary": "trainreport-" + boundary, "type": "text/html"}))}})
	if err != nil {
		return err
	}
	related := multipart.NewWriter(rp)
	if err := related.SetBoundary("trainreport-" + boundary); err != nil {
		return err
	}
	hp, err := related.CreatePart(textproto.MIMEHeader{
		"Content-Type":              {"text/html; charset=utf-8"},
		"Content-Transfer-Encoding": {"quoted-printable"},
	})
	if err != nil {
		return err
	}
	if _, err := hp.Write(qpBody.Bytes()); err != nil {
		return err
	}
	for _, c := range charts {
		png, err := r.Chart(c, "png")
		if err != nil {
			return err
		}
		pp, err := related.CreatePart(textproto.MIMEHeader{
			"Content-Type":              {"image/png"},
			"Content-Transfer-Encoding": {"base64"},
			"Content-Id":                {"<" + contentID(c) + ">"},
			"Content-Disposition":       {mime.FormatMediaType("inline", map[string]string{"filename": c.Name + ".png"})},
		})
		if err != nil {
			return err
		}
		if err := writeBase64Lines(pp, png); err != nil {
			return err
		}
	}
	if err := related.Close(); err != nil {
		return err
	}
	if err := alt.Close(); err != nil {
		return err
	}
	_, err = w.Write(msg.Bytes())
	return err
}

// headerParams folds a media type's parameters a line each: the boundary
// alone makes the field longer than maxHeaderLine. No value holds "; " (a
// token, a type).
func headerParams(mediaType string) string { return strings.ReplaceAll(mediaType, "; ", ";\r\n ") }

// writeQuotedPrintable writes b to w quoted-printable.
func writeQuotedPrintable(w io.Writer, b []byte) error {
	qp := quotedprintable.NewWriter(w)
	if _, err := qp.Write(b); err != nil {
		return err
	}
	return qp.Close()
}

// maxHeaderLine is the longest line a header of the email has, CRLF
// apart: RFC 2047's limit for a line holding encoded-words (RFC 5322's
// recommended 78 and its hard 998 follow).
const maxHeaderLine = 76

// subjectHeader returns the Subject header field, CRLF-terminated, for
// the subject s. A subject of printable ASCII that fits on one line is
// written as it is. Any other is written as RFC 2047 encoded-words (B
// encoding of UTF-8), each holding whole characters, one per line,
// folded with CRLF and a space: a decoder joins adjacent encoded-words
// without the folding whitespace, so the subject reads back unchanged,
// however long or non-ASCII the title is, and no line exceeds
// maxHeaderLine. An encoded-word carries any byte, so a title's CR or LF
// cannot start a header of its own.
func subjectHeader(s string) string {
	const name = "Subject: "
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(name)+len(s) <= maxHeaderLine && !needsEncodedWords(s) {
		return name + s + "\r\n"
	}
	const prefix, suffix = "=?utf-8?b?", "?="
	// The most bytes a word's text holds, its base64 (4 characters per
	// 3 bytes) inside the line: the first line has the field's name,
	// the others a space.
	budget := func(room int) int { return (room - len(prefix) - len(suffix)) / 4 * 3 }
	var b strings.Builder
	b.WriteString(name)
	limit := budget(maxHeaderLine - len(name))
	for start := 0; start < len(s); {
		end := start
		for end < len(s) {
			_, size := utf8.DecodeRuneInString(s[end:])
			if end+size-start > limit {
				break
			}
			end += size
		}
		if start > 0 {
			b.WriteString("\r\n ")
		}
		b.WriteString(prefix + base64.StdEncoding.EncodeToString([]byte(s[start:end])) + suffix)
		start = end
		limit = budget(maxHeaderLine - 1)
	}
	b.WriteString("\r\n")
	return b.String()
}

// needsEncodedWords reports whether s cannot stand as a header's text as
// it is: a character outside printable ASCII, or "=?", which a reader
// would take for the start of an encoded-word.
func needsEncodedWords(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return true
		}
	}
	return strings.Contains(s, "=?")
}

// contentID names a chart's part: <chart-1@trainreport>.
func contentID(c StaticChart) string { return c.Name + "@trainreport" }

// emailVerdict is what the subject says after the title: failed gates and
// regressions, "" when there is nothing to say.
func (r *Report) emailVerdict() string {
	failed := 0
	for _, g := range r.an.Gates {
		if g.Failed {
			failed++
		}
	}
	regressed := 0
	for _, d := range r.deltas() {
		if d.Regressed {
			regressed++
		}
	}
	var s string
	if failed > 0 {
		s = fmt.Sprintf("%s failed", result.CountOf(failed, "gate", "gates"))
	}
	if regressed > 0 {
		if s != "" {
			s += ", "
		}
		s += result.CountOf(regressed, "regression", "regressions")
	}
	return s
}

// writeBase64Lines writes b in base64 lines of 76 characters, as RFC 2045
// asks.
func writeBase64Lines(w io.Writer, b []byte) error {
	enc := base64.StdEncoding.EncodeToString(b)
	for len(enc) > 0 {
		n := min(76, len(enc))
		if _, err := io.WriteString(w, enc[:n]+"\r\n"); err != nil {
			return err
		}
		enc = enc[n:]
	}
	return nil
}
