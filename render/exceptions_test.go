package render

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// The detail steps of a series are spread evenly with the last kept, the
// first step holding a NaN among them, never more than asked for; a step
// that cannot be read has no box and is counted.
func TestExceptionDetailSteps(t *testing.T) {
	const steps = 100
	src := &exceptionSource{run: &model.Run{Name: "r"}, tag: "g", source: "tensor",
		shape: func(int) []int64 { return []int64{2, 3} },
		dtype: func(int) string { return "float64" },
		load: func(i int) ([]float64, error) {
			switch i {
			case 37:
				return []float64{1, math.NaN(), 2, 3, 4, 5}, nil
			case 50:
				return nil, fmt.Errorf("unreadable")
			}
			return []float64{float64(i), 1, 2, 3, 4, 5}, nil
		}}
	for i := range steps {
		src.steps, src.wall = append(src.steps, int64(10*i)), append(src.wall, float64(i))
	}
	s := readException(src, 10)
	var picked []int
	for _, d := range s.details {
		picked = append(picked, d.index)
	}
	if len(picked) > 10 || !slices.Contains(picked, 37) || picked[len(picked)-1] != steps-1 || !slices.IsSorted(picked) {
		t.Errorf("detail steps %v: want at most 10, sorted, with 37 and %d", picked, steps-1)
	}
	if s.nonFinite[37] != 1 || len(s.errs) != 1 || s.errs[50] == nil || s.ok[50] || s.boxJSON(50, 1.5) != nil {
		t.Errorf("nonfinite %d, errs %v", s.nonFinite[37], s.errs)
	}
	d := s.details[slices.Index(picked, 37)]
	if d.outliers.Total < 1 || !slices.Contains(d.outliers.Indices, 1) || d.heat.Rows != 2 || d.heat.Cols != 3 || !d.hasHist {
		t.Errorf("step 37: outliers %+v, heat map %dx%d", d.outliers, d.heat.Rows, d.heat.Cols)
	}
}
