package render

import (
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"math"
	"slices"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/tensorview"
)

// Budgets of the Exceptions page.
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
	// exceptionDetailSteps bounds the steps of one series with a heat
	// map, histogram and outliers (the step slider's stops), fewer when
	// the page holds many series (exceptionPageCells).
	exceptionDetailSteps = 20
	// exceptionHeatSide bounds a heat map's cells each way: a bigger
	// matrix is shrunk by blocks.
	exceptionHeatSide = 64
	// exceptionPageCells bounds the heat-map cells of the whole page.
	exceptionPageCells = 2_000_000
	// exceptionOutliers bounds the outliers listed per step, the furthest
	// from the median kept.
	exceptionOutliers = 200
	// exceptionOutlierK is the whisker factor the listed outliers are
	// found with: the smallest the page's k control offers, so that any k
	// it offers filters the same list.
	exceptionOutlierK = 1.0
	// exceptionK is the whisker factor of the boxes in the data files,
	// and the page's default.
	exceptionK = 1.5
)

// exceptionSource is one series the Exceptions page draws: an exception
// series (OneFlow, TS-VIS) or a numeric tensor series, its steps' values
// loaded on demand.
type exceptionSource struct {
	run    *model.Run
	tag    string
	source string // "oneflow", "tsvis" or "tensor"
	steps  []int64
	wall   []float64
	shape  func(i int) []int64
	dtype  func(i int) string // numpy's name
	load   func(i int) ([]float64, error)
}

// exceptionSources lists the series of a run the Exceptions page draws:
// its exception series, then its numeric tensor series of more than one
// value (a box of one value says nothing), each sorted by tag.
func exceptionSources(run *model.Run, dec model.Decoders) []*exceptionSource {
	var out []*exceptionSource
	for _, x := range run.Exceptions {
		if len(x.Entries) == 0 {
			continue
		}
		es := x.Entries
		s := &exceptionSource{run: run, tag: x.Tag, source: x.Source,
			shape: func(i int) []int64 { return es[i].Tensor.Shape },
			dtype: func(i int) string { return es[i].Tensor.DType },
			load:  func(i int) ([]float64, error) { return es[i].Load(dec) }}
		for _, e := range es {
			s.steps, s.wall = append(s.steps, e.Step), append(s.wall, e.WallTime)
		}
		out = append(out, s)
	}
	for _, t := range run.Tensors {
		es := t.Entries
		if !slices.ContainsFunc(es, func(e model.TensorEntry) bool { return elements(e.Shape) > 1 }) {
			continue
		}
		s := &exceptionSource{run: run, tag: t.Tag, source: "tensor",
			shape: func(i int) []int64 { return es[i].Shape },
			dtype: func(i int) string { return es[i].DType },
			load:  func(i int) ([]float64, error) { return es[i].Load(dec) }}
		for _, e := range es {
			s.steps, s.wall = append(s.steps, e.Step), append(s.wall, e.WallTime)
		}
		out = append(out, s)
	}
	return out
}

// elements is the number of elements of shape, 0 for a negative or
// overflowing one.
func elements(shape []int64) int64 {
	n := int64(1)
	for _, d := range shape {
		if d < 0 || d != 0 && n > math.MaxInt32/d {
			return 0
		}
		n *= d
	}
	return n
}

// exceptionSeries is a source with what the page draws of it, computed
// once per report (exceptionTags).
type exceptionSeries struct {
	src *exceptionSource
	// pcts are each step's percentiles, ok whether it has finite values;
	// nonFinite counts its NaN and infinities; errs the steps that could
	// not be read.
	pcts      [][9]float64
	ok        []bool
	nonFinite []int
	errs      map[int]error
	// details are the steps with a heat map, histogram and outliers.
	details []exceptionDetail
}

// exceptionDetail is what the page draws of one step beyond its box.
type exceptionDetail struct {
	index    int // into the series' steps
	shape    []int64
	outliers tensorview.Outliers
	heat     tensorview.Heatmap
	hist     tensorview.Histogram
	hasHist  bool
	stats    [3]float64 // min, max, mean of the finite values
}

// exceptionTags reads the Exceptions page's series once per report: the
// page and its data files show the same.
func (r *Report) exceptionTags() []tagSeries[*exceptionSeries] {
	r.exceptionsOnce.Do(func() {
		tags := byTag(r.rep.Runs, func(run *model.Run) []*exceptionSource { return exceptionSources(run, r.rep.Decoders()) }, func(s *exceptionSource) string { return s.tag })
		n := countSeries(tags)
		perSeries := exceptionDetailSteps
		if n > 0 {
			perSeries = max(1, min(exceptionDetailSteps, exceptionPageCells/(n*exceptionHeatSide*exceptionHeatSide)))
		}
		r.exceptions = make([]tagSeries[*exceptionSeries], len(tags))
		for i, ts := range tags {
			r.exceptions[i].tag = ts.tag
			for _, rs := range ts.runs {
				r.exceptions[i].runs = append(r.exceptions[i].runs, runSeries[*exceptionSeries]{run: rs.run, series: readException(rs.series, perSeries)})
			}
		}
	})
	return r.exceptions
}

