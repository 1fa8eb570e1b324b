package render

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/cputime"
)

// BenchmarkColumns formats the columns of a 100,000-point series
// (appendColumns: steps, wall times, float32 values of a loss-like
// curve), with wall times of whole seconds (p8m's) and of tenths, and
// the wall-time column alone, from the points and from a copy of their
// wall times (the walk's, wallTimes.walls).
func BenchmarkColumns(b *testing.B) {
	for _, tenths := range []bool{false, true} {
		pts := make([]model.Point, 100_000)
		for i := range pts {
			pts[i] = model.Point{Step: int64(i), WallTime: 1.7e9 + float64(i), Value: float64(float32(1 + math.Sin(float64(i)/100)/3))}
			if tenths {
				pts[i].WallTime = 1.7e9 + float64(i)/10
			}
		}
		var buf []byte
		var ints []int64
		b.Run(fmt.Sprintf("all/tenths=%v", tenths), func(b *testing.B) {
			defer cputime.ReportPerOp(b, cputime.Used())
			for b.Loop() {
				buf = appendColumns(buf[:0], column{kept: kept{pts: pts}}, true, -1, nil, &ints)
			}
		})
		b.Run(fmt.Sprintf("wall/tenths=%v", tenths), func(b *testing.B) {
			defer cputime.ReportPerOp(b, cputime.Used())
			for b.Loop() {
				buf = appendWallColumn(buf[:0], wallTimes{kept: kept{pts: pts}}, nil, &ints)
			}
		})
		walls := make([]float64, len(pts))
		for i, p := range pts {
			walls[i] = p.WallTime
		}
		b.Run(fmt.Sprintf("wallcopy/tenths=%v", tenths), func(b *testing.B) {
			defer cputime.ReportPerOp(b, cputime.Used())
			for b.Loop() {
				buf = appendWallColumn(buf[:0], wallTimes{kept: kept{pts: pts}, walls: walls}, nil, &ints)
			}
		})
	}
}

// noisyValues returns n float32 values as the 8 M-point benchmark
// log's are: ten decaying curves, from 1, 2, ..., 10 to a twentieth of
// that, with noise of about 5%, so that a curve's values cross a power
// of two or ten back and forth from value to value, as a formatter's
// branches cannot predict, and some are near 0 (strconv's).
func noisyValues(n int) []float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]float64, n)
	per := max(n/10, 1)
	for i := range vals {
		curve := float64(i/per+1) * math.Exp(-3*float64(i%per)/float64(per))
		vals[i] = float64(float32(curve*(1+0.05*rng.NormFloat64()) + 0.01*rng.NormFloat64()))
	}
	return vals
}

// BenchmarkValueColumnNoisy formats 100,000 values of noisyValues as a
// bundle's value column, in ten series of 10,000.
func BenchmarkValueColumnNoisy(b *testing.B) {
	vals := noisyValues(100_000)
	series := make([][]model.Point, 10)
	for i := range series {
		series[i] = make([]model.Point, 10_000)
		for j := range series[i] {
			series[i][j].Value = vals[i*10_000+j]
		}
	}
	var buf []byte
	defer cputime.ReportPerOp(b, cputime.Used())
	for b.Loop() {
		for _, pts := range series {
			buf = appendValueColumn(buf[:0], kept{pts: pts}, true, nil)
		}
	}
	b.SetBytes(int64(len(buf)) * 10)
}

// BenchmarkStepsColumn writes the step columns of 8 series of 100,000
// points (19 MB of points, past the caches, as a report's series are
// when their data files are written), by the scan of their steps and
// with what the plan knows of them (result.ScalarView.Steps).
func BenchmarkStepsColumn(b *testing.B) {
	series := make([][]model.Point, 8)
	for k := range series {
		series[k] = make([]model.Point, 100_000)
		for i := range series[k] {
			series[k][i] = model.Point{Step: int64(i), WallTime: 1.7e9 + float64(i), Value: float64(i)}
		}
	}
	for _, known := range []bool{false, true} {
		b.Run(fmt.Sprintf("known=%v", known), func(b *testing.B) {
			defer cputime.ReportPerOp(b, cputime.Used())
			var buf []byte
			for b.Loop() {
				for _, pts := range series {
					var steps result.StepProgression
					if known {
						steps = result.StepProgression{First: 0, Stride: 1, Count: len(pts)}
					}
					buf = appendSteps(buf[:0], kept{pts: pts}, steps, nil)
				}
			}
		})
	}
}
