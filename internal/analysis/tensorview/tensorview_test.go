package tensorview

import (
	"math"
	"slices"
	"testing"
)

// A matrix larger than the bound shrinks by whole blocks, each cell the
// mean of its block's finite values, a NaN or infinity showing through.
func TestHeatmapShrinks(t *testing.T) {
	vals := make([]float64, 10*7)
	for i := range vals {
		vals[i] = float64(i)
	}
	vals[3*7+5] = math.Inf(1) // row 3, column 5: block (1, 2)
	hm := HeatmapOf(vals, []int{10, 7}, 4)
	if hm.BlockRows != 3 || hm.BlockCols != 2 || hm.CellRows != 4 || hm.CellCols != 4 {
		t.Fatalf("blocks %dx%d, cells %dx%d", hm.BlockRows, hm.BlockCols, hm.CellRows, hm.CellCols)
	}
	// Block (0, 0): rows 0-2, columns 0-1.
	if want := float64(0+1+7+8+14+15) / 6; hm.Cells[0] != want {
		t.Errorf("cell (0, 0) = %v, want %v", hm.Cells[0], want)
	}
	if !math.IsInf(hm.Cells[1*4+2], 1) {
		t.Errorf("cell (1, 2) = %v, want +Inf", hm.Cells[1*4+2])
	}
	// Block (3, 3): row 9, column 6 only.
	if hm.Cells[15] != 69 || hm.Pad[15] {
		t.Errorf("cell (3, 3) = %v", hm.Cells[15])
	}
}

// Past the limit, the furthest outliers are kept, NaN and infinities
// first, and listed in index order.
func TestOutliersLimit(t *testing.T) {
	vals := []float64{0, 100, 0, -5, math.NaN(), 0, 50, 0, 0, 0, 0, 0}
	o := OutliersOf(vals, Box{Down: -1, Q1: 0, Median: 0, Q3: 0, Up: 1}, 2)
	if o.Total != 4 || !slices.Equal(o.Indices, []int{1, 4}) {
		t.Errorf("outliers %v of %d", o.Indices, o.Total)
	}
}

func TestNoFiniteValue(t *testing.T) {
	vals := []float64{math.NaN(), math.Inf(1)}
	if _, ok := Percentiles(vals); ok {
		t.Error("percentiles of no finite value")
	}
	if _, ok := HistogramOf(vals); ok {
		t.Error("histogram of no finite value")
	}
	if o := OutliersOf(vals, Box{}, 10); o.Total != 2 {
		t.Errorf("outliers %+v", o)
	}
}
