package visdom

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
)

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// expected is what testdata/generate.py wrote through visdom's client.
type expected struct {
	Type   string
	Title  string
	Traces map[string]struct {
		X []float64
		Y []*float64
	}
	X, Y          json.RawMessage
	Z             [][]float64
	Values        []float64
	Labels        []string
	Numbins       int
	Boxes         map[string][]float64
	HTML          string
	Rows          []map[string]any
	Width, Height int
	Count         int
	Caption       string
	XLabel        string
	YLabel        string
}

func loadExpected(t *testing.T) map[string]expected {
	var exp map[string]expected
	if err := json.Unmarshal(readFixture(t, "expected.json"), &exp); err != nil {
		t.Fatal(err)
	}
	return exp
}

func windows(env *Env) map[string]*Window {
	m := map[string]*Window{}
	for _, w := range env.Windows {
		m[w.ID] = w
	}
	return m
}

func sameFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

// TestFixtures checks the replayed log and the server's saved environment
// against the values the generator wrote.
func TestFixtures(t *testing.T) {
	exp := loadExpected(t)
	logRes := ReadLog(readFixture(t, "replay.log"))
	envRes := ReadEnv(readFixture(t, "env/replay.json"), "replay")
	for name, res := range map[string]Result{"replay.log": logRes, "env/replay.json": envRes} {
		t.Run(name, func(t *testing.T) {
			if len(res.Problems) > 0 || res.Damaged {
				t.Errorf("problems: %v (damaged %v)", res.Problems, res.Damaged)
			}
			if len(res.Envs) != 1 || res.Envs[0].Name != "replay" {
				t.Fatalf("environments: %+v", res.Envs)
			}
			ws := windows(res.Envs[0])
			for id, e := range exp {
				if strings.Contains(id, "/") {
					continue // another environment
				}
				w := ws[id]
				if w == nil {
					t.Errorf("window %q missing", id)
					continue
				}
				checkWindow(t, w, e, readFixture(t, name))
			}
			if got, want := len(ws), ownWindows(exp); got != want {
				t.Errorf("%d windows, want %d", got, want)
			}
		})
	}
}

