package analysis

import (
	"hash/maphash"
	"math"
	"slices"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// The report-wide decisions of the scalars (how many points a series
// draws, which runs are a sweep's extremes, the steps of its bands) are
// made from a small shape of each series, not from its points: a merge
// can then make them from what a first pass over its parts kept, and
// the points be read, used and dropped a run at a time in a second
// (issue 28). The direct build makes them from the same shapes, taken of
// the points it holds, so that both decide alike by construction.

// seriesShape is what the report-wide decisions need of one scalar
// series: its points' count, its superseded points' total, its final
// value and its steps in step order, compact.
type seriesShape struct {
	points, superseded int
	final              float64
	steps              *stepSeq // nil for a series with no point
}

// shapeOf returns the shape of s, its steps interned in in.
func shapeOf(s *model.Scalar, in *stepInterner) seriesShape {
	var sc stepScan
	if len(s.Points) > 0 {
		var ok bool
		if sc, ok = knownSteps(s); !ok {
			sc = scanSteps(s.Points)
		}
	}
	return shapeScanned(s, in, sc)
}

// knownSteps returns what scanSteps would find of the steps of s (not
// empty) as its collector recorded it while appending them
// (model.Scalar.Steps), without reading them, and whether it did: a
// series read back from a part, or from a reader that records nothing,
// is scanned.
func knownSteps(s *model.Scalar) (stepScan, bool) {
	k := s.Steps()
	switch {
	case k.N == 0:
		return stepScan{}, false
	case k.Arith:
		return stepScan{arith: &stepSeq{first: s.Points[0].Step, stride: k.Stride, n: k.N}, sorted: true}, true
	}
	return stepScan{sorted: k.Sorted}, true
}

// shapeScanned is shapeOf of s, whose steps sc is the scan of (the zero
// stepScan for a series with no point): the scans, a pass over every
// point, are made on all cores (Shapes.addAll), the interning in order.
func shapeScanned(s *model.Scalar, in *stepInterner, sc stepScan) seriesShape {
	sh := seriesShape{points: len(s.Points), final: finalValue(s)}
	for _, sp := range s.Superseded {
		sh.superseded += len(sp.Points)
	}
	if len(s.Points) > 0 {
		sh.steps = in.intern(s.Points, sc)
	}
	return sh
}

// stepScan is what one pass over a series' steps finds: its steps as an
// arithmetic sequence, when they are one (nil else), and whether they
// are in step order.
type stepScan struct {
	arith  *stepSeq
	sorted bool
}

// scanSteps scans the steps of pts (not empty) in one pass: a series'
// steps are most often arithmetic, which implies them sorted, so that
// the order is tested apart only past where they stop being so.
func scanSteps(pts []model.Point) stepScan {
	n := len(pts)
	if n == 1 {
		return stepScan{arith: &stepSeq{first: pts[0].Step, n: 1}, sorted: true}
	}
	stride := pts[1].Step - pts[0].Step
	i := 1
	// A stride that overflows is no stride: each step must also follow
	// the one before it.
	if stride >= 0 && pts[1].Step >= pts[0].Step {
		for i = 2; i < n; i++ {
			if pts[i].Step-pts[i-1].Step != stride || pts[i].Step < pts[i-1].Step {
				break
			}
		}
		if i == n {
			return stepScan{arith: &stepSeq{first: pts[0].Step, stride: stride, n: n}, sorted: true}
		}
	}
	// pts[:i] are in order: the rest decides.
	return stepScan{sorted: stepsSorted(pts[i-1:])}
}

// stepSeq is the steps of a series in step order (sorted, as the band
// walks them): an arithmetic sequence as its first step, stride and
// count, any other as its steps. A sweep's series share one (stepInterner).
type stepSeq struct {
	first, stride int64
	n             int
	steps         []int64 // nil for an arithmetic sequence
}

// progression returns the steps of the series s is the shape of as a
// progression in the order of its points, when they are one: an
// arithmetic stepSeq (steps nil) is found only by scanSteps, which finds
// one in the points' own order, each step at or past the one before (so
// Stride >= 0 and no term wraps); any other is sorted steps, not the
// points' order, and says nothing (the zero StepProgression).
func (s *stepSeq) progression() result.StepProgression {
	if s == nil || s.steps != nil {
		return result.StepProgression{}
	}
	return result.StepProgression{First: s.first, Stride: s.stride, Count: s.n}
}

// at is the i-th step.
func (s *stepSeq) at(i int) int64 {
	if s.steps != nil {
		return s.steps[i]
	}
	return s.first + int64(i)*s.stride
}

// equal reports whether s and t are the same steps.
func (s *stepSeq) equal(t *stepSeq) bool {
	if s == t {
		return true
	}
	if s.n != t.n || (s.steps == nil) != (t.steps == nil) {
		return false
	}
	if s.steps == nil {
		return s.first == t.first && s.stride == t.stride
	}
	return slices.Equal(s.steps, t.steps)
}

// prefixOf reports whether s's steps begin t's.
func (s *stepSeq) prefixOf(t *stepSeq) bool {
	if s.n > t.n {
		return false
	}
	if s.steps == nil && t.steps == nil && (s.n < 2 || s.stride == t.stride) {
		return s.n == 0 || s.first == t.first
	}
	for i := range s.n {
		if s.at(i) != t.at(i) {
			return false
		}
	}
	return true
}

// distinct reports whether no step is there twice.
func (s *stepSeq) distinct() bool {
	if s.steps == nil {
		return s.n < 2 || s.stride != 0
	}
	for i := 1; i < len(s.steps); i++ {
		if s.steps[i] == s.steps[i-1] {
			return false
		}
	}
	return true
}

// stepInterner keeps one stepSeq per distinct sequence of steps that is
// not arithmetic, so that a sweep's thousands of series on one grid of
// irregular steps hold it once.
type stepInterner struct {
	seed maphash.Seed
	seqs map[uint64][]*stepSeq
}

// of returns the steps of pts (not empty) in step order, compact.
func (in *stepInterner) of(pts []model.Point) *stepSeq { return in.intern(pts, scanSteps(pts)) }

// intern is of, sc being the scan of pts' steps (scanSteps).
func (in *stepInterner) intern(pts []model.Point, sc stepScan) *stepSeq {
	if sc.arith != nil {
		return sc.arith
	}
	sorted := sc.sorted
	steps := make([]int64, len(pts))
	for i, p := range pts {
		steps[i] = p.Step
	}
	if !sorted {
		slices.Sort(steps)
	}
	if in.seqs == nil {
		in.seed, in.seqs = maphash.MakeSeed(), map[uint64][]*stepSeq{}
	}
	var h maphash.Hash
	h.SetSeed(in.seed)
	var b [8]byte
	for _, st := range steps {
		u := uint64(st)
		for k := range b {
			b[k] = byte(u >> (8 * k))
		}
		h.Write(b[:])
	}
	key := h.Sum64()
	for _, s := range in.seqs[key] {
		if slices.Equal(s.steps, steps) {
			return s
		}
	}
	s := &stepSeq{first: steps[0], n: len(steps), steps: steps}
	if s.n > 1 {
		s.stride = steps[1] - steps[0]
	}
	in.seqs[key] = append(in.seqs[key], s)
	return s
}

// bandGrid is the steps a band summarises: byIndex when every series has
// the same steps, each once, and then step k is index at[k] of each.
type bandGrid struct {
	steps   []int64
	at      []int
	byIndex bool
}

// planBand returns the grid of a band over series of the steps seqs
// (those with points, in order): every step any of them has, maxSteps of
// them evenly spread (first and last included) when they are more
// (maxSteps <= 0: no bound).
func planBand(seqs []*stepSeq, maxSteps int) bandGrid {
	var g bandGrid
	if len(seqs) == 0 {
		return g
	}
	first := seqs[0]
	same := true
	for _, s := range seqs[1:] {
		if !s.equal(first) {
			same = false
			break
		}
	}
	var steps []int64
	switch {
	case same && first.distinct():
		// Spread by index without listing every step first (for a long
		// sweep, a slice the size of a series per tag).
		m := first.n
		if maxSteps > 0 && first.n > maxSteps {
			m = max(maxSteps, 2)
		}
		g.steps, g.at, g.byIndex = make([]int64, 0, m), make([]int, 0, m), true
		for i := range m {
			j := i
			if m != first.n {
				j = i * (first.n - 1) / (m - 1)
			}
			g.steps, g.at = append(g.steps, first.at(j)), append(g.at, j)
		}
		return g
	case same:
		for i := range first.n {
			steps = append(steps, first.at(i))
		}
	default:
		// A sweep whose runs stopped at different steps of one grid: a
		// series whose steps begin the longest series seen so far adds
		// none, so that the sort is of one grid, not of every point.
		var ref *stepSeq
		for _, s := range seqs {
			switch {
			case ref != nil && s.prefixOf(ref):
				continue
			case ref == nil || ref.prefixOf(s):
				ref = s
			}
			for i := range s.n {
				steps = append(steps, s.at(i))
			}
		}
		slices.Sort(steps)
	}
	steps = slices.Compact(steps)
	if maxSteps > 0 && len(steps) > maxSteps {
		steps = spread(steps, maxSteps)
	}
	g.steps = steps
	return g
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