func hasExceptions(r *Report) bool {
	return r.anyRun(func(run *model.Run) bool { return len(exceptionSources(run, r.rep.Decoders())) > 0 })
}

// countExceptions counts, for the overview, the series the Exceptions
// page draws by tag, and the runs that have them.
func countExceptions(r *Report, _ []model.Kind) countLine {
	c := countLine{Unit: "tag"}
	seen := map[string]bool{}
	for _, run := range r.rep.Runs {
		ss := exceptionSources(run, r.rep.Decoders())
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

// readException reads every step of a series for its box, and details
// about perSeries of them: spread evenly with the last kept, and the first
// step holding a NaN or infinity among them.
func readException(src *exceptionSource, perSeries int) *exceptionSeries {
	n := len(src.steps)
	s := &exceptionSeries{src: src, pcts: make([][9]float64, n), ok: make([]bool, n), nonFinite: make([]int, n), errs: map[int]error{}}
	for i := range n {
		vals, err := src.load(i)
		if err != nil {
			s.errs[i] = err
			continue
		}
		s.pcts[i], s.ok[i] = tensorview.Percentiles(vals)
		for _, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				s.nonFinite[i]++
			}
		}
	}
	pick := evenSteps(n, perSeries)
	if first := slices.IndexFunc(s.nonFinite, func(c int) bool { return c > 0 }); first >= 0 && !slices.Contains(pick, first) {
		pick = append(pick, first)
		slices.Sort(pick)
		if len(pick) > perSeries && len(pick) > 2 { // make room: drop the neighbour before it
			at := slices.Index(pick, first)
			pick = slices.Delete(pick, max(at-1, 0), max(at-1, 0)+1)
		}
	}
	for _, i := range pick {
		if s.errs[i] != nil {
			continue
		}
		vals, err := src.load(i)
		if err != nil {
			s.errs[i] = err
			continue
		}
		d := exceptionDetail{index: i, shape: src.shape(i), stats: [3]float64{math.NaN(), math.NaN(), math.NaN()}}
		box := tensorview.BoxOf(s.pcts[i], exceptionOutlierK)
		if !s.ok[i] { // no finite value: every value is an outlier
			box = tensorview.Box{Down: math.Inf(1), Up: math.Inf(-1)}
		}
		d.outliers = tensorview.OutliersOf(vals, box, exceptionOutliers)
		shape := make([]int, len(d.shape))
		for k, v := range d.shape {
			shape[k] = int(v)
		}
		if elements(d.shape) == int64(len(vals)) {
			d.heat = tensorview.HeatmapOf(vals, shape, exceptionHeatSide)
		} else {
			d.heat = tensorview.HeatmapOf(vals, []int{len(vals)}, exceptionHeatSide)
		}
		d.hist, d.hasHist = tensorview.HistogramOf(vals)
		sum, cnt := 0.0, 0
		for _, v := range vals {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				sum, cnt = sum+v, cnt+1
			}
		}
		if cnt > 0 {
			d.stats = [3]float64{d.hist.Min, d.hist.Max, sum / float64(cnt)}
		}
		s.details = append(s.details, d)
	}
	return s
}

// boxJSON is a step's box in Tianshu's shape: [[down, Q1, median, Q3, up],
// [P0, P5, P10, P25, P50, P75, P90, P95, P100]], or null without a finite
// value.
func (s *exceptionSeries) boxJSON(i int, k float64) any {
	if !s.ok[i] {
		return nil
	}
	b := tensorview.BoxOf(s.pcts[i], k)
	return [2][]jsonFloat{floats(b.Down, b.Q1, b.Median, b.Q3, b.Up), floats(s.pcts[i][:]...)}
}

func floats(vs ...float64) []jsonFloat {
	out := make([]jsonFloat, len(vs))
	for i, v := range vs {
		out[i] = jsonFloat(v)
	}
	return out
}

// exceptionDetailJSON is a step's detail in Tianshu's shapes: outliers
// [values, indices], the heat map [shape, min, max, mean, matrix] (matrix
// rows of cells, null for padding), the histogram [[min, max, [[left,
// right, count], ...]]].
type exceptionDetailJSON struct {
	Step         int64     `json:"step"`
	WallTime     jsonFloat `json:"wall_time"`
	Outliers     [2]any    `json:"outliers"`
	OutlierTotal int       `json:"outlier_total"`
	OutlierK     float64   `json:"outlier_k"`
	Matrix       [5]any    `json:"matrix"`
	// Block is the size of the block of the flattened matrix [rows, cols]
	// one cell stands for, and Flat the matrix's size before shrinking.
	Block     [2]int `json:"block"`
	Flat      [2]int `json:"flat"`
	Histogram []any  `json:"histogram"`
}

