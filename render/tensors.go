package render

import (
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/tensorstat"
)

// Budgets of the tensors page, per (run, tag).
const (
	// tensorPageSteps bounds the steps the statistics chart and the heat
	// map draw: beyond it they are thinned evenly, the last kept. The
	// data file holds the statistics of every step.
	tensorPageSteps = 500
	// tensorPageValues bounds the tensor values the page inlines for its
	// table: the values of as many of the charted steps as fit, spread
	// evenly with the last kept.
	tensorPageValues = 200_000
	// tensorDataValues bounds the values a data file holds, chosen the
	// same way from every step.
	tensorDataValues = 1_000_000
	// tensorBins is the number of bins of the shared histogram grid.
	tensorBins = 30
)

// tensorSeries is one (run, tag) numeric tensor series with the
// statistics of each of its steps.
type tensorSeries struct {
	tensor *model.Tensor
	stats  []tensorstat.Stats // per entry
	errs   map[int]error      // entries that could not be read
	dec    model.Decoders     // the report's, to read the steps again
	f32    bool               // every step's values print as float32 (float32, float16, bfloat16)
	float  bool               // some step has a floating-point dtype
}

func runTensors(run *model.Run) []*model.Tensor {
	return withEntries(run.Tensors, func(t *model.Tensor) int { return len(t.Entries) })
}

// tensorTags returns the numeric tensor tags of the report, sorted, each
// series with its statistics: read once per report, by whichever of the
// page and the data files, built concurrently, needs them first.
func (r *Report) tensorTags() []tagSeries[*tensorSeries] {
	r.tensorsOnce.Do(func() {
		r.tensors = byTag(r.rep.Runs, func(run *model.Run) []*tensorSeries {
			tensors := runTensors(run)
			out := make([]*tensorSeries, len(tensors))
			for i, t := range tensors {
				out[i] = readTensor(t, r.rep.Decoders())
			}
			return out
		}, func(s *tensorSeries) string { return s.tensor.Tag })
	})
	return r.tensors
}

// readTensor reads every step of a series and summarises it.
func readTensor(t *model.Tensor, dec model.Decoders) *tensorSeries {
	s := &tensorSeries{tensor: t, dec: dec, stats: make([]tensorstat.Stats, len(t.Entries)), errs: map[int]error{}, f32: len(t.Entries) > 0}
	for i, e := range t.Entries {
		s.f32 = s.f32 && isFloat32(e.DType)
		s.float = s.float || isFloat(e.DType)
		vals, err := e.Load(dec)
		if err != nil {
			s.errs[i] = err
			continue
		}
		s.stats[i] = tensorstat.Of(vals)
	}
	return s
}

// isFloat32 reports whether values of dtype are at most single precision,
// so that they print in float32's shortest form.
func isFloat32(dtype string) bool {
	return dtype == "float32" || dtype == "float16" || dtype == "bfloat16"
}

// isFloat reports whether dtype is a floating-point type, whose values
// are binned on an even grid rather than one bin per integer.
func isFloat(dtype string) bool {
	return isFloat32(dtype) || dtype == "float64"
}

// valueSteps picks, among the entries at indices idx, those whose values
// fit in budget: evenly spread, the last kept, as many as the largest of
// them allows. Entries that could not be read are never picked.
func (s *tensorSeries) valueSteps(idx []int, budget int) []int {
	var ok []int
	largest := 1
	for _, i := range idx {
		if s.errs[i] == nil {
			ok = append(ok, i)
			largest = max(largest, s.stats[i].Count)
		}
	}
	var out []int
	for _, j := range evenSteps(len(ok), budget/largest) {
		out = append(out, ok[j])
	}
	return out
}

// tensorsPage is what templates/tensors.html draws.
type tensorsPage struct {
	Tags                    []tensorTag
	StepBudget, ValueBudget string
}

type tensorTag struct {
	Tag   string
	Cards []tensorCard
	// Cut says which runs the tag leaves out over the page's byte budget,
	// "" when it shows every run.
	Cut string
}

// tensorCard is one (run, tag) series: its statistics chart, heat map and
// table, drawn by assets/tensors.js from Data.
type tensorCard struct {
	Run, Tag  string
	DType     string
	Shape     string // of the last step
	Steps     string // "500 of 2,000 steps"
	Values    string // which steps' values the page holds
	Unread    int    // steps that could not be read
	HasValues bool
	Data      template.JS
	Note      string // what the card leaves out, and why
}

