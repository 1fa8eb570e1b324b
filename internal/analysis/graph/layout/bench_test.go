package layout

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/trainreport/trainreport/internal/analysis/graph/hierarchy"
)

// BenchmarkResNetLike builds the hierarchy of a generated ResNet-shaped
// graph (resnetLike: stages of residual blocks nested three scopes deep)
// and lays out every view, at 1,000, 10,000 and 50,000 nodes. Run it once
// on a quiet machine:
//
//	nice go test ./internal/analysis/graph/layout -run '^$' -bench ResNetLike -benchtime 1x -benchmem
//
// Besides time and allocations it reports the views laid out and the Go
// heap's peak over the run (peak-heap-MB, sampled every 10 ms; Graphviz's
// WebAssembly memory is Go memory under wazero's interpreter-free
// compiler and is part of it).
func BenchmarkResNetLike(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 50_000} {
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			g := resnetLike(n)
			peak := watchHeap()
			b.ResetTimer()
			var views []View
			var h *hierarchy.Hierarchy
			for range b.N {
				h = hierarchy.Build(g)
				views = Views(context.Background(), h, g, Options{Metrics: testMetrics})
			}
			b.StopTimer()
			skipped := 0
			for _, v := range views {
				if v.Skipped != "" {
					skipped++
				}
			}
			if skipped > 0 {
				b.Errorf("%d views not laid out", skipped)
			}
			b.ReportMetric(float64(len(h.Groups)), "views")
			b.ReportMetric(float64(peak()>>20), "peak-heap-MB")
		})
	}
}

// watchHeap samples the heap in use until the returned function is
// called, which returns the largest sample.
func watchHeap() func() uint64 {
	done := make(chan struct{})
	result := make(chan uint64)
	go func() {
		var peak uint64
		var ms runtime.MemStats
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
			select {
			case <-done:
				result <- peak
				return
			case <-t.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		return <-result
	}
}
