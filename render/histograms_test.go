package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/summary"

	"github.com/trainreport/trainreport/collect/histogram"
)

// histogramInputs are the logs with histograms besides the two of
// TestGolden: HistogramProto from Keras (TF 2.1 and 2.2) in the corpus, and
// every writer's fixture.
func histogramInputs(t *testing.T) map[string]string {
	root := corpus(t)
	in := map[string]string{}
	for _, c := range []string{"keras-tf21-standard-profile", "keras-tf22-images"} {
		in[c] = filepath.Join(root, c)
	}
	for _, w := range []string{"tensorboardx", "tf2", "keras", "torch"} {
		in["writers-"+w] = filepath.Join("..", "collect", "testdata", "writers", w)
	}
	return in
}

// TestHistogramDataFaithful reads back every histogram and distribution
// data file of the corpus inputs and checks each step against the model:
// same steps in order, exact wall times, min, max and rows, and
// histogram.Compress of the rows; data/index.json lists every file under
// both categories, in each run's "statistic" section.
func TestHistogramDataFaithful(t *testing.T) {
	in := histogramInputs(t)
	in["tf2-custom-loop-tensors"] = filepath.Join(corpus(t), "tf2-custom-loop-tensors")
	for name, dir := range in {
		t.Run(name, func(t *testing.T) {
			rep := collectDir(t, name, dir)
			files := filesByName(t, newReport(rep, Options{}))
			var index struct {
				Runs       map[string]struct{ Categories map[string]any }
				Categories map[string]map[string]map[string]string
			}
			if err := json.Unmarshal(files["data/index.json"], &index); err != nil {
				t.Fatal(err)
			}
			series := 0
			for _, run := range rep.Runs {
				for _, h := range run.Histograms {
					series++
					if _, ok := index.Runs[run.Name].Categories["statistic"].(map[string]any)["histogram"]; !ok {
						t.Errorf("run %q: no statistic/histogram in its category index", run.Name)
					}
					hf := index.Categories["histogram"][run.Name][h.Tag]
					df := index.Categories["distribution"][run.Name][h.Tag]
					var hists map[string][][5]any
					var dists map[string][][3]any
					if err := json.Unmarshal(files["data/"+hf], &hists); err != nil {
						t.Fatalf("%s: %v", hf, err)
					}
					if err := json.Unmarshal(files["data/"+df], &dists); err != nil {
						t.Fatalf("%s: %v", df, err)
					}
					hs, ds := hists[h.Tag], dists[h.Tag]
					if len(hs) != len(h.Entries) || len(ds) != len(h.Entries) {
						t.Fatalf("%s: %d histograms and %d distributions for %d steps", h.Tag, len(hs), len(ds), len(h.Entries))
					}
					for i, e := range h.Entries {
						got := fmt.Sprint(hs[i][0], hs[i][1], hs[i][2], hs[i][3], hs[i][4])
						want := fmt.Sprint(jsonRoundTrip(t, []any{summary.Float(e.WallTime), e.Step, summary.Float(e.Min), summary.Float(e.Max), rowsJSON(e.Buckets)})...)
						if got != want {
							t.Fatalf("%s step %d: histogram %s, want %s", h.Tag, e.Step, got, want)
						}
						var bps [][2]any
						for j, v := range histogram.Compress(e.Buckets) {
							bps = append(bps, [2]any{histogram.BasisPoints[j], summary.Float(v)})
						}
						got = fmt.Sprint(ds[i][0], ds[i][1], ds[i][2])
						want = fmt.Sprint(jsonRoundTrip(t, []any{summary.Float(e.WallTime), e.Step, bps})...)
						if got != want {
							t.Fatalf("%s step %d: distribution %s, want %s", h.Tag, e.Step, got, want)
						}
					}
				}
			}
			if series == 0 {
				t.Fatal("no histogram series")
			}
		})
	}
}

func rowsJSON(rows []model.Bucket) [][3]summary.Float {
	out := [][3]summary.Float{}
	for _, b := range rows {
		out = append(out, [3]summary.Float{summary.Float(b.Left), summary.Float(b.Right), summary.Float(b.Count)})
	}
	return out
}

