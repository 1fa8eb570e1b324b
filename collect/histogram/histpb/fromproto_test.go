package histpb

import (
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"
)

type (
	Bucket  = model.Bucket
	Summary = model.Summary
)

func TestFromProto(t *testing.T) {
	tests := []struct {
		name string
		h    *eventpb.HistogramProto
		want []Bucket
	}{
		{"empty buckets at both ends are dropped, min and max become the outer edges",
			&eventpb.HistogramProto{Min: -0.5, Max: 2.5, BucketLimit: []float64{-1, 0, 1, 2, 3, 1e300}, Bucket: []float64{0, 2, 0, 5, 1, 0}},
			[]Bucket{{Left: -0.5, Right: 0, Count: 2}, {Left: 0, Right: 1, Count: 0}, {Left: 1, Right: 2, Count: 5}, {Left: 2, Right: 2.5, Count: 1}}},
		{"one non-empty bucket spans min to max",
			&eventpb.HistogramProto{Min: 1, Max: 1, BucketLimit: []float64{0, 1.1, 5}, Bucket: []float64{0, 3, 0}},
			[]Bucket{{Left: 1, Right: 1, Count: 3}}},
		{"all empty", &eventpb.HistogramProto{BucketLimit: []float64{1, 2}, Bucket: []float64{0, 0}}, nil},
		{"no buckets", &eventpb.HistogramProto{}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FromProto(tc.h)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
	if _, err := FromProto(&eventpb.HistogramProto{BucketLimit: []float64{1}, Bucket: []float64{1, 2}}); err == nil {
		t.Errorf("mismatched lengths accepted")
	}
}
