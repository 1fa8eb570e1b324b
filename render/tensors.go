package render

import (
	"encoding/json"
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// tensorSeries is one (run, tag) numeric tensor series with what the
// analysis derived of it.
type tensorSeries struct {
	tensor *model.Tensor
	*result.TensorSeries
}

func runTensors(run *model.Run) []*model.Tensor {
	return withEntries(run.Tensors, func(t *model.Tensor) int { return len(t.Entries) })
}

// tensorTags returns the numeric tensor tags of the report, sorted, each
// series with what the analysis derived of it.
func (r *Report) tensorTags() []tagSeries[*tensorSeries] {
	return byTag(r.rep.Runs, func(run *model.Run) []*tensorSeries {
		tensors := runTensors(run)
		out := make([]*tensorSeries, len(tensors))
		for i, t := range tensors {
			out[i] = &tensorSeries{tensor: t, TensorSeries: r.an.Tensors.Series[t]}
		}
		return out
	}, func(s *tensorSeries) string { return s.tensor.Tag })
}

// tensorsPage is what templates/tensors.html draws.
type tensorsPage struct {
	Tags                    []tensorTag
	StepBudget, ValueBudget string
}

type tensorTag struct {
	Tag   string
	Cards []tensorCard
	cutSection
}

func (p *tensorsPage) cutSections() (string, []*cutSection) {
	secs := make([]*cutSection, len(p.Tags))
	for i := range p.Tags {
		secs[i] = &p.Tags[i].cutSection
	}
	return "tensor-card", secs
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
	Wall   []summary.Float   `json:"wall"`
	Count  []int             `json:"count"`
	Min    []*summary.Scalar `json:"min"` // null where no value is finite
	Max    []*summary.Scalar `json:"max"`
	Mean   []*summary.Scalar `json:"mean"`
	NaN    []int             `json:"nan"`
	PosInf []int             `json:"pos_inf"`
	NegInf []int             `json:"neg_inf"`
	Zero   []int             `json:"zero"`
	Edges  []summary.Float   `json:"edges"` // the shared grid; empty without finite values
	Hist   [][]int           `json:"hist"`  // per charted step, counts per bin
	Values []tensorValueJSON `json:"values"`
	// Superseded lists the charted steps (indices into Steps) a later
	// write of the same step replaced: the statistics chart draws them
	// faded beside the line rather than on it, where a step written
	// twice would zigzag.
	Superseded []int `json:"superseded,omitempty"`
}

type tensorValueJSON struct {
	Step   int64           `json:"step"`
	Shape  []int64         `json:"shape"`
	Values json.RawMessage `json:"values"`
	// Note names the step's write when its run restarted or rewrote it
	// (attemptNote).
	Note string `json:"note,omitempty"`
}

func (r *Report) tensorsPage(single bool) (*tensorsPage, error) {
	p := &tensorsPage{StepBudget: result.FormatCount(r.an.Tensors.PageSteps), ValueBudget: result.FormatCount(r.an.Tensors.PageValues)}
	for _, tt := range r.tensorTags() {
		t := tensorTag{Tag: tt.tag}
		for _, s := range tt.runs {
			t.Cards = append(t.Cards, s.series.card(s.run, r.an.Tensors.PageValues))
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
	cutCards(r, len(p.Tags), keep, "tensors", single, func(t int) string { return p.Tags[t].Tag },
		func(t int) *[]tensorCard { return &p.Tags[t].Cards }, func(t int) *cutSection { return &p.Tags[t].cutSection },
		func(c tensorCard) string { return c.Run })
	return p, nil
}

// card builds the card of one series from its charted steps. A step the
// analysis could not decode a second time (see result.TensorSeries.Reread)
// has an empty histogram and no values, and the card's note says so.
func (s *tensorSeries) card(run *model.Run, pageValues int) tensorCard {
	es := s.tensor.Entries
	c := tensorCard{Run: run.Name, Tag: s.tensor.Tag, Unread: len(s.Errs)}
	idx := s.Charted
	c.Steps = stepsLabel(len(idx), len(es))
	if n := supersededEntries(es); n > 0 {
		// "12 steps" would count a rerun step twice.
		c.Steps += fmt.Sprintf(" (%s superseded)", result.FormatCount(n))
	}
	if len(es) > 0 {
		last := es[len(es)-1]
		c.DType, c.Shape = last.DType, fmtShape(last.Shape)
	}
	j := tensorJSON{Edges: []summary.Float{}, Hist: [][]int{}, Values: []tensorValueJSON{}}
	for k, i := range idx {
		st := s.Stats[i]
		if es[i].Written.Superseded {
			j.Superseded = append(j.Superseded, k)
		}
		j.Steps = append(j.Steps, es[i].Step)
		j.Wall = append(j.Wall, summary.Float(es[i].WallTime))
		j.Count = append(j.Count, st.Count)
		j.Min, j.Max = append(j.Min, finiteOrNull(st, st.Min, s.F32)), append(j.Max, finiteOrNull(st, st.Max, s.F32))
		j.Mean = append(j.Mean, finiteOrNull(st, st.Mean, false))
		j.NaN, j.PosInf, j.NegInf, j.Zero = append(j.NaN, st.NaN), append(j.PosInf, st.PosInf), append(j.NegInf, st.NegInf), append(j.Zero, st.Zero)
	}
	withValues := map[int]bool{}
	for _, i := range s.PageValues {
		withValues[i] = true
	}
	hasGrid := len(s.Edges) > 0
	for _, e := range s.Edges {
		j.Edges = append(j.Edges, summary.Float(e))
	}
	j.Hist = append(j.Hist, s.Hist...)
	var notes []string
	for _, i := range idx {
		if !hasGrid && !withValues[i] {
			continue
		}
		if err := s.Reread[i]; err != nil {
			notes = append(notes, fmt.Sprintf("step %d could not be read again: %v", es[i].Step, err))
			continue
		}
		if withValues[i] {
			j.Values = append(j.Values, tensorValueJSON{Step: es[i].Step, Shape: nonNil(es[i].Shape),
				Values: appendValues(nil, s.ValuesOf(i), s.F32), Note: attemptNote(run, es[i].Written)})
		}
	}
	c.HasValues = len(j.Values) > 0
	c.Values = valuesLabel(j.Values, len(idx), pageValues)
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
func finiteOrNull(st result.TensorStats, v float64, f32 bool) *summary.Scalar {
	if !st.HasFinite() {
		return nil
	}
	return &summary.Scalar{V: v, F32: f32}
}

// valuesLabel says which steps' values the page holds.
func valuesLabel(vs []tensorValueJSON, charted, budget int) string {
	if len(vs) == 0 {
		return fmt.Sprintf("no step's values: one step holds more than the page's budget of %s values", result.FormatCount(budget))
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
	return fmt.Sprintf("values of %s of %s steps (%s)", result.FormatCount(len(vs)), result.FormatCount(charted), strings.Join(steps, ", "))
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
		WallTime summary.Float   `json:"wall_time"`
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
		Min      *summary.Scalar `json:"min"`
		Max      *summary.Scalar `json:"max"`
		Mean     *summary.Scalar `json:"mean"`
		Values   json.RawMessage `json:"values,omitempty"`
		entryWrite
	}
	for _, tt := range r.tensorTags() {
		for _, rs := range tt.runs {
			s := rs.series
			es := s.tensor.Entries
			withValues := map[int]bool{}
			for _, i := range s.DataValues {
				withValues[i] = true
			}
			entries := make([]any, len(es))
			for i, e := range es {
				en := entry{WallTime: summary.Float(e.WallTime), Step: e.Step, DType: e.DType, Shape: nonNil(e.Shape), entryWrite: entryWriteOf(rs.run, e.Written)}
				if err := s.Errs[i]; err != nil {
					en.Error = err.Error()
					entries[i] = en
					continue
				}
				st := s.Stats[i]
				en.Count, en.Finite, en.NaN, en.PosInf, en.NegInf, en.Zero = &st.Count, &st.Finite, &st.NaN, &st.PosInf, &st.NegInf, &st.Zero
				en.Min, en.Max, en.Mean = finiteOrNull(st, st.Min, s.F32), finiteOrNull(st, st.Max, s.F32), finiteOrNull(st, st.Mean, false)
				if withValues[i] {
					if err := s.Reread[i]; err != nil {
						en.Error = "values could not be read again: " + err.Error()
					} else {
						en.Values = appendValues(nil, s.ValuesOf(i), s.F32)
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

// supersededEntries counts the entries of es a later write replaced.
func supersededEntries(es []model.TensorEntry) int {
	n := 0
	for _, e := range es {
		if e.Written.Superseded {
			n++
		}
	}
	return n
}
