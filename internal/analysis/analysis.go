// Package analysis is the stage between collection and rendering: it
// derives from a report model everything the outputs show that the logs
// do not hold (anomalies, gates' inputs, sweep bands, graph layouts,
// embedding projections, the views that are drawn), once, in parallel
// where it can and cancellable. Its algorithms live in its sub-packages;
// its results are package result's types, which render reads.
package analysis

import (
	"context"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/anomaly"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/gate"
)

// Options control the analysis.
type Options struct {
	// AnomalyThresholds are the parameters of the anomaly rules
	// (docs/ANOMALIES.md); the zero value is anomaly.DefaultThresholds.
	AnomalyThresholds anomaly.Thresholds
	// Baseline is an earlier report to compare with (--baseline), nil
	// for none.
	Baseline *Baseline
	// Gates are the --fail-on conditions, evaluated over the report's
	// summary (SummaryOf) and the baseline's.
	Gates []*gate.Gate
}

// Build analyses rep. It stops with ctx's error when ctx is done.
func Build(ctx context.Context, rep *model.Report, opt Options) (*result.Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	an := &result.Analysis{Undrawn: Undrawn(rep)}
	var err error
	if an.Anomalies, err = anomalies(ctx, rep, opt); err != nil {
		return nil, err
	}
	// The comparison and the gates read the anomalies: they come last.
	an.Baseline = compare(rep, opt.Baseline)
	an.Gates = evalGates(rep, an, opt.Gates, opt.Baseline)
	return an, nil
}
