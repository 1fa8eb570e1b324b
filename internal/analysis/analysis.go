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
	"github.com/trainreport/trainreport/internal/analysis/anomaly"
	"github.com/trainreport/trainreport/internal/analysis/reduce/project"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/gate"
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
	// Embeddings chooses the embeddings' methods and caps.
	Embeddings project.Options
	// EmbeddingTotalTSNE and EmbeddingTotalUMAP bound the points t-SNE
	// and UMAP lay out over all the report's embeddings, in report order;
	// past them, an embedding gets the other methods and a note. Zero
	// means the defaults.
	EmbeddingTotalTSNE, EmbeddingTotalUMAP int
	// EmbeddingBudget bounds the estimated work of laying out all the
	// report's embeddings (project.Estimate's work units), spent in
	// report order: every embedding's PCA first, then its neighbour
	// lists, t-SNE and UMAP while they fit. Zero means
	// DefaultEmbeddingBudget, negative no bound.
	EmbeddingBudget int64
	// EmbeddingProgress, when set, is told of the embeddings' layouts
	// before each embedding and at the end.
	EmbeddingProgress func(EmbeddingProgress)
	// SummaryOnly derives only what summary.json holds, for a report
	// that writes nothing else (a --baseline log directory's): the
	// embeddings are grouped without being laid out, the graphs counted
	// without being laid out.
	SummaryOnly bool
	// GraphViewBoxes and GraphViewEdges bound the boxes and edges of one
	// view of a graph (a scope's children) that is laid out; a larger
	// view is listed, not drawn. Zero means DefaultGraphViewBoxes and
	// DefaultGraphViewEdges.
	GraphViewBoxes, GraphViewEdges int
	// GraphLayoutTime bounds the layout of one graph's views; those not
	// laid out by then are listed, not drawn. Zero means
	// DefaultGraphLayoutTime.
	GraphLayoutTime time.Duration
	// AnomalyThresholds are the parameters of the anomaly rules
	// (docs/ANOMALIES.md); the zero value is anomaly.DefaultThresholds.
	AnomalyThresholds anomaly.Thresholds
	// Baseline is an earlier report to compare with (--baseline), nil
	// for none.
	Baseline *Baseline
	// Gates are the --fail-on conditions, evaluated over the report's
	// summary (SummaryOf) and the baseline's.
	Gates []*gate.Gate
	// MediaSteps is the budget of kept steps of one (run, tag) series of
	// images or audio clips: every step up to it, beyond it that many
	// spread evenly, the last always kept (result.Media.Keep). Zero means
	// DefaultMediaSteps.
	MediaSteps int
}

// Build analyses rep: Plan, Run of every run (on all cores) and Finish
// (Staged), the points kept. It stops with ctx's error when ctx is done.
func Build(ctx context.Context, rep *model.Report, opt Options) (*result.Analysis, error) {
	st, err := Plan(ctx, rep, nil, opt)
	if err != nil {
		return nil, err
	}
	if err := parallelEach(ctx, len(rep.Runs), func(i int) { st.Run(rep.Runs[i]) }); err != nil {
		return nil, err
	}
	return st.Finish(ctx)
}
