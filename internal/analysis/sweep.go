package analysis

import (
	"math"
	"math/bits"
	"slices"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// stepsSorted reports whether pts are in step order (a plain loop: a
// comparison function costs a call per point).
func stepsSorted(pts []model.Point) bool {
	for i := 1; i < len(pts); i++ {
		if pts[i].Step < pts[i-1].Step {
			return false
		}
	}
	return true
}

// bandTile is the most values a band gathers at once (2 MB).
const bandTile = 1 << 18

// bandBuilder is a band as its tiles are added.
type bandBuilder struct {
	result.SweepBand
}

// addTile adds the steps of a tile whose values were gathered in buf,
// step k's ns[k] values at buf[k*n:]: a step with none is left out.
func (band *bandBuilder) addTile(buf []float64, n int, ns []int, steps []int64) {
	for k, c := range ns {
		if c == 0 {
			continue
		}
		vals := buf[k*n:][:c]
		selectQuantiles(vals)
		band.Steps = append(band.Steps, steps[k])
		band.N = append(band.N, c)
		for qi, p := range result.SweepQuantiles {
			band.Q[qi] = append(band.Q[qi], quantile(vals, p))
		}
	}
}

// spread returns n of xs evenly spread by index, the first and last
// included (n >= 2).
func spread[T any](xs []T, n int) []T {
	if n < 2 {
		n = 2
	}
	out := make([]T, 0, n)
	for i := range n {
		out = append(out, xs[i*(len(xs)-1)/(n-1)])
	}
	return out
}

// quantile returns the p-quantile of sorted (ascending, not empty) by
// linear interpolation between the order statistics around (n-1)p:
// numpy's default ("linear", Hyndman and Fan's type 7). It reads only
// those two (the last when (n-1)p reaches it): selectQuantiles puts them
// in place without sorting the rest.
func quantile(sorted []float64, p float64) float64 {
	h := float64(len(sorted)-1) * p
	lo := int(math.Floor(h))
	if lo >= len(sorted)-1 {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// selectQuantiles reorders vals (finite, not empty) so that the order
// statistics quantile reads for each of result.SweepQuantiles are where a
// sort would put them: at most ten ranks, found by one quickselect that
// partitions around a pivot and goes on only into the parts that hold a
// rank, O(n) expected rather than a sort's O(n log n). The values read are
// a sort's (a rank's value is unique, whatever the order of ties).
func selectQuantiles(vals []float64) {
	var buf [2 * len(result.SweepQuantiles)]int
	ranks := buf[:0]
	n := len(vals)
	for _, p := range result.SweepQuantiles {
		lo := int(math.Floor(float64(n-1) * p))
		if lo >= n-1 {
			ranks = append(ranks, n-1)
		} else {
			ranks = append(ranks, lo, lo+1)
		}
	}
	slices.Sort(ranks)
	ranks = slices.Compact(ranks)
	selectRanks(vals, 0, ranks, 2*bits.Len(uint(n)))
}

// selectRanks puts at each of the ascending ranks (positions in vals
// counted from base, all within it) the value a sort of vals would put
// there. After depth partitions it sorts what is left, so that a bad run
// of pivots costs a sort, not O(n^2).
//
// Ties may end in another order than a sort's: equal values have the same
// bits but for -0 and +0, and quantile reads the same number whichever
// zero a rank holds (it adds to the lower value a non-negative multiple of
// a difference that is then +0 or positive, and -0 + +0 is +0; at rank
// n-1 alone it reads a value as it is, which p < 1 reaches only for one
// value).
func selectRanks(vals []float64, base int, ranks []int, depth int) {
	for len(ranks) > 0 {
		if len(vals) <= 16 || depth == 0 {
			slices.Sort(vals)
			return
		}
		depth--
		// Partition around the median of three, one pass with no branch
		// on the values (which side is a coin toss for the middle
		// ranks): below the pivot to the front, the rest (the pivot among
		// them) after it. Only when none is below, which no pass of this
		// kind would change, are the values equal to the pivot split off
		// (those ranks are found): each partition leaves smaller parts.
		a, b, c := vals[0], vals[len(vals)/2], vals[len(vals)-1]
		pivot := max(min(a, b), min(max(a, b), c))
		lt := partitionBelow(vals, pivot)
		gt := lt
		if lt == 0 {
			gt = partitionEqual(vals, pivot)
		}
		below := 0 // ranks in vals[:lt]
		for below < len(ranks) && ranks[below] < base+lt {
			below++
		}
		above := below // first rank in vals[gt:]
		for above < len(ranks) && ranks[above] < base+gt {
			above++
		}
		if below > 0 {
			selectRanks(vals[:lt], base, ranks[:below], depth)
		}
		vals, base, ranks = vals[gt:], base+gt, ranks[above:]
	}
}

// partitionBelow moves the values of vals below pivot to its front and
// returns their count (Lomuto's partition, each step an unconditional
// swap and a flag: no branch on the values).
func partitionBelow(vals []float64, pivot float64) int {
	lt := 0
	for i, v := range vals {
		vals[i] = vals[lt]
		vals[lt] = v
		lt += b2i(v < pivot)
	}
	return lt
}

// partitionEqual moves the values of vals (none below pivot) equal to
// pivot to its front and returns their count, as partitionBelow does.
func partitionEqual(vals []float64, pivot float64) int {
	eq := 0
	for i, v := range vals {
		vals[i] = vals[eq]
		vals[eq] = v
		eq += b2i(v <= pivot)
	}
	return eq
}

// b2i is 1 for true, 0 for false: a flag, not a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// finalValue is a series' final value: that of its last point (in step
// order, the line's), NaN when it has none.
func finalValue(s *model.Scalar) float64 {
	if len(s.Points) == 0 {
		return math.NaN()
	}
	return s.Points[len(s.Points)-1].Value
}

// sweepEnds returns the indices of the series of the final values finals
// with the k lowest and the k highest finite ones, lowest first and
// highest first; a run with a non-finite final value is in neither (the
// band says how many runs a step counts). With fewer than 2k such series,
// the ends share none: the lower half (rounded up) is low, the rest high.
func sweepEnds(finals []float64, k int) (low, high []int) {
	var ranked []int
	for i, v := range finals {
		if finite(v) {
			ranked = append(ranked, i)
		}
	}
	// Stable, so that ties keep report order.
	slices.SortStableFunc(ranked, func(a, b int) int {
		va, vb := finals[a], finals[b]
		switch {
		case va < vb:
			return -1
		case va > vb:
			return 1
		}
		return 0
	})
	nl := min(k, (len(ranked)+1)/2)
	nh := min(k, len(ranked)-nl)
	low = ranked[:nl]
	for i := len(ranked) - 1; i >= len(ranked)-nh; i-- {
		high = append(high, ranked[i])
	}
	return low, high
}
