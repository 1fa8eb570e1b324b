package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// appendSuperseded appends to a run's chart data, when its series has
// superseded points, the field the page draws them from (see
// assets/scalarchart.js, supersededSeries): per attempt, its number, its
// number of points, how many its data file keeps (the downloads say when
// --max-data-points capped them) and the drawn ones, [step, value,
// wall_time] each.
func appendSuperseded(b []byte, sv *seriesView) []byte {
	if len(sv.faded) == 0 {
		return b
	}
	b = append(b, `,"superseded":[`...)
	for i, fv := range sv.faded {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"attempt":`...)
		b = strconv.AppendInt(b, int64(fv.Superseded.Attempt), 10)
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, int64(len(fv.Superseded.Points)), 10)
		b = append(b, `,"kept":`...)
		b = strconv.AppendInt(b, int64(keptLen(fv.Data, fv.Superseded.Points)), 10)
		b = append(b, `,"points":`...)
		b = appendDrawnPoints(b, fv.Superseded.Points, fv.Draw, sv.scalar.Float32)
		b = append(b, '}')
	}
	return append(b, ']')
}

// supersededFile is the data file of layout 1 of a series' superseded
// points, beside its line's: "<name>.superseded.json". No line's file ends so, since a
// slug ends with its hash.
func supersededFile(lineFile string) string {
	return strings.TrimSuffix(lineFile, ".json") + ".superseded.json"
}

// supersededData encodes a series' superseded data file of data layout
// 1 (writeTianshu): the tag, and per attempt its number, how many points
// it has and the kept ones, [wall, step, value] each as in the line's
// file, in step order. The tag is a value, not a key, so that no tag can
// collide with the file's keys.
func supersededData(sv *seriesView) []byte {
	b := append([]byte(nil), `{"tag":`...)
	b = appendJSONString(b, sv.scalar.Tag)
	b = append(b, `,"attempts":`...)
	b = appendSupersededAttempts(b, sv)
	return append(b, "}\n"...)
}

// appendSupersededAttempts appends the attempts of a series' superseded
// data file: per attempt its number, how many points it has and the kept
// ones, [wall, step, value] each as in the line's file, in step order.
func appendSupersededAttempts(b []byte, sv *seriesView) []byte {
	b = append(b, '[')
	for i, fv := range sv.faded {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n{\"attempt\":"...)
		b = strconv.AppendInt(b, int64(fv.Superseded.Attempt), 10)
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, int64(len(fv.Superseded.Points)), 10)
		b = append(b, `,"points":`...)
		b = appendDataPoints(b, fv.Superseded.Points, fv.Data, sv.scalar.Float32)
		b = append(b, '}')
	}
	return append(b, "\n]"...)
}

// attemptsJSON returns a run's attempts for summary.json, nil when it had
// no restart.
func attemptsJSON(run *model.Run) []summary.Attempt {
	var out []summary.Attempt
	for k, a := range run.Attempts {
		out = append(out, summary.Attempt{Attempt: k + 1, Files: append([]string{}, a.Files...), FirstStep: a.FirstStep,
			LastStep: a.LastStep, Points: a.Points, Superseded: a.Superseded})
	}
	return out
}

// restartsSection is the overview's account of the runs that restarted
// (templates/index.html, "index-restarts"): their attempts, what became of
// the scalar points later attempts rewrote, and the entries of other
// kinds that are not drawn.
type restartsSection struct {
	Rule     model.RestartRule
	Runs     []restartRun
	Scalars  bool // some run has superseded scalar points
	Replaced bool // some run has entries of other kinds not drawn
	// MoreRuns counts the runs past maxRestartRuns, not listed.
	MoreRuns int
}

type restartRun struct {
	Name     string
	Attempts []attemptRow
	// More counts the attempts past maxAttemptRows, not listed.
	More int
	// Replaced says, per kind, how many entries earlier writes held that
	// are not drawn: "11 image entries, 3 histogram entries".
	Replaced string
}

type attemptRow struct {
	N                   int
	Files               []string
	MoreFiles           int
	FirstStep, LastStep int64
	HasSteps            bool
	Points, Superseded  string
}

// Bounds of the overview's restarts section: a log whose steps go back at
// every value records up to a thousand attempts, and an attempt may span
// thousands of files; summary.json lists them all.
const (
	maxAttemptRows  = 20
	maxAttemptFiles = 5
	// maxRestartRuns bounds the runs listed: a sweep of thousands of runs
	// may have restarted every one.
	maxRestartRuns = 200
)

// restarts returns the overview's restarts section, nil when no run
// restarted or lost an entry to a rewrite.
func (r *Report) restarts() *restartsSection {
	s := &restartsSection{Rule: r.rep.RestartRule}
	for _, run := range r.rep.Runs {
		replaced := replacedEntries(run)
		if run.Attempts == nil && replaced == "" {
			continue
		}
		if len(s.Runs) == maxRestartRuns {
			s.MoreRuns++
			continue
		}
		rr := restartRun{Name: run.Name, Replaced: replaced}
		for k, a := range run.Attempts {
			if k == maxAttemptRows {
				rr.More = len(run.Attempts) - k
				break
			}
			row := attemptRow{N: k + 1, FirstStep: a.FirstStep, LastStep: a.LastStep, HasSteps: a.Points+a.Superseded > 0,
				Points: result.FormatCount(a.Points), Superseded: result.FormatCount(a.Superseded)}
			row.Files = a.Files[:min(len(a.Files), maxAttemptFiles)]
			row.MoreFiles = len(a.Files) - len(row.Files)
			s.Scalars = s.Scalars || a.Superseded > 0
			rr.Attempts = append(rr.Attempts, row)
		}
		s.Replaced = s.Replaced || replaced != ""
		s.Runs = append(s.Runs, rr)
	}
	if len(s.Runs) == 0 {
		return nil
	}
	return s
}

// replacedEntries says how many entries of each kind but scalars later
// writes of their steps replaced in a run: pages draw the latest of each
// step, and these are neither drawn nor kept.
func replacedEntries(run *model.Run) string {
	var parts []string
	add := func(kind string, n int) {
		if n > 0 {
			parts = append(parts, result.CountOf(n, kind+" entry", kind+" entries"))
		}
	}
	dropped := func(n int, d func(i int) int) int {
		t := 0
		for i := range n {
			t += d(i)
		}
		return t
	}
	add("histogram", dropped(len(run.Histograms), func(i int) int { return run.Histograms[i].Dropped }))
	add("image", dropped(len(run.Images), func(i int) int { return run.Images[i].Dropped }))
	add("audio", dropped(len(run.Audio), func(i int) int { return run.Audio[i].Dropped }))
	add("text", dropped(len(run.Texts), func(i int) int { return run.Texts[i].Dropped }))
	add("PR curve", dropped(len(run.PRCurves), func(i int) int { return run.PRCurves[i].Dropped }))
	add("tensor", dropped(len(run.Tensors), func(i int) int { return run.Tensors[i].Dropped }))
	add("mesh", dropped(len(run.Meshes), func(i int) int { return run.Meshes[i].Dropped }))
	add("exception", dropped(len(run.Exceptions), func(i int) int { return run.Exceptions[i].Dropped }))
	return strings.Join(parts, ", ")
}

// supersededLabel is what a scalar chart's caption adds for the
// superseded points of its series: "" when they have none. "Later
// writes", not "attempts": a step written twice within one attempt
// (Lightning's epoch at the end of an epoch) supersedes a point too.
func supersededLabel(tv *tagView) string {
	n := 0
	for _, sv := range tv.series {
		for _, fv := range sv.faded {
			n += len(fv.Superseded.Points)
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("%s superseded by later writes, drawn faded", result.FormatCount(n))
}

// attemptNote says which write of its step an entry of a run's series is
// (a histogram, images, clips, text, a PR curve, a tensor), as the pages
// show it beside the step: "attempt 1 of 2", "attempt 1 of 2,
// superseded", "superseded" (a rewrite of the step in a run's only
// attempt); "" for an entry of a run that never restarted.
func attemptNote(run *model.Run, w model.Written) string {
	var parts []string
	if n := len(run.Attempts); n > 1 && w.Attempt > 0 {
		parts = append(parts, fmt.Sprintf("attempt %d of %d", w.Attempt, n))
	}
	if w.Superseded {
		parts = append(parts, "superseded")
	}
	return strings.Join(parts, ", ")
}

// entryWrite is what an entry of a page's inline data or a data file says
// of its write: its attempt, whether a later write superseded it, and the
// note the page shows (attemptNote); all empty for a run that never
// restarted.
type entryWrite struct {
	Attempt    int    `json:"attempt,omitempty"`
	Superseded bool   `json:"superseded,omitempty"`
	Note       string `json:"note,omitempty"`
}

func entryWriteOf(run *model.Run, w model.Written) entryWrite {
	note := attemptNote(run, w)
	if note == "" {
		return entryWrite{}
	}
	return entryWrite{Attempt: w.Attempt, Superseded: w.Superseded, Note: note}
}
