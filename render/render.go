// Package render turns a collected report model into the report's outputs:
// the static site (pages, assets and JSON data), a single self-contained
// HTML file, summary.json and a Markdown summary. It never reads log files.
package render

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/outdir"
)

// Options control rendering.
type Options struct {
	// Title heads every page.
	Title string
	// HistogramSteps is how many steps of one histogram series a chart
	// draws at most (fewer on very big pages); every step stays in the
	// data files. Zero means DefaultHistogramSteps.
	HistogramSteps int
	// MaxPageBytes bounds the HTML of a page with what it inlines: pages
	// whose data grows with the runs leave the rest in data/ or out,
	// saying so (the scalars page of more runs than it draws well
	// summarises them, see sweepPage; the overview and HParams page of a
	// sweep page their tables). Zero means DefaultMaxPageBytes; negative
	// means no bound.
	MaxPageBytes int
	// MaxSingleFileBytes bounds the single-file report (WriteSingleFile)
	// as a whole: the pages that do not fit, in the navigation's order,
	// are left out of it, each saying so and that the site has it. Zero
	// means DefaultMaxSingleFileBytes; negative means no bound.
	MaxSingleFileBytes int
	// MarkdownForm is what summary.md is written for: a pull-request
	// comment (the zero value) or a CI job summary.
	MarkdownForm MarkdownForm
	// ChartsURL is where summary.md finds its static charts, the chart's
	// file name appended: "" for ChartsDir, beside it in the site.
	ChartsURL string
	// DataJSON also writes each scalar bundle's JSON as a plain JSON file
	// beside it (data/scalars/<first-run-slug>.json), the same bytes, for hosts
	// and scripts that want one: it doubles the scalar data's bytes and
	// files.
	DataJSON bool
	// DataTianshu also writes the scalar data files of data layout 1,
	// one per series in Tianshu's shape (data/scalars/<run-slug>/
	// <tag-slug>.json), and data/index.json's "scalar" then lists them:
	// for tools reading Tianshu's API.
	DataTianshu bool
	// DataCSV also writes every point of the scalar bundles as one long
	// table, data/scalars.csv (writeScalarsCSV): the form pandas, R and
	// spreadsheets read, at about the bundles' bytes again.
	DataCSV bool
	// RunDataWritten says the runs' data files (their scalar bundles and
	// the files beside them, data/scalars.csv) were written into the
	// site by RunData: WriteSiteTo writes the rest, and lists them in
	// data/index.json as its own.
	RunDataWritten bool
	// Notes is the author's Markdown (--notes), shown at the top of the
	// overview and of summary.md (authornotes.go); at most MaxNotesBytes.
	Notes string
}

// Defaults of Options.
const (
	DefaultHistogramSteps = 50
	DefaultMaxPageBytes   = 5 << 20
	// DefaultMaxSingleFileBytes keeps the single file under the 25 MB
	// that mail services (Gmail, Outlook) take as an attachment.
	DefaultMaxSingleFileBytes = 24_000_000
)

// Report is a report model prepared for writing, with its analysis: file
// names chosen. Build it once with New and write
// any of the outputs from it, one at a time.
type Report struct {
	rep    *model.Report
	an     *result.Analysis
	opt    Options
	tags   []*tagView      // scalar tags, sorted
	bodies map[bodyKey]any // data of each single-file page's main template, built once
	views  map[*model.Scalar]*seriesView
	// bundles are the scalar bundle files, in report order (packBundles),
	// and bundleOf each run's, "" for a run without scalars.
	bundles  []*bundleGroup
	bundleOf map[*model.Run]string
	// stream is eachFile's stream while it runs: the scalar bundles are
	// written through it as they are formatted.
	stream func(name string, write func(io.Writer) error) error
	// tmpl are the page templates, parsed once (templates).
	parsed  sync.Once
	tmpl    *template.Template
	tmplErr error
}

// maxPageBytes is the page budget (Options.MaxPageBytes), the largest
// int when there is none.
func (r *Report) maxPageBytes() int {
	switch {
	case r.opt.MaxPageBytes < 0:
		return math.MaxInt
	case r.opt.MaxPageBytes == 0:
		return DefaultMaxPageBytes
	}
	return r.opt.MaxPageBytes
}

// maxSingleFileBytes is the single file's budget
// (Options.MaxSingleFileBytes), the largest int when there is none.
func (r *Report) maxSingleFileBytes() int {
	switch {
	case r.opt.MaxSingleFileBytes < 0:
		return math.MaxInt
	case r.opt.MaxSingleFileBytes == 0:
		return DefaultMaxSingleFileBytes
	}
	return r.opt.MaxSingleFileBytes
}

// scalarsDir is the directory of the scalars' data files in data/.
const scalarsDir = "scalars"