// detailJSON writes the tensor's own values (outliers, extremes, cells of
// one element) at its precision, float32's shortest form for float32 and
// narrower, as the other data files do.
func (s *exceptionSeries) detailJSON(d exceptionDetail) exceptionDetailJSON {
	i := d.index
	f32 := isFloat32(s.src.dtype(i))
	own := func(vs ...float64) []jsonScalar {
		out := make([]jsonScalar, len(vs))
		for k, v := range vs {
			out[k] = jsonScalar{v, f32}
		}
		return out
	}
	one := d.heat.BlockRows == 1 && d.heat.BlockCols == 1
	out := exceptionDetailJSON{Step: s.src.steps[i], WallTime: jsonFloat(s.src.wall[i]),
		Outliers:     [2]any{own(d.outliers.Values...), d.outliers.Indices},
		OutlierTotal: d.outliers.Total, OutlierK: exceptionOutlierK,
		Block: [2]int{d.heat.BlockRows, d.heat.BlockCols}, Flat: [2]int{d.heat.Rows, d.heat.Cols}, Histogram: []any{}}
	rows := make([][]*jsonScalar, d.heat.CellRows)
	for r := range rows {
		rows[r] = make([]*jsonScalar, d.heat.CellCols)
		for c := range rows[r] {
			k := r*d.heat.CellCols + c
			if !d.heat.Pad[k] {
				rows[r][c] = &jsonScalar{d.heat.Cells[k], f32 && one} // a block's mean is a float64
			}
		}
	}
	ext := own(d.stats[0], d.stats[1])
	out.Matrix = [5]any{nonNil(d.shape), ext[0], ext[1], jsonFloat(d.stats[2]), rows}
	if d.hasHist {
		bins := make([][3]jsonFloat, len(d.hist.Counts))
		for b, c := range d.hist.Counts {
			bins[b] = [3]jsonFloat{jsonFloat(d.hist.Edges[b]), jsonFloat(d.hist.Edges[b+1]), jsonFloat(c)}
		}
		out.Histogram = []any{[3]any{jsonFloat(d.hist.Min), jsonFloat(d.hist.Max), bins}}
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
	// Cut says which runs the tag leaves out over the page's byte budget,
	// "" when it shows every run.
	Cut string
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

func (r *Report) exceptionsPage() (*exceptionsPage, error) {
	p := &exceptionsPage{BoxSteps: fmtCount(exceptionBoxSteps), DetailSteps: fmtCount(exceptionDetailSteps),
		HeatSide: fmt.Sprint(exceptionHeatSide), Limit: fmtCount(exceptionOutliers)}
	tags := r.exceptionTags()
	boxSteps := exceptionBoxSteps
	if n := countSeries(tags); n > 0 {
		boxSteps = min(exceptionBoxSteps, max(exceptionMinBoxSteps, exceptionPageBoxes/n))
	}
	p.BoxSteps = fmtCount(boxSteps)
	for _, tt := range tags {
		t := exceptionTag{Tag: tt.tag}
		for _, rs := range tt.runs {
			s := rs.series
			n := len(s.src.steps)
			cj := exceptionCardJSON{Steps: []int64{}, Box: []any{}, NonFinite: []int{}, Details: []exceptionDetailJSON{}}
			for _, i := range evenSteps(n, boxSteps) {
				cj.Steps = append(cj.Steps, s.src.steps[i])
				cj.Box = append(cj.Box, s.boxJSON(i, exceptionK))
				cj.NonFinite = append(cj.NonFinite, s.nonFinite[i])
			}
			for _, d := range s.details {
				cj.Details = append(cj.Details, s.detailJSON(d))
			}
			data, err := scriptJSON(cj)
			if err != nil {
				return nil, fmt.Errorf("exceptions %q of run %q: %w", tt.tag, rs.run.Name, err)
			}
			bad := 0
			for _, c := range s.nonFinite {
				if c > 0 {
					bad++
				}
			}
			t.Cards = append(t.Cards, exceptionCard{Run: rs.run.Name, Tag: tt.tag, Source: s.src.source,
				Steps:  fmt.Sprintf("%s of %s, %s with details", fmtCount(len(cj.Steps)), plural(n, "step", "steps"), fmtCount(len(cj.Details))),
				Unread: len(s.errs), NonFinite: bad, Data: data})
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
	cutCards(r, len(p.Tags), keep, "exceptions", func(t int) *[]exceptionCard { return &p.Tags[t].Cards },
		func(t int, note string) { p.Tags[t].Cut = note })
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
				box[i] = s.boxJSON(i, exceptionK)
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
			details := make([]exceptionDetailJSON, len(s.details))
			for i, dt := range s.details {
				details[i] = s.detailJSON(dt)
			}
			if err := emitTagFile(&pageData{category: d.category, index: map[string]map[string]string{}}, emit, rs.run.Name, tt.tag,
				stepsFile(name), details); err != nil {
				return nil, err
			}
			for _, i := range slices.Sorted(maps.Keys(s.errs)) {
				d.note(rs.run.Name, tt.tag, fmt.Errorf("step %d: %w", s.src.steps[i], s.errs[i]))
			}
		}
	}
	return d, nil
}

// stepsFile names the detail file beside a series' data file.
func stepsFile(name string) string {
	return name[:len(name)-len(".json")] + ".steps.json"
}
