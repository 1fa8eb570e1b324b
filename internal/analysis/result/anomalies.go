package result

// Anomaly is one finding of the anomaly rules (internal/analysis/anomaly,
// docs/ANOMALIES.md): a rule that fired on a series (or a run), at the
// first step where it did.
type Anomaly struct {
	// Rule names the rule, as docs/ANOMALIES.md lists it:
	// "scalar.nonfinite", "tensor.all_zero", "run.stopped_early", ...
	Rule     string
	Severity Severity
	// Kind is what the rule looks at: KindScalar, KindHistogram,
	// KindTensor, KindException or KindRun.
	Kind Kind
	Run  string
	// Tag is the series' tag; "" for a rule on a whole run.
	Tag string
	// HasStep is set when Step says where the rule first fired.
	HasStep bool
	Step    int64
	// Value is the value that made the rule fire (the spike, the last
	// loss, the step reached); NaN when the rule has none.
	Value float64
	// Count is how many points, steps or files the rule fired on in the
	// series or run (one Anomaly stands for all of them, reported at the
	// first).
	Count int
	// Detail says what was found, in words, without naming run and tag;
	// Message says it naming them.
	Detail, Message string
}

// Severity says how bad an anomaly is.
type Severity string

// The severities: an error means the run's results are broken (a NaN
// loss); a warning, that they are suspect (a spike, a plateau).
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Kind is what an anomaly rule looks at.
type Kind string

// The kinds of series and things a rule looks at.
const (
	KindScalar    Kind = "scalar"
	KindHistogram Kind = "histogram"
	KindTensor    Kind = "tensor"
	KindException Kind = "exception"
	KindRun       Kind = "run"
)
