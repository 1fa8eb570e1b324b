package render

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strconv"

	"github.com/trainreport/trainreport/collect/model"
)

// This file builds the overview of a sweep: with more than
// sweepOverviewRuns runs, templates/index.html starts with how the runs
// ended and how each metric's final values spread, and its runs table is
// drawn by assets/overview.js a page of rows at a time from data files
// (data/overview/), so that the page's size does not grow with the runs.

// Bounds of the sweep overview.
const (
	// sweepOverviewRuns is the run count past which the overview is a
	// sweep's. Below it, the runs and key-metrics tables are written
	// whole, a row per run and per (tag, run) series with its sparkline
	// inline: some 700 bytes a series, 3.5 MB at 1,000 runs of 5 tags.
	sweepOverviewRuns = 200
	// sweepKeyTags bounds the scalar tags the sweep overview gives a
	// histogram and a column of the runs table: those whose direction is
	// known first (see orderedTags), then in tag order.
	sweepKeyTags = 8
	// sweepBins is the bins of each histogram of final values.
	sweepBins = 20
	// sweepNamed is how many best and worst runs each metric names.
	sweepNamed = 3
	// sparkChunkRuns is the runs of one sparkline data file: a page of
	// rows sorted by a metric touches runs anywhere in run order, so a
	// file holds few runs (some 30 KB at 5 tags).
	sparkChunkRuns = 100
	// rowChunkRuns is the runs of one file of the runs table's rows: the
	// page loads the first with the table (some 45 KB at 5 metrics) and
	// the others only to sort, filter or page past it, so that what the
	// overview loads first does not grow with the runs (a file of every
	// run was 8.8 MB at 100,000 runs; 200 files of rows now).
	rowChunkRuns = 500
	// sparkPoints is the points of a sweep's sparkline, and sparkLevels
	// the heights a point can have: each point is one character of
	// sparkAlphabet.
	sparkPoints = 40
	sparkLevels = 64
)

// sparkAlphabet codes a sparkline point's height, 0 (lowest) to 63: one
// character a point, safe in JSON and JavaScript strings.
const sparkAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"

// isSweep reports whether the overview is a sweep's.
func (r *Report) isSweep() bool { return len(r.rep.Runs) > sweepOverviewRuns }

// sweepSection is what templates/index.html draws of a sweep.
type sweepSection struct {
	Runs     int
	Statuses []statusCount // runs per status (runStatus), most first
	Tags     []lastValues
	// TagsCut counts the scalar tags left out of the histograms and the
	// table's columns (over sweepKeyTags).
	TagsCut int
	// Charts is the histograms' data for assets/overview.js.
	Charts template.JS
	// RowsScript names the runs table's data file under data/ (the
	// site); Inline holds the table and every sparkline instead (the
	// single file, which has no data/).
	RowsScript string
	Inline     template.JS
}

// lastValues is one metric's final values across the runs: a histogram of
// the finite ones and the best and worst runs.
type lastValues struct {
	Tag    string `json:"tag"`
	Better string `json:"better"` // "lower", "higher" or "" (see betterOf)
	// Runs counts the runs with the tag, NonFinite those whose last value
	// is not finite (not in the histogram).
	Runs      int `json:"runs"`
	NonFinite int `json:"nonfinite"`
	// Counts are sweepBins bins of (Hi-Lo)/sweepBins, the last closed;
	// Below and Above count the finite values outside [Lo, Hi] (see
	// histRange), and Min and Max are the extremes of all of them.
	Lo     float64     `json:"lo"`
	Hi     float64     `json:"hi"`
	Counts []int       `json:"counts"`
	Below  int         `json:"below"`
	Above  int         `json:"above"`
	Min    float64     `json:"min"`
	Max    float64     `json:"max"`
	Best   []rankedRun `json:"best"`
	Worst  []rankedRun `json:"worst"`
}

type rankedRun struct {
	Run   string `json:"run"`
	Value string `json:"value"`
}

// runStatus is what the sweep summary says of how a run ended: the end
// status of its last hparams session where one is written ("success",
// "failure", "running"), else what the build's checks found ("stopped
// early", "damaged files"), else "no status".
func runStatus(run *model.Run, flagged map[string]string) string {
	if run.HParams != nil {
		for i := len(run.HParams.Sessions) - 1; i >= 0; i-- {
			if e := run.HParams.Sessions[i].End; e != nil && e.Status != "" && e.Status != "unknown" {
				return e.Status
			}
		}
	}
	if s, ok := flagged[run.Name]; ok {
		return s
	}
	return "no status"
}

