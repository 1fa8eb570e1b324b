package anomaly

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path"
	"reflect"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// stoppedEarlyReference is run.stopped_early as it was first written: for
// each run, the last steps of its siblings gathered and sorted, O(n^2 log
// n) in a directory of n runs. What runRules must find.
func stoppedEarlyReference(rep *model.Report, th Thresholds) []result.Anomaly {
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
		last, ok := reached[run]
		if !ok {
			continue
		}
		var others []float64
		for _, s := range dirs[run.Logdir+"\x00"+path.Dir(run.Path)] {
			if s != run {
				others = append(others, float64(reached[s]))
			}
		}
		if len(others) < th.EarlySiblings || len(others) == 0 {
			continue
		}
		med := refMedian(others)
		if float64(last) >= th.EarlyFraction*med {
			continue
		}
		out = append(out, result.Anomaly{Rule: "run.stopped_early", Kind: result.KindRun, Severity: result.Warning, Run: run.Name,
			HasStep: true, Step: last, Value: float64(last), Count: 1,
			Detail: fmt.Sprintf("stopped at step %d, below %.0f%% of its %d siblings' median last step %.0f", last, 100*th.EarlyFraction, len(others), med)})
	}
	return out
}

// randomSiblings is a report of runs spread over a few directories and
// log directories, with tied last steps, runs without scalars, a run
// listed twice, and series whose last point is not their last step.
func randomSiblings(rng *rand.Rand, n int) *model.Report {
	rep := &model.Report{}
	for r := range n {
		run := &model.Run{Name: fmt.Sprintf("run%04d", r), Logdir: []string{"a", "b"}[rng.IntN(2)],
			Path: fmt.Sprintf("%s/run%04d", []string{"x", "y", "z/w"}[rng.IntN(3)], r)}
		if rng.IntN(8) != 0 {
			last := int64(rng.IntN(20)) * 50 // ties
			pts := []model.Point{{Step: last}, {Step: last / 2}}
			run.Scalars = []*model.Scalar{{Tag: "loss", Points: pts}}
		}
		rep.Runs = append(rep.Runs, run)
	}
	if n > 3 {
		rep.Runs = append(rep.Runs, rep.Runs[3])
	}
	return rep
}

// TestStoppedEarlyMatchesReference compares run.stopped_early computed
// from sorted last steps with the quadratic reference, on random reports
// of 0 to 300 runs and thresholds that make it fire often and seldom.
func TestStoppedEarlyMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	var rules []Rule
	for _, r := range Rules() {
		if r.Name == "run.stopped_early" {
			rules = append(rules, r)
		}
	}
	fired := 0
	for trial := range 200 {
		rep := randomSiblings(rng, rng.IntN(300))
		th := DefaultThresholds
		th.EarlySiblings = []int{0, 1, 2, 5, 50}[trial%5]
		th.EarlyFraction = []float64{0.5, 0.9, 1, 1.5}[trial%4]
		got, want := runRules(rep, rules, th), stoppedEarlyReference(rep, th)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (%d runs, %+v):\ngot  %v\nwant %v", trial, len(rep.Runs), th, got, want)
		}
		fired += len(want)
	}
	if fired < 100 {
		t.Errorf("only %d findings: the comparison proves little", fired)
	}
}

// TestMedianWithout checks the median of a sorted list with copies of one
// of its values left out against a sort of what is left.
func TestMedianWithout(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for range 5000 {
		vs := make([]float64, 1+rng.IntN(12))
		for i := range vs {
			vs[i] = float64(rng.IntN(5))
		}
		slices.Sort(vs)
		v := vs[rng.IntN(len(vs))]
		copies := 0
		for _, x := range vs {
			if x == v {
				copies++
			}
		}
		r := 1 + rng.IntN(copies)
		var left []float64
		skip := r
		for _, x := range vs {
			if x == v && skip > 0 {
				skip--
				continue
			}
			left = append(left, x)
		}
		n, med := medianWithout(vs, v, r)
		if n != len(left) {
			t.Fatalf("%v without %d of %v: %d left, want %d", vs, r, v, n, len(left))
		}
		if n > 0 && med != refMedian(left) {
			t.Fatalf("%v without %d of %v: median %v, want %v", vs, r, v, med, refMedian(left))
		}
	}
}

// TestStoppedEarlyFromTheSeriesPass checks run.stopped_early as Find
// runs it, with each run's last scalar step found by the pass over its
// series' points, against the reference, on random reports whose runs
// hold several series, empty ones, negative steps, steps out of order
// and points that are not finite; and runRulesReached, with some runs'
// last steps unknown (a cancelled build's), against runRules.
func TestStoppedEarlyFromTheSeriesPass(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	rules := []Rule{}
	for _, r := range Rules() {
		if r.Name == "run.stopped_early" {
			rules = append(rules, r)
		}
	}
	key := func(as []result.Anomaly) []string {
		var out []string
		for _, a := range as {
			out = append(out, fmt.Sprintf("%s %d %s", a.Run, a.Step, a.Detail))
		}
		slices.Sort(out)
		return out
	}
	fired := 0
	for trial := range 100 {
		rep := randomSiblings(rng, rng.IntN(200))
		for _, run := range rep.Runs {
			for range rng.IntN(3) {
				pts := make([]model.Point, rng.IntN(5))
				for i := range pts {
					pts[i] = model.Point{Step: int64(rng.IntN(1200) - 100), Value: []float64{1, math.NaN(), math.Inf(1)}[rng.IntN(3)]}
				}
				run.Scalars = append(run.Scalars, &model.Scalar{Tag: "acc", Points: pts})
			}
		}
		th := DefaultThresholds
		th.EarlyFraction = []float64{0.5, 0.9, 1}[trial%3]
		want := stoppedEarlyReference(rep, th)
		if got := find(context.Background(), rep, th, nil, rules, nil); !slices.Equal(key(got), key(want)) {
			t.Fatalf("trial %d (%d runs):\ngot  %v\nwant %v", trial, len(rep.Runs), key(got), key(want))
		}
		reached := make([]reach, len(rep.Runs))
		for i, run := range rep.Runs {
			if rng.IntN(2) == 0 {
				reached[i].last, reached[i].ok = lastScalarStep(run)
				reached[i].known = true
			}
		}
		if got := runRulesReached(rep, rules, th, reached); !reflect.DeepEqual(got, runRules(rep, rules, th)) {
			t.Fatalf("trial %d: with some last steps known, %v; all found, %v", trial, got, runRules(rep, rules, th))
		}
		fired += len(want)
	}
	if fired < 50 {
		t.Errorf("only %d findings: the comparison proves little", fired)
	}
}
