package render

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	xhtml "golang.org/x/net/html"
)

// TestEmailSubjectFoldsLongTitles writes the email of titles a header
// cannot hold as they are: long, non-ASCII (2-, 3- and 4-byte
// characters), with a line break that would start a header of its own,
// with text that looks like an encoded-word, with invalid UTF-8. Each
// subject must read back, through net/mail and mime.WordDecoder, as the
// title (cut to maxSubjectRunes as the email cuts it), and every line of
// the message, headers and parts alike, must be at most 78 characters
// (RFC 5322's recommended limit; its hard one is 998).
func TestEmailSubjectFoldsLongTitles(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": {3, 2, 1}}, "b": {"loss": {4, 3, 2}}})
	for _, c := range []struct{ name, title, want string }{
		{"short ASCII", "mnist sweep", "mnist sweep"},
		{"2-byte", strings.Repeat("é", 200), ""},
		{"3-byte", strings.Repeat("日本", 100), ""},
		{"4-byte", strings.Repeat("😀", 200), ""},
		{"mixed", strings.Repeat("a", 150) + strings.Repeat("é", 25) + strings.Repeat("日", 25), ""},
		{"ASCII without a space", strings.Repeat("x", 200), ""},
		{"ASCII with spaces", strings.Repeat("loss curve ", 18), ""},
		{"longer than the subject", strings.Repeat("ß", 500), strings.Repeat("ß", maxSubjectRunes-1) + "…"},
		{"header injection", "run\r\nBcc: victim@example.com\r\n\r\nbody", ""},
		{"encoded-word lookalike", "=?utf-8?b?SGk=?=", ""},
		{"invalid UTF-8", "bad\xff\xfeutf8", "bad\uFFFD" + "utf8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			want := c.title
			if c.want != "" {
				want = c.want
			}
			var eml bytes.Buffer
			if err := newReport(rep, Options{Title: c.title}).WriteEmail(&eml); err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(eml.String(), "\r\n") {
				if len(line) > 78 {
					t.Errorf("line %d is %d characters: %.100q", i+1, len(line), line)
				}
			}
			msg, err := mail.ReadMessage(bytes.NewReader(eml.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if len(msg.Header) != 4 || msg.Header.Get("Bcc") != "" {
				t.Errorf("headers %q: want MIME-Version, Subject, X-Unsent and Content-Type", msg.Header)
			}
			got, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("subject reads back as %q, want %q", got, want)
			}
			if ct, _, err := mime.ParseMediaType(msg.Header.Get("Content-Type")); err != nil || ct != "multipart/alternative" {
				t.Errorf("Content-Type %q (%v)", msg.Header.Get("Content-Type"), err)
			}
		})
	}
}

// TestSubjectHeaderWordsHoldWholeCharacters: every encoded-word of a
// folded subject is at most 75 characters and decodes, alone, to valid
// UTF-8: no character is split between two words.
func TestSubjectHeaderWordsHoldWholeCharacters(t *testing.T) {
	for _, s := range []string{strings.Repeat("é", 200), strings.Repeat("a日😀", 60), "x" + strings.Repeat("😀", 100)} {
		h := subjectHeader(s)
		if !strings.HasSuffix(h, "\r\n") {
			t.Fatalf("%q does not end the header", h)
		}
		for i, line := range strings.Split(strings.TrimSuffix(h, "\r\n"), "\r\n") {
			if i > 0 && !strings.HasPrefix(line, " ") {
				t.Errorf("line %d %q does not continue the field", i+1, line)
			}
			word := strings.TrimSpace(strings.TrimPrefix(line, "Subject:"))
			if len(word) > 75 || len(line) > maxHeaderLine {
				t.Errorf("line %d: %d characters, its word %d", i+1, len(line), len(word))
			}
			dec, err := new(mime.WordDecoder).Decode(word)
			if err != nil || !utf8.ValidString(dec) {
				t.Errorf("word %q decodes to %q (%v)", word, dec, err)
			}
		}
	}
}

// FuzzSubjectHeader: whatever the title, the Subject field is lines of at
// most maxHeaderLine characters, each continuing the field, and reads
// back (net/mail, mime.WordDecoder) as the title, invalid UTF-8 replaced.
func FuzzSubjectHeader(f *testing.F) {
	for _, s := range []string{"", "run", strings.Repeat("é", 200), "a\r\nBcc: x", "=?utf-8?q?x?=", "bad\xff", strings.Repeat("x ", 60), " lead and trail "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h := subjectHeader(s)
		lines := strings.Split(strings.TrimSuffix(h, "\r\n"), "\r\n")
		for i, line := range lines {
			if len(line) > maxHeaderLine || strings.ContainsAny(line, "\r\n") || i > 0 && !strings.HasPrefix(line, " ") {
				t.Fatalf("line %d of %q: %q", i+1, s, line)
			}
		}
		msg, err := mail.ReadMessage(strings.NewReader(h + "\r\n"))
		if err != nil {
			t.Fatalf("%q: %v", h, err)
		}
		got, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject"))
		want := strings.ToValidUTF8(s, "\uFFFD")
		// A plain subject reads back as net/mail gives it: trimmed.
		if !needsEncodedWords(want) && len("Subject: ")+len(want) <= maxHeaderLine {
			want = strings.TrimSpace(want)
		}
		if err != nil || got != want {
			t.Fatalf("%q reads back as %q (%v)", s, got, err)
		}
	})
}

