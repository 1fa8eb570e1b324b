package demolog

import (
	"context"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect"
)

// histogramTags are the tags histograms.go writes.
var histogramTags = map[string]bool{"weights/dense_1": true, "activations/relu_1": true}

// TestHistograms reads the demo's histograms back: 51 per tag in baseline
// (HistogramProto) and lr=0.003/train (TF2 tensors of 30 buckets), every
// value counted, none in the other runs.
func TestHistograms(t *testing.T) {
	dir := generateInto(t)
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "demo", Path: dir}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"baseline": 400, "lr=0.003/train": 100} // step spacing
	for _, run := range rep.Runs {
		every, ok := want[run.Name]
		if !ok {
			if len(run.Histograms) != 0 {
				t.Errorf("run %s: %d histogram tags, want none", run.Name, len(run.Histograms))
			}
			continue
		}
		if len(run.Histograms) != 2 {
			t.Fatalf("run %s: %d histogram tags, want 2", run.Name, len(run.Histograms))
		}
		for _, h := range run.Histograms {
			if !histogramTags[h.Tag] || len(h.Entries) != 51 {
				t.Fatalf("run %s: tag %s with %d histograms, want 51", run.Name, h.Tag, len(h.Entries))
			}
			for i, e := range h.Entries {
				total := 0.0
				for _, b := range e.Buckets {
					total += b.Count
				}
				n := map[string]float64{"weights/dense_1": 2000, "activations/relu_1": 4000}[h.Tag]
				if e.Step != int64(i)*every || total != n {
					t.Fatalf("run %s: tag %s: histogram %d at step %d counts %v, want step %d and %v", run.Name, h.Tag, i, e.Step, total, int64(i)*every, n)
				}
				if run.Name == "lr=0.003/train" && len(e.Buckets) != 30 {
					t.Fatalf("TF2 histogram of %d buckets, want 30", len(e.Buckets))
				}
			}
		}
	}
}
