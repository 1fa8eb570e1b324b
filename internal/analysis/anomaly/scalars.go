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
func scalarSpikes(s *scalarSeries, th Thresholds) *result.Anomaly {
	pts, vals, idx := s.pts, s.vals, s.idx
	w := th.SpikeWindow
	if w < 3 || len(vals) < 2*w+1 {
		return nil
	}
	// Both windows are kept sorted as they slide, so that a point costs
	// O(w) rather than four sorts.
	before := sortedWindow(vals[:w])
	after := sortedWindow(vals[w+1 : 2*w+1])
	outside := func(x float64, win []float64) bool {
		med := win[len(win)/2]
		if len(win)%2 == 0 {
			med = (win[len(win)/2-1] + med) / 2
		}
		d := math.Abs(x - med)
		if d == 0 || d <= th.SpikeMinRel*math.Abs(med) { // most points: no MAD needed
			return false
		}
		_, mad := medianMADSorted(win)
		return d > th.SpikeMADs*1.4826*mad
	}
	var first, n int
	for i := w; i+w < len(vals); i++ {
		if i > w {
			before = slideWindow(before, vals[i-w-1], vals[i-1])
			after = slideWindow(after, vals[i], vals[i+w])
		}
		if outside(vals[i], before) && outside(vals[i], after) {
			if n == 0 {
				first = i
			}
			n++
		}
	}
	if n == 0 {
		return nil
	}
	p := pts[idx[first]]
	return &result.Anomaly{HasStep: true, Step: p.Step, Value: p.Value, Count: n,
		Detail: fmt.Sprintf("%s at step %d (value %.6g)", plural(n, "spike", "spikes"), p.Step, p.Value)}
}

// sortedWindow returns a sorted copy of vs.
func sortedWindow(vs []float64) []float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	return s
}

// slideWindow takes out (a value of the sorted window s) out of s and puts
// in in, keeping s sorted.
func slideWindow(s []float64, out, in float64) []float64 {
	i := search(s, out)
	copy(s[i:], s[i+1:])
	s = s[:len(s)-1]
	j := search(s, in)
	s = append(s, 0)
	copy(s[j+1:], s[j:])
	s[j] = in
	return s
}

// search returns the first index of the sorted s whose value is not below
// v: slices.BinarySearch without its care for NaN, which the windows of
// finite values never hold, at a third of its cost.
func search(s []float64, v float64) int {
	lo, hi := 0, len(s)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s[m] < v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// medianMADSorted returns the median of the sorted s and the median of the
// absolute deviations from it, found by walking out from the middle: the
// deviations below the median shrink towards it, those above grow away.
func medianMADSorted(s []float64) (float64, float64) {
	n := len(s)
	med := s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	lo, hi := n/2-1, n/2 // next candidates below and at or above the median
	if n%2 == 1 {
		hi = n / 2
	}
	var prev, cur float64
	for k := 0; k <= n/2; k++ {
		prev = cur
		switch {
		case lo < 0:
			cur, hi = s[hi]-med, hi+1
		case hi >= n:
			cur, lo = med-s[lo], lo-1
		case med-s[lo] <= s[hi]-med:
			cur, lo = med-s[lo], lo-1
		default:
			cur, hi = s[hi]-med, hi+1
		}
	}
	if n%2 == 0 {
		return med, (prev + cur) / 2
	}
	return med, cur
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
