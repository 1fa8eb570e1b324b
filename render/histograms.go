package render

import (
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"strconv"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Drawing budgets of the histograms page. Every step stays in the data
// files; the page inlines, per chart, at most Options.HistogramSteps steps
// spread evenly (the last always kept), fewer when the page as a whole
// would inline more than histogramPageBins bins, each step drawn in
// histogramBins bins.
const (
	histogramBins     = 30
	histogramPageBins = 300_000
)

// histTag is one histogram tag across the runs that have it, and
// histSeries one (run, tag) histogram series.
type (
	histTag    = tagSeries[*model.Histogram]
	histSeries = runSeries[*model.Histogram]
)

func runHistograms(run *model.Run) []*model.Histogram {
	return withEntries(run.Histograms, func(h *model.Histogram) int { return len(h.Entries) })
}

// histTags returns the histogram tags of the report, sorted.
func (r *Report) histTags() []histTag {
	return byTag(r.rep.Runs, runHistograms, func(h *model.Histogram) string { return h.Tag })
}

// stepBudget returns how many steps each chart of a page inlines: at most
// perChart, and fewer (but at least two) when the charts of every series
// together would inline more than pageUnits, a step being unitsPerStep.
func stepBudget(tags []histTag, perChart, pageUnits, unitsPerStep int) int {
	series := countSeries(tags)
	if series == 0 {
		return perChart
	}
	return max(2, min(perChart, pageUnits/(series*unitsPerStep)))
}

// statisticPage is what templates/histograms.html and
// templates/distributions.html draw: tag groups, each tag with one chart
// per run.
type statisticPage struct {
	Groups []statGroup
	// Budget is the most steps a chart draws.
	Budget int
}

type statGroup struct {
	Name string
	Tags []statTag
}

type statTag struct {
	Tag    string
	Charts []statChart
	cutSection
}

func (p *statisticPage) cutSections() (string, []*cutSection) {
	var secs []*cutSection
	for i := range p.Groups {
		for j := range p.Groups[i].Tags {
			secs = append(secs, &p.Groups[i].Tags[j].cutSection)
		}
	}
	return "stat-card", secs
}

type statChart struct {
	Run   string
	Steps string // "50 of 1,000 steps"
	Data  template.JS
	Note  string // why the chart draws nothing, when its data cannot be encoded
}

// statisticPage builds a page of one chart per tag and run; chart encodes
// the steps idx of a series as the chart's inline data. Over the page's
// byte budget each tag draws its first runs, as many for every tag as fit
// (cutStatistic); dir names the data files that hold the others. In the
// site (single unset) the runs left out load on demand (cutCards).
func (r *Report) statisticPage(budget int, dir string, single bool, chart func(s histSeries, idx []int) json.RawMessage) (*statisticPage, error) {
	p := &statisticPage{Budget: budget}
	for _, ht := range r.histTags() {
		if n, group := len(p.Groups), tagGroup(ht.tag); n == 0 || p.Groups[n-1].Name != group {
			p.Groups = append(p.Groups, statGroup{Name: group})
		}
		st := statTag{Tag: ht.tag}
		for _, s := range ht.runs {
			idx := result.EvenSteps(len(s.series.Entries), budget)
			c := statChart{Run: s.run.Name, Steps: stepsLabel(len(idx), len(s.series.Entries)), Data: "null"}
			sup := 0
			for _, e := range s.series.Entries {
				if e.Superseded {
					sup++
				}
			}
			if sup > 0 {
				// The count above holds the writes later ones superseded.
				c.Steps += fmt.Sprintf(" (%s superseded)", result.FormatCount(sup))
			}
			data, err := scriptJSON(statChartJSON{Run: s.run.Name, Total: len(s.series.Entries), Draw: chart(s, idx)})
			if err != nil {
				c.Note = "This chart cannot be drawn: " + err.Error()
			} else {
				c.Data = data
			}
			st.Charts = append(st.Charts, c)
		}
		g := &p.Groups[len(p.Groups)-1]
		g.Tags = append(g.Tags, st)
	}
	room, err := r.pageRoom()
	if err != nil {
		return nil, err
	}
	r.cutStatistic(p, room, dir, single)
	return p, nil
}

// cutStatistic leaves out of every tag of p the runs past the first that
// fit in room, with a note saying so; a page that fits is left as it is.
// In the site (single unset) a tag cut offers the others on demand
// (cutCards).
func (r *Report) cutStatistic(p *statisticPage, room int, dir string, single bool) {
	var tags []*statTag
	for i := range p.Groups {
		room -= 128 + len(p.Groups[i].Name) // the group's section and heading
		for j := range p.Groups[i].Tags {
			tags = append(tags, &p.Groups[i].Tags[j])
		}
	}
	cards := make([][]statChart, len(tags))
	for t, st := range tags {
		cards[t] = st.Charts
	}
	keep := keepCards(cards, func(c statChart) int {
		// A run's name is written twice, escaped.
		return statCardFrame + len(c.Data) + len(c.Steps) + len(c.Note) + 2*len(c.Run)
	}, room, statTagFrame)
	cutCards(r, len(tags), keep, dir, single, func(t int) string { return tags[t].Tag },
		func(t int) *[]statChart { return &tags[t].Charts }, func(t int) *cutSection { return &tags[t].cutSection },
		func(c statChart) string { return c.Run })
}

// Bytes of the page around a chart's data and names, and of a tag's
// section around its charts (templates/histograms.html), with room.
const (
	statCardFrame = 320
	statTagFrame  = 256
)

// statChartJSON is the inline data of one chart: the run, its count of
// steps, and what the chart draws, in a shape of the page's own (see
// assets/histograms.js).
type statChartJSON struct {
	Run   string          `json:"run"`
	Total int             `json:"total"`
	Draw  json.RawMessage `json:"draw"`
}

// histogramsPage is what templates/histograms.html draws. Like
// TensorBoard, a chart draws its histograms re-binned into histogramBins
// equal-width bins over the range of its drawn steps, so that buckets of
// different widths compare; what it draws is {lo, hi, steps} with steps
// [step, [count, ...]], counts to four significant digits, then the
// values no bucket holds ([nan, +inf, -inf], or null) when there is more,
// then {note, superseded} for a write of a run that restarted.
func (r *Report) histogramsPage(single bool) (*statisticPage, error) {
	tags := r.histTags()
	budget := stepBudget(tags, r.opt.HistogramSteps, histogramPageBins, histogramBins)
	rebin := r.an.Histograms.Rebin
	return r.statisticPage(budget, "histograms", single, func(s histSeries, idx []int) json.RawMessage {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, i := range idx {
			for _, bk := range s.series.Entries[i].Buckets {
				if !math.IsInf(bk.Left, 0) && !math.IsInf(bk.Right, 0) && !math.IsNaN(bk.Left+bk.Right) {
					lo, hi = min(lo, bk.Left), max(hi, bk.Right)
				}
			}
		}
		if lo > hi {
			lo, hi = 0, 0
		}
		if lo == hi { // one value: a unit-wide range around it
			lo, hi = widen(lo)
		}
		b := appendValue([]byte(`{"lo":`), lo, false)
		b = appendValue(append(b, `,"hi":`...), hi, false)
		b = append(b, `,"steps":[`...)
		for k, i := range idx {
			e := s.series.Entries[i]
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, e.Step, 10)
			b = append(b, ",["...)
			for j, c := range rebin(e.Buckets, lo, hi, histogramBins) {
				if j > 0 {
					b = append(b, ',')
				}
				b = appendCount(b, c)
			}
			b = append(b, ']')
			w := entryWriteOf(s.run, e.Written)
			switch {
			case nonFinite(e):
				// MindSpore counts NaN and infinite values apart from
				// the buckets: the tooltip says so.
				b = append(b, ",["...)
				b = strconv.AppendInt(b, e.NaN, 10)
				b = append(b, ',')
				b = strconv.AppendInt(b, e.PosInf, 10)
				b = append(b, ',')
				b = strconv.AppendInt(b, e.NegInf, 10)
				b = append(b, ']')
			case w.Note != "":
				b = append(b, ",null"...)
			}
			if w.Note != "" {
				// The write of a run that restarted or rewrote the
				// step: the chart draws a superseded one faded, the
				// tooltip says which.
				b = append(b, `,{"note":`...)
				b = strconv.AppendQuote(b, w.Note)
				if w.Superseded {
					b = append(b, `,"superseded":true`...)
				}
				b = append(b, '}')
			}
			b = append(b, ']')
		}
		return append(b, "]}"...)
	})
}

