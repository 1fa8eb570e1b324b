package render

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/reduce/project"
	"github.com/trainreport/trainreport/internal/testcorpus"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// corpus returns the shared corpus (see internal/testcorpus).
func corpus(t testing.TB) string { return testcorpus.Dir(t) }

func collectDir(t testing.TB, name, dir string) *model.Report {
	t.Helper()
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: name, Path: dir}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func filesByName(t testing.TB, r *Report) map[string][]byte {
	t.Helper()
	files, err := r.siteFiles()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string][]byte{}
	for _, f := range files {
		if _, dup := m[f.name]; dup {
			t.Fatalf("two site files named %s", f.name)
		}
		m[f.name] = f.data
	}
	return m
}

// checkGolden compares the site files that keep selects with the golden
// directory byte for byte, or rewrites it under -update, and returns how
// many files it compared. A golden file no longer written is an error.
func checkGolden(t *testing.T, golden string, files map[string][]byte, keep func(name string) bool) int {
	t.Helper()
	if *update {
		os.RemoveAll(golden)
	}
	n := 0
	for name, data := range files {
		if !keep(name) {
			continue
		}
		n++
		p := filepath.Join(golden, filepath.FromSlash(name))
		if *update {
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(p)
		if err != nil {
			t.Errorf("%s: no golden file (run with -update): %v", name, err)
		} else if !bytes.Equal(data, want) {
			t.Errorf("%s differs from %s (run with -update and review the diff)", name, p)
		}
	}
	filepath.WalkDir(golden, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(golden, p)
			if _, ok := files[filepath.ToSlash(rel)]; !ok {
				t.Errorf("golden file %s is no longer written", rel)
			}
		}
		return nil
	})
	return n
}

// goldenInputs is the one table of inputs whose outputs are pinned: each
// with the data it must produce (prefixes of site files), so that a
// golden directory that lost a kind of output fails even under -update.
var goldenInputs = []struct {
	name   string // of its golden directory
	corpus bool   // in the shared corpus, else a fixture under collect/testdata (goldenReport)
	wants  []string
	// dir, when set, is the input's directory relative to the repository
	// (a reader's own fixture).
	dir string
	// embeddings are the embeddings page's caps: smaller than the defaults
	// for big embeddings, so that the test lays out samples in seconds.
	embeddings project.Options
}{
	{name: "keras-tf21-standard-profile", corpus: true, wants: []string{"data/histograms/", "data/distributions/", "data/graphs/"}},
	{name: "keras-tf22-images", corpus: true, wants: []string{"data/histograms/", "data/distributions/", "data/images/", "data/graphs/"}},
	{name: "lightning-hparams-only", corpus: true, wants: []string{"data/hparams.json"}},
	{name: "tbreducer-torch-runs", corpus: true, wants: []string{"data/scalars/", "summary.md"}},
	{name: "tbx12-2018-no-file-version", corpus: true, wants: []string{"data/images/", "data/graphs/", "data/embeddings/"}},
	{name: "tf1-estimator-truncated", corpus: true, wants: []string{"data/text/", "data/graphs/"}},
	{name: "tf2-custom-loop-tensors", corpus: true, wants: []string{"data/scalars/", "summary.md", "data/graphs/"}},
	{name: "tf2-hparams-api-experiment", corpus: true, wants: []string{"data/hparams.json"}},
	// Three checkpoint-backed embeddings of 10,000 points: sampled by caps.
	{name: "tf2-projector-ckpt", corpus: true, wants: []string{"data/embeddings/"},
		embeddings: project.Options{MaxPCA: 1000, MaxTSNE: 300, MaxUMAP: 200, MaxNeighbors: 300}},
	{name: "tsvis-oneflow-logs", corpus: true, wants: []string{"data/images/", "data/graphs/"}},
	{name: "oneflow-exceptions", dir: "collect/testdata/oneflow-exceptions/logs", wants: []string{"data/exceptions/"}},
	{name: "projector-tsvis", dir: "collect/projector/testdata/tsvis", wants: []string{"data/embeddings/"}},
	{name: "writers-keras", wants: []string{"data/histograms/", "data/images/", "data/graphs/"}},
	{name: "writers-keras_nested", wants: []string{"data/graphs/"}},
	{name: "writers-tensorboardx", wants: []string{"data/histograms/", "data/images/", "data/audio/", "data/text/", "data/pr_curves/", "data/hparams.json", "data/embeddings/", "media/embeddings/"}},
	{name: "writers-tf2", wants: []string{"data/histograms/", "data/images/", "data/audio/", "data/text/", "data/tensors/", "data/pr_curves/", "data/embeddings/"}},
	{name: "writers-torch", wants: []string{"data/histograms/", "data/images/", "data/text/", "data/pr_curves/", "data/hparams.json", "data/embeddings/", "media/embeddings/"}},
	{name: "mindspore", dir: "collect/testdata/mindspore", wants: []string{"data/scalars/", "data/histograms/", "data/distributions/", "data/images/", "data/tensors/", "data/hparams.json"}},
	{name: "visdom", dir: "collect/visdom/testdata", wants: []string{"data/visdom/", "data/scalars/", "data/images/", "data/text/", "data/audio/"}},
}

