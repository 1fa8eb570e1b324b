// Package histogram converts the histograms writers store into one form,
// rows of [left, right, count], by TensorBoard's rules (docs/FORMATS.md
// sections 6 and 7).
package histogram

import (
	"fmt"
	"math"

	"github.com/trainreport/trainreport/collect/model"
)

// FromTensor reads the rows of a TF2 histogram: a [k, 3] tensor of
// [left, right, count], given as its values in row-major order.
func FromTensor(values []float64, shape []int64) ([]model.Bucket, error) {
	if len(shape) == 1 && shape[0] == 0 || len(values) == 0 && len(shape) == 2 && shape[0] == 0 {
		return nil, nil
	}
	if len(shape) != 2 || shape[1] != 3 || int64(len(values)) != shape[0]*3 {
		return nil, fmt.Errorf("histogram tensor of shape %v, want [k, 3]", shape)
	}
	out := make([]model.Bucket, shape[0])
	for i := range out {
		out[i] = model.Bucket{Left: values[3*i], Right: values[3*i+1], Count: values[3*i+2]}
	}
	return out, nil
}

// Summarize returns the range and count of the rows, and an estimate of
// the sum from bucket midpoints, for histograms (TF2 tensors) that do not
// store them.
func Summarize(rows []model.Bucket) model.Summary {
	if len(rows) == 0 {
		return model.Summary{}
	}
	s := model.Summary{Min: math.Inf(1), Max: math.Inf(-1)}
	for _, b := range rows {
		if b.Count > 0 {
			s.Min, s.Max = min(s.Min, b.Left), max(s.Max, b.Right)
		}
		s.Count += b.Count
		s.Sum += b.Count * (b.Left + b.Right) / 2
	}
	if s.Count == 0 {
		s.Min, s.Max = rows[0].Left, rows[len(rows)-1].Right
	}
	return s
}
