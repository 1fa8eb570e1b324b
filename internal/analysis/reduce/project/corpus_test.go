package project

import (
	"context"
	"encoding/binary"
	"os"
	"testing"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/testcorpus"
)

// TestDumpCorpusSample writes, when TRAINREPORT_TSNE_DUMP names a file, the
// points the default t-SNE cap lays out of the corpus's tf2-projector-ckpt
// embedding embed0:0, as raw little-endian float32 rows: the input of
// testdata/reference.py --corpus, which scikit-learn's figures for them
// come from (tsne-tf2proj2500.json.gz). Without it, it checks that the
// sample is the cap's size and of that embedding's width.
func TestDumpCorpusSample(t *testing.T) {
	dir := testcorpus.Dir(t, "tf2-projector-ckpt")
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "tf2-projector-ckpt", Path: dir}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var e *model.Embedding
	for _, run := range rep.Runs {
		for _, x := range run.Embeddings {
			if x.Name == "embed0:0" {
				e = x
			}
		}
	}
	if e == nil {
		t.Fatal("no embedding embed0:0")
	}
	data, err := e.Load(rep.Decoders())
	if err != nil {
		t.Fatal(err)
	}
	n, d := e.NumPoints(), e.Dims()
	s := sample(permutation(n, 0), DefaultMaxTSNE)
	points := gather(data, d, s)
	if len(s) != DefaultMaxTSNE || len(points) != DefaultMaxTSNE*16 {
		t.Fatalf("%d points of %d values, want %d of 16", len(s), len(points)/max(len(s), 1), DefaultMaxTSNE)
	}
	if out := os.Getenv("TRAINREPORT_TSNE_DUMP"); out != "" {
		f, err := os.Create(out)
		if err != nil {
			t.Fatal(err)
		}
		if err := binary.Write(f, binary.LittleEndian, points); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
