// Package anomaly finds what went wrong in a training run at build time:
// non-finite values, spikes, divergence, plateaus, a learning rate of zero,
// tensors that turn NaN, all-zero or constant, scales that explode or
// vanish, runs that stopped early or restarted, damaged files
// (docs/ANOMALIES.md lists the rules and their parameters).
//
// It is a pure computation over a report model, run once by analysis.Build:
// its findings (result.Anomaly) are listed by render on the overview, in
// summary.json (under "anomalies") and in summary.md, and read by the gates.
package anomaly

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// The anomaly package's findings are package result's types (Anomaly,
// Kind, Severity), which render reads without importing this package.

// Find runs every rule over rep with the thresholds th and returns what
// fired, sorted by run, kind, tag and rule. It stops early, returning what
// it found, when ctx is cancelled.
func Find(ctx context.Context, rep *model.Report, th Thresholds) []result.Anomaly {
	return FindDecoded(ctx, rep, th, nil)
}

// FindDecoded is Find with the statistics of the tensor and exception
// series already decoded (the analysis decodes each tensor once, for its
// pages and for these rules); a series d does not hold, or every series
// when d is nil, is decoded here with the report's decoders.
func FindDecoded(ctx context.Context, rep *model.Report, th Thresholds, d *Decoded) []result.Anomaly {
	return find(ctx, rep, th, d, Rules(), nil)
}

// RunScalars is what the rules need of a run's scalar points: what the
// rules on its series found, and the last step of its series (HasLast
// false when it has no point). A staged analysis takes it of each run
// while the run's points are at hand (ScalarsOf), so that FindStaged
// needs them no more.
type RunScalars struct {
	Findings []result.Anomaly
	LastStep int64
	HasLast  bool
}

// ScalarsOf runs the rules on scalar series over the series of run, with
// the thresholds th.
func ScalarsOf(run *model.Run, th Thresholds) RunScalars {
	wk := NewWalker(run, th)
	for _, s := range run.Scalars {
		wk.Judge(wk.Walk(s, 0))
	}
	return wk.Result()
}

// FindStaged is FindDecoded with what the rules need of each run's
// scalar points taken beforehand: scalars(run) is ScalarsOf(run, th) of
// the run with its points, its scalar series' points may be gone since.
// It finds what FindDecoded finds, in the same order.
func FindStaged(ctx context.Context, rep *model.Report, th Thresholds, d *Decoded, scalars func(*model.Run) RunScalars) []result.Anomaly {
	return find(ctx, rep, th, d, Rules(), scalars)
}

// find runs the rules of a table over rep: FindDecoded's with Rules, a
// test's with its own; with pre, the scalars' findings and last steps
// of each run are pre's (FindStaged).
func find(ctx context.Context, rep *model.Report, th Thresholds, d *Decoded, rules []Rule, pre func(*model.Run) RunScalars) []result.Anomaly {
	tab := tableOf(rules)
	// The runs are judged in parallel, a worker per CPU: the rules on a
	// series' shape cost about 100 ns a point. The pass that finds a
	// series' finite values finds its last step too, which the run rules
	// need: they run after, and read every point no second time (a pass
	// of its own over 8 M points, on one core, cost 40 ms).
	perRun := make([][]result.Anomaly, len(rep.Runs))
	reached := make([]reach, len(rep.Runs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(rep.Runs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sc scratch
			for i := range next {
				perRun[i], reached[i] = seriesRules(ctx, rep.Runs[i], tab, th, rep.Decoders(), d, &sc, pre)
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
	out := runRulesReached(rep, tab.run, th, reached)
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

// seriesRules runs the rules of each kind of series over one run, and
// returns with what fired the run's last scalar step (lastScalarStep);
// with pre, the scalars' findings and last step are pre's (FindStaged).
func seriesRules(ctx context.Context, run *model.Run, tab table, th Thresholds, dec model.Decoders, d *Decoded, sc *scratch, pre func(*model.Run) RunScalars) ([]result.Anomaly, reach) {
	var out []result.Anomaly
	r := reach{known: true}
	if pre != nil {
		rs := pre(run)
		out = append(out, rs.Findings...)
		r.last, r.ok = rs.LastStep, rs.HasLast
	} else {
		out, r.last, r.ok = scalarsRules(tab, run, th, sc)
	}
	for _, h := range run.Histograms {
		out = append(out, stepRules(tab.steps[result.KindHistogram], run.Name, h.Tag, histogramSteps(h), th)...)
	}
	return append(out, tensorRules(ctx, run, tab, th, dec, d)...), r
}

// scalarsRules runs the rules on scalar series over run's, and returns
// what fired and the run's last scalar step (ok false without a point),
// found in the same pass.
func scalarsRules(tab table, run *model.Run, th Thresholds, sc *scratch) (out []result.Anomaly, last int64, ok bool) {
	for _, s := range run.Scalars {
		as, l := scalarRules(tab.scalar, run.Name, s, th, sc)
		out = append(out, as...)
		if len(s.Points) > 0 && (!ok || l > last) {
			last, ok = l, true
		}
	}
	return out, last, ok
}

func sortAnomalies(as []result.Anomaly) {
	slices.SortStableFunc(as, func(a, b result.Anomaly) int {
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
