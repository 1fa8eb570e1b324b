package render

import (
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// TestSparklineSampleReadsTheSeriesInPlace checks that a sparkline's
// values are those of the drawn points its indices name, read from the
// series with one allocation, the sample's own (every series of a sweep
// has sparklines: a copy of its drawn points each was most of the
// overview's garbage), and every drawn point when the view has no
// indices for the budget.
func TestSparklineSampleReadsTheSeriesInPlace(t *testing.T) {
	s := &model.Scalar{Tag: "loss", Points: make([]model.Point, 2_000)}
	for i := range s.Points {
		s.Points[i] = model.Point{Step: int64(i), Value: float64(i)}
	}
	draw := make([]int, 1_000) // every other point
	for i := range draw {
		draw[i] = 2 * i
	}
	var spark [len(result.SparkBudgets)][]int32
	spark[1] = []int32{0, 10, 999} // budget 40: indices into draw
	sv := &seriesView{scalar: s, draw: draw, spark: &spark}
	var vals []float64
	if n := testing.AllocsPerRun(10, func() { vals = sv.sampleValues(40) }); n != 1 {
		t.Errorf("%v allocations a sample, want 1", n)
	}
	if len(vals) != 3 || vals[0] != 0 || vals[1] != 20 || vals[2] != 1998 {
		t.Errorf("sample of 40: %v, want [0 20 1998]", vals)
	}
	if all := sv.sampleValues(80); len(all) != len(draw) || all[999] != 1998 {
		t.Errorf("sample without indices: %d values ending %v, want every drawn point", len(all), all[len(all)-1])
	}
}
