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
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Options control the analysis.
type Options struct {
	// MaxPoints is the drawing budget of one scalar series on a chart;
	// every point stays in the data files. Zero means DefaultMaxPoints.
	MaxPoints int
	// MaxPagePoints bounds the points the scalars page draws in all: when
	// every series drawing MaxPoints would pass it, each draws fewer (see
	// drawBudget). Zero means DefaultMaxPagePoints; negative means no
	// bound.
	MaxPagePoints int
	// MaxDataPoints caps the points of one scalar series in the data
	// files; beyond it the series is downsampled, keeping extremes. Zero
	// means DefaultMaxDataPoints; negative means no cap.
	MaxDataPoints int
	// MaxCharts is how many scalar tags the scalars page draws, a chart
	// each: the first in tag order, whose series share MaxPagePoints.
	// Zero means DefaultMaxCharts; negative means no bound.
	MaxCharts int
}

// Build analyses rep. It stops with ctx's error when ctx is done.
func Build(ctx context.Context, rep *model.Report, opt Options) (*result.Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	an := &result.Analysis{}
	var err error
	if an.Scalars, err = scalars(ctx, rep, opt.withDefaults()); err != nil {
		return nil, err
	}
	if an.Histograms, err = histograms(ctx, rep); err != nil {
		return nil, err
	}
	return an, nil
}