// runFlags maps run -> what the run anomalies say of its end: "stopped
// early" over "damaged files" when both hold.
func (r *Report) runFlags() map[string]string {
	out := map[string]string{}
	for _, a := range r.anomalies() {
		switch a.Rule {
		case "run.stopped_early":
			out[a.Run] = "stopped early"
		case "run.damaged_files":
			if out[a.Run] == "" {
				out[a.Run] = "damaged files"
			}
		}
	}
	return out
}

// runStatuses returns each run's status (runStatus) in run order, and the
// count of each, most frequent first (ties by name).
func (r *Report) runStatuses() ([]string, []statusCount) {
	flags := r.runFlags()
	each := make([]string, len(r.rep.Runs))
	n := map[string]int{}
	for i, run := range r.rep.Runs {
		each[i] = runStatus(run, flags)
		n[each[i]]++
	}
	var counts []statusCount
	for s, k := range n {
		counts = append(counts, statusCount{s, k})
	}
	slices.SortFunc(counts, func(a, b statusCount) int {
		if c := cmp.Compare(b.N, a.N); c != 0 {
			return c
		}
		return cmp.Compare(a.Status, b.Status)
	})
	return each, counts
}

// overviewTags are the tags the sweep overview shows (see sweepKeyTags) and
// how many it leaves out.
func (r *Report) overviewTags() ([]*tagView, int) {
	tags := r.orderedTags()
	if len(tags) > sweepKeyTags {
		return tags[:sweepKeyTags], len(tags) - sweepKeyTags
	}
	return tags, 0
}

// finalValues summarises tv's last values: the histogram and the best and
// worst runs, by the direction its name says (highest first when not
// known).
func finalValues(tv *tagView) lastValues {
	dir := betterOf(tv.tag)
	ranked, nonFinite := rankByLast(tv.series, dir)
	st := lastValues{Tag: tv.tag, Better: dir.String(), Runs: len(tv.series), NonFinite: nonFinite,
		Counts: make([]int, sweepBins), Best: []rankedRun{}, Worst: []rankedRun{}}
	if len(ranked) == 0 {
		return st
	}
	vals := make([]float64, len(ranked))
	for i, sv := range ranked {
		vals[i] = sv.stats.Last.Value
	}
	slices.Sort(vals)
	st.Min, st.Max = vals[0], vals[len(vals)-1]
	st.Lo, st.Hi = histRange(vals)
	for _, v := range vals {
		switch {
		case v < st.Lo:
			st.Below++
		case v > st.Hi:
			st.Above++
		default:
			st.Counts[binOf(v, st.Lo, st.Hi, sweepBins)]++
		}
	}
	named := func(sv *seriesView) rankedRun { return rankedRun{sv.run.Name, fmtValue(sv.stats.Last.Value)} }
	k := min(sweepNamed, len(ranked))
	for _, sv := range ranked[:k] {
		st.Best = append(st.Best, named(sv))
	}
	for i := len(ranked) - 1; i >= len(ranked)-k; i-- {
		st.Worst = append(st.Worst, named(ranked[i]))
	}
	return st
}

// histRange is the range a histogram of the sorted finite values bins:
// within Tukey's far fences (three interquartile ranges beyond the
// quartiles), so that a few diverged runs, whose last values are orders of
// magnitude off, do not squeeze the others into one bin; the values
// beyond are counted apart. When the fences hold every value it is the
// values' own range.
func histRange(sorted []float64) (lo, hi float64) {
	q1, q3 := quantile(sorted, 0.25), quantile(sorted, 0.75)
	iqr := q3 - q1
	lo, hi = max(sorted[0], q1-3*iqr), min(sorted[len(sorted)-1], q3+3*iqr)
	if !(hi > lo) { // most values equal: their own range
		return sorted[0], sorted[len(sorted)-1]
	}
	return lo, hi
}

// binOf is the bin of v among n equal bins over [lo, hi], the last one
// closed; every value is in one bin when lo == hi.
func binOf(v, lo, hi float64, n int) int {
	if !(hi > lo) {
		return 0
	}
	b := int(float64(n) * (v - lo) / (hi - lo))
	return min(max(b, 0), n-1)
}

