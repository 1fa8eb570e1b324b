package render

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/outdir"
)

// RunData writes the data files of a report's runs a run at a time,
// before the rest of the report: a driver that holds a run's points only
// while its own files are written (a merge reading its parts run by run,
// issue 28) calls Write for each run, then Place for each in report order,
// then Close; Report.WriteSiteTo, with Options.RunDataWritten, writes
// everything else into the same site. The files are those WriteSite writes
// of the run: its part of a scalar bundle (packed as packBundles packs
// them), with Options.DataJSON the bundle's JSON, with Options.DataTianshu
// its files of data layout 1, with Options.DataCSV its rows of
// data/scalars.csv.
type RunData struct {
	site   *outdir.Site
	r      *Report // the writers' options and streams, no model
	csv    chan csvRun
	done   chan error   // the CSV file's writing, when it ended
	buf    chan []byte  // formatting buffers, for the next runs (recycle)
	ints   chan []int64 // wall-time columns' integers (bundleWriter.ints), likewise
	chunks chan []byte  // shared runs' columns formatted ahead (RunShare), likewise
	gate   *shareGate   // shared runs' (RunShare)

	mu      sync.Mutex
	written map[*model.Run]runMember // by Write, until Place

	// Place's, in report order: the packing, and the bundle being
	// filled, whose members it holds until the next run starts another.
	packer  bundlePacker
	group   string   // its file, "" for none
	members [][]byte // its runs' members, formatted
}

// runMember is a run's member of its bundle, formatted by Write (after a
// comma, as every member but a bundle's first is written): the run
// alone in a file (a run of more points than a bundle holds, which
// bundlePacker always leaves alone) is written by Write whole.
type runMember struct {
	points int
	member []byte // nil when alone
	alone  bool
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
	d := &RunData{site: site, r: &Report{opt: opt}, buf: make(chan []byte, 8), ints: make(chan []int64, 8), chunks: make(chan []byte, maxPooledChunks), gate: newShareGate(maxAheadPoints), written: map[*model.Run]runMember{}}
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

// Write formats the data files of run from the views of its scalar
// series (analysis.Staged.Views, in tag order), which must hold their
// points: its member of the bundle Place will add it to, and the files
// beside it (Tianshu's). A run of more points than a bundle holds has a
// file of its own, written here. Runs may be written from several
// goroutines at once, in any order.
func (d *RunData) Write(ctx context.Context, run *model.Run, views []*result.ScalarView) error {
	return d.WriteEach(ctx, run, views, nil)
}

// WriteEach is Write of a run whose series are analysed one at a time as
// they are formatted (analysis.RunStage): values, when not nil, is
// called with each series of views, in their order, right before the
// series is formatted, and returns its values and wall times when it
// hands them (every one, in its points' order; nils else), which are
// read in place of the points': a copy just made, in cache, where the
// points are not. The
// views' data indices and superseded points (Data, Faded), which say how
// many points the run's files hold, must be set before it is called;
// the rest of a view when values returns. A file that cannot be
// written may stop the calls: the caller ends the series left.
func (d *RunData) WriteEach(ctx context.Context, run *model.Run, views []*result.ScalarView, values func(*model.Scalar) (vals, walls []float64)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(views) == 0 {
		return nil
	}
	return d.writeEach(ctx, run, viewsOfRun(run, views), values, nil)
}

// writeEach is WriteEach of the series of run as the writers take them,
// shared with helpers when share is not nil (WriteShared: a run alone in
// its file).
func (d *RunData) writeEach(ctx context.Context, run *model.Run, series []*seriesView, values func(*model.Scalar) (vals, walls []float64), share *RunShare) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	var buf []byte
	select {
	case buf = <-d.buf:
	default:
	}
	var ints []int64
	select {
	case ints = <-d.ints:
	default:
	}
	m := runMember{points: bundlePoints(series)}
	emit := func(f file) error { return d.site.WriteFile(f.name, f.data) }
	var err error
	if m.points > maxBundlePoints {
		m.alone = true
		g := &bundleGroup{file: bundleFile(run.Name), runs: []*model.Run{run}, series: [][]*seriesView{series}, values: values, share: share}
		buf, err = d.r.writeBundle(buf, g, emit)
	} else {
		// As a run after the first (runs 1): the member starts with the
		// comma that joins it to the one before, which Place writes or
		// leaves out without a copy. A writer with no file holds what it
		// formats: the member stays in the buffer it was formatted into
		// until Place's bundle is written, which hands the buffer back
		// (recycle), rather than being copied out of it run after run.
		w := &bundleWriter{b: buf[:0], runs: 1, ints: ints, values: values}
		w.run(run, series)
		m.member, buf, ints = w.b, nil, w.ints
		if cap(m.member) > 2*len(m.member)+64<<10 {
			// A buffer grown by a bigger run is not held for a small
			// member: the member is copied, the buffer goes back.
			buf, m.member = m.member, bytes.Clone(m.member)
		}
		if d.r.opt.DataTianshu {
			if buf == nil { // the member kept it: another, for Tianshu's files
				select {
				case buf = <-d.buf:
				default:
				}
			}
			err = writeTianshu(buf[:0], series, emit)
		}
	}
	d.recycle(buf)
	if cap(ints) <= maxPooledBuffer/8 {
		select {
		case d.ints <- ints:
		default:
		}
	}
	if err != nil {
		return err
	}
	d.mu.Lock()
	d.written[run] = m
	d.mu.Unlock()
	return nil
}

