package histogram

import "math"

// Rebin spreads the counts of rows over n equal-width bins from lo to hi,
// the way TensorBoard's histogram dashboard draws histograms whose buckets
// differ in width (TF1's exponential buckets): values are taken as uniform
// within a row, so a row adds to each bin in proportion to their overlap;
// a row of zero width adds its count to the bin holding it. Rows with a
// non-finite edge or count, and mass outside [lo, hi], are left out. hi
// must exceed lo.
func Rebin(rows []Bucket, lo, hi float64, n int) []float64 {
	out := make([]float64, n)
	if n < 1 || !(hi > lo) {
		return out
	}
	width := (hi - lo) / float64(n)
	bin := func(x float64) int { return min(n-1, max(0, int(math.Floor((x-lo)/width)))) }
	for _, b := range rows {
		if math.IsInf(b.Left, 0) || math.IsInf(b.Right, 0) || math.IsNaN(b.Left+b.Right+b.Count) || math.IsInf(b.Count, 0) {
			continue
		}
		if b.Right <= b.Left {
			if b.Left >= lo && b.Left <= hi {
				out[bin(b.Left)] += b.Count
			}
			continue
		}
		l, r := max(b.Left, lo), min(b.Right, hi)
		for i := bin(l); i < n && l < r; i++ {
			end := min(r, lo+float64(i+1)*width)
			if i == n-1 {
				end = r
			}
			if end > l {
				out[i] += b.Count * (end - l) / (b.Right - b.Left)
			}
			l = end
		}
	}
	return out
}
