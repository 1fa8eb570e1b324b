package main

// Browser test of the embeddings page on the shared corpus's MNIST
// projector (100 points of 784 values, a label column and a sprite), from
// file:// with the network blocked, in the site and in the single-file
// report: the 2-D and 3-D views draw every point of the data file where
// it says, colouring by a column colours each label alike and labels
// apart, a search highlights exactly the labels it matches, and a clicked
// point lists the neighbours a brute-force search in Go finds in the
// original vectors.

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"
)

// embeddingData is the part of a data/embeddings file the test checks.
type embeddingData struct {
	Name  string `json:"name"`
	Steps []struct {
		Shape       []int64    `json:"shape"`
		Columns     []string   `json:"columns"`
		Metadata    [][]string `json:"metadata"`
		Projections []struct {
			Method    string      `json:"method"`
			Sample    []int32     `json:"sample"`
			Explained []float64   `json:"explained"`
			Coords2   [][]float64 `json:"coords_2d"`
			Coords3   [][]float64 `json:"coords_3d"`
		} `json:"projections"`
		Neighbors struct {
			K int `json:"k"`
		} `json:"neighbors"`
	} `json:"steps"`
}

type embChart struct {
	Type  string
	Items []struct {
		Value   []float64
		Color   string
		Opacity float64
	}
	Status, Variance string
}

type embNeighbour struct {
	Point int
	Dist  float64
	Text  string
}

type embNeighbours struct {
	Point     int
	Heading   string
	Euclidean []embNeighbour `json:"euclidean"`
	Cosine    []embNeighbour `json:"cosine"`
}

