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
type Options struct{}

// Build analyses rep. It stops with ctx's error when ctx is done.
func Build(ctx context.Context, rep *model.Report, opt Options) (*result.Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	an := &result.Analysis{}
	// Each tensor is decoded once, for both pages and the anomaly rules
	// on tensors: decoded is what anomaly.FindDecoded takes.
	var decoded *anomaly.Decoded
	var err error
	if an.Tensors, an.Exceptions, decoded, err = tensorsAndExceptions(ctx, rep); err != nil {
		return nil, err
	}
	_ = decoded // for anomaly.FindDecoded, once Build finds the anomalies
	return an, nil
}