// goldenReport collects and renders one input of goldenInputs.
func goldenReport(t *testing.T, name string, inCorpus bool, own string) *model.Report {
	t.Helper()
	dir := filepath.Join("..", "collect", "testdata", "writers", strings.TrimPrefix(name, "writers-"))
	switch {
	case inCorpus:
		dir = filepath.Join(corpus(t), name)
	case own != "":
		dir = filepath.Join("..", filepath.FromSlash(own))
	}
	return collectDir(t, name, dir)
}

// TestGolden pins every JSON output (data files and scalar bundles, data/index.json,
// summary.json) and summary.md of each input of goldenInputs byte for
// byte, one directory per input under testdata/golden, and checks that
// the outputs of the line form hold json.MarshalIndent's values
// (checkLineForm). Run `go test
// ./render -run TestGolden -update` to rewrite them, and review the diff
// like code.
func TestGolden(t *testing.T) {
	for _, in := range goldenInputs {
		t.Run(in.name, func(t *testing.T) {
			files := filesByName(t, newReport(goldenReport(t, in.name, in.corpus, in.dir), Options{Title: in.name}, analysis.Options{Embeddings: in.embeddings}))
			golden := filepath.Join("testdata", "golden", in.name)
			// The scalar bundles (data/scalars/*.js) are data files too.
			checkGolden(t, golden, files, func(name string) bool {
				return strings.HasSuffix(name, ".json") || name == "summary.md" || strings.HasPrefix(name, "data/scalars/")
			})
			// The line form holds json.MarshalIndent's values.
			for name := range lineFormTypes {
				if data, ok := files[name]; ok {
					checkLineForm(t, name, data)
				}
			}
			for _, want := range in.wants {
				found := false
				for name := range files {
					found = found || strings.HasPrefix(name, want)
				}
				if !found {
					t.Errorf("no output %s*", want)
				}
			}
		})
	}
}

// parseDataFile reads a scalar data file of layout 1: {tag: [[wall_time,
// step, value], ...]}, numbers as json.Number, non-finite values as strings.
func parseDataFile(t testing.TB, b []byte) (string, [][3]any) {
	t.Helper()
	var m map[string][][3]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("data file does not parse: %v", err)
	}
	for tag, pts := range m {
		return tag, pts
	}
	t.Fatal("empty data file")
	return "", nil
}

func numberOf(t testing.TB, v any, bits int) float64 {
	t.Helper()
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), bits)
		if err != nil {
			t.Fatal(err)
		}
		return f
	case float64:
		f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', -1, 64), bits)
		return f
	case string:
		switch x {
		case "NaN":
			return math.NaN()
		case "Infinity":
			return math.Inf(1)
		case "-Infinity":
			return math.Inf(-1)
		}
	}
	t.Fatalf("value %#v is not a number", v)
	return 0
}

func sameFloat(a, b float64) bool {
	return a == b || (math.IsNaN(a) && math.IsNaN(b))
}