func TestBrowserEmbeddings(t *testing.T) {
	t.Parallel()
	// WebGL for the 3-D view: chromium's software renderer.
	browser := startBrowser(t, withWebGL...)
	shots := screenshotDir(t)
	logdir := sharedCorpus(t, "tbx12-2018-no-file-version")
	r := reportOf(t, logdir)
	files, _ := filepath.Glob(filepath.Join(r.site, "data", "embeddings", "*", "*.json"))
	if len(files) != 1 {
		t.Fatalf("embedding data files %q, want 1", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	var data embeddingData
	if err := json.Unmarshal(b, &data); err != nil {
		t.Fatal(err)
	}
	step := data.Steps[0]
	vectors, dims := embeddingVectors(t, logdir, data.Name)
	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "embeddings.html"), "")},
		{"single-file", fileURL(r.single, "page=embeddings")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			js := func(fn string, args ...any) string { return pageJS("embeddings.js", fn, args...) }
			waitDrawn := func(want string) {
				t.Helper()
				waitFor(tb, js("drawn")+` === `+strconv.Quote(want), 20*time.Second, "the chart "+want)
			}
			readChart := func() embChart {
				t.Helper()
				var ch embChart
				if err := json.Unmarshal([]byte(eval[string](tb, js("chart"))), &ch); err != nil {
					t.Fatal(err)
				}
				return ch
			}
			waitDrawn("0/0/pca/2")
			// PCA in 2-D, sprite thumbnails as points (a custom series).
			ch := readChart()
			pca := step.Projections[0]
			if ch.Type != "custom" {
				t.Errorf("2-D with a sprite draws a %q series, want custom (thumbnails)", ch.Type)
			}
			checkItems(t, "PCA 2-D", ch, pca.Coords2)
			if !strings.Contains(ch.Status, "all 100 points of 784 values") {
				t.Errorf("status %q", ch.Status)
			}
			if want := fmt.Sprintf("component 1 %.1f%%", 100*pca.Explained[0]); !strings.Contains(ch.Variance, want) {
				t.Errorf("variance line %q, want it to say %q", ch.Variance, want)
			}
			tb.screenshot(shots, "embeddings-"+c.name+"-pca-thumbs")
			// The hover card: the point's label and its sprite thumbnail.
			var tip struct {
				Text, Thumb string
				Tags        []string
			}
			if err := json.Unmarshal([]byte(eval[string](tb, js("tip", 5))), &tip); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(tip.Text, step.Metadata[5][0]+"point 5") || !strings.Contains(tip.Thumb, "sprite-0.png") && !strings.Contains(tip.Thumb, "data:image/png") {
				t.Errorf("hover card %q with thumbnail %.80q, want label %q, the point and the sprite", tip.Text, tip.Thumb, step.Metadata[5][0])
			}
			tb.screenshot(shots, "embeddings-"+c.name+"-tooltip")

			// Plain points; colour by the label column.
			eval[any](tb, js("set", "sprites", false))
			eval[any](tb, js("set", "color", "label"))
			eventually(tb, `(c => c.Type === 'scatter' && new Set(c.Items.map(i => i.Color)).size > 1)(JSON.parse(`+js("chart")+`))`, stepTimeout)
			ch = readChart()
			if ch.Type != "scatter" {
				t.Fatalf("without thumbnails a %q series, want scatter", ch.Type)
			}
			colourOf := map[string]string{}
			for i, it := range ch.Items {
				label := step.Metadata[i][0]
				if it.Color == "" {
					t.Fatalf("point %d not coloured", i)
				}
				if c, ok := colourOf[label]; ok && c != it.Color {
					t.Errorf("label %q drawn in %s and %s", label, c, it.Color)
				}
				colourOf[label] = it.Color
			}
			distinct := map[string]bool{}
			for _, c := range colourOf {
				distinct[c] = true
			}
			if len(distinct) != len(colourOf) || len(colourOf) < 2 {
				t.Errorf("%d labels in %d colours", len(colourOf), len(distinct))
			}
			tb.screenshot(shots, "embeddings-"+c.name+"-pca-colour")

			// Search: exactly the points whose label matches are opaque.
			eval[any](tb, js("set", "search", "\\([37]\\)$"))
			eventually(tb, `JSON.parse(`+js("chart")+`).Items.some(i => i.Opacity !== 1)`, stepTimeout)
			ch = readChart()
			re := regexp.MustCompile("\\([37]\\)$")
			matches := 0
			for i, it := range ch.Items {
				want := re.MatchString(step.Metadata[i][0])
				if got := it.Opacity == 1; got != want {
					t.Errorf("point %d (label %q): highlighted %v, want %v", i, step.Metadata[i][0], got, want)
				}
				if want {
					matches++
				}
			}
			if !strings.Contains(ch.Status, fmt.Sprintf("%d of 100 shown points match", matches)) || matches == 0 {
				t.Errorf("status %q, want %d matches", ch.Status, matches)
			}
			tb.screenshot(shots, "embeddings-"+c.name+"-search")
			eval[any](tb, js("set", "search", ""))

			// Click a point: its neighbours are those of a brute-force
			// search in the original vectors.
			xy := eval[[]float64](tb, js("pointPixel", 17))
			if _, err := chromedp.Run(tb.ctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
				t.Fatal(err)
			}
			waitFor(tb, `!!document.querySelector('[data-emb-neighbors] table')`, 5*time.Second, "the neighbour lists")
			var nb embNeighbours
			if err := json.Unmarshal([]byte(eval[string](tb, js("neighbours"))), &nb); err != nil {
				t.Fatal(err)
			}
			if nb.Point < 0 || !strings.Contains(nb.Heading, fmt.Sprintf("(point %d)", nb.Point)) {
				t.Fatalf("clicked point %d, heading %q", nb.Point, nb.Heading)
			}
			checkListed(t, "Euclidean", nb.Euclidean, bruteNeighbours(vectors, dims, nb.Point, false), step.Neighbors.K)
			checkListed(t, "cosine", nb.Cosine, bruteNeighbours(vectors, dims, nb.Point, true), step.Neighbors.K)
			tb.screenshot(shots, "embeddings-"+c.name+"-neighbours")

			// 3-D: every point at its PCA coordinates, then t-SNE and UMAP.
			eval[any](tb, js("set", "dims", "3"))
			waitDrawn("0/0/pca/3")
			ch = readChart()
			if ch.Type != "scatter3D" {
				t.Errorf("3-D draws a %q series", ch.Type)
			}
			checkItems(t, "PCA 3-D", ch, pca.Coords3)
			tb.screenshot(shots, "embeddings-"+c.name+"-pca-3d")
			for k, m := range []string{"tsne", "umap"} {
				p := step.Projections[k+1]
				if p.Method != m {
					t.Fatalf("projection %d is %s, want %s", k+1, p.Method, m)
				}
				eval[any](tb, js("set", "method", m))
				waitDrawn("0/0/" + m + "/3")
				checkItems(t, m+" 3-D", readChart(), p.Coords3)
				eval[any](tb, js("set", "dims", "2"))
				waitDrawn("0/0/" + m + "/2")
				checkItems(t, m+" 2-D", readChart(), p.Coords2)
				tb.screenshot(shots, "embeddings-"+c.name+"-"+m)
				eval[any](tb, js("set", "dims", "3"))
			}
			tb.assertClean()
		})
	}
	// The state comes back from the URL hash: a link shows the same view.
	t.Run("hash", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "embeddings.html"), "emethod=umap&edims=3&ecolor=label&esearch=%5C(7%5C)%24&epoint=3&ethumbs=0"))
		js := func(fn string, args ...any) string { return pageJS("embeddings.js", fn, args...) }
		waitFor(tb, js("drawn")+` === "0/0/umap/3"`, 20*time.Second, "the view of the hash")
		var got map[string]string
		if err := json.Unmarshal([]byte(eval[string](tb, js("controls"))), &got); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"select": "0", "step": "0", "method": "umap", "dims": "3", "color": "label", "label": "label", "search": `\(7\)$`, "sprites": "false"}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("control %s is %q, want %q", k, got[k], v)
			}
		}
		var nb embNeighbours
		if err := json.Unmarshal([]byte(eval[string](tb, js("neighbours"))), &nb); err != nil {
			t.Fatal(err)
		}
		if nb.Point != 3 || !strings.Contains(nb.Heading, "(point 3)") || len(nb.Cosine) != step.Neighbors.K {
			t.Errorf("neighbours of the hash's point: %+v", nb)
		}
		tb.assertClean()
	})
}

