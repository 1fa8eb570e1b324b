package histogram

import (
	"sort"

	"github.com/trainreport/trainreport/collect/model"
)

// BasisPoints are where TensorBoard's distributions cut a histogram, in
// hundredths of a percent: the normal distribution's CDF at -inf, -1.5,
// -1, -0.5, 0, 0.5, 1, 1.5 standard deviations and +inf (docs/FORMATS.md
// section 7).
var BasisPoints = [9]int{0, 668, 1587, 3085, 5000, 6915, 8413, 9332, 10000}

// Compress returns the values of a histogram at BasisPoints, exactly as
// TensorBoard's compressor.compress_histogram computes them for its
// distributions: the cumulative counts are scaled to 10,000 and each basis
// point is interpolated linearly inside the first bucket whose cumulative
// count passes it, skipping empty buckets. A histogram without rows gives
// zeros; basis points past the last bucket take its right edge.
func Compress(rows []model.Bucket) [9]float64 {
	var out [9]float64
	if len(rows) == 0 {
		return out
	}
	lo, hi := rows[0].Left, rows[len(rows)-1].Right
	counts := make([]float64, len(rows))
	for i, b := range rows {
		counts[i] = b.Count
	}
	total := pairwiseSum(counts)
	if total == 0 {
		total = 1
	}
	// weights[i] is the cumulative count of rows 0..i, scaled to 10,000.
	weights := counts
	acc := 0.0
	for i, c := range counts {
		acc += c * 10000 / total
		weights[i] = acc
	}
	j := 0
	for j < len(BasisPoints) {
		bp := float64(BasisPoints[j])
		// The first bucket whose cumulative count passes bp, as numpy's
		// searchsorted(side="right").
		i := sort.Search(len(weights), func(k int) bool { return weights[k] > bp })
		for ; i < len(weights); i++ {
			prev := 0.0
			if i > 0 {
				prev = weights[i-1]
			}
			if weights[i] == prev {
				continue
			}
			left := lo
			if i > 0 && prev != 0 {
				left = max(rows[i-1].Right, lo)
			}
			right := min(rows[i].Right, hi)
			out[j] = left + (bp-prev)*(right-left)/(weights[i]-prev)
			j++
			break
		}
		if i == len(weights) {
			break
		}
	}
	for ; j < len(BasisPoints); j++ {
		out[j] = hi
	}
	return out
}

// pairwiseSum adds xs as numpy's sum does (pairwise, eight accumulators
// per block of up to 128), so that fractional counts scale to the same
// last bit as in TensorBoard.
func pairwiseSum(xs []float64) float64 {
	n := len(xs)
	switch {
	case n < 8:
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s
	case n <= 128:
		var r [8]float64
		copy(r[:], xs[:8])
		i := 8
		for ; i < n-n%8; i += 8 {
			for k := range r {
				r[k] += xs[i+k]
			}
		}
		s := (r[0] + r[1]) + (r[2] + r[3]) + ((r[4] + r[5]) + (r[6] + r[7]))
		for ; i < n; i++ {
			s += xs[i]
		}
		return s
	}
	half := n / 2
	half -= half % 8
	return pairwiseSum(xs[:half]) + pairwiseSum(xs[half:])
}
