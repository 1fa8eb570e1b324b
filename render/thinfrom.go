package render

import (
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// thinFrom returns what thin(pts, budget) returns (the analysis's
// downsampling, result.Scalars.Thin: in each of budget/4 buckets of
// consecutive points, the first, the last, the first minimum and maximum
// of the finite values, and the first NaN, +Inf and -Inf), given draw and
// buckets, what the same downsampling kept of pts at another budget. A
// sweep page whose charts pass its budget draws its extreme runs again
// at fewer points: every point of each was read again (on the 8 M-point
// log, 80 series of 100,000 points, a third of the page's CPU). Here a
// new bucket takes each old bucket it holds whole from the old one's
// summary (its kept points say where its extremes are), and a part of an
// old one either from it too, when the old one's extremes lie in that
// part, or by reading the part's points. When draw and buckets are not
// such a result (no buckets: pts fitted), thin does it all.
func thinFrom(pts []model.Point, draw []int, buckets []result.Bucket, budget int,
	thin func([]model.Point, int) ([]int, []result.Bucket)) ([]int, []result.Bucket) {
	keep, out, _ := thinFromCounting(pts, draw, buckets, budget, thin)
	return keep, out
}

// thinFromCounting is thinFrom, counting the points it read (scan): -1
// when thin did it all.
func thinFromCounting(pts []model.Point, draw []int, buckets []result.Bucket, budget int,
	thin func([]model.Point, int) ([]int, []result.Bucket)) (keep []int, out []result.Bucket, read int) {
	n := len(pts)
	if budget <= 0 || n <= budget || !tiles(buckets, n) {
		keep, out = thin(pts, budget)
		return keep, out, -1
	}
	// The kept points' values, copied out at once: they are spread over
	// the series, and a load among the branches of oldExtremes waited for
	// memory alone (as in appendDrawnPoints).
	vals := make([]float64, len(draw))
	for i, k := range draw {
		if k < 0 || k >= n {
			keep, out = thin(pts, budget)
			return keep, out, -1
		}
		vals[i] = pts[k].Value
	}
	nb := max(budget/4, 1)
	out = make([]result.Bucket, 0, nb)
	keep = make([]int, 0, budget+8)
	j, d := 0, 0 // the old bucket holding the next point; the first of draw not before it
	for b := range nb {
		lo, hi := b*n/nb, (b+1)*n/nb-1
		acc := extremes{imin: -1, imax: -1, inan: -1, ipos: -1, ineg: -1}
		for i := lo; i <= hi; {
			for buckets[j].Last < i {
				j++
			}
			ob := buckets[j]
			for d < len(draw) && draw[d] < ob.First {
				d++
			}
			end := min(ob.Last, hi)
			if s, ok := oldExtremes(draw[d:], vals[d:], ob); ok && s.within(i, end, ob) {
				acc.add(s)
			} else {
				acc.scan(pts, i, end)
				read += end - i + 1
			}
			i = end + 1
		}
		bk := result.Bucket{First: lo, Last: hi}
		if acc.imin >= 0 {
			bk.Min, bk.Max, bk.HasFinite = acc.vmin, acc.vmax, true
		}
		out = append(out, bk)
		keep = appendSortedIndices(keep, lo, hi, acc.imin, acc.imax, acc.inan, acc.ipos, acc.ineg)
	}
	return keep, out, read
}

// tiles reports whether buckets are those of the downsampling of n points
// into len(buckets) buckets: bucket b from b*n/nb to (b+1)*n/nb-1.
func tiles(buckets []result.Bucket, n int) bool {
	nb := len(buckets)
	if nb == 0 || nb > n {
		return false
	}
	for b, bk := range buckets {
		if bk.First != b*n/nb || bk.Last != (b+1)*n/nb-1 {
			return false
		}
	}
	return true
}

// extremes are where a run of points has its first minimum and maximum
// finite value (-1: no finite value), and its first NaN, +Inf and -Inf
// (-1: none), as the downsampling finds them in a bucket.
type extremes struct {
	imin, imax       int
	vmin, vmax       float64
	inan, ipos, ineg int
}

// scan takes the points of pts from i to end into e, in order, as the
// downsampling's loop over a bucket does.
func (e *extremes) scan(pts []model.Point, i, end int) {
	for k, p := range pts[i : end+1] {
		v := p.Value
		switch k += i; {
		case v-v != 0: // NaN or infinite
			switch {
			case v > 0:
				if e.ipos < 0 {
					e.ipos = k
				}
			case v < 0:
				if e.ineg < 0 {
					e.ineg = k
				}
			default:
				if e.inan < 0 {
					e.inan = k
				}
			}
		case e.imin < 0:
			e.imin, e.imax, e.vmin, e.vmax = k, k, v, v
		case v < e.vmin:
			e.imin, e.vmin = k, v
		case v > e.vmax:
			e.imax, e.vmax = k, v
		}
	}
}

// add takes s, the extremes of the points after those e took, into e:
// what scanning them would have done, since a later point replaces a
// minimum or maximum only when strictly beyond it, and a first non-finite
// point is the earliest.
func (e *extremes) add(s extremes) {
	switch {
	case s.imin < 0:
	case e.imin < 0:
		e.imin, e.imax, e.vmin, e.vmax = s.imin, s.imax, s.vmin, s.vmax
	default:
		if s.vmin < e.vmin {
			e.imin, e.vmin = s.imin, s.vmin
		}
		if s.vmax > e.vmax {
			e.imax, e.vmax = s.imax, s.vmax
		}
	}
	if e.inan < 0 {
		e.inan = s.inan
	}
	if e.ipos < 0 {
		e.ipos = s.ipos
	}
	if e.ineg < 0 {
		e.ineg = s.ineg
	}
}

// oldExtremes returns the extremes of the old bucket ob from its kept
// points, draw from the first kept at or after ob.First and vals their
// values: its first minimum is the first kept point whose value equals
// ob.Min (the downsampling keeps it, and no point before it in ob has
// that value), its maximum likewise, its first NaN the first kept NaN,
// and so on. ok is false when the kept points do not hold ob's extremes.
func oldExtremes(draw []int, vals []float64, ob result.Bucket) (s extremes, ok bool) {
	s = extremes{imin: -1, imax: -1, inan: -1, ipos: -1, ineg: -1}
	for i, k := range draw {
		if k > ob.Last {
			break
		}
		if k < ob.First {
			return s, false
		}
		v := vals[i]
		switch {
		case v-v != 0:
			switch {
			case v > 0:
				if s.ipos < 0 {
					s.ipos = k
				}
			case v < 0:
				if s.ineg < 0 {
					s.ineg = k
				}
			default:
				if s.inan < 0 {
					s.inan = k
				}
			}
		default:
			if s.imin < 0 && v == ob.Min {
				s.imin, s.vmin = k, v
			}
			if s.imax < 0 && v == ob.Max {
				s.imax, s.vmax = k, v
			}
		}
	}
	if ob.HasFinite != (s.imin >= 0) || s.imin >= 0 && s.imax < 0 {
		return s, false
	}
	return s, true
}

// within reports whether s, the extremes of old bucket ob, are those of
// its points from i to end too: every one of them lies there (a part of
// ob holding ob's first minimum has it as its own first minimum), and ob
// has no non-finite point of a kind whose first lies outside.
func (s extremes) within(i, end int, ob result.Bucket) bool {
	if i == ob.First && end == ob.Last {
		return true
	}
	in := func(k int) bool { return k >= i && k <= end }
	if s.imin >= 0 && !(in(s.imin) && in(s.imax)) {
		return false
	}
	return (s.inan < 0 || in(s.inan)) && (s.ipos < 0 || in(s.ipos)) && (s.ineg < 0 || in(s.ineg))
}

// appendSortedIndices appends the distinct non-negative indices among idx
// to keep in increasing order, all at or after every index already in
// keep, as the downsampling keeps a bucket's points.
func appendSortedIndices(keep []int, idx ...int) []int {
	start := len(keep)
	for _, i := range idx {
		if i < 0 {
			continue
		}
		j := len(keep)
		keep = append(keep, i)
		for j > start && keep[j-1] > i {
			keep[j-1], keep[j] = keep[j], keep[j-1]
			j--
		}
		if j > start && keep[j-1] == i {
			keep = append(keep[:j], keep[j+1:]...)
		}
	}
	return keep
}
