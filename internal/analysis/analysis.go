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
)

// Options control the analysis.
type Options struct {
	// AnomalyThresholds are the parameters of the anomaly rules
	// (docs/ANOMALIES.md); the zero value is anomaly.DefaultThresholds.
	AnomalyThresholds anomaly.Thresholds
}

// Build analyses rep. It stops with ctx's error when ctx is done.
func Build(ctx context.Context, rep *model.Report, opt Options) (*result.Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	an := &result.Analysis{}
	var err error
	if an.Anomalies, err = anomalies(ctx, rep, opt); err != nil {
		return nil, err
	}
	return an, nil
}
