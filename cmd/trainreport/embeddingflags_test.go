package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/reduce/project"
)

func TestEmbeddingFlags(t *testing.T) {
	c, _, err := parseArgs([]string{"--embedding-methods", "UMAP, pca", "--embedding-max-points", "tsne=200, neighbors=50,umap-total=7", "logs"}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	e := c.embeddings
	if !slices.Equal(e.opt.Methods, []project.Method{project.UMAP, project.PCA}) || e.opt.MaxTSNE != 200 || e.opt.MaxNeighbors != 50 ||
		e.opt.MaxPCA != 0 || e.totalUMAP != 7 || e.totalTSNE != 0 {
		t.Errorf("parsed %+v", e)
	}
	c, _, err = parseArgs([]string{"logs"}, io.Discard, io.Discard)
	if err != nil || c.embeddings.opt.Methods != nil {
		t.Errorf("default methods %v (%v), want nil: every method", c.embeddings.opt.Methods, err)
	}
	for _, bad := range [][]string{
		{"--embedding-methods", "pca,lle"},
		{"--embedding-max-points", "tsne=0"},
		{"--embedding-max-points", "tsne"},
		{"--embedding-max-points", "isomap=10"},
		{"--embedding-max-points", "umap=-3"},
	} {
		if _, _, err := parseArgs(append(bad, "logs"), io.Discard, io.Discard); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// A log directory holding only projector files (TF's projector API used
// without tf.summary) gets a report of its embeddings, not "no event files".
func TestEmbeddingsOnlyLogdir(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"projector_config.pbtxt": "embeddings {\n  tensor_name: \"e\"\n  tensor_path: \"t.tsv\"\n}\n",
		"t.tsv":                  "1\t2\n3\t4\n5\t7\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "site")
	code, stderr := runCLI(t, "-o", out, dir)
	if code != 0 || !strings.Contains(stderr, "laid out 1 embedding in ") {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	for _, f := range []string{"embeddings.html", "index.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}
