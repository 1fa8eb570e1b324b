package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/summary"
)

// writeDataIndex writes data/index.json to w, mapping category -> run
// -> tag -> data file, with pages, the other pages' shares of data/: a
// run at a time, the bytes encoding/json writes of the whole dataIndex
// indented by one space, without holding it (at 100,000 runs the runs' category
// indexes and the encoding took 300 MB at once, the peak of a merge).
func (r *Report) writeDataIndex(w io.Writer, pages []*pageData) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	jw := jsonWriter{w: bw}
	// A run's entry once, the last run of a name's (as the map was
	// filled), with every page's tags of that name.
	var names []string
	byName := map[string]*model.Run{}
	for _, run := range r.rep.Runs {
		if _, ok := byName[run.Name]; !ok {
			names = append(names, run.Name)
		}
		byName[run.Name] = run
	}
	slices.Sort(names)
	var scalars *pageData
	var errs []dataNote
	var downsampled []downsampledNote
	categories := map[string]map[string]map[string]string{}
	for _, p := range pages {
		errs = append(errs, p.notes...)
		downsampled = append(downsampled, p.downsampled...)
		if p.category == scalarCategory {
			scalars = p
		} else {
			categories[p.category] = p.index
		}
	}
	jw.raw("{\n")
	jw.field("layout", DataLayout, false)
	jw.key("runs")
	jw.members(names, func(i int) any {
		run := byName[names[i]]
		return indexRun{Logdir: run.Logdir, Path: run.Path, Categories: runCategories(run.Name, pages)}
	})
	jw.raw(",\n")
	var scalarIndex, superseded map[string]map[string]string
	var bundles map[string]string
	if scalars != nil {
		scalarIndex, superseded, bundles = scalars.index, scalars.superseded, scalars.bundles
	}
	jw.key("scalar")
	if scalarIndex == nil {
		jw.raw("{}")
	} else {
		sortedMap(&jw, scalarIndex)
	}
	if len(superseded) > 0 {
		jw.raw(",\n")
		jw.key("superseded_scalar")
		sortedMap(&jw, superseded)
	}
	if len(bundles) > 0 {
		jw.raw(",\n")
		jw.key("scalar_bundles")
		sortedMap(&jw, bundles)
	}
	if len(categories) > 0 {
		jw.raw(",\n")
		jw.key("categories")
		jw.value(categories, 1)
	}
	if len(downsampled) > 0 {
		jw.raw(",\n")
		jw.key("downsampled")
		jw.elems(len(downsampled), func(i int) any { return downsampled[i] })
	}
	if len(errs) > 0 {
		jw.raw(",\n")
		jw.key("errors")
		jw.value(errs, 1)
	}
	jw.raw("\n}\n")
	if jw.err != nil {
		return jw.err
	}
	return bw.Flush()
}

// runCategories is the Tianshu category index of the run named run in
// data/index.json (indexRun.Categories): every page's tags of it, by
// tag group, a page with a section one level down; the scalar category
// always, empty when the run has no scalars.
func runCategories(run string, pages []*pageData) map[string]any {
	cats := map[string]any{scalarCategory: map[string][]string{}}
	for _, p := range pages {
		tags, ok := p.index[run]
		if !ok {
			continue
		}
		groups := map[string][]string{}
		for tag := range tags {
			g := tagGroup(tag)
			groups[g] = append(groups[g], tag)
		}
		for _, ts := range groups {
			slices.Sort(ts)
		}
		if p.section == "" {
			cats[p.category] = groups
			continue
		}
		sec, _ := cats[p.section].(map[string]any)
		if sec == nil {
			sec = map[string]any{}
			cats[p.section] = sec
		}
		sec[p.category] = groups
	}
	return cats
}

// scalarCategory names the scalars in data/index.json, where, as in
// Tianshu's, they have a member of their own ("scalar") beside the other
// categories ("categories").
const scalarCategory = "scalar"

// dataIndex is data/index.json. Paths are relative to the data directory.
type dataIndex struct {
	// Layout is the version of the data layout (DataLayout).
	Layout int `json:"layout"`
	// Runs maps each run to where it was read from and what it holds.
	Runs map[string]indexRun `json:"runs"`
	// Scalars maps run -> tag -> data file.
	Scalars map[string]map[string]string `json:"scalar"`
	// Superseded maps run -> tag -> the data file of the scalar points
	// that later attempts of the run superseded, for series that have any.
	Superseded map[string]map[string]string `json:"superseded_scalar,omitempty"`
	// Bundles maps each run with scalars to its scalar bundle, which
	// holds every scalar tag of the run (and their superseded points).
	Bundles map[string]string `json:"scalar_bundles,omitempty"`
	// Categories maps every other category ("histogram", "image", ...)
	// to run -> tag -> data file.
	Categories map[string]map[string]map[string]string `json:"categories,omitempty"`
	// Downsampled lists the series whose data file holds fewer points
	// than the logs because of the per-series cap.
	Downsampled []downsampledNote `json:"downsampled,omitempty"`
	// Errors lists the data files that could not be written, and why.
	Errors []dataNote `json:"errors,omitempty"`
}

