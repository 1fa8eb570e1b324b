package series

import (
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// BenchmarkAppend appends 100,000 points of steps in progression to a
// line with room for them, as a log's hot path does (collect's addPoint):
// what the line's bookkeeping (its attempts, its steps' shape) costs a
// point.
func BenchmarkAppend(b *testing.B) {
	const n = 100_000
	var s Scalars
	s.Grow(n)
	for b.Loop() {
		s.Points = s.Points[:0]
		s.lineRuns = s.lineRuns[:0]
		for i := range n {
			p := model.Point{Step: int64(i) * 10, WallTime: float64(i), Value: float64(i)}
			if !s.Append(p, 1) {
				s.Add(p, 1, false)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/point")
}