// widen returns a range around the single value v: unit-wide, or as wide
// as needed for v's precision (1e308 + 0.5 is 1e308), never reaching an
// infinity (one side stays v at the ends of float64's range).
func widen(v float64) (lo, hi float64) {
	d := max(0.5, math.Abs(v)/(1<<20))
	lo, hi = v-d, v+d
	if math.IsInf(lo, 0) {
		lo = v
	}
	if math.IsInf(hi, 0) {
		hi = v
	}
	return lo, hi
}

// appendCount appends a re-binned count for drawing, to four significant
// digits, as a JSON number whatever it is: a bin that sums counts past
// float64's range is drawn as the largest count that prints, and a NaN
// count (no writer's count is NaN: Rebin skips them) as 0.
func appendCount(b []byte, c float64) []byte {
	const largest = 1.797e308 // 4 digits of math.MaxFloat64, rounded down
	switch {
	case math.IsNaN(c):
		c = 0
	case c > largest:
		c = largest
	case c < -largest:
		c = -largest
	}
	return strconv.AppendFloat(b, c, 'g', 4, 64)
}

// histogramsData returns data/histograms/<run>/<tag>.json for every
// series: {tag: [[wall_time, step, min, max, [[left, right, count], ...]], ...]}
// with every step, exactly as stored.
func (r *Report) histogramsData(emit func(file) error) (*pageData, error) {
	return r.statisticData("histogram", "histograms", func(b []byte, run *model.Run, h *model.Histogram, i int) []byte {
		return appendHistogram(b, h.Entries[i], entryWriteOf(run, h.Entries[i].Written))
	}, emit)
}

