package render

import (
	"bytes"
	"mime"
	"net/mail"
	"strings"
	"testing"
	"unicode/utf8"
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
			if ct, _, err := mime.ParseMediaType(msg.Header.Get("Content-Type")); err != nil || ct != "multipart/related" {
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
