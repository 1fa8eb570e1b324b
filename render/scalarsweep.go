package render

import (
	"html/template"
	"maps"
	"math"
	"path"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// The scalars page of a sweep. Past sweepPageRuns runs with scalars (or when
// drawing every run would pass the page's byte budget), a chart inlines
// the per-step quantiles of the runs' values and the runs with the lowest
// and highest final values, not every run's points; the page's run
// selector loads any other run from its scalar bundle when it is
// checked (docs/PAGES.md, "Sweeps").

const (
	// sweepPageRuns is how many runs with scalars the page draws a line for
	// each; past it the page summarises them. A hundred lines on a chart
	// are already hard to tell apart, and their points are most of a page.
	sweepPageRuns = 100
	// sweepMaxDrawn is how many checked runs a chart of a sweep draws at
	// once, besides the extremes; the page says when it cuts a selection.
	sweepMaxDrawn = 300
	// minSweepPoints is the fewest steps of the band, and points of each
	// extreme run, a chart of a sweep draws before the page draws fewer
	// charts to stay within its byte budget.
	minSweepPoints = 20
	// maxSweepHParams and maxHParamText bound what the run table holds of
	// the hyperparameters read from the logs.
	maxSweepHParams = 64
	maxHParamText   = 200
)

// bandText is a sweep tag's band formatted once, as appendSweepChart
// writes it: its columns (the steps, the counts N, then each quantile's
// values), each the text of its JSON array's elements with the commas
// between them, the text of element i ending at ends[i]. A round of
// sweepPage at fewer steps copies the elements it keeps, evenly spread
// (spread), rather than formatting them again: each element is written
// on its own, so the copy is the same bytes.
type bandText struct {
	cols [bandColumns]struct {
		text []byte
		ends []int
	}
}

// bandColumns counts a band's columns: steps, N and the quantiles.
const bandColumns = 2 + len(result.SweepQuantiles)

// newBandText formats band, its values as appendValue(v, f32) writes them.
func newBandText(band *result.SweepBand, f32 bool) *bandText {
	t := &bandText{}
	for c := range t.cols {
		col := &t.cols[c]
		n := len(band.Steps)
		if c >= 2 {
			n = len(band.Q[c-2])
		} else if c == 1 {
			n = len(band.N)
		}
		col.ends = make([]int, n)
		for i := range n {
			if i > 0 {
				col.text = append(col.text, ',')
			}
			switch c {
			case 0:
				col.text = appendInt(col.text, band.Steps[i])
			case 1:
				col.text = appendInt(col.text, int64(band.N[i]))
			default:
				col.text = appendBandValue(col.text, band.Q[c-2][i], f32)
			}
			col.ends[i] = len(col.text)
		}
	}
	return t
}

// appendBandValue appends v as appendValue(v, f32) writes it. A band's
// quantiles mostly lie between two runs' values, so that few are float32s
// even when every run's values are: appendValue leaves those to strconv,
// whose search (of float32(v), at bitSize 32) was most of a band's cost,
// some 100 ns a value (the 8 M-point log's bands: 10 tags x 2,000 steps x
// 5 quantiles, formatted once a page). The float32 itself, when
// appendFloat32 takes it, is written by it: the same bytes, as strconv's
// 'f' form of a float32 of its range is appendFloat32's, and v is then
// well within the range AppendValue writes in the 'f' form (it chooses
// the form by v, not float32(v)).
func appendBandValue(b []byte, v float64, f32 bool) []byte {
	if f32 {
		if out, ok := appendFloat32(b, float64(float32(v))); ok {
			return out
		}
	}
	return appendValue(b, v, f32)
}

// appendColumn appends column c as a JSON array: at points steps at
// most, those spread keeps of the band's steps (thinBand's), every
// element when the band has no more steps.
func (t *bandText) appendColumn(b []byte, c, points int) []byte {
	col := &t.cols[c]
	b = append(b, '[')
	if n := len(t.cols[0].ends); n <= points {
		b = append(b, col.text...)
	} else {
		points = max(points, 2)
		for j := range points {
			i := j * (n - 1) / (points - 1) // spread's
			start := 0
			if j > 0 {
				b = append(b, ',')
			}
			if i > 0 {
				start = col.ends[i-1] + 1 // past the comma
			}
			b = append(b, col.text[start:col.ends[i]]...)
		}
	}
	return append(b, ']')
}

// finalValue is a series' final value: that of its last point (in step
// order, the line's), NaN when it has none.
func finalValue(s *model.Scalar) float64 {
	if len(s.Points) == 0 {
		return math.NaN()
	}
	return s.Points[len(s.Points)-1].Value
}

// sweepTag is what a chart of a sweep draws of one tag: the analysis'
// summary (result.SweepTag) and which way the tag improves.
type sweepTag struct {
	*result.SweepTag
	better direction // by the tag's name (betterOf); unknown is drawn as lower
	runs   int       // runs with the tag
	// band is the band's text, formatted by the first chart drawing it
	// (appendSweepChart) and copied from by the next rounds'.
	band *bandText
}

// sweepTags returns the sweep summaries of the first n tags.
func (r *Report) sweepTags(n int) []sweepTag {
	out := make([]sweepTag, n)
	for i, tv := range r.tags[:n] {
		out[i] = sweepTag{SweepTag: &r.an.Scalars.Sweep[i], better: betterOf(tv.tag), runs: len(tv.series)}
	}
	return out
}

// appendSweepChart appends the chart data of tag tv of a sweep: the chart
// data of appendChartData with only the extreme runs, each drawing at
// most points points (rank "low" or "high", index its row in the page's
// run table; thinned by sc.Thin, from what the analysis drew at
// sc.MaxPoints, when points is below it; an object of objs when it draws
// the same points), and "sweep": the band at points steps, which way the tag
// improves (the page loads any run's points from its bundle, named by the
// run table, under the tag). HTML-escaped as
// appendChartData's.
func appendSweepChart(b []byte, sc *result.Scalars, tv *tagView, st *sweepTag, points int, files bool, rowOf map[*model.Run]int, objs runObjects) []byte {
	return appendSweepChartOf(b, sc, tv, st, points, files, rowOf, objs, nil)
}

// appendSweepChartOf is appendSweepChart; with shared not nil, the bytes
// of the objects it takes from objs are left out of b and counted into
// *shared instead: the chart's data is then len(b) + *shared bytes long
// (measuredSweepRound).
func appendSweepChartOf(b []byte, sc *result.Scalars, tv *tagView, st *sweepTag, points int, files bool, rowOf map[*model.Run]int, objs runObjects, shared *int) []byte {
	b = append(b, `{"tag":`...)
	b = appendJSONString(b, tv.tag)
	b = append(b, `,"runs":[`...)
	first := true
	for _, end := range []struct {
		rank string
		ends []result.SweepEnd
	}{{"low", st.Low}, {"high", st.High}} {
		for _, e := range end.ends {
			if !first {
				b = append(b, ',')
			}
			first = false
			sv := tv.series[e.Series]
			draw, buckets := e.Draw, e.Buckets
			if points != sc.MaxPoints {
				draw, buckets = sc.Thin(sv.scalar.Points, points, draw, buckets)
			}
			// The run's object, reopened (its closing brace left out).
			if obj, ok := objs.of(sv, draw, buckets); !ok {
				b = appendChartRun(b, sv, draw, buckets, files)
				b = b[:len(b)-1]
			} else if shared != nil {
				*shared += len(obj) - 1
			} else {
				b = append(b, obj[:len(obj)-1]...)
			}
			b = append(b, `,"rank":"`...)
			b = append(b, end.rank...)
			b = append(b, `","index":`...)
			b = strconv.AppendInt(b, int64(rowOf[sv.run]), 10)
			b = append(b, '}')
		}
	}
	b = append(b, `],"sweep":{"runs":`...)
	b = strconv.AppendInt(b, int64(st.runs), 10)
	b = append(b, `,"non_finite":`...)
	b = strconv.AppendInt(b, int64(st.NonFinite), 10)
	b = append(b, `,"better":"`...)
	b = append(b, st.better.String()...)
	b = append(b, '"')
	b = append(b, `,"quantiles":[`...)
	for i, q := range result.SweepQuantiles {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, q, 'g', -1, 64)
	}
	if st.band == nil {
		st.band = newBandText(&st.Band, tv.series[0].scalar.Float32 && allFloat32(tv.series))
	}
	b = append(b, `],"steps":`...)
	b = st.band.appendColumn(b, 0, points)
	b = append(b, `,"n":`...)
	b = st.band.appendColumn(b, 1, points)
	b = append(b, `,"q":[`...)
	for c := 2; c < bandColumns; c++ {
		if c > 2 {
			b = append(b, ',')
		}
		b = st.band.appendColumn(b, c, points)
	}
	return append(b, "]}}"...)
}

