package render

import (
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

func runScalars(run *model.Run) []*model.Scalar {
	return withEntries(run.Scalars, func(s *model.Scalar) int { return len(s.Points) })
}

// scalarsPage is what templates/scalars.html draws.
type scalarsPage struct {
	Groups []scalarGroup
	Runs   int
	// RunNames names the runs with scalars, in report order: the page's
	// run selector lists them.
	RunNames template.JS
	// PerSeries and PageBudget are set when the page budget lowered how
	// many points a series draws, to say so.
	PerSeries, PageBudget string
	// MaxCharts and Undrawn are set when the page has more tags than it
	// draws charts: the tags beyond the budget, listed by name.
	MaxCharts string
	Undrawn   []string
	// RunHParams is the runs' hyperparameters, the run table of
	// appendRunTable without final values, for grouping by them; "" when
	// no run has any, or on a sweep's page (its table holds them).
	RunHParams template.JS
	// HParamsNote says why RunHParams was left out, when it was.
	HParamsNote string
	// Sweep is set when the page summarises its runs (sweepPage).
	Sweep *sweepInfo
	// drawn are the objects of the runs of its charts, for a sweep page
	// built after it (not written: the charts' Data hold them).
	drawn runObjects
	// over is set when everyRunPage stopped building charts once those
	// built passed its budget: the page is incomplete, and a sweep's.
	over bool
}

// sweepInfo is what the page of a sweep says of itself, and its run
// table (appendRunTable), which its run selector lists.
type sweepInfo struct {
	Runs, Threshold, Extremes, MaxDrawn int
	Single                              bool
	// ForBudget is set when the page is a sweep's because its charts
	// drawing every run would pass the budget, not for its runs.
	ForBudget bool
	Table     template.JS // "null" when left out
	// TableNote says what the table leaves out to fit the page's budget.
	TableNote string
	// Points is the steps of a band and points of an extreme run a chart
	// draws at most, when the page's budget lowered it; Budget the budget.
	Points, Budget string
}

type scalarGroup struct {
	Name   string
	Charts []scalarChart
}

type scalarChart struct {
	Tag    string
	Points string // "N of M points"
	// Superseded counts the points earlier attempts wrote and later ones
	// superseded, drawn faded (attempts.go), "" when there are none.
	Superseded string
	Data       template.JS
	Note       string // why the chart draws nothing, when its data cannot be encoded
	// Better is which way the tag improves on a sweep's page ("lower",
	// "higher", "" when its name does not say).
	Better string
}

// scalarsPage builds the page; single is set for the single-file report,
// which has no data files for the downloads to load. Up to sweepPageRuns runs
// with scalars, every chart draws every run, unless their points would
// pass Options.MaxPageBytes; otherwise the page is a sweep's (sweepPage).
func (r *Report) scalarsPage(single bool) (*scalarsPage, error) {
	// Its rounds' charts are built in the same buffers, grown once.
	buffers := make(chan []byte, runtime.GOMAXPROCS(0))
	var runs []*model.Run
	for _, run := range r.rep.Runs {
		if len(runScalars(run)) > 0 {
			runs = append(runs, run)
		}
	}
	layoutRuns, _, err := r.runNames()
	if err != nil {
		return nil, err
	}
	frame := pageFrameBytes + len(layoutRuns)
	var drawn runObjects
	if len(runs) <= sweepPageRuns {
		budget := r.opt.MaxPageBytes
		if budget < 0 {
			budget = math.MaxInt
		}
		p, err := r.everyRunPage(runs, single, frame, budget, buffers)
		if err != nil || !p.over && p.inlined(frame) <= budget {
			return p, err
		}
		drawn = p.drawn
	}
	return r.sweepPage(runs, single, frame, drawn, buffers)
}

// runObjects are the objects of the runs of a page's charts
// (appendChartRun), each drawing its view's points (seriesView.draw): a
// sweep page drawing the same points shares them rather than writing
// them again (an every-run page past its budget, whose runs are all a
// sweep's extremes, would otherwise write each point twice).
type runObjects map[*seriesView]string

// of returns the object of sv drawing the points draw, with buckets,
// when o holds it: draw and buckets are sv's own.
func (o runObjects) of(sv *seriesView, draw []int, buckets []result.Bucket) (string, bool) {
	obj, ok := o[sv]
	if !ok || !sv.drawsItsOwn(draw, buckets) {
		return "", false
	}
	return obj, true
}

// drawsItsOwn reports whether draw and buckets are sv's own view's (the
// same slices), whose object runObjects holds.
func (sv *seriesView) drawsItsOwn(draw []int, buckets []result.Bucket) bool {
	return len(draw) == len(sv.draw) && len(buckets) == len(sv.buckets) &&
		(len(draw) == 0 || &draw[0] == &sv.draw[0]) && (len(buckets) == 0 || &buckets[0] == &sv.buckets[0])
}

// Bytes of a page besides what its charts inline, to count against
// Options.MaxPageBytes: the layout, navigation and controls (some 8 KB,
// with room; the list of the report's runs every page holds is counted
// apart), and each chart's figure around its data.
const (
	pageFrameBytes  = 16 << 10
	chartFrameBytes = 1 << 10
)

// inlined estimates the bytes of the page's HTML: what it inlines, and
// frame, the bytes around it.
func (p *scalarsPage) inlined(frame int) int {
	n := frame + len(p.RunNames)
	n += len(p.RunHParams)
	if p.Sweep != nil {
		n += len(p.Sweep.Table)
	}
	for _, g := range p.Groups {
		for _, c := range g.Charts {
			n += chartFrameBytes + len(c.Data) + len(c.Tag)
		}
	}
	for _, t := range p.Undrawn {
		n += len(t) + 16
	}
	return n
}

// everyRunPage is the page drawing every run on every chart, frame the
// bytes around what it inlines. It stops building charts once what it
// inlines is sure to pass budget, the charts built so far and the rest
// of the page (p.over; what it inlines only grows with each chart): the
// page is then a sweep's, which draws the extremes only, and whose
// objects it shares are then those of the charts built (a run object a
// sweep page lacks it builds, the same bytes). A sweep of 11 to 100 runs
// past the budget no longer formats every run's points first. Its charts
// are built in buffers (nil: its own), as chartsOnAllCores'.
func (r *Report) everyRunPage(runs []*model.Run, single bool, frame, budget int, buffers chan []byte) (*scalarsPage, error) {
	p := &scalarsPage{Runs: len(r.rep.Runs)}
	if sc := &r.an.Scalars; sc.DrawCap < sc.MaxPoints {
		p.PerSeries, p.PageBudget = result.FormatCount(sc.DrawCap), result.FormatCount(sc.MaxPagePoints)
	}
	names := make([]string, len(runs))
	for i, run := range runs {
		names[i] = run.Name
	}
	var err error
	if p.RunNames, err = scriptJSON(names); err != nil {
		return nil, err
	}
	r.runHParams(p, runs)
	drawn := r.drawnTags()
	r.undrawn(p, drawn)
	p.drawn = runObjects{}
	tags := r.tags[:drawn]
	ends := make([][]int, len(tags))
	errs := make([]error, len(tags))
	// room is what the charts may inline, less what those built do.
	var room atomic.Int64
	room.Store(int64(min(budget-p.inlined(frame), math.MaxInt64)))
	data := chartsOnAllCores(buffers, len(tags), func(b []byte, i int) []byte {
		if room.Load() < 0 {
			return b[:0] // over budget: not built (ends[i] nil)
		}
		b, ends[i], errs[i] = appendChartRuns(b, nil, tags[i], !single)
		if errs[i] != nil {
			return b[:0]
		}
		b = r.appendBaselineChart(b, tags[i].tag)
		room.Add(-int64(chartFrameBytes + len(b) + len(tags[i].tag)))
		return b
	})
	if room.Load() < 0 {
		p.over = true
		for i, tv := range tags {
			if ends[i] != nil && errs[i] == nil {
				for k, sv := range tv.series {
					p.drawn[sv] = data[i][ends[i][2*k]:ends[i][2*k+1]]
				}
			}
		}
		return p, nil
	}
	for i, tv := range tags {
		shown, total := 0, 0
		for _, sv := range tv.series {
			shown += len(sv.draw)
			total += sv.total
		}
		c := scalarChart{Tag: tv.tag, Points: pointsLabel(shown, total), Superseded: supersededLabel(tv), Data: "null"}
		if errs[i] != nil {
			c.Note = "This chart cannot be drawn: " + errs[i].Error()
		} else {
			c.Data = template.JS(data[i]) // escaped for a <script> element by appendChartData
			for k, sv := range tv.series {
				p.drawn[sv] = data[i][ends[i][2*k]:ends[i][2*k+1]]
			}
		}
		p.add(tv, c)
	}
	return p, nil
}

// chartsOnAllCores returns the data of n charts, chart i's made by
// build(b, i) appending to b, on all cores: the charts of the scalars
// page are most of its cost (the 8 M-point log's: some 0.1 s of CPU,
// its 8 runs' points drawn on every chart, then the extremes again at
// fewer points), each independent of the others, and the page was
// otherwise built on one core while the other had nothing left to do.
// Each worker reuses a buffer of buffers (a new one when it is empty or
// nil) from one chart to its next, and leaves it there for the next
// call: a chart's buffer grows to the size of the largest chart once a
// page, not once a round of it (the growth's copies were 5 ms of the
// 8 M-point log's page), if the caller's buffers are the page's.
func chartsOnAllCores(buffers chan []byte, n int, build func(b []byte, i int) []byte) []string {
	out := make([]string, n)
	if buffers == nil {
		buffers = make(chan []byte, runtime.GOMAXPROCS(0))
	}
	parallel(n, func(i int) {
		var b []byte
		select {
		case b = <-buffers:
		default:
		}
		b = build(b[:0], i)
		out[i] = string(b) // a copy: b is reused
		select {
		case buffers <- b:
		default:
		}
	})
	return out
}

// add adds chart c of tag tv to the page, in a new group when tv's is not
// the last one's.
func (p *scalarsPage) add(tv *tagView, c scalarChart) {
	if n := len(p.Groups); n == 0 || p.Groups[n-1].Name != tv.group {
		p.Groups = append(p.Groups, scalarGroup{Name: tv.group})
	}
	g := &p.Groups[len(p.Groups)-1]
	g.Charts = append(g.Charts, c)
}

// undrawn lists the tags past the first drawn as not drawn.
func (r *Report) undrawn(p *scalarsPage, drawn int) {
	p.Undrawn = nil
	for _, tv := range r.tags[drawn:] {
		p.Undrawn = append(p.Undrawn, tv.tag)
	}
	p.MaxCharts = ""
	if len(p.Undrawn) > 0 {
		p.MaxCharts = result.FormatCount(drawn)
	}
}

// scalarsData writes the scalar bundles (packBundles), data/scalars/
// <first-run-slug>.js each (bundleWriter): every point formatted once,
// streamed into its file a chunk at a time; with Options.DataJSON its
// JSON line also as <first-run-slug>.json, the same bytes, and with
// Options.DataTianshu the files of data layout 1 as well (writeTianshu).
// They are the bulk of the output: bundles are formatted and written on
// all cores, each by the worker that formats it (each is a file of its
// own, so no order is needed), a worker's buffer of a chunk reused for
// its next bundle, so that memory holds a chunk per core, not a bundle.
// emit and r.stream must allow calls from several goroutines (eachFile's
// do).
func (r *Report) scalarsData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: scalarCategory, index: map[string]map[string]string{}, bundles: map[string]string{}}
	for _, tv := range r.tags {
		for _, sv := range tv.series {
			name := sv.file
			if r.opt.DataTianshu {
				name = dataFile(scalarsDir, sv.run.Name, tv.tag)
			}
			d.add(sv.run.Name, tv.tag, name)
			if len(sv.faded) > 0 {
				if r.opt.DataTianshu {
					name = supersededFile(name)
				}
				d.addSuperseded(sv.run.Name, tv.tag, name)
			}
			if sv.data != nil {
				d.downsampled = append(d.downsampled, downsampledNote{
					Run: sv.run.Name, Tag: tv.tag, Kept: len(sv.data), Total: sv.total})
			}
		}
	}
	for run, name := range r.bundleOf {
		d.bundles[run.Name] = name
	}
	if r.opt.RunDataWritten {
		return d, nil // RunData wrote them
	}
	var (
		mu      sync.Mutex
		failed  error
		buffers = make(chan []byte, runtime.GOMAXPROCS(0))
	)
	parallel(len(r.bundles), func(i int) {
		mu.Lock()
		stop := failed != nil
		mu.Unlock()
		if stop {
			return
		}
		var buf []byte
		select {
		case buf = <-buffers:
		default:
		}
		buf, err := r.writeBundle(buf, r.bundles[i], emit)
		select {
		case buffers <- buf:
		default:
		}
		if err != nil {
			mu.Lock()
			if failed == nil {
				failed = err
			}
			mu.Unlock()
		}
	})
	if failed != nil {
		return nil, failed
	}
	return d, nil
}

