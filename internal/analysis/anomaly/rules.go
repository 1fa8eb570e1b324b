package anomaly

import "github.com/trainreport/trainreport/internal/analysis/result"

// Thresholds are the parameters of every rule, in one table
// (DefaultThresholds); docs/ANOMALIES.md explains each.
type Thresholds struct {
	// SpikeWindow is the number of points before a scalar point whose
	// median and median absolute deviation (MAD) it is compared with.
	SpikeWindow int
	// SpikeMADs is how many MADs (scaled by 1.4826, a standard deviation
	// for normal noise) a point must be away from that median to be a
	// spike.
	SpikeMADs float64
	// SpikeMinRel is how far, relative to the median's magnitude, a spike
	// must be at least: a flat series has a MAD of zero, and round-off
	// must not count.
	SpikeMinRel float64
	// DivergeFactor: a loss diverged when it ends (the median of its last
	// five values) above its minimum by more than DivergeFactor times the
	// larger of its fall (first value minus minimum) and the minimum's
	// magnitude.
	DivergeFactor float64
	// DivergeMinPoints is the fewest finite points a loss needs for the
	// divergence rule.
	DivergeMinPoints int
	// MinPoints is the fewest finite points a loss needs for the plateau
	// rule.
	MinPoints int
	// PlateauRel: a loss plateaued when its range (max - min) is within
	// PlateauRel of its magnitude: it never moved.
	PlateauRel float64
	// LRZeroPoints is how many points in a row a learning rate must be
	// zero (or every point, in a shorter series) to be flagged.
	LRZeroPoints int
	// ScaleFactor: a tensor's scale (the largest magnitude of its finite
	// values) exploded when it grew by more than ScaleFactor from the first
	// step to the last, vanished when it shrank by more.
	ScaleFactor float64
	// EarlyFraction: a run stopped early when its last step is below
	// EarlyFraction of the median last step of its siblings (the runs of
	// its log directory), with at least EarlySiblings siblings.
	EarlyFraction float64
	EarlySiblings int
}

// DefaultThresholds are the thresholds the report uses.
var DefaultThresholds = Thresholds{
	SpikeWindow:      20,
	SpikeMADs:        10,
	SpikeMinRel:      0.5,
	DivergeFactor:    0.5,
	DivergeMinPoints: 5,
	MinPoints:        20,
	PlateauRel:       0.001,
	LRZeroPoints:     3,
	ScaleFactor:      1e3,
	EarlyFraction:    0.5,
	EarlySiblings:    2,
}

// Rules lists every rule, in the order docs/ANOMALIES.md explains them.
func Rules() []Rule {
	rules := []Rule{
		{"scalar.nonfinite", result.KindScalar, result.Error, "the first NaN or infinity of a scalar series"},
		{"scalar.spike", result.KindScalar, result.Warning, "a point further than SpikeMADs scaled MADs (and SpikeMinRel of the median) from the median of both the SpikeWindow points before and after it"},
		{"scalar.diverged", result.KindScalar, result.Error, "a loss whose last five points' median is above its minimum by more than DivergeFactor of the larger of its fall (first value minus minimum) and the minimum's magnitude, over at least DivergeMinPoints points"},
		{"scalar.plateau", result.KindScalar, result.Warning, "a loss whose range is within PlateauRel of its magnitude over at least MinPoints points"},
		{"scalar.lr_zero", result.KindScalar, result.Warning, "a learning rate that is zero for LRZeroPoints points in a row, or at every point"},
	}
	for _, k := range []result.Kind{result.KindHistogram, result.KindTensor, result.KindException} {
		for _, r := range tensorKindRules {
			rules = append(rules, Rule{string(k) + "." + r.name, k, r.severity, r.doc})
		}
	}
	return append(rules,
		Rule{"run.stopped_early", result.KindRun, result.Warning, "a run whose last scalar step is below EarlyFraction of the median of its siblings' (at least EarlySiblings runs of the same directory)"},
		Rule{"run.restarted", result.KindRun, result.Warning, "a run with more than one attempt"},
		Rule{"run.damaged_files", result.KindRun, result.Warning, "a run with event files truncated, damaged or left as Git LFS pointers"},
	)
}