// tensorJSON is a card's data block. Per charted step: statistics and
// counts on the shared grid; per step with values: the values row-major.
type tensorJSON struct {
	Steps  []int64           `json:"steps"`
	Wall   []jsonFloat       `json:"wall"`
	Count  []int             `json:"count"`
	Min    []*jsonScalar     `json:"min"` // null where no value is finite
	Max    []*jsonScalar     `json:"max"`
	Mean   []*jsonScalar     `json:"mean"`
	NaN    []int             `json:"nan"`
	PosInf []int             `json:"pos_inf"`
	NegInf []int             `json:"neg_inf"`
	Zero   []int             `json:"zero"`
	Edges  []jsonFloat       `json:"edges"` // the shared grid; empty without finite values
	Hist   [][]int           `json:"hist"`  // per charted step, counts per bin
	Values []tensorValueJSON `json:"values"`
}

type tensorValueJSON struct {
	Step   int64           `json:"step"`
	Shape  []int64         `json:"shape"`
	Values json.RawMessage `json:"values"`
}

func (r *Report) tensorsPage() (*tensorsPage, error) {
	p := &tensorsPage{StepBudget: fmtCount(tensorPageSteps), ValueBudget: fmtCount(tensorPageValues)}
	for _, tt := range r.tensorTags() {
		t := tensorTag{Tag: tt.tag}
		for _, s := range tt.runs {
			t.Cards = append(t.Cards, s.series.card(s.run.Name))
		}
		p.Tags = append(p.Tags, t)
	}
	room, err := r.pageRoom()
	if err != nil {
		return nil, err
	}
	cards := make([][]tensorCard, len(p.Tags))
	for t := range p.Tags {
		cards[t] = p.Tags[t].Cards
	}
	// A card's markup (templates/tensors.html) is some 1.3 KB besides its
	// data and names (the run's four times, the tag's twice, escaped).
	keep := keepCards(cards, func(c tensorCard) int {
		return 1536 + 4*len(c.Run) + 2*len(c.Tag) + len(c.DType) + len(c.Shape) + len(c.Steps) + len(c.Values) + len(c.Note) + len(c.Data)
	}, room, 256)
	cutCards(r, len(p.Tags), keep, "tensors", func(t int) *[]tensorCard { return &p.Tags[t].Cards },
		func(t int, note string) { p.Tags[t].Cut = note })
	return p, nil
}

// card builds the card of one series, reading the tensors of the charted
// steps once more to re-bin them onto the grid their statistics span. A
// step that cannot be read this time has an empty histogram and no
// values, and the card's note says so.
func (s *tensorSeries) card(run string) tensorCard {
	es := s.tensor.Entries
	c := tensorCard{Run: run, Tag: s.tensor.Tag, Unread: len(s.errs)}
	var idx []int // charted steps: readable, evenly spread
	for _, i := range evenSteps(len(es), tensorPageSteps) {
		if s.errs[i] == nil {
			idx = append(idx, i)
		}
	}
	c.Steps = stepsLabel(len(idx), len(es))
	if len(es) > 0 {
		last := es[len(es)-1]
		c.DType, c.Shape = last.DType, fmtShape(last.Shape)
	}
	j := tensorJSON{Edges: []jsonFloat{}, Hist: [][]int{}, Values: []tensorValueJSON{}}
	var stats []tensorstat.Stats
	for _, i := range idx {
		st := s.stats[i]
		stats = append(stats, st)
		j.Steps = append(j.Steps, es[i].Step)
		j.Wall = append(j.Wall, jsonFloat(es[i].WallTime))
		j.Count = append(j.Count, st.Count)
		j.Min, j.Max = append(j.Min, finiteOrNull(st, st.Min, s.f32)), append(j.Max, finiteOrNull(st, st.Max, s.f32))
		j.Mean = append(j.Mean, finiteOrNull(st, st.Mean, false))
		j.NaN, j.PosInf, j.NegInf, j.Zero = append(j.NaN, st.NaN), append(j.PosInf, st.PosInf), append(j.NegInf, st.NegInf), append(j.Zero, st.Zero)
	}
	withValues := map[int]bool{}
	for _, i := range s.valueSteps(idx, tensorPageValues) {
		withValues[i] = true
	}
	grid, hasGrid := tensorstat.GridOf(stats, tensorBins, !s.float)
	if hasGrid {
		for _, e := range grid.Edges() {
			j.Edges = append(j.Edges, jsonFloat(e))
		}
	}
	var notes []string
	for _, i := range idx {
		if !hasGrid && !withValues[i] {
			continue
		}
		vals, err := es[i].Load(s.dec)
		if err != nil {
			notes = append(notes, fmt.Sprintf("step %d could not be read again: %v", es[i].Step, err))
			if hasGrid {
				j.Hist = append(j.Hist, make([]int, grid.Bins)) // one row per charted step
			}
			continue
		}
		if hasGrid {
			j.Hist = append(j.Hist, grid.Counts(vals))
		}
		if withValues[i] {
			j.Values = append(j.Values, tensorValueJSON{Step: es[i].Step, Shape: nonNil(es[i].Shape),
				Values: appendValues(nil, vals, s.f32)})
		}
	}
	c.HasValues = len(j.Values) > 0
	c.Values = valuesLabel(j.Values, len(idx))
	c.Data = "null"
	if data, err := scriptJSON(j); err != nil {
		notes = append(notes, "the card cannot be drawn: "+err.Error())
		c.HasValues = false
	} else {
		c.Data = data
	}
	c.Note = strings.Join(notes, "; ")
	return c
}

