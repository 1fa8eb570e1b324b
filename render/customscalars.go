package render

import (
	"fmt"
	"html/template"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// The Custom Scalars page draws the runs' custom-scalars layouts
// (TensorBoard's dashboard of the same name) and the charts a reader pins
// on the Scalars page (Tianshu's "custom" page): it exists whenever the
// report has scalars or a layout, so that pins always have a place. It
// holds no points of its own: assets/custom_scalars.js loads the scalars
// page's data files (data/scalars/..., as scripts), or in the single file
// reads the scalars page's own chart data, which is in the same document.

// Bounds on what a layout, which comes from a log, may cost the page.
const (
	// maxLayoutCharts is how many charts of the merged layout are drawn;
	// the rest are counted in a note.
	maxLayoutCharts = 500
	// maxChartSeries is how many (run, tag) series one chart draws.
	maxChartSeries = 200
	// maxPatternLen bounds a multiline chart's regular expression: Go's
	// are matched in linear time, but compiling one costs its length.
	maxPatternLen = 1000
	// maxPinnedRuns is how many runs a pinned chart draws: the first of
	// its tag in report order (MAX_PINNED_RUNS in
	// assets/custom_scalars.js). The page's index names only the runs some
	// chart can draw, so that it does not grow with a sweep's runs: a
	// bundle name and a start time each made a 15 MB page at 100,000 runs.
	maxPinnedRuns = 200
)

// hasCustomScalars is the page's has-data test: some run has scalars or a
// layout.
func (r *Report) hasCustomScalars() bool {
	return len(r.tags) > 0 || r.anyRun(func(run *model.Run) bool { return run.Layout != nil })
}

// hasLayout reports whether some run wrote a custom-scalars layout: the
// page is listed only then (page.listed), as it holds nothing else until
// a chart is pinned.
func (r *Report) hasLayout() bool {
	return r.anyRun(func(run *model.Run) bool { return run.Layout != nil })
}

// countLayoutCharts is what the overview says of the page: the charts of
// the merged layout and the runs that wrote a layout (the page is listed
// only with a layout).
func countLayoutCharts(r *Report, _ []model.Kind) countLine {
	c := countLine{Unit: "layout chart"}
	for _, cat := range mergeLayouts(r.rep.Runs).Categories {
		c.N += len(cat.Charts)
	}
	for _, run := range r.rep.Runs {
		if run.Layout != nil {
			c.Runs++
		}
	}
	return c
}

// mergeLayouts merges the runs' layouts as TensorBoard's custom-scalars
// plugin does: runs in order of name, the first run's categories first; a
// category whose title was seen takes the charts it lacks (an equal chart
// is not repeated), others are appended. (TensorBoard's own merge loses
// the charts of a third layout's category that only the second one had
// introduced; here every layout's charts land in their category.)
func mergeLayouts(runs []*model.Run) model.Layout {
	withLayout := slices.Clone(runs)
	withLayout = slices.DeleteFunc(withLayout, func(run *model.Run) bool { return run.Layout == nil })
	slices.SortStableFunc(withLayout, func(a, b *model.Run) int { return strings.Compare(a.Name, b.Name) })
	var merged model.Layout
	at := map[string]int{} // category title -> index in merged
	for _, run := range withLayout {
		for _, cat := range run.Layout.Categories {
			i, ok := at[cat.Title]
			if !ok {
				at[cat.Title] = len(merged.Categories)
				merged.Categories = append(merged.Categories, model.LayoutCategory{Title: cat.Title, Closed: cat.Closed, Charts: slices.Clone(cat.Charts)})
				continue
			}
			for _, ch := range cat.Charts {
				if !slices.ContainsFunc(merged.Categories[i].Charts, func(c model.LayoutChart) bool { return reflect.DeepEqual(c, ch) }) {
					merged.Categories[i].Charts = append(merged.Categories[i].Charts, ch)
				}
			}
		}
	}
	return merged
}

// customScalarsPage is what templates/custom_scalars.html draws.
type customScalarsPage struct {
	Categories []csCategory
	// RunNames names the runs with scalars, for the run selector.
	RunNames template.JS
	// Index says, per scalar tag, which runs have it and their data files
	// (see customIndex): what pinned charts and layout charts load.
	Index template.JS
	// Skipped counts the layout's charts beyond maxLayoutCharts.
	Skipped int
	// RunsCut counts the runs with scalars the page's index and run
	// selector leave out, as no chart of the page can draw them (see
	// maxPinnedRuns); RunsListed counts those they name, and RunsNote says
	// so on the page ("" when none is left out).
	RunsCut, RunsListed int
	RunsNote            string
}

type csCategory struct {
	Title  string
	Closed bool
	Charts []csChart
}

type csChart struct {
	Title string
	Kind  string // "multiline" or "margin"
	// What lists the chart's regular expressions or margin series, as
	// the layout gives them.
	What []string
	// Matched says how many series the chart draws.
	Matched string
	Notes   []string
	Data    template.JS
}

// customIndex is the page's index of the scalar series: the runs in
// report order with their start times (the relative x axis needs them),
// and per tag the runs that have it. A series' points are in its run's
// Bundle, under its tag (left out in the single file, which has no data
// files): the page names a file per run, not per series, so that a
// report of 20,000 tags in 2 runs (examples/synth -runs 2 -tags 20000
// -steps 3) keeps a small page.
type customIndex struct {
	Runs []customIndexRun          `json:"runs"`
	Tags map[string]customIndexTag `json:"tags"`
}

type customIndexRun struct {
	Name  string        `json:"name"`
	Start summary.Float `json:"start"`
	// Bundle is the scalar bundle holding the run (packBundles),
	// relative to data/.
	Bundle string `json:"bundle,omitempty"`
}

type customIndexTag struct {
	Runs []int `json:"runs"`
	// N counts the runs with the tag when Runs lists fewer of them (the
	// first maxPinnedRuns, and those a layout chart draws); 0 otherwise.
	N int `json:"n,omitempty"`
}

// csSeries is one line of a layout chart: the run's index in the page's
// index and its tag; a margin chart's also names the tags of its band.
type csSeries struct {
	Run   int    `json:"run"`
	Tag   string `json:"tag"`
	Lower string `json:"lower,omitempty"`
	Upper string `json:"upper,omitempty"`
}

type csChartData struct {
	Title  string     `json:"title"`
	Kind   string     `json:"kind"`
	Series []csSeries `json:"series"`
}

func (r *Report) customScalarsPage(single bool) (*customScalarsPage, error) {
	p := &customScalarsPage{}
	idx := customIndex{Tags: map[string]customIndexTag{}}
	runIndex := map[*model.Run]int{}
	for _, run := range r.rep.Runs {
		if len(runScalars(run)) == 0 {
			continue
		}
		runIndex[run] = len(idx.Runs)
		ir := customIndexRun{Name: run.Name, Start: summary.Float(run.Start)}
		if !single {
			ir.Bundle = r.bundleOf[run]
		}
		idx.Runs = append(idx.Runs, ir)
	}
	// tagsOf lists each run's scalar tags, sorted, for matching; tags
	// lists them all once, so that a pattern sees each tag once.
	tagsOf := map[int][]string{}
	tags := make([]string, len(r.tags))
	has := map[[2]string]bool{}          // run name, tag
	drawn := make([]bool, len(idx.Runs)) // a chart of the page can draw the run
	for k, tv := range r.tags {
		tags[k] = tv.tag
		it := customIndexTag{}
		for j, sv := range tv.series {
			i := runIndex[sv.run]
			it.Runs = append(it.Runs, i)
			tagsOf[i] = append(tagsOf[i], tv.tag)
			has[[2]string{sv.run.Name, tv.tag}] = true
			if j < maxPinnedRuns {
				drawn[i] = true
			}
		}
		idx.Tags[tv.tag] = it
	}
	var charts []csChartData
	for _, cat := range mergeLayouts(r.rep.Runs).Categories {
		c := csCategory{Title: cat.Title, Closed: cat.Closed}
		for _, ch := range cat.Charts {
			if len(charts) == maxLayoutCharts {
				p.Skipped++
				continue
			}
			cc, d, err := layoutChart(ch, idx.Runs, tags, tagsOf, has)
			if err != nil {
				return nil, err
			}
			for _, s := range d.Series {
				drawn[s.Run] = true
			}
			charts = append(charts, d)
			c.Charts = append(c.Charts, cc)
		}
		p.Categories = append(p.Categories, c)
	}
	// Past maxPinnedRuns runs of a tag, the index keeps the runs a chart
	// can draw, renumbered.
	p.RunsListed = len(idx.Runs)
	if slices.Contains(drawn, false) {
		at := make([]int, len(idx.Runs))
		kept := idx.Runs[:0]
		for i, ir := range idx.Runs {
			at[i] = len(kept)
			if drawn[i] {
				kept = append(kept, ir)
			}
		}
		p.RunsCut, p.RunsListed = len(idx.Runs)-len(kept), len(kept)
		p.RunsNote = fmt.Sprintf("The run selector lists the %s a chart of this page can draw: a pinned chart draws the first %d runs of its tag, a layout chart its first %d series. The other %s are drawn as a band on the Scalars page.",
			result.CountOf(p.RunsListed, "run", "runs"), maxPinnedRuns, maxChartSeries, result.CountOf(p.RunsCut, "run", "runs"))
		idx.Runs = kept
		for tag, it := range idx.Tags {
			n := len(it.Runs)
			it.Runs = slices.DeleteFunc(it.Runs, func(i int) bool { return !drawn[i] })
			for k, i := range it.Runs {
				it.Runs[k] = at[i]
			}
			if len(it.Runs) < n {
				it.N = n
			}
			idx.Tags[tag] = it
		}
		for _, d := range charts {
			for k := range d.Series {
				d.Series[k].Run = at[d.Series[k].Run]
			}
		}
	}
	var names []string // null when no run has scalars, as before
	for _, ir := range idx.Runs {
		names = append(names, ir.Name)
	}
	var err error
	if p.RunNames, err = scriptJSON(names); err != nil {
		return nil, err
	}
	if p.Index, err = scriptJSON(idx); err != nil {
		return nil, err
	}
	k := 0
	for ci := range p.Categories {
		for j := range p.Categories[ci].Charts {
			if p.Categories[ci].Charts[j].Data, err = scriptJSON(charts[k]); err != nil {
				return nil, fmt.Errorf("chart %q: %w", charts[k].Title, err)
			}
			k++
		}
	}
	return p, nil
}

// layoutChart resolves one chart of the layout to the series it draws.
//
// A multiline chart draws, in every run, each tag that one of its regular
// expressions matches at its start: TensorBoard joins them as
// (r1)|(r2)|... and keeps the tags Python's re.match accepts, a match
// anchored at the start only ("loss" takes "loss_ema" too). They are
// compiled with Go's RE2, which has the usual syntax but no
// backreferences or lookaround: a pattern it refuses is named in a note
// and the chart's other patterns still match.
//
// A margin chart draws, in every run that has its value tag, the value
// line with a band from its lower to its upper tag, named exactly.
func layoutChart(ch model.LayoutChart, runs []customIndexRun, tags []string, tagsOf map[int][]string, has map[[2]string]bool) (csChart, csChartData, error) {
	c := csChart{Title: ch.Title}
	d := csChartData{Title: ch.Title, Series: []csSeries{}}
	more := 0
	add := func(s csSeries) {
		if len(d.Series) == maxChartSeries {
			more++
			return
		}
		d.Series = append(d.Series, s)
	}
	switch {
	case ch.Margin != nil:
		c.Kind, d.Kind = "margin", "margin"
		for _, m := range ch.Margin {
			c.What = append(c.What, fmt.Sprintf("%s between %s and %s", m.Value, m.Lower, m.Upper))
		}
		for i, run := range runs {
			for _, m := range ch.Margin {
				if !has[[2]string{run.Name, m.Value}] {
					continue
				}
				add(csSeries{Run: i, Tag: m.Value, Lower: m.Lower, Upper: m.Upper})
				for _, t := range []string{m.Lower, m.Upper} {
					if !has[[2]string{run.Name, t}] {
						c.Notes = append(c.Notes, fmt.Sprintf("Run %s has no scalar tag %s: its band is drawn where both bounds are.", run.Name, t))
					}
				}
			}
		}
	default:
		c.Kind, d.Kind = "multiline", "multiline"
		c.What = ch.Multiline
		// The patterns that compile, joined as TensorBoard joins them, and
		// matched once against each distinct tag of the report.
		var valid []string
		for _, src := range ch.Multiline {
			if len(src) > maxPatternLen {
				c.Notes = append(c.Notes, fmt.Sprintf("A pattern of %d bytes is longer than %d: not matched.", len(src), maxPatternLen))
				continue
			}
			if _, err := regexp.Compile(src); err != nil {
				c.Notes = append(c.Notes, fmt.Sprintf("The pattern %q is not one Go's RE2 syntax accepts (%v): not matched.", src, err))
				continue
			}
			valid = append(valid, "(?:"+src+")")
		}
		matched := map[string]bool{}
		if len(valid) > 0 {
			re, err := regexp.Compile(`^(?:` + strings.Join(valid, "|") + `)`)
			if err != nil {
				return csChart{}, csChartData{}, fmt.Errorf("chart %q: patterns that compile alone do not together: %w", ch.Title, err)
			}
			for _, tag := range tags {
				if re.MatchString(tag) {
					matched[tag] = true
				}
			}
		}
		for i := range runs {
			for _, tag := range tagsOf[i] {
				if matched[tag] {
					add(csSeries{Run: i, Tag: tag})
				}
			}
		}
	}
	if more > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("This chart draws its first %d series; %d more match.", maxChartSeries, more))
	}
	c.Notes = slices.Compact(c.Notes)
	c.Matched = result.CountOf(len(d.Series), "series", "series")
	if len(d.Series) == 0 {
		c.Notes = append(c.Notes, "No scalar series of the report matches this chart.")
	}
	return c, d, nil
}
