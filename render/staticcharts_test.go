package render

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/go-analyze/charts"

	"github.com/trainreport/trainreport/collect/model"
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

// The charts of hostile names are well-formed SVG with no script, and
// PNGs of the chart's size; the same report draws the same bytes.
func TestStaticChartsInert(t *testing.T) {
	runs := map[string]map[string][]float64{}
	for i, name := range mdHostile {
		runs[name] = map[string][]float64{"loss " + name: {3, 2, 1}, "<script>alert(1)</script>\n]]>": {float64(i), 1, 2}}
	}
	r := newReport(synthetic(runs), Options{})
	cs := r.StaticCharts()
	if len(cs) != maxStaticCharts {
		t.Fatalf("%d charts, want %d", len(cs), maxStaticCharts)
	}
	for _, c := range cs {
		svg, err := r.Chart(c, "svg")
		if err != nil {
			t.Fatal(err)
		}
		checkSVG(t, svg, `width="560" height="300"`)
		if bytes.Contains(svg, []byte("<script")) {
			t.Errorf("%s: SVG holds <script", c.Name)
		}
		again, _ := r.Chart(c, "svg")
		if !bytes.Equal(svg, again) {
			t.Errorf("%s: two drawings differ", c.Name)
		}
		p, err := r.Chart(c, "png")
		if err != nil {
			t.Fatal(err)
		}
		checkPNG(t, p)
	}
}

// resample: the mean of the points nearest each column, linear between
// columns with points, null outside the series and for non-finite values.
func TestResample(t *testing.T) {
	sv := seriesOf([]int64{10, 11, 20, 40}, []float64{1, 3, math.NaN(), 8})
	got := resample(drawnOf(sv), []int64{0, 10, 20, 30, 40, 50})
	null := charts.GetNullValue()
	want := []float64{null, 2, 4, 6, 8, null} // 20 holds only a NaN: drawn between its neighbours
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("column %d: %v, want %v (all %v)", i, got[i], want[i], got)
		}
	}
	cols, labels, n := stepGrid(0, 20000, chartColumns)
	if n != 5 || cols[0] != 0 || cols[len(cols)-1] != 20000 || labels[0] != "0" || labels[len(labels)-1] != "20k" {
		t.Errorf("stepGrid(0, 20000): %d labels, cols %d..%d, labels %q..%q", n, cols[0], cols[len(cols)-1], labels[0], labels[len(labels)-1])
	}
}

// seriesOf is a view of a series of these steps and values, every point
// drawn.
func seriesOf(steps []int64, values []float64) *seriesView {
	sc := &model.Scalar{Tag: "t"}
	sv := &seriesView{scalar: sc}
	for i, s := range steps {
		sc.Points = append(sc.Points, model.Point{Step: s, Value: values[i]})
		sv.draw = append(sv.draw, i)
	}
	return sv
}

// BenchmarkChart draws one chart of 4 runs of 5,000 points, as SVG and as
// PNG.
func BenchmarkChart(b *testing.B) {
	runs := map[string]map[string][]float64{}
	for r := range 4 {
		vals := make([]float64, 5000)
		for i := range vals {
			vals[i] = 0.3 + 2*math.Exp(-float64(i)/(500*float64(r+1))) + 0.05*math.Sin(float64(i))
		}
		runs[string(rune('a'+r))] = map[string][]float64{"loss": vals}
	}
	r := newReport(synthetic(runs), Options{})
	c := r.StaticCharts()[0]
	for _, format := range []string{"svg", "png"} {
		b.Run(format, func(b *testing.B) {
			var n int
			for b.Loop() {
				out, err := r.Chart(c, format)
				if err != nil {
					b.Fatal(err)
				}
				n = len(out)
			}
			b.ReportMetric(float64(n), "bytes")
		})
	}
}
