// Package quality measures how well a low-dimensional layout keeps the
// neighbourhoods of the original points, to hold our reductions to the
// reference implementations'.
package quality

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/trainreport/trainreport/internal/analysis/reduce/knn"
)

// Trustworthiness is Venna and Kaski's (2001) measure, as scikit-learn's
// sklearn.manifold.trustworthiness computes it: 1 minus a penalty for each
// of a point's k nearest neighbours in the layout that is not among its k
// nearest in the original space, proportional to how far down the original
// ranking it is; 1 when every neighbourhood is kept. high holds the n
// original points of dimension d, low their layout in dl dimensions, both
// row-major. It needs 1 ≤ k < n/2 and costs O(n² log n): a test's measure,
// not a report's.
func Trustworthiness(high []float32, d int, low []float32, dl int, k int) (float64, error) {
	if d <= 0 || dl <= 0 || len(high)%d != 0 || len(low)%dl != 0 || len(high)/d != len(low)/dl {
		return 0, fmt.Errorf("quality: %d values of dimension %d and %d of dimension %d", len(high), d, len(low), dl)
	}
	n := len(high) / d
	if k < 1 || k >= n/2 {
		return 0, fmt.Errorf("quality: %d neighbours among %d points", k, n)
	}
	lowNN, err := knn.Search(context.Background(), low, n, dl, k, knn.Euclidean)
	if err != nil {
		return 0, fmt.Errorf("quality: the layout's neighbours: %w", err)
	}
	penalty := make([]float64, n)
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			type ranked struct {
				dist  float64
				index int
			}
			all := make([]ranked, 0, n)
			rank := make([]int, n)
			for i := w * n / workers; i < (w+1)*n/workers; i++ {
				all = all[:0]
				for j := range n {
					if j == i {
						continue
					}
					var s float64
					for c := range d {
						v := float64(high[i*d+c]) - float64(high[j*d+c])
						s += v * v
					}
					all = append(all, ranked{math.Sqrt(s), j})
				}
				slices.SortFunc(all, func(a, b ranked) int {
					if a.dist != b.dist {
						if a.dist < b.dist {
							return -1
						}
						return 1
					}
					return a.index - b.index
				})
				for r, a := range all {
					rank[a.index] = r + 1
				}
				for _, j := range lowNN.Index[i*k : (i+1)*k] {
					if r := rank[j]; r > k {
						penalty[i] += float64(r - k)
					}
				}
			}
		}()
	}
	wg.Wait()
	var sum float64
	for _, p := range penalty {
		sum += p
	}
	nf, kf := float64(n), float64(k)
	return 1 - 2/(nf*kf*(2*nf-3*kf-1))*sum, nil
}