// checkItems compares the chart's items with the data file's coordinates:
// one item per point, in order, at its coordinates.
func checkItems(t *testing.T, what string, ch embChart, coords [][]float64) {
	t.Helper()
	if len(ch.Items) != len(coords) {
		t.Fatalf("%s: %d items drawn, want %d", what, len(ch.Items), len(coords))
	}
	for i, it := range ch.Items {
		w := len(coords[i])
		if len(it.Value) != w+1 || int(it.Value[w]) != i || !slices.Equal(it.Value[:w], coords[i]) {
			t.Fatalf("%s: item %d is %v, want %v then %d", what, i, it.Value, coords[i], i)
		}
	}
}

// embeddingVectors reads the embedding's points with package collect.
func embeddingVectors(t *testing.T, logdir, name string) ([]float32, int) {
	t.Helper()
	logdirs, err := collect.ParseLogdirs([]string{logdir})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := collect.Collect(context.Background(), logdirs, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range rep.Runs {
		if i := slices.IndexFunc(run.Embeddings, func(e *model.Embedding) bool { return e.Name == name }); i >= 0 {
			e := run.Embeddings[i]
			v, err := e.Load(rep.Decoders())
			if err != nil {
				t.Fatal(err)
			}
			return v, e.Dims()
		}
	}
	t.Fatalf("no embedding %q in %s", name, logdir)
	return nil, 0
}

type ranked struct {
	point int
	dist  float64
}

// bruteNeighbours ranks every other point by its distance to p.
func bruteNeighbours(v []float32, d, p int, cosine bool) []ranked {
	n := len(v) / d
	var out []ranked
	for q := range n {
		if q == p {
			continue
		}
		var dot, np, nq, sq float64
		for j := range d {
			x, y := float64(v[p*d+j]), float64(v[q*d+j])
			dot, np, nq, sq = dot+x*y, np+x*x, nq+y*y, sq+(x-y)*(x-y)
		}
		dist := math.Sqrt(sq)
		if cosine {
			dist = 1 - dot/math.Sqrt(np*nq)
		}
		out = append(out, ranked{q, dist})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].dist < out[j].dist })
	return out
}

// checkListed compares the page's list with the brute-force ranking: the
// same points (ties aside) at the distances shown to 4 digits.
func checkListed(t *testing.T, metric string, got []embNeighbour, want []ranked, k int) {
	t.Helper()
	if len(got) != k || k == 0 {
		t.Fatalf("%s: %d neighbours listed, want %d", metric, len(got), k)
	}
	for i, g := range got {
		w := want[i]
		if math.Abs(g.Dist-w.dist) > 5e-4*math.Max(1e-3, math.Abs(w.dist)) {
			t.Errorf("%s neighbour %d: distance %v, want %v", metric, i, g.Dist, w.dist)
		}
		if g.Point != w.point {
			// A tie may order differently; the point must be as near.
			j := slices.IndexFunc(want, func(r ranked) bool { return r.point == g.Point })
			if j < 0 || math.Abs(want[j].dist-w.dist) > 1e-6 {
				t.Errorf("%s neighbour %d: point %d, want %d (distance %v)", metric, i, g.Point, w.point, w.dist)
			}
		}
	}
}

