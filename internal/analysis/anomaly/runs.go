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

// runRules runs the rules on whole runs: a run that stopped early against
// its siblings, one that restarted, one with damaged files.
func runRules(rep *model.Report, th Thresholds) []result.Anomaly {
	var out []result.Anomaly
	reached := map[*model.Run]int64{}
	siblings := map[string][]*model.Run{}
	for _, run := range rep.Runs {
		if last, ok := lastScalarStep(run); ok {
			reached[run] = last
			key := run.Logdir + "\x00" + path.Dir(run.Path)
			siblings[key] = append(siblings[key], run)
		}
	}
	for _, run := range rep.Runs {
		add := func(rule string, severity result.Severity, value float64, count int, msg string) *result.Anomaly {
			out = append(out, result.Anomaly{Rule: rule, Severity: severity, Kind: result.KindRun, Run: run.Name, Value: value, Count: count,
				Detail: msg})
			return &out[len(out)-1]
		}
		if last, ok := reached[run]; ok {
			var others []float64
			for _, s := range siblings[run.Logdir+"\x00"+path.Dir(run.Path)] {
				if s != run {
					others = append(others, float64(reached[s]))
				}
			}
			if len(others) >= th.EarlySiblings {
				med := median(others)
				if float64(last) < th.EarlyFraction*med {
					a := add("run.stopped_early", result.Warning, float64(last), 1,
						fmt.Sprintf("stopped at step %d, below %.0f%% of its %d siblings' median last step %.0f", last, 100*th.EarlyFraction, len(others), med))
					a.HasStep, a.Step = true, last
				}
			}
		}
		if len(run.Attempts) > 1 {
			sup := 0
			for _, a := range run.Attempts {
				sup += a.Superseded
			}
			add("run.restarted", result.Warning, float64(len(run.Attempts)), len(run.Attempts),
				fmt.Sprintf("restarted: %d attempts, %d scalar points superseded", len(run.Attempts), sup))
		}
		var bad []string
		for _, f := range run.Files {
			switch f.Status {
			case "truncated", "damaged", "lfs-pointer":
				bad = append(bad, f.Rel+" ("+f.Status+")")
			}
		}
		if len(bad) > 0 {
			shown := bad[:min(len(bad), 3)]
			more := ""
			if len(bad) > len(shown) {
				more = fmt.Sprintf(" and %d more", len(bad)-len(shown))
			}
			add("run.damaged_files", result.Warning, float64(len(bad)), len(bad),
				fmt.Sprintf("has %s not read whole: %s%s", plural(len(bad), "file", "files"), strings.Join(shown, ", "), more))
		}
	}
	return out
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
