package render

import (
	"bufio"
	"context"
	"io"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/outdir"
)

// RunData writes the data files of a report's runs a run at a time,
// before the rest of the report: a driver that holds a run's points only
// while its own files are written (a merge reading its parts run by run,
// issue 28) calls Write for each run, then Report.WriteSiteTo, with
// Options.RunDataWritten, writes everything else into the same site. The
// files are those WriteSite writes of the run: its scalar bundle, with
// Options.DataJSON its JSON, with Options.DataTianshu its files of data
// layout 1, with Options.DataCSV its rows of data/scalars.csv.
type RunData struct {
	site *outdir.Site
	r    *Report // the writers' options and streams, no model
	csv  chan csvRun
	done chan error // the CSV file's writing, when it ended
	buf  chan []byte
}

// csvRun is a run whose rows of data/scalars.csv are to be written,
// acknowledged on ack once they are.
type csvRun struct {
	run    *model.Run
	series []*seriesView
	ack    chan struct{}
}

// NewRunData starts writing runs' data files into site, by opt (the
// report's options).
func NewRunData(site *outdir.Site, opt Options) *RunData {
	d := &RunData{site: site, r: &Report{opt: opt}, buf: make(chan []byte, 8)}
	d.r.stream = site.WriteFileFunc
	if opt.DataCSV {
		d.csv, d.done = make(chan csvRun), make(chan error, 1)
		go func() {
			err := site.WriteFileFunc(scalarsCSVFile, func(w io.Writer) error {
				bw := bufio.NewWriterSize(w, 256<<10)
				bw.WriteString(scalarsCSVHeader)
				var c csvRows
				for cr := range d.csv {
					c.run(bw, cr.run, cr.series)
					cr.ack <- struct{}{}
				}
				return bw.Flush()
			})
			for cr := range d.csv { // the file failed: nothing more to write
				cr.ack <- struct{}{}
			}
			d.done <- err
		}()
	}
	return d
}

// Write writes the data files of run from the views of its scalar series
// (analysis.Staged.Views, in tag order), which must hold their points:
// its bundle and the files beside it. Runs may be written from several
// goroutines at once, in any order; their rows of data/scalars.csv are
// Rows'.
func (d *RunData) Write(ctx context.Context, run *model.Run, views []*result.ScalarView) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(views) == 0 {
		return nil
	}
	var buf []byte
	select {
	case buf = <-d.buf:
	default:
	}
	buf, err := d.r.writeBundle(buf, run, viewsOfRun(run, views), func(f file) error { return d.site.WriteFile(f.name, f.data) })
	select {
	case d.buf <- buf:
	default:
	}
	return err
}

// Rows writes run's rows of data/scalars.csv (with Options.DataCSV; else
// nothing), from the views of Write, which must still hold their points:
// call it for every run, in report order, one at a time.
func (d *RunData) Rows(run *model.Run, views []*result.ScalarView) {
	if d.csv == nil || len(views) == 0 {
		return
	}
	ack := make(chan struct{})
	d.csv <- csvRun{run, viewsOfRun(run, views), ack}
	<-ack
}

// viewsOfRun is the views of run's series as the writers take them.
func viewsOfRun(run *model.Run, views []*result.ScalarView) []*seriesView {
	bundle := bundleFile(run.Name)
	series := make([]*seriesView, len(views))
	for i, v := range views {
		series[i] = &seriesView{run: v.Run, scalar: v.Scalar, stats: v.Stats, total: v.Total, file: bundle,
			data: v.Data, draw: v.Draw, buckets: v.Buckets, faded: v.Faded, spark: &v.Spark}
	}
	return series
}

// Close ends the runs' data files: it returns the first error of
// writing data/scalars.csv. Call it once, after the last Write.
func (d *RunData) Close() error {
	if d.csv == nil {
		return nil
	}
	close(d.csv)
	return <-d.done
}
