// Package anomaly finds what went wrong in a training run at build time:
// non-finite values, spikes, divergence, plateaus, a learning rate of zero,
// tensors that turn NaN, all-zero or constant, scales that explode or
// vanish, runs that stopped early or restarted, damaged files
// (docs/ANOMALIES.md lists the rules and their parameters).
//
// It is a pure computation over a report model: render lists its result on
// the overview, in summary.json (under "anomalies") and in summary.md, and
// a CI gate reads it from summary.json.
package anomaly

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/trainreport/trainreport/collect/model"
)

// Anomaly is one finding: a rule that fired on a series (or a run), at the
// first step where it did.
type Anomaly struct {
	// Rule names the rule, as docs/ANOMALIES.md and Rules list it:
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

// Kind is what a rule looks at.
type Kind string

// The kinds of series and things a rule looks at.
const (
	KindScalar    Kind = "scalar"
	KindHistogram Kind = "histogram"
	KindTensor    Kind = "tensor"
	KindException Kind = "exception"
	KindRun       Kind = "run"
)

// Rule describes one rule of Rules.
type Rule struct {
	Name     string
	Kind     Kind
	Severity Severity
	// Doc says when the rule fires, naming its parameters.
	Doc string
}

// Find runs every rule over rep with the thresholds th and returns what
// fired, sorted by run, kind, tag and rule. It stops early, returning what
// it found, when ctx is cancelled.
func Find(ctx context.Context, rep *model.Report, th Thresholds) []Anomaly {
	return FindDecoded(ctx, rep, th, nil)
}

// FindDecoded is Find with the statistics of the tensor and exception
// series already decoded (the analysis decodes each tensor once, for its
// pages and for these rules); a series d does not hold, or every series
// when d is nil, is decoded here with the report's decoders.
func FindDecoded(ctx context.Context, rep *model.Report, th Thresholds, d *Decoded) []Anomaly {
	out := runRules(rep, th)
	// The runs are judged in parallel, a worker per CPU: the rules on a
	// series' shape cost about 100 ns a point.
	perRun := make([][]Anomaly, len(rep.Runs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(rep.Runs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				perRun[i] = seriesRules(ctx, rep.Runs[i], th, rep.Decoders(), d)
			}
		}()
	}
	for i := range rep.Runs {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	for _, as := range perRun {
		out = append(out, as...)
	}
	for i := range out {
		a := &out[i]
		if a.Tag == "" {
			a.Message = fmt.Sprintf("run %q: %s", a.Run, a.Detail)
		} else {
			a.Message = fmt.Sprintf("%s %q of run %q: %s", a.Kind, a.Tag, a.Run, a.Detail)
		}
	}
	sortAnomalies(out)
	return out
}

// seriesRules runs the rules of each kind of series over one run.
func seriesRules(ctx context.Context, run *model.Run, th Thresholds, dec model.Decoders, d *Decoded) []Anomaly {
	var out []Anomaly
	for _, s := range run.Scalars {
		out = append(out, scalarRules(run.Name, s, th)...)
	}
	for _, h := range run.Histograms {
		out = append(out, stepRules(KindHistogram, run.Name, h.Tag, histogramSteps(h), th)...)
	}
	return append(out, tensorRules(ctx, run, th, dec, d)...)
}

func sortAnomalies(as []Anomaly) {
	slices.SortStableFunc(as, func(a, b Anomaly) int {
		if c := model.CompareRunNames(a.Run, b.Run); c != 0 {
			return c
		}
		if c := strings.Compare(string(a.Kind), string(b.Kind)); c != 0 {
			return c
		}
		if c := strings.Compare(a.Tag, b.Tag); c != 0 {
			return c
		}
		return strings.Compare(a.Rule, b.Rule)
	})
}
