package tensorview

import (
	"math"
	"slices"
)

// Bins is the number of bins of a Histogram, Tianshu's.
const Bins = 100

// Histogram is numpy's histogram(v, bins=100) of a tensor's finite values:
// Bins equal bins over [Min, Max] (over [Min-0.5, Max+0.5] when they are
// equal, as numpy widens an empty range), each half-open but the last.
type Histogram struct {
	Min, Max float64
	// Edges are numpy's linspace(lo, hi, Bins+1); Counts the values in
	// each bin.
	Edges  []float64
	Counts []int
}

// HistogramOf bins the finite values of vals; false when none is finite.
func HistogramOf(vals []float64) (Histogram, bool) {
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	for _, v := range vals {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi, n = min(lo, v), max(hi, v), n+1
		}
	}
	if n == 0 {
		return Histogram{}, false
	}
	h := Histogram{Min: lo, Max: hi, Counts: make([]int, Bins)}
	if lo == hi {
		lo, hi = lo-0.5, hi+0.5
	}
	if math.IsInf(hi-lo, 0) {
		// A range wider than the largest float64 (numpy's bins are
		// garbage there): edges from a step that does not overflow, and
		// each value's bin found among them.
		step := hi/Bins - lo/Bins
		h.Edges = make([]float64, Bins+1)
		for i := range h.Edges {
			h.Edges[i] = lo + float64(i)*step
		}
		h.Edges[Bins] = hi
		for _, v := range vals {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				i, _ := slices.BinarySearch(h.Edges, v)
				if i == len(h.Edges) || h.Edges[i] != v {
					i--
				}
				h.Counts[max(0, min(i, Bins-1))]++
			}
		}
		return h, true
	}
	h.Edges = linspace(lo, hi, Bins+1)
	// numpy's bin of a value: (v - lo) * (bins / (hi - lo)) truncated, then
	// moved by one where the edges say otherwise, the last bin closed.
	norm := float64(Bins) / (hi - lo)
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		i := min(max(int((v-lo)*norm), 0), Bins-1)
		if v < h.Edges[i] && i > 0 {
			i--
		} else if i != Bins-1 && v >= h.Edges[i+1] {
			i++
		}
		h.Counts[i]++
	}
	return h, true
}

// linspace is numpy's linspace(start, stop, num): start + i*step with the
// last set to stop exactly.
func linspace(start, stop float64, num int) []float64 {
	out := make([]float64, num)
	step := (stop - start) / float64(num-1)
	for i := range out {
		out[i] = float64(i)*step + start
	}
	out[num-1] = stop
	return out
}
