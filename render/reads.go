package render

import (
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// ScalarReads says what the outputs written with opt read of each scalar
// series of rep once its run's data files are written
// (analysis.Staged.SetReads): sc is the series as the analysis planned
// them (analysis.Staged.Scalars: tags, views with Run, Scalar and Total,
// Drawn), final a series' final value (analysis.Staged.Final). It is
// decided from those alone, before any run's points are read, so that a
// driver holding a run's points only while its stage runs (a merge)
// keeps of the others only what a page reads: a sweep's pages draw its
// bands, its extremes (kept whole by the analysis) and a few runs inline,
// and load every other run from its data file.
//
// Every output drawn from a Report made of sc's analysis must read no
// more than this says (sparkValues and the charts check it): the site,
// the single file, summary.md in opt's form and the email.
func ScalarReads(rep *model.Report, sc *result.Scalars, final func(*model.Scalar) float64, opt Options) func(*result.ScalarView) result.Reads {
	r := &Report{rep: rep, an: &result.Analysis{Scalars: *sc}, opt: opt}
	for _, st := range sc.Tags {
		tv := &tagView{tag: st.Tag, group: tagGroup(st.Tag)}
		for _, v := range st.Series {
			// The statistics a choice below reads: the last value (the
			// ranks of summary.md), the count.
			stats := model.Stats{Count: v.Total, Last: model.Extreme{Value: final(v.Scalar)}}
			tv.series = append(tv.series, &seriesView{run: v.Run, scalar: v.Scalar, stats: stats, total: v.Total})
		}
		r.tags = append(r.tags, tv)
	}
	reads := map[*model.Scalar]*result.Reads{}
	of := func(sv *seriesView) *result.Reads {
		rd := reads[sv.scalar]
		if rd == nil {
			rd = &result.Reads{}
			reads[sv.scalar] = rd
		}
		return rd
	}
	spark := func(sv *seriesView, budget int) {
		for k, b := range result.SparkBudgets {
			if b == budget {
				of(sv).Spark[k] = true
			}
		}
	}
	// The scalars page: every run's line on every drawn chart up to
	// sweepPageRuns runs (scalarsPage), the bands and the extremes
	// past it.
	if r.scalarRuns() <= sweepPageRuns {
		for _, tv := range r.tags[:r.drawnTags()] {
			for _, sv := range tv.series {
				of(sv).Points = true
			}
		}
	}
	// The charts of summary.md and the email (StaticCharts): the first
	// maxChartRuns runs of the first maxStaticCharts tags with a line
	// of two finite values, which the statistics say, not known yet:
	// those of every tag with two points.
	for _, tv := range r.orderedTags() {
		line := false
		for _, sv := range tv.series {
			line = line || sv.total >= 2
		}
		if !line {
			continue
		}
		for _, sv := range tv.series[:min(len(tv.series), maxChartRuns)] {
			of(sv).Points = true
		}
	}
	// The overview's sparklines: its key-metrics table's (overviewPage),
	// or a sweep's runs table's (sparkChunk).
	if !r.isSweep() {
		rows := 0
		for _, tv := range r.tags {
			for _, sv := range tv.series {
				if rows == overviewMetricRows {
					break
				}
				spark(sv, 80)
				rows++
			}
		}
	} else {
		tags, _ := r.overviewTags()
		for _, tv := range tags {
			for _, sv := range tv.series {
				spark(sv, sparkPoints)
			}
		}
	}
	// summary.md's (sparkText): every series in the job's form; in the
	// comment's (the email's too) every series of a few runs, the ranked
	// ones of a sweep (mdSweep).
	if opt.MarkdownForm == MarkdownJob || r.scalarRuns() <= sweepRuns {
		for _, tv := range r.tags {
			for _, sv := range tv.series {
				spark(sv, 24)
			}
		}
	} else {
		for _, tv := range r.tags {
			ranked, _ := rankByLast(tv.series, betterOf(tv.tag))
			for _, k := range rankedRows(len(ranked)) {
				spark(ranked[k], 24)
			}
		}
	}
	return func(v *result.ScalarView) result.Reads {
		if rd := reads[v.Scalar]; rd != nil {
			return *rd
		}
		return result.Reads{}
	}
}
