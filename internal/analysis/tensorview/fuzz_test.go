package tensorview

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzTensorView feeds every computation any values and any shape: none
// may panic, every value must land in one heat-map cell, and the
// histogram must count every finite value.
func FuzzTensorView(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8}, uint8(2), uint8(1), uint8(1), uint8(8), uint8(3))
	f.Add([]byte{0xff, 0xf8, 0, 0, 0, 0, 0, 0, 0x7f, 0xf0, 0, 0, 0, 0, 0, 0}, uint8(4), uint8(1), uint8(1), uint8(1), uint8(2))
	f.Fuzz(func(t *testing.T, raw []byte, rank, a, b, c, side uint8) {
		vals := make([]float64, len(raw)/8)
		finite := 0
		for i := range vals {
			vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
			if !math.IsNaN(vals[i]) && !math.IsInf(vals[i], 0) {
				finite++
			}
		}
		dims := []int{int(a), int(b), int(c), len(vals), 2}[:rank%6]
		hm := HeatmapOf(vals, dims, int(side%70))
		if len(vals) > 0 && len(hm.Cells) != hm.CellRows*hm.CellCols {
			t.Fatalf("%d cells for %dx%d", len(hm.Cells), hm.CellRows, hm.CellCols)
		}
		p, ok := Percentiles(vals)
		if ok != (finite > 0) {
			t.Fatalf("percentiles ok=%v with %d finite values", ok, finite)
		}
		if ok {
			for i := 1; i < len(p); i++ {
				if p[i] < p[i-1] {
					t.Fatalf("percentiles not in order: %v", p)
				}
			}
			OutliersOf(vals, BoxOf(p, 1.5), 3)
		}
		if h, ok := HistogramOf(vals); ok {
			n := 0
			for _, c := range h.Counts {
				n += c
			}
			if n != finite {
				t.Fatalf("histogram counts %d of %d finite values", n, finite)
			}
		}
	})
}