// sweepSection builds the sweep's part of the overview; nil when the
// report is not a sweep.
func (r *Report) sweepSection(single bool) (*sweepSection, error) {
	if !r.isSweep() {
		return nil, nil
	}
	s := &sweepSection{Runs: len(r.rep.Runs)}
	_, s.Statuses = r.runStatuses()
	tags, cut := r.overviewTags()
	s.TagsCut = cut
	for _, tv := range tags {
		s.Tags = append(s.Tags, finalValues(tv))
	}
	var err error
	if s.Charts, err = scriptJSON(s.Tags); err != nil {
		return nil, fmt.Errorf("the histograms of final values: %w", err)
	}
	if !single {
		s.RowsScript = sweepRowsFile
		return s, nil
	}
	rows := r.sweepRows(len(r.rep.Runs), r.rowSource())
	cols, byRun := r.sweepColumns()
	sparks := make([][]byte, 0, r.sparkChunks())
	for k := range r.sparkChunks() {
		sparks = append(sparks, r.sparkChunk(k, cols, byRun))
	}
	b := append([]byte(`{"rows":`), rows...)
	b = append(b, `,"sparks":[`...)
	for k, c := range sparks {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, c...)
	}
	b = append(b, "]}"...)
	s.Inline = template.JS(closingTag.ReplaceAll(b, []byte(`<\/$1`)))
	return s, nil
}

// Data files of the sweep overview, under data/: the runs table with its
// first rowChunkRuns rows, the other rows rowChunkRuns each, and the
// sparklines a chunk of sparkChunkRuns runs (in run order) each.
const (
	sweepRowsFile      = "overview/runs.js"
	sweepRowChunksFile = "overview/runs-%04d.js"
	sweepSparksFile    = "overview/sparks-%04d.js"
)

func (r *Report) rowChunks() int {
	return (len(r.rep.Runs) + rowChunkRuns - 1) / rowChunkRuns
}

// sweepRows is the runs table's data (assets/overview.js) with the rows of
// runs [0, to): the metric columns and, per run in run order, [name,
// status, last step, duration in seconds, warnings, [last value per
// column]], a missing value null; when to leaves runs out, "total" counts
// them all and "rows_chunk" the rows of each file of rows (sweepRowChunk).
// Names are encoded by encoding/json, which escapes <, > and &.
func (r *Report) sweepRows(to int, rs *rowSource) []byte {
	b := []byte(`{"tags":[`)
	tags := rs.tags
	for i, tv := range tags {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, tv.tag)
	}
	b = append(b, `],"better":[`...)
	for i, tv := range tags {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, betterOf(tv.tag).String())
	}
	b = append(b, `],"chunk":`...)
	b = strconv.AppendInt(b, sparkChunkRuns, 10)
	if to < len(r.rep.Runs) {
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, int64(len(r.rep.Runs)), 10)
		b = append(b, `,"rows_chunk":`...)
		b = strconv.AppendInt(b, rowChunkRuns, 10)
	}
	b = append(b, `,"runs":`...)
	b = r.appendSweepRows(b, 0, to, rs)
	return append(b, '}')
}

// rowSource is what the rows of the runs table are made of, computed once
// for every file of rows: the metric columns, each with its series by run,
// and each run's status.
type rowSource struct {
	tags     []*tagView
	last     []map[*model.Run]*seriesView
	statuses []string
}

func (r *Report) rowSource() *rowSource {
	rs := &rowSource{}
	rs.tags, rs.last = r.sweepColumns()
	rs.statuses, _ = r.runStatuses()
	return rs
}

// sweepRowChunk is the rows of chunk k of the runs table (k >= 1; the first
// is in sweepRows): a JSON array of rows as sweepRows writes them.
func (r *Report) sweepRowChunk(k int, rs *rowSource) []byte {
	return r.appendSweepRows(nil, k*rowChunkRuns, min(len(r.rep.Runs), (k+1)*rowChunkRuns), rs)
}

