package analysis

import (
	"context"
	"math"
	"testing"

	"github.com/trainreport/trainreport/collect/histogram"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// The result's basis points are TensorBoard's, the compressor's own.
func TestBasisPointsAreTheCompressors(t *testing.T) {
	if result.BasisPoints != histogram.BasisPoints {
		t.Errorf("result.BasisPoints %v, histogram.BasisPoints %v", result.BasisPoints, histogram.BasisPoints)
	}
}

// Every entry of every histogram series with entries is compressed once,
// in entry order; a series with none has no entry in the map.
func TestHistogramsCompressEveryEntry(t *testing.T) {
	rows := func(s float64) []model.Bucket {
		return []model.Bucket{{Left: -1, Right: 0, Count: s}, {Left: 0, Right: 1, Count: 2}, {Left: 1, Right: 3, Count: 1}}
	}
	h := &model.Histogram{Tag: "w"}
	for s := range 5 {
		h.Entries = append(h.Entries, model.HistogramEntry{Step: int64(s), Buckets: rows(float64(s))})
	}
	empty := &model.Histogram{Tag: "purged"}
	rep := &model.Report{Runs: []*model.Run{{Name: "a", Histograms: []*model.Histogram{h, empty}}}}
	an, err := Build(context.Background(), rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	comp := an.Histograms.Compressed
	if _, ok := comp[empty]; ok || len(comp[h]) != len(h.Entries) {
		t.Fatalf("%d series compressed, %d entries of %d", len(comp), len(comp[h]), len(h.Entries))
	}
	for i, e := range h.Entries {
		if comp[h][i] != histogram.Compress(e.Buckets) {
			t.Errorf("entry %d: %v, want %v", i, comp[h][i], histogram.Compress(e.Buckets))
		}
	}
}

// Re-binning over a range wider than float64 holds keeps the counts:
// the edges are halved, not the shares.
func TestRebinOverAnOverflowingRange(t *testing.T) {
	rows := []model.Bucket{{Left: -1e308, Right: 0, Count: 3}, {Left: 0, Right: 1e308, Count: 5}}
	bins := rebinSafe(rows, -1e308, 1e308, 2)
	if len(bins) != 2 || math.Abs(bins[0]-3) > 1e-9 || math.Abs(bins[1]-5) > 1e-9 {
		t.Errorf("bins %v, want [3 5]", bins)
	}
	if got, want := rebinSafe(rows[:1], -2, 0, 2), histogram.Rebin(rows[:1], -2, 0, 2); got[0] != want[0] || got[1] != want[1] {
		t.Errorf("finite range: %v, want Rebin's %v", got, want)
	}
}
