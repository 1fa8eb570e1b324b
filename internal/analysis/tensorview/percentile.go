// Package tensorview computes what the Exceptions page draws of one tensor
// (Tianshu's exception view, docs/FORMATS.md section 9): nine percentiles
// by numpy's midpoint rule, a box with IQR whiskers and the outliers beyond
// them, the tensor flattened to a bounded 2-D heat map, and a 100-bin
// histogram as numpy's histogram bins it. testdata/reference.py writes what
// numpy computes for the same tensors, and the tests compare.
package tensorview

import (
	"math"
	"slices"
)

// Quantiles are the percentiles a box is drawn from: P0, P5, P10, P25,
// P50, P75, P90, P95 and P100.
var Quantiles = [9]float64{0, 5, 10, 25, 50, 75, 90, 95, 100}

// Percentiles returns the Quantiles of the finite values of vals by numpy's
// midpoint rule (np.nanpercentile(v, q, method="midpoint") over the finite
// values: index q/100*(n-1), the mean of the values at its floor and
// ceiling); false when no value is finite.
func Percentiles(vals []float64) ([9]float64, bool) {
	var out [9]float64
	fin := make([]float64, 0, len(vals))
	for _, v := range vals {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			fin = append(fin, v)
		}
	}
	if len(fin) == 0 {
		return out, false
	}
	slices.Sort(fin)
	n := len(fin)
	for i, q := range Quantiles {
		idx := q / 100 * float64(n-1)
		lo, hi := int(math.Floor(idx)), int(math.Ceil(idx))
		out[i] = fin[lo]
		if hi != lo {
			out[i] = fin[lo]/2 + fin[hi]/2 // halves first: no overflow near MaxFloat64
			if s := fin[lo] + fin[hi]; !math.IsInf(s, 0) {
				out[i] = s / 2 // numpy's arithmetic where it does not overflow
			}
		}
	}
	return out, true
}

// Box is a box plot's five numbers: the whiskers and the quartiles around
// the median, in ECharts' boxplot order.
type Box struct {
	Down, Q1, Median, Q3, Up float64
}

// BoxOf returns the box of the percentiles p with whiskers k IQRs beyond
// the quartiles, clipped to the extremes: up = min(Q3 + k*IQR, max), down =
// max(Q1 - k*IQR, min).
func BoxOf(p [9]float64, k float64) Box {
	q1, q3 := p[3], p[5]
	iqr := q3 - q1
	return Box{Down: max(q1-k*iqr, p[0]), Q1: q1, Median: p[4], Q3: q3, Up: min(q3+k*iqr, p[8])}
}

// Outliers lists the values beyond a box's whiskers, and every NaN and
// infinity: at most limit of them, the furthest from the median first
// (non-finite ones before all), then returned in index order. Total counts
// them all.
type Outliers struct {
	Values  []float64
	Indices []int
	Total   int
}

// OutliersOf finds the outliers of vals against b.
func OutliersOf(vals []float64, b Box, limit int) Outliers {
	type hit struct {
		i    int
		dist float64
	}
	var hits []hit
	for i, v := range vals {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			hits = append(hits, hit{i, math.Inf(1)})
		case v > b.Up || v < b.Down:
			hits = append(hits, hit{i, math.Abs(v - b.Median)})
		}
	}
	o := Outliers{Total: len(hits), Values: []float64{}, Indices: []int{}}
	if len(hits) > limit {
		slices.SortStableFunc(hits, func(a, b hit) int {
			switch {
			case a.dist > b.dist:
				return -1
			case a.dist < b.dist:
				return 1
			}
			return 0
		})
		hits = hits[:limit]
		slices.SortFunc(hits, func(a, b hit) int { return a.i - b.i })
	}
	for _, h := range hits {
		o.Values = append(o.Values, vals[h.i])
		o.Indices = append(o.Indices, h.i)
	}
	return o
}
