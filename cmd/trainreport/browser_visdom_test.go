package main

// Browser test of the Visdom page on the fixtures visdom 0.3 wrote (its
// server's saved environments and its client's replay log), from file://
// with the network blocked, in the site and in the single-file report:
// every window is listed in Visdom's order under its environment, every
// plot is drawn with its title and axis titles and with the values the
// generator wrote, properties are a table, the links say where scalars,
// images and text also are, and markup in titles stays text.

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

type visdomCard struct {
	ID, Type, Caption, Env, ChartTitle string
	Chart, Drawn                       bool
	Series                             []struct{ Type, Name, Data, Links string }
	XAxis, YAxis                       []string
	Window, Text                       string
	Properties                         [][]string
	Links, Notes, Image, SVG           []string
}

// visdomWindow is a window as the page carries it (render/visdom.go).
type visdomWindow struct {
	Title, XLabel, YLabel string
	Traces                []struct {
		Type, Name      string
		X, Y, Z, Values []any
		XNames          []string `json:"x_names"`
		Rows, Cols      int
		Labels          []string
	}
}

func num(v any) float64 {
	switch v := v.(type) {
	case float64:
		return v
	case string:
		if v == "NaN" {
			return math.NaN()
		}
	}
	return math.NaN()
}

func TestBrowserVisdom(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	dir := filepath.Join(repoRoot(t), "collect", "visdom", "testdata")
	var exp map[string]struct {
		Traces map[string]struct {
			X []float64
			Y []*float64
		}
		Z [][]float64
	}
	b, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	r := buildReport(t, dir)
	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "visdom.html"), "")},
		{"single-file", fileURL(r.single, "page=visdom")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			waitFor(tb, pageJS("visdom.js", "shown"), 10*time.Second, "the page")
			var cards []visdomCard
			if err := json.Unmarshal([]byte(eval[string](tb, pageJS("visdom.js", "read"))), &cards); err != nil {
				t.Fatal(err)
			}
			// exp2's two windows, then the 26 of the server's environment,
			// python/nan's 6 (testdata/python) and the 26 of the log, in
			// Visdom's order.
			if len(cards) != 60 {
				t.Fatalf("%d windows, want 60", len(cards))
			}
			if cards[1].ID != "history" || len(cards[1].Image) != 1 || cards[1].Image[0] != "6x4" {
				t.Errorf("exp2's image history: %+v", cards[1])
			}
			replay := cards[2:28]
			wantOrder := []string{"loss", "acc_epoch", "hostile_line", "scatter", "stem", "heatmap", "bar", "histogram", "boxplot", "surf", "contour", "quiver", "pie", "mesh", "dual", "image", "images", "history", "text", "hostile_text", "properties", "svg", "audio", "graph", "hostile_svg", "video"}
			for i, c := range replay {
				if c.ID != wantOrder[i] {
					t.Errorf("window %d is %q, want %q", i, c.ID, wantOrder[i])
				}
			}
			byID := map[string]visdomCard{}
			for _, c := range replay {
				byID[c.ID] = c
				if !c.Chart {
					continue
				}
				if !c.Drawn {
					t.Errorf("%s: not drawn", c.ID)
					continue
				}
				var w visdomWindow
				if err := json.Unmarshal([]byte(c.Window), &w); err != nil {
					t.Fatalf("%s: %v", c.ID, err)
				}
				if c.ChartTitle != w.Title || c.Caption != w.Title {
					t.Errorf("%s: chart title %q, caption %q, want %q", c.ID, c.ChartTitle, c.Caption, w.Title)
				}
				if c.Type == "network" {
					checkVisdomNetwork(t, c)
					continue
				}
				checkVisdomChart(t, c, w)
			}
			// Values against what the generator wrote, not only the page's data.
			loss := byID["loss"]
			for i, name := range []string{"train", "val"} {
				var got [][]any
				json.Unmarshal([]byte(loss.Series[i].Data), &got)
				want := exp["loss"].Traces[name]
				if loss.Series[i].Name != name || len(got) != len(want.X) {
					t.Fatalf("loss: series %d %q with %d points, want %q with %d", i, loss.Series[i].Name, len(got), name, len(want.X))
				}
				for k := range got {
					if num(got[k][0]) != want.X[k] || num(got[k][1]) != *want.Y[k] {
						t.Errorf("loss/%s point %d: %v, want %v %v", name, k, got[k], want.X[k], *want.Y[k])
					}
				}
			}
			if !slices.Equal(loss.XAxis, []string{"step"}) || !slices.Equal(loss.YAxis, []string{"loss"}) {
				t.Errorf("loss: axes %v %v, want step and loss", loss.XAxis, loss.YAxis)
			}
			if len(loss.Links) != 2 || !strings.HasSuffix(loss.Links[0], " loss/train") {
				t.Errorf("loss: links %v", loss.Links)
			}
			if dual := byID["dual"]; len(dual.YAxis) != 2 || dual.YAxis[1] != "square" {
				t.Errorf("dual: y axes %v, want twice and square", dual.YAxis)
			}
			if p := byID["properties"].Properties; len(p) != 5 || p[0][0] != "optimizer" || p[0][1] != "adam" || p[2][1] != "true" || p[3][1] != "vit" {
				t.Errorf("properties: %v", p)
			}
			// The images are shown, decoded from the logs' base64, at the
			// size the generator wrote them.
			for id, size := range map[string]string{"image": "16x8", "images": "36x12"} {
				if l := byID[id].Links; len(l) != 1 || !strings.Contains(l[0], "images") {
					t.Errorf("%s: links %v", id, l)
				}
				if im := byID[id].Image; len(im) != 1 || im[0] != size {
					t.Errorf("%s: images %v, want one of %s", id, im, size)
				}
			}
			if l := byID["text"].Links; len(l) != 1 || !strings.Contains(l[0], "text") {
				t.Errorf("text: links %v", l)
			}
			// Text windows show their HTML, sanitised: markup kept, the
			// hostile one's script, handler and javascript: link gone.
			if got := byID["text"].Text; got != "<b>hello</b> <i>visdom</i><br><br>second line" {
				t.Errorf("text: %q", got)
			}
			if got := byID["hostile_text"].Text; strings.Contains(got, "alert") || !strings.Contains(got, "link") {
				t.Errorf("hostile text: %q", got)
			}
			if l := byID["audio"].Links; len(l) != 1 || !strings.Contains(l[0], "audio") {
				t.Errorf("audio: links %v, want the Audio page", l)
			}
			// The SVG drawing shows, as an image of the size it declares.
			if s := byID["svg"].SVG; len(s) != 1 || s[0] != "30x30 shown 30x30" {
				t.Errorf("svg: %v, want one 30x30 drawing shown at its size", s)
			}
			// Its script and handler would report through the console,
			// which the tab fails on (assertClean).
			if s := byID["hostile_svg"].SVG; len(s) != 1 || s[0] != "20x20 shown 20x20" {
				t.Errorf("hostile svg: %v, want one 20x20 drawing", s)
			}
			for _, id := range []string{"acc_epoch", "surf", "mesh", "video"} {
				if len(byID[id].Notes) == 0 {
					t.Errorf("%s: no note says what is not drawn as Visdom did", id)
				}
			}
			if byID["hostile_line"].Caption != "<script>alert('line')</script>" {
				t.Errorf("hostile title shown as %q", byID["hostile_line"].Caption)
			}
			if n := eval[int](tb, pageJS("visdom.js", "injected")); n != 0 {
				t.Errorf("%d elements made from markup in titles or names", n)
			}
			tb.screenshot(shots, "visdom-"+c.name)
		})
	}
}

