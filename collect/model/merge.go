package model

import (
	"errors"
	"fmt"
	"slices"
)

// Merge combines reports of disjoint runs, such as shards of one
// collection (the same log directories, each shard reading some of their
// runs), into one report: their log directories (a name must name the same
// path in each), their runs, in natural order of names (CompareRunNames), and their warnings, a warning
// that several reports carry (a log directory's own, which every shard
// finds) kept once. A run present in two reports is refused, as are
// reports that disagree on KeepAllRecords or RestartRule. The hyperparameter metrics are
// joined again over the union (JoinHParamMetrics), since a session's
// metrics may come from runs of another shard.
//
// The merged report takes the runs and the log directories of reports
// over, without copying them: close it, not them, and use them no more.
func Merge(reports ...*Report) (*Report, error) {
	return merge(reports, true)
}

// MergeRead is Merge of reports read a run at a time (RunReader), each
// run checked as it was read (CheckRun), whose scalar series may hold
// only their last point (a merge's first pass over its parts, which
// reads their points again one run at a time): the merged report is not
// checked again as a whole, which would count every point; its log
// directories, run names and order are checked as Merge checks them.
func MergeRead(reports ...*Report) (*Report, error) {
	return merge(reports, false)
}

func merge(reports []*Report, check bool) (*Report, error) {
	if len(reports) == 0 {
		return nil, errors.New("merge: no reports")
	}
	out := &Report{KeepAllRecords: reports[0].KeepAllRecords, RestartRule: reports[0].RestartRule}
	paths := map[string]string{}
	runs := map[string]bool{}
	kept := map[Warning]int{} // how many of each warning out holds
	for i, r := range reports {
		if r.KeepAllRecords != out.KeepAllRecords {
			return nil, fmt.Errorf("merge: report %d keeps every record and report 0 does not, or the other way", i)
		}
		if r.RestartRule != out.RestartRule {
			return nil, fmt.Errorf("merge: report %d applies restart rule %q, report 0 %q", i, r.RestartRule, out.RestartRule)
		}
		for _, ld := range r.Logdirs {
			if p, ok := paths[ld.Name]; ok {
				if p != ld.Path {
					return nil, fmt.Errorf("merge: log directory %q is %s in one report and %s in another", ld.Name, p, ld.Path)
				}
				continue
			}
			paths[ld.Name] = ld.Path
			out.Logdirs = append(out.Logdirs, ld)
		}
		for _, run := range r.Runs {
			if runs[run.Name] {
				return nil, fmt.Errorf("merge: run %q is in two reports", run.Name)
			}
			runs[run.Name] = true
			out.Runs = append(out.Runs, run)
		}
		seen := map[Warning]int{}
		for _, w := range r.Warnings {
			if seen[w]++; seen[w] > kept[w] {
				kept[w]++
				out.Warnings = append(out.Warnings, w)
			}
		}
		out.sources = append(out.sources, r.sources...)
		out.decoders = out.decoders.Or(r.decoders)
	}
	slices.SortStableFunc(out.Runs, func(a, b *Run) int { return CompareRunNames(a.Name, b.Name) })
	out.JoinHParamMetrics()
	if check {
		if err := out.CheckValid(); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	for _, r := range reports {
		r.sources = nil // out closes them
	}
	return out, nil
}