func checkWindow(t *testing.T, w *Window, e expected, file []byte) {
	t.Helper()
	if e.Title != "" && w.Title != e.Title {
		t.Errorf("%s: title %q, want %q", w.ID, w.Title, e.Title)
	}
	switch e.Type {
	case "line", "scatter":
		if w.Type != "plot" || len(w.Traces) != len(e.Traces) {
			t.Fatalf("%s: %s with %d traces, want %d", w.ID, w.Type, len(w.Traces), len(e.Traces))
		}
		for _, tr := range w.Traces {
			et, ok := e.Traces[tr.Name]
			if !ok {
				t.Errorf("%s: trace %q not written", w.ID, tr.Name)
				continue
			}
			want := make([]float64, len(et.Y))
			for i, y := range et.Y {
				want[i] = math.NaN()
				if y != nil {
					want[i] = *y
				}
			}
			if !sameFloats(tr.X, et.X) || !sameFloats(tr.Y, want) {
				t.Errorf("%s/%s: x %v y %v, want x %v y %v", w.ID, tr.Name, tr.X, tr.Y, et.X, want)
			}
		}
		if e.XLabel != "" && (w.XLabel != e.XLabel || w.YLabel != e.YLabel) {
			t.Errorf("%s: axes %q %q, want %q %q", w.ID, w.XLabel, w.YLabel, e.XLabel, e.YLabel)
		}
	case "heatmap":
		tr := w.Traces[0]
		var flat []float64
		for _, row := range e.Z {
			flat = append(flat, row...)
		}
		var x, y []string
		json.Unmarshal(e.X, &x)
		json.Unmarshal(e.Y, &y)
		if tr.Type != "heatmap" || tr.Rows != len(e.Z) || tr.Cols != len(e.Z[0]) || !sameFloats(tr.Z, flat) ||
			!reflect.DeepEqual(tr.XNames, x) || !reflect.DeepEqual(tr.YNames, y) {
			t.Errorf("%s: %+v", w.ID, tr)
		}
	case "surf", "contour":
		tr := w.Traces[0]
		var flat []float64
		for _, row := range e.Z {
			flat = append(flat, row...)
		}
		if tr.Rows != len(e.Z) || !sameFloats(tr.Z, flat) {
			t.Errorf("%s: %+v", w.ID, tr)
		}
	case "bar":
		var x []string
		var y []float64
		json.Unmarshal(e.X, &x)
		json.Unmarshal(e.Y, &y)
		tr := w.Traces[0]
		if tr.Type != "bar" || !reflect.DeepEqual(tr.XNames, x) || !sameFloats(tr.Y, y) {
			t.Errorf("%s: %+v", w.ID, tr)
		}
	case "histogram":
		// visdom bins on the client: the counts must add up to the values.
		tr := w.Traces[0]
		sum := 0.0
		for _, c := range tr.Y {
			sum += c
		}
		if tr.Type != "bar" || len(tr.Y) != e.Numbins || sum != float64(len(e.Values)) {
			t.Errorf("%s: %+v", w.ID, tr)
		}
	case "boxplot":
		if len(w.Traces) != len(e.Boxes) {
			t.Fatalf("%s: %d traces, want %d", w.ID, len(w.Traces), len(e.Boxes))
		}
		for _, tr := range w.Traces {
			if tr.Type != "box" || !sameFloats(tr.Y, e.Boxes[tr.Name]) {
				t.Errorf("%s: %+v, want %v", w.ID, tr, e.Boxes[tr.Name])
			}
		}
	case "pie":
		tr := w.Traces[0]
		if tr.Type != "pie" || !reflect.DeepEqual(tr.Labels, e.Labels) || !sameFloats(tr.Values, e.Values) {
			t.Errorf("%s: %+v", w.ID, tr)
		}
	case "image_history":
		if w.Type != "image_history" || len(w.Images) != e.Count {
			t.Fatalf("%s: %s with %d images, want %d", w.ID, w.Type, len(w.Images), e.Count)
		}
		for _, im := range w.Images {
			if im.Format != "png" || im.Width != e.Width || im.Height != e.Height {
				t.Errorf("%s: %+v", w.ID, im)
			}
		}
		if last := w.Images[len(w.Images)-1]; last.Caption != e.Caption {
			t.Errorf("%s: last caption %q, want %q", w.ID, last.Caption, e.Caption)
		}
	case "image", "images":
		if w.Type != "image" || len(w.Images) != 1 {
			t.Fatalf("%s: %s with %d images", w.ID, w.Type, len(w.Images))
		}
		im := w.Images[0]
		if im.Format != "png" || im.Width != e.Width || im.Height != e.Height || im.Caption != e.Caption {
			t.Errorf("%s: %+v, want %dx%d %q", w.ID, im, e.Width, e.Height, e.Caption)
		}
		if _, err := base64.StdEncoding.DecodeString(string(file[im.Offset : im.Offset+im.Length])); err != nil {
			t.Errorf("%s: the located text is not the image: %v", w.ID, err)
		}
	case "text":
		if w.Type != "text" || w.Text != e.HTML {
			t.Errorf("%s: %s %q, want %q", w.ID, w.Type, w.Text, e.HTML)
		}
	case "properties":
		if len(w.Properties) != len(e.Rows) {
			t.Fatalf("%s: %+v", w.ID, w.Properties)
		}
		for i, p := range w.Properties {
			if p.Name != e.Rows[i]["name"] || p.Type != e.Rows[i]["type"] {
				t.Errorf("%s: row %d %+v, want %v", w.ID, i, p, e.Rows[i])
			}
		}
		// The select shows its option, as Visdom does: index 1 of
		// [resnet, vit].
		if w.Properties[2].Value != "true" || w.Properties[3].Value != "vit" {
			t.Errorf("%s: values %+v", w.ID, w.Properties)
		}
	case "graph":
		if w.Type != "network" || w.Nodes != 3 || w.Edges != 2 {
			t.Errorf("%s: %+v", w.ID, w)
		}
	}
}

// TestReplayEqualsSaved checks that replaying the log gives what the
// visdom server saved after the same log was replayed into it.
func TestReplayEqualsSaved(t *testing.T) {
	logRes := ReadLog(readFixture(t, "replay.log"))
	envRes := ReadEnv(readFixture(t, "env/replay.json"), "replay")
	a, b := logRes.Envs[0], envRes.Envs[0]
	if len(a.Windows) != len(b.Windows) {
		t.Fatalf("%d windows replayed, %d saved", len(a.Windows), len(b.Windows))
	}
	for i := range a.Windows {
		x, y := *a.Windows[i], *b.Windows[i]
		// Where they are differs; what they are must not.
		x.Offset, y.Offset = 0, 0
		for j := range x.Images {
			x.Images[j].Offset, y.Images[j].Offset = 0, 0
		}
		if !reflect.DeepEqual(strip(x), strip(y)) {
			t.Errorf("window %d:\nreplayed %+v\nsaved    %+v", i, x, y)
		}
	}
}

