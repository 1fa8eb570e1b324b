package histogram

import (
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

func TestFromTensor(t *testing.T) {
	got, err := FromTensor([]float64{0, 1, 2, 1, 2, 3}, []int64{2, 3})
	if err != nil || !slices.Equal(got, []model.Bucket{{Left: 0, Right: 1, Count: 2}, {Left: 1, Right: 2, Count: 3}}) {
		t.Errorf("got %v, %v", got, err)
	}
	if got, err := FromTensor(nil, []int64{0, 3}); err != nil || got != nil {
		t.Errorf("empty tensor: %v, %v", got, err)
	}
	for _, shape := range [][]int64{{2, 2}, {3}, {2, 3, 1}} {
		if _, err := FromTensor(make([]float64, 6), shape); err == nil {
			t.Errorf("shape %v accepted", shape)
		}
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]model.Bucket{{Left: 0, Right: 1, Count: 0}, {Left: 1, Right: 3, Count: 2}, {Left: 3, Right: 4, Count: 2}})
	if s != (model.Summary{Min: 1, Max: 4, Count: 4, Sum: 2*2 + 2*3.5}) {
		t.Errorf("got %+v", s)
	}
}
