package main

import (
	"io"
	"slices"
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
