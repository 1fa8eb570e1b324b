package anomaly

import (
	"context"
	"encoding/binary"
	"math"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// FuzzRules runs every rule on a series of any values, as a scalar (named
// as a loss and a learning rate) and as a histogram's extremes: none may
// panic, and a finding must be at a step of the series.
func FuzzRules(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(make([]byte, 8*50))
	f.Fuzz(func(t *testing.T, raw []byte) {
		vals := make([]float64, len(raw)/8)
		for i := range vals {
			vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
		}
		pts := points(vals...)
		var hs []model.HistogramEntry
		for i := 0; i+1 < len(vals); i += 2 {
			hs = append(hs, model.HistogramEntry{Step: int64(i), Summary: model.Summary{Min: vals[i], Max: vals[i+1], Count: vals[i], Sum: vals[i+1]}})
		}
		rep := &model.Report{Runs: []*model.Run{{Name: "r", Scalars: []*model.Scalar{{Tag: "train/loss", Points: pts}, {Tag: "lr", Points: pts}},
			Histograms: []*model.Histogram{{Tag: "w", Entries: hs}}}}}
		th := DefaultThresholds
		th.SpikeWindow = 3 // short series reach the spike rule too
		for _, a := range Find(context.Background(), rep, th) {
			if a.HasStep && (a.Step < 0 || a.Step >= int64(max(len(vals), 1))) {
				t.Fatalf("%s at step %d of %d", a.Rule, a.Step, len(vals))
			}
		}
	})
}