// Place writes what of run is written in report order, once Write wrote
// it: its rows of data/scalars.csv (with Options.DataCSV), from the
// views, which must still hold their points; and its member of the
// bundle it joins, writing the bundle before it when it starts another.
// Call it for every run, in report order, one at a time.
func (d *RunData) Place(run *model.Run, views []*result.ScalarView) error {
	if len(views) == 0 {
		return nil
	}
	if d.csv != nil {
		ack := make(chan struct{})
		d.csv <- csvRun{run, viewsOfRun(run, views), ack}
		<-ack
	}
	d.mu.Lock()
	m, ok := d.written[run]
	delete(d.written, run)
	d.mu.Unlock()
	if !ok {
		return fmt.Errorf("run %q placed before it was written", run.Name)
	}
	if d.packer.add(m.points) {
		if err := d.writeGroup(); err != nil {
			return err
		}
		if !m.alone {
			d.group = bundleFile(run.Name)
		}
	}
	if !m.alone {
		d.members = append(d.members, m.member)
	}
	return nil
}

// writeGroup writes the bundle being filled, if any, as bundleWriter
// writes a bundle whole: the same bytes.
func (d *RunData) writeGroup() error {
	if d.group == "" {
		return nil
	}
	name, members := d.group, d.members
	d.group, d.members = "", nil
	write := func(js, json io.Writer) error {
		w := &bundleWriter{js: js, json: json}
		w.begin(name)
		for i, m := range members {
			if i == 0 {
				m = m[1:] // no comma before the first
			}
			w.put(m)
		}
		w.runs = len(members)
		return w.end()
	}
	err := d.site.WriteFileFunc("data/"+name, func(js io.Writer) error {
		if !d.r.opt.DataJSON {
			return write(js, nil)
		}
		return d.site.WriteFileFunc("data/"+strings.TrimSuffix(name, ".js")+".json", func(jw io.Writer) error {
			return write(js, jw)
		})
	})
	for _, m := range members {
		d.recycle(m)
	}
	if err != nil {
		return outputError{err}
	}
	return nil
}

// maxPooledBuffer bounds the buffers RunData keeps for the next runs (8
// buffers and 8 wall-time columns' integers at most): a buffer grown past
// it by a big run is left to the collector.
const maxPooledBuffer = 1 << 20

// recycle keeps b, whose bytes are written, for a next run's formatting,
// when the pool has room and b is not too large.
func (d *RunData) recycle(b []byte) {
	if b == nil || cap(b) > maxPooledBuffer {
		return
	}
	select {
	case d.buf <- b[:0]:
	default:
	}
}

// viewsOfRun is the views of run's series as the writers take them.
func viewsOfRun(run *model.Run, views []*result.ScalarView) []*seriesView {
	bundle := bundleFile(run.Name)
	series := make([]*seriesView, len(views))
	for i, v := range views {
		series[i] = &seriesView{run: v.Run, scalar: v.Scalar, stats: v.Stats, total: v.Total, file: bundle,
			data: v.Data, steps: v.Steps, draw: v.Draw, buckets: v.Buckets, faded: v.Faded, spark: &v.Spark}
	}
	return series
}

// Close ends the runs' data files: it returns the first error of
// writing data/scalars.csv. Call it once, after the last Write.
func (d *RunData) Close() error {
	err := d.writeGroup()
	if d.csv == nil {
		return err
	}
	close(d.csv)
	if cerr := <-d.done; err == nil {
		err = cerr
	}
	return err
}