// Every embedding of the corpus's checkpoint-backed projector, the
// writers' add_embedding and projector API fixtures and the TS-VIS
// projector records draws every point of each projection in 2-D and 3-D,
// in the site, with no console error; each has its labels, and a sprite
// where the writer wrote one.
func TestBrowserEmbeddingsEveryInput(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t, withWebGL...)
	shots := screenshotDir(t)
	root := repoRoot(t)
	writers := filepath.Join(root, "collect", "testdata", "writers")
	for _, c := range []struct {
		name    string
		logdirs []string
		sprites int // embeddings with a sprite
	}{
		// Small caps: three embeddings of 10,000 points take minutes at the
		// defaults; the views then show samples, as the status line says.
		// A cap per method, each below the 10,000 points, proves the
		// sampling; larger ones cost minutes of a busy machine in the 3-D
		// views' software WebGL (pca=3000,tsne=500,umap=300: 7.2 s of CPU
		// for the report and 57 s for the sub-test at a load average of 21;
		// these: 3.2 s and 24 s).
		{"tf2-projector-ckpt", []string{"--embedding-max-points", "pca=500,tsne=200,umap=150,neighbors=200", sharedCorpus(t, "tf2-projector-ckpt")}, 0},
		{"writers", []string{filepath.Join(writers, "tensorboardx"), filepath.Join(writers, "tf2"), filepath.Join(writers, "torch")}, 4},
		{"tsvis-projector", []string{filepath.Join(root, "collect", "projector", "testdata", "tsvis")}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := buildReport(t, c.logdirs[len(c.logdirs)-1], c.logdirs[:len(c.logdirs)-1]...)
			tb := openTab(t, browser, fileURL(filepath.Join(r.site, "embeddings.html"), ""))
			js := func(fn string, args ...any) string { return pageJS("embeddings.js", fn, args...) }
			n := eval[int](tb, js("count"))
			if n == 0 {
				t.Fatal("no embedding listed")
			}
			sprites := 0
			for i := range n {
				var want []struct {
					Points         map[string]int
					Step           int64
					Sprite, Labels bool
					Error          string
				}
				if err := json.Unmarshal([]byte(eval[string](tb, js("expected", i))), &want); err != nil {
					t.Fatal(err)
				}
				eval[any](tb, js("set", "select", strconv.Itoa(i)))
				for si, s := range want {
					if s.Error != "" || !s.Labels || s.Points["pca"] == 0 {
						t.Errorf("embedding %d step %d: error %q, labels %v, %d PCA points", i, si, s.Error, s.Labels, s.Points["pca"])
					}
					if s.Sprite {
						sprites++
					}
					eval[any](tb, js("set", "step", strconv.Itoa(si)))
					for _, m := range []string{"pca", "tsne", "umap"} {
						eval[any](tb, js("set", "method", m))
						for _, dims := range []string{"2", "3"} {
							eval[any](tb, js("set", "dims", dims))
							waitFor(tb, js("drawn")+" === "+strconv.Quote(fmt.Sprintf("%d/%d/%s/%s", i, si, m, dims)), 20*time.Second, "the view")
							if got := eval[[]string](tb, js("stepShown")); got[0] != fmt.Sprintf("step %d", s.Step) || !strings.Contains(got[1], fmt.Sprintf(", step %d.", s.Step)) {
								t.Errorf("embedding %d step %d: the step list says %q, the status %q; want step %d", i, si, got[0], got[1], s.Step)
							}
							if got := eval[int](tb, js("items")); got != s.Points[m] {
								t.Errorf("embedding %d step %d %s %s-D: %d items drawn, want %d", i, si, m, dims, got, s.Points[m])
							}
							if m == "pca" || m == "umap" && dims == "2" {
								tb.screenshot(shots, fmt.Sprintf("embeddings-%s-%d-%d-%s-%s", c.name, i, si, m, dims))
							}
						}
					}
				}
				eval[any](tb, js("set", "dims", "2"))
			}
			if sprites != c.sprites {
				t.Errorf("%d embeddings with a sprite, want %d", sprites, c.sprites)
			}
			tb.assertClean()
		})
	}
}