func allFloat32(series []*seriesView) bool {
	for _, sv := range series {
		if !sv.scalar.Float32 {
			return false
		}
	}
	return true
}

// sessionHParams returns the hyperparameters of run's session: its own,
// or those of the nearest run above it that has one (TensorBoard's
// writers put a session's runs, train and validation, below it); within
// is the run's path below that run ("" for its own, "train").
func sessionHParams(run *model.Run, byName map[string]*model.Run) (hps map[string]model.HParamValue, within string) {
	for name := run.Name; ; {
		if x := byName[name]; x != nil && x.HParams != nil && len(x.HParams.Sessions) > 0 {
			return x.HParams.Sessions[0].Start.HParams, strings.TrimPrefix(run.Name[len(name):], "/")
		}
		parent := path.Dir(name)
		if parent == name || parent == "." || parent == "/" {
			return nil, ""
		}
		name = parent
	}
}

// appendRunTable appends the page's run table of a sweep, as JSON escaped
// for a <script> element: per run with scalars (rows in report order) its
// name, its scalar bundle in data/ (files only), each hyperparameter's
// value (numbers as numbers when every value of it is one; null where a
// run has none) and each drawn tag's final value (null where a run lacks
// the tag). hparams and finals choose what it holds: the hyperparameters and final
// values can be left out for a table that fits the budget.
func (r *Report) appendRunTable(b []byte, runs []*model.Run, drawn int, files, hparams, finals bool) []byte {
	b = append(b, `{"names":[`...)
	for i, run := range runs {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, run.Name)
	}
	b = append(b, ']')
	if files {
		b = append(b, `,"bundles":[`...)
		for i, run := range runs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, r.bundleOf[run])
		}
		b = append(b, ']')
	}
	b = append(b, `,"hparams":[`...)
	if hparams {
		byName := make(map[string]*model.Run, len(r.rep.Runs))
		for _, run := range r.rep.Runs {
			byName[run.Name] = run
		}
		values := make([]map[string]model.HParamValue, len(runs))
		within := make([]string, len(runs))
		var names []string
		seen := map[string]bool{}
		for i, run := range runs {
			values[i], within[i] = sessionHParams(run, byName)
			for name := range values[i] {
				if !seen[name] {
					seen[name] = true
					names = append(names, name)
				}
			}
		}
		slices.Sort(names)
		if len(names) > maxSweepHParams {
			names = names[:maxSweepHParams]
		}
		for ci, name := range names {
			if ci > 0 {
				b = append(b, ',')
			}
			numeric := true
			for _, v := range values {
				if hv, ok := v[name]; ok && hv.Kind != model.NumberValue {
					numeric = false
					break
				}
			}
			b = append(b, `{"name":`...)
			b = appendJSONString(b, truncateText(name))
			b = append(b, `,"values":[`...)
			for i, v := range values {
				if i > 0 {
					b = append(b, ',')
				}
				hv, ok := v[name]
				switch {
				case !ok:
					b = append(b, "null"...)
				case numeric && !math.IsNaN(hv.Number) && !math.IsInf(hv.Number, 0):
					b = strconv.AppendFloat(b, hv.Number, 'g', -1, 64)
				default:
					b = appendJSONString(b, truncateText(hv.String()))
				}
			}
			b = append(b, "]}"...)
		}
		// Where runs share their session's hyperparameters (train and
		// validation below it), the page keeps them apart in groups.
		if slices.ContainsFunc(within, func(w string) bool { return w != "" }) {
			b = append(b, `],"within":[`...)
			for i, w := range within {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendJSONString(b, truncateText(w))
			}
		}
	}
	b = append(b, `],"tags":[`...)
	if finals {
		row := make(map[*model.Run]int, len(runs))
		for i, run := range runs {
			row[run] = i
		}
		col := make([]*model.Scalar, len(runs))
		for ti, tv := range r.tags[:drawn] {
			if ti > 0 {
				b = append(b, ',')
			}
			clear(col)
			for _, sv := range tv.series {
				if i, ok := row[sv.run]; ok {
					col[i] = sv.scalar
				}
			}
			b = append(b, `{"tag":`...)
			b = appendJSONString(b, tv.tag)
			b = append(b, `,"finals":[`...)
			for i, s := range col {
				if i > 0 {
					b = append(b, ',')
				}
				if s == nil || len(s.Points) == 0 {
					b = append(b, "null"...)
				} else {
					b = appendValue(b, finalValue(s), s.Float32)
				}
			}
			b = append(b, "]}"...)
		}
	}
	return append(b, "]}"...)
}

