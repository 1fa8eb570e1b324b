package render

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/reduce/project"
	"github.com/trainreport/trainreport/internal/testsupport"
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

// The data files say what the analysis computed of each step and what it
// left out: the methods, the neighbour lists, the notes of the budgets,
// and for a step not laid out its error, also noted in data/index.json.
func TestEmbeddingDataFilesSayWhatWasLeftOut(t *testing.T) {
	rep := collectDir(t, "proj", testsupport.TinyEmbeddings(t, 3))
	defer rep.Close()
	// Room for every PCA and one set of neighbour lists, not for a third
	// embedding: the plan in analysis' tests.
	pca := project.Estimate(50, 9, project.Options{Methods: []project.Method{project.PCA}, MaxNeighbors: -1})
	lists := project.Estimate(50, 9, project.Options{Methods: []project.Method{project.PCA}}) - pca
	r := newReport(rep, Options{}, analysis.Options{EmbeddingBudget: 2*pca + lists + lists/2})
	files := filesByName(t, r)
	sets := r.an.Embeddings.Sets
	if len(sets) != 3 {
		t.Fatalf("%d embeddings, want 3", len(sets))
	}
	for i, set := range sets {
		var f struct {
			Steps []struct {
				Error       string
				Skipped     []string
				Projections []struct{ Method string }
				Neighbors   *struct{ K int }
			}
		}
		if err := json.Unmarshal(files["data/"+embeddingFileOf(set)], &f); err != nil {
			t.Fatal(err)
		}
		got, s := f.Steps[0], set.Steps[0]
		var methods []string
		for _, p := range got.Projections {
			methods = append(methods, p.Method)
		}
		want := map[int]string{0: "[pca] lists=true", 1: "[pca] lists=false", 2: "[] lists=false"}[i]
		if line := fmt.Sprintf("%v lists=%v", methods, got.Neighbors != nil); line != want || !slices.Equal(got.Skipped, s.Skipped) ||
			(got.Error != "") != (i == 2) || i == 2 && got.Error != s.Err.Error() {
			t.Errorf("embedding %d: %s, skipped %q, error %q; want %s, skipped %q, error %v", i, line, got.Skipped, got.Error, want, s.Skipped, s.Err)
		}
	}
	var index dataIndex
	if err := json.Unmarshal(files["data/index.json"], &index); err != nil {
		t.Fatal(err)
	}
	if len(index.Errors) != 1 || index.Errors[0].Tag != "e2" || !strings.Contains(index.Errors[0].Error, "not laid out: the report's budget") {
		t.Errorf("index errors %+v, want e2 not laid out", index.Errors)
	}
}

// The page says the methods and caps the analysis used.
func TestEmbeddingsPageSaysMethodsAndCaps(t *testing.T) {
	rep := collectDir(t, "proj", testsupport.TinyEmbeddings(t, 1))
	defer rep.Close()
	files := filesByName(t, newReport(rep, Options{}, analysis.Options{Embeddings: project.Options{
		Methods: []project.Method{project.UMAP, project.PCA}, MaxTSNE: 1234, MaxNeighbors: -1}}))
	if page, want := string(files["embeddings.html"]), "Computed here: UMAP, PCA. Caps: PCA 50,000, t-SNE 1,234, UMAP 2,500 points; neighbour lists for 0;"; !strings.Contains(page, want) {
		t.Errorf("the page does not say %q", want)
	}
}

// A sprite over the pixel bound is not published: the embedding is drawn
// without thumbnails.
func TestSpriteOverPixelBoundNotPublished(t *testing.T) {
	dir := testsupport.TinyEmbeddings(t, 0)
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
