package render

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	r := New(rep, Options{})
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
	r := New(rep, Options{EmbeddingTotalTSNE: 60, EmbeddingTotalUMAP: 90})
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