// TestDataFilesHoldEveryPoint checks that every scalar point of every
// directory of the shared corpus reaches data/ with its exact step, wall
// time and value (after the restart rule), and that data/index.json points
// at every file.
func TestDataFilesHoldEveryPoint(t *testing.T) {
	root := corpus(t)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		rep := collectDir(t, e.Name(), filepath.Join(root, e.Name()))
		// Small embedding caps: this test is about the scalars.
		files := filesByName(t, newReport(rep, Options{}, analysis.Options{Embeddings: project.Options{MaxTSNE: 300, MaxUMAP: 200, MaxNeighbors: 300}}))
		var index dataIndex
		if err := json.Unmarshal(files["data/index.json"], &index); err != nil {
			t.Fatalf("%s: data/index.json: %v", e.Name(), err)
		}
		for _, run := range rep.Runs {
			for _, s := range run.Scalars {
				rel := index.Scalars[run.Name][s.Tag]
				b, ok := files["data/"+rel]
				if !ok {
					t.Errorf("%s: run %q tag %q: index names %q, which is not written", e.Name(), run.Name, s.Tag, rel)
					continue
				}
				c, ok := readRunBundle(t, rel, b, run.Name).Scalars[s.Tag]
				pts := c.decode(t)
				if !ok || len(pts.values) != len(s.Points) {
					t.Errorf("%s: %s: tag %q with %d points, want %d", e.Name(), rel, s.Tag, len(pts.values), len(s.Points))
					continue
				}
				bits := 64
				if s.Float32 {
					bits = 32
				}
				for i, p := range s.Points {
					wall, step, v := pts.walls[i], pts.steps[i], numberOf(t, pts.values[i], bits)
					if !sameBits(wall, p.WallTime) || step != p.Step || !sameFloat(v, p.Value) {
						t.Errorf("%s: %s point %d: (%v, %v, %v), want (%v, %v, %v)", e.Name(), rel, i, wall, step, v, p.WallTime, p.Step, p.Value)
						break
					}
				}
				total += len(pts.values)
			}
		}
	}
	t.Logf("%d scalar points checked", total)
	if total < 20000 {
		t.Errorf("only %d points in the corpus: is it complete?", total)
	}
}

// synthetic builds a report from series given as values per (run, tag).
func synthetic(runs map[string]map[string][]float64) *model.Report {
	rep := &model.Report{Logdirs: []model.Logdir{{Name: "logs", Path: "logs"}}}
	for _, name := range sortedKeys(runs) {
		run := &model.Run{Name: name, Logdir: "logs", Path: name, HasEvents: true, Start: 1e9, End: 1e9 + 3600,
			Files: []model.File{{Rel: name + "/events.out.tfevents.1.host", Size: 100, Records: 10, Status: "ok"}}}
		for _, tag := range sortedKeys(runs[name]) {
			s := &model.Scalar{Tag: tag}
			for i, v := range runs[name][tag] {
				s.Points = append(s.Points, model.Point{WallTime: 1e9 + float64(i), Step: int64(i), Value: v})
			}
			run.Scalars = append(run.Scalars, s)
			run.LastStep = max(run.LastStep, int64(len(s.Points)-1))
		}
		rep.Runs = append(rep.Runs, run)
	}
	return rep
}

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

func TestDataCapKeepsExtremes(t *testing.T) {
	vals := make([]float64, 250_000)
	for i := range vals {
		vals[i] = math.Sin(float64(i) / 1000)
	}
	vals[123_457] = 99
	vals[200_001] = math.NaN()
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": vals}})
	for _, tc := range []struct {
		cap, wantMax int
	}{{0, 100_000 + 100}, {1000, 1000 + 10}, {-1, 250_000}} {
		files := filesByName(t, newReport(rep, Options{}, analysis.Options{MaxDataPoints: tc.cap}))
		var index dataIndex
		json.Unmarshal(files["data/index.json"], &index)
		name := index.Scalars["a"]["loss"]
		pts := readRunBundle(t, name, files["data/"+name], "a").Scalars["loss"].decode(t)
		if n := len(pts.values); n > tc.wantMax || (tc.cap < 0 && n != 250_000) {
			t.Errorf("cap %d: %d points in the data file", tc.cap, n)
		}
		found := map[string]bool{}
		for i, step := range pts.steps {
			switch step {
			case 0:
				found["first"] = true
			case 249_999:
				found["last"] = true
			case 123_457:
				found["spike"] = true
			case 200_001:
				found["NaN"] = pts.values[i] == "NaN"
			}
		}
		for _, k := range []string{"first", "last", "spike", "NaN"} {
			if !found[k] {
				t.Errorf("cap %d: %s point missing from the data file", tc.cap, k)
			}
		}
		if tc.cap >= 0 && len(index.Downsampled) != 1 {
			t.Errorf("cap %d: index lists %d downsampled series, want 1", tc.cap, len(index.Downsampled))
		}
	}
}