// tagView is one scalar tag across the runs that have it.
type tagView struct {
	tag    string
	group  string
	series []*seriesView // in run order
}

// seriesView is one (run, tag) scalar series, with its views from the
// analysis (result.ScalarView).
type seriesView struct {
	run     *model.Run
	scalar  *model.Scalar
	stats   model.Stats
	total   int                    // its points (result.ScalarView.Total): scalar.Points may hold only the drawn ones
	file    string                 // the scalar bundle holding its run (packBundles), relative to the data directory
	data    []int                  // indices of the points in the data file, nil for all
	steps   result.StepProgression // its points' steps, as the analysis found them (result.ScalarView.Steps)
	draw    []int                  // indices of the points drawn
	buckets []result.Bucket
	faded   []result.FadedView // superseded points, per attempt (attempts.go)
	spark   *[len(result.SparkBudgets)]result.Values
}

// New prepares rep for writing, with an, its analysis (analysis.Build
// of rep).
func New(rep *model.Report, an *result.Analysis, opt Options) *Report {
	if opt.HistogramSteps == 0 {
		opt.HistogramSteps = DefaultHistogramSteps
	}
	if opt.MaxPageBytes == 0 {
		opt.MaxPageBytes = DefaultMaxPageBytes
	}
	if opt.Title == "" {
		opt.Title = "Training report"
	}
	r := &Report{rep: rep, an: an, opt: opt, bodies: map[bodyKey]any{}, views: map[*model.Scalar]*seriesView{}}
	byRun := map[*model.Run][]*seriesView{}
	for _, st := range an.Scalars.Tags {
		tv := &tagView{tag: st.Tag, group: tagGroup(st.Tag)}
		for _, v := range st.Series {
			sv := &seriesView{run: v.Run, scalar: v.Scalar, stats: v.Stats, total: v.Total,
				data: v.Data, steps: v.Steps, draw: v.Draw, buckets: v.Buckets, faded: v.Faded, spark: &v.Spark}
			tv.series = append(tv.series, sv)
			byRun[v.Run] = append(byRun[v.Run], sv)
			r.views[v.Scalar] = sv
		}
		r.tags = append(r.tags, tv)
	}
	r.packBundles(byRun)
	for _, tv := range r.tags {
		for _, sv := range tv.series {
			sv.file = r.bundleOf[sv.run]
		}
	}
	return r
}

// packBundles packs the runs with scalars, in report order, into scalar
// bundle files (bundlePacker), byRun giving each run's series in tag
// order.
func (r *Report) packBundles(byRun map[*model.Run][]*seriesView) {
	r.bundleOf = make(map[*model.Run]string, len(byRun))
	var p bundlePacker
	var g *bundleGroup
	for _, run := range r.rep.Runs {
		series := byRun[run]
		if len(series) == 0 {
			continue
		}
		if p.add(bundlePoints(series)) {
			g = &bundleGroup{file: bundleFile(run.Name)}
			r.bundles = append(r.bundles, g)
		}
		g.runs = append(g.runs, run)
		g.series = append(g.series, series)
		r.bundleOf[run] = g.file
	}
}

// tagGroup is the text before a tag's first "/", as TensorBoard groups
// tags; tags without one form their own group under their own name.
func tagGroup(tag string) string {
	if g, _, ok := strings.Cut(tag, "/"); ok && g != "" {
		return g
	}
	return tag
}

// WriteSite writes the static site into the folder dir (see package
// outdir): into a new folder beside it, moved into place when whole, so
// that dir holds exactly this report, nothing is written through a link
// and two outputs never share a path. An existing dir is replaced only
// when it is empty or an earlier report.
func (r *Report) WriteSite(dir string) error { return r.WriteSiteContext(context.Background(), dir) }

// WriteSiteContext is WriteSite, stopping (and leaving dir as it was, no
// temporary folder behind) when ctx is done.
func (r *Report) WriteSiteContext(ctx context.Context, dir string) error {
	site, err := outdir.Create(dir)
	if err != nil {
		return err
	}
	if err := r.WriteSiteTo(ctx, site); err != nil {
		site.Abort()
		return err
	}
	return site.Commit()
}

// WriteSiteTo writes the static site into site, which the caller created
// (outdir.Create) and commits or aborts: a driver that wrote the runs'
// data files into it first (RunData, Options.RunDataWritten).
func (r *Report) WriteSiteTo(ctx context.Context, site *outdir.Site) error {
	// Files are written as they are made, so that memory holds one at a
	// time besides the model.
	return r.eachFile(func(f file) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return site.WriteFile(f.name, f.data)
	}, func(name string, write func(io.Writer) error) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return site.WriteFileFunc(name, write)
	})
}

