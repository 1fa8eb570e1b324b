package histogram

import (
	"math"

	"github.com/trainreport/trainreport/collect/model"
)

// Rebin spreads the counts of rows over n equal-width bins from lo to hi,
// the way TensorBoard's histogram dashboard draws histograms whose buckets
// differ in width (TF1's exponential buckets): values are taken as uniform
// within a row, so a row adds to each bin in proportion to their overlap;
// a row of zero width adds its count to the bin holding it. Rows with a
// non-finite edge or count, and mass outside [lo, hi], are left out. hi
// must exceed lo. The bins are finite for any finite lo, hi and rows, even
// when edges near ±MaxFloat64 make widths overflow (see scaleFor) and
// counts near it add up past it (a bin then holds ±MaxFloat64).
func Rebin(rows []model.Bucket, lo, hi float64, n int) []float64 {
	out := make([]float64, n)
	if n < 1 || !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return out
	}
	scale := scaleFor(rows, lo, hi)
	lo, hi = lo*scale, hi*scale
	width := (hi - lo) / float64(n)
	bin := func(x float64) int { return min(n-1, max(0, int(math.Floor((x-lo)/width)))) }
	for _, b := range rows {
		if math.IsInf(b.Left, 0) || math.IsInf(b.Right, 0) || math.IsNaN(b.Left+b.Right+b.Count) || math.IsInf(b.Count, 0) {
			continue
		}
		left, right := b.Left*scale, b.Right*scale
		if right <= left {
			if left >= lo && left <= hi {
				out[bin(left)] += b.Count
			}
			continue
		}
		l, r := max(left, lo), min(right, hi)
		for i := bin(l); i < n && l < r; i++ {
			end := min(r, lo+float64(i+1)*width)
			if i == n-1 {
				end = r
			}
			if end > l {
				c := b.Count * (end - l) / (right - left)
				if math.IsInf(c, 0) { // a huge count times a wide overlap
					c = b.Count * ((end - l) / (right - left))
				}
				out[i] += c
			}
			l = end
		}
	}
	for i, c := range out { // huge counts that add up past float64
		if math.IsInf(c, 0) {
			out[i] = math.Copysign(math.MaxFloat64, c)
		}
	}
	return out
}

// scaleFor returns 1, or 0.5 when the range or a finite row is wider than
// float64 holds (edges of opposite signs beyond ±MaxFloat64/2, as in a
// histogram of [-1e308, 1e308]): Rebin then works on halved edges, which
// is exact for numbers this large, instead of dividing by an infinite
// width and giving NaN.
func scaleFor(rows []model.Bucket, lo, hi float64) float64 {
	if math.IsInf(hi-lo, 0) {
		return 0.5
	}
	for _, b := range rows {
		if w := b.Right - b.Left; math.IsInf(w, 0) && !math.IsInf(b.Left, 0) && !math.IsInf(b.Right, 0) {
			return 0.5
		}
	}
	return 1
}