// Names and labels from the logs stay text on the page: in the lists, the
// status line, the tooltip and the neighbour lists, nothing they hold runs.
func TestBrowserEmbeddingsHostileNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const hostile = `<img src=x onerror="window.__pwned=1">`
	var tsv, meta strings.Builder
	meta.WriteString("label\t" + hostile + "\n")
	for i := range 12 {
		fmt.Fprintf(&tsv, "%d\t%d\n", i%3, i%4)
		fmt.Fprintf(&meta, "%s%d\t%s\n", hostile, i, hostile)
	}
	config := "embeddings {\n  tensor_name: \"</script><script>window.__pwned=2</script>\"\n  tensor_path: \"t.tsv\"\n  metadata_path: \"m.tsv\"\n}\n"
	for name, text := range map[string]string{"projector_config.pbtxt": config, "t.tsv": tsv.String(), "m.tsv": meta.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	browser := startBrowser(t)
	r := buildReport(t, dir)
	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "embeddings.html"), "ecolor="+url.QueryEscape(hostile)+"&epoint=0")},
		{"single-file", fileURL(r.single, "page=embeddings&ecolor="+url.QueryEscape(hostile)+"&epoint=0")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			js := func(fn string, args ...any) string { return pageJS("embeddings.js", fn, args...) }
			waitFor(tb, js("drawn")+` === "0/0/pca/2"`, 20*time.Second, "the chart")
			var tip struct {
				Text string
				Tags []string
			}
			if err := json.Unmarshal([]byte(eval[string](tb, js("tip", 0))), &tip); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(tip.Text, hostile+"0") || slices.Contains(tip.Tags, "IMG") {
				t.Errorf("tooltip %q with elements %v, want the label as text", tip.Text, tip.Tags)
			}
			var nb embNeighbours
			if err := json.Unmarshal([]byte(eval[string](tb, js("neighbours"))), &nb); err != nil {
				t.Fatal(err)
			}
			if len(nb.Euclidean) == 0 || !strings.Contains(nb.Euclidean[0].Text, hostile) || !strings.Contains(nb.Heading, hostile+"0") {
				t.Errorf("neighbour lists %+v, want the labels as text", nb)
			}
			if n := eval[int](tb, `document.querySelectorAll('main img[src="x"], main b img').length`); n != 0 {
				t.Errorf("%d elements made from the labels", n)
			}
			if p := eval[any](tb, `window.__pwned === undefined ? null : window.__pwned`); p != nil {
				t.Errorf("a label ran: window.__pwned = %v", p)
			}
			tb.assertClean()
		})
	}
}

// A numeric column of many values colours by a gradient, from its
// minimum (viridis' purple) to its maximum (yellow); a column of few
// values by the categorical palette.
func TestBrowserEmbeddingsGradient(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var tsv, meta strings.Builder
	meta.WriteString("class\tscore\n")
	for i := range 30 {
		fmt.Fprintf(&tsv, "%d\t%d\t%d\n", i, (i*7)%11, i%3)
		fmt.Fprintf(&meta, "c%d\t%g\n", i%3, float64((i*13)%30)/4)
	}
	config := "embeddings {\n  tensor_name: \"e\"\n  tensor_path: \"t.tsv\"\n  metadata_path: \"m.tsv\"\n}\n"
	for name, text := range map[string]string{"projector_config.pbtxt": config, "t.tsv": tsv.String(), "m.tsv": meta.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	browser := startBrowser(t)
	r := buildReport(t, dir)
	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "embeddings.html"), "ecolor=score"))
	js := func(fn string, args ...any) string { return pageJS("embeddings.js", fn, args...) }
	waitFor(tb, js("drawn")+` === "0/0/pca/2"`, 20*time.Second, "the chart")
	var ch embChart
	if err := json.Unmarshal([]byte(eval[string](tb, js("chart"))), &ch); err != nil {
		t.Fatal(err)
	}
	for i, it := range ch.Items {
		score := float64((i*13)%30) / 4
		want := ""
		switch score {
		case 0:
			want = "rgb(68,1,84)"
		case 29.0 / 4:
			want = "rgb(253,231,37)"
		}
		if want != "" && it.Color != want {
			t.Errorf("point %d, score %g: colour %s, want %s", i, score, it.Color, want)
		}
		if !strings.HasPrefix(it.Color, "rgb(") {
			t.Errorf("point %d: colour %q is not of the gradient", i, it.Color)
		}
	}
	if !strings.Contains(ch.Status, "gradient from 0 (purple) to 7.25 (yellow)") {
		t.Errorf("status %q", ch.Status)
	}
	eval[any](tb, js("set", "color", "class"))
	eventually(tb, `JSON.parse(`+js("chart")+`).Status.includes("class, 3 values")`, stepTimeout)
	if err := json.Unmarshal([]byte(eval[string](tb, js("chart"))), &ch); err != nil {
		t.Fatal(err)
	}
	colours := map[string]bool{}
	for _, it := range ch.Items {
		colours[it.Color] = true
	}
	if len(colours) != 3 || !strings.Contains(ch.Status, "class, 3 values") {
		t.Errorf("class: %d colours, status %q", len(colours), ch.Status)
	}
	tb.assertClean()
}

