package render

import (
	"cmp"
	"fmt"
	"html/template"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// hparamsPage is what templates/hparams.html draws: a sortable table of
// the sessions of every run, a column per hyperparameter and metric, and
// the same data for the parallel-coordinates chart (assets/hparams.js).
type hparamsPage struct {
	HParams []string // column names, declared ones first
	Metrics []string
	Rows    []hparamsRow
	Data    template.JS
	Note    string // why the chart draws nothing, when its data cannot be encoded
	Cut     string // what of the sessions and columns the page leaves out, over its budgets
	// Paged is set past hparamsTableRows sessions: the table has no rows
	// in the markup, assets/hparams.js draws a page of them at a time
	// from Data.
	Paged bool
}

// hparamsTableRows is the sessions past which the table is drawn a page
// at a time from the page's data rather than written whole: a row is
// some 60 bytes a cell, written twice over (cell and data), and the
// browser lays out every row; 10,000 sessions of 9 columns made a 7.8 MB
// page.
const hparamsTableRows = 500

// hparamsPageJSON is the page's data: data/hparams.json's without the
// metrics' steps, which the page does not show.
type hparamsPageJSON struct {
	HParams  []hparamsColumn      `json:"hparams"`
	Metrics  []hparamsColumn      `json:"metrics"`
	Sessions []hparamsPageSession `json:"sessions"`
	Omitted  *hparamsOmitted      `json:"omitted,omitempty"`
}

type hparamsPageSession struct {
	Run     string `json:"run"`
	Group   string `json:"group,omitempty"`
	Status  string `json:"status"`
	HParams []any  `json:"hparams"`
	Metrics []any  `json:"metrics"`
}

// pageJSON encodes j's first n sessions for the page.
func (j *hparamsJSON) pageJSON(n int) (template.JS, error) {
	p := hparamsPageJSON{HParams: j.HParams, Metrics: j.Metrics, Omitted: j.Omitted, Sessions: make([]hparamsPageSession, 0, n)}
	for _, s := range j.Sessions[:n] {
		p.Sessions = append(p.Sessions, hparamsPageSession{s.Run, s.Group, s.Status, s.HParams, s.Metrics})
	}
	return scriptJSON(p)
}

type hparamsRow struct {
	Run, Group, Status string
	HParams, Metrics   []hparamsCell // in column order
}

type hparamsCell struct {
	Text string // "" when the session has no value
	Sort string // data-sort: numbers sort as numbers
	Num  bool
}

// hparamsJSON is the page's chart data and data/hparams.json: the columns
// with their kinds, and per session its values by column ("null" when it
// has none).
type hparamsJSON struct {
	HParams  []hparamsColumn  `json:"hparams"`
	Metrics  []hparamsColumn  `json:"metrics"`
	Sessions []hparamsSession `json:"sessions"`
	// Omitted counts what the budgets left out (nil when nothing).
	Omitted *hparamsOmitted `json:"omitted,omitempty"`
}

// hparamsOmitted counts the columns and sessions of the logs that the page
// or data/hparams.json leaves out over its budgets.
type hparamsOmitted struct {
	HParams  int `json:"hparams"`  // hyperparameter columns
	Metrics  int `json:"metrics"`  // metric columns
	Sessions int `json:"sessions"` // sessions, the last in run order
}

// Budgets of the HParams page and data/hparams.json. Columns and sessions
// come from the logs: every session may name keys of its own and an
// experiment may declare any number of metrics, and the table has a cell
// per session and column, so 250 sessions of 250 keys each made a 159 MB
// data file and 2.5 GB of memory. A real sweep has hundreds (rarely a few
// thousand) of sessions and tens of hyperparameters and metrics; the
// budgets keep such a sweep whole.
const (
	// maxHParamColumns and maxMetricColumns bound the columns of each
	// kind, on the page and in the data file: ten times the largest
	// sweeps' tens of hyperparameters and metrics, and as many axes as a
	// parallel-coordinates chart can still show. Past them, the columns
	// kept are those most sessions have a value for (ties by name).
	maxHParamColumns = 200
	maxMetricColumns = 200
	// maxDataCells bounds sessions x columns in data/hparams.json: a cell
	// is some 10 to 25 bytes of indented JSON and under 100 bytes of
	// memory while encoded, so the file stays under some 50 MB and takes
	// a second or two: 5,000 sessions at the full 400 columns, 40,000 at
	// 50. Past it, the last sessions in run order are left out.
	maxDataCells = 2_000_000
	// maxPageCells bounds sessions x columns on the page, where each cell
	// is a table cell (some 50 bytes) and its value in the chart's data,
	// and the browser lays the table out and draws a line per session:
	// a page of some 15 MB at most, 500 sessions at the full 400 columns,
	// 4,000 at 50.
	maxPageCells = 200_000
)

type hparamsColumn struct {
	Name string `json:"name"`
	// Numeric is set when every value of the column is a number (or
	// missing): the chart gives it a value axis, else a category axis.
	Numeric bool `json:"numeric"`
}

type hparamsSession struct {
	Run     string `json:"run"`
	Group   string `json:"group,omitempty"`
	Status  string `json:"status"`
	HParams []any  `json:"hparams"` // number, string or null, in column order
	Metrics []any  `json:"metrics"` // number (non-finite as a string; at its scalar's precision) or null
	// Steps are the metrics' steps, null for values written in the
	// session itself or missing.
	Steps []*int64 `json:"metric_steps"`
}

// hparamSessions lists every session of every run, in run order.
func (r *Report) hparamSessions() []hparamSession {
	var out []hparamSession
	for _, run := range r.rep.Runs {
		if run.HParams == nil {
			continue
		}
		for _, s := range run.HParams.Sessions {
			out = append(out, hparamSession{run, s})
		}
	}
	return out
}

type hparamSession struct {
	run *model.Run
	s   *model.Session
}

func (r *Report) hasHParams() bool { return r.anyRun(hasSessions) }

func hasSessions(run *model.Run) bool { return run.HParams != nil && len(run.HParams.Sessions) > 0 }

// hparamColumns returns the hyperparameter and metric names of the
// sessions: those the experiments declare, in their order, then the
// others sorted; at most maxHParamColumns and maxMetricColumns of them
// (see keepColumns), with how many of each were left out.
func (r *Report) hparamColumns(sessions []hparamSession) (hps, metrics []string, cutH, cutM int) {
	var h, m columns
	for _, run := range r.rep.Runs {
		if run.HParams == nil || run.HParams.Experiment == nil {
			continue
		}
		for _, x := range run.HParams.Experiment.HParams {
			h.add(x.Name)
		}
		for _, x := range run.HParams.Experiment.Metrics {
			m.add(x.Key())
		}
	}
	var moreH, moreM []string
	for _, hs := range sessions {
		moreH = slices.AppendSeq(moreH, maps.Keys(hs.s.Start.HParams))
		moreM = slices.AppendSeq(moreM, maps.Keys(hs.s.Metrics))
	}
	slices.Sort(moreH)
	slices.Sort(moreM)
	for _, n := range moreH {
		h.add(n)
	}
	for _, n := range moreM {
		m.add(n)
	}
	hps = keepColumns(h.names, maxHParamColumns, func(count func(string)) {
		for _, hs := range sessions {
			for k := range hs.s.Start.HParams {
				count(k)
			}
		}
	})
	metrics = keepColumns(m.names, maxMetricColumns, func(count func(string)) {
		for _, hs := range sessions {
			for k := range hs.s.Metrics {
				count(k)
			}
		}
	})
	return hps, metrics, len(h.names) - len(hps), len(m.names) - len(metrics)
}

// keepColumns returns names if there are at most limit of them, else the
// limit of them that most sessions have a value for, ties broken by name
// (so the choice is the same whatever order maps choose), in the order of
// names. each calls count with every column name of every session.
func keepColumns(names []string, limit int, each func(count func(string))) []string {
	if len(names) <= limit {
		return names
	}
	n := make(map[string]int, len(names))
	each(func(k string) { n[k]++ })
	ranked := slices.Clone(names)
	slices.SortFunc(ranked, func(a, b string) int {
		if c := cmp.Compare(n[b], n[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	keep := make(map[string]bool, limit)
	for _, name := range ranked[:limit] {
		keep[name] = true
	}
	return slices.DeleteFunc(slices.Clone(names), func(name string) bool { return !keep[name] })
}

// sessionBudget is how many sessions fit in cells at cols columns.
func sessionBudget(cells, cols int) int {
	return cells / max(cols, 1)
}

// columns is a list of column names without repeats, in the order added.
type columns struct {
	names []string
	seen  map[string]bool
}

func (c *columns) add(name string) {
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	if !c.seen[name] {
		c.seen[name] = true
		c.names = append(c.names, name)
	}
}

// hparamsModel builds the data of the table, the chart or the data file:
// the columns within their budgets, and the first sessions (in run order)
// whose cells fit in cells.
func (r *Report) hparamsModel(cells int) (hparamsJSON, []hparamSession) {
	sessions := r.hparamSessions()
	hps, metrics, cutH, cutM := r.hparamColumns(sessions)
	cutS := 0
	if n := sessionBudget(cells, len(hps)+len(metrics)); len(sessions) > n {
		cutS, sessions = len(sessions)-n, sessions[:n]
	}
	j := hparamsJSON{HParams: []hparamsColumn{}, Metrics: []hparamsColumn{}, Sessions: []hparamsSession{}}
	if cutH+cutM+cutS > 0 {
		j.Omitted = &hparamsOmitted{HParams: cutH, Metrics: cutM, Sessions: cutS}
	}
	for _, n := range hps {
		numeric := true
		for _, hs := range sessions {
			if v, ok := hs.s.Start.HParams[n]; ok && v.Kind != model.NumberValue {
				numeric = false
			}
		}
		j.HParams = append(j.HParams, hparamsColumn{n, numeric})
	}
	for _, n := range metrics {
		j.Metrics = append(j.Metrics, hparamsColumn{n, true})
	}
	// A metric is printed at the precision of the scalar it came from.
	float32Tag := map[string]map[string]bool{} // run -> tag -> Float32
	for _, run := range r.rep.Runs {
		for _, sc := range run.Scalars {
			if float32Tag[run.Name] == nil {
				float32Tag[run.Name] = map[string]bool{}
			}
			float32Tag[run.Name][sc.Tag] = sc.Float32
		}
	}
	// The search by suffix passes over the run's tags: remembered per
	// run and key, it is made once per column rather than once per cell.
	type runKey struct{ run, key string }
	known := map[runKey]bool{}
	isFloat32 := func(m model.MetricValue, key string) bool {
		tags := float32Tag[m.Run]
		if f, ok := tags[key]; ok {
			return f
		}
		if f, ok := known[runKey{m.Run, key}]; ok {
			return f
		}
		f := false
		for tag, f32 := range tags { // the key is the tag behind its group
			if strings.HasSuffix(key, "/"+tag) {
				f = f32
				break
			}
		}
		known[runKey{m.Run, key}] = f
		return f
	}
	for _, hs := range sessions {
		s := hparamsSession{Run: hs.run.Name, Group: hs.s.Start.GroupName, Status: "unknown",
			HParams: make([]any, len(hps)), Metrics: make([]any, len(metrics)), Steps: make([]*int64, len(metrics))}
		if hs.s.End != nil {
			s.Status = hs.s.End.Status
		}
		for i, n := range hps {
			v, ok := hs.s.Start.HParams[n]
			switch {
			case !ok || v.Kind == model.NullValue:
			case v.Kind == model.NumberValue:
				s.HParams[i] = summary.Scalar{V: v.Number}
			default:
				s.HParams[i] = v.String()
			}
		}
		for i, n := range metrics {
			if m, ok := hs.s.Metrics[n]; ok {
				s.Metrics[i] = summary.Scalar{V: m.Value, F32: m.Run != "" && isFloat32(m, n)}
				if m.Run != "" {
					s.Steps[i] = &m.Step
				}
			}
		}
		j.Sessions = append(j.Sessions, s)
	}
	return j, sessions
}

func (r *Report) hparamsPage() (*hparamsPage, error) {
	j, _ := r.hparamsModel(maxPageCells)
	p := &hparamsPage{Paged: len(j.Sessions) > hparamsTableRows}
	// The page's data within the page budget (a share of it left to the
	// layout, the navigation and the run names every page carries): past
	// it, the first sessions that fit, in run order.
	p.Data = "null"
	n := len(j.Sessions)
	data, err := j.pageJSON(n)
	budget := r.maxPageBytes() - r.maxPageBytes()/5
	for err == nil && len(data) > budget && n > 0 {
		n = n * budget / len(data) * 95 / 100
		data, err = j.pageJSON(n)
	}
	if err != nil {
		p.Note = "The chart cannot be drawn: " + err.Error()
	} else {
		p.Data = data
	}
	if cut := len(j.Sessions) - n; cut > 0 {
		if j.Omitted == nil {
			j.Omitted = &hparamsOmitted{}
		}
		j.Omitted.Sessions += cut
		j.Sessions = j.Sessions[:n]
		if err == nil {
			p.Data, err = j.pageJSON(n) // with the count of sessions left out
			if err != nil {
				p.Data, p.Note = "null", "The chart cannot be drawn: "+err.Error()
			}
		}
	}
	p.Cut = hparamsCutNote(j.Omitted, len(j.HParams)+len(j.Metrics), len(j.Sessions))
	p.HParams, p.Metrics = hparamsHeads(j.HParams, j.Metrics)
	cell := func(v any) hparamsCell {
		switch x := v.(type) {
		case nil:
			return hparamsCell{}
		case summary.Scalar:
			bits := 64
			if x.F32 {
				bits = 32
			}
			sort := "" // NaN sorts last, with the empty cells
			if !math.IsNaN(x.V) {
				sort = strconv.FormatFloat(x.V, 'g', -1, bits)
			}
			return hparamsCell{Text: fmtValue(x.V), Sort: sort, Num: true}
		case string:
			return hparamsCell{Text: x, Sort: x}
		}
		return hparamsCell{}
	}
	for _, s := range j.Sessions {
		if p.Paged {
			break
		}
		row := hparamsRow{Run: s.Run, Group: s.Group, Status: s.Status}
		for _, v := range s.HParams {
			row.HParams = append(row.HParams, cell(v))
		}
		for _, v := range s.Metrics {
			row.Metrics = append(row.Metrics, cell(v))
		}
		p.Rows = append(p.Rows, row)
	}
	return p, nil
}

// hparamsCutNote says what the page leaves out over its budgets, "" when
// nothing; cols and sessions are what it shows.
// hparamsHeads returns the table's column heads: the columns' names, and
// their kind where a hyperparameter and a metric share a name (the "loss"
// function chosen and the "loss" reached), as assets/hparams.js labels
// its axes.
func hparamsHeads(hps, metrics []hparamsColumn) (h, m []string) {
	names := make(map[string]bool, len(hps))
	for _, c := range hps {
		names[c.Name] = true
	}
	both := map[string]bool{}
	for _, c := range metrics {
		if names[c.Name] {
			both[c.Name] = true
		}
	}
	head := func(name, kind string) string {
		if both[name] {
			return name + " (" + kind + ")"
		}
		return name
	}
	for _, c := range hps {
		h = append(h, head(c.Name, "hparam"))
	}
	for _, c := range metrics {
		m = append(m, head(c.Name, "metric"))
	}
	return h, m
}

func hparamsCutNote(o *hparamsOmitted, cols, sessions int) string {
	if o == nil {
		return ""
	}
	var parts []string
	if o.HParams > 0 {
		parts = append(parts, fmt.Sprintf("%s hyperparameter columns (at most %d are shown)", result.FormatCount(o.HParams), maxHParamColumns))
	}
	if o.Metrics > 0 {
		parts = append(parts, fmt.Sprintf("%s metric columns (at most %d are shown)", result.FormatCount(o.Metrics), maxMetricColumns))
	}
	s := ""
	if len(parts) > 0 {
		s = "This page leaves out " + strings.Join(parts, " and ") + ": it keeps the columns most sessions have a value for. "
	}
	if o.Sessions > 0 {
		s += fmt.Sprintf("It shows the first %s sessions of %s in run order, to keep the table under %s cells at %d columns and the page under its byte budget. ",
			result.FormatCount(sessions), result.FormatCount(sessions+o.Sessions), result.FormatCount(maxPageCells), cols)
	}
	all := sessions + o.Sessions
	inData := min(all, sessionBudget(maxDataCells, cols))
	if inData < all {
		return s + fmt.Sprintf("data/hparams.json holds the same columns and the first %s sessions.", result.FormatCount(inData))
	}
	return s + "data/hparams.json holds the same columns and every session."
}

// hparamsData returns data/hparams.json: the columns and every session's
// values (see hparamsJSON).
func (r *Report) hparamsData(emit func(file) error) (*pageData, error) {
	j, sessions := r.hparamsModel(maxDataCells)
	d := &pageData{category: "hparams", index: map[string]map[string]string{}}
	if o := j.Omitted; o != nil {
		d.note("", "", fmt.Errorf("data/hparams.json leaves out %d hyperparameter and %d metric columns (at most %d and %d are kept: those most sessions have a value for) and the last %d sessions (at most %s cells of sessions x columns)",
			o.HParams, o.Metrics, maxHParamColumns, maxMetricColumns, o.Sessions, result.FormatCount(maxDataCells)))
	}
	b, err := marshalIndent(j)
	if err != nil {
		d.note("", "", fmt.Errorf("data/hparams.json not written: %w", err))
		return d, nil
	}
	if err := emit(file{"data/hparams.json", append(b, '\n')}); err != nil {
		return nil, err
	}
	if err := emit(file{hparamsCSVFile, hparamsCSV(j)}); err != nil {
		return nil, err
	}
	for _, hs := range sessions {
		d.add(hs.run.Name, "sessions", "hparams.json")
	}
	return d, nil
}