// streamer is eachFile's stream while it runs; outside it (a page's data
// made on its own) a stream that makes each file whole, then emits it.
func (r *Report) streamer(emit func(file) error) func(name string, write func(io.Writer) error) error {
	if r.stream != nil {
		return r.stream
	}
	return func(name string, write func(io.Writer) error) error {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			return err
		}
		return emit(file{name, b.Bytes()})
	}
}

type file struct {
	name string // slash-separated path inside the site
	data []byte
}

// siteFiles returns every file of the site.
func (r *Report) siteFiles() ([]file, error) {
	var mu sync.Mutex
	var files []file
	add := func(f file) error {
		mu.Lock()
		defer mu.Unlock()
		files = append(files, f)
		return nil
	}
	err := r.eachFile(func(f file) error {
		return add(file{f.name, slices.Clone(f.data)})
	}, func(name string, write func(io.Writer) error) error {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			return err
		}
		return add(file{name, b.Bytes()})
	})
	return files, err
}

// eachFile makes every file of the site and hands each to emit, in turn,
// or to stream, which writes the file name through write and may run
// beside emit; when write fails, stream must leave no file of that name
// (a page is then written again). emit must not keep f.data past its return: the data files'
// buffers are reused. emit may be called from several goroutines at once,
// for files of different names: the scalar bundles are written on all
// cores, and the pages beside the other files (sitePages). The first
// error stops the files not yet begun, and is the one returned.
func (r *Report) eachFile(emit func(file) error, stream func(name string, write func(io.Writer) error) error) error {
	r.stream = stream
	defer func() { r.stream = nil }()
	// The pages are built while the other files are made: they are
	// small, but building them is a fifth of the work after reading, done
	// otherwise while a core waits. Each is written as it is built, not
	// held until the other files are written: for a sweep, the scalars
	// page is a hundred MB. A goroutine starts on them first, before the
	// asset files (the 8 M-point log's 37 files, 1.7 MB, 4 ms of system
	// calls on one core); this one joins it once its own files are
	// written (sitePages).
	q := r.newSitePages(stream)
	built := make(chan error, 1)
	go func() { built <- q.work() }()
	// The pages' goroutine ends before eachFile returns, whatever
	// happens: a return before the last line stops it and waits for it
	// here.
	waited := false
	defer func() {
		if !waited {
			q.stop()
			<-built
		}
	}()
	// The other files stop too at a page's error.
	emitting := func(f file) error {
		if err := q.failed(); err != nil {
			return err
		}
		return emit(f)
	}
	streaming := func(name string, write func(io.Writer) error) error {
		if err := q.failed(); err != nil {
			return err
		}
		return stream(name, write)
	}
	if err := r.otherFiles(emitting, streaming); err != nil {
		q.fail(err)
		return q.first(err)
	}
	err := q.work()
	waited = true
	if gerr := <-built; err == nil {
		err = gerr
	}
	return q.first(err)
}

// otherFiles makes every file of the site but its pages (sitePages): the
// assets, summary.json, summary.md, the static charts and the pages'
// data files with data/index.json, as eachFile hands them to emit and
// stream.
func (r *Report) otherFiles(emit func(file) error, stream func(name string, write func(io.Writer) error) error) error {
	if err := stream("summary.json", r.WriteSummaryJSON); err != nil {
		return err
	}
	var md bytes.Buffer
	if err := r.WriteMarkdown(&md); err != nil {
		return err
	}
	if err := emit(file{"summary.md", md.Bytes()}); err != nil {
		return err
	}
	for _, c := range r.StaticCharts() {
		b, err := r.Chart(c, "svg")
		if err != nil {
			return err
		}
		if err := emit(file{ChartsDir + c.Name + ".svg", b}); err != nil {
			return err
		}
	}
	var extra []*pageData
	// An error of a page's data that does not come from emit is one of
	// the logs' content: it becomes a note in data/index.json, and the
	// other pages' data is still written.
	output := func(f file) error {
		if err := emit(f); err != nil {
			return outputError{err}
		}
		return nil
	}
	for _, p := range r.pages() {
		if p.data == nil {
			continue
		}
		d, err := p.data(r, output)
		var out outputError
		switch {
		case errors.As(err, &out):
			return fmt.Errorf("page %s: %w", p.name, out.err)
		case err != nil:
			d = &pageData{category: p.name, index: map[string]map[string]string{}}
			d.note("", "", fmt.Errorf("data of page %s incomplete: %w", p.name, err))
		case d == nil: // a page with no data this time (the overview of few runs)
			continue
		}
		extra = append(extra, d)
	}
	if r.opt.DataCSV && !r.opt.RunDataWritten {
		if err := stream(scalarsCSVFile, r.writeScalarsCSV); err != nil {
			return err
		}
	}
	if err := stream("data/index.json", r.dataIndex(extra).write); err != nil {
		return err
	}
	// The assets last: they depend on nothing, and their system calls
	// fill a core while the pages' last chart rounds leave it waiting.
	assetFiles, err := assetFiles()
	if err != nil {
		return err
	}
	for _, f := range assetFiles {
		if err := emit(f); err != nil {
			return err
		}
	}
	return nil
}