// embBox is where the 3-D view's box lands on its canvas (testdata/js
// embeddings.js box3d).
type embBox struct {
	Left, Top, Right, Bottom float64
	Width, Height            float64
	Sides                    []float64
	Extents                  [][]float64
	Names                    []string
	LabelSize                float64
}

// The views as a reader sees them, on the MNIST projector (a sprite; PCA
// components explaining 11.2%, 9.1% and 7.0%): the 2-D PCA view draws a
// unit as long on both axes (drawn anew when the chart narrows) and names
// them by component and variance; in
// 3-D the "Thumbnails as points" box is unticked and disabled with a note
// (ECharts GL draws dots), the whole box with room for its labels stays
// inside the canvas, the labels are 12 px, and the PCA box's sides are in
// the proportion of its axes' extents (one scale); back in 2-D the
// thumbnails come back.
func TestBrowserEmbeddingsViewsReadable(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t, withWebGL...)
	shots := screenshotDir(t)
	r := reportOf(t, sharedCorpus(t, "tbx12-2018-no-file-version"))
	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "embeddings.html"), ""))
	js := func(fn string, args ...any) string { return pageJS("embeddings.js", fn, args...) }
	waitDrawn := func(want string) {
		t.Helper()
		waitFor(tb, js("drawn")+` === `+strconv.Quote(want), 20*time.Second, "the chart "+want)
	}
	read := func(fn string, v any) {
		t.Helper()
		if err := json.Unmarshal([]byte(eval[string](tb, js(fn))), v); err != nil {
			t.Fatal(err)
		}
	}
	type thumbs struct {
		Shown, Checked, Enabled bool
		Note                    string
	}
	waitDrawn("0/0/pca/2")
	var sc struct {
		X, Y  float64
		Names []string
	}
	read("scale2d", &sc)
	if sc.X <= 0 || math.Abs(sc.X-sc.Y) > 0.01*sc.X {
		t.Errorf("PCA 2-D: %g px per unit across, %g up; want one scale", sc.X, sc.Y)
	}
	if want := []string{"PC1 (11.2%)", "PC2 (9.1%)"}; !slices.Equal(sc.Names, want) {
		t.Errorf("PCA 2-D axes named %q, want %q", sc.Names, want)
	}
	// A narrower chart (as a narrower window makes it): drawn again on
	// one scale.
	eval[any](tb, `(d => { d.style.flex = '0 0 600px'; window.dispatchEvent(new Event('resize')); })(document.querySelector('[data-emb-chart]'))`)
	if !eventually(tb, `(s => s.X > 0 && Math.abs(s.X - s.Y) <= 0.01 * s.X && s.X !== `+strconv.FormatFloat(sc.X, 'g', -1, 64)+`)(JSON.parse(`+js("scale2d")+`))`, stepTimeout) {
		read("scale2d", &sc)
		t.Errorf("PCA 2-D in a narrower chart: %g px per unit across, %g up; want one scale, drawn anew (%s)", sc.X, sc.Y,
			eval[string](tb, `(d => d.clientWidth + 'x' + d.clientHeight + ', chart ' + echarts.getInstanceByDom(d).getWidth())(document.querySelector('[data-emb-chart]'))`))
	}
	var th thumbs
	read("thumbsBox", &th)
	if !th.Shown || !th.Checked || !th.Enabled || th.Note != "" {
		t.Errorf("2-D: thumbnails box %+v, want shown, ticked, enabled, no note", th)
	}
	tb.screenshot(shots, "embeddings-views-pca-2d")

	for _, m := range []string{"pca", "tsne"} {
		eval[any](tb, js("set", "method", m))
		eval[any](tb, js("set", "dims", "3"))
		waitDrawn("0/0/" + m + "/3")
		var ch embChart
		read("chart", &ch)
		if ch.Type != "scatter3D" {
			t.Errorf("%s 3-D draws a %q series", m, ch.Type)
		}
		read("thumbsBox", &th)
		if th.Checked || th.Enabled || !strings.Contains(th.Note, "2-D only") {
			t.Errorf("%s 3-D: thumbnails box %+v, want unticked, disabled, with a note that they are drawn in 2-D only", m, th)
		}
		var box embBox
		read("box3d", &box)
		// Room for the tick labels and axis names around the box.
		const room = 40
		if box.Left < room || box.Top < room || box.Right > box.Width-room || box.Bottom > box.Height-room {
			t.Errorf("%s 3-D: box spans x %.0f..%.0f, y %.0f..%.0f of a %.0fx%.0f canvas; want it %d px inside",
				m, box.Left, box.Right, box.Top, box.Bottom, box.Width, box.Height, room)
		}
		if box.Bottom-box.Top < box.Height/3 {
			t.Errorf("%s 3-D: box %.0f px high on a %.0f px canvas, want a third of it or more", m, box.Bottom-box.Top, box.Height)
		}
		if box.LabelSize < 12 {
			t.Errorf("%s 3-D: tick labels of %g px, want 12 or more", m, box.LabelSize)
		}
		if m == "pca" {
			if want := []string{"PC1 (11.2%)", "PC2 (9.1%)", "PC3 (7.0%)"}; !slices.Equal(box.Names, want) {
				t.Errorf("PCA 3-D axes named %q, want %q", box.Names, want)
			}
			// One scale: units per side length alike on the three axes.
			u := make([]float64, 3)
			for k := range 3 {
				u[k] = (box.Extents[k][1] - box.Extents[k][0]) / box.Sides[k]
			}
			for k := 1; k < 3; k++ {
				if math.Abs(u[k]-u[0]) > 0.01*u[0] {
					t.Errorf("PCA 3-D: %g units per box side across x, %g along axis %d; want one scale (sides %v, extents %v)", u[0], u[k], k, box.Sides, box.Extents)
				}
			}
		}
		tb.screenshot(shots, "embeddings-views-"+m+"-3d")
	}
	eval[any](tb, js("set", "dims", "2"))
	waitDrawn("0/0/tsne/2")
	read("thumbsBox", &th)
	var ch embChart
	read("chart", &ch)
	if !th.Checked || !th.Enabled || ch.Type != "custom" {
		t.Errorf("back in 2-D: thumbnails box %+v, series %q; want thumbnails again", th, ch.Type)
	}
	tb.assertClean()
}

