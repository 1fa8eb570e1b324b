package main

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/outdir"
	"github.com/trainreport/trainreport/render"
)

// runPoints gives the stages of a report (analysis.Staged) its runs with
// their scalar points, one at a time in report order, so that a run's
// points need be held only while its stage runs and its data files are
// written: a direct build's runs are in memory (heldRuns), a merge's are
// read again from its parts (partRuns).
type runPoints interface {
	// Shapes are the shapes of every scalar series of the report, nil
	// when the runs Next gives hold them already.
	Shapes() *analysis.Shapes
	// Next returns the next run of the report with its scalar points,
	// nil after the last.
	Next() (*model.Run, error)
	// Close ends the runs, once Next returned nil: an error says that
	// what Next gave must not be used (a part changed while it was
	// read).
	Close() error
}

// heldRuns are runs in memory, points and all.
type heldRuns struct {
	runs []*model.Run
	i    int
}

func (h *heldRuns) Shapes() *analysis.Shapes { return nil }
func (h *heldRuns) Close() error             { return nil }

func (h *heldRuns) Next() (*model.Run, error) {
	if h.i == len(h.runs) {
		return nil, nil
	}
	h.i++
	return h.runs[h.i-1], nil
}

// stagedAnalysis analyses rep in stages: the report-wide decisions from
// the shapes of its series, then each run as points gives it, its data
// files written into site and its points dropped but for those the pages
// draw inline (render.ScalarReads), then the rest of the analysis.
func stagedAnalysis(ctx context.Context, rep *model.Report, points runPoints, aopt analysis.Options, site *outdir.Site, ropt render.Options, progress *embeddingProgress) (*result.Analysis, error) {
	st, err := analysis.Plan(ctx, rep, points.Shapes(), aopt)
	if err != nil {
		return nil, err
	}
	// Each series keeps, past its data files, what the outputs read of
	// it: the drawn points of those a page draws inline only.
	st.SetReads(render.ScalarReads(rep, st.Scalars(), st.Final, ropt))
	rd := render.NewRunData(site, ropt)
	err = stageRuns(ctx, points.Next, func(run *model.Run) error {
		return stageRun(ctx, st, rd, run)
	}, func(run *model.Run) error {
		// In report order: the run's rows of data/scalars.csv and its
		// place in the packed bundles.
		if err := rd.Place(run, st.Views(run)); err != nil {
			return err
		}
		st.Compact(run)
		return nil
	})
	if cerr := rd.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("writing the runs' data files: %w", cerr)
	}
	if cerr := points.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	stop := progress.watch()
	defer stop()
	return st.Finish(ctx)
}

// stageRun is the stage of run: its analysis (st.Run) and its data
// files (rd.Write), a series at a time when the analysis can give the
// series so (analysis.Staged.Begin): each series is then formatted right
// after its walk, its values read from the walk's copy, in cache, and
// judged by the rules after its data (analysis.RunStage). A series of
// 100,000 points is 2.4 MB of points, past a core's 2 MiB L2: by the end
// of a whole run's analysis its points were in no core's cache, and
// each of the data columns' passes read them again from the shared one.
func stageRun(ctx context.Context, st *analysis.Staged, rd *render.RunData, run *model.Run) error {
	rs, ok := st.Begin(run)
	if !ok {
		st.Run(run)
		return rd.Write(ctx, run, st.Views(run))
	}
	err := rd.WriteEach(ctx, run, st.Views(run), rs.Through)
	rs.End() // the series WriteEach did not reach, if it stopped
	return err
}

// stageRuns hands each run next gives (nil: no more) to work, on all
// cores, then to after, one at a time in the order next gave them; at
// most a window of runs is between next and the end of after at once,
// which bounds the points held. It returns the first error of next, work
// or after, or ctx's, once every work started has ended. A panic of work
// becomes an error naming the run, with its stack.
func stageRuns(ctx context.Context, next func() (*model.Run, error), work, after func(*model.Run) error) error {
	window := 2 * runtime.GOMAXPROCS(0)
	type item struct {
		run  *model.Run
		err  error      // next's
		done chan error // work's
	}
	queue := make(chan item, window)
	slots := make(chan struct{}, window)
	stop := make(chan struct{})
	go func() {
		defer close(queue)
		for {
			select {
			case slots <- struct{}{}:
			case <-stop:
				return
			}
			if err := ctx.Err(); err != nil {
				queue <- item{err: err}
				return
			}
			run, err := next()
			if err != nil || run == nil {
				if err != nil {
					queue <- item{err: err}
				}
				return
			}
			it := item{run: run, done: make(chan error, 1)}
			go func() {
				defer func() {
					if v := recover(); v != nil {
						it.done <- fmt.Errorf("internal error in the analysis of run %q: %v\n\n%s", run.Name, v, debug.Stack())
					}
				}()
				it.done <- work(run)
			}()
			queue <- it
		}
	}()
	var first error
	for it := range queue {
		err := it.err
		if it.done != nil {
			if werr := <-it.done; err == nil {
				err = werr
			}
		}
		if err == nil && first == nil {
			err = after(it.run)
		}
		if err != nil && first == nil {
			first = err
			close(stop)
		}
		<-slots
	}
	return first
}