// sitePages hands the site's pages, each once, to the goroutines that
// build and write them (work): eachFile's page goroutine from the start,
// and its own once its other files are written, so that the pages left
// when one is busy with a long page (a sweep's scalars page, its chart
// rounds) are built beside it rather than after it. The scalars page
// comes first: its charts are most of the pages' work, and the other
// pages and files fill the cores around its rounds rather than leaving
// it last, alone.
type sitePages struct {
	r      *Report
	stream func(name string, write func(io.Writer) error) error
	pages  []*page
	mu     sync.Mutex
	next   int   // the next page to hand out
	err    error // the first error of any file: no page is begun after it
}

func (r *Report) newSitePages(stream func(name string, write func(io.Writer) error) error) *sitePages {
	pages := r.pages()
	if i := slices.IndexFunc(pages, func(p *page) bool { return p.name == "scalars" }); i > 0 {
		pages = slices.Concat(pages[i:i+1], pages[:i], pages[i+1:])
	}
	return &sitePages{r: r, stream: stream, pages: pages}
}

// take returns the next page to build, nil when none is left or a file
// failed.
func (q *sitePages) take() *page {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err != nil || q.next == len(q.pages) {
		return nil
	}
	q.next++
	return q.pages[q.next-1]
}

// fail records err, when it is the first error, and stops the pages not
// yet begun.
func (q *sitePages) fail(err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err == nil {
		q.err = err
	}
}

// failed returns the first error recorded (fail), nil when none is.
func (q *sitePages) failed() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.err
}

// stop hands out no more pages.
func (q *sitePages) stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.next = len(q.pages)
}

// first returns the first error recorded (fail), or err when there is
// none.
func (q *sitePages) first(err error) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err != nil {
		return q.err
	}
	return err
}

// work builds and writes pages until none is left or a file failed,
// returning its own error: a panic building a page is one, with its
// stack.
func (q *sitePages) work() (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("internal error building the pages: %s", *stackOf(v))
		}
		if err != nil {
			q.fail(err)
		}
	}()
	// A page's template writes it in small pieces, each text between
	// two actions and each value: unbuffered, the 8 M-point log's
	// overview was some 3,800 system calls of a few bytes. A piece
	// larger than the buffer (a chart's data) goes straight through.
	var bw *bufio.Writer
	for p := q.take(); p != nil; p = q.take() {
		if bw == nil {
			bw = bufio.NewWriterSize(nil, pageBuffer)
		}
		if err := q.r.writeSitePage(bw, p, q.stream); err != nil {
			return err
		}
	}
	return nil
}

// writeSitePage builds page p and writes it through stream, with bw as
// its buffer; a page whose content cannot be built is written again,
// whole, with a note saying so, and the scripts of the runs it leaves
// out after it.
func (r *Report) writeSitePage(bw *bufio.Writer, p *page, stream func(name string, write func(io.Writer) error) error) error {
	write := func(w io.Writer, p *page, failed error) (t *template.Template, data any, err error) {
		bw.Reset(w)
		if t, data, err = r.writePageBody(bw, p, failed); err == nil {
			err = bw.Flush()
		}
		return t, data, err
	}
	var pageErr error
	var t *template.Template
	var data any
	err := stream(p.file(), func(w io.Writer) error {
		t, data, pageErr = write(w, p, nil)
		return pageErr
	})
	if c, ok := pageErr.(contentError); ok {
		// Written again, whole, with a note for its content.
		err = stream(p.file(), func(w io.Writer) error {
			t, data, pageErr = write(w, p, c.err)
			return pageErr
		})
	}
	if pageErr != nil {
		err = fmt.Errorf("page %s: %w", p.name, pageErr)
	}
	if err == nil && data != nil {
		// The runs the page leaves out, from what built it.
		err = r.writeCutScripts(t, data, stream)
	}
	return err
}

// pageBuffer is the buffer a page is written through (eachFile).
const pageBuffer = 64 << 10

// sparkValues returns the values of a series' sparkline of about budget
// points (result.ScalarView.Spark: budget must be one of
// result.SparkBudgets, and one the outputs said they read: ScalarReads).
func (sv *seriesView) sparkValues(budget int) result.Values {
	k := slices.Index(result.SparkBudgets[:], budget)
	if k < 0 {
		panic(fmt.Sprintf("render: no sparkline of %d points in result.SparkBudgets", budget))
	}
	vs := sv.spark[k]
	if !vs.Held() {
		panic(fmt.Sprintf("render: the sparkline of %d points of %q of run %q was not kept: ScalarReads does not say it is read", budget, sv.scalar.Tag, sv.run.Name))
	}
	return vs
}