// strip makes NaNs comparable.
func strip(w Window) string {
	b, _ := json.Marshal(struct {
		W      Window
		Traces []string
	}{Window{ID: w.ID, Title: w.Title, Type: w.Type, XLabel: w.XLabel, YLabel: w.YLabel, Y2Label: w.Y2Label, Images: w.Images,
		Text: w.Text, Properties: w.Properties, Nodes: w.Nodes, Edges: w.Edges, Caption: w.Caption}, traceStrings(w.Traces)})
	return string(b)
}

func traceStrings(ts []Trace) []string {
	var out []string
	for _, t := range ts {
		out = append(out, strings.ReplaceAll(strings.ReplaceAll(fmtTrace(t), "NaN", "null"), " ", ""))
	}
	return out
}

func fmtTrace(t Trace) string {
	b, err := json.Marshal(map[string]any{"type": t.Type, "name": t.Name, "mode": t.Mode, "x": nanless(t.X), "y": nanless(t.Y), "z": nanless(t.Z),
		"xn": t.XNames, "yn": t.YNames, "rows": t.Rows, "cols": t.Cols, "labels": t.Labels, "values": nanless(t.Values), "right": t.RightAxis})
	if err != nil {
		panic(err)
	}
	return string(b)
}

func nanless(x []float64) []*float64 {
	out := make([]*float64, len(x))
	for i := range x {
		if !math.IsNaN(x[i]) {
			out[i] = &x[i]
		}
	}
	return out
}

// ownWindows counts the windows of the generator's replay environment:
// those not named "<other env>/<id>".
func ownWindows(exp map[string]expected) int {
	n := 0
	for id := range exp {
		if !strings.Contains(id, "/") {
			n++
		}
	}
	return n
}

// TestSecondEnvironment reads the environment the server saved after the
// online client wrote to it: its line, and an image history of three.
func TestSecondEnvironment(t *testing.T) {
	res := ReadEnv(readFixture(t, "env/exp2.json"), "exp2")
	exp := loadExpected(t)
	if len(res.Envs) != 1 || len(res.Envs[0].Windows) != 2 || len(res.Problems) > 0 {
		t.Fatalf("%+v", res)
	}
	ws := windows(res.Envs[0])
	checkWindow(t, ws["loss"], exp["exp2/loss"], nil)
	checkWindow(t, ws["history"], exp["exp2/history"], nil)
}

func TestSniff(t *testing.T) {
	for _, c := range []struct {
		head string
		want Kind
	}{
		{`{"jsons": {"a": {}}, "reload": {}}`, EnvFile},
		{` {"reload": {}, "jsons": {}}`, EnvFile},
		{`["events", {"data": []}]`, LogFile},
		{`["update",{}]`, LogFile},
		{`{"name": "x", "jsons": {}}`, NotVisdom}, // not written by visdom first
		{`{"config": 1}`, NotVisdom},
		{`["eventsx", {}]`, NotVisdom},
		{`[1, 2, 3]`, NotVisdom},
		{"", NotVisdom},
	} {
		if got := Sniff([]byte(c.head)); got != c.want {
			t.Errorf("Sniff(%q) = %v, want %v", c.head, got, c.want)
		}
	}
}

// TestTextAppends checks the server's rule for appended text: joined with
// "<br>", the last 1000 lines kept once appended to.
func TestTextAppends(t *testing.T) {
	var b strings.Builder
	b.WriteString(`["events", {"data": [{"content": "first", "type": "text"}], "win": "t"}]` + "\n")
	for i := range 1500 {
		fmt.Fprintf(&b, `["update", {"data": [{"content": "line %d", "type": "text"}], "win": "t"}]`+"\n", i)
	}
	res := ReadLog([]byte(b.String()))
	text := res.Envs[0].Windows[0].Text
	lines := strings.Split(text, "<br>")
	if len(lines) != maxTextLines || lines[0] != "line 500" || lines[len(lines)-1] != "line 1499" {
		t.Errorf("%d lines, %q .. %q", len(lines), lines[0], lines[len(lines)-1])
	}
}

// BenchmarkReadLogAppends replays a log of one-point appends, the shape
// of a training loop's vis.line(..., update="append"): each must cost
// about the same, not the length of the trace so far.
func BenchmarkReadLogAppends(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`["events", {"data": [{"x": [0], "y": [1], "name": "train", "type": "scatter", "mode": "lines"}], "win": "loss", "eid": "main", "layout": {}}]` + "\n")
	for i := 1; i <= 200_000; i++ {
		fmt.Fprintf(&sb, `["update", {"data": [{"x": [%d], "y": [0.5], "name": "train", "type": "scatter", "mode": "lines"}], "win": "loss", "eid": "main", "name": "train", "append": true}]`+"\n", i)
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		res := ReadLog(data)
		if n := len(res.Envs[0].Windows[0].Traces[0].X); n != 200_001 {
			b.Fatalf("%d points", n)
		}
	}
}
