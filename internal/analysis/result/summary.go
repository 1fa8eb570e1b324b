package result

import "github.com/trainreport/trainreport/collect/model"

// Gate is the verdict of one --fail-on condition (internal/gate) over
// the report's summary (see analysis.SummaryOf).
type Gate struct {
	Expr string
	// Failed is set when the condition held (for a run, or for the
	// report), or could not be evaluated at all (Err says why).
	Failed bool
	// Held lists where the condition held, at most gate.MaxHeld: the
	// runs, or one entry with no run for a condition on the whole report;
	// Runs counts them all.
	Held []GateHeld
	Runs int
	Err  string
	// Text says what failed, or that the condition passes, in a line:
	// `loss.last > 0.5: holds for run "a" (loss.last = 0.73)`.
	Text string
}

// GateHeld is where a condition held and the values it read there.
type GateHeld struct {
	Run    string // "" for the whole report
	Values []string
}

// Baseline is the comparison of the report with an earlier one
// (--baseline).
type Baseline struct {
	// Source names the baseline: the path given.
	Source string
	// Threshold is the relative change, in the worse direction, past
	// which a change is a regression.
	Threshold float64
	// Deltas are the series found in both, regressions first, then the
	// metrics whose better direction is known, each part in tag and run
	// order.
	Deltas []Delta
	// Series are the baseline's scalar series of the tags this report
	// draws, by tag, for its charts (drawn dashed): set when the baseline
	// is a log directory. At most MaxBaselineRuns per tag, each at the
	// report's per-series drawing budget.
	Series map[string][]BaselineSeries
	// Refs are the baseline summary's last and best values of the tags
	// this report draws, by tag, drawn as reference lines: set when the
	// baseline is a summary.json alone. At most MaxBaselineRuns per tag.
	Refs map[string][]BaselineRef
}

// MaxBaselineRuns bounds the baseline's runs drawn on one chart: a
// baseline of a sweep would otherwise double every chart's points.
const MaxBaselineRuns = 16

// BaselineSeries is one baseline run's series of a tag, its drawn points.
type BaselineSeries struct {
	Run     string
	Float32 bool
	// Points are the drawn points in step order; Total counts the
	// series' points.
	Points []model.Point
	Total  int
}

// BaselineRef is one baseline run's last and best values of a tag, as
// its summary.json says.
type BaselineRef struct {
	Run     string
	Float32 bool
	Last    float64
	// Best is set when HasBest: the tag's better direction is known and
	// the baseline had a finite value.
	Best    float64
	HasBest bool
}

// Delta is one (run, tag) series against the baseline's of the same run
// and tag.
type Delta struct {
	Run, Tag string
	// Better is which way the tag's name says is better.
	Better Direction
	// Float32: the series is of float32 values; the baseline's were
	// rounded to float32 too, so that an unchanged value compares equal.
	Float32 bool
	// Last and Step are this report's last value and step; BaseLast and
	// BaseStep the baseline's.
	Last, BaseLast float64
	Step, BaseStep int64
	// Best and BaseBest are the best finite values by Better, set when
	// HasBest (both reports have one).
	Best, BaseBest float64
	HasBest        bool
	// Regressed is set when Why says why the series is worse.
	Regressed bool
	Why       []string
}

// Direction is which way a metric is better, as its name says
// (BetterOf).
type Direction int

// The directions.
const (
	UnknownBetter Direction = iota
	LowerBetter
	HigherBetter
)

// String is the direction as summary.json writes it: "lower", "higher"
// or "".
func (d Direction) String() string {
	switch d {
	case LowerBetter:
		return "lower"
	case HigherBetter:
		return "higher"
	}
	return ""
}