type indexRun struct {
	Logdir string `json:"logdir"`
	Path   string `json:"path"`
	// Categories is the Tianshu category index of the run: category
	// ("scalar", "graph", ...) -> tag group -> tags, with media and
	// statistics one level down ({"media": {"image": {group: [tags]}}}).
	Categories map[string]any `json:"categories"`
}

type downsampledNote struct {
	Run   string `json:"run"`
	Tag   string `json:"tag"`
	Kept  int    `json:"kept"`
	Total int    `json:"total"`
}

// keptLen is how many points of pts a data file keeps: those at the
// indices idx, nil for all (result.ScalarView.Data).
// kept is how many points the series' data file keeps.
func (sv *seriesView) kept() int {
	if sv.data == nil {
		return sv.total
	}
	return len(sv.data)
}

func keptLen(idx []int, pts []model.Point) int {
	if idx == nil {
		return len(pts)
	}
	return len(idx)
}

// appendDataPoints appends the points of pts at the indices idx (nil: all
// of them; see result.ScalarView.Data), those a data file keeps of a line or of an
// attempt's superseded points, as [\n[wall_time, step, value],\n...\n].
func appendDataPoints(b []byte, pts []model.Point, idx []int, float32 bool) []byte {
	b = append(b, '[')
	n := keptLen(idx, pts)
	for i := range n {
		k := i
		if idx != nil {
			k = idx[i]
		}
		p := pts[k]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n["...)
		b = appendWallTime(b, p.WallTime)
		b = append(b, ',')
		b = strconv.AppendInt(b, p.Step, 10)
		b = append(b, ',')
		b = appendValue(b, p.Value, float32)
		b = append(b, ']')
	}
	return append(b, "\n]"...)
}

// dataScript is the script form of the data file name: a call handing
// what appendBody appends (a JSON array of ours) to the page's runtime
// under that name (see scalarFiles).
func dataScript(name string, sizeHint int, appendBody func([]byte) []byte) []byte {
	b := appendScriptHead(make([]byte, 0, 64+len(name)+sizeHint), name)
	b = appendBody(b)
	return append(b, ");\n"...)
}

// appendScriptHead appends the start of the script form of the data file
// name, up to its body.
func appendScriptHead(b []byte, name string) []byte {
	q, err := json.Marshal(name)
	if err != nil {
		panic(err) // a string always encodes
	}
	b = append(b, "window.trainreport&&window.trainreport.dataLoaded("...)
	b = append(b, q...)
	return append(b, ',')
}

// SummaryJSON returns summary.json.
func (r *Report) SummaryJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := r.WriteSummaryJSON(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteSummaryJSON writes summary.json to w a run at a time: the bytes
// encoding/json writes of the whole summary.JSON indented by one space,
// without holding it (at 100,000 runs the summary, its encoding and its
// indented copy took 600 MB at once, a third of a merge's peak).
func (r *Report) WriteSummaryJSON(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	sw := jsonWriter{w: bw}
	sw.raw("{\n")
	sw.field("title", r.opt.Title, false)
	sw.field("restarts", restartRuleName(r.rep), false)
	sw.key("runs")
	sw.elems(len(r.rep.Runs), func(i int) any { return r.summaryRun(r.rep.Runs[i]) })
	sw.raw(",\n")
	// A map's keys in order, as encoding/json writes them; a run's
	// metrics once, the last run of a name's (as the map was filled).
	var names []string
	byName := map[string]*model.Run{}
	for _, run := range r.rep.Runs {
		if len(runScalars(run)) == 0 {
			continue
		}
		if _, ok := byName[run.Name]; !ok {
			names = append(names, run.Name)
		}
		byName[run.Name] = run
	}
	slices.Sort(names)
	sw.key("metrics")
	sw.members(names, func(i int) any { return r.summaryMetrics(byName[names[i]]) })
	sw.raw(",\n")
	sw.field("warnings", summary.Warnings(r.rep.Warnings), false)
	if gates := r.gatesJSON(); len(gates) > 0 {
		sw.field("gates", gates, false)
	}
	if base := r.baselineJSON(); base != nil {
		sw.field("baseline", base, false)
	}
	sw.field("anomalies", r.anomaliesJSON(), true)
	sw.raw("}\n")
	if sw.err != nil {
		return sw.err
	}
	return bw.Flush()
}

// summaryRun is run's entry of summary.json's runs.
func (r *Report) summaryRun(run *model.Run) summary.Run {
	sr := summary.Run{Name: run.Name, Logdir: run.Logdir, Path: run.Path, Files: []summary.LogFile{},
		RestartDropped: run.Restarts, Attempts: attemptsJSON(run), Graphs: r.graphCounts(run), Warnings: summary.Warnings(run.Warnings)}
	for _, f := range run.LogFiles() {
		sr.Files = append(sr.Files, summary.LogFileOf(f))
	}
	if run.HasEvents {
		first, last := run.FirstStep, run.LastStep
		start, end, dur := summary.Float(run.Start), summary.Float(run.End), summary.Float(run.End-run.Start)
		sr.FirstStep, sr.LastStep, sr.StartTime, sr.EndTime, sr.DurationSeconds = &first, &last, &start, &end, &dur
	}
	return sr
}

// summaryMetrics is run's entry of summary.json's metrics: tag -> its
// key metrics.
func (r *Report) summaryMetrics(run *model.Run) map[string]summary.Stat {
	m := map[string]summary.Stat{}
	for _, sc := range runScalars(run) {
		st := r.views[sc].stats
		ss := summary.Stat{Points: st.Count, NonFinite: st.NonFinite, Last: pointJSON(st.Last, sc.Float32), Better: betterOf(sc.Tag).String()}
		if st.HasFinite {
			ss.Min, ss.Max = pointJSON(st.Min, sc.Float32), pointJSON(st.Max, sc.Float32)
		}
		m[sc.Tag] = ss
	}
	return m
}

// jsonWriter writes the members of a file's top object (summary.json,
// data/index.json), each value as json.MarshalIndent writes it at its
// depth (one space a level), so that the file is the bytes of the whole
// object's encoding, without holding it; the first error stays in err.
type jsonWriter struct {
	w   *bufio.Writer
	err error
}

func (sw *jsonWriter) raw(s string) {
	if sw.err == nil {
		_, sw.err = sw.w.WriteString(s)
	}
}

// value writes v at depth levels of indentation (its first line not
// indented).
func (sw *jsonWriter) value(v any, depth int) {
	if sw.err != nil {
		return
	}
	b, err := json.MarshalIndent(v, strings.Repeat(" ", depth), " ")
	if err != nil {
		sw.err = err
		return
	}
	_, sw.err = sw.w.Write(b)
}

// key writes a member's name of the top object.
func (sw *jsonWriter) key(name string) {
	sw.raw(" ")
	sw.value(name, 1)
	sw.raw(": ")
}

// field writes a member of the top object, last or followed by a comma.
func (sw *jsonWriter) field(name string, v any, last bool) {
	sw.key(name)
	sw.value(v, 1)
	if last {
		sw.raw("\n")
	} else {
		sw.raw(",\n")
	}
}

// elems writes an array of n values at depth 1, value(i) the i-th.
func (sw *jsonWriter) elems(n int, value func(i int) any) {
	if n == 0 {
		sw.raw("[]")
		return
	}
	sw.raw("[\n")
	for i := range n {
		sw.raw("  ")
		sw.value(value(i), 2)
		if i < n-1 {
			sw.raw(",\n")
		}
	}
	sw.raw("\n ]")
}

// sortedMap writes m at depth 1, a member at a time, its keys in
// encoding/json's order.
func sortedMap[V any](sw *jsonWriter, m map[string]V) {
	keys := slices.Sorted(maps.Keys(m))
	sw.members(keys, func(i int) any { return m[keys[i]] })
}

// members writes an object at depth 1 of the keys (sorted), value(i)
// the i-th's value.
func (sw *jsonWriter) members(keys []string, value func(i int) any) {
	if len(keys) == 0 {
		sw.raw("{}")
		return
	}
	sw.raw("{\n")
	for i, k := range keys {
		sw.raw("  ")
		sw.value(k, 2)
		sw.raw(": ")
		sw.value(value(i), 2)
		if i < len(keys)-1 {
			sw.raw(",\n")
		}
	}
	sw.raw("\n }")
}

func pointJSON(e model.Extreme, f32 bool) *summary.StatPoint {
	return &summary.StatPoint{Step: e.Step, WallTime: summary.Float(e.WallTime), Value: summary.Scalar{V: e.Value, F32: f32}}
}

// tagFile encodes a data file of the Tianshu shape {tag: [entry, ...]},
// one entry a line, each entry as encoding/json writes it.
func tagFile[E any](tag string, entries []E) ([]byte, error) {
	b, err := json.Marshal(tag)
	if err != nil {
		return nil, err
	}
	b = append(append([]byte{'{'}, b...), ":["...)
	for i, e := range entries {
		if i > 0 {
			b = append(b, ',')
		}
		eb, err := json.Marshal(e)
		if err != nil {
			return nil, err
		}
		b = append(append(b, '\n'), eb...)
	}
	return append(b, "\n]}\n"...), nil
}

// restartRuleName names the rule that made the report's lines, as
// summary.json says it.
func restartRuleName(rep *model.Report) string {
	switch {
	case rep.KeepAllRecords:
		return "keep-all-records"
	case rep.RestartRule == "":
		return string(model.RestartsLatest) // a model made by hand (model.go)
	}
	return string(rep.RestartRule)
}