// jsonRoundTrip encodes v and decodes it as the data files are decoded.
func jsonRoundTrip(t *testing.T, v []any) []any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out []any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// histReport is a report of runs x tags histogram series of steps steps
// each, with three buckets a step.
func histReport(runs, tags []string, steps int) *model.Report {
	rep := &model.Report{}
	for _, rn := range runs {
		run := &model.Run{Name: rn, Path: rn}
		for _, tag := range tags {
			h := &model.Histogram{Tag: tag}
			for s := range steps {
				rows := []model.Bucket{{Left: -1, Right: 0, Count: float64(s)}, {Left: 0, Right: 1, Count: 2}, {Left: 1, Right: 3, Count: 1}}
				h.Entries = append(h.Entries, model.HistogramEntry{WallTime: 1e9 + float64(s), Step: int64(s),
					Summary: histogram.Summarize(rows), Buckets: rows})
			}
			run.Histograms = append(run.Histograms, h)
		}
		rep.Runs = append(rep.Runs, run)
	}
	return rep
}

// chartData returns the inline data of every chart of a page.
func chartData(t *testing.T, page []byte) []statChartJSON {
	var out []statChartJSON
	for _, chunk := range bytes.Split(page, []byte(`class="stat-data">`))[1:] {
		var c statChartJSON
		if err := json.Unmarshal(chunk[:bytes.Index(chunk, []byte("</script>"))], &c); err != nil {
			t.Fatalf("chart data does not parse: %v: %.300s", err, chunk)
		}
		out = append(out, c)
	}
	return out
}

// TestHistogramBudgets checks that a chart draws at most its budget of
// steps, evenly spread with the last kept, that the page's budget lowers it
// when there are many series, that the page says so, and that the data
// files keep every step.
func TestHistogramBudgets(t *testing.T) {
	tests := []struct {
		name             string
		runs, tags       int
		steps            int
		hist, dist       int // steps drawn per chart
		histNote, distNt string
	}{
		{"one series under the budget", 1, 1, 20, 20, 20, "20 steps", "20 steps"},
		{"one long series", 1, 1, 1000, DefaultHistogramSteps, distributionSteps, "50 of 1,000 steps", "500 of 1,000 steps"},
		{"many series share the page budget", 8, 50, 1000, histogramPageBins / (8 * 50 * histogramBins), distributionPageSteps / (8 * 50), "25 of 1,000 steps", "75 of 1,000 steps"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var runs, tags []string
			for i := range tc.runs {
				runs = append(runs, fmt.Sprintf("run%d", i))
			}
			for i := range tc.tags {
				tags = append(tags, fmt.Sprintf("g/tag%02d", i))
			}
			files := filesByName(t, newReport(histReport(runs, tags, tc.steps), Options{}))
			for _, p := range []struct {
				file, note string
				want       int
			}{{"histograms.html", tc.histNote, tc.hist}, {"distributions.html", tc.distNt, tc.dist}} {
				page := files[p.file]
				charts := chartData(t, page)
				if len(charts) != tc.runs*tc.tags {
					t.Fatalf("%s: %d charts, want %d", p.file, len(charts), tc.runs*tc.tags)
				}
				var draw struct{ Steps [][]any }
				if err := json.Unmarshal(charts[0].Draw, &draw); err != nil {
					t.Fatal(err)
				}
				if len(draw.Steps) != p.want || charts[0].Total != tc.steps {
					t.Errorf("%s: draws %d of %d steps, want %d of %d", p.file, len(draw.Steps), charts[0].Total, p.want, tc.steps)
				}
				if last := draw.Steps[len(draw.Steps)-1][0]; last != float64(tc.steps-1) {
					t.Errorf("%s: last drawn step %v, want %d", p.file, last, tc.steps-1)
				}
				if !bytes.Contains(page, []byte(">"+p.note+"<")) {
					t.Errorf("%s does not say %q", p.file, p.note)
				}
			}
			for name, data := range files {
				if strings.HasPrefix(name, "data/histograms/") || strings.HasPrefix(name, "data/distributions/") {
					if n := bytes.Count(data, []byte("\n[")); n != tc.steps {
						t.Fatalf("%s holds %d steps, want %d", name, n, tc.steps)
					}
				}
			}
		})
	}
}

