package anomaly

import (
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

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

// Rules is the table of the rules: each is one entry, with its name, kind,
// severity, doc and check, in the order docs/ANOMALIES.md explains them.
// The runner of each kind (scalarRules, stepRules, runRules) runs the
// checks of that kind in this order; a new rule is an entry here and its
// check in a file of its own. The rules on the steps of a series are
// written once, in stepTable, and stand for each kind that has steps.
func Rules() []Rule {
	rules := []Rule{
		{Name: "scalar.nonfinite", Kind: result.KindScalar, Severity: result.Error, scalar: scalarNonFinite,
			Doc: "the first NaN or infinity of a scalar series"},
		{Name: "scalar.spike", Kind: result.KindScalar, Severity: result.Warning, scalar: scalarSpikes,
			Doc: "a point further than SpikeMADs scaled MADs (and SpikeMinRel of the median) from the median of both the SpikeWindow points before and after it"},
		{Name: "scalar.diverged", Kind: result.KindScalar, Severity: result.Error, scalar: scalarDiverged,
			Doc: "a loss whose last five points' median is above its minimum by more than DivergeFactor of the larger of its fall (first value minus minimum) and the minimum's magnitude, over at least DivergeMinPoints points"},
		{Name: "scalar.plateau", Kind: result.KindScalar, Severity: result.Warning, scalar: scalarPlateau,
			Doc: "a loss whose range is within PlateauRel of its magnitude over at least MinPoints points"},
		{Name: "scalar.lr_zero", Kind: result.KindScalar, Severity: result.Warning, scalar: learningRateZero,
			Doc: "a learning rate that is zero for LRZeroPoints points in a row, or at every point"},
	}
	for _, k := range []result.Kind{result.KindHistogram, result.KindTensor, result.KindException} {
		for _, r := range stepTable() {
			r.Name, r.Kind = string(k)+"."+r.Name, k
			rules = append(rules, r)
		}
	}
	return append(rules,
		Rule{Name: "run.stopped_early", Kind: result.KindRun, Severity: result.Warning, run: runStoppedEarly,
			Doc: "a run whose last scalar step is below EarlyFraction of the median of its siblings' (at least EarlySiblings runs of the same directory)"},
		Rule{Name: "run.restarted", Kind: result.KindRun, Severity: result.Warning, run: runRestarted,
			Doc: "a run with more than one attempt"},
		Rule{Name: "run.damaged_files", Kind: result.KindRun, Severity: result.Warning, run: runDamagedFiles,
			Doc: "a run with event files truncated, damaged or left as Git LFS pointers"},
	)
}

// stepTable are the rules over the steps of a histogram, tensor or
// exception series, after MindInsight's watchpoint conditions
// (docs/ANOMALIES.md): Rules names each after the kind ("tensor.nonfinite").
func stepTable() []Rule {
	return []Rule{
		{Name: "nonfinite", Severity: result.Error, steps: stepNonFinite,
			Doc: "the first step holding a NaN or an infinity (MindInsight: tensor overflow, gradient explosion)"},
		{Name: "all_zero", Severity: result.Warning, steps: stepAllZero,
			Doc: "every value is zero at the last step, in a series of at least two steps (MindInsight: all zero)"},
		{Name: "constant", Severity: result.Warning, steps: stepConstant,
			Doc: "every value equals one non-zero value at the last step, in a tensor of more than one value and a series of at least two steps (MindInsight: tensor unchanged)"},
		{Name: "exploding", Severity: result.Warning, steps: stepExploding,
			Doc: "the largest magnitude of the last step is more than ScaleFactor times that of the first (MindInsight: tensor too large, weight change above threshold)"},
		{Name: "vanishing", Severity: result.Warning, steps: stepVanishing,
			Doc: "the largest magnitude of the last step is below that of the first by more than ScaleFactor, and not zero (MindInsight: tensor too small, gradient vanishing)"},
	}
}

// Rule is one entry of Rules: what docs/ANOMALIES.md says of a rule, and
// its check, one of three signatures by its kind. A check returns nil when
// the rule does not fire, else the finding's step, value, count and
// detail: the runner fills in the rule, severity, kind, run and tag.
type Rule struct {
	Name     string
	Kind     result.Kind
	Severity result.Severity
	// Doc says when the rule fires, naming its parameters.
	Doc string

	// scalar checks one scalar series (KindScalar).
	scalar func(s *scalarSeries, th Thresholds) *result.Anomaly
	// steps checks the per-step statistics of one histogram, tensor or
	// exception series (KindHistogram, KindTensor, KindException).
	steps func(steps []stepStats, th Thresholds) *result.Anomaly
	// run checks one run among its siblings (KindRun).
	run func(run *model.Run, sib siblings, th Thresholds) *result.Anomaly
}

// table is Rules split by kind, for the runners: a series' rules are found
// once per series, and each check is one call per series, never per point.
type table struct {
	scalar []Rule
	steps  map[result.Kind][]Rule
	run    []Rule
}

func tableOf(rules []Rule) table {
	t := table{steps: map[result.Kind][]Rule{}}
	for _, r := range rules {
		switch {
		case r.scalar != nil && r.Kind == result.KindScalar:
			t.scalar = append(t.scalar, r)
		case r.run != nil && r.Kind == result.KindRun:
			t.run = append(t.run, r)
		case r.steps != nil:
			t.steps[r.Kind] = append(t.steps[r.Kind], r)
		}
	}
	return t
}

// fired completes what a check found with what the table and the runner
// know.
func (r Rule) fired(a *result.Anomaly, run, tag string) result.Anomaly {
	a.Rule, a.Severity, a.Kind, a.Run, a.Tag = r.Name, r.Severity, r.Kind, run, tag
	return *a
}
