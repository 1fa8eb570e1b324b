package downsample

import "github.com/trainreport/trainreport/collect/model"

// Rethin returns what Points(pts, budget) returns, given keep and
// buckets, what Points returned for pts at another budget. A sweep page
// whose charts pass its size draws its extreme runs again at fewer
// points, and reading every point again was a third of that page's CPU on
// the 8 M-point log (80 series of 100,000 points). Here a new bucket takes
// each old bucket it holds whole from the old one's summary (its kept
// points say where its extremes are), and a part of an old one either
// from it too, when the old one's extremes lie in that part, or by
// reading the part's points. When keep and buckets are not such a result
// (no buckets: pts fitted; or an index outside pts), Points does it all.
func Rethin(pts []model.Point, keep []int, buckets []Bucket, budget int) ([]int, []Bucket) {
	k, b, _ := rethin(pts, keep, buckets, budget)
	return k, b
}

// rethin is Rethin, counting the points it read: -1 when Points did it
// all.
func rethin(pts []model.Point, draw []int, buckets []Bucket, budget int) (keep []int, out []Bucket, read int) {
	n := len(pts)
	nb := Buckets(n, budget)
	if nb == 0 || !tiles(buckets, n) {
		keep, out = Points(pts, budget)
		return keep, out, -1
	}
	// The kept points' values, copied out at once: they are spread over
	// the series, and a load among oldExtremes' branches waited for
	// memory alone.
	vals := make([]float64, len(draw))
	for i, k := range draw {
		if k < 0 || k >= n {
			keep, out = Points(pts, budget)
			return keep, out, -1
		}
		vals[i] = pts[k].Value
	}
	out = make([]Bucket, 0, nb)
	keep = make([]int, 0, budget+8)
	j, d := 0, 0 // the old bucket holding the next point; the first of draw not before it
	kb := 0      // the first of draw not before the new bucket
	for b := range nb {
		lo, hi := Bounds(b, n, nb)
		hi-- // inclusive, as a Bucket's Last
		for kb < len(draw) && draw[kb] < lo {
			kb++
		}
		known := keptBounds(draw[kb:], vals[kb:], hi)
		acc := noExtremes()
		for i := lo; i <= hi; {
			for buckets[j].Last < i {
				j++
			}
			ob := buckets[j]
			for d < len(draw) && draw[d] < ob.First {
				d++
			}
			end := min(ob.Last, hi)
			s, ok := oldExtremes(draw[d:], vals[d:], ob)
			switch {
			case ok && s.within(i, end, ob):
				acc.add(s)
			case ok && known.rulesOut(s, i, end, ob):
				acc.add(s.nonFiniteIn(i, end))
			default:
				acc.scan(pts[i:end+1], i)
				read += end - i + 1
			}
			i = end + 1
		}
		out = append(out, acc.bucket(lo, hi))
		keep = acc.appendKept(keep, lo, hi)
	}
	return keep, out, read
}

// tiles reports whether buckets are those of Points over n points, laid
// out by Bounds.
func tiles(buckets []Bucket, n int) bool {
	nb := len(buckets)
	if nb == 0 || nb > n {
		return false
	}
	for b, bk := range buckets {
		if lo, hi := Bounds(b, n, nb); bk.First != lo || bk.Last != hi-1 {
			return false
		}
	}
	return true
}

// oldExtremes returns the extremes of the old bucket ob from its kept
// points, draw from the first kept at or after ob.First and vals their
// values: its first minimum is the first kept point whose value equals
// ob.Min (Points keeps it, and no point before it in ob has that value),
// its maximum likewise, its first NaN the first kept NaN, and so on. ok is
// false when the kept points do not hold ob's extremes.
func oldExtremes(draw []int, vals []float64, ob Bucket) (s extremes, ok bool) {
	s = noExtremes()
	for i, k := range draw {
		if k > ob.Last {
			break
		}
		if k < ob.First {
			return s, false
		}
		switch v := vals[i]; {
		case v-v != 0:
			s.nonFinite(k, v)
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
func (s extremes) within(i, end int, ob Bucket) bool {
	if i == ob.First && end == ob.Last {
		return true
	}
	in := func(k int) bool { return k >= i && k <= end }
	if s.imin >= 0 && !(in(s.imin) && in(s.imax)) {
		return false
	}
	return (s.inan < 0 || in(s.inan)) && (s.ipos < 0 || in(s.ipos)) && (s.ineg < 0 || in(s.ineg))
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

// bounds are the smallest and largest finite values among a new bucket's
// kept points (of the thinning Rethin starts from), each at its first
// index among them: values of points of the bucket, so that its first
// minimum is at most lo (and, equal to it, at or before ilo), its first
// maximum likewise. ilo is -1 when no kept point of it is finite.
type bounds struct {
	lo, hi   float64
	ilo, ihi int
}

// keptBounds returns the bounds of the kept points draw, from the first
// at or after a new bucket's first point to its last point, last; vals
// are their values.
func keptBounds(draw []int, vals []float64, last int) bounds {
	k := bounds{ilo: -1, ihi: -1}
	for i, x := range draw {
		if x > last {
			break
		}
		switch v := vals[i]; {
		case v-v != 0:
		case k.ilo < 0:
			k.lo, k.hi, k.ilo, k.ihi = v, v, x, x
		case v < k.lo:
			k.lo, k.ilo = v, x
		case v > k.hi:
			k.hi, k.ihi = v, x
		}
	}
	return k
}

// rulesOut reports whether the points i to end, a part of old bucket ob
// whose extremes s are (oldExtremes), hold neither the new bucket's first
// minimum nor its first maximum, by k, its kept points' bounds; and
// whether their first non-finite point of each kind is known from s (ob's
// first lies in the part, or after it: none). Such a part need not be
// read: its finite values lie within ob's Min and Max, and a part whose
// every value is above a value the bucket holds (or equal to one that
// comes before it) holds no first minimum. The bucket's true first
// minimum, of value at most k.lo, is then in a part that is read or known
// whole, and the parts skipped hold no point that would displace it.
func (k bounds) rulesOut(s extremes, i, end int, ob Bucket) bool {
	if ob.HasFinite {
		if k.ilo < 0 || !(ob.Min > k.lo || ob.Min == k.lo && k.ilo < i) || !(ob.Max < k.hi || ob.Max == k.hi && k.ihi < i) {
			return false
		}
	}
	// ob's first non-finite point of a kind before the part leaves the
	// part's own first unknown.
	return (s.inan < 0 || s.inan >= i) && (s.ipos < 0 || s.ipos >= i) && (s.ineg < 0 || s.ineg >= i)
}

// nonFiniteIn returns what s, an old bucket's extremes, says of its
// points i to end when rulesOut holds for them: their first non-finite
// points of each kind, and no finite extreme (they hold none of the new
// bucket's).
func (s extremes) nonFiniteIn(i, end int) extremes {
	in := func(k int) int {
		if k >= i && k <= end {
			return k
		}
		return -1
	}
	e := noExtremes()
	e.inan, e.ipos, e.ineg = in(s.inan), in(s.ipos), in(s.ineg)
	return e
}
