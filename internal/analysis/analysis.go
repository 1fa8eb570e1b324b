// Package analysis is the stage between collection and rendering: it
// derives from a report model everything the outputs show that the logs
// do not hold (anomalies, gates' inputs, sweep bands, graph layouts,
// embedding projections, the views that are drawn), once, in parallel
// where it can and cancellable. Its algorithms live in its sub-packages;
// its results are package result's types, which render reads.
package analysis

import (
	"context"
	"time"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Options control the analysis.
type Options struct {
	// GraphViewBoxes and GraphViewEdges bound the boxes and edges of one
	// view of a graph (a scope's children) that is laid out; a larger
	// view is listed, not drawn. Zero means DefaultGraphViewBoxes and
	// DefaultGraphViewEdges.
	GraphViewBoxes, GraphViewEdges int
	// GraphLayoutTime bounds the layout of one graph's views; those not
	// laid out by then are listed, not drawn. Zero means
	// DefaultGraphLayoutTime.
	GraphLayoutTime time.Duration
}

// Build analyses rep. It stops with ctx's error when ctx is done.
func Build(ctx context.Context, rep *model.Report, opt Options) (*result.Analysis, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	an := &result.Analysis{}
	var err error
	if an.Graphs, err = graphs(ctx, rep, opt); err != nil {
		return nil, err
	}
	return an, nil
}
