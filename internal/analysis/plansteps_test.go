package analysis

import (
	"context"
	"math"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// TestPlanGivesStepsOnlyOfProgressionsInOrder checks that a view's Steps
// is its points' steps as a progression in their order, stride >= 0,
// when they are one, and nothing otherwise (steps out of order, of
// several strides, descending, wrapping int64), in a direct build and
// from shapes taken apart (a merge's), alike.
func TestPlanGivesStepsOnlyOfProgressionsInOrder(t *testing.T) {
	cases := map[string]struct {
		steps []int64
		want  result.StepProgression
	}{
		"a-one":        {[]int64{7}, result.StepProgression{First: 7, Count: 1}},
		"b-stride":     {[]int64{10, 13, 16, 19}, result.StepProgression{First: 10, Stride: 3, Count: 4}},
		"c-constant":   {[]int64{5, 5, 5}, result.StepProgression{First: 5, Count: 3}},
		"d-descending": {[]int64{9, 6, 3}, result.StepProgression{}},
		"e-unsorted":   {[]int64{0, 2, 1, 3}, result.StepProgression{}},
		"f-irregular":  {[]int64{0, 1, 2, 4, 5}, result.StepProgression{}},
		"g-wrapping":   {[]int64{math.MaxInt64 - 1, math.MaxInt64, math.MinInt64}, result.StepProgression{}},
		"h-negative":   {[]int64{-4, -2, 0, 2}, result.StepProgression{First: -4, Stride: 2, Count: 4}},
	}
	run := &model.Run{Name: "run"}
	for tag, c := range cases {
		s := &model.Scalar{Tag: tag}
		for i, st := range c.steps {
			s.Points = append(s.Points, model.Point{Step: st, WallTime: 1e9 + float64(i), Value: float64(i)})
		}
		run.Scalars = append(run.Scalars, s)
	}
	rep := &model.Report{Runs: []*model.Run{run}}
	apart := NewShapes()
	apart.Add(run)
	for _, shapes := range []*Shapes{nil, apart} {
		st, err := Plan(context.Background(), rep, shapes, Options{})
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, tag := range st.Scalars().Tags {
			for _, v := range tag.Series {
				seen++
				if want := cases[tag.Tag].want; v.Steps != want {
					t.Errorf("shapes apart %v: %s's steps %v: %+v, want %+v", shapes != nil, tag.Tag, cases[tag.Tag].steps, v.Steps, want)
				}
			}
		}
		if seen != len(cases) {
			t.Errorf("%d views of %d series", seen, len(cases))
		}
	}
}
