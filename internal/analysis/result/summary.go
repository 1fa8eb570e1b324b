package result

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
