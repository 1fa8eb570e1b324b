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
	rep := &model.Report{Runs: []*model.Run{run}}
	st, err := Plan(context.Background(), rep, nil, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.ReportPerOp(b, cputime.Used())
	for range b.N {
		st.Run(run)
	}
}

// BenchmarkPlan is Plan of the 8 M-point log's shape: 8 runs of 10 tags
// x 100,000 points (the runs' series share their points, to hold 24 MB
// rather than 192), the scan of every series' steps on all cores
// included. cpu-ns/op is its CPU time, ns/op its wall time.
func BenchmarkPlan(b *testing.B) {
	one := benchRun(10, 100_000)
	rep := &model.Report{}
	for r := range 8 {
		run := &model.Run{Name: fmt.Sprint("run", r)}
		for _, s := range one.Scalars {
			c := *s
			run.Scalars = append(run.Scalars, &c)
		}
		rep.Runs = append(rep.Runs, run)
	}
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.ReportPerOp(b, cputime.Used())
	for range b.N {
		if _, err := Plan(context.Background(), rep, nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
