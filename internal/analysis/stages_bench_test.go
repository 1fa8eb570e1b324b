package analysis

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/cputime"
)

// benchRun is a run of the 8 M-point benchmark log (examples/synth
// -runs 8 -tags 10 -steps 100000): tags series of steps noisy float32
// points, losses falling, the rest drifting.
func benchRun(tags, steps int) *model.Run {
	rng := rand.New(rand.NewPCG(7, 8))
	run := &model.Run{Name: "run"}
	for k := range tags {
		tag := fmt.Sprintf("metric_%d", k)
		if k%3 == 0 {
			tag = fmt.Sprintf("train/loss_%d", k)
		}
		s := &model.Scalar{Tag: tag, Float32: true, Points: make([]model.Point, steps)}
		for i := range s.Points {
			v := 2*math.Exp(-float64(i)/float64(steps/4)) + 0.1 + rng.NormFloat64()*0.02
			s.Points[i] = model.Point{Step: int64(i), WallTime: 1.7e9 + float64(i)*0.01, Value: float64(float32(v))}
		}
		run.Scalars = append(run.Scalars, s)
	}
	return run
}

// BenchmarkStagedRun is Staged.Run over one run of 10 tags x 100,000
// points, a run of the 8 M-point log: every view of every series and the
// rules on their shapes, reporting the CPU time per op (cpu-ns/op).
func BenchmarkStagedRun(b *testing.B) {
	run := benchRun(10, 100_000)
	benchStagedRun(b, &model.Report{Runs: []*model.Run{run}})
}

// BenchmarkPlan is Plan of the 8 M-point log's shape: 8 runs of 10 tags
// x 100,000 points (the runs' series share their points, to hold 24 MB
// rather than 192), the scan of every series' steps on all cores
// included. cpu-ns/op is its CPU time, ns/op its wall time.
func BenchmarkPlan(b *testing.B) {
	rep := copiesOf(benchRun(10, 100_000), 8)
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.ReportPerOp(b, cputime.Used())
	for range b.N {
		if _, err := Plan(context.Background(), rep, nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// p8mRun is a run of /work/sweeps/p8m (examples/synth -runs 8 -tags 10
// -steps 100000, no sweep): ten tags of steps float32 points, tag t's
// value exp(-3x)(1+t) plus noise of standard deviation 0.05. The low
// tags end near their noise, where the spike rule's windows do the work
// (benchRun's series, whose noise is small beside their level, barely
// reach them).
func p8mRun(steps int) *model.Run {
	rng := rand.New(rand.NewPCG(0, 42))
	run := &model.Run{Name: "run00"}
	for t := range 10 {
		run.Scalars = append(run.Scalars, &model.Scalar{Tag: fmt.Sprintf("group%d/metric%02d", t%3, t), Float32: true, Points: make([]model.Point, steps)})
	}
	for s := range steps {
		x := float64(s) / float64(steps)
		for t, sc := range run.Scalars {
			v := float32(math.Exp(-x*3)*(1+float64(t)) + rng.NormFloat64()*0.05)
			sc.Points[s] = model.Point{Step: int64(s), WallTime: 1.7e9 + float64(s)*0.1, Value: float64(v)}
		}
	}
	return run
}

// BenchmarkStagedRunP8m is BenchmarkStagedRun over a run shaped like
// p8m's (p8mRun), in a report of eight such runs as p8m's Plan lays it
// out (a band grid by index, the draw cap at MaxPoints): cpu-ns/op is
// one run's Staged.Run, an eighth of the p8m report's.
func BenchmarkStagedRunP8m(b *testing.B) {
	benchStagedRun(b, copiesOf(p8mRun(100_000), 8))
}

// benchStagedRun plans rep, then runs Staged.Run of its first run b.N
// times, reporting cpu-ns/op.
func benchStagedRun(b *testing.B, rep *model.Report) {
	st, err := Plan(context.Background(), rep, nil, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.ReportPerOp(b, cputime.Used())
	for range b.N {
		st.Run(rep.Runs[0])
	}
}

// copiesOf returns a report of n runs named run00, run01, ..., each with
// series of run's that share their points (a run of 1 M points held once
// rather than n times).
func copiesOf(run *model.Run, n int) *model.Report {
	rep := &model.Report{}
	for r := range n {
		c := &model.Run{Name: fmt.Sprintf("run%02d", r)}
		for _, s := range run.Scalars {
			cs := *s
			c.Scalars = append(c.Scalars, &cs)
		}
		rep.Runs = append(rep.Runs, c)
	}
	return rep
}
