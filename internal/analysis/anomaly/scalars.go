package anomaly

import (
	"fmt"
	"math"
	"math/bits"
	"regexp"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/downsample"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// scalarSeries is what a scalar rule looks at: a series' tag and points,
// and its finite values with their indices in points, which the rules on
// a series' shape share (found once per series, for all its rules).
type scalarSeries struct {
	tag  string
	pts  []model.Point
	vals []float64
	idx  []int // nil when every point is finite: vals[k] is pts[k]'s
	// The number of points that are not finite, and the first one's index.
	nonFinite, firstNonFinite int
	// maxStep is the largest step of pts (math.MinInt64 for none);
	// unsorted is true when a step is below one before it.
	maxStep  int64
	unsorted bool
	// min and max are the indices in pts of the first smallest and the
	// first largest finite value, -1 when none is finite: the series'
	// statistics (model.Scalar.Stats), found by the same pass.
	min, max int
	// mins and maxs are, when every value is finite and the pass was
	// given buckets, the index of each bucket's first smallest and first
	// largest value (downsample.FromExtremes); nil else.
	mins, maxs []int
	// walls is, when the pass was asked for them (copyWalls) and every
	// value is finite (hasWalls), the wall times of pts, in their order.
	walls    []float64
	hasWalls bool
	// sc is the buffers the series' rules may use, one rule at a time
	// (nil: their own).
	sc *scratch
}

// point returns the point of the finite value vals[k].
func (s *scalarSeries) point(k int) model.Point {
	if s.idx == nil {
		return s.pts[k]
	}
	return s.pts[s.idx[k]]
}

// scratch is the buffers a worker's series share, one series at a time:
// a series' finite values cost no allocation beyond the longest's.
type scratch struct {
	vals         []float64
	walls        []float64 // the wall times a pass copies (copyWalls)
	idx          []int
	mins, maxs   []int
	bits         []uint64     // the spike rule's cleared points
	ranges, near []valueRange // its blocks' (nearBlocks)
	sums         []blockSums
}

// bitset returns a cleared bitset of n bits from sc's buffer (sc nil: a
// new one).
func (sc *scratch) bitset(n int) []uint64 {
	words := (n + 63) / 64
	if sc == nil {
		return make([]uint64, words)
	}
	sc.bits = slices.Grow(sc.bits[:0], words)[:words]
	clear(sc.bits)
	return sc.bits
}

// scalarRules runs the rules of a table on scalar series over one series,
// and returns with what fired the series' largest step (math.MinInt64
// for none), which the pass for its finite values finds.
func scalarRules(rules []Rule, run string, s *model.Scalar, th Thresholds, sc *scratch) ([]result.Anomaly, int64) {
	var out []result.Anomaly
	ser := finiteValues(s.Tag, s.Points, sc, 0)
	for _, r := range rules {
		if a := r.scalar(ser, th); a != nil {
			out = append(out, r.fired(a, run, s.Tag))
		}
	}
	return out, ser.maxStep
}

// lossLike reports whether a tag names a loss, which goes down as training
// works: the rules of divergence and plateau look at those only.
func lossLike(tag string) bool {
	t := strings.ToLower(tag)
	return strings.Contains(t, "loss") && !strings.Contains(t, "acc")
}

// learningRateName matches the last part of a tag that names a learning
// rate: lr, lr-Adam, lr_0, learning_rate, learning-rate, LearningRate.
var learningRateName = regexp.MustCompile(`(?i)(^|[^a-z])(lr|learning[_-]?rate)([^a-z]|$)`)

func learningRateLike(tag string) bool {
	return learningRateName.MatchString(tag[strings.LastIndexByte(tag, '/')+1:])
}

// scalarNonFinite fires at the first NaN or infinity of a series.
func scalarNonFinite(s *scalarSeries, _ Thresholds) *result.Anomaly {
	pts, first, n := s.pts, s.firstNonFinite, s.nonFinite
	if n == 0 {
		return nil
	}
	p := pts[first]
	return &result.Anomaly{HasStep: true, Step: p.Step, Value: p.Value, Count: n,
		Detail: fmt.Sprintf("first non-finite value (%v) at step %d; %d of %d points are not finite", p.Value, p.Step, n, len(pts))}
}

// scalarSpikes fires at the points that stand out from both the points
// before and the points after them: further from the median of each
// window of th.SpikeWindow points than th.SpikeMADs scaled MADs and
// th.SpikeMinRel of the median's magnitude. Comparing with both sides
// tells a spike, which comes back, from a step of a schedule, which stays.
//
// Most points are cleared with no median, in two stages that each prove a
// point near one of its windows, and so no spike:
//
//   - Most points of a real series are near a window's median, relative
//     to its magnitude: the range, or order statistics found by counting,
//     of the two blocks of w values a window spans bound its median
//     (nearIntervals), so a point whose distance to both bounds is within
//     th.SpikeMinRel of their smallest magnitude (with a margin that
//     covers rounding) is cleared by comparisons (clearedPoints), a block
//     at a time where the block's range is within.
//   - The points left, mostly where noise is as large as the level, are
//     tested against their windows' chunks, the sorted values of the two
//     blocks a window lies in (window.go), whose bounds (chunkBounds) hold
//     for every window starting in one half of the chunk's first block
//     (partBounds, chunk.side): the median between two order statistics
//     of the values those windows lie in, and the MAD at least half their
//     shortest span of ceil(w/2) values. A point within SpikeMADs scaled MADs of every
//     median in the bounds is cleared. A point alone in a cleared stretch,
//     whose chunk is not at hand, is first counted in its window
//     (nearCount), which costs far less than the chunk. On a p8m-like
//     run, of the 90,000 points a million the first stage leaves, some
//     3,000 are left to the windows.
//
// The few points left are judged exactly, with no sort, allocation or
// move of a window per point: each window moves forward to the point's,
// over the chunks' sorted values; the MADs, which need both windows'
// order, are found only for the points far from both medians.
func scalarSpikes(s *scalarSeries, th Thresholds) *result.Anomaly {
	vals := s.vals
	w := th.SpikeWindow
	if w < 3 || len(vals) < 2*w+1 {
		return nil
	}
	far := func(d, med float64) bool { // most points are not: no MAD needed
		return !(d == 0 || d <= th.SpikeMinRel*math.Abs(med))
	}
	cleared := clearedPoints(vals, w, th.SpikeMinRel, coarseCleared(s, w, th.SpikeMinRel), s.sc)
	nc := newNearCount(w, th.SpikeMinRel)
	cs := newChunks(newBlocks(vals, w))
	cs.rel, cs.madScale = th.SpikeMinRel, th.SpikeMADs*1.4826
	before, after := newWindow(cs), newWindow(cs)
	byW := newDivisor(w)
	half := w / 2 // the chunks' halves (chunk.side)
	var first, n int
	// Whether the block of the point at hand leaves at least denseLeft
	// points to this stage (noise as large as the level): then its
	// windows' chunks are made at once, with no count first, since some
	// point of the block will need them (a count clears about three
	// points in five there, for a quarter of a chunk's cost).
	const denseLeft = 10
	// The block of the point at hand, blk (found by a division when the
	// points move past it: the points come in order), and where the next
	// begins.
	blk, next, dense := 0, 0, false
	nLeft := len(vals) - w
	// The points not cleared, a word of bits at a time, in order: the
	// windows and chunks move forward only.
	for q := range cleared {
		for left := ^cleared[q] & bitRange(q, w, len(vals)-w); left != 0; left &= left - 1 {
			i := q<<6 | bits.TrailingZeros64(left)
			x := vals[i]
			// The window before i starts in block (i-w)/w, the one after
			// in block (i+1)/w: each lies in the chunk of that block. A
			// chunk at hand is tested first; a window whose chunk is not
			// (a point alone in a stretch the first stage cleared) is
			// counted before its chunk is made (two sorts and a merge,
			// some twenty times the count).
			if i >= next {
				blk = byW.quo(i)
				next = (blk + 1) * w
				lo, hi := max(blk*w, w), min(next, nLeft)
				dense = hi-lo-countSet(cleared, lo, hi) >= denseLeft
			}
			// The windows' offsets in their chunks pick the bounds of
			// the chunk's half they start in (chunk.side). With neither
			// chunk at hand the later one is made first: its bounds
			// serve the next block's windows before too, which then
			// rarely need their own chunk.
			cb, ca := blk-1, blk+b2i(i == next-1)
			ob, oa := i-blk*w, i+1-ca*w
			hb, ha := cs.at(cb), cs.at(ca)
			if hb != nil && hb.side(ob, half).clears(x) || ha != nil && ha.side(oa, half).clears(x) ||
				!dense && (hb == nil && nc.clears(vals[i-w:i], x) || ha == nil && nc.clears(vals[i+1:i+w+1], x)) ||
				cs.get(ca).side(oa, half).clears(x) || cs.get(cb).side(ob, half).clears(x) {
				continue
			}
			before.moveTo(i - w)
			after.moveTo(i + 1)
			mb, ma := before.median(), after.median()
			db, da := math.Abs(x-mb), math.Abs(x-ma)
			if !far(db, mb) || !far(da, ma) {
				continue
			}
			if !(db > th.SpikeMADs*1.4826*before.mad(mb)) || !(da > th.SpikeMADs*1.4826*after.mad(ma)) {
				continue
			}
			if n == 0 {
				first = i
			}
			n++
		}
	}
	return spikeFinding(s, first, n)
}

// divisor divides by a constant with a multiply rather than a division
// (some twenty cycles, once a block of the points the spike rule's first stage
// leaves): for d >= 2 and a dividend below 2^32, (ceil(2^64/d) * i) >>
// 64 is i/d exactly (Lemire, Kaser and Kurz, "Faster remainder by direct
// computation", 2019); a larger dividend is divided.
type divisor struct {
	d int
	m uint64
}

func newDivisor(d int) divisor { return divisor{d: d, m: ^uint64(0)/uint64(d) + 1} }

// quo returns i/d for i >= 0.
func (v divisor) quo(i int) int {
	if uint64(i) >= 1<<32 {
		return i / v.d
	}
	hi, _ := bits.Mul64(v.m, uint64(i))
	return int(hi)
}

// bitRange returns the bits of word q of a bitset (bit i%64 of word i/64
// for i) that stand for lo <= i < hi.
func bitRange(q, lo, hi int) uint64 {
	lo, hi = max(lo-q<<6, 0), min(hi-q<<6, 64)
	if lo >= hi {
		return 0
	}
	return (^uint64(0) >> (64 - (hi - lo))) << lo
}

// nearCount proves a point near one window's median relative to its
// magnitude by counting the window's values, with no sort: the test the
// spike rule's first stage makes for a pair of blocks, for one window,
// with the bounds taken from the point.
//
// For a median m of the point x's sign, x is near when |x-m| <=
// rel*|m|: for |x|, m in [|x|/(1+rel), |x|/(1-rel)]. a and b, that
// interval narrowed by a relative 1e-8, are checked at both ends against
// rel less a relative 1e-9, a margin far above the rounding of the check
// and of the rule's own test (|x-m| is convex and rel*|m| linear in m
// between a and b, so the ends decide for the whole interval; rel is
// kept where rel*m is a normal float). The window's median is in [a, b]
// when no more than its lower middle rank r of its values are below a
// and no more than w-1-r' (r' the upper) are above b, as nearIntervals
// counts (the mean of the middle two rounds into the interval: no
// overflow within nearHuge). A negative x is the mirror image.
type nearCount struct {
	ok           bool    // rel is in the range the margins cover
	lowF, highF  float64 // a = |x|*lowF, b = |x|*highF
	relM         float64 // rel less the margin
	below, above uint64  // the most values below a, above b
}

func newNearCount(w int, rel float64) nearCount {
	return nearCount{
		ok:    rel >= 1e-6 && rel <= 0.999,
		lowF:  (1 + 1e-8) / (1 + rel),
		highF: (1 - 1e-8) / (1 - rel),
		relM:  rel * (1 - 1e-9),
		below: uint64((w - 1) / 2), above: uint64(w - 1 - w/2),
	}
}

// clears reports whether x is, for sure, near the median of win relative
// to its magnitude.
func (nc *nearCount) clears(win []float64, x float64) bool {
	ax := math.Abs(x)
	a, b := ax*nc.lowF, ax*nc.highF
	if !(nc.ok && a > nearTiny && b < nearHuge && math.Abs(ax-a) <= nc.relM*a && math.Abs(ax-b) <= nc.relM*b) {
		return false
	}
	if x < 0 {
		a, b = -b, -a
	}
	nl, nh := countOutside(win, a, b)
	return nl <= nc.below && nh <= nc.above
}

// countOutside returns how many of vals are below lo and how many above
// hi. The sign of a difference is a flag with no branch: v-lo is negative
// exactly when v < lo (finite values; with a NaN bound the counts mean
// nothing, and the caller must not take them). Four values a step, with
// no bounds check.
func countOutside(vals []float64, lo, hi float64) (below, above uint64) {
	i := 0
	for ; i+4 <= len(vals); i += 4 {
		v := vals[i : i+4 : i+4]
		below += math.Float64bits(v[0]-lo)>>63 + math.Float64bits(v[1]-lo)>>63 + math.Float64bits(v[2]-lo)>>63 + math.Float64bits(v[3]-lo)>>63
		above += math.Float64bits(hi-v[0])>>63 + math.Float64bits(hi-v[1])>>63 + math.Float64bits(hi-v[2])>>63 + math.Float64bits(hi-v[3])>>63
	}
	for ; i < len(vals); i++ {
		below += math.Float64bits(vals[i]-lo) >> 63
		above += math.Float64bits(hi-vals[i]) >> 63
	}
	return below, above
}

// sideBounds clears the points near every window of a chunk, so near the
// window on one side of them (chunkBounds): those in near, or within t of
// both lo and hi.
type sideBounds struct {
	near      valueRange
	lo, hi, t float64
}

// clears reports whether x is near every window of the chunk.
func (b *sideBounds) clears(x float64) bool {
	return b.near.lo <= x && x <= b.near.hi || math.Abs(x-b.lo) <= b.t && math.Abs(x-b.hi) <= b.t
}

// chunkBounds returns the bounds that clear a point near every window of
// w values within a chunk of sorted values (u of them, w <= u <= 2w), for
// the spike rule's SpikeMinRel rel and scale of the MAD madScale
// (SpikeMADs*1.4826). A point x is no spike by a window whose median is
// m and MAD is mad, as the rule computes them, when d = |x-m| is 0, at
// most rel*|m| or at most madScale*mad. The bounds prove one of those
// with no median:
//
//   - The median. A window's k-th smallest value is at least the
//     chunk's k-th and at most its (k+u-w)-th, so its median, the middle
//     value or the rounded mean of the middle two, lies in [lo, hi], the
//     chunk's values of ranks (w-1)/2 and w/2+u-w (the mean of two values
//     in an interval rounds into it: no overflow within nearHuge). Then
//     near, nearInterval's, proves d <= rel*|m|, and since rounding is
//     monotonic, d <= max(|x-lo|, |x-hi|) as computed.
//   - The MAD. Were it below a float t', at least k = ceil(w/2) of the
//     window's rounded deviations would be (the odd w's middle one, or
//     the even w's lower middle one, which the rounded mean is not
//     below), so k values would lie in the open interval (m-t', m+t'),
//     and k consecutive sorted values of the chunk within 2t' of each
//     other. So if the chunk's shortest span of k consecutive values S
//     is above 2t', every window's MAD is at least t', and madScale*mad
//     at least t = madScale*t' as rounded (madScale >= 0): a point with
//     |x-lo| <= t and |x-hi| <= t is within it of the median.
//
// A chunk with no such proof (values beyond nearTiny..nearHuge, a span
// of 0: ties) gets bounds that clear nothing on that count.
func chunkBounds(sorted []float64, w int, rel, madScale float64) sideBounds {
	u := len(sorted)
	b := sideBounds{near: valueRange{1, 0}, t: -1}
	b.lo, b.hi = sorted[(w-1)/2], sorted[w/2+u-w]
	if !(b.lo > -nearHuge && b.hi < nearHuge) {
		return b
	}
	b.near = nearInterval(valueRange{b.lo, b.hi}, rel)
	k := (w + 1) / 2
	least := math.Float64bits(math.Inf(1))
	for j := 0; j+k <= u; j++ {
		// A difference of ascending values is not negative, but it is -0
		// for a -0 after a 0 (equal: a merge by value may put them either
		// way): with its sign bit cleared its bits order as it does, and
		// an integer min needs no branch.
		least = min(least, math.Float64bits(sorted[j+k-1]-sorted[j])&^(1<<63))
	}
	span := math.Float64frombits(least)
	if !(span > nearTiny && span < nearHuge && madScale >= 0) {
		return b
	}
	b.t = madScale * math.Float64frombits(math.Float64bits(span/2)-1) // the float below: span/2 is normal
	return b
}

// spikeFinding is the spike rule's finding: n spikes, the first at point
// first; nil for none.
func spikeFinding(s *scalarSeries, first, n int) *result.Anomaly {
	if n == 0 {
		return nil
	}
	p := s.point(first)
	return &result.Anomaly{HasStep: true, Step: p.Step, Value: p.Value, Count: n,
		Detail: fmt.Sprintf("%s at step %d (value %.6g)", plural(n, "spike", "spikes"), p.Step, p.Value)}
}

// clearedPoints returns a bit per value (bit i%64 of word i/64), set
// for the points i that a window's bounds clear (nearInterval) by the
// window before them, vals[i-w:i], or the one after, vals[i+1:i+w+1]:
// one pass, no median, no division per point. A block whose values all
// lie in an interval is cleared whole, with no test per point. coarse,
// when not nil, is coarseCleared's bits, which it returns with its own
// set: their blocks need no range nor interval. It uses sc's buffers
// (nil: its own).
func clearedPoints(vals []float64, w int, rel float64, coarse []uint64, sc *scratch) []uint64 {
	out := coarse
	if out == nil {
		out = sc.bitset(len(vals))
	}
	nb := newNearBlocks(vals, w, rel, sc)
	within := func(r, in valueRange) bool { return in.lo <= r.lo && r.hi <= in.hi }
	// The points of block q: their windows before start in block q-1,
	// their windows after in block q, but the last one's in block q+1.
	for q := 1; q < len(nb.near); q++ {
		lo, hi := q*w, min((q+1)*w, len(vals)-w)
		if lo >= hi {
			break
		}
		if coarse != nil && allSet(out, lo, hi) {
			continue
		}
		b, a, rq := nb.nearAt(q-1), nb.nearAt(q), nb.rangeAt(q)
		switch last := (q+1)*w - 1; {
		case within(rq, b):
			setBits(out, lo, hi)
			continue
		case within(rq, a) && hi <= last:
			setBits(out, lo, hi)
			continue
		case within(rq, a):
			setBits(out, lo, last)
			lo = last
		}
		for i := lo; i < hi; i++ {
			if i == (q+1)*w-1 {
				a = nb.nearAt(q + 1)
			}
			x := vals[i]
			if b.lo <= x && x <= b.hi || a.lo <= x && x <= a.hi {
				out[i>>6] |= 1 << (i & 63)
			}
		}
	}
	return out
}

// coarseCleared returns the bits (as clearedPoints') of the points that
// their buckets clear, nil when s has no buckets or some bucket is
// shorter than 2w: the walk found each bucket's extremes (those of the
// drawn points' buckets, hundreds of points each), so a bucket whose
// range lies in its interval (nearInterval: a point there is near any
// median in that range) is cleared whole, with no pass over its values.
// Each of a bucket's points has a window within the bucket (its window
// after, or for the last w, its window before), whose median lies in
// the bucket's range. Most buckets of a series whose noise is small
// beside its level are cleared so.
func coarseCleared(s *scalarSeries, w int, rel float64) []uint64 {
	nb, n := len(s.mins), len(s.vals)
	if nb == 0 || n/nb < 2*w {
		return nil
	}
	out := s.sc.bitset(n)
	for b := range nb {
		r := valueRange{s.vals[s.mins[b]], s.vals[s.maxs[b]]}
		if in := nearInterval(r, rel); in.lo <= r.lo && r.hi <= in.hi {
			lo, hi := downsample.Bounds(b, n, nb)
			if lo, hi = max(lo, w), min(hi, n-w); lo < hi {
				setBits(out, lo, hi)
			}
		}
	}
	return out
}

// allSet reports whether the bits lo <= i < hi of a bitset are all set.
func allSet(set []uint64, lo, hi int) bool {
	for lo < hi {
		n := min(hi-lo, 64-lo&63)
		m := (^uint64(0) >> (64 - n)) << (lo & 63)
		if set[lo>>6]&m != m {
			return false
		}
		lo += n
	}
	return true
}

// countSet returns how many of the bits lo <= i < hi of a bitset are
// set.
func countSet(set []uint64, lo, hi int) int {
	n := 0
	for lo < hi {
		k := min(hi-lo, 64-lo&63)
		n += bits.OnesCount64(set[lo>>6] & ((^uint64(0) >> (64 - k)) << (lo & 63)))
		lo += k
	}
	return n
}

// setBits sets the bits lo <= i < hi of a bitset.
func setBits(set []uint64, lo, hi int) {
	for lo < hi {
		n := min(hi-lo, 64-lo&63)
		set[lo>>6] |= (^uint64(0) >> (64 - n)) << (lo & 63)
		lo += n
	}
}

// valueRange is an interval of values, lo to hi inclusive.
type valueRange struct{ lo, hi float64 }

// nearBlocks are, for each block k of w values, the interval of the
// points x that are, for sure, within rel of the magnitude of the
// median of any window of w values starting in block k, so that the spike
// rule's test of that side, d <= rel*|med| with d = |x-med|, holds
// whatever the median is (nearInterval); and each block's range. Each is
// found when first asked for (nearAt, rangeAt): the blocks that
// coarseCleared clears need neither.
//
// Such a window W lies in blocks k and k+1, u values U, so its median
// lies in their range. When the interval that range gives holds all of
// U, the points whose windows start in block k (U's but the last of
// block k) need nothing better: this is most blocks of a series whose
// noise is small beside its level, and it costs a min and a max a value.
//
// Otherwise, a tighter bound, for noise, whose range is several times the
// spread of a window's median: W's r-th smallest value is at least U's
// r-th smallest and at most U's (r+u-w)-th (U has u-w values more), so
// its median, the middle value or the mean of the middle two, is at least
// any L with no more than r of U below it (r the lower middle rank) and at
// most any H with no more than w-1-r' above it (r' the upper). L and H are
// guessed, the mean of U less and plus its standard deviation, and proven
// by counting, with no sort: a guess that fails (a spike in the blocks, a
// step) leaves the range's end.
type nearBlocks struct {
	vals         []float64
	w            int
	rel          float64
	ranges, near []valueRange // a NaN lo: not found yet
	sums         []blockSums  // a NaN sum: not found yet (or overflowed)
}

// blockSums are a block's sum and sum of squares, for nearBlocks'
// guesses: each block's are found once for the two pairs it is in.
type blockSums struct{ sum, sq float64 }

// newNearBlocks returns the blocks of vals, in sc's buffers (nil: their
// own).
func newNearBlocks(vals []float64, w int, rel float64, sc *scratch) *nearBlocks {
	n := (len(vals) + w - 1) / w
	if sc == nil {
		sc = &scratch{}
	}
	sc.ranges = slices.Grow(sc.ranges[:0], n)[:n]
	sc.near = slices.Grow(sc.near[:0], n)[:n]
	sc.sums = slices.Grow(sc.sums[:0], n)[:n]
	nb := &nearBlocks{vals: vals, w: w, rel: rel, ranges: sc.ranges, near: sc.near, sums: sc.sums}
	unknown := valueRange{math.NaN(), math.NaN()}
	for k := range n {
		nb.ranges[k], nb.near[k] = unknown, unknown
		nb.sums[k].sum = math.NaN()
	}
	return nb
}

// sumsAt returns block k's sums.
func (nb *nearBlocks) sumsAt(k int) blockSums {
	if s := nb.sums[k]; s.sum == s.sum {
		return s
	}
	w := nb.w
	u := nb.vals[k*w : min((k+1)*w, len(nb.vals))]
	// Four sums each, so that the adds do not wait on each other (a
	// guess need not be exact; the count proves it).
	var s0, s1, s2, s3, q0, q1, q2, q3 float64
	i := 0
	for ; i+4 <= len(u); i += 4 {
		v := u[i : i+4 : i+4]
		v0, v1, v2, v3 := v[0], v[1], v[2], v[3]
		s0, s1, s2, s3 = s0+v0, s1+v1, s2+v2, s3+v3
		q0, q1, q2, q3 = q0+v0*v0, q1+v1*v1, q2+v2*v2, q3+v3*v3
	}
	for ; i < len(u); i++ {
		s0 += u[i]
		q0 += u[i] * u[i]
	}
	nb.sums[k] = blockSums{(s0 + s1) + (s2 + s3), (q0 + q1) + (q2 + q3)}
	return nb.sums[k]
}

// rangeAt returns block k's range.
func (nb *nearBlocks) rangeAt(k int) valueRange {
	if r := nb.ranges[k]; r.lo == r.lo {
		return r
	}
	w := nb.w
	nb.ranges[k] = rangeOf(nb.vals[k*w : min((k+1)*w, len(nb.vals))])
	return nb.ranges[k]
}

// nearAt returns block k's interval.
func (nb *nearBlocks) nearAt(k int) valueRange {
	if r := nb.near[k]; r.lo == r.lo {
		return r
	}
	nb.near[k] = nb.findNear(k)
	return nb.near[k]
}

func (nb *nearBlocks) findNear(k int) valueRange {
	vals, w, rel := nb.vals, nb.w, nb.rel
	below, above := uint64((w-1)/2), uint64(w-1-w/2) // the most values of U that L, H may pass
	u := vals[k*w : min((k+2)*w, len(vals))]
	r := nb.rangeAt(k)
	if k+1 < len(nb.ranges) {
		r1 := nb.rangeAt(k + 1)
		r = valueRange{min(r.lo, r1.lo), max(r.hi, r1.hi)}
	}
	if in := nearInterval(r, rel); in.lo <= r.lo && r.hi <= in.hi {
		return in
	}
	// The sum and sum of squares, for the guesses, from the blocks'.
	sums := nb.sumsAt(k)
	sum, sq := sums.sum, sums.sq
	if k+1 < len(nb.sums) {
		s1 := nb.sumsAt(k + 1)
		sum, sq = sum+s1.sum, sq+s1.sq
	}
	n := float64(len(u))
	mean := sum / n
	sd := math.Sqrt(max(sq/n-mean*mean, 0))
	l, h := mean-sd, mean+sd
	// Where the noise is as large as the level, even the guesses give an
	// interval narrower than the noise's spread, which clears few of the
	// pair's points, for the count's price: the spike rule's second stage
	// (the chunks' bounds) clears them anyway. Then the count is skipped
	// and the range's interval, as a count that failed leaves it, taken.
	if in := nearInterval(valueRange{max(l, r.lo), min(h, r.hi)}, rel); !(in.hi-in.lo >= sd) {
		return nearInterval(r, rel)
	}
	// A NaN guess, from sums that overflowed, is not taken below.
	nl, nh := countOutside(u, l, h)
	if nl <= below && l == l { // else the range's end, for sure
		r.lo = l
	}
	if nh <= above && h == h {
		r.hi = h
	}
	return nearInterval(r, rel)
}

// rangeOf returns the least and the greatest of vals (finite, at least
// one), with no branch on the values: as integers, the bits of values
// that are not negative (the sign bit clear) order as the values do, and
// a block of them (most of a loss's or an accuracy's) is done by integer
// min and max; a block with a sign bit set is done again with the
// negative values' magnitude bits flipped (orderKey).
func rangeOf(vals []float64) valueRange {
	lo, hi, or := uint64(math.MaxUint64), uint64(0), uint64(0)
	for _, v := range vals {
		b := math.Float64bits(v)
		lo, hi, or = min(lo, b), max(hi, b), or|b
	}
	if or>>63 == 0 {
		return valueRange{math.Float64frombits(lo), math.Float64frombits(hi)}
	}
	klo, khi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, v := range vals {
		k := orderKey(v)
		klo, khi = min(klo, k), max(khi, k)
	}
	return valueRange{fromOrderKey(klo), fromOrderKey(khi)}
}

// orderKey maps a finite value's bits to an integer that orders as the
// value does (a negative value's magnitude bits flipped; -0 just below
// 0); fromOrderKey maps it back.
func orderKey(v float64) int64 {
	b := int64(math.Float64bits(v))
	return b ^ int64(uint64(b>>63)>>1)
}

func fromOrderKey(k int64) float64 {
	return math.Float64frombits(uint64(k ^ int64(uint64(k>>63)>>1)))
}

// Bounds of nearInterval's proof: a relative margin far above the
// rounding of the few operations it covers, and magnitudes within which
// no operation overflows or loses precision to subnormals.
const (
	nearMargin = 1e-9
	nearTiny   = 1e-280
	nearHuge   = 1e280
)

// nearInterval is nearIntervals' interval for a window whose median lies
// in r.
func nearInterval(r valueRange, rel float64) valueRange {
	none := valueRange{1, 0}
	var m float64
	switch {
	case r.lo > 0:
		m = r.lo
	case r.hi < 0:
		m = -r.hi
	default:
		return none
	}
	if !(m > nearTiny && r.hi < nearHuge && r.lo > -nearHuge) {
		return none
	}
	b := rel * m * (1 - nearMargin) / (1 + nearMargin)
	if !(b > nearTiny) || math.IsInf(b, 0) {
		return none
	}
	return valueRange{lo: nextUp(nextUp(r.hi - b)), hi: -nextUp(nextUp(-(r.lo + b)))}
}

// nextUp is math.Nextafter(x, math.Inf(1)) for a finite x, with no branch
// on NaN or the direction: the float next above x.
func nextUp(x float64) float64 {
	b := math.Float64bits(x)
	switch {
	case x > 0:
		b++
	case x < 0:
		b--
	default: // either zero
		return math.SmallestNonzeroFloat64
	}
	return math.Float64frombits(b)
}

// minValue is slices.Min of the series' finite values, which must not
// be none, from its pass's first smallest (scalarSeries.min): the same
// value, but for a zero, whose sign the builtin min decides (-0 if any).
func (s *scalarSeries) minValue() float64 {
	if len(s.vals) == 0 {
		return slices.Min(s.vals) // its panic
	}
	if v := s.pts[s.min].Value; v != 0 {
		return v
	}
	return slices.Min(s.vals)
}

// maxValue is slices.Max of the series' finite values, as minValue (0 if
// any zero is 0).
func (s *scalarSeries) maxValue() float64 {
	if len(s.vals) == 0 {
		return slices.Max(s.vals)
	}
	if v := s.pts[s.max].Value; v != 0 {
		return v
	}
	return slices.Max(s.vals)
}

// scalarDiverged fires, on a loss (lossLike), when it ends far above its minimum: the median
// of its last five finite values is above the minimum by more than
// th.DivergeFactor of the larger of what it fell from its first value to
// its minimum and the minimum's magnitude. A validation loss that creeps
// up by a tenth as a model overfits does not fire; one that climbs back
// up half the way it came down, or doubles, does.
func scalarDiverged(s *scalarSeries, th Thresholds) *result.Anomaly {
	vals := s.vals
	if !lossLike(s.tag) || len(vals) < th.DivergeMinPoints {
		return nil
	}
	lo := s.minValue()
	tail := slices.Clone(vals[max(0, len(vals)-5):])
	end, _ := medianMAD(tail, make([]float64, len(tail)))
	fell := vals[0] - lo
	if end-lo <= th.DivergeFactor*max(fell, math.Abs(lo)) || end-lo == 0 {
		return nil
	}
	p := s.point(len(vals) - 1)
	return &result.Anomaly{HasStep: true, Step: p.Step, Value: end, Count: 1,
		// The median is what fired, and not the last value, which the
		// summary's Last shows: the finding names both, each as what it is.
		Detail: fmt.Sprintf("ends at %.6g, the median of its last %d finite values (the last is %.6g), far above its minimum %.6g (step %d), having fallen %.6g from its first value",
			end, len(tail), vals[len(vals)-1], lo, s.pts[s.min].Step, fell)}
}

// scalarPlateau fires when a loss (lossLike) never moves: over at least th.MinPoints
// finite values, its range is within th.PlateauRel of its magnitude.
func scalarPlateau(s *scalarSeries, th Thresholds) *result.Anomaly {
	vals := s.vals
	if !lossLike(s.tag) || len(vals) < th.MinPoints {
		return nil
	}
	lo, hi := s.minValue(), s.maxValue()
	if hi-lo > th.PlateauRel*max(math.Abs(lo), math.Abs(hi)) {
		return nil
	}
	p := s.point(0)
	return &result.Anomaly{HasStep: true, Step: p.Step, Value: p.Value, Count: len(vals),
		Detail: fmt.Sprintf("flat from step %d to %d: between %.6g and %.6g over %d points", p.Step, s.point(len(vals)-1).Step, lo, hi, len(vals))}
}

// learningRateZero fires when a learning rate (learningRateLike) is zero for at least
// th.LRZeroPoints points in a row, or at every point: a warm-up from zero
// or a schedule that ends at zero touches it once.
func learningRateZero(s *scalarSeries, th Thresholds) *result.Anomaly {
	if !learningRateLike(s.tag) {
		return nil
	}
	pts := s.pts
	start, best, bestStart, run := 0, 0, 0, 0
	for i, p := range pts {
		if p.Value != 0 {
			run = 0
			continue
		}
		if run == 0 {
			start = i
		}
		run++
		if run > best {
			best, bestStart = run, start
		}
	}
	if best == 0 || best < th.LRZeroPoints && best < len(pts) {
		return nil
	}
	p := pts[bestStart]
	return &result.Anomaly{HasStep: true, Step: p.Step, Value: 0, Count: best,
		Detail: fmt.Sprintf("learning rate is zero for %d points in a row from step %d", best, p.Step)}
}

// finiteValues returns the series of tag and pts for the rules on its
// shape: its finite values and their indices (none when all are, the
// common case), its count of the others, its largest step, whether its
// steps are in order and its smallest and largest finite values, in one
// pass, in sc's buffers (nil: its own), which the series holds until the
// next. With nb > 0 buckets (downsample.Buckets) the pass also finds each
// bucket's first smallest and largest value, what downsample.Values would
// find in a pass of its own, when every value is finite.
func finiteValues(tag string, pts []model.Point, sc *scratch, nb int) *scalarSeries {
	return walkPoints(tag, pts, sc, nb, false)
}

// walkPoints is finiteValues; with copyWalls the pass also copies the
// points' wall times (scalarSeries.walls), one store a point more: the
// pass reads their cache lines whole anyway (a point's Step, WallTime
// and Value are one 24-byte struct), and a writer of the wall-time
// column then reads 8 bytes a point in cache, not the points again.
func walkPoints(tag string, pts []model.Point, sc *scratch, nb int, copyWalls bool) *scalarSeries {
	if sc == nil {
		sc = &scratch{}
	}
	s := &scalarSeries{tag: tag, pts: pts, firstNonFinite: -1, sc: sc}
	n := len(pts)
	vals := slices.Grow(sc.vals[:0], n)[:n]
	mins := slices.Grow(sc.mins[:0], nb)[:nb]
	maxs := slices.Grow(sc.maxs[:0], nb)[:nb]
	sc.mins, sc.maxs = mins, maxs
	var walls []float64
	if copyWalls {
		walls = slices.Grow(sc.walls[:0], n)[:n]
		sc.walls = walls
	}
	maxStep := int64(math.MinInt64)
	unsorted := false
	// The first smallest and largest finite values (strict comparisons):
	// a new extreme is rare past a series' start (or a bucket's), so the
	// branches are predicted.
	imin, imax := -1, -1
	vmin, vmax := math.Inf(1), math.Inf(-1)
	// The common case first, in a loop of its own (few live values, none
	// spilled): every value so far finite, each at its point's index, a
	// bucket at a time (the whole series as one when nb is 0); a bucket's
	// extremes then fold into the series' (the first bucket to hold the
	// smallest value holds its first index).
	i := 0
	for b := range max(nb, 1) {
		lo, hi := 0, n
		if nb > 0 {
			lo, hi = downsample.Bounds(b, n, nb)
		}
		var w bucketWalk
		if walls != nil {
			w = walkBucketWalls(pts[lo:hi], vals[lo:hi], walls[lo:hi], maxStep)
		} else {
			w = walkBucket(pts[lo:hi], vals[lo:hi], maxStep)
		}
		i, maxStep, unsorted = lo+w.n, w.maxStep, unsorted || w.unsorted
		bmin, bmax, bvmin, bvmax := lo+w.min, lo+w.max, w.vmin, w.vmax // unset only when no value was read: not taken below
		if bvmin < vmin {
			imin, vmin = bmin, bvmin
		}
		if bvmax > vmax {
			imax, vmax = bmax, bvmax
		}
		if i < hi {
			break
		}
		if nb > 0 {
			mins[b], maxs[b] = bmin, bmax
		}
	}
	k := i
	var idx []int
	if i < n {
		// From the first non-finite value on: the finite ones' indices.
		idx = slices.Grow(sc.idx[:0], n)
		for j := range k {
			idx = append(idx, j)
		}
		s.firstNonFinite = i
		for ; i < n; i++ {
			p := &pts[i]
			if p.Step < maxStep {
				unsorted = true
			}
			maxStep = max(maxStep, p.Step)
			v := p.Value
			if v-v != 0 {
				s.nonFinite++
				continue
			}
			vals[k] = v
			idx = append(idx, i)
			k++
			if v < vmin {
				imin, vmin = i, v
			}
			if v > vmax {
				imax, vmax = i, v
			}
		}
	}
	s.vals, s.idx, s.maxStep, s.unsorted = vals[:k], idx, maxStep, unsorted
	s.min, s.max = imin, imax
	if s.nonFinite == 0 && nb > 0 {
		s.mins, s.maxs = mins, maxs
	}
	if copyWalls && s.nonFinite == 0 {
		s.walls, s.hasWalls = walls, true // whole only then: the copy stops at the first non-finite value
	}
	sc.vals = vals
	if idx != nil {
		sc.idx = idx
	}
	return s
}

// bucketWalk is what walkBucket found of a bucket's points.
type bucketWalk struct {
	n          int   // the points before the first non-finite one (all of them if none)
	maxStep    int64 // the largest step so far, those of the n points included
	unsorted   bool  // a step of the n points is below one before it
	min, max   int   // the offsets of the n points' first smallest and largest value, -1 for none
	vmin, vmax float64
}

// walkBucketGo is finiteValues' common case over a bucket's points (out, as
// long as pts, takes their values): up to the first non-finite value, the
// values, their extremes, the largest step and whether the steps are in
// order, maxStep being the largest before the bucket. A function of its
// own, called once a bucket (hundreds of points), so that its few live
// values stay in registers (in finiteValues' body they were spilled, a
// store and a load each a point).
//
// The loop has one branch a point beside its own, rarely taken: a
// non-finite value is noticed at the bucket's end (v-v, summed, is 0
// for finite values only), and then the bucket is walked again, a point
// at a time; the extremes' indices are found afterwards, by looking for
// their values in out (in cache: a few hundred values).
//
// It is the reference and the fallback of walkBucket, which takes 8
// points a turn where the CPU has AVX-512 (walkbucket_amd64.s).
//
//go:noinline
func walkBucketGo(pts []model.Point, out []float64, maxStep int64) bucketWalk {
	out = out[:len(pts)]
	before := maxStep
	vmin, vmax := math.Inf(1), math.Inf(-1)
	var nonFinite float64
	unsorted := false
	for j := range pts {
		p := &pts[j]
		v := p.Value
		nonFinite += v - v
		out[j] = v
		if p.Step < maxStep {
			unsorted = true
		}
		maxStep = max(maxStep, p.Step)
		if v < vmin {
			vmin = v
		}
		if v > vmax {
			vmax = v
		}
	}
	if nonFinite != 0 {
		return walkBucketSlow(pts, out, before)
	}
	return bucketEnds(out, maxStep, unsorted, vmin, vmax)
}

// bucketEnds is what walkBucket found of a bucket of finite values out,
// their extremes vmin and vmax: it finds the extremes' offsets.
func bucketEnds(out []float64, maxStep int64, unsorted bool, vmin, vmax float64) bucketWalk {
	if len(out) == 0 {
		return bucketWalk{maxStep: maxStep, min: -1, max: -1, vmin: vmin, vmax: vmax}
	}
	// The first of the smallest values, as a strict comparison keeps it
	// (-0 and 0 are equal), and its value, whose sign a zero takes from
	// that first one: the Go loops' extreme is that value already, the
	// vector walk's may be the other zero (its lanes met in another
	// order).
	imin, imax := 0, 0
	for out[imin] != vmin {
		imin++
	}
	for out[imax] != vmax {
		imax++
	}
	return bucketWalk{n: len(out), maxStep: maxStep, unsorted: unsorted, min: imin, max: imax, vmin: out[imin], vmax: out[imax]}
}

// walkBucketWallsGo is walkBucketGo that also copies the points' wall times
// to walls (as long as pts) up to the first non-finite value. A loop of
// its own, not a branch a point in walkBucketGo's: the Go compiler does
// not take a loop-invariant branch out of a loop. It is the reference and
// the fallback of walkBucketWalls.
//
//go:noinline
func walkBucketWallsGo(pts []model.Point, out, walls []float64, maxStep int64) bucketWalk {
	out, walls = out[:len(pts)], walls[:len(pts)]
	before := maxStep
	vmin, vmax := math.Inf(1), math.Inf(-1)
	var nonFinite float64
	unsorted := false
	for j := range pts {
		p := &pts[j]
		v := p.Value
		nonFinite += v - v
		out[j] = v
		walls[j] = p.WallTime
		if p.Step < maxStep {
			unsorted = true
		}
		maxStep = max(maxStep, p.Step)
		if v < vmin {
			vmin = v
		}
		if v > vmax {
			vmax = v
		}
	}
	if nonFinite != 0 {
		return walkBucketSlow(pts, out, before) // walls are not handed: not whole
	}
	return bucketEnds(out, maxStep, unsorted, vmin, vmax)
}

// walkBucketSlow is walkBucket of a bucket that holds a non-finite value,
// a point at a time up to the first one.
func walkBucketSlow(pts []model.Point, out []float64, maxStep int64) bucketWalk {
	imin, imax := -1, -1
	vmin, vmax := math.Inf(1), math.Inf(-1)
	unsorted := false
	j := 0
	for ; j < len(pts); j++ {
		p := &pts[j]
		v := p.Value
		if v-v != 0 { // NaN or infinite
			break
		}
		if p.Step < maxStep {
			unsorted = true
		}
		maxStep = max(maxStep, p.Step)
		out[j] = v
		if v < vmin {
			imin, vmin = j, v
		}
		if v > vmax {
			imax, vmax = j, v
		}
	}
	return bucketWalk{n: j, maxStep: maxStep, unsorted: unsorted, min: imin, max: imax, vmin: vmin, vmax: vmax}
}

// medianMAD returns the median of win and the median of the absolute
// deviations from it, using buf (len(win) long) as scratch.
func medianMAD(win, buf []float64) (float64, float64) {
	buf = append(buf[:0], win...)
	med := median(buf)
	for i, v := range win {
		buf[i] = math.Abs(v - med)
	}
	return med, median(buf)
}

// median sorts vs and returns the middle value (the mean of the middle two
// for an even count).
func median(vs []float64) float64 {
	slices.Sort(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2]
	}
	return (vs[n/2-1] + vs[n/2]) / 2
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