// hostile names try to escape HTML, JSON, Markdown and the output directory.
var hostile = []string{
	`<script>alert(1)</script>`,
	`"><img src=x onerror=alert(1)>`,
	`../../../../tmp/evil`,
	`..`,
	`.`,
	`a/../../b`,
	"tab\tnew\nline|pipe`tick",
	`C:\windows\system32`,
	`</script><script>alert(2)</script>`,
	"\u2028\u2029",
	strings.Repeat("long", 100),
}

func TestUntrustedNamesStayInert(t *testing.T) {
	runs := map[string]map[string][]float64{}
	for i, name := range hostile {
		runs[name] = map[string][]float64{}
		for _, tag := range hostile {
			runs[name][tag+"/"+tag] = []float64{float64(i), 1, 2}
		}
	}
	// With the files of layout 1 too: a file per series, named by its run
	// and tag, besides a bundle per run.
	r := newReport(synthetic(runs), Options{Title: `<b>title</b>`, DataTianshu: true})
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	if err := r.WriteSite(out); err != nil {
		t.Fatal(err)
	}
	var single, md bytes.Buffer
	if err := r.WriteSingleFile(&single); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	// Nothing is written outside the site, and every name is one we chose.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("files written beside the site: %v", entries)
	}
	nfiles := 0
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(out, p)
		if strings.Contains(rel, "..") && !d.IsDir() {
			t.Errorf("file name %q holds ..", rel)
		}
		for _, c := range d.Name() {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._-", c)) {
				t.Errorf("file name %q holds %q", rel, c)
				break
			}
		}
		if !d.IsDir() {
			nfiles++
		}
		return nil
	})
	if want := len(hostile) * len(hostile); nfiles < want {
		t.Errorf("%d files for %d series: names collided", nfiles, want)
	}
	pages := map[string][]byte{"single-file": single.Bytes()}
	for _, p := range []string{"index.html", "scalars.html"} {
		b, err := os.ReadFile(filepath.Join(out, p))
		if err != nil {
			t.Fatal(err)
		}
		pages[p] = b
	}
	for name, b := range pages {
		for _, bad := range []string{"<script>alert", "<img src=x", "<b>title</b>", "</script><script>alert(2)"} {
			if bytes.Contains(b, []byte(bad)) {
				t.Errorf("%s holds %q unescaped", name, bad)
			}
		}
		// Every chart's data still round-trips the names exactly.
		for _, chunk := range bytes.Split(b, []byte(`class="chart-data">`))[1:] {
			end := bytes.Index(chunk, []byte("</script>"))
			var cj struct {
				Tag  string
				Runs []struct{ Name string }
			}
			if err := json.Unmarshal(chunk[:end], &cj); err != nil {
				t.Fatalf("%s: chart data does not parse: %v", name, err)
			}
			if g, _, _ := strings.Cut(cj.Tag, "/"); !contains(hostile, g) && !contains(hostile, cj.Tag[:len(cj.Tag)/2]) {
				t.Errorf("%s: chart tag %q is not one of the input's", name, cj.Tag)
			}
			for _, r := range cj.Runs {
				if !contains(hostile, r.Name) {
					t.Errorf("%s: run %q is not one of the input's", name, r.Name)
				}
			}
		}
	}
	// The static charts are the only images: ours, named by number.
	mdText := ownChartImage.ReplaceAllString(md.String(), "")
	for _, bad := range []string{"<script", "<img", "](", "\n|pipe"} {
		if strings.Contains(mdText, bad) {
			t.Errorf("Markdown holds %q unescaped", bad)
		}
	}
}

// ownChartImage matches summary.md's images of its static charts.
var ownChartImage = regexp.MustCompile(`(?m)^!\[chart-[0-9]+\]\(charts/chart-[0-9]+\.svg\)`)

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestDeterministic(t *testing.T) {
	root := corpus(t)
	build := func() map[string][]byte {
		var lds []model.Logdir
		for _, e := range []string{"tf1-estimator-truncated", "tbreducer-torch-runs", "keras-tf21-standard-profile"} {
			lds = append(lds, model.Logdir{Name: e, Path: filepath.Join(root, e)})
		}
		rep, err := collect.Collect(context.Background(), lds, collect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := newReport(rep, Options{})
		files := filesByName(t, r)
		var single bytes.Buffer
		if err := r.WriteSingleFile(&single); err != nil {
			t.Fatal(err)
		}
		files["single-file"] = single.Bytes()
		return files
	}
	a, b := build(), build()
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between two builds", name)
		}
	}
}

