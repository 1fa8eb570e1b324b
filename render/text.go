package render

import (
	"cmp"
	"html/template"
	"slices"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/downsample"
)

// textPageSteps is the page's step budget per (run, tag): beyond it the
// steps shown are thinned evenly, the last always kept. The data files
// hold every step.
const textPageSteps = 50

// textPage is what templates/text.html draws: one section per tag, one
// card per run holding the tag.
type textPage struct {
	Tags   []textTag
	Budget int
}

type textTag struct {
	Tag   string
	Cards []textCard
}

// textCard is one (run, tag) text series: the steps the page holds, each
// rendered to HTML, and a slider over them (the last shown first).
type textCard struct {
	Run    string
	Tag    string
	Steps  []textStep
	Total  int    // steps in the logs
	Label  string // "50 of 1,000 steps"
	Plugin string // "" for a string tensor no plugin claims
	Last   int    // index of the last step, shown first
}

// textStep is the text of one step. A rank-0 tensor is one Markdown
// block; a rank-1 tensor is a table of one column and a rank-2 tensor a
// table, each cell rendered as Markdown, as TensorBoard's text plugin does.
type textStep struct {
	Step  int64
	Wall  string // UTC
	Block template.HTML
	Rows  [][]template.HTML // nil for a rank-0 tensor
	Empty bool              // the tensor holds no string
}

// textSeries is one (run, tag) text series with its data file.
type textSeries struct {
	run  *collect.Run
	text *collect.Text
	file string // relative to data/
}

// textSeries lists every text series, by tag and then in run order.
func (r *Report) textSeries() []textSeries {
	var out []textSeries
	for _, run := range r.rep.Runs {
		for _, t := range run.Texts {
			out = append(out, textSeries{run, t, "text/" + slug(run.Name) + "/" + slug(t.Tag) + ".json"})
		}
	}
	slices.SortStableFunc(out, func(a, b textSeries) int { return cmp.Compare(a.text.Tag, b.text.Tag) })
	return out
}

func (r *Report) hasTexts() bool {
	return r.anyRun(func(run *collect.Run) bool { return len(run.Texts) > 0 })
}

func (r *Report) textPage() (*textPage, error) {
	md := newMarkdown()
	p := &textPage{Budget: textPageSteps}
	for _, s := range r.textSeries() {
		if n := len(p.Tags); n == 0 || p.Tags[n-1].Tag != s.text.Tag {
			p.Tags = append(p.Tags, textTag{Tag: s.text.Tag})
		}
		es := s.text.Entries
		c := textCard{Run: s.run.Name, Tag: s.text.Tag, Total: len(es), Plugin: s.text.Plugin}
		for _, i := range downsample.Even(len(es), textPageSteps) {
			c.Steps = append(c.Steps, textStepOf(md, es[i]))
		}
		c.Label, c.Last = stepsLabel(len(c.Steps), len(es)), len(c.Steps)-1
		t := &p.Tags[len(p.Tags)-1]
		t.Cards = append(t.Cards, c)
	}
	return p, nil
}

// textStepOf renders one text tensor.
func textStepOf(md *markdown, e collect.TextEntry) textStep {
	s := textStep{Step: e.Step, Wall: fmtTime(e.WallTime), Empty: len(e.Values) == 0}
	switch {
	case s.Empty:
	case len(e.Shape) == 0:
		s.Block = md.HTML(e.Values[0])
	default:
		cols := 1
		if len(e.Shape) == 2 && e.Shape[1] > 0 && int64(len(e.Values))%e.Shape[1] == 0 {
			cols = int(e.Shape[1])
		}
		for i := 0; i < len(e.Values); i += cols {
			row := make([]template.HTML, cols)
			for j := range row {
				row[j] = md.HTML(e.Values[i+j])
			}
			s.Rows = append(s.Rows, row)
		}
	}
	return s
}

// textData returns the text page's data files: every step of every
// series, {tag: [{wall_time, step, shape, value: [strings]}]}, with value
// row-major and shape its dimensions ([] for rank 0).
func (r *Report) textData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: "text", section: "media", index: map[string]map[string]string{}}
	for _, s := range r.textSeries() {
		type entry struct {
			WallTime jsonFloat `json:"wall_time"`
			Step     int64     `json:"step"`
			Shape    []int64   `json:"shape"`
			Value    []string  `json:"value"`
		}
		entries := make([]any, len(s.text.Entries))
		for i, e := range s.text.Entries {
			entries[i] = entry{jsonFloat(e.WallTime), e.Step, nonNil(e.Shape), nonNil(e.Values)}
		}
		b, err := tagFile(s.text.Tag, entries)
		if err != nil {
			return nil, err
		}
		if err := emit(file{"data/" + s.file, b}); err != nil {
			return nil, err
		}
		d.add(s.run.Name, s.text.Tag, s.file)
	}
	return d, nil
}

// nonNil turns a nil slice into an empty one, which JSON writes as [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
