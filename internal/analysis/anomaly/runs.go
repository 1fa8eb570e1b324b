package anomaly

import (
	"cmp"
	"fmt"
	"math"
	"path"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// siblings is what a run rule knows of a run's place among the runs of its
// directory, found once for the report.
type siblings struct {
	// last is the run's last scalar step; ok is false when it has no
	// scalar point.
	last int64
	ok   bool
	// others is how many other runs of its directory have a last scalar
	// step, median the median of those steps (NaN when there is none);
	// both zero when ok is false.
	others int
	median float64
}

// runRules runs the rules of a table on whole runs (a run that stopped
// early against its siblings, one that restarted, one with damaged files),
// a run after the other, in the report's order.
//
// The median of a run's siblings is read from its directory's last steps
// sorted once: leaving out the run's own step (as many copies as the run
// is listed) shifts the order statistics past it by that many, so a run
// costs O(log n) rather than a sort of its n siblings.
func runRules(rep *model.Report, rules []Rule, th Thresholds, lastScalarStep func(*model.Run) (int64, bool)) []result.Anomaly {
	var out []result.Anomaly
	type dir struct {
		steps []float64 // the last steps of its runs that have one, sorted
		runs  map[*model.Run]int
	}
	reached := map[*model.Run]int64{}
	dirs := map[string]*dir{}
	key := func(run *model.Run) string { return run.Logdir + "\x00" + path.Dir(run.Path) }
	for _, run := range rep.Runs {
		if last, ok := lastScalarStep(run); ok {
			reached[run] = last
			d := dirs[key(run)]
			if d == nil {
				d = &dir{runs: map[*model.Run]int{}}
				dirs[key(run)] = d
			}
			d.steps = append(d.steps, float64(last))
			d.runs[run]++
		}
	}
	for _, d := range dirs {
		slices.Sort(d.steps)
	}
	for _, run := range rep.Runs {
		var sib siblings
		sib.last, sib.ok = reached[run]
		if sib.ok {
			d := dirs[key(run)]
			sib.others, sib.median = medianWithout(d.steps, float64(sib.last), d.runs[run])
		}
		for _, r := range rules {
			if a := r.run(run, sib, th); a != nil {
				out = append(out, r.fired(a, run.Name, ""))
			}
		}
	}
	return out
}

// medianWithout returns how many values sorted holds once r copies of v
// (which it holds) are left out, and their median (NaN when none is
// left): the value at a rank below v's first copy is sorted's at that
// rank, one at or above it is r further on.
func medianWithout(sorted []float64, v float64, r int) (int, float64) {
	n := len(sorted) - r
	if n <= 0 {
		return 0, math.NaN()
	}
	p, _ := slices.BinarySearch(sorted, v)
	at := func(k int) float64 {
		if k < p {
			return sorted[k]
		}
		return sorted[k+r]
	}
	if n%2 == 1 {
		return n, at(n / 2)
	}
	return n, (at(n/2-1) + at(n/2)) / 2
}

// runStoppedEarly fires when a run's last scalar step is below
// th.EarlyFraction of the median of its siblings', with at least
// th.EarlySiblings of them (and at least one).
func runStoppedEarly(_ *model.Run, sib siblings, th Thresholds) *result.Anomaly {
	if !sib.ok || sib.others < th.EarlySiblings || sib.others == 0 {
		return nil
	}
	med := sib.median
	if float64(sib.last) >= th.EarlyFraction*med {
		return nil
	}
	return &result.Anomaly{HasStep: true, Step: sib.last, Value: float64(sib.last), Count: 1,
		Detail: fmt.Sprintf("stopped at step %d, below %.0f%% of its %d siblings' median last step %.0f", sib.last, 100*th.EarlyFraction, sib.others, med)}
}

// runRestarted fires when more than one attempt wrote into a run.
func runRestarted(run *model.Run, _ siblings, _ Thresholds) *result.Anomaly {
	if len(run.Attempts) <= 1 {
		return nil
	}
	sup := 0
	for _, a := range run.Attempts {
		sup += a.Superseded
	}
	return &result.Anomaly{Value: float64(len(run.Attempts)), Count: len(run.Attempts),
		Detail: fmt.Sprintf("restarted: %d attempts, %d scalar points superseded", len(run.Attempts), sup)}
}

// runDamagedFiles fires when event files of a run are truncated, damaged
// or Git LFS pointers.
func runDamagedFiles(run *model.Run, _ siblings, _ Thresholds) *result.Anomaly {
	var bad []string
	for _, f := range run.Files {
		switch f.Status {
		case "truncated", "damaged", "lfs-pointer":
			bad = append(bad, f.Rel+" ("+f.Status+")")
		}
	}
	if len(bad) == 0 {
		return nil
	}
	shown := bad[:min(len(bad), 3)]
	more := ""
	if len(bad) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(bad)-len(shown))
	}
	return &result.Anomaly{Value: float64(len(bad)), Count: len(bad),
		Detail: fmt.Sprintf("has %s not read whole: %s%s", plural(len(bad), "file", "files"), strings.Join(shown, ", "), more)}
}

// lastScalarStep is the last step of a run's scalar series, where training
// got to; false when the run has no scalar point.
func lastScalarStep(run *model.Run) (int64, bool) {
	var last int64
	ok := false
	for _, s := range run.Scalars {
		if n := len(s.Points); n > 0 {
			st := slices.MaxFunc(s.Points, func(a, b model.Point) int { return cmp.Compare(a.Step, b.Step) }).Step
			if !ok || st > last {
				last, ok = st, true
			}
		}
	}
	return last, ok
}