func TestMarkdownStaysSmall(t *testing.T) {
	runs := map[string]map[string][]float64{}
	for r := range 40 {
		tags := map[string][]float64{}
		for tg := range 400 {
			tags[fmt.Sprintf("group%d/tag%d", tg%7, tg)] = []float64{1, 2, math.NaN(), 3}
		}
		runs[fmt.Sprintf("run%02d", r)] = tags
	}
	var md bytes.Buffer
	if err := newReport(synthetic(runs), Options{}).WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if md.Len() >= 1<<20 {
		t.Errorf("summary.md is %d bytes, want under 1 MiB", md.Len())
	}
	if !strings.Contains(md.String(), "left out") {
		t.Errorf("a cut summary does not say so")
	}
	if strings.Contains(md.String(), "data:") {
		t.Errorf("summary.md holds a data: URI")
	}
}

func TestSingleFileIsSelfContained(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": {3, 2, 1}}, "b": {"loss": {4, 3, 2}, "acc": {0.1, 0.5}}})
	var b bytes.Buffer
	if err := newReport(rep, Options{}).WriteSingleFile(&b); err != nil {
		t.Fatal(err)
	}
	// The one link a page holds is its empty icon, a data: URL that keeps
	// a browser from asking a server for /favicon.ico.
	s := strings.Replace(b.String(), `<link rel="icon" href="data:,">`, "", 1)
	for _, bad := range []string{"<script src", "<link", "src=\"http", "href=\"http", "url(http", "@import"} {
		if strings.Contains(s, bad) {
			t.Errorf("single file holds %q", bad)
		}
	}
	for _, want := range []string{`data-page="index"`, `data-page="scalars"`, `href="#page=scalars"`, "echarts"} {
		if !strings.Contains(s, want) {
			t.Errorf("single file lacks %q", want)
		}
	}
}

func TestSlug(t *testing.T) {
	seen := map[string]string{}
	for _, name := range append(hostile, "a", "A", "a_", "a-", "") {
		s := slug(name)
		if prev, dup := seen[s]; dup {
			t.Errorf("slug(%q) = slug(%q) = %q", name, prev, s)
		}
		seen[s] = name
		if s == "" || s[0] == '.' || strings.ContainsAny(s, `/\`) || len(s) > 64 {
			t.Errorf("slug(%q) = %q", name, s)
		}
	}
}

func TestAppendValue(t *testing.T) {
	tests := []struct {
		v    float64
		f32  bool
		want string
	}{
		{0.1, false, "0.1"},
		{float64(float32(0.1)), true, "0.1"},
		{float64(float32(0.1)), false, "0.10000000149011612"},
		{1e-7, false, "1e-07"},
		{1e21, false, "1e+21"},
		{123456789, false, "123456789"},
		{math.NaN(), false, `"NaN"`},
		{math.Inf(1), true, `"Infinity"`},
		{math.Inf(-1), false, `"-Infinity"`},
		{0, false, "0"},
		{-2.5, true, "-2.5"},
	}
	for _, tc := range tests {
		if got := string(appendValue(nil, tc.v, tc.f32)); got != tc.want {
			t.Errorf("appendValue(%v, %v) = %s, want %s", tc.v, tc.f32, got, tc.want)
		}
	}
}

// BenchmarkSite builds every file of the site for 80 series of 12,500
// points (1,000,000 points).
func BenchmarkSite(b *testing.B) {
	runs := map[string]map[string][]float64{}
	for r := range 8 {
		tags := map[string][]float64{}
		for tg := range 10 {
			vals := make([]float64, 12_500)
			for i := range vals {
				vals[i] = math.Sin(float64(i)/100) * float64(tg+1)
			}
			tags[fmt.Sprintf("group%d/metric%d", tg%3, tg)] = vals
		}
		runs[fmt.Sprintf("run%d", r)] = tags
	}
	rep := synthetic(runs)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := newReport(rep, Options{}).siteFiles(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(1e6*float64(b.N)/b.Elapsed().Seconds(), "points/s")
}
