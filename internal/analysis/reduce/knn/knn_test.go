package knn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/trainreport/trainreport/internal/analysis/result"
	"gonum.org/v1/gonum/spatial/vptree"
)

// points returns n seeded Gaussian points of dimension d.
func points(n, d int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	x := make([]float32, n*d)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}

// bruteForce is the specification: every distance computed directly, sorted
// by distance then index, the point itself left out.
func bruteForce(data []float32, n, d, k int, metric Metric) result.NeighborLists {
	g := result.NeighborLists{K: k, Index: make([]int32, n*k), Dist: make([]float32, n*k)}
	for i := range n {
		var all []neighbour
		for j := range n {
			if j == i {
				continue
			}
			var dist float64
			a, b := data[i*d:(i+1)*d], data[j*d:(j+1)*d]
			if metric == Euclidean {
				for t := range a {
					v := float64(a[t]) - float64(b[t])
					dist += v * v
				}
				dist = math.Sqrt(dist)
			} else {
				var ab, aa, bb float64
				for t := range a {
					ab += float64(a[t]) * float64(b[t])
					aa += float64(a[t]) * float64(a[t])
					bb += float64(b[t]) * float64(b[t])
				}
				dist = 1 - ab/math.Sqrt(aa*bb)
			}
			all = append(all, neighbour{dist: dist, index: int32(j)})
		}
		sort.Slice(all, func(x, y int) bool { return all[x].less(all[y]) })
		for t := range k {
			g.Index[i*k+t] = all[t].index
			g.Dist[i*k+t] = float32(all[t].dist)
		}
	}
	return g
}

func TestSearchMatchesBruteForce(t *testing.T) {
	if 1600*1600 <= blockValues {
		t.Fatal("1,600 points no longer span two blocks")
	}
	for _, tc := range []struct {
		name    string
		n, d, k int
		metric  Metric
	}{
		{"euclidean, more points than a block", 1600, 16, 10, Euclidean},
		{"cosine, more points than a block", 1600, 16, 10, Cosine},
		{"euclidean, k = n-1", 40, 3, 39, Euclidean},
		{"cosine, one dimension", 50, 1, 5, Cosine},
		// An odd count of queries and of points: the kernel's edges.
		{"euclidean, odd counts", 203, 5, 6, Euclidean},
		{"cosine, odd counts", 203, 5, 6, Cosine},
		// More than kernelDims: gonum's product.
		{"euclidean, many dimensions", 301, 40, 7, Euclidean},
		{"cosine, many dimensions", 301, 40, 7, Cosine},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := points(tc.n, tc.d, 7)
			got, err := Search(context.Background(), data, tc.n, tc.d, tc.k, tc.metric)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteForce(data, tc.n, tc.d, tc.k, tc.metric)
			for i := range want.Index {
				if got.Index[i] != want.Index[i] {
					t.Fatalf("point %d neighbour %d: index %d, want %d", i/tc.k, i%tc.k, got.Index[i], want.Index[i])
				}
				if math.Abs(float64(got.Dist[i]-want.Dist[i])) > 1e-6 {
					t.Fatalf("point %d neighbour %d: distance %v, want %v", i/tc.k, i%tc.k, got.Dist[i], want.Dist[i])
				}
			}
		})
	}
}

func TestSearchBreaksTiesByIndex(t *testing.T) {
	// Points on a line at 0, 1, -1, 2, -2, 0 (a duplicate of point 0): from
	// point 0, points 1 and 2 are both at distance 1 and 3 and 4 at 2.
	data := []float32{0, 1, -1, 2, -2, 0}
	g, err := Search(context.Background(), data, 6, 1, 5, Euclidean)
	if err != nil {
		t.Fatal(err)
	}
	want := []int32{5, 1, 2, 3, 4}
	for i, w := range want {
		if g.Index[i] != w {
			t.Fatalf("neighbours of point 0: %v, want %v", g.Index[:5], want)
		}
	}
	if g.Dist[0] != 0 {
		t.Errorf("distance to the duplicate: %v, want 0", g.Dist[0])
	}
}

