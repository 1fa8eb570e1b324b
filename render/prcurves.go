package render

import (
	"html/template"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// prPageSteps is the PR curves page's step budget per (run, tag): beyond
// it the steps the slider offers are thinned evenly, the last always kept.
// The data files hold every step.
const prPageSteps = 50

// prPageValues bounds the numbers the page inlines in all (7 per threshold
// per step): beyond it every card offers fewer steps, at least one.
const prPageValues = 3_000_000

// prPage is what templates/pr_curves.html draws: one section per tag, one
// card per run holding the tag, each with its chart and step slider.
type prPage struct {
	Tags   []prTag
	Budget int
}

type prTag struct {
	Tag   string
	Cards []prCard
	cutSection
}

func (p *prPage) cutSections() (string, []*cutSection) {
	secs := make([]*cutSection, len(p.Tags))
	for i := range p.Tags {
		secs[i] = &p.Tags[i].cutSection
	}
	return "pr-card", secs
}

type prCard struct {
	Run   string
	Label string      // "50 of 1,000 steps"
	Last  int         // index of the last step, shown first
	Data  template.JS // the card's curves, for assets/prcurves.js
	Note  string      // why the chart draws nothing, when its data cannot be encoded
}

// prCardJSON is a card's curves: per kept step, the curve at every
// threshold, in threshold order.
type prCardJSON struct {
	Steps  []int64         `json:"steps"`
	Wall   []summary.Float `json:"wall"`
	Curves []prCardCurve   `json:"curves"`
	// Writes names, per kept step, its write when the run restarted or
	// rewrote it (attemptNote, "" otherwise); absent when no step has one.
	Writes []string `json:"writes,omitempty"`
}

// prCardCurve is a curve as the page draws it: every threshold, of which
// the first Drawn are drawn (see prDrawn).
type prCardCurve struct {
	prCurveJSON
	Drawn int `json:"drawn"`
}

// prDrawn is how many of a curve's thresholds are drawn: up to the last
// with TP + FP > 0. Beyond it no prediction reaches the threshold, so
// precision is undefined: the writers store it as 0 (tensorboardX,
// PyTorch, TF2) or 1 (TF1's op) with recall 0, a point that is no part of
// the curve, and TensorBoard's plugin trims these thresholds. The data
// files keep them.
func prDrawn(e model.PRCurveEntry) int {
	for i := min(len(e.TP), len(e.FP)) - 1; i >= 0; i-- {
		// Not "> 0": a NaN count is no proof that nothing was predicted.
		if !(e.TP[i]+e.FP[i] == 0) {
			return i + 1
		}
	}
	return 0
}

type prCurveJSON struct {
	Thresholds []summary.Float  `json:"thresholds"`
	Precision  []summary.Scalar `json:"precision"`
	Recall     []summary.Scalar `json:"recall"`
	TP         []summary.Scalar `json:"tp"`
	FP         []summary.Scalar `json:"fp"`
	TN         []summary.Scalar `json:"tn"`
	FN         []summary.Scalar `json:"fn"`
}

// prCurveOf is a curve for JSON, its values in the shortest form that
// reads back exact at the precision they were stored in.
func prCurveOf(e model.PRCurveEntry) prCurveJSON {
	f := func(v []float64) []summary.Scalar {
		out := make([]summary.Scalar, len(v))
		for i, x := range v {
			out[i] = summary.Scalar{V: x, F32: e.Float32}
		}
		return out
	}
	th := make([]summary.Float, len(e.Thresholds))
	for i, x := range e.Thresholds {
		th[i] = summary.Float(x)
	}
	return prCurveJSON{Thresholds: th, Precision: f(e.Precision), Recall: f(e.Recall),
		TP: f(e.TP), FP: f(e.FP), TN: f(e.TN), FN: f(e.FN)}
}

// prSeries is one (run, tag) PR curve series.
type prSeries = runSeries[*model.PRCurve]

func runPRCurves(run *model.Run) []*model.PRCurve {
	return withEntries(run.PRCurves, func(p *model.PRCurve) int { return len(p.Entries) })
}

// prTags returns the PR curve tags of the report, sorted.
func (r *Report) prTags() []tagSeries[*model.PRCurve] {
	return byTag(r.rep.Runs, runPRCurves, func(p *model.PRCurve) string { return p.Tag })
}

func (r *Report) prCurvesPage(single bool) (*prPage, error) {
	tags := r.prTags()
	var series []prSeries
	for _, t := range tags {
		series = append(series, t.runs...)
	}
	steps := prStepBudget(series, prPageSteps, prPageValues)
	p := &prPage{Budget: steps}
	for _, pt := range tags {
		t := prTag{Tag: pt.tag}
		for _, s := range pt.runs {
			es := s.series.Entries
			j := prCardJSON{Steps: []int64{}, Wall: []summary.Float{}, Curves: []prCardCurve{}}
			for _, i := range result.EvenSteps(len(es), steps) {
				j.Steps = append(j.Steps, es[i].Step)
				j.Wall = append(j.Wall, summary.Float(es[i].WallTime))
				j.Curves = append(j.Curves, prCardCurve{prCurveOf(es[i]), prDrawn(es[i])})
				if note := attemptNote(s.run, es[i].Written); note != "" && j.Writes == nil {
					j.Writes = make([]string, len(j.Steps)-1, cap(j.Steps))
				}
				if j.Writes != nil {
					j.Writes = append(j.Writes, attemptNote(s.run, es[i].Written))
				}
			}
			c := prCard{Run: s.run.Name, Label: stepsLabel(len(j.Steps), len(es)), Last: len(j.Steps) - 1, Data: "null"}
			if data, err := scriptJSON(j); err != nil {
				c.Note = "This chart cannot be drawn: " + err.Error()
			} else {
				c.Data = data
			}
			t.Cards = append(t.Cards, c)
		}
		p.Tags = append(p.Tags, t)
	}
	room, err := r.pageRoom()
	if err != nil {
		return nil, err
	}
	cards := make([][]prCard, len(p.Tags))
	for t := range p.Tags {
		cards[t] = p.Tags[t].Cards
	}
	// A card's markup (templates/pr_curves.html) is some 500 bytes besides
	// its data and the run's name, three times, escaped.
	keep := keepCards(cards, func(c prCard) int { return 640 + 3*len(c.Run) + len(c.Label) + len(c.Note) + len(c.Data) }, room, 256)
	cutCards(r, len(p.Tags), keep, "pr_curves", single, func(t int) string { return p.Tags[t].Tag },
		func(t int) *[]prCard { return &p.Tags[t].Cards }, func(t int) *cutSection { return &p.Tags[t].cutSection },
		func(c prCard) string { return c.Run })
	return p, nil
}

// prStepBudget is how many steps each card offers: perCard, or fewer, the
// same for every card, when the page would inline more than perPage
// numbers.
func prStepBudget(series []prSeries, perCard, perPage int) int {
	values := func(steps int) (n int) {
		for _, s := range series {
			k := min(len(s.series.Entries), steps)
			for _, e := range s.series.Entries[len(s.series.Entries)-k:] { // thresholds rarely change
				n += 7 * len(e.Thresholds)
			}
		}
		return n
	}
	for perCard > 1 && values(perCard) > perPage {
		perCard = max(1, perCard*perPage/values(perCard))
		if perCard > 1 && values(perCard) > perPage {
			perCard--
		}
	}
	return perCard
}

// prCurvesData returns the PR curves page's data files: every step of
// every series, {tag: [{wall_time, step, thresholds, precision, recall,
// tp, fp, tn, fn}]}, the arrays in threshold order, every threshold kept
// (also those past the last with TP + FP > 0, which the page does not
// draw).
func (r *Report) prCurvesData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: "pr_curve", index: map[string]map[string]string{}}
	type entry struct {
		WallTime summary.Float `json:"wall_time"`
		Step     int64         `json:"step"`
		prCurveJSON
		entryWrite
	}
	for _, pt := range r.prTags() {
		for _, s := range pt.runs {
			entries := make([]any, len(s.series.Entries))
			for i, e := range s.series.Entries {
				entries[i] = entry{summary.Float(e.WallTime), e.Step, prCurveOf(e), entryWriteOf(s.run, e.Written)}
			}
			if err := emitTagFile(d, emit, s.run.Name, pt.tag, dataFile("pr_curves", s.run.Name, pt.tag), entries); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}
