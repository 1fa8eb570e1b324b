package histogram

import (
	"math"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

func TestRebin(t *testing.T) {
	tests := []struct {
		name   string
		rows   []model.Bucket
		lo, hi float64
		n      int
		want   []float64
	}{
		{"same bins pass through", []model.Bucket{{Left: 0, Right: 1, Count: 2}, {Left: 1, Right: 2, Count: 3}}, 0, 2, 2, []float64{2, 3}},
		{"a wide bucket is split evenly", []model.Bucket{{Left: 0, Right: 4, Count: 8}}, 0, 4, 4, []float64{2, 2, 2, 2}},
		{"narrow buckets are merged", []model.Bucket{{Left: 0, Right: 0.5, Count: 1}, {Left: 0.5, Right: 1, Count: 2}, {Left: 1, Right: 1.5, Count: 3}, {Left: 1.5, Right: 2, Count: 4}}, 0, 2, 2, []float64{3, 7}},
		{"split in proportion to overlap", []model.Bucket{{Left: 0, Right: 3, Count: 3}}, 0, 4, 2, []float64{2, 1}},
		{"zero-width bucket goes to its bin", []model.Bucket{{Left: 1.5, Right: 1.5, Count: 5}}, 0, 2, 2, []float64{0, 5}},
		{"zero-width bucket at the top edge", []model.Bucket{{Left: 2, Right: 2, Count: 5}}, 0, 2, 2, []float64{0, 5}},
		{"negative range", []model.Bucket{{Left: -4, Right: -2, Count: 4}, {Left: -2, Right: 0, Count: 2}}, -4, 0, 4, []float64{2, 2, 1, 1}},
		{"non-finite rows are left out", []model.Bucket{{Left: math.Inf(-1), Right: 0, Count: 9}, {Left: 0, Right: 1, Count: math.NaN()}, {Left: 0, Right: 1, Count: 1}}, 0, 1, 1, []float64{1}},
		{"empty range gives zeros", []model.Bucket{{Left: 1, Right: 1, Count: 5}}, 1, 1, 2, []float64{0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Rebin(tc.rows, tc.lo, tc.hi, tc.n)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-12 {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}
	// The total is kept when the range covers the rows.
	rows := []model.Bucket{{Left: -1e-3, Right: 1e-3, Count: 7}, {Left: 1e-3, Right: 0.1, Count: 13}, {Left: 0.1, Right: 2.5, Count: 1}, {Left: 2.5, Right: 2.5, Count: 4}}
	sum := 0.0
	for _, c := range Rebin(rows, -1e-3, 2.5, 30) {
		sum += c
	}
	if math.Abs(sum-25) > 1e-9 {
		t.Errorf("total %v, want 25", sum)
	}
}

// Rows whose edges are finite but whose widths overflow float64 (a TF2
// histogram of [-1e308, 1e308]) used to rebin to NaN over their own range,
// which render wrote into a page as a bare NaN and the whole report
// failed. Rebin now works on halved edges, and clamps counts that add up
// past float64, so every bin is finite.
func TestRebinHugeEdgesStaysFinite(t *testing.T) {
	tests := []struct {
		name   string
		rows   []model.Bucket
		lo, hi float64
		want   float64 // the total, when it fits
	}{
		{"one row of overflowing width", []model.Bucket{{Left: -1e308, Right: 1e308, Count: 5}}, -1e308, 1e308, 5},
		{"a wide row in a narrow range", []model.Bucket{{Left: -1e308, Right: 1e308, Count: 6}, {Left: 0, Right: 1, Count: 1}}, 0, 1, 1 + 6*(1/2e308)},
		{"edges at ±MaxFloat64", []model.Bucket{{Left: -math.MaxFloat64, Right: 0, Count: 1}, {Left: 0, Right: math.MaxFloat64, Count: 3}}, -math.MaxFloat64, math.MaxFloat64, 4},
		{"huge counts", []model.Bucket{{Left: 0, Right: 1, Count: 1e308}, {Left: 0, Right: 1, Count: 1e308}, {Left: 1, Right: 1e300, Count: 1e308}}, 0, 1e300, math.NaN()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sum := 0.0
			for i, c := range Rebin(tc.rows, tc.lo, tc.hi, 30) {
				if math.IsNaN(c) || math.IsInf(c, 0) {
					t.Fatalf("bin %d is %v", i, c)
				}
				sum += c
			}
			if !math.IsNaN(tc.want) && math.Abs(sum-tc.want) > 1e-9*tc.want {
				t.Errorf("total %v, want %v", sum, tc.want)
			}
		})
	}
}
