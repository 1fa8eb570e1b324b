package anomaly

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
)

// scalarRules runs the rules on scalar series over one series.
func scalarRules(run string, s *model.Scalar, th Thresholds) []Anomaly {
	var out []Anomaly
	add := func(a *Anomaly) {
		if a != nil {
			a.Run, a.Tag, a.Kind = run, s.Tag, KindScalar
			out = append(out, *a)
		}
	}
	add(scalarNonFinite(s.Points))
	add(scalarSpikes(s.Points, th))
	if lossLike(s.Tag) {
		add(scalarDiverged(s.Points, th))
		add(scalarPlateau(s.Points, th))
	}
	if learningRateLike(s.Tag) {
		add(learningRateZero(s.Points, th))
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
func scalarNonFinite(pts []model.Point) *Anomaly {
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
	return &Anomaly{Rule: "scalar.nonfinite", Severity: Error, HasStep: true, Step: p.Step, Value: p.Value, Count: n,
		Detail: fmt.Sprintf("first non-finite value (%v) at step %d; %d of %d points are not finite", p.Value, p.Step, n, len(pts))}
}

// scalarSpikes fires at the points that stand out from both the points
// before and the points after them: further from the median of each
// window of th.SpikeWindow points than th.SpikeMADs scaled MADs and
// th.SpikeMinRel of the median's magnitude. Comparing with both sides
// tells a spike, which comes back, from a step of a schedule, which stays.
func scalarSpikes(pts []model.Point, th Thresholds) *Anomaly {
	vals, idx := finiteValues(pts)
	w := th.SpikeWindow
	if w < 3 || len(vals) < 2*w+1 {
		return nil
	}
	var first, n int
	buf := make([]float64, w)
	outside := func(x float64, win []float64) bool {
		med, mad := medianMAD(win, buf)
		d := math.Abs(x - med)
		return d > th.SpikeMADs*1.4826*mad && d > th.SpikeMinRel*math.Abs(med) && d > 0
	}
	for i := w; i+w < len(vals); i++ {
		if outside(vals[i], vals[i-w:i]) && outside(vals[i], vals[i+1:i+1+w]) {
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
	return &Anomaly{Rule: "scalar.spike", Severity: Warning, HasStep: true, Step: p.Step, Value: p.Value, Count: n,
		Detail: fmt.Sprintf("%s at step %d (value %.6g)", plural(n, "spike", "spikes"), p.Step, p.Value)}
}

// scalarDiverged fires when a loss ends far above its minimum: the median
// of its last five finite values is above the minimum by more than
// th.DivergeFactor of the larger of what it fell from its first value to
// its minimum and the minimum's magnitude. A validation loss that creeps
// up by a tenth as a model overfits does not fire; one that climbs back
// up half the way it came down, or doubles, does.
func scalarDiverged(pts []model.Point, th Thresholds) *Anomaly {
	vals, idx := finiteValues(pts)
	if len(vals) < th.DivergeMinPoints {
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
	return &Anomaly{Rule: "scalar.diverged", Severity: Error, HasStep: true, Step: p.Step, Value: end, Count: 1,
		Detail: fmt.Sprintf("ends at %.6g, far above its minimum %.6g (step %d), having fallen %.6g from its first value", end, lo, pts[idx[m]].Step, fell)}
}

// scalarPlateau fires when a loss never moves: over at least th.MinPoints
// finite values, its range is within th.PlateauRel of its magnitude.
func scalarPlateau(pts []model.Point, th Thresholds) *Anomaly {
	vals, idx := finiteValues(pts)
	if len(vals) < th.MinPoints {
		return nil
	}
	lo, hi := slices.Min(vals), slices.Max(vals)
	if hi-lo > th.PlateauRel*max(math.Abs(lo), math.Abs(hi)) {
		return nil
	}
	p := pts[idx[0]]
	return &Anomaly{Rule: "scalar.plateau", Severity: Warning, HasStep: true, Step: p.Step, Value: p.Value, Count: len(vals),
		Detail: fmt.Sprintf("flat from step %d to %d: between %.6g and %.6g over %d points", p.Step, pts[idx[len(idx)-1]].Step, lo, hi, len(vals))}
}

// learningRateZero fires when a learning rate is zero for at least
// th.LRZeroPoints points in a row, or at every point: a warm-up from zero
// or a schedule that ends at zero touches it once.
func learningRateZero(pts []model.Point, th Thresholds) *Anomaly {
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
	return &Anomaly{Rule: "scalar.lr_zero", Severity: Warning, HasStep: true, Step: p.Step, Value: 0, Count: best,
		Detail: fmt.Sprintf("learning rate is zero for %d points in a row from step %d", best, p.Step)}
}

// finiteValues returns the finite values of pts and their indices.
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
