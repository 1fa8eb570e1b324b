package render

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// textPageSteps is the page's step budget per (run, tag): beyond it the
// steps shown are thinned evenly, the last always kept. The data files
// hold every step.
const textPageSteps = 50

// textCardBytes bounds the HTML of one card, over its steps: each step
// renders within mdStepBytes and mdStepCells (markdown.go), and once a card
// holds this much, its earlier steps say so instead of showing their text.
const textCardBytes = 4 << 20

// textPageCells bounds the table cells of the whole page: every cell is a
// template row to execute and a Markdown document, and 16 runs of 50
// steps of 4,000 cells (3.2M) took most of 10 s. A real text page holds a
// few tables of a few hundred rows.
const textPageCells = 200_000

// textPage is what templates/text.html draws: one section per tag, one
// card per run holding the tag.
type textPage struct {
	Tags   []textTag
	Budget int
}

type textTag struct {
	Tag   string
	Cards []textCard
	cutSection
}

func (p *textPage) cutSections() (string, []*cutSection) {
	secs := make([]*cutSection, len(p.Tags))
	for i := range p.Tags {
		secs[i] = &p.Tags[i].cutSection
	}
	return "text-card", secs
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
	// Note says what of the step the page leaves out (rows of a big
	// tensor, or all of it once its card is full).
	Note string
	// Write says which write of the step this is when its run restarted
	// or rewrote it (attemptNote), Superseded whether a later one
	// replaced it.
	Write      string
	Superseded bool
}

func runTexts(run *model.Run) []*model.Text {
	return withEntries(run.Texts, func(t *model.Text) int { return len(t.Entries) })
}

// textTags returns the text tags of the report, sorted.
func (r *Report) textTags() []tagSeries[*model.Text] {
	return byTag(r.rep.Runs, runTexts, func(t *model.Text) string { return t.Tag })
}

func (r *Report) textPage(single bool) (*textPage, error) {
	tr := &textRenderer{md: newMarkdown(), memo: map[string]template.HTML{}, cellsLeft: textPageCells}
	p := &textPage{Budget: textPageSteps}
	for _, tt := range r.textTags() {
		t := textTag{Tag: tt.tag}
		for _, s := range tt.runs {
			es := s.series.Entries
			c := textCard{Run: s.run.Name, Tag: tt.tag, Total: len(es), Plugin: s.series.Plugin}
			idx := result.EvenSteps(len(es), textPageSteps)
			c.Steps = make([]textStep, len(idx))
			// The last step, which the card shows first, renders first, so
			// that a full card leaves out its earliest steps.
			left := textCardBytes
			for k := len(idx) - 1; k >= 0; k-- {
				var used int
				c.Steps[k], used = tr.step(es[idx[k]], min(mdStepBytes, left), s.series.Plugin == "visdom")
				c.Steps[k].Write, c.Steps[k].Superseded = attemptNote(s.run, es[idx[k]].Written), es[idx[k]].Superseded
				left -= used
			}
			c.Label, c.Last = stepsLabel(len(c.Steps), len(es)), len(c.Steps)-1
			t.Cards = append(t.Cards, c)
		}
		p.Tags = append(p.Tags, t)
	}
	room, err := r.pageRoom()
	if err != nil {
		return nil, err
	}
	cards := make([][]textCard, len(p.Tags))
	for t := range p.Tags {
		cards[t] = p.Tags[t].Cards
	}
	keep := keepCards(cards, textCardSize, room, 256)
	cutCards(r, len(p.Tags), keep, "text", single, func(t int) string { return p.Tags[t].Tag },
		func(t int) *[]textCard { return &p.Tags[t].Cards }, func(t int) *cutSection { return &p.Tags[t].cutSection },
		func(c textCard) string { return c.Run })
	return p, nil
}

// textCardSize estimates the bytes of a card on the page
// (templates/text.html): its markup, the run's name four times and the
// tag's twice, escaped, and each step's HTML.
func textCardSize(c textCard) int {
	n := 768 + 4*len(c.Run) + 2*len(c.Tag) + len(c.Label)
	for _, s := range c.Steps {
		n += 192 + len(s.Wall) + len(s.Block) + len(s.Note)
		for _, row := range s.Rows {
			n += 16
			for _, cell := range row {
				n += 9 + len(cell)
			}
		}
	}
	return n
}

// textRenderer renders the steps of the text page. It remembers the HTML
// of short cells, which big string tensors repeat (a million empty or
// equal strings), so that each renders once.
type textRenderer struct {
	md        *markdown
	memo      map[string]template.HTML
	cellsLeft int // of textPageCells
}