// writeBundle streams the bundle g into its file as it is formatted
// (bundleWriter), with buf as its buffer, and with Options.DataJSON its
// JSON line into <first-run-slug>.json at the same time, the same bytes;
// with Options.DataTianshu it writes the files of layout 1 of its runs
// too. It returns the buffer for reuse.
func (r *Report) writeBundle(buf []byte, g *bundleGroup, emit func(file) error) ([]byte, error) {
	name := g.file
	w := &bundleWriter{b: buf[:0]}
	stream := r.streamer(emit)
	err := stream("data/"+name, func(js io.Writer) error {
		if !r.opt.DataJSON {
			w.js = js
			return w.write(g)
		}
		return stream("data/"+strings.TrimSuffix(name, ".js")+".json", func(jw io.Writer) error {
			w.js, w.json = js, jw
			return w.write(g)
		})
	})
	if err != nil {
		return w.b, outputError{err}
	}
	if r.opt.DataTianshu {
		for _, series := range g.series {
			if err := writeTianshu(w.b[:0], series, emit); err != nil {
				return w.b, err
			}
		}
	}
	return w.b, nil
}

// writeTianshu writes the scalar data files of data layout 1, Tianshu's
// shape: data/scalars/<run-slug>/<tag-slug>.json per series, {tag:
// [[wall_time, step, value], ...]}, and beside it the series' superseded
// points, <tag-slug>.superseded.json, {"tag", "attempts"}, using buf.
func writeTianshu(buf []byte, series []*seriesView, emit func(file) error) error {
	for _, sv := range series {
		name := dataFile(scalarsDir, sv.run.Name, sv.scalar.Tag)
		buf = append(buf[:0], '{')
		buf = appendJSONString(buf, sv.scalar.Tag)
		buf = append(buf, ':')
		buf = appendDataPoints(buf, sv.scalar.Points, sv.data, sv.scalar.Float32)
		buf = append(buf, "}\n"...)
		if err := emit(file{"data/" + name, buf}); err != nil {
			return err
		}
		if len(sv.faded) > 0 {
			if err := emit(file{"data/" + supersededFile(name), supersededData(sv)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// drawnTags is how many of the scalar tags (the first, in order) the
// scalars page draws: at most analysis.Options.MaxCharts.
func (r *Report) drawnTags() int { return r.an.Scalars.Drawn }

func pointsLabel(shown, total int) string {
	if shown == total {
		if total == 1 {
			return "1 point"
		}
		return fmt.Sprintf("%s points", result.FormatCount(total))
	}
	return fmt.Sprintf("%s of %s points", result.FormatCount(shown), result.FormatCount(total))
}

// dataScriptFile is the name of the script form of the data file name.
func dataScriptFile(name string) string {
	return strings.TrimSuffix(name, ".json") + ".js"
}

// appendChartData appends the chart data of one tag to b, as the page
// reads it from a <script type="application/json"> element: encoded by
// hand, since it is most of the page (encoding/json through reflection
// took as long as the rest of the page), and HTML-escaped as scriptJSON
// escapes, so that no name can end the element. With files, each run
// names its data file and the script form of it, which the downloads load.
func appendChartData(b []byte, tv *tagView, files bool) ([]byte, error) {
	b, _, err := appendChartRuns(b, nil, tv, files)
	return b, err
}

// appendChartRuns is appendChartData, appending to ends where each run's
// object starts and ends in b, two offsets a run.
func appendChartRuns(b []byte, ends []int, tv *tagView, files bool) ([]byte, []int, error) {
	b = append(b, `{"tag":`...)
	b = appendJSONString(b, tv.tag)
	b = append(b, `,"runs":[`...)
	for i, sv := range tv.series {
		if i > 0 {
			b = append(b, ',')
		}
		ends = append(ends, len(b))
		b = appendChartRun(b, sv, sv.draw, sv.buckets, files)
		ends = append(ends, len(b))
	}
	return append(b, "]}"...), ends, nil
}

// appendChartRun appends the object of one run of a chart's data: the
// points of sv at the indices draw, the envelope of buckets, and with
// files its data files.
func appendChartRun(b []byte, sv *seriesView, draw []int, buckets []result.Bucket, files bool) []byte {
	sv.mustDraw(draw)
	pts := sv.scalar.Points
	b = append(b, `{"name":`...)
	b = appendJSONString(b, sv.run.Name)
	b = append(b, `,"points":`...)
	b = appendDrawnPoints(b, sv.scalar.Points, draw, sv.scalar.Float32)
	b = append(b, `,"total":`...)
	b = strconv.AppendInt(b, int64(sv.total), 10)
	b = append(b, `,"shown":`...)
	b = strconv.AppendInt(b, int64(len(draw)), 10)
	b = append(b, `,"start":`...)
	b = appendValue(b, sv.run.Start, false)
	b = append(b, `,"envelope":[`...)
	first := true
	for _, bk := range buckets {
		if !bk.HasFinite {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendEnvelope(b, pts[bk.First], pts[bk.Last], bk.Min, bk.Max)
	}
	b = append(b, `],"kept":`...)
	b = strconv.AppendInt(b, int64(sv.kept()), 10)
	if files {
		b = append(b, `,"file":`...)
		b = appendJSONString(b, sv.file)
		// The run's bundle holds the line and its superseded points:
		// each field names it, as the page's loaders read them
		// (trainreport.loadData(file, script)).
		b = append(b, `,"script":`...)
		b = appendJSONString(b, sv.file)
		if len(sv.faded) > 0 {
			b = append(b, `,"superseded_file":`...)
			b = appendJSONString(b, sv.file)
			b = append(b, `,"superseded_script":`...)
			b = appendJSONString(b, sv.file)
		}
	}
	b = appendSuperseded(b, sv)
	b = append(b, '}')
	return b
}

// appendEnvelope appends the envelope of a bucket from point p0 to p1
// whose finite values span lo to hi: [first step, last step, first wall
// time, last wall time, lo, hi], each number as appendValue(v, false)
// writes it. The steps and wall times take the shortcuts that write the
// same bytes (a step is an integer, a wall time appendWallTime's): the
// strconv search of the general form was most of a chart's envelopes,
// some 20 ms of the 8 M-point log's scalars page.
func appendEnvelope(b []byte, p0, p1 model.Point, lo, hi float64) []byte {
	b = append(b, '[')
	b = appendStepValue(b, p0.Step)
	b = append(b, ',')
	b = appendStepValue(b, p1.Step)
	b = append(b, ',')
	b = appendWallTime(b, p0.WallTime)
	b = append(b, ',')
	b = appendWallTime(b, p1.WallTime)
	b = append(b, ',')
	b = appendValue(b, lo, false)
	b = append(b, ',')
	b = appendValue(b, hi, false)
	return append(b, ']')
}

// stepExact bounds the integers that a float64 holds exactly, and so
// every one below it.
const stepExact = 1 << 53

// appendStepValue appends step as a float64, as appendValue(float64(step),
// false) does: within 2^53 the float64 is the integer, whose shortest form
// is its decimal digits (no exponent below 1e21).
func appendStepValue(b []byte, step int64) []byte {
	if step > -stepExact && step < stepExact {
		return appendInt(b, step)
	}
	return appendValue(b, float64(step), false)
}

// mustDraw panics when a series with points has none drawn, draw its
// drawn points' indices: the analysis dropped them (Staged.Compact), as
// ScalarReads said no output draws them, and an output does.
func (sv *seriesView) mustDraw(draw []int) {
	if draw == nil && sv.total > 0 {
		panic(fmt.Sprintf("render: the drawn points of %q of run %q were not kept: ScalarReads does not say they are read", sv.scalar.Tag, sv.run.Name))
	}
}

// appendJSONString appends s as a JSON string escaped for HTML, exactly
// as scriptJSON's encoder writes it (<, >, & and U+2028/9 as \u escapes;
// invalid UTF-8 as U+FFFD).
func appendJSONString(b []byte, s string) []byte {
	q, err := json.Marshal(s) // escapes <, > and & by default
	if err != nil {
		panic(err) // a string always encodes
	}
	return append(b, q...)
}

// appendDrawnPoints appends the points of pts at the indices idx, the
// drawn ones of a line or of an attempt's superseded points, as
// [[step, value, wall_time], ...].
//
// The points are copied out a block at a time before they are formatted:
// a drawn point is one of every few dozen of a series that is no longer
// in any cache when a page is built (the 8 M-point log's: 2.4 MB a
// series, 80 series), and a load inside the formatting loop waited for
// memory alone, most of the loop's time. The copy's loads do not depend
// on one another, so the core has many of them in flight at once.
func appendDrawnPoints(b []byte, pts []model.Point, idx []int, float32 bool) []byte {
	b = append(b, '[')
	var block [drawnBlock]model.Point
	for start := 0; start < len(idx); start += drawnBlock {
		ks := idx[start:min(start+drawnBlock, len(idx))]
		for j, k := range ks {
			block[j] = pts[k]
		}
		for j, p := range block[:len(ks)] {
			if start+j > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = appendInt(b, p.Step) // strconv.AppendInt's bytes, at less cost
			b = append(b, ',')
			b = appendValue(b, p.Value, float32)
			b = append(b, ',')
			b = appendWallTime(b, p.WallTime)
			b = append(b, ']')
		}
	}
	return append(b, ']')
}

// drawnBlock is how many drawn points appendDrawnPoints copies out at a
// time: enough loads in flight to hide memory's latency, few enough to
// stay in the first-level cache (1.5 KB).
const drawnBlock = 64

// maxRunHParamsShare is the share of the page's budget the runs'
// hyperparameters may take on an every-run page.
const maxRunHParamsShare = 4

// runHParams sets p's RunHParams to the hyperparameters of runs, when a
// run of the report has any and they take at most a quarter of the page's
// budget (else HParamsNote says so).
func (r *Report) runHParams(p *scalarsPage, runs []*model.Run) {
	if !r.hasHParams() {
		return
	}
	table := r.appendRunTable(nil, runs, 0, false, true, false)
	if budget := r.opt.MaxPageBytes; budget >= 0 && len(table) > budget/maxRunHParamsShare {
		p.HParamsNote = "Group by hyperparameter is not offered: the runs' values would pass a quarter of the page's budget (--max-page-bytes)."
		return
	}
	p.RunHParams = template.JS(string(table)) // escaped for a <script> element by appendRunTable
}
