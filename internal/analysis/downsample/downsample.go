// Package downsample thins a series for drawing or storage while keeping
// what people look for: in every bucket of consecutive points, the first,
// the last, the minimum and the maximum, and the first NaN, +Inf and -Inf.
// Spikes and divergence therefore survive any budget, unlike TensorBoard's
// reservoir sampling (docs/FORMATS.md section 19).
package downsample

import "github.com/trainreport/trainreport/collect/model"

// Bucket describes a run of consecutive points of the original series,
// from index First to index Last inclusive, and the range of their finite
// values; HasFinite is false when the bucket holds no finite value.
type Bucket struct {
	First, Last int
	Min, Max    float64
	HasFinite   bool
}

// Points returns the indices, in increasing order, of the points of pts to
// keep within about budget points, and the buckets they were chosen from.
// When pts already fits (or budget <= 0, meaning no limit) every index is
// kept and buckets is nil.
func Points(pts []model.Point, budget int) (keep []int, buckets []Bucket) {
	n := len(pts)
	if budget <= 0 || n <= budget {
		return every(n), nil
	}
	// Each bucket keeps up to four points (first, last, min, max) plus its
	// first non-finite point of each kind, which are rare.
	nb := max(budget/4, 1)
	buckets = make([]Bucket, 0, nb)
	keep = make([]int, 0, budget+8)
	for b := range nb {
		lo, hi := Bounds(b, n, nb)
		e := noExtremes()
		e.scan(pts[lo:hi], lo)
		buckets = append(buckets, e.bucket(lo, hi-1))
		keep = e.appendKept(keep, lo, hi-1)
	}
	return keep, buckets
}

// Values is Points for points whose values, in order, are vals, every
// one finite: the same indices and buckets, read from 8 bytes a point
// rather than a point's 24 (a series' values gathered by a pass that
// other readers share). A non-finite value in vals is taken for a finite
// one: call Points for those.
func Values(vals []float64, budget int) (keep []int, buckets []Bucket) {
	n := len(vals)
	nb := Buckets(n, budget)
	if nb == 0 {
		return every(n), nil
	}
	mins, maxs := make([]int, nb), make([]int, nb)
	for b := range nb {
		lo, hi := Bounds(b, n, nb)
		// A bucket is never empty (n > budget >= nb): its first value
		// starts both extremes, as Points' first finite one does.
		seg := vals[lo:hi]
		imin, imax := 0, 0
		vmin, vmax := seg[0], seg[0]
		for j := 1; j < len(seg); j++ {
			switch v := seg[j]; {
			case v < vmin:
				imin, vmin = j, v
			case v > vmax:
				imax, vmax = j, v
			}
		}
		mins[b], maxs[b] = lo+imin, lo+imax
	}
	return FromExtremes(vals, mins, maxs)
}

// Buckets returns how many buckets Points and Values cut n points into
// under budget, 0 when they keep every point (n <= budget, or budget <= 0).
func Buckets(n, budget int) int {
	if budget <= 0 || n <= budget {
		return 0
	}
	return max(budget/4, 1)
}

// Bounds returns the points of bucket b of nb over n points: indices lo
// to hi-1.
func Bounds(b, n, nb int) (lo, hi int) {
	return b * n / nb, (b + 1) * n / nb
}

// FromExtremes is Values from the index of each bucket's first smallest
// and first largest value (mins[b], maxs[b] for bucket b of len(mins),
// laid out by Bounds), found by a pass over the values that other readers
// share: the same indices and buckets, with no second pass.
func FromExtremes(vals []float64, mins, maxs []int) (keep []int, buckets []Bucket) {
	n, nb := len(vals), len(mins)
	buckets = make([]Bucket, 0, nb)
	keep = make([]int, 0, 4*nb+8)
	for b := range nb {
		lo, hi := Bounds(b, n, nb)
		imin, imax := mins[b], maxs[b]
		buckets = append(buckets, Bucket{First: lo, Last: hi - 1, Min: vals[imin], Max: vals[imax], HasFinite: true})
		keep = appendSorted(keep, lo, hi-1, imin, imax)
	}
	return keep, buckets
}

// appendSorted appends the distinct non-negative indices among idx to keep
// in increasing order; all are at or after every index already in keep.
func appendSorted(keep []int, idx ...int) []int {
	start := len(keep)
	for _, i := range idx {
		if i < 0 {
			continue
		}
		j := len(keep)
		keep = append(keep, i)
		for j > start && keep[j-1] > i { // insertion sort of at most 7 items
			keep[j-1], keep[j] = keep[j], keep[j-1]
			j--
		}
		if j > start && keep[j-1] == i {
			keep = append(keep[:j], keep[j+1:]...)
		}
	}
	return keep
}

// extremes are where a run of points has its first smallest and largest
// finite values (imin -1: none) and its first NaN, +Inf and -Inf (-1:
// none): what Points keeps of a bucket besides its ends.
type extremes struct {
	imin, imax       int
	vmin, vmax       float64
	inan, ipos, ineg int
}

func noExtremes() extremes {
	return extremes{imin: -1, imax: -1, inan: -1, ipos: -1, ineg: -1}
}

// scan takes seg, the points from index lo on, into e, in order. Its
// state is in locals for the loop (one switch, one comparison per point
// for the common case), stored back once.
func (e *extremes) scan(seg []model.Point, lo int) {
	imin, imax, vmin, vmax := e.imin, e.imax, e.vmin, e.vmax
	for j := range seg {
		v := seg[j].Value
		switch i := lo + j; {
		case v-v != 0: // NaN or infinite: rare, so tested once for both
			e.nonFinite(i, v)
		case imin < 0:
			imin, imax, vmin, vmax = i, i, v, v
		case v < vmin:
			imin, vmin = i, v
		case v > vmax:
			imax, vmax = i, v
		}
	}
	e.imin, e.imax, e.vmin, e.vmax = imin, imax, vmin, vmax
}

// nonFinite takes point i, of value v (NaN or infinite), into e.
func (e *extremes) nonFinite(i int, v float64) {
	switch {
	case v > 0:
		if e.ipos < 0 {
			e.ipos = i
		}
	case v < 0:
		if e.ineg < 0 {
			e.ineg = i
		}
	default:
		if e.inan < 0 {
			e.inan = i
		}
	}
}

// bucket is the bucket of points first to last whose extremes e holds.
func (e *extremes) bucket(first, last int) Bucket {
	bk := Bucket{First: first, Last: last}
	if e.imin >= 0 {
		bk.Min, bk.Max, bk.HasFinite = e.vmin, e.vmax, true
	}
	return bk
}

// appendKept appends to keep what Points keeps of the bucket of points
// first to last whose extremes e holds.
func (e *extremes) appendKept(keep []int, first, last int) []int {
	return appendSorted(keep, first, last, e.imin, e.imax, e.inan, e.ipos, e.ineg)
}

// every returns the indices 0 to n-1: a series that fits keeps them all.
func every(n int) []int {
	keep := make([]int, n)
	for i := range keep {
		keep[i] = i
	}
	return keep
}
