package histogram

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// FuzzRowsMath gives Compress and Rebin arbitrary rows, NaN, infinities,
// negative counts and reversed edges included, as damaged logs can hold:
// neither may panic, and Rebin's bins stay finite.
func FuzzRowsMath(f *testing.F) {
	f.Add([]byte{})
	f.Add(binary.LittleEndian.AppendUint64(nil, math.Float64bits(1)))
	f.Fuzz(func(t *testing.T, b []byte) {
		var rows []model.Bucket
		for len(b) >= 24 {
			rows = append(rows, model.Bucket{
				Left:  math.Float64frombits(binary.LittleEndian.Uint64(b)),
				Right: math.Float64frombits(binary.LittleEndian.Uint64(b[8:])),
				Count: math.Float64frombits(binary.LittleEndian.Uint64(b[16:])),
			})
			b = b[24:]
		}
		Compress(rows)
		for _, c := range Rebin(rows, -1, 1, 30) {
			if math.IsNaN(c) || math.IsInf(c, 0) {
				t.Fatalf("Rebin gave %v for %v", c, rows)
			}
		}
	})
}