// truncateText cuts s to maxHParamText bytes, on a rune boundary, with
// an ellipsis: hyperparameter names and values come from the logs.
func truncateText(s string) string {
	if len(s) <= maxHParamText {
		return s
	}
	cut := maxHParamText
	for cut > 0 && !utf8RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// sweepPage is the page of a sweep: per chart the band and the extreme
// runs of its tag, and the run table, within Options.MaxPageBytes: the
// table leaves out the hyperparameters, then the final values, then
// itself when it would take more than half of it; the charts draw fewer
// steps and points, down to minSweepPoints, then the page fewer charts.
// objs are the run objects of the every-run page it replaces (nil for
// none), which its charts share where they draw the same points. Its
// rounds' charts are built in buffers (nil: its own), as
// chartsOnAllCores'.
func (r *Report) sweepPage(runs []*model.Run, single bool, frame int, objs runObjects, buffers chan []byte) (*scalarsPage, error) {
	budget := r.opt.MaxPageBytes
	if budget < 0 {
		budget = math.MaxInt
	}
	files := !single
	p := &scalarsPage{Runs: len(r.rep.Runs), RunNames: "[]", Sweep: &sweepInfo{
		Runs: len(runs), Threshold: sweepPageRuns, Extremes: result.SweepEnds, MaxDrawn: sweepMaxDrawn, Single: single,
		ForBudget: len(runs) <= sweepPageRuns}}
	drawn := r.drawnTags()
	table := r.appendRunTable(nil, runs, drawn, files, true, true)
	if len(table) > budget/2 {
		table = r.appendRunTable(table[:0], runs, drawn, files, false, true)
		p.Sweep.TableNote = "The run selector cannot filter by hyperparameter: their values would pass the page's budget."
	}
	if len(table) > budget/2 {
		table = r.appendRunTable(table[:0], runs, drawn, files, false, false)
		p.Sweep.TableNote = "The run selector cannot filter by hyperparameter nor sort by final value: they would pass the page's budget."
	}
	if len(table) > budget/2 {
		table = []byte("null")
		what := "the runs' names"
		if files {
			what = "the runs' names and the names of their data files" // most of it: some 50 bytes a run
		}
		p.Sweep.TableNote = "The run selector lists no run: " + what + " alone would take more than half of the page's budget. Each chart draws the band and the extreme runs."
	}
	p.Sweep.Table = template.JS(string(table)) // escaped for a <script> element by appendRunTable
	rowOf := make(map[*model.Run]int, len(runs))
	for i, run := range runs {
		rowOf[run] = i
	}
	sts := r.sweepTags(drawn)
	points := r.an.Scalars.MaxPoints
	for {
		p.Groups = nil
		r.undrawn(p, drawn)
		tags := r.tags[:drawn]
		addCharts := func(data []string) {
			for i, tv := range tags {
				label := result.CountOf(sts[i].runs, "run", "runs")
				if sts[i].NonFinite > 0 {
					label += ", " + result.FormatCount(sts[i].NonFinite) + " ending non-finite"
				}
				p.add(tv, scalarChart{Tag: tv.tag, Points: label, Better: sts[i].better.String(), Data: template.JS(data[i])}) // escaped by appendSweepChart
			}
		}
		// A round whose every run object is one the every-run page built
		// is measured before it is built: past the budget (the 8 M-point
		// log's is, as its every-run page was), it is never built.
		lens, more, measured := r.measuredSweepRound(sts, tags, points, files, rowOf, objs, buffers)
		objs = more
		if measured {
			addCharts(make([]string, len(tags)))
			n := p.inlined(frame)
			for _, l := range lens {
				n += l
			}
			if n > budget && drawn > 0 {
				points, drawn = r.nextSweepRound(p, n, frame, len(table), budget, points, drawn)
				continue
			}
			p.Groups = nil
		}
		data := chartsOnAllCores(buffers, len(tags), func(b []byte, i int) []byte {
			b = appendSweepChart(b, &r.an.Scalars, tags[i], &sts[i], points, files, rowOf, objs)
			return r.appendBaselineChart(b, tags[i].tag)
		})
		addCharts(data)
		n := p.inlined(frame)
		if n <= budget || drawn == 0 {
			break
		}
		points, drawn = r.nextSweepRound(p, n, frame, len(table), budget, points, drawn)
	}
	return p, nil
}

// nextSweepRound returns the points and drawn tags of the round after one
// whose page inlined n bytes, past budget, frame the bytes around what it
// inlines and table its run table's: fewer points, down to
// minSweepPoints, then fewer charts.
func (r *Report) nextSweepRound(p *scalarsPage, n, frame, table, budget, points, drawn int) (int, int) {
	// Scale down by what passes, with a tenth of room: the sizes of a
	// chart's data grow about linearly with its points.
	room := max(budget-frame-table, 0)
	used := max(n-frame-table, 1)
	if points > minSweepPoints {
		points = max(minSweepPoints, int(float64(points)*float64(room)/float64(used)*0.9))
		p.Sweep.Points, p.Sweep.Budget = result.FormatCount(points), fmtBytes(r.opt.MaxPageBytes)
		return points, drawn
	}
	return points, min(drawn-1, int(float64(drawn)*float64(room)/float64(used)*0.9))
}

// measuredSweepRound returns the lengths of the data of the charts of
// tags at points (appendSweepChart, then the baseline's), when objs are
// the every-run page's objects (not nil) and points the analysis' at
// which they are drawn; ok is false otherwise, with nothing done. Such a
// round was built whole, each shared object copied into its chart and
// the chart into a string, only for its size to send the page to the
// next round (the 8 M-point log's first round is past its budget, as its
// every-run page was): here each chart is built without its shared
// objects, which are counted. The objects the every-run page did not
// build (it stops past its budget) are, into more, objs with them: the
// round built after all when it fits takes them from there, formatting
// none twice. Its charts are built in buffers (nil: its own).
func (r *Report) measuredSweepRound(sts []sweepTag, tags []*tagView, points int, files bool, rowOf map[*model.Run]int, objs runObjects, buffers chan []byte) (lens []int, more runObjects, ok bool) {
	sc := &r.an.Scalars
	if objs == nil || points != sc.MaxPoints {
		return nil, objs, false
	}
	lens = make([]int, len(tags))
	built := make([]map[*seriesView]string, len(tags))
	if buffers == nil {
		buffers = make(chan []byte, runtime.GOMAXPROCS(0))
	}
	parallel(len(tags), func(i int) {
		var b []byte
		select {
		case b = <-buffers:
		default:
		}
		tv := tags[i]
		mine := runObjects{} // the objects of the chart's runs
		for _, ends := range [][]result.SweepEnd{sts[i].Low, sts[i].High} {
			for _, e := range ends {
				sv := tv.series[e.Series]
				if obj, ok := objs.of(sv, e.Draw, e.Buckets); ok {
					mine[sv] = obj
				} else if sv.drawsItsOwn(e.Draw, e.Buckets) {
					if built[i] == nil {
						built[i] = map[*seriesView]string{}
					}
					b = appendChartRun(b[:0], sv, e.Draw, e.Buckets, files)
					mine[sv] = string(b)
					built[i][sv] = mine[sv]
				}
			}
		}
		shared := 0
		b = appendSweepChartOf(b[:0], sc, tv, &sts[i], points, files, rowOf, mine, &shared)
		b = r.appendBaselineChart(b, tv.tag)
		lens[i] = len(b) + shared
		select {
		case buffers <- b:
		default:
		}
	})
	more = objs
	for _, m := range built {
		if m != nil && len(more) == len(objs) {
			more = maps.Clone(objs)
		}
		maps.Copy(more, m)
	}
	return lens, more, true
}
