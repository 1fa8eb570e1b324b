package demolog

import (
	"context"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
)

// TestGraphAndProjector reads the demo back with package collect: each
// train job's first process wrote the model graph, with output shapes,
// and the eval run holds a projector embedding of 300 points with a
// metadata header and a sprite of a thumbnail per point, so that the demo
// report has a Graphs and an Embeddings page; the baseline run holds a
// custom-scalars layout of three charts. Nothing is warned of.
func TestGraphAndProjector(t *testing.T) {
	dir := generateInto(t)
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "demo", Path: dir}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	graphs := map[string]int{}
	for _, r := range rep.Runs {
		if got := r.Layout != nil; got != (r.Path == "baseline") {
			t.Errorf("run %s: layout %v", r.Path, r.Layout)
		} else if got && (len(r.Layout.Categories) != 2 || len(r.Layout.Categories[0].Charts) != 2) {
			t.Errorf("run %s: layout %+v, want 2 categories, 2 charts in the first", r.Path, r.Layout)
		}
		for _, w := range r.Warnings {
			t.Errorf("run %s: warning %v", r.Path, w)
		}
		for _, g := range r.Graphs {
			graphs[r.Path] = len(g.Nodes)
			if !slices.ContainsFunc(g.Nodes, func(n model.Node) bool { return n.Name == "sequential/conv2d_1/Conv2D" && n.Op == "Conv2D" }) {
				t.Errorf("run %s: graph without sequential/conv2d_1/Conv2D", r.Path)
			}
		}
		if r.Path != evalRun {
			if len(r.Embeddings) > 0 {
				t.Errorf("run %s: %d embeddings, want none", r.Path, len(r.Embeddings))
			}
			continue
		}
		if len(r.Embeddings) != 1 {
			t.Fatalf("run %s: %d embeddings, want 1", r.Path, len(r.Embeddings))
		}
		e := r.Embeddings[0]
		n := embPerClass * len(classes)
		if e.NumPoints() != n || e.Dims() != embDims {
			t.Errorf("embedding shape %v, want [%d %d]", e.Shape, n, embDims)
		}
		if e.Metadata == nil || !slices.Equal(e.Metadata.Columns, []string{"label", "predicted", "correct"}) || len(e.Metadata.Rows) != n {
			t.Errorf("embedding metadata %+v, want the 3 columns and %d rows", e.Metadata, n)
		}
		if s := e.Sprite; s == nil || s.SingleImageDim != [2]int{spriteSide, spriteSide} || s.Width < 10*spriteSide || s.Width != s.Height {
			t.Errorf("embedding sprite %+v, want a square sheet of %d px thumbnails for %d points", e.Sprite, spriteSide, n)
		}
	}
	if len(graphs) != 2 || graphs["lr=0.01/train"] != 55 || graphs["lr=0.003/train"] != 55 {
		t.Errorf("graphs' nodes by run %v, want the CNN's 55 in lr=0.01/train and lr=0.003/train", graphs)
	}
	for _, w := range rep.Warnings {
		t.Errorf("warning %v", w)
	}
}
