package render

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/summary"
)

// dataIndex returns data/index.json, mapping category -> run -> tag ->
// data file, with the other pages' shares of data/.
func (r *Report) dataIndex(pages []*pageData) file {
	index := dataIndex{Layout: DataLayout, Runs: map[string]indexRun{}, Scalars: map[string]map[string]string{}}
	for _, run := range r.rep.Runs {
		// A run's Tianshu category index always has the scalar category,
		// empty when the run has no scalars.
		cats := map[string]any{scalarCategory: map[string][]string{}}
		index.Runs[run.Name] = indexRun{Logdir: run.Logdir, Path: run.Path, Categories: cats}
	}
	for _, p := range pages {
		index.Errors = append(index.Errors, p.notes...)
		index.Downsampled = append(index.Downsampled, p.downsampled...)
		if p.category == scalarCategory {
			index.Scalars = p.index
			index.Superseded = p.superseded
			index.Bundles = p.bundles
		} else {
			if index.Categories == nil {
				index.Categories = map[string]map[string]map[string]string{}
			}
			index.Categories[p.category] = p.index
		}
		for run, tags := range p.index {
			groups := map[string][]string{}
			for tag := range tags {
				g := tagGroup(tag)
				groups[g] = append(groups[g], tag)
			}
			for _, ts := range groups {
				slices.Sort(ts)
			}
			cats := index.Runs[run].Categories
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
	}
	b, err := marshalIndent(index)
	if err != nil {
		panic(err) // only strings and maps: cannot fail
	}
	return file{"data/index.json", append(b, '\n')}
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
	s := summary.JSON{Title: r.opt.Title, Restarts: restartRuleName(r.rep), Runs: []summary.Run{}, Metrics: map[string]map[string]summary.Stat{},
		Warnings: summary.Warnings(r.rep.Warnings), Anomalies: r.anomaliesJSON()}
	for _, run := range r.rep.Runs {
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
		s.Runs = append(s.Runs, sr)
		if len(runScalars(run)) > 0 {
			m := map[string]summary.Stat{}
			for _, sc := range runScalars(run) {
				st := r.views[sc].stats
				ss := summary.Stat{Points: st.Count, NonFinite: st.NonFinite, Last: pointJSON(st.Last, sc.Float32), Better: betterOf(sc.Tag).String()}
				if st.HasFinite {
					ss.Min, ss.Max = pointJSON(st.Min, sc.Float32), pointJSON(st.Max, sc.Float32)
				}
				m[sc.Tag] = ss
			}
			s.Metrics[run.Name] = m
		}
	}
	s.Gates, s.Baseline = r.gatesJSON(), r.baselineJSON()
	b, err := marshalIndent(s)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
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
