package render

import (
	"fmt"
	"math"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/cputime"
)

// BenchmarkColumns formats the columns of a 100,000-point series
// (appendColumns: steps, wall times, float32 values of a loss-like
// curve), with wall times of whole seconds (p8m's) and of tenths, and
// the wall-time column alone.
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
				buf = appendColumns(buf[:0], pts, nil, true, -1, nil, &ints)
			}
		})
		b.Run(fmt.Sprintf("wall/tenths=%v", tenths), func(b *testing.B) {
			defer cputime.ReportPerOp(b, cputime.Used())
			for b.Loop() {
				buf = appendWallColumn(buf[:0], kept{pts: pts}, nil, &ints)
			}
		})
	}
}