// TestBrowserEmbeddingsSayWhatIsTrue: the page, the warning and the data
// agree. An embedding whose tensor is in a checkpoint that cannot be read
// (tf2-projector-ckpt without its checkpoint files, its metadata cut to
// 320 rows) has no points: the page says so in the warning's words, not
// "shape [] unknown or empty", and the metadata the warning says is read
// is in the data, all 320 rows. A config listing one entry six times
// lists one step, saying it repeats; one naming a tensor twice with
// other files lists the two steps apart.
func TestBrowserEmbeddingsSayWhatIsTrue(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t, withWebGL...)
	shots := screenshotDir(t)
	js := func(fn string, args ...any) string { return pageJS("embeddings.js", fn, args...) }

	t.Run("checkpoint-not-read", func(t *testing.T) {
		src := filepath.Join(sharedCorpus(t, "tf2-projector-ckpt"), "logs")
		logs := filepath.Join(t.TempDir(), "ckpt", "logs")
		if err := os.MkdirAll(logs, 0o755); err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case strings.HasPrefix(e.Name(), "embed.ckpt"):
				continue // the checkpoint's index and data: not there
			case e.Name() == "word.tsv":
				lines := strings.SplitAfter(string(b), "\n")
				b = []byte(strings.Join(lines[:320], ""))
			}
			if err := os.WriteFile(filepath.Join(logs, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r := buildReport(t, filepath.Dir(logs))
		sum, err := os.ReadFile(filepath.Join(r.site, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(sum), "which cannot be read") || !strings.Contains(string(sum), "(their metadata is read)") {
			t.Errorf("summary.json lacks the warning that the checkpoint cannot be read and the metadata is")
		}
		files, _ := filepath.Glob(filepath.Join(r.site, "data", "embeddings", "*", "*.json"))
		if len(files) != 3 {
			t.Fatalf("%d embedding data files, want 3", len(files))
		}
		for _, f := range files {
			var d struct {
				Steps []struct {
					Error    string
					Metadata [][]string
				}
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &d); err != nil || len(d.Steps) != 1 {
				t.Fatalf("%s: %v, %d steps", f, err, len(d.Steps))
			}
			if n := len(d.Steps[0].Metadata); n != 320 {
				t.Errorf("%s: %d of the 320 metadata rows, error %q", filepath.Base(f), n, d.Steps[0].Error)
			}
		}
		for i := range 3 {
			// A tab per embedding: the status line does not name it.
			tb := openTab(t, browser, fileURL(filepath.Join(r.site, "embeddings.html"), "emb="+strconv.Itoa(i)))
			waitFor(tb, js("drawn")+` === "error"`, 20*time.Second, "the view")
			st := eval[string](tb, js("status"))
			if strings.Contains(st, "unknown or empty") || !strings.Contains(st, `no points: its tensor is in TensorFlow checkpoint "logs/embed.ckpt-4", which was not read`) ||
				!strings.Contains(st, "its 320 rows of metadata (logs/word.tsv) are in its data file") {
				t.Errorf("embedding %d: the page says %q", i, st)
			}
			if i == 0 {
				tb.screenshot(shots, "embeddings-checkpoint-not-read")
			}
			tb.assertClean()
		}
	})

	t.Run("repeated-entries", func(t *testing.T) {
		logs := filepath.Join(t.TempDir(), "logs")
		writeEventFile(t, filepath.Join(logs, "run", "events.out.tfevents.1700000000.host"),
			[]*eventpb.Event{summaryEvent(0, 0, simpleValue("loss", 1))})
		var t1, t2, md strings.Builder
		md.WriteString("word\tcount\n")
		for i := range 20 {
			fmt.Fprintf(&t1, "%d\t%d\t%d\n", i, i*i%7, i%3)
			fmt.Fprintf(&t2, "%d\t%d\t%d\n", -i, i%5, i*i%11)
			fmt.Fprintf(&md, "w%d\t%d\n", i, i)
		}
		entry := "embeddings {\n  tensor_name: \"emb\"\n  tensor_path: \"%s\"\n  metadata_path: \"meta.tsv\"\n}\n"
		config := strings.Repeat(fmt.Sprintf(entry, "t1.tsv"), 6) + fmt.Sprintf(entry, "t2.tsv")
		for name, text := range map[string]string{"t1.tsv": t1.String(), "t2.tsv": t2.String(), "meta.tsv": md.String(), "projector_config.pbtxt": config} {
			if err := os.WriteFile(filepath.Join(logs, "run", name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r := buildReport(t, logs)
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "embeddings.html"), ""))
		if n := eval[int](tb, js("count")); n != 1 {
			t.Fatalf("%d embeddings listed, want 1", n)
		}
		// The last step is shown first.
		waitFor(tb, js("drawn")+` === "0/1/pca/2"`, 20*time.Second, "the view")
		eval[any](tb, js("set", "step", "0"))
		waitFor(tb, js("drawn")+` === "0/0/pca/2"`, 20*time.Second, "the view")
		if got, want := eval[[]string](tb, js("steps")), []string{"step 0 · entry 1 of 2", "step 0 · entry 2 of 2"}; !slices.Equal(got, want) {
			t.Errorf("the step list says %q, want %q", got, want)
		}
		if st := eval[string](tb, js("status")); !strings.Contains(st, "run/projector_config.pbtxt lists this entry 6 times, the same tensor and files: drawn once.") {
			t.Errorf("entry 1: the status says %q", st)
		}
		tb.screenshot(shots, "embeddings-repeated-entries")
		eval[any](tb, js("set", "step", "1"))
		waitFor(tb, js("drawn")+` === "0/1/pca/2"`, 20*time.Second, "the view")
		if st := eval[string](tb, js("status")); strings.Contains(st, "lists this entry") {
			t.Errorf("entry 2 says it repeats: %q", st)
		}
		tb.assertClean()
	})
}
