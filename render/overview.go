package render

import (
	"fmt"
	"html/template"
	"math"
	"net/url"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// overviewPage is what templates/index.html draws.
type overviewPage struct {
	// Notes is the author's notes (Options.Notes), rendered.
	Notes     template.HTML
	Logdirs   []model.Logdir
	Runs      []runRow
	Metrics   []metricRow
	Warnings  []warningRow
	NumPoints int
	NumTags   int
	NumFiles  int
	// LogFiles is set when Visdom's files are among the files counted,
	// which are then not all event files.
	LogFiles bool
	// Contents links every other page with what it shows.
	Contents []contentsRow
	// MetricsCut says how many series the key-metrics table leaves out,
	// when it does.
	MetricsCut string
	// Skipped names the files skipped or read in part, and NotDrawn the
	// data no page draws yet (templates/index.html's "overview-files").
	Skipped  skippedList
	NotDrawn notDrawn
	// Restarts accounts for the runs that restarted, nil when none did.
	Restarts *restartsSection
	// Gates are the verdicts of --fail-on, failed first; Baseline
	// compares with --baseline, nil without one.
	Gates    []gateRow
	Baseline *baselineSection
	// Anomalies are what internal/analysis/anomaly found, the first
	// overviewAnomalyRows of them; NumAnomalies counts them all.
	Anomalies    []anomalyRow
	NumAnomalies int
	// Graphs lists the first overviewGraphRows graphs of the runs with
	// their counts; GraphsMore says how many more there are.
	Graphs     []overviewGraph
	GraphsMore int
	// NumRuns counts the runs: Runs is empty for a sweep, whose runs
	// table assets/overview.js draws from Sweep's data.
	NumRuns int
	// Sweep is the summary of a sweep (more than sweepOverviewRuns runs),
	// nil otherwise; SweepError says why it could not be built.
	Sweep      *sweepSection
	SweepError string
	// WarningsMore counts the warnings past the first overviewWarningRows,
	// NumWarnings all of them.
	WarningsMore, NumWarnings int
}

// overviewWarningRows bounds the warnings the overview lists: collect
// bounds those of each file, but a sweep has thousands of files.
// summary.json lists them all.
const overviewWarningRows = 500

// overviewGraphRows bounds the graphs the overview lists; summary.json and
// `trainreport inspect` list them all.
const overviewGraphRows = 50

// overviewGraph is a graph in the overview's list, linked to its view.
type overviewGraph struct {
	Run, Label, Href string
	Nodes, Edges     int
}

// overviewMetricRows bounds the rows of the overview's key-metrics table,
// a row per (tag, run) series with its sparkline: 100,000 of them made a
// 60 MB page. The first series, by tag and then run, are shown;
// summary.json holds them all.
const overviewMetricRows = 5_000

// contentsRow is one page in the overview's list of contents.
type contentsRow struct {
	Title, Href string
	countLine
}

// countLine is what the overview's list of pages says of a page: N of
// Unit in Runs runs.
type countLine struct {
	N, Runs int
	Unit    string // what N counts, in the singular: "tag", "session"
}

// countTags counts, for a page, the distinct tags it shows and the runs
// that have them: the tags of its kinds with values kept.
func countTags(r *Report, kinds []model.Kind) countLine {
	c := countLine{Unit: "tag"}
	seen := map[string]bool{}
	for _, run := range r.rep.Runs {
		has := false
		for _, ti := range run.Tags {
			if slices.Contains(kinds, ti.Kind) && ti.Count > 0 {
				seen[ti.Tag], has = true, true
			}
		}
		if has {
			c.Runs++
		}
	}
	c.N = len(seen)
	return c
}

// countSessions counts the hparams sessions and the runs that have them:
// the tags of the hparams plugin are its own, not what the page shows.
func countSessions(r *Report, _ []model.Kind) countLine {
	c := countLine{Unit: "session"}
	for _, run := range r.rep.Runs {
		if hasSessions(run) {
			c.N += len(run.HParams.Sessions)
			c.Runs++
		}
	}
	return c
}

type runRow struct {
	Name, Logdir, Path   string
	Files                int
	Badges               []badge
	FirstStep, LastStep  string
	Start, End, Duration string
	DurationSeconds      float64
	Warnings             int
	Restarts             int
	Attempts             int // when the run restarted
}

type badge struct {
	Text, Class, Title string
}

type metricRow struct {
	Tag, Run                   string
	Points, NonFinite          int
	Last, Min, Max             string
	LastStep, MinStep, MaxStep int64
	LastSort, MinSort, MaxSort float64
	LastBad                    bool
	Spark                      template.HTML
}

type warningRow struct {
	Run  string
	Text string
}

func (r *Report) overviewPage(single bool) *overviewPage {
	p := &overviewPage{Notes: r.notesHTML(), Logdirs: r.rep.Logdirs, NumTags: len(r.tags), NumRuns: len(r.rep.Runs),
		Skipped: skippedFiles(r.rep), NotDrawn: notDrawnOf(r.an.Undrawn)}
	sweep, err := r.sweepSection(single)
	if err != nil {
		p.SweepError = err.Error()
	}
	p.Sweep = sweep
	// addWarning lists a warning, the first overviewWarningRows of them.
	addWarning := func(w warningRow) {
		if len(p.Warnings) == overviewWarningRows {
			p.WarningsMore++
			return
		}
		p.Warnings = append(p.Warnings, w)
	}
	for _, pg := range r.pages() {
		if pg.count == nil || !pg.isListed(r) {
			continue
		}
		href := pg.file()
		if single {
			href = "#page=" + pg.name
		}
		p.Contents = append(p.Contents, contentsRow{Title: pg.title, Href: href, countLine: pg.count(r, pg.kinds)})
	}
	for _, run := range r.rep.Runs {
		for i, gc := range r.graphCounts(run) {
			if len(p.Graphs) == overviewGraphRows {
				p.GraphsMore++
				continue
			}
			g := run.Graphs[i]
			href := "graphs.html#graph=" + url.QueryEscape(dataFile("graphs", run.Name, graphKey(g)))
			if single {
				href = "#page=graphs&graph=" + url.QueryEscape(dataFile("graphs", run.Name, graphKey(g)))
			}
			if gc.Nodes == 0 {
				// Nothing to see: a link would lead to an empty drawing.
				href = ""
			}
			p.Graphs = append(p.Graphs, overviewGraph{Run: run.Name, Label: graphLabel(g), Href: href, Nodes: gc.Nodes, Edges: gc.Edges})
		}
	}
	points := 0
	for _, w := range r.rep.Warnings {
		addWarning(warningRow{Text: w.String()})
	}
	p.LogFiles = hasVisdom(r.rep)
	for _, run := range r.rep.Runs {
		row := runRow{Name: run.Name, Logdir: run.Logdir, Path: run.Path, Files: len(run.LogFiles()),
			Warnings: len(run.Warnings), Restarts: run.Restarts, Attempts: len(run.Attempts)}
		p.NumFiles += len(run.LogFiles())
		status := map[string]int{}
		for _, f := range run.LogFiles() {
			status[f.Status]++
		}
		for _, s := range []string{"ok", "empty", "profile-empty", "truncated", "damaged", "lfs-pointer"} {
			if n := status[s]; n > 0 {
				cls := "bad"
				switch s {
				case "ok":
					cls = "ok"
				case "empty", "profile-empty":
					cls = ""
				}
				row.Badges = append(row.Badges, badge{Text: fmt.Sprintf("%d %s", n, s), Class: cls, Title: fileStatusHelp[s]})
			}
		}
		if run.HasEvents {
			row.FirstStep, row.LastStep = fmt.Sprint(run.FirstStep), fmt.Sprint(run.LastStep)
			row.Start, row.End = fmtTime(run.Start), fmtTime(run.End)
			row.DurationSeconds = sortable(run.End - run.Start) // +Inf for garbage wall times
			row.Duration = fmtDuration(run.End - run.Start)
		}
		if sweep == nil {
			p.Runs = append(p.Runs, row)
		}
		for _, w := range run.Warnings {
			addWarning(warningRow{Run: run.Name, Text: w.String()})
		}
	}
	series := 0
	for _, tv := range r.tags {
		for _, sv := range tv.series {
			st := sv.stats
			points += st.Count
			series++
			if sweep != nil || len(p.Metrics) == overviewMetricRows {
				continue
			}
			m := metricRow{Tag: tv.tag, Run: sv.run.Name, Points: st.Count, NonFinite: st.NonFinite,
				Last: fmtValue(st.Last.Value), LastStep: st.Last.Step, LastSort: sortable(st.Last.Value),
				LastBad: math.IsNaN(st.Last.Value) || math.IsInf(st.Last.Value, 0),
				Spark:   sparkline(sv)}
			if st.HasFinite {
				m.Min, m.MinStep, m.MinSort = fmtValue(st.Min.Value), st.Min.Step, st.Min.Value
				m.Max, m.MaxStep, m.MaxSort = fmtValue(st.Max.Value), st.Max.Step, st.Max.Value
			}
			p.Metrics = append(p.Metrics, m)
		}
	}
	p.NumPoints = points
	p.NumWarnings = len(p.Warnings) + p.WarningsMore
	p.Restarts = r.restarts()
	p.Gates, p.Baseline = r.gateRows(), r.baselineSection()
	p.Anomalies, p.NumAnomalies = r.anomalyRows(single, overviewAnomalyRows), len(r.anomalies())
	if sweep == nil && series > len(p.Metrics) {
		p.MetricsCut = fmt.Sprintf("This table shows the first %s of %s series, by tag and then run; summary.json holds the key metrics of all of them.",
			result.FormatCount(len(p.Metrics)), result.FormatCount(series))
	}
	return p
}

var fileStatusHelp = map[string]string{
	"ok":            "read to the end",
	"empty":         "zero-byte file: nothing was written",
	"profile-empty": "profiler marker file, holds no summaries",
	"truncated":     "ends inside a record (still being written?): records before it were read",
	"damaged":       "holds corrupt records: they were skipped, see the warnings",
	"lfs-pointer":   "a Git LFS pointer stub, not the event file: run `git lfs pull`",
}

// sortable maps a value to a number tables can sort by, non-finite values
// first.
func sortable(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return -math.MaxFloat64
	}
	return v
}

// finiteSample returns the finite values of the series' drawn sample of
// about n points (sampleValues), in order, with their least and greatest.
func (sv *seriesView) finiteSample(n int) (vals []float64, lo, hi float64) {
	all := sv.sampleValues(n)
	vals = all[:0] // filtered in place: a value is written only once read
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range all {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		vals = append(vals, v)
		lo, hi = min(lo, v), max(hi, v)
	}
	return vals, lo, hi
}

// sparkline draws the series' finite values as a small inline SVG. Only
// numbers reach the markup.
func sparkline(sv *seriesView) template.HTML {
	vals, lo, hi := sv.finiteSample(80)
	if len(vals) < 2 {
		return ""
	}
	var b strings.Builder
	b.WriteString(`<svg class="spark" viewBox="0 0 100 20" width="100" height="20" preserveAspectRatio="none" aria-hidden="true"><polyline points="`)
	for i, v := range vals {
		y := 19 - 18*fraction(v, lo, hi) // 10, the middle, for a flat line
		fmt.Fprintf(&b, "%.1f,%.1f ", 100*float64(i)/float64(len(vals)-1), y)
	}
	b.WriteString(`"/></svg>`)
	return template.HTML(b.String())
}
