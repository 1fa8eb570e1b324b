package analysis

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/cputime"
)

// sweepSeries is one tag of a sweep: runs series of steps noisy points
// each, on the same steps (the common case of a sweep).
func sweepSeries(runs, steps int) []*result.ScalarView {
	rng := rand.New(rand.NewPCG(5, 6))
	out := make([]*result.ScalarView, runs)
	for r := range out {
		s := &model.Scalar{Tag: "loss", Points: make([]model.Point, steps)}
		for i := range s.Points {
			s.Points[i] = model.Point{Step: int64(i), Value: 1/float64(i+1) + rng.Float64()}
		}
		out[r] = &result.ScalarView{Run: &model.Run{Name: fmt.Sprint(r)}, Scalar: s}
	}
	return out
}

// BenchmarkBand summarises 2,000 runs x 1,000 steps: five quantiles of
// 2,000 values at each step.
func BenchmarkBand(b *testing.B) {
	series := sweepSeries(2_000, 1_000)
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.ReportPerOp(b, cputime.Used())
	for range b.N {
		if got := band(context.Background(), series, 1_000); len(got.Steps) != 1_000 {
			b.Fatalf("%d steps", len(got.Steps))
		}
	}
}

// BenchmarkBandStoppedEarly is BenchmarkBand with every tenth run stopped
// at a tenth of the steps, as in a sweep with failures: the series no
// longer share their steps, and each is read by a cursor.
func BenchmarkBandStoppedEarly(b *testing.B) {
	series := sweepSeries(2_000, 1_000)
	for i := 0; i < len(series); i += 10 {
		series[i].Scalar.Points = series[i].Scalar.Points[:100]
	}
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.ReportPerOp(b, cputime.Used())
	for range b.N {
		if got := band(context.Background(), series, 1_000); len(got.Steps) != 1_000 {
			b.Fatalf("%d steps", len(got.Steps))
		}
	}
}

// BenchmarkBandStaged is the band as a build makes it: each of 2,000
// series' values at the planned steps (valuesAt, once per series in Run),
// then the band of those values (bandFromValues, in Finish); float32
// series, as a sweep written by TensorBoard's writers holds, and float64.
func BenchmarkBandStaged(b *testing.B) {
	for _, f32 := range []bool{true, false} {
		b.Run(fmt.Sprintf("float32=%v", f32), func(b *testing.B) {
			series := sweepSeries(2_000, 1_000)
			var in stepInterner
			var seqs []*stepSeq
			for _, sv := range series {
				sv.Scalar.Float32 = f32
				if f32 {
					for i, p := range sv.Scalar.Points {
						sv.Scalar.Points[i].Value = float64(float32(p.Value))
					}
				}
				seqs = append(seqs, shapeOf(sv.Scalar, &in).steps)
			}
			g := planBand(seqs, 1_000)
			vals := make([]bandValues, len(series))
			b.ReportAllocs()
			b.ResetTimer()
			defer cputime.ReportPerOp(b, cputime.Used())
			for range b.N {
				for i, sv := range series {
					vals[i] = valuesAt(sv.Scalar, g, stepsSorted(sv.Scalar.Points))
				}
				if got := bandFromValues(context.Background(), vals, g.steps); len(got.Steps) != 1_000 {
					b.Fatalf("%d steps", len(got.Steps))
				}
			}
		})
	}
}

// BenchmarkBandFromValues is the band of 2,000 float32 series' values at
// 1,000 steps (bandFromValues alone), the series' slices apart in memory
// as a build's are (each run's allocated among its other data).
func BenchmarkBandFromValues(b *testing.B) {
	series := sweepSeries(2_000, 1_000)
	var in stepInterner
	var seqs []*stepSeq
	for _, sv := range series {
		sv.Scalar.Float32 = true
		for i, p := range sv.Scalar.Points {
			sv.Scalar.Points[i].Value = float64(float32(p.Value))
		}
		seqs = append(seqs, shapeOf(sv.Scalar, &in).steps)
	}
	g := planBand(seqs, 1_000)
	vals := make([]bandValues, len(series))
	apart := make([][]byte, len(series))
	for i, sv := range series {
		vals[i] = valuesAt(sv.Scalar, g, stepsSorted(sv.Scalar.Points))
		apart[i] = make([]byte, 64<<10)
	}
	b.ReportAllocs()
	b.ResetTimer()
	defer cputime.ReportPerOp(b, cputime.Used())
	for range b.N {
		if got := bandFromValues(context.Background(), vals, g.steps); len(got.Steps) != 1_000 {
			b.Fatalf("%d steps", len(got.Steps))
		}
	}
	runtime.KeepAlive(apart)
}