func TestSearchZeroVectorIsAtCosineDistanceOne(t *testing.T) {
	data := []float32{0, 0, 1, 0, 0, 1}
	g, err := Search(context.Background(), data, 3, 2, 2, Cosine)
	if err != nil {
		t.Fatal(err)
	}
	if g.Dist[0] != 1 || g.Dist[1] != 1 {
		t.Errorf("distances from the zero vector: %v, want [1 1]", g.Dist[:2])
	}
	if g.Dist[2] != 1 || g.Index[2] != 0 {
		t.Errorf("nearest to (1,0): %d at %v, want 0 at 1 (ties by index)", g.Index[2], g.Dist[2])
	}
}

func TestSearchRefuses(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name    string
		data    []float32
		n, d, k int
	}{
		{"k as large as n", []float32{0, 1}, 2, 1, 2},
		{"no neighbour asked", []float32{0, 1}, 2, 1, 0},
		{"length not n*d", []float32{0, 1, 2}, 2, 1, 1},
		{"NaN", []float32{0, float32(math.NaN())}, 2, 1, 1},
		{"infinity", []float32{0, float32(math.Inf(1))}, 2, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Search(ctx, tc.data, tc.n, tc.d, tc.k, Euclidean); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestSearchStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Search(ctx, points(2000, 4, 1), 2000, 4, 3, Euclidean); err == nil {
		t.Error("no error from a cancelled context")
	}
}

// BenchmarkSearch is the size: 10,000 points × 128, k = 90.
func BenchmarkSearch(b *testing.B) {
	const n, d, k = 10000, 128, 90
	data := points(n, d, 1)
	for b.Loop() {
		if _, err := Search(context.Background(), data, n, d, k, Euclidean); err != nil {
			b.Fatal(err)
		}
	}
}

// vpPoint adapts a row to gonum's vantage-point tree.
type vpPoint struct {
	i int
	x []float64
}

func (p vpPoint) Distance(c vptree.Comparable) float64 {
	q := c.(vpPoint)
	var s float64
	for t := range p.x {
		v := p.x[t] - q.x[t]
		s += v * v
	}
	return math.Sqrt(s)
}

// BenchmarkVPTree is the alternative Search was measured against: gonum's
// exact vantage-point tree on the same data.
func BenchmarkVPTree(b *testing.B) {
	const n, d, k = 10000, 128, 90
	data := points(n, d, 1)
	pts := make([]vptree.Comparable, n)
	for i := range n {
		x := make([]float64, d)
		for t := range x {
			x[t] = float64(data[i*d+t])
		}
		pts[i] = vpPoint{i: i, x: x}
	}
	for b.Loop() {
		tree, err := vptree.New(pts, 1, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range pts {
			keep := vptree.NewNKeeper(k + 1)
			tree.NearestSet(keep, p)
		}
	}
}

// SearchBoth's lists are Search's by each metric, zero vectors and ties
// included, from one product.
func TestSearchBothIsSearchByEachMetric(t *testing.T) {
	const n, d, k = 1600, 6, 7
	data := points(n, d, 11)
	clear(data[5*d : 6*d]) // a zero vector
	copy(data[9*d:10*d], data[3*d:4*d])
	eu, cos, err := SearchBoth(context.Background(), data, n, d, k)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		got    result.NeighborLists
		metric Metric
	}{{eu, Euclidean}, {cos, Cosine}} {
		want, err := Search(context.Background(), data, n, d, k, c.metric)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(c.got.Index, want.Index) || !slices.Equal(c.got.Dist, want.Dist) || c.got.K != want.K {
			t.Errorf("%v: SearchBoth's lists differ from Search's", c.metric)
		}
	}
	if _, _, err := SearchBoth(context.Background(), data, n, d, n); err == nil {
		t.Error("no error for k = n")
	}
}

// BenchmarkSearchBoth is the embeddings page's neighbour lists at the
// corpus's tf2-projector-ckpt shape: 10,000 points × 16, k = 10, both
// metrics.
func BenchmarkSearchBoth(b *testing.B) {
	const n, d, k = 10000, 16, 10
	data := points(n, d, 1)
	for b.Loop() {
		if _, _, err := SearchBoth(context.Background(), data, n, d, k); err != nil {
			b.Fatal(err)
		}
	}
}
