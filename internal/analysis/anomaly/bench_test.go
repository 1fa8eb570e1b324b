package anomaly

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
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
