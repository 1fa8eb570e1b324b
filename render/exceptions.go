package render

import (
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"slices"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// Budgets of the Exceptions page's boxes (those of its details are the
// analysis', result.Exceptions).
const (
	// exceptionBoxSteps bounds the steps of one series whose boxes the
	// page draws, spread evenly with the last kept (fewer when the page
	// holds many series, exceptionPageBoxes); the data file holds every
	// step's.
	exceptionBoxSteps = 1_000
	// exceptionPageBoxes bounds the boxes of the whole page: with many
	// series each draws fewer (at least exceptionMinBoxSteps).
	exceptionPageBoxes   = 200_000
	exceptionMinBoxSteps = 50
)

// exceptionSource is one series the Exceptions page draws: an exception
// series (OneFlow, TS-VIS) or a numeric tensor series.
type exceptionSource struct {
	run    *model.Run
	tag    string
	source string // "oneflow", "tsvis" or "tensor"
	steps  []int64
	wall   []float64
	shape  func(i int) []int64
	dtype  func(i int) string // numpy's name
	// view is what the analysis derived of it.
	view *result.ExceptionSeries
}

// exceptionSources lists the series of a run the Exceptions page draws:
// its exception series, then the numeric tensor series the analysis drew
// (those of more than one value: a box of one value says nothing), each
// sorted by tag.
func exceptionSources(run *model.Run, an *result.Exceptions) []*exceptionSource {
	var out []*exceptionSource
	for _, x := range run.Exceptions {
		if len(x.Entries) == 0 {
			continue
		}
		es := x.Entries
		s := &exceptionSource{run: run, tag: x.Tag, source: x.Source, view: an.Series[x],
			shape: func(i int) []int64 { return es[i].Tensor.Shape },
			dtype: func(i int) string { return es[i].Tensor.DType }}
		for _, e := range es {
			s.steps, s.wall = append(s.steps, e.Step), append(s.wall, e.WallTime)
		}
		out = append(out, s)
	}
	for _, t := range run.Tensors {
		view := an.Tensors[t]
		if view == nil {
			continue
		}
		es := t.Entries
		s := &exceptionSource{run: run, tag: t.Tag, source: "tensor", view: view,
			shape: func(i int) []int64 { return es[i].Shape },
			dtype: func(i int) string { return es[i].DType }}
		for _, e := range es {
			s.steps, s.wall = append(s.steps, e.Step), append(s.wall, e.WallTime)
		}
		out = append(out, s)
	}
	return out
}

// exceptionSeries is a source with what the page draws of it.
type exceptionSeries struct {
	src *exceptionSource
	*result.ExceptionSeries
	an *result.Exceptions
}

// exceptionTags lists the Exceptions page's series by tag: the page and
// its data files show the same.
func (r *Report) exceptionTags() []tagSeries[*exceptionSeries] {
	tags := byTag(r.rep.Runs, func(run *model.Run) []*exceptionSource { return exceptionSources(run, r.an.Exceptions) },
		func(s *exceptionSource) string { return s.tag })
	out := make([]tagSeries[*exceptionSeries], len(tags))
	for i, ts := range tags {
		out[i].tag = ts.tag
		for _, rs := range ts.runs {
			out[i].runs = append(out[i].runs, runSeries[*exceptionSeries]{run: rs.run,
				series: &exceptionSeries{src: rs.series, ExceptionSeries: rs.series.view, an: r.an.Exceptions}})
		}
	}
	return out
}

func hasExceptions(r *Report) bool {
	return r.anyRun(func(run *model.Run) bool { return len(exceptionSources(run, r.an.Exceptions)) > 0 })
}

// countExceptions counts, for the overview, the series the Exceptions
// page draws by tag, and the runs that have them.
func countExceptions(r *Report, _ []model.Kind) countLine {
	c := countLine{Unit: "tag"}
	seen := map[string]bool{}
	for _, run := range r.rep.Runs {
		ss := exceptionSources(run, r.an.Exceptions)
		for _, s := range ss {
			seen[s.tag] = true
		}
		if len(ss) > 0 {
			c.Runs++
		}
	}
	c.N = len(seen)
	return c
}

// boxJSON is a step's box in Tianshu's shape: [[down, Q1, median, Q3, up],
// [P0, P5, P10, P25, P50, P75, P90, P95, P100]], or null without a finite
// value; the box's whiskers are at the analysis' K.
func (s *exceptionSeries) boxJSON(i int) any {
	if !s.OK[i] {
		return nil
	}
	b := s.Boxes[i]
	return [2][]summary.Float{floats(b.Down, b.Q1, b.Median, b.Q3, b.Up), floats(s.Percentiles[i][:]...)}
}

func floats(vs ...float64) []summary.Float {
	out := make([]summary.Float, len(vs))
	for i, v := range vs {
		out[i] = summary.Float(v)
	}
	return out
}

// exceptionDetailJSON is a step's detail in Tianshu's shapes: outliers
// [values, indices], the heat map [shape, min, max, mean, matrix] (matrix
// rows of cells, null for padding), the histogram [[min, max, [[left,
// right, count], ...]]].
type exceptionDetailJSON struct {
	Step         int64         `json:"step"`
	WallTime     summary.Float `json:"wall_time"`
	Outliers     [2]any        `json:"outliers"`
	OutlierTotal int           `json:"outlier_total"`
	OutlierK     float64       `json:"outlier_k"`
	Matrix       [5]any        `json:"matrix"`
	// Block is the size of the block of the flattened matrix [rows, cols]
	// one cell stands for, and Flat the matrix's size before shrinking.
	Block     [2]int `json:"block"`
	Flat      [2]int `json:"flat"`
	Histogram []any  `json:"histogram"`
}

// detailJSON writes the tensor's own values (outliers, extremes, cells of
// one element) at its precision, float32's shortest form for float32 and
// narrower, as the other data files do.
func (s *exceptionSeries) detailJSON(d result.ExceptionDetail) exceptionDetailJSON {
	i := d.Index
	f32 := result.IsFloat32(s.src.dtype(i))
	own := func(vs ...float64) []summary.Scalar {
		out := make([]summary.Scalar, len(vs))
		for k, v := range vs {
			out[k] = summary.Scalar{V: v, F32: f32}
		}
		return out
	}
	one := d.Heat.BlockRows == 1 && d.Heat.BlockCols == 1
	out := exceptionDetailJSON{Step: s.src.steps[i], WallTime: summary.Float(s.src.wall[i]),
		Outliers:     [2]any{own(d.Outliers.Values...), d.Outliers.Indices},
		OutlierTotal: d.Outliers.Total, OutlierK: s.an.OutlierK,
		Block: [2]int{d.Heat.BlockRows, d.Heat.BlockCols}, Flat: [2]int{d.Heat.Rows, d.Heat.Cols}, Histogram: []any{}}
	rows := make([][]*summary.Scalar, d.Heat.CellRows)
	for r := range rows {
		rows[r] = make([]*summary.Scalar, d.Heat.CellCols)
		for c := range rows[r] {
			k := r*d.Heat.CellCols + c
			if !d.Heat.Pad[k] {
				rows[r][c] = &summary.Scalar{V: d.Heat.Cells[k], F32: f32 && one} // a block's mean is a float64
			}
		}
	}
	ext := own(d.Stats[0], d.Stats[1])
	out.Matrix = [5]any{nonNil(d.Shape), ext[0], ext[1], summary.Float(d.Stats[2]), rows}
	if d.HasHist {
		bins := make([][3]summary.Float, len(d.Hist.Counts))
		for b, c := range d.Hist.Counts {
			bins[b] = [3]summary.Float{summary.Float(d.Hist.Edges[b]), summary.Float(d.Hist.Edges[b+1]), summary.Float(c)}
		}
		out.Histogram = []any{[3]any{summary.Float(d.Hist.Min), summary.Float(d.Hist.Max), bins}}
	}
	return out
}

// exceptionsPage is what templates/exceptions.html draws.
type exceptionsPage struct {
	Tags                                   []exceptionTag
	BoxSteps, DetailSteps, HeatSide, Limit string
}

type exceptionTag struct {
	Tag   string
	Cards []exceptionCard
	cutSection
}

func (p *exceptionsPage) cutSections() (string, []*cutSection) {
	secs := make([]*cutSection, len(p.Tags))
	for i := range p.Tags {
		secs[i] = &p.Tags[i].cutSection
	}
	return "exc-card", secs
}

// exceptionCard is one (run, tag) series, drawn by assets/exceptions.js
// from Data.
type exceptionCard struct {
	Run, Tag, Source string
	Steps            string // "20 of 2,000 steps with details"
	Unread           int
	NonFinite        int // steps holding a NaN or infinity
	Data             template.JS
}

// exceptionCardJSON is a card's data block: per drawn step its box
// (Tianshu's shape, at k = 1.5; the page redraws the whiskers for its k
// from the percentiles) and count of NaN and infinities; per detail step
// what exceptionDetailJSON holds.
type exceptionCardJSON struct {
	Steps     []int64               `json:"steps"`
	Box       []any                 `json:"box"`
	NonFinite []int                 `json:"nonfinite"`
	Details   []exceptionDetailJSON `json:"details"`
}

func (r *Report) exceptionsPage(single bool) (*exceptionsPage, error) {
	an := r.an.Exceptions
	p := &exceptionsPage{BoxSteps: result.FormatCount(exceptionBoxSteps), DetailSteps: result.FormatCount(an.DetailSteps),
		HeatSide: fmt.Sprint(an.HeatSide), Limit: result.FormatCount(an.Outliers)}
	tags := r.exceptionTags()
	boxSteps := exceptionBoxSteps
	if n := countSeries(tags); n > 0 {
		boxSteps = min(exceptionBoxSteps, max(exceptionMinBoxSteps, exceptionPageBoxes/n))
	}
	p.BoxSteps = result.FormatCount(boxSteps)
	for _, tt := range tags {
		t := exceptionTag{Tag: tt.tag}
		for _, rs := range tt.runs {
			s := rs.series
			n := len(s.src.steps)
			cj := exceptionCardJSON{Steps: []int64{}, Box: []any{}, NonFinite: []int{}, Details: []exceptionDetailJSON{}}
			for _, i := range result.EvenSteps(n, boxSteps) {
				cj.Steps = append(cj.Steps, s.src.steps[i])
				cj.Box = append(cj.Box, s.boxJSON(i))
				cj.NonFinite = append(cj.NonFinite, s.NonFinite[i])
			}
			for _, d := range s.Details {
				cj.Details = append(cj.Details, s.detailJSON(d))
			}
			data, err := scriptJSON(cj)
			if err != nil {
				return nil, fmt.Errorf("exceptions %q of run %q: %w", tt.tag, rs.run.Name, err)
			}
			bad := 0
			for _, c := range s.NonFinite {
				if c > 0 {
					bad++
				}
			}
			t.Cards = append(t.Cards, exceptionCard{Run: rs.run.Name, Tag: tt.tag, Source: s.src.source,
				Steps:  fmt.Sprintf("%s of %s, %s with details", result.FormatCount(len(cj.Steps)), result.CountOf(n, "step", "steps"), result.FormatCount(len(cj.Details))),
				Unread: len(s.Errs), NonFinite: bad, Data: data})
		}
		p.Tags = append(p.Tags, t)
	}
	room, err := r.pageRoom()
	if err != nil {
		return nil, err
	}
	cards := make([][]exceptionCard, len(p.Tags))
	for t := range p.Tags {
		cards[t] = p.Tags[t].Cards
	}
	// A card's markup (templates/exceptions.html) is some 1.1 KB besides
	// its data and names (the run's four times, the tag's twice, escaped).
	keep := keepCards(cards, func(c exceptionCard) int {
		return 1408 + 4*len(c.Run) + 2*len(c.Tag) + len(c.Source) + len(c.Steps) + len(c.Data)
	}, room, 256)
	cutCards(r, len(p.Tags), keep, "exceptions", single, func(t int) string { return p.Tags[t].Tag },
		func(t int) *[]exceptionCard { return &p.Tags[t].Cards }, func(t int) *cutSection { return &p.Tags[t].cutSection },
		func(c exceptionCard) string { return c.Run })
	return p, nil
}

// exceptionsData writes, per (run, tag), Tianshu's exception data:
// data/exceptions/<run>/<tag>.json {tag: {"step": [...], "box": [...]}}
// with every step's box, and beside it <tag>.steps.json {tag: [detail,
// ...]} with the detail steps of the page.
func (r *Report) exceptionsData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: "exception", index: map[string]map[string]string{}}
	for _, tt := range r.exceptionTags() {
		for _, rs := range tt.runs {
			s := rs.series
			box := make([]any, len(s.src.steps))
			for i := range box {
				box[i] = s.boxJSON(i)
			}
			name := dataFile("exceptions", rs.run.Name, tt.tag)
			b, err := json.Marshal(map[string]any{tt.tag: map[string]any{"step": nonNil(s.src.steps), "box": box}})
			if err != nil {
				d.note(rs.run.Name, tt.tag, fmt.Errorf("data file not written: %w", err))
				continue
			}
			if err := emit(file{"data/" + name, append(b, '\n')}); err != nil {
				return nil, err
			}
			d.add(rs.run.Name, tt.tag, name)
			details := make([]exceptionDetailJSON, len(s.Details))
			for i, dt := range s.Details {
				details[i] = s.detailJSON(dt)
			}
			if err := emitTagFile(&pageData{category: d.category, index: map[string]map[string]string{}}, emit, rs.run.Name, tt.tag,
				stepsFile(name), details); err != nil {
				return nil, err
			}
			for _, i := range slices.Sorted(maps.Keys(s.Errs)) {
				d.note(rs.run.Name, tt.tag, fmt.Errorf("step %d: %w", s.src.steps[i], s.Errs[i]))
			}
		}
	}
	return d, nil
}

// stepsFile names the detail file beside a series' data file.
func stepsFile(name string) string {
	return name[:len(name)-len(".json")] + ".steps.json"
}