// Cells of at most memoCell bytes are remembered, up to memoCells of them.
const (
	memoCell  = 256
	memoCells = 100_000
)

// cell renders one cell of a string tensor within b.
func (tr *textRenderer) cell(src string, b *mdBudget) template.HTML {
	// A short cell without '|' holds no table and so renders the same
	// whatever the budget of cells; only a cut (a note) depends on bytes.
	cacheable := len(src) <= memoCell && !strings.Contains(src, "|")
	if h, ok := tr.memo[src]; ok && cacheable {
		return b.take(h)
	}
	h := tr.md.render(src, b)
	if cacheable && len(tr.memo) < memoCells && !strings.HasPrefix(string(h), `<p class="note">`) {
		tr.memo[src] = h
	}
	return h
}

// step renders one text tensor in at most bytes of HTML (besides the
// markup of its table) and mdStepCells cells, and returns it with the
// bytes it used. A rank-1 or rank-2 tensor shows as many of its rows as
// fit, and says how many it leaves out. A rank-0 tensor is Markdown, or
// HTML when isHTML is set (Visdom's text windows), sanitised alike.
func (tr *textRenderer) step(e model.TextEntry, bytes int, isHTML bool) (textStep, int) {
	s := textStep{Step: e.Step, Wall: fmtTime(e.WallTime), Empty: len(e.Values) == 0}
	if bytes <= 0 && !s.Empty {
		s.Note = fmt.Sprintf("Not shown: this card already holds %s of text, its budget; the data file holds this step.", fmtBytes(textCardBytes))
		return s, 0
	}
	b := newBudget(mdStepCells, bytes)
	switch {
	case s.Empty:
	case len(e.Shape) == 0 && isHTML:
		s.Block = tr.md.sanitizeHTML(e.Values[0], b)
	case len(e.Shape) == 0:
		s.Block = tr.md.render(e.Values[0], b)
	default:
		cols := 1
		if len(e.Shape) == 2 && e.Shape[1] > 0 && int64(len(e.Values))%e.Shape[1] == 0 {
			cols = int(e.Shape[1])
		}
		rows := len(e.Values) / cols
		// The tensor's own cells count against the budget first; tables
		// inside cells share what is left.
		if tr.cellsLeft <= 0 {
			s.Note = fmt.Sprintf("Not shown: this page already shows %s table cells, its budget; the data file holds this step.", result.FormatCount(textPageCells))
			return s, 0
		}
		stepCells := min(mdStepCells, tr.cellsLeft)
		keepCols := min(cols, stepCells)
		keepRows := min(rows, stepCells/keepCols)
		b.cells -= keepRows * keepCols
		tr.cellsLeft -= keepRows * keepCols
		const cellMarkup = len("<td></td>")
		for i := 0; i < keepRows; i++ {
			if b.bytes < keepCols*cellMarkup+memoCell { // too little left for a row
				keepRows = i
				break
			}
			row := make([]template.HTML, keepCols)
			for j := range row {
				row[j] = tr.cell(e.Values[i*cols+j], b)
				b.bytes -= cellMarkup
			}
			s.Rows = append(s.Rows, row)
		}
		if keepRows < rows || keepCols < cols {
			s.Note = fmt.Sprintf("Showing %s of %s rows and %s of %s columns: a step shows at most %s cells and %s of text; the data file holds all of it.",
				result.FormatCount(keepRows), result.FormatCount(rows), result.FormatCount(keepCols), result.FormatCount(cols), result.FormatCount(mdStepCells), fmtBytes(mdStepBytes))
		}
	}
	return s, bytes - max(b.bytes, 0)
}

// textData returns the text page's data files: every step of every
// series, {tag: [{wall_time, step, shape, value: [strings]}]}, with value
// row-major and shape its dimensions ([] for rank 0).
func (r *Report) textData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: "text", section: "media", index: map[string]map[string]string{}}
	type entry struct {
		WallTime summary.Float `json:"wall_time"`
		Step     int64         `json:"step"`
		Shape    []int64       `json:"shape"`
		Value    []string      `json:"value"`
		entryWrite
	}
	for _, tt := range r.textTags() {
		for _, s := range tt.runs {
			entries := make([]any, len(s.series.Entries))
			for i, e := range s.series.Entries {
				entries[i] = entry{summary.Float(e.WallTime), e.Step, nonNil(e.Shape), nonNil(e.Values), entryWriteOf(s.run, e.Written)}
			}
			if err := emitTagFile(d, emit, s.run.Name, tt.tag, dataFile("text", s.run.Name, tt.tag), entries); err != nil {
				return nil, err
			}
		}
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
