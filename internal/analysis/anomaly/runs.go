package anomaly

import (
	"cmp"
	"fmt"
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
	// others are the last scalar steps of the other runs of its directory
	// that have one, in the report's order; nil when ok is false.
	others []float64
}

// runRules runs the rules of a table on whole runs (a run that stopped
// early against its siblings, one that restarted, one with damaged files),
// a run after the other, in the report's order.
func runRules(rep *model.Report, rules []Rule, th Thresholds) []result.Anomaly {
	var out []result.Anomaly
	reached := map[*model.Run]int64{}
	dirs := map[string][]*model.Run{}
	for _, run := range rep.Runs {
		if last, ok := lastScalarStep(run); ok {
			reached[run] = last
			key := run.Logdir + "\x00" + path.Dir(run.Path)
			dirs[key] = append(dirs[key], run)
		}
	}
	for _, run := range rep.Runs {
		var sib siblings
		sib.last, sib.ok = reached[run]
		if sib.ok {
			for _, s := range dirs[run.Logdir+"\x00"+path.Dir(run.Path)] {
				if s != run {
					sib.others = append(sib.others, float64(reached[s]))
				}
			}
		}
		for _, r := range rules {
			if a := r.run(run, sib, th); a != nil {
				out = append(out, r.fired(a, run.Name, ""))
			}
		}
	}
	return out
}

// runStoppedEarly fires when a run's last scalar step is below
// th.EarlyFraction of the median of its siblings', with at least
// th.EarlySiblings of them.
func runStoppedEarly(_ *model.Run, sib siblings, th Thresholds) *result.Anomaly {
	if !sib.ok || len(sib.others) < th.EarlySiblings {
		return nil
	}
	others := slices.Clone(sib.others) // median sorts
	med := median(others)
	if float64(sib.last) >= th.EarlyFraction*med {
		return nil
	}
	return &result.Anomaly{HasStep: true, Step: sib.last, Value: float64(sib.last), Count: 1,
		Detail: fmt.Sprintf("stopped at step %d, below %.0f%% of its %d siblings' median last step %.0f", sib.last, 100*th.EarlyFraction, len(others), med)}
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