// statisticData emits one data file per histogram series, formatted on
// all cores (dir names the files' directory under data/; entry appends
// a series' entry i), and returns their index under category.
func (r *Report) statisticData(category, dir string, entry func(b []byte, run *model.Run, h *model.Histogram, i int) []byte, emit func(file) error) (*pageData, error) {
	d := &pageData{category: category, section: "statistic", index: map[string]map[string]string{}}
	type job struct {
		tag  string
		s    histSeries
		name string
	}
	var jobs []job
	for _, ht := range r.histTags() {
		for _, s := range ht.runs {
			name := dataFile(dir, s.run.Name, ht.tag)
			jobs = append(jobs, job{ht.tag, s, name})
			d.add(s.run.Name, ht.tag, name)
		}
	}
	err := inOrder(len(jobs), func(i int) []byte { return seriesFile(jobs[i].tag, jobs[i].s.run, jobs[i].s.series, entry) },
		func(i int, b []byte) error { return emit(file{"data/" + jobs[i].name, b}) })
	if err != nil {
		return nil, err
	}
	return d, nil
}

// seriesFile writes a data file {tag: [entry, ...]} of h, one entry a line.
func seriesFile(tag string, run *model.Run, h *model.Histogram, entry func(b []byte, run *model.Run, h *model.Histogram, i int) []byte) []byte {
	t, _ := json.Marshal(tag)
	b := append(append([]byte{'{'}, t...), ":["...)
	for i := range h.Entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		b = entry(b, run, h, i)
	}
	return append(b, "\n]}\n"...)
}

// nonFinite reports whether a histogram counts values no bucket holds
// (MindSpore's NaN and infinite values).
func nonFinite(e model.HistogramEntry) bool { return e.NaN != 0 || e.PosInf != 0 || e.NegInf != 0 }

// appendHistogram appends [wall_time, step, min, max, [[left, right, count], ...]],
// and after the rows, when there is anything to say, an object: the
// values no bucket holds ("nan", "pos_inf", "neg_inf") when the histogram
// counts them, and the write (w: "attempt", "superseded") when its run
// restarted or rewrote the step.
func appendHistogram(b []byte, e model.HistogramEntry, w entryWrite) []byte {
	b = append(b, '[')
	b = appendWallTime(b, e.WallTime)
	b = append(b, ',')
	b = strconv.AppendInt(b, e.Step, 10)
	for _, v := range []float64{e.Min, e.Max} {
		b = appendValue(append(b, ','), v, false)
	}
	b = append(b, ",["...)
	for i, bk := range e.Buckets {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = appendValue(b, bk.Left, false)
		b = appendValue(append(b, ','), bk.Right, false)
		b = appendValue(append(b, ','), bk.Count, false)
		b = append(b, ']')
	}
	b = append(b, ']')
	switch {
	case nonFinite(e):
		b = fmt.Appendf(b, `,{"nan":%d,"pos_inf":%d,"neg_inf":%d`, e.NaN, e.PosInf, e.NegInf)
		b = appendWrite(b, w, true)
		b = append(b, '}')
	case w.Note != "":
		b = append(b, ",{"...)
		b = appendWrite(b, w, false)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendWrite appends the keys of an entry's write, "attempt" and, when
// set, "superseded", to a JSON object (after others when comma is set);
// nothing for an entry of a run that never restarted.
func appendWrite(b []byte, w entryWrite, comma bool) []byte {
	if w.Note == "" {
		return b
	}
	if comma {
		b = append(b, ',')
	}
	b = append(b, `"attempt":`...)
	b = strconv.AppendInt(b, int64(w.Attempt), 10)
	if w.Superseded {
		b = append(b, `,"superseded":true`...)
	}
	return b
}
