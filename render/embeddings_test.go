package render

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/internal/analysis/reduce/project"
)

// writeProjector writes a projector log directory: one embedding of n
// points in TSV with a two-column metadata file whose names and values
// are hostile, and one whose tensor file is missing.
func writeProjector(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	config := `embeddings {
  tensor_name: "</script><script>alert(1)</script>"
  tensor_path: "tensors.tsv"
  metadata_path: "metadata.tsv"
}
embeddings {
  tensor_name: "missing"
  tensor_path: "nope.tsv"
  tensor_shape: 3
  tensor_shape: 2
}
`
	var tsv, meta strings.Builder
	meta.WriteString("label\t<b onmouseover=alert(2)>kind</b>\n")
	for i := range n {
		fmt.Fprintf(&tsv, "%d\t%d\t%d\n", i%3, (i*7)%5, i%2)
		fmt.Fprintf(&meta, "<img src=x onerror=alert(%d)>\t%d\n", i, i%3)
	}
	for name, text := range map[string]string{"projector_config.pbtxt": config, "tensors.tsv": tsv.String(), "metadata.tsv": meta.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// An embedding's data file holds every projection of every point with the
// metadata, its script form hands the same text to the page, hostile
// names stay inert in the page and the single file, and an embedding
// whose points cannot be read is a note, not a failure.
func TestEmbeddingsDataAndInertNames(t *testing.T) {
	rep := collectDir(t, "proj", writeProjector(t, 30))
	defer rep.Close()
	r := newReport(rep, Options{})
	files := filesByName(t, r)
	var index dataIndex
	if err := json.Unmarshal(files["data/index.json"], &index); err != nil {
		t.Fatal(err)
	}
	var name string
	for _, byName := range index.Categories["embedding"] {
		name = "data/" + byName["</script><script>alert(1)</script>"]
	}
	b, ok := files[name]
	if !ok {
		t.Fatalf("no data file for the hostile embedding in %v", index.Categories["embedding"])
	}
	var f struct {
		Name  string
		Steps []struct {
			Columns     []string
			Metadata    [][]string
			Projections []struct {
				Method   string
				Sample   []int32
				Coords2D [][]float64 `json:"coords_2d"`
				Coords3D [][]float64 `json:"coords_3d"`
			}
			Neighbors struct {
				K         int
				Euclidean [][]int32
			}
		}
		Tianshu struct {
			Index map[string]any
			Steps map[string][2]json.RawMessage
		}
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	s := f.Steps[0]
	if f.Name != "</script><script>alert(1)</script>" || len(s.Metadata) != 30 || s.Columns[1] != "<b onmouseover=alert(2)>kind</b>" {
		t.Errorf("name %q, %d metadata rows, columns %q", f.Name, len(s.Metadata), s.Columns)
	}
	if len(s.Projections) != 3 {
		t.Fatalf("%d projections, want 3", len(s.Projections))
	}
	for _, p := range s.Projections {
		if p.Sample != nil || len(p.Coords2D) != 30 || len(p.Coords3D) != 30 || len(p.Coords3D[0]) != 3 {
			t.Errorf("%s: sample %v, %d and %d points", p.Method, p.Sample, len(p.Coords2D), len(p.Coords3D))
		}
	}
	if s.Neighbors.K != 10 || len(s.Neighbors.Euclidean) != 30 {
		t.Errorf("neighbours: k %d, %d lists", s.Neighbors.K, len(s.Neighbors.Euclidean))
	}
	if _, ok := f.Tianshu.Index[f.Name]; !ok || len(f.Tianshu.Steps["0"]) != 2 {
		t.Errorf("Tianshu shapes: %v", f.Tianshu.Index)
	}

	// The script form: the data file's text as a JSON string.
	js := string(files[strings.TrimSuffix(name, ".json")+".js"])
	prefix := "window.trainreport&&window.trainreport.dataLoaded("
	if !strings.HasPrefix(js, prefix) || !strings.HasSuffix(js, ");\n") {
		t.Fatalf("script form %.80q", js)
	}
	var args []json.RawMessage
	if err := json.Unmarshal([]byte("["+strings.TrimSuffix(strings.TrimPrefix(js, prefix), ");\n")+"]"), &args); err != nil || len(args) != 2 {
		t.Fatalf("script form arguments: %v", err)
	}
	var text string
	if err := json.Unmarshal(args[1], &text); err != nil || text != string(b) {
		t.Errorf("the script form does not hand the data file's text (%v)", err)
	}
	if strings.Contains(js, "</script") || strings.Contains(js, "<img") {
		t.Error("the script form holds markup unescaped")
	}

	// The missing tensor: a note, and the other embedding still drawn.
	found := false
	for _, e := range index.Errors {
		found = found || e.Tag == "missing" && e.Category == "embedding"
	}
	if !found {
		t.Errorf("no note for the embedding without points: %+v", index.Errors)
	}

	// Names inert in the page and in the single file.
	for what, page := range map[string]string{"embeddings.html": string(files["embeddings.html"]), "single file": singleFile(t, r)} {
		for _, bad := range []string{"<script>alert(1)", "<img src=x", "<b onmouseover"} {
			if strings.Contains(page, bad) {
				t.Errorf("%s holds %q unescaped", what, bad)
			}
		}
	}
}

func singleFile(t *testing.T, r *Report) string {
	t.Helper()
	var b strings.Builder
	if err := r.WriteSingleFile(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A config may name one small tensor file many times: the report's
// budgets of t-SNE and UMAP points bound the work, in report order, and
// the embeddings past them say so.
func TestEmbeddingBudgets(t *testing.T) {
	dir := writeProjector(t, 30)
	var config strings.Builder
	for i := range 5 {
		fmt.Fprintf(&config, "embeddings {\n  tensor_name: \"e%d\"\n  tensor_path: \"tensors.tsv\"\n}\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "projector_config.pbtxt"), []byte(config.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := collectDir(t, "proj", dir)
	defer rep.Close()
	r := newReport(rep, Options{EmbeddingTotalTSNE: 60, EmbeddingTotalUMAP: 90})
	files := filesByName(t, r)
	for i, v := range r.embeddingViews() {
		var f struct {
			Steps []struct {
				Skipped     []string
				Projections []struct{ Method string }
			}
		}
		if err := json.Unmarshal(files["data/"+v.file], &f); err != nil {
			t.Fatal(err)
		}
		var methods []string
		for _, p := range f.Steps[0].Projections {
			methods = append(methods, p.Method)
		}
		want := []string{"pca", "tsne", "umap"}
		switch {
		case i >= 3:
			want = []string{"pca"}
		case i == 2:
			want = []string{"pca", "umap"}
		}
		if fmt.Sprint(methods) != fmt.Sprint(want) || len(f.Steps[0].Skipped) != 3-len(want) {
			t.Errorf("embedding %d (%s): methods %v, skipped %q; want %v", i, v.name, methods, f.Steps[0].Skipped, want)
		}
		for _, s := range f.Steps[0].Skipped {
			if !strings.Contains(s, "budget of 60 points laid out by t-SNE") && !strings.Contains(s, "budget of 90 points laid out by UMAP") {
				t.Errorf("embedding %d: note %q", i, s)
			}
		}
	}
}

// writeTinyEmbeddings writes a config naming one tensor file of 50 points
// of 8 values count times (2,000 of them, 121 KB, took 259 s: each tiny
// embedding's layouts cost iterations, however few its points).
func writeTinyEmbeddings(t *testing.T, count int) string {
	t.Helper()
	dir := t.TempDir()
	var config, tsv strings.Builder
	for i := range count {
		fmt.Fprintf(&config, "embeddings { tensor_name: \"e%d\" tensor_path: \"t.tsv\" }\n", i)
	}
	for i := range 50 {
		for j := range 8 {
			fmt.Fprintf(&tsv, "%d\t", (i*31+j*17)%23)
		}
		tsv.WriteString("1\n")
	}
	for name, text := range map[string]string{"projector_config.pbtxt": config.String(), "t.tsv": tsv.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// 2,000 tiny embeddings: the default budget of work, counting each one's
// fixed cost and iterations, gives t-SNE and UMAP to the first ones that
// fit, in report order, and every one its PCA and neighbour lists; the
// others say what was left out, and one warning per note counts them. The
// plan is made from the shapes, before any point is read.
func TestManyTinyEmbeddingsSpendTheWorkBudget(t *testing.T) {
	const count = 2000
	rep := collectDir(t, "proj", writeTinyEmbeddings(t, count))
	defer rep.Close()
	r := newReport(rep, Options{})
	plan := r.planEmbeddings()
	if len(plan) != count {
		t.Fatalf("%d embeddings planned, want %d", len(plan), count)
	}
	full := project.Estimate(50, 9, project.Options{})
	var work int64
	with := map[project.Method]int{} // the embeddings with each method: a prefix
	for i, p := range plan {
		work += p.work
		if p.skipAll != "" || p.opt.MaxNeighbors < 0 {
			t.Fatalf("embedding %d: %q, lists %d", i, p.skipAll, p.opt.MaxNeighbors)
		}
		for _, m := range []project.Method{project.TSNE, project.UMAP} {
			has := slices.Contains(p.opt.Methods, m)
			if has && with[m] != i {
				t.Fatalf("embedding %d has %s after one without", i, m)
			}
			if has {
				with[m]++
			} else if !slices.ContainsFunc(p.step.skipped, func(s string) bool {
				return strings.HasPrefix(s, methodTitle(m)+" not computed: the report's budget of 200 estimated core-seconds of embedding layouts was spent")
			}) {
				t.Fatalf("embedding %d: no %s, skipped %q", i, m, p.step.skipped)
			}
		}
	}
	if work > DefaultEmbeddingBudget {
		t.Errorf("planned work %d, over the budget %d", work, DefaultEmbeddingBudget)
	}
	if want := int(DefaultEmbeddingBudget / full); with[project.UMAP] < want-5 || with[project.UMAP] > want+5 || with[project.TSNE] < with[project.UMAP] {
		t.Errorf("%v embeddings get t-SNE and UMAP; the budget holds about %d at %d units each", with, want, full)
	}
	w := r.EmbeddingWarnings()
	if len(w) != 2 || !strings.Contains(w[0], fmt.Sprintf("UMAP not computed: the report's budget of 200 estimated core-seconds of embedding layouts was spent (--embedding-budget), for %s embeddings (the first: run \".\", embedding %q",
		fmtCount(count-with[project.UMAP]), plan[with[project.UMAP]].view.name)) || !strings.Contains(w[1], fmt.Sprintf("t-SNE not computed: the report's budget of 200 estimated core-seconds of embedding layouts was spent (--embedding-budget), for %s embeddings",
		fmtCount(count-with[project.TSNE]))) {
		t.Errorf("warnings %q", w)
	}
}

// The budget of work goes to every embedding's PCA first, then in report
// order to each one's neighbour lists, t-SNE and UMAP while they fit; a
// budget too small even for PCA leaves an embedding out, said on its step.
// The work planned stays within the budget, progress is told before each
// embedding and at the end, and the data files say what each got.
func TestEmbeddingWorkBudgetEndToEnd(t *testing.T) {
	// The parts of one embedding, each as it adds to the estimate of
	// those before it (t-SNE's graph is the lists' Euclidean one).
	est := func(methods []project.Method, lists int) int64 {
		return project.Estimate(50, 9, project.Options{Methods: methods, MaxNeighbors: lists})
	}
	pca := []project.Method{project.PCA}
	b := est(pca, -1)
	l := est(pca, 0) - b
	ts := est(append(pca, project.TSNE), 0) - b - l
	u := est(project.Methods, 0) - b - l - ts
	if !(u > ts/2 && ts/2 > 3*l && b/2 > 5*l) {
		t.Fatalf("the cases below assume other costs: pca %d, lists %d, t-SNE %d, UMAP %d", b, l, ts, u)
	}
	for _, tc := range []struct {
		name   string
		budget int64
		want   []string
		warn   []string
	}{
		{"layouts while they fit", 6*b + 2*(l+ts+u) + 4*l + ts + ts/2, []string{
			"[pca tsne umap] lists=true skipped=0 error=false",
			"[pca tsne umap] lists=true skipped=0 error=false",
			"[pca tsne] lists=true skipped=1 error=false",
			"[pca] lists=true skipped=2 error=false",
			"[pca] lists=true skipped=2 error=false",
			"[pca] lists=true skipped=2 error=false",
		}, []string{`UMAP not computed: the report's budget of %s estimated core-seconds of embedding layouts was spent (--embedding-budget), for 4 embeddings (the first: run ".", embedding "e2", step 0)`,
			`t-SNE not computed: the report's budget of %s estimated core-seconds of embedding layouts was spent (--embedding-budget), for 3 embeddings (the first: run ".", embedding "e3", step 0)`}},
		{"PCA first", 5*b + b/2, []string{
			"[pca] lists=true skipped=2 error=false",
			"[pca] lists=true skipped=2 error=false",
			"[pca] lists=true skipped=2 error=false",
			"[pca] lists=true skipped=2 error=false",
			"[pca] lists=true skipped=2 error=false",
			"[] lists=false skipped=0 error=true",
		}, []string{`not laid out: the report's budget of %s estimated core-seconds of embedding layouts was spent (--embedding-budget), for 1 embedding (the first: run ".", embedding "e5", step 0)`,
			`t-SNE not computed: the report's budget of %s estimated core-seconds of embedding layouts was spent (--embedding-budget), for 5 embeddings (the first: run ".", embedding "e0", step 0)`,
			`UMAP not computed: the report's budget of %s estimated core-seconds of embedding layouts was spent (--embedding-budget), for 5 embeddings (the first: run ".", embedding "e0", step 0)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := collectDir(t, "proj", writeTinyEmbeddings(t, 6))
			defer rep.Close()
			var seen []EmbeddingProgress
			r := newReport(rep, Options{EmbeddingBudget: tc.budget, EmbeddingProgress: func(p EmbeddingProgress) { seen = append(seen, p) }})
			files := filesByName(t, r)
			var got []string
			for _, v := range r.embeddingViews() {
				var f struct {
					Steps []struct {
						Error       string
						Skipped     []string
						Projections []struct{ Method string }
						Neighbors   *struct{ K int }
					}
				}
				if err := json.Unmarshal(files["data/"+v.file], &f); err != nil {
					t.Fatal(err)
				}
				s := f.Steps[0]
				methods := []string{}
				for _, p := range s.Projections {
					methods = append(methods, p.Method)
				}
				got = append(got, fmt.Sprintf("%v lists=%v skipped=%d error=%v", methods, s.Neighbors != nil, len(s.Skipped), s.Error != ""))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("embeddings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			last := seen[len(seen)-1]
			if len(seen) != 7 || last.Done != 6 || last.Current != "" || last.DoneWork != last.TotalWork || last.TotalWork > tc.budget ||
				seen[0].Done != 0 || seen[0].Current != `run ".", embedding "e0", step 0` {
				t.Errorf("progress %+v", seen)
			}
			w := r.EmbeddingWarnings()
			for i := range w {
				w[i] = strings.TrimPrefix(w[i], "embeddings: ")
			}
			seconds := strconv.FormatFloat(float64(tc.budget)/project.WorkPerSecond, 'g', 2, 64)
			for i := range tc.warn {
				tc.warn[i] = fmt.Sprintf(tc.warn[i], seconds)
			}
			if strings.Join(w, "\n") != strings.Join(tc.warn, "\n") {
				t.Errorf("warnings\n%s\nwant\n%s", strings.Join(w, "\n"), strings.Join(tc.warn, "\n"))
			}
		})
	}
}

// A sprite over the pixel bound is not published: the embedding is drawn
// without thumbnails.
func TestSpriteOverPixelBoundNotPublished(t *testing.T) {
	dir := writeTinyEmbeddings(t, 0)
	// A PNG header claiming 30000x30000 pixels: all image.DecodeConfig reads.
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x75\x30\x00\x00\x75\x30\x08\x00\x00\x00\x00")
	png = binary.BigEndian.AppendUint32(png, crc32.ChecksumIEEE(png[12:]))
	config := `embeddings { tensor_name: "s" tensor_path: "t.tsv" sprite { image_path: "sprite.png" single_image_dim: [10, 10] } }`
	for name, b := range map[string][]byte{"sprite.png": png, "projector_config.pbtxt": []byte(config)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := collectDir(t, "proj", dir)
	defer rep.Close()
	files := filesByName(t, newReport(rep, Options{}))
	for name, b := range files {
		if strings.HasPrefix(name, "media/embeddings/") || strings.HasPrefix(name, "data/embeddings/") && strings.Contains(string(b), `"sprite"`) {
			t.Errorf("%s published with the sprite", name)
		}
	}
	if !strings.Contains(string(files["data/index.json"]), `"s"`) {
		t.Error("the embedding is not in the report")
	}
}
