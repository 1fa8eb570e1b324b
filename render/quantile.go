package render

import "math"

// quantile returns the p-quantile of sorted (ascending, not empty) by
// linear interpolation between the order statistics around (n-1)p:
// numpy's default ("linear", Hyndman and Fan's type 7).
func quantile(sorted []float64, p float64) float64 {
	h := float64(len(sorted)-1) * p
	lo := int(math.Floor(h))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}
