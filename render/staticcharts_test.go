package render

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestPaletteMatchesApp: the static charts' run colours are the pages'.
func TestPaletteMatchesApp(t *testing.T) {
	b, err := os.ReadFile("../assets/app.js")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)var PALETTE = \[(.*?)\];`).FindSubmatch(b)
	if m == nil {
		t.Fatal("no PALETTE in app.js")
	}
	got := regexp.MustCompile(`#[0-9a-f]{6}`).FindAllString(string(m[1]), -1)
	if strings.Join(got, ",") != strings.Join(palette, ",") {
		t.Errorf("app.js PALETTE %v, render's %v", got, palette)
	}
	// Past the palette: app.js's hslHex for i = 20, 21, 22 (node -e).
	for i, want := range map[int]string{20: "#bd4d28", 21: "#31815d", 22: "#a528bd"} {
		if c := colorAt(i); c != want {
			t.Errorf("colorAt(%d) = %s, want %s", i, c, want)
		}
	}
}

// checkSVG checks an SVG chart parses as XML, holds no script and names
// what it must.
func checkSVG(t *testing.T, b []byte, want ...string) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("SVG does not parse: %v\n%.500s", err, b)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if strings.EqualFold(se.Name.Local, "script") || strings.EqualFold(se.Name.Local, "foreignObject") {
				t.Errorf("SVG holds a <%s>", se.Name.Local)
			}
			for _, a := range se.Attr {
				if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") {
					t.Errorf("SVG element %s has handler %s", se.Name.Local, a.Name.Local)
				}
			}
		}
	}
	for _, w := range want {
		if !bytes.Contains(b, []byte(w)) {
			t.Errorf("SVG lacks %q", w)
		}
	}
}

func checkPNG(t *testing.T, b []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("PNG does not decode: %v", err)
	}
	if r := img.Bounds(); r.Dx() != chartWidth || r.Dy() != chartHeight {
		t.Errorf("PNG of %v, want %dx%d", r, chartWidth, chartHeight)
	}
}