// checkVisdomNetwork checks the graph window the generator wrote, 0-1-2:
// three nodes by their labels and the two edges between them.
func checkVisdomNetwork(t *testing.T, c visdomCard) {
	t.Helper()
	var nodes []struct{ ID, Name string }
	var links []struct{ Source, Target string }
	if len(c.Series) != 1 || c.Series[0].Type != "graph" {
		t.Fatalf("%s: %v", c.ID, c.Series)
	}
	json.Unmarshal([]byte(c.Series[0].Data), &nodes)
	json.Unmarshal([]byte(c.Series[0].Links), &links)
	if len(nodes) != 3 || nodes[0].Name != "0" || nodes[2].Name != "2" {
		t.Errorf("%s: nodes %v", c.ID, nodes)
	}
	if len(links) != 2 || links[0].Source != "0" || links[0].Target != "1" || links[1].Source != "1" || links[1].Target != "2" {
		t.Errorf("%s: edges %v", c.ID, links)
	}
}

// checkVisdomChart checks a drawn chart against the window's traces.
func checkVisdomChart(t *testing.T, c visdomCard, w visdomWindow) {
	t.Helper()
	tr := w.Traces[0]
	data := func(i int) [][]any {
		var d [][]any
		if err := json.Unmarshal([]byte(c.Series[i].Data), &d); err != nil {
			var objs []struct {
				Name  string
				Value float64
			}
			json.Unmarshal([]byte(c.Series[i].Data), &objs)
			d = nil
			for _, o := range objs {
				d = append(d, []any{o.Name, o.Value})
			}
		}
		return d
	}
	switch tr.Type {
	case "heatmap", "surface", "contour":
		d := data(0)
		if c.Series[0].Type != "heatmap" || len(d) != tr.Rows*tr.Cols {
			t.Fatalf("%s: %s of %d cells, want heatmap of %dx%d", c.ID, c.Series[0].Type, len(d), tr.Rows, tr.Cols)
		}
		for _, cell := range d {
			x, y := int(num(cell[0])), int(num(cell[1]))
			if want := num(tr.Z[y*tr.Cols+x]); num(cell[2]) != want {
				t.Errorf("%s: cell (%d, %d) = %v, want %v", c.ID, x, y, cell[2], want)
			}
		}
	case "pie":
		d := data(0)
		for i, p := range d {
			if p[0] != tr.Labels[i] || num(p[1]) != num(tr.Values[i]) {
				t.Errorf("%s: slice %d %v, want %s %v", c.ID, i, p, tr.Labels[i], tr.Values[i])
			}
		}
	case "box":
		var boxes [][]float64
		json.Unmarshal([]byte(c.Series[0].Data), &boxes)
		if c.Series[0].Type != "boxplot" || len(boxes) != len(w.Traces) {
			t.Fatalf("%s: %v", c.ID, c.Series)
		}
		// Plotly's linear quartiles of 1..10: 3.25, 5.5, 7.75.
		if b := boxes[0]; len(b) < 5 || b[0] != 1 || b[1] != 3.25 || b[2] != 5.5 || b[3] != 7.75 || b[4] != 10 {
			t.Errorf("%s: box %v, want [1 3.25 5.5 7.75 10]", c.ID, b)
		}
	default: // scatter, bar and 3-D points: one series per trace, every finite point
		if len(c.Series) != len(w.Traces) {
			t.Fatalf("%s: %d series for %d traces", c.ID, len(c.Series), len(w.Traces))
		}
		for i, tr := range w.Traces {
			d := data(i)
			drawn := 0
			for k, p := range d {
				if p == nil || len(p) < 2 || p[1] == nil {
					continue
				}
				drawn++
				if num(p[1]) != num(tr.Y[k]) {
					t.Errorf("%s/%s: point %d y %v, want %v", c.ID, tr.Name, k, p[1], tr.Y[k])
				}
				if tr.XNames == nil && tr.Type != "bar" && num(p[0]) != num(tr.X[k]) {
					t.Errorf("%s/%s: point %d x %v, want %v", c.ID, tr.Name, k, p[0], tr.X[k])
				}
			}
			finite := 0
			for k := range tr.Y {
				if !math.IsNaN(num(tr.Y[k])) && (tr.X == nil || !math.IsNaN(num(tr.X[k]))) {
					finite++
				}
			}
			if drawn != finite {
				t.Errorf("%s/%s: %d points drawn, want %d", c.ID, tr.Name, drawn, finite)
			}
		}
	}
}
