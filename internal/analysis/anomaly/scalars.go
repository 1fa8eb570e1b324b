package anomaly

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// scalarSeries is what a scalar rule looks at: a series' tag and points,
// and its finite values with their indices in points, which the rules on
// a series' shape share (found once per series, for all its rules).
type scalarSeries struct {
	tag  string
	pts  []model.Point
	vals []float64
	idx  []int
}

// scalarRules runs the rules of a table on scalar series over one series.
func scalarRules(rules []Rule, run string, s *model.Scalar, th Thresholds) []result.Anomaly {
	var out []result.Anomaly
	vals, idx := finiteValues(s.Points)
	ser := &scalarSeries{tag: s.Tag, pts: s.Points, vals: vals, idx: idx}
	for _, r := range rules {
		if a := r.scalar(ser, th); a != nil {
			out = append(out, r.fired(a, run, s.Tag))
		}
	}
	return out
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
	pts := s.pts
	first, n := -1, 0
	for i, p := range pts {
		if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
			if first < 0 {
				first = i
			}
			n++
		}
	}
	if first < 0 {
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
// Most points of a real series are near both medians, relative to their
// magnitude, and that alone clears them: the range of each block of w
// values bounds the median of every window over it, so a point whose
// distance to the whole range is within th.SpikeMinRel of the range's
// smallest magnitude (with a margin that covers rounding) is cleared
// without a median (nearWindow). The points left are judged exactly as
// before, with no sort, allocation or move of a window per point
// (window.go): the medians of the windows after points are kept in a ring
// of the last w+2, for the points w+1 later whose window before is the
// same; the MADs, which need both windows' order, are found only for the
// points far from both medians.
func scalarSpikes(s *scalarSeries, th Thresholds) *result.Anomaly {
	pts, vals, idx := s.pts, s.vals, s.idx
	w := th.SpikeWindow
	if w < 3 || len(vals) < 2*w+1 {
		return nil
	}
	far := func(d, med float64) bool { // most points are not: no MAD needed
		return !(d == 0 || d <= th.SpikeMinRel*math.Abs(med))
	}
	cleared := clearedPoints(vals, w, th.SpikeMinRel)
	isCleared := func(i int) bool { return cleared[i>>6]&(1<<(i&63)) != 0 }
	cs := newChunks(newBlocks(vals, w))
	before, after := newWindow(cs), newWindow(cs)
	ring := make([]float64, w+2) // ring[j%(w+2)]: the median of vals[j:j+w]
	var first, n int
	for i := w; i+w < len(vals); i++ {
		// The window after i is the window before i+w+1: its median is
		// needed if either point is not cleared; the after window then
		// moves forward, by one or by a jump over a cleared stretch.
		ci := isCleared(i)
		if j := i + w + 1; !ci || j+w < len(vals) && !isCleared(j) {
			after.moveTo(i + 1)
			ring[(i+1)%len(ring)] = after.median()
		}
		if ci {
			continue
		}
		ma := ring[(i+1)%len(ring)]
		var mb float64
		if i-w <= w { // windows 0..w are never an after window
			before.moveTo(i - w)
			mb = before.median()
		} else {
			mb = ring[(i-w)%len(ring)]
		}
		x := vals[i]
		db, da := math.Abs(x-mb), math.Abs(x-ma)
		if !far(db, mb) || !far(da, ma) {
			continue
		}
		before.moveTo(i - w)
		if !(db > th.SpikeMADs*1.4826*before.mad(mb)) || !(da > th.SpikeMADs*1.4826*after.mad(ma)) {
			continue
		}
		if n == 0 {
			first = i
		}
		n++
	}
	if n == 0 {
		return nil
	}
	p := pts[idx[first]]
	return &result.Anomaly{HasStep: true, Step: p.Step, Value: p.Value, Count: n,
		Detail: fmt.Sprintf("%s at step %d (value %.6g)", plural(n, "spike", "spikes"), p.Step, p.Value)}
}

// clearedPoints returns a bit per value (bit i%64 of word i/64), set
// for the points i that nearWindow clears by the window before them,
// vals[i-w:i], or the one after, vals[i+1:i+w+1]: one pass, no median.
func clearedPoints(vals []float64, w int, rel float64) []uint64 {
	out := make([]uint64, (len(vals)+63)/64)
	ranges := blockRanges(vals, w)
	// kb, ob: the block of the start of the window before point i and
	// the offset in it; ka, oa: the same for the window after.
	kb, ob, ka, oa := 0, 0, 1, 1 // i = w: windows at 0 and w+1 (w >= 3)
	for i := w; i+w < len(vals); i++ {
		x := vals[i]
		if nearWindow(x, ranges, kb, ob, rel) || nearWindow(x, ranges, ka, oa, rel) {
			out[i>>6] |= 1 << (i & 63)
		}
		if ob++; ob == w {
			kb, ob = kb+1, 0
		}
		if oa++; oa == w {
			ka, oa = ka+1, 0
		}
	}
	return out
}

// valueRange is the smallest and the largest of a block of values.
type valueRange struct{ lo, hi float64 }

// blockRanges returns the range of each block of w consecutive values
// (the last one may be shorter): one pass, no branch on the values.
func blockRanges(vals []float64, w int) []valueRange {
	out := make([]valueRange, (len(vals)+w-1)/w)
	for k := range out {
		seg := vals[k*w : min((k+1)*w, len(vals))]
		lo, hi := seg[0], seg[0]
		for _, v := range seg[1:] {
			lo, hi = min(lo, v), max(hi, v)
		}
		out[k] = valueRange{lo, hi}
	}
	return out
}

// Bounds of nearWindow's proof: a relative margin far above the rounding
// of the few operations it covers, and magnitudes within which no
// operation overflows or loses precision to subnormals.
const (
	nearMargin = 1e-9
	nearTiny   = 1e-280
	nearHuge   = 1e280
)

// nearWindow reports whether x is, for sure, within rel of the magnitude
// of the median of the window of w values starting at offset o of block k
// (w being the blocks' length), so that the spike rule's test of that
// side, d <= rel*|med| with d = |x-med|, holds whatever the median is.
// The median lies in the range of the window's one or two blocks, [lo,
// hi]; when that range has one sign, |med| >= m (lo, or -hi), and d <= D,
// the larger distance from x to either end; D <= rel*m then proves it.
// The margin covers the rounding of d, of rel*|med| and of this test, so
// that a false "yes" is impossible; a "no" only means "look".
func nearWindow(x float64, ranges []valueRange, k, o int, rel float64) bool {
	r := ranges[k]
	if o != 0 {
		r2 := ranges[k+1]
		r.lo, r.hi = min(r.lo, r2.lo), max(r.hi, r2.hi)
	}
	var m float64
	switch {
	case r.lo > 0:
		m = r.lo
	case r.hi < 0:
		m = -r.hi
	default:
		return false
	}
	if !(m > nearTiny && r.hi < nearHuge && r.lo > -nearHuge) {
		return false
	}
	bound := rel * m
	if !(bound > nearTiny) {
		return false
	}
	d := max(math.Abs(x-r.lo), math.Abs(x-r.hi))
	return d*(1+nearMargin) <= bound*(1-nearMargin)
}

// scalarDiverged fires, on a loss (lossLike), when it ends far above its minimum: the median
// of its last five finite values is above the minimum by more than
// th.DivergeFactor of the larger of what it fell from its first value to
// its minimum and the minimum's magnitude. A validation loss that creeps
// up by a tenth as a model overfits does not fire; one that climbs back
// up half the way it came down, or doubles, does.
func scalarDiverged(s *scalarSeries, th Thresholds) *result.Anomaly {
	pts, vals, idx := s.pts, s.vals, s.idx
	if !lossLike(s.tag) || len(vals) < th.DivergeMinPoints {
		return nil
	}
	lo := slices.Min(vals)
	tail := slices.Clone(vals[max(0, len(vals)-5):])
	end, _ := medianMAD(tail, make([]float64, len(tail)))
	fell := vals[0] - lo
	if end-lo <= th.DivergeFactor*max(fell, math.Abs(lo)) || end-lo == 0 {
		return nil
	}
	m := slices.Index(vals, lo)
	p := pts[idx[len(idx)-1]]
	return &result.Anomaly{HasStep: true, Step: p.Step, Value: end, Count: 1,
		Detail: fmt.Sprintf("ends at %.6g, far above its minimum %.6g (step %d), having fallen %.6g from its first value", end, lo, pts[idx[m]].Step, fell)}
}

// scalarPlateau fires when a loss (lossLike) never moves: over at least th.MinPoints
// finite values, its range is within th.PlateauRel of its magnitude.
func scalarPlateau(s *scalarSeries, th Thresholds) *result.Anomaly {
	pts, vals, idx := s.pts, s.vals, s.idx
	if !lossLike(s.tag) || len(vals) < th.MinPoints {
		return nil
	}
	lo, hi := slices.Min(vals), slices.Max(vals)
	if hi-lo > th.PlateauRel*max(math.Abs(lo), math.Abs(hi)) {
		return nil
	}
	p := pts[idx[0]]
	return &result.Anomaly{HasStep: true, Step: p.Step, Value: p.Value, Count: len(vals),
		Detail: fmt.Sprintf("flat from step %d to %d: between %.6g and %.6g over %d points", p.Step, pts[idx[len(idx)-1]].Step, lo, hi, len(vals))}
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

// finiteValues returns the finite values of pts and their indices, which
// the rules on a series' shape share.
func finiteValues(pts []model.Point) ([]float64, []int) {
	vals, idx := make([]float64, 0, len(pts)), make([]int, 0, len(pts))
	for i, p := range pts {
		if !math.IsNaN(p.Value) && !math.IsInf(p.Value, 0) {
			vals = append(vals, p.Value)
			idx = append(idx, i)
		}
	}
	return vals, idx
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