// TestHistogramNamesStayInert checks that hostile run and tag names reach
// the histogram and distribution pages escaped, and their chart data
// intact.
func TestHistogramNamesStayInert(t *testing.T) {
	var tags []string
	for _, h := range hostile {
		tags = append(tags, h+"/"+h)
	}
	r := newReport(histReport(hostile, tags, 3), Options{})
	files := filesByName(t, r)
	var single bytes.Buffer
	if err := r.WriteSingleFile(&single); err != nil {
		t.Fatal(err)
	}
	pages := map[string][]byte{"single-file": single.Bytes(),
		"histograms.html": files["histograms.html"], "distributions.html": files["distributions.html"]}
	tagAttr := regexp.MustCompile(`data-filter-tag="[^"]*"`)
	for name, b := range pages {
		if len(b) == 0 {
			t.Fatalf("%s missing", name)
		}
		for _, bad := range []string{"<script>alert", "<img src=x", "</script><script>alert(2)"} {
			if bytes.Contains(b, []byte(bad)) {
				t.Errorf("%s holds %q unescaped", name, bad)
			}
		}
		charts := chartData(t, b)
		if name != "single-file" && len(charts) != len(hostile)*len(tags) {
			t.Errorf("%s: %d charts, want %d", name, len(charts), len(hostile)*len(tags))
		}
		for _, c := range charts {
			if !contains(hostile, c.Run) {
				t.Errorf("%s: chart run %q is not one of the input's", name, c.Run)
			}
		}
		if len(tagAttr.FindAll(b, -1)) == 0 {
			t.Errorf("%s: no tags", name)
		}
	}
	for name := range files {
		if strings.Contains(name, "..") {
			t.Errorf("file name %q holds ..", name)
		}
	}
}

// TestHistogramOddValues checks that histograms with non-finite edges and
// counts, values beyond float32's range, empty rows and zero-width rows
// still give pages and data files that parse, with non-finite values as
// strings in the data files.
func TestHistogramOddValues(t *testing.T) {
	inf := math.Inf(1)
	rows := [][]model.Bucket{
		nil,
		{{Left: 1, Right: 1, Count: 5}},
		{{Left: -inf, Right: 0, Count: 1}, {Left: 0, Right: inf, Count: 2}},
		{{Left: 0, Right: 1, Count: math.NaN()}, {Left: 1, Right: 2, Count: 3}},
		{{Left: -1e300, Right: 0, Count: 1}, {Left: 0, Right: 1e300, Count: 1}},
	}
	h := &model.Histogram{Tag: "odd"}
	for i, r := range rows {
		h.Entries = append(h.Entries, model.HistogramEntry{WallTime: 1e9, Step: int64(i), Summary: histogram.Summarize(r), Buckets: r})
	}
	files := filesByName(t, newReport(&model.Report{Runs: []*model.Run{{Name: "run", Path: "run", Histograms: []*model.Histogram{h}}}}, Options{}))
	for _, page := range []string{"histograms.html", "distributions.html"} {
		charts := chartData(t, files[page])
		if len(charts) != 1 || charts[0].Total != len(rows) {
			t.Fatalf("%s: %+v", page, charts)
		}
	}
	n := 0
	for name, data := range files {
		if strings.HasPrefix(name, "data/histograms/") || strings.HasPrefix(name, "data/distributions/") {
			n++
			var v map[string][]any
			if err := json.Unmarshal(data, &v); err != nil || len(v["odd"]) != len(rows) {
				t.Errorf("%s: %v, %d steps", name, err, len(v["odd"]))
			}
			if strings.HasPrefix(name, "data/histograms/") && !bytes.Contains(data, []byte(`"-Infinity"`)) {
				t.Errorf("%s: no -Infinity edge: %s", name, data)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d data files, want 2", n)
	}
}
