package render

import (
	"cmp"
	"slices"

	"github.com/trainreport/trainreport/collect/model"
)

// tagSeries is one tag of a kind across the runs that have it: what a page
// draws as a chart, a section or a row of cards.
type tagSeries[S any] struct {
	tag  string
	runs []runSeries[S] // in run order
}

// runSeries is the series of one run for one tag.
type runSeries[S any] struct {
	run    *model.Run
	series S
}

// byTag gathers the series of one kind by tag across runs: the tags in
// order, each with its runs in report order, the same whatever order maps
// choose. series lists a run's series of the kind, tag names a series'
// tag. Every page shows its kind this way, and deriving it once keeps the
// pages agreeing on the order of tags and runs.
func byTag[S any](runs []*model.Run, series func(*model.Run) []S, tag func(S) string) []tagSeries[S] {
	var tags []tagSeries[S]
	at := map[string]int{} // tag -> index in tags
	for _, run := range runs {
		for _, s := range series(run) {
			t := tag(s)
			i, ok := at[t]
			if !ok {
				i = len(tags)
				at[t] = i
				tags = append(tags, tagSeries[S]{tag: t})
			}
			tags[i].runs = append(tags[i].runs, runSeries[S]{run, s})
		}
	}
	// Tags are distinct: the order is total.
	slices.SortFunc(tags, func(a, b tagSeries[S]) int { return cmp.Compare(a.tag, b.tag) })
	return tags
}

// countSeries is how many (run, tag) series tags hold.
func countSeries[S any](tags []tagSeries[S]) int {
	n := 0
	for _, t := range tags {
		n += len(t.runs)
	}
	return n
}

// countItems is the overview's line of a page that shows one kind of item
// per run (graphs, Visdom windows): how many, in how many runs.
func countItems[S any](unit string, items func(*model.Run) []S) func(*Report, []model.Kind) countLine {
	return func(r *Report, _ []model.Kind) countLine {
		c := countLine{Unit: unit}
		for _, run := range r.rep.Runs {
			if n := len(items(run)); n > 0 {
				c.N += n
				c.Runs++
			}
		}
		return c
	}
}

// hasAny is the has-data test of a page that shows the series of one
// kind: some run has one.
func hasAny[S any](series func(*model.Run) []S) func(*Report) bool {
	return func(r *Report) bool {
		return r.anyRun(func(run *model.Run) bool { return len(series(run)) > 0 })
	}
}

// withEntries returns the series of ss that have entries (n counts them).
// A SessionLog START purges the entries after its step, and collect keeps
// a tag whose every entry it purged as a series with none: a page has
// nothing to draw of it (a slider over no steps, a chart of no points), so
// every page, its data files and its has-data test see only the series
// that have entries, through the run* accessors that call this. ss itself
// is returned, unallocated, in the usual case where none is empty.
func withEntries[S any](ss []S, n func(S) int) []S {
	for i, s := range ss {
		if n(s) > 0 {
			continue
		}
		out := slices.Clone(ss[:i])
		for _, s := range ss[i+1:] {
			if n(s) > 0 {
				out = append(out, s)
			}
		}
		return out
	}
	return ss
}

// dataFile names the data file of a (run, tag) series, relative to data/:
// <dir>/<run slug>/<tag slug>.json, the run's directory (dataDir) and the
// tag's file (dataStem).
func dataFile(dir, run, tag string) string {
	return dataDir(dir, run) + dataStem(tag)
}

// dataDir is the directory of a run's data files of a kind, with its
// final slash.
func dataDir(dir, run string) string { return dir + "/" + slug(run) + "/" }

// dataStem is the name of a tag's data file in a run's directory.
func dataStem(tag string) string { return slug(tag) + ".json" }
