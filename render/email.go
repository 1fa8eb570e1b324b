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
	"unicode/utf8"

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

// WriteEmail writes the report as an email (RFC 2045 and 2387): a
// multipart/related message whose root part is an HTML body with no
// script (summary.md in its comment form, as HTML) and whose other parts
// are the static charts as PNG, shown inline by Content-ID. It has no
// From, To or Date: the CI step that sends it adds them; X-Unsent lets a
// mail client open it as a draft. The same report gives the same bytes.
func (r *Report) WriteEmail(w io.Writer) error {
	charts := r.StaticCharts()
	var md bytes.Buffer
	if err := r.writeMarkdown(&md, MarkdownComment, func(c StaticChart) string { return "cid:" + contentID(c) }); err != nil {
		return err
	}
	var body bytes.Buffer
	fmt.Fprintf(&body, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%s</title><style>%s</style></head><body>\n",
		html.EscapeString(r.opt.Title), emailStyle)
	// Raw HTML in the Markdown is left out (goldmark's default): names from
	// the logs are escaped already, and nothing else is HTML.
	if err := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough)).Convert(md.Bytes(), &body); err != nil {
		return fmt.Errorf("email body: %w", err)
	}
	body.WriteString("</body></html>\n")

	sum := sha256.Sum256(body.Bytes())
	var msg bytes.Buffer
	mw := multipart.NewWriter(&msg)
	if err := mw.SetBoundary("trainreport-" + hex.EncodeToString(sum[:12])); err != nil {
		return err
	}
	subject := r.opt.Title
	if line := r.emailVerdict(); line != "" {
		subject += ": " + line
	}
	if utf8.RuneCountInString(subject) > maxSubjectRunes {
		subject = string([]rune(subject)[:maxSubjectRunes-1]) + "…"
	}
	fmt.Fprintf(w, "MIME-Version: 1.0\r\nSubject: %s\r\nX-Unsent: 1\r\nContent-Type: %s\r\n\r\n",
		mime.QEncoding.Encode("utf-8", subject),
		mime.FormatMediaType("multipart/related", map[string]string{"boundary": mw.Boundary(), "type": "text/html"}))

	hp, err := mw.CreatePart(textproto.MIMEHeader{
		"Content-Type":              {"text/html; charset=utf-8"},
		"Content-Transfer-Encoding": {"quoted-printable"},
	})
	if err != nil {
		return err
	}
	qp := quotedprintable.NewWriter(hp)
	if _, err := qp.Write(body.Bytes()); err != nil {
		return err
	}
	if err := qp.Close(); err != nil {
		return err
	}
	for _, c := range charts {
		png, err := r.Chart(c, "png")
		if err != nil {
			return err
		}
		pp, err := mw.CreatePart(textproto.MIMEHeader{
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
	if err := mw.Close(); err != nil {
		return err
	}
	_, err = w.Write(msg.Bytes())
	return err
}

// contentID names a chart's part: <chart-1@trainreport>.
func contentID(c StaticChart) string { return c.Name + "@trainreport" }

// emailVerdict is what the subject says after the title: failed gates and
// regressions, "" when there is nothing to say.
func (r *Report) emailVerdict() string {
	failed := 0
	for _, g := range r.gates {
		if g.Failed {
			failed++
		}
	}
	regressed := 0
	for _, d := range r.deltas() {
		if d.regressed {
			regressed++
		}
	}
	var s string
	if failed > 0 {
		s = fmt.Sprintf("%s failed", plural(failed, "gate", "gates"))
	}
	if regressed > 0 {
		if s != "" {
			s += ", "
		}
		s += plural(regressed, "regression", "regressions")
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