// finiteOrNull is a statistic of st for JSON: null when st has no finite
// value, else v in the shortest form that reads back exact (as a float32
// when f32: min and max of single-precision tensors).
func finiteOrNull(st tensorstat.Stats, v float64, f32 bool) *jsonScalar {
	if !st.HasFinite() {
		return nil
	}
	return &jsonScalar{v, f32}
}

// valuesLabel says which steps' values the page holds.
func valuesLabel(vs []tensorValueJSON, charted int) string {
	if len(vs) == 0 {
		return fmt.Sprintf("no step's values: one step holds more than the page's budget of %s values", fmtCount(tensorPageValues))
	}
	steps := make([]string, 0, 6)
	for i, v := range vs {
		if len(vs) > 6 && i == 3 {
			steps = append(steps, "…")
		}
		if len(vs) <= 6 || i < 3 || i >= len(vs)-2 {
			steps = append(steps, strconv.FormatInt(v.Step, 10))
		}
	}
	return fmt.Sprintf("values of %s of %s steps (%s)", fmtCount(len(vs)), fmtCount(charted), strings.Join(steps, ", "))
}

// fmtShape formats a shape as numpy does: (2, 3), (4,), ().
func fmtShape(shape []int64) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.FormatInt(d, 10)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// appendValues appends values as a JSON array, each as appendValue writes
// it.
func appendValues(b []byte, vals []float64, f32 bool) []byte {
	b = append(b, '[')
	for i, v := range vals {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendValue(b, v, f32)
	}
	return append(b, ']')
}

// tensorsData returns the tensors page's data files, {tag: [entry, ...]}
// with an entry per step: wall_time, step, dtype, shape, count, finite,
// nan, pos_inf, neg_inf, zero, min, max and mean (over finite values, null
// when there are none), and values (row-major) for the steps that fit in
// the data budget, spread evenly with the last kept. A step that could not
// be read has an error instead of statistics.
func (r *Report) tensorsData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: "tensor", index: map[string]map[string]string{}}
	type entry struct {
		WallTime jsonFloat       `json:"wall_time"`
		Step     int64           `json:"step"`
		DType    string          `json:"dtype"`
		Shape    []int64         `json:"shape"`
		Error    string          `json:"error,omitempty"`
		Count    *int            `json:"count,omitempty"`
		Finite   *int            `json:"finite,omitempty"`
		NaN      *int            `json:"nan,omitempty"`
		PosInf   *int            `json:"pos_inf,omitempty"`
		NegInf   *int            `json:"neg_inf,omitempty"`
		Zero     *int            `json:"zero,omitempty"`
		Min      *jsonScalar     `json:"min"`
		Max      *jsonScalar     `json:"max"`
		Mean     *jsonScalar     `json:"mean"`
		Values   json.RawMessage `json:"values,omitempty"`
	}
	for _, tt := range r.tensorTags() {
		for _, rs := range tt.runs {
			s := rs.series
			es := s.tensor.Entries
			all := make([]int, len(es))
			for i := range all {
				all[i] = i
			}
			withValues := map[int]bool{}
			for _, i := range s.valueSteps(all, tensorDataValues) {
				withValues[i] = true
			}
			entries := make([]any, len(es))
			for i, e := range es {
				en := entry{WallTime: jsonFloat(e.WallTime), Step: e.Step, DType: e.DType, Shape: nonNil(e.Shape)}
				if err := s.errs[i]; err != nil {
					en.Error = err.Error()
					entries[i] = en
					continue
				}
				st := s.stats[i]
				en.Count, en.Finite, en.NaN, en.PosInf, en.NegInf, en.Zero = &st.Count, &st.Finite, &st.NaN, &st.PosInf, &st.NegInf, &st.Zero
				en.Min, en.Max, en.Mean = finiteOrNull(st, st.Min, s.f32), finiteOrNull(st, st.Max, s.f32), finiteOrNull(st, st.Mean, false)
				if withValues[i] {
					if vals, err := e.Load(s.dec); err != nil {
						en.Error = "values could not be read again: " + err.Error()
					} else {
						en.Values = appendValues(nil, vals, s.f32)
					}
				}
				entries[i] = en
			}
			if err := emitTagFile(d, emit, rs.run.Name, tt.tag, dataFile("tensors", rs.run.Name, tt.tag), entries); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}
