package anomaly

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/downsample"
	"github.com/trainreport/trainreport/internal/cputime"
)

// BenchmarkFind runs every rule over 100 runs of 10 noisy scalar series of
// 10,000 points each (10 M points): the spike rule's two rolling windows
// per point dominate.
func BenchmarkFind(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	rep := &model.Report{}
	for r := range 100 {
		run := &model.Run{Name: fmt.Sprintf("run%d", r), Logdir: "d", Path: fmt.Sprintf("run%d", r)}
		for s := range 10 {
			pts := make([]model.Point, 10_000)
			for i := range pts {
				pts[i] = model.Point{Step: int64(i), Value: 2*math.Exp(-float64(i)/3000) + 0.1*rng.NormFloat64()}
			}
			run.Scalars = append(run.Scalars, &model.Scalar{Tag: fmt.Sprintf("loss%d", s), Points: pts})
		}
		rep.Runs = append(rep.Runs, run)
	}
	b.ResetTimer()
	for range b.N {
		Find(context.Background(), rep, DefaultThresholds)
	}
}

// spikeSeries is a scalarSeries of n points: a decaying loss with noise
// (most points near their median: the MAD is rarely needed) or, when
// centred, zero-mean noise (every point far from its median relative to
// the median's magnitude: the MAD is needed at nearly every point).
func spikeSeries(n int, centred bool) *scalarSeries {
	rng := rand.New(rand.NewPCG(3, 4))
	pts := make([]model.Point, n)
	for i := range pts {
		v := 0.1 * rng.NormFloat64()
		if !centred {
			v += 2 * math.Exp(-float64(i)/30000)
		}
		if i%997 == 0 {
			v += 50 // a spike now and then
		}
		pts[i] = model.Point{Step: int64(i), Value: v}
	}
	return finiteValues("loss", pts, nil, 0)
}

// BenchmarkSpikes runs the spike rule alone over a 100,000-point series.
func BenchmarkSpikes(b *testing.B) {
	for _, c := range []struct {
		name    string
		centred bool
	}{{"loss", false}, {"centred", true}} {
		b.Run(c.name, func(b *testing.B) {
			s := spikeSeries(100_000, c.centred)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if a := scalarSpikes(s, DefaultThresholds); a == nil {
					b.Fatal("no spike found")
				}
			}
		})
	}
}

// siblingRuns is n runs of one directory, each with a short loss whose
// last step varies, every tenth stopped early.
func siblingRuns(n int) *model.Report {
	rep := &model.Report{}
	for r := range n {
		last := int64(1000 + r%37)
		if r%10 == 0 {
			last = 100
		}
		run := &model.Run{Name: fmt.Sprintf("run%05d", r), Logdir: "d", Path: fmt.Sprintf("sweep/run%05d", r),
			Scalars: []*model.Scalar{{Tag: "loss", Points: []model.Point{{Step: 0, Value: 1}, {Step: last, Value: 0.5}}}}}
		rep.Runs = append(rep.Runs, run)
	}
	return rep
}

// BenchmarkRunRules runs the rules on whole runs over 1,000 and 10,000
// sibling runs.
func BenchmarkRunRules(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			rep := siblingRuns(n)
			rules := tableOf(Rules()).run
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if len(runRules(rep, rules, DefaultThresholds)) == 0 {
					b.Fatal("nothing stopped early")
				}
			}
		})
	}
}

// p8mSeries are the scalar series of one run of /work/sweeps/p8m's kind
// (examples/synth without -sweep): ten tags of n steps, tag t's value
// exp(-3x)(1+t) plus noise of standard deviation 0.05, read from float32.
// The low tags end near their noise, where few points are near a median
// relative to its magnitude and the spike rule's windows do the work.
func p8mSeries(n int) []*scalarSeries {
	rng := rand.New(rand.NewPCG(0, 42))
	out := make([]*scalarSeries, 10)
	pts := make([][]model.Point, 10)
	for t := range pts {
		pts[t] = make([]model.Point, n)
	}
	for s := range n {
		x := float64(s) / float64(n)
		for t := range pts {
			v := float32(math.Exp(-x*3)*(1+float64(t)) + rng.NormFloat64()*0.05)
			pts[t][s] = model.Point{Step: int64(s), Value: float64(v)}
		}
	}
	for t := range out {
		out[t] = finiteValues(fmt.Sprintf("loss%d", t), pts[t], nil, 0)
	}
	return out
}

// BenchmarkSpikesP8m runs the spike rule over the ten series of a run
// like p8m's (1 M points an op; p8m has 8 such runs).
func BenchmarkSpikesP8m(b *testing.B) {
	ss := p8mSeries(100_000)
	benchSpikes(b, ss)
}

// BenchmarkSpikesP8mWalked is BenchmarkSpikesP8m over series walked as a
// report walks them (finiteValues with the buckets of p8m's draw cap,
// 2,000 points: 500 buckets of 200), so that the spike rule's coarse
// stage (coarseCleared) runs as it does in the report.
func BenchmarkSpikesP8mWalked(b *testing.B) {
	ss := p8mSeries(100_000)
	for i, s := range ss {
		ss[i] = finiteValues(s.tag, s.pts, nil, downsample.Buckets(len(s.pts), 2000))
	}
	benchSpikes(b, ss)
}

// benchSpikes runs the spike rule over ss b.N times, reporting
// cpu-ns/op.
func benchSpikes(b *testing.B, ss []*scalarSeries) {
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.ReportPerOp(b, cputime.Used())
	for range b.N {
		for _, s := range ss {
			scalarSpikes(s, DefaultThresholds)
		}
	}
}