// TestEmailHasATextPartAndStaysUnderGmailsClip: the email is text/plain
// and HTML alternatives of the same summary: every heading and every
// table cell of the HTML is in the text, which holds no Markdown escape;
// and a summary whose comment form would make more than emailHTMLBytes of
// HTML (which Gmail clips) is written shorter, saying what it left out.
// Python's email package, the reference reader, finds both parts.
func TestEmailHasATextPartAndStaysUnderGmailsClip(t *testing.T) {
	runs := map[string]map[string][]float64{}
	for i := range 8 {
		tags := map[string][]float64{}
		for k := range 300 {
			tags[fmt.Sprintf("metrics/validation/%s_accuracy_of_the_%03d_head", strings.Repeat("very_long_", 8), k)] = []float64{1, 0.5, float64(k) / 300}
		}
		runs[fmt.Sprintf("sweep/%s_run_%d", strings.Repeat("learning_rate_0.001_", 4), i)] = tags
	}
	r := newReport(synthetic(runs), Options{Title: "big"})
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if n := len(md.Bytes()); n < emailHTMLBytes*6/10 {
		t.Fatalf("the comment form is %d bytes: too small to need cutting for the email", n)
	}
	var eml bytes.Buffer
	if err := r.WriteEmail(&eml); err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(bytes.NewReader(eml.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	_, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		t.Fatal(err)
	}
	alt := multipart.NewReader(msg.Body, params["boundary"])
	tp, err := alt.NextPart() // decodes quoted-printable
	if err != nil || !strings.HasPrefix(tp.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("first part: %v", err)
	}
	text, _ := io.ReadAll(tp)
	rp, err := alt.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	_, rparams, _ := mime.ParseMediaType(rp.Header.Get("Content-Type"))
	hp, err := multipart.NewReader(rp, rparams["boundary"]).NextRawPart()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(hp)
	if len(raw) > emailHTMLBytes {
		t.Errorf("HTML part is %d bytes as sent, over %d", len(raw), emailHTMLBytes)
	}
	body, _ := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(raw)))
	doc, err := xhtml.Parse(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var checked int
	var walk func(n *xhtml.Node)
	walk = func(n *xhtml.Node) {
		if n.Type == xhtml.ElementNode && (n.Data == "h1" || n.Data == "h2" || n.Data == "td" || n.Data == "th") {
			var s strings.Builder
			var texts func(*xhtml.Node)
			texts = func(n *xhtml.Node) {
				if n.Type == xhtml.TextNode {
					s.WriteString(n.Data)
				}
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					texts(c)
				}
			}
			texts(n)
			if want := zeroWidth.Replace(strings.TrimSpace(s.String())); !bytes.Contains(text, []byte(want)) {
				t.Errorf("the text part lacks the HTML's %s %q", n.Data, want)
			}
			checked++
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if rows, all := bytes.Count(body, []byte("<tr>")), strings.Count(md.String(), "\n|"); rows >= all-1 {
		t.Errorf("the email's HTML has %d table rows, the comment form %d: it was not cut to fit", rows, all)
	}
	if checked < 20 || !bytes.Contains(body, []byte("left out")) {
		t.Errorf("%d headings and rows checked; the HTML says what it left out: %v", checked, bytes.Contains(body, []byte("left out")))
	}
	if bytes.Contains(text, []byte(`\_`)) {
		t.Error("the text part holds Markdown escapes")
	}

	py := os.Getenv("TRAINREPORT_PYTHON")
	if py == "" {
		return
	}
	f := filepath.Join(t.TempDir(), "report.eml")
	if err := os.WriteFile(f, eml.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, "-c", `import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
print(len(m.get_body(("plain",)).get_content()), len(m.get_body(("html",)).get_content()))`, f).CombinedOutput()
	var nText, nHTML int
	if _, serr := fmt.Sscan(string(out), &nText, &nHTML); err != nil || serr != nil || nText == 0 || nHTML == 0 {
		t.Errorf("Python's email package: %v: %s", err, out)
	}
}