// appendSweepRows appends the rows of runs [from, to) as a JSON array.
func (r *Report) appendSweepRows(b []byte, from, to int, rs *rowSource) []byte {
	tags, last, statuses := rs.tags, rs.last, rs.statuses
	b = append(b, '[')
	for i, run := range r.rep.Runs[from:to] {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n["...)
		b = appendJSONString(b, run.Name)
		b = append(b, ',')
		b = appendJSONString(b, statuses[from+i])
		if run.HasEvents {
			b = append(b, ',')
			b = strconv.AppendInt(b, run.LastStep, 10)
			b = append(b, ',')
			b = appendValue(b, math.Round(run.End-run.Start), false)
		} else {
			b = append(b, ",null,null"...)
		}
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(len(run.Warnings)), 10)
		b = append(b, ",["...)
		for k := range tags {
			if k > 0 {
				b = append(b, ',')
			}
			if sv := last[k][run]; sv != nil && sv.stats.Count > 0 {
				b = appendValue(b, sv.stats.Last.Value, sv.scalar.Float32)
			} else {
				b = append(b, "null"...)
			}
		}
		b = append(b, "]]"...)
	}
	return append(b, "\n]"...)
}

// sweepColumns are the tags of the runs table's metric columns and, for
// each, its series by run.
func (r *Report) sweepColumns() ([]*tagView, []map[*model.Run]*seriesView) {
	tags, _ := r.overviewTags()
	byRun := make([]map[*model.Run]*seriesView, len(tags))
	for i, tv := range tags {
		byRun[i] = make(map[*model.Run]*seriesView, len(tv.series))
		for _, sv := range tv.series {
			byRun[i][sv.run] = sv
		}
	}
	return tags, byRun
}

func (r *Report) sparkChunks() int {
	return (len(r.rep.Runs) + sparkChunkRuns - 1) / sparkChunkRuns
}

// sparkChunk is the sparklines of the runs of chunk k: per run, per metric
// column, its shape as a string of sparkAlphabet (sparkCode), null when the
// run lacks the tag or has under two finite points.
func (r *Report) sparkChunk(k int, tags []*tagView, byRun []map[*model.Run]*seriesView) []byte {
	runs := r.rep.Runs[k*sparkChunkRuns : min(len(r.rep.Runs), (k+1)*sparkChunkRuns)]
	b := []byte{'['}
	for i, run := range runs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n["...)
		for t := range tags {
			if t > 0 {
				b = append(b, ',')
			}
			code := ""
			if sv := byRun[t][run]; sv != nil {
				code = sparkCode(sv)
			}
			if code == "" {
				b = append(b, "null"...)
			} else {
				b = append(append(append(b, '"'), code...), '"')
			}
		}
		b = append(b, ']')
	}
	return append(b, "\n]"...)
}

// sparkCode is a series' sparkline: its drawn points thinned to about
// sparkPoints (extremes kept), the finite ones scaled from their minimum
// (0) to their maximum (63), a character of sparkAlphabet each; "" for
// fewer than two finite points. A flat series is all in the middle.
func sparkCode(sv *seriesView) string {
	vals, lo, hi := sv.finiteSample(sparkPoints)
	if len(vals) < 2 {
		return ""
	}
	code := make([]byte, len(vals))
	for i, v := range vals {
		code[i] = sparkAlphabet[int(math.Round(fraction(v, lo, hi)*(sparkLevels-1)))]
	}
	return string(code)
}

// overviewData writes the sweep overview's data files (nil when the
// report is not a sweep): the runs table and the sparkline chunks, as
// scripts calling trainreport.dataLoaded, which a page opened from file://
// loads on demand.
func (r *Report) overviewData(emit func(file) error) (*pageData, error) {
	if !r.isSweep() {
		return nil, nil
	}
	d := &pageData{category: "overview", index: map[string]map[string]string{}}
	rs := r.rowSource()
	rows := r.sweepRows(min(len(r.rep.Runs), rowChunkRuns), rs)
	if err := emit(file{"data/" + sweepRowsFile, dataScript(sweepRowsFile, len(rows), func(b []byte) []byte { return append(b, rows...) })}); err != nil {
		return nil, err
	}
	for k := 1; k < r.rowChunks(); k++ {
		name := fmt.Sprintf(sweepRowChunksFile, k)
		chunk := r.sweepRowChunk(k, rs)
		if err := emit(file{"data/" + name, dataScript(name, len(chunk), func(b []byte) []byte { return append(b, chunk...) })}); err != nil {
			return nil, err
		}
	}
	cols, byRun := rs.tags, rs.last
	for k := range r.sparkChunks() {
		name := fmt.Sprintf(sweepSparksFile, k)
		chunk := r.sparkChunk(k, cols, byRun)
		if err := emit(file{"data/" + name, dataScript(name, len(chunk), func(b []byte) []byte { return append(b, chunk...) })}); err != nil {
			return nil, err
		}
	}
	return d, nil
}
