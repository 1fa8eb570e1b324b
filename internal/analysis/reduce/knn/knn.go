// Package knn finds the exact k nearest neighbours of every point of a set,
// the input of t-SNE's affinities, UMAP's fuzzy graph and the embeddings
// page's neighbour lists.
//
// Points are a flat row-major []float32: point i is data[i*d : (i+1)*d], the
// layout of the projector's tensors. The search is a blocked brute force: a
// block of queries against every point with one matrix product, using
// ‖x−y‖² = ‖x‖² + ‖y‖² − 2x·y in float64 (gonum's BLAS, or up to
// kernelDims dimensions a kernel of our own), a bounded heap per query,
// then the kept distances recomputed directly so that the reported
// distances and their order carry no cancellation error. At 10,000 × 128,
// k = 90 this took 3.1 s on the 2-core development machine where gonum's
// vantage-point tree (spatial/vptree), exact too, took 247 s: at 128
// dimensions a metric tree prunes almost nothing and pays an interface call
// per distance (BenchmarkSearch and BenchmarkVPTree measure both).
//
// The product serves both metrics: x·y gives ‖x−y‖² with the norms and the
// cosine distance 1 − x·y/(‖x‖‖y‖), so SearchBoth finds the embeddings page's
// two neighbour lists of a set of points for the price of one product, the
// most of a search's time at 16 dimensions (the corpus's tf2-projector-ckpt).
package knn

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"

	"github.com/trainreport/trainreport/internal/analysis/result"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Metric is the distance the neighbours are nearest by.
type Metric int

const (
	// Euclidean is ‖x−y‖.
	Euclidean Metric = iota
	// Cosine is 1 − x·y/(‖x‖‖y‖), between 0 and 2; a zero vector is at
	// distance 1 from every point.
	Cosine
)

// String names the metric as the embeddings page does.
func (m Metric) String() string {
	switch m {
	case Euclidean:
		return "euclidean"
	case Cosine:
		return "cosine"
	}
	return fmt.Sprintf("Metric(%d)", int(m))
}

// blockValues bounds a worker's block of float64 products, queries × points:
// 16 MB, 209 queries a block at 10,000 points, 41 at the PCA cap of 50,000.
const blockValues = 1 << 21

// Search returns the k nearest neighbours of each of the n points of
// dimension d in data (row-major, len(data) = n*d) by metric. It needs
// 1 ≤ k < n, finite values, and n below 2^31; it stops early with ctx's error
// when ctx is done. The lists are row-major n×k, indices into data's points
// (see result.NeighborLists). The result does not depend on the number of
// CPUs.
func Search(ctx context.Context, data []float32, n, d, k int, metric Metric) (result.NeighborLists, error) {
	if metric != Euclidean && metric != Cosine {
		return result.NeighborLists{}, fmt.Errorf("knn: unknown %v", metric)
	}
	gs, err := search(ctx, data, n, d, k, []Metric{metric})
	if err != nil {
		return result.NeighborLists{}, err
	}
	return gs[0], nil
}

// SearchBoth returns what Search returns by Euclidean and by cosine
// distance, from one product of the points: the cost of one search and the
// heaps of two.
func SearchBoth(ctx context.Context, data []float32, n, d, k int) (euclidean, cosine result.NeighborLists, err error) {
	gs, err := search(ctx, data, n, d, k, []Metric{Euclidean, Cosine})
	if err != nil {
		return result.NeighborLists{}, result.NeighborLists{}, err
	}
	return gs[0], gs[1], nil
}

// search finds the neighbour lists of every metric of metrics.
func search(ctx context.Context, data []float32, n, d, k int, metrics []Metric) ([]result.NeighborLists, error) {
	switch {
	case n <= 0 || d <= 0:
		return nil, fmt.Errorf("knn: %d points of dimension %d", n, d)
	case len(data) != n*d:
		return nil, fmt.Errorf("knn: %d values for %d points of dimension %d", len(data), n, d)
	case k < 1 || k >= n:
		return nil, fmt.Errorf("knn: %d neighbours among %d points", k, n)
	case n > math.MaxInt32:
		return nil, fmt.Errorf("knn: %d points, more than an int32 index", n)
	}
	x := make([]float64, n*d)
	for i, v := range data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("knn: point %d: value %v", i/d, v)
		}
		x[i] = float64(v)
	}
	// The squared norms; a zero vector is at cosine distance 1 from
	// every point.
	norms, inv := make([]float64, n), make([]float64, n)
	for i := range n {
		norms[i] = dot(x[i*d:(i+1)*d], x[i*d:(i+1)*d])
		if norms[i] > 0 {
			inv[i] = 1 / math.Sqrt(norms[i])
		}
	}
	gs := make([]result.NeighborLists, len(metrics))
	for m := range gs {
		gs[m] = result.NeighborLists{K: k, Index: make([]int32, n*k), Dist: make([]float32, n*k)}
	}
	queryBlock := max(1, blockValues/n)
	blocks := (n + queryBlock - 1) / queryBlock
	workers := min(runtime.GOMAXPROCS(0), blocks)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := searcher{x: x, norms: norms, inv: inv, n: n, d: d, k: k, rows: queryBlock, metrics: metrics, gs: gs}
			for b := range next {
				s.block(b * queryBlock)
			}
		}()
	}
	var err error
	for b := range blocks {
		if err = ctx.Err(); err != nil {
			break
		}
		next <- b
	}
	close(next)
	wg.Wait()
	if err != nil {
		return nil, fmt.Errorf("knn: %w", err)
	}
	return gs, nil
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// searcher is one worker's state: its block of distances and its heap.
type searcher struct {
	x, norms []float64
	inv      []float64 // 1/‖x‖, 0 for a zero vector
	n, d, k  int
	rows     int // queries a block
	metrics  []Metric
	gs       []result.NeighborLists // one a metric; rows written by one worker each

	prod []float64
	heap neighbours
}

// block fills the graph's rows of the queries from first on.
func (s *searcher) block(first int) {
	rows := min(s.rows, s.n-first)
	if cap(s.prod) < rows*s.n {
		s.prod = make([]float64, rows*s.n)
	}
	prod := s.prod[:rows*s.n]
	queries := s.x[first*s.d : (first+rows)*s.d]
	if s.d <= kernelDims {
		products(queries, rows, s.x, s.n, s.d, prod)
	} else {
		a := blas64.General{Rows: rows, Cols: s.d, Stride: s.d, Data: queries}
		b := blas64.General{Rows: s.n, Cols: s.d, Stride: s.d, Data: s.x}
		c := blas64.General{Rows: rows, Cols: s.n, Stride: s.n, Data: prod}
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, a, b, 0, c)
	}
	for r := range rows {
		q := first + r
		row := prod[r*s.n : (r+1)*s.n]
		for m, metric := range s.metrics {
			if metric == Cosine {
				s.offerCosine(q, row)
			} else {
				s.offerEuclidean(q, row)
			}
			for i := range s.heap {
				s.heap[i].dist = s.exact(metric, q, int(s.heap[i].index))
			}
			sort.Slice(s.heap, func(i, j int) bool { return s.heap[i].less(s.heap[j]) })
			g := s.gs[m]
			for i, nb := range s.heap {
				g.Index[q*s.k+i] = nb.index
				g.Dist[q*s.k+i] = float32(nb.dist)
			}
		}
	}
}

// offerEuclidean fills the heap with query q's nearest points by the
// squared distance up to rounding, from q's row of products; the kept ones
// are recomputed exactly afterwards. Points come in index order, so once
// the heap is full a point no nearer than its top, ties included, cannot
// enter it: that test, inline, is all most points cost.
func (s *searcher) offerEuclidean(q int, row []float64) {
	h, k := s.heap[:0], s.k
	nq := s.norms[q]
	norms := s.norms[:len(row)]
	for j, p := range row {
		dist := nq + norms[j] - 2*p
		if (len(h) == k && dist >= h[0].dist) || j == q {
			continue
		}
		h.offer(neighbour{dist: dist, index: int32(j)}, k)
	}
	s.heap = h
}

// cosineMargin is how far the cheap form of a cosine distance may be from
// the heap's form (a few ulps of numbers of magnitude about 1) and still
// be left out without the heap's form computed.
const cosineMargin = 1e-12

// offerCosine is offerEuclidean by cosine distance, computed as exact
// computes it, 1 − x·y/√(‖x‖²‖y‖²), so that points at one angle tie here as
// they do there (1-D points all do). Once the heap is full, a point is
// first measured by the cheap 1 − x·y·(1/‖x‖)(1/‖y‖), without a square
// root or a division, and left out when that is clearly beyond the top.
func (s *searcher) offerCosine(q int, row []float64) {
	h, k := s.heap[:0], s.k
	nq, rq := s.norms[q], s.inv[q]
	norms, inv := s.norms[:len(row)], s.inv[:len(row)]
	for j, p := range row {
		if j == q || (len(h) == k && 1-p*rq*inv[j] > h[0].dist+cosineMargin) {
			continue
		}
		dist := 1.0
		if nq > 0 && norms[j] > 0 {
			dist = 1 - p/math.Sqrt(nq*norms[j])
		}
		if len(h) == k && dist >= h[0].dist {
			continue
		}
		h.offer(neighbour{dist: dist, index: int32(j)}, k)
	}
	s.heap = h
}

// kernelDims is the most dimensions products is used for: its scalar
// sums beat gonum's Dgemm where a dot-product call per entry costs more
// than the entry (0.6 of its CPU at 16 dimensions); from about 24 on,
// gonum's vector instructions win (1.14x faster at 24, 1.7x at 64, 2.5x
// at 128: one core, 4,000 or 10,000 points, on the loaded machine).
const kernelDims = 16

// products writes the dot products of the rows points of a with the n
// points of b, all of dimension d, row-major rows×n into out. It is a
// matrix product written for the neighbour search's shapes (few
// dimensions, many points): two queries against four points at a time,
// eight sums in registers, each product summed in dimension order. At 16
// dimensions it took 0.6 of the CPU of gonum's Dgemm it replaced, which
// goes through a dot-product call per entry (BenchmarkSearchBoth).
func products(a []float64, rows int, b []float64, n, d int, out []float64) {
	i := 0
	for ; i+2 <= rows; i += 2 {
		a0, a1 := a[i*d:(i+1)*d], a[(i+1)*d:(i+2)*d]
		o0, o1 := out[i*n:(i+1)*n], out[(i+1)*n:(i+2)*n]
		j := 0
		for ; j+4 <= n; j += 4 {
			b0, b1, b2, b3 := b[j*d:(j+1)*d], b[(j+1)*d:(j+2)*d], b[(j+2)*d:(j+3)*d], b[(j+3)*d:(j+4)*d]
			b1, b2, b3 = b1[:len(b0)], b2[:len(b0)], b3[:len(b0)]
			a0, a1 := a0[:len(b0)], a1[:len(b0)]
			var s00, s01, s02, s03, s10, s11, s12, s13 float64
			for t, x0 := range b0 {
				x1, x2, x3 := b1[t], b2[t], b3[t]
				y0, y1 := a0[t], a1[t]
				s00 += y0 * x0
				s01 += y0 * x1
				s02 += y0 * x2
				s03 += y0 * x3
				s10 += y1 * x0
				s11 += y1 * x1
				s12 += y1 * x2
				s13 += y1 * x3
			}
			o0[j], o0[j+1], o0[j+2], o0[j+3] = s00, s01, s02, s03
			o1[j], o1[j+1], o1[j+2], o1[j+3] = s10, s11, s12, s13
		}
		for ; j < n; j++ {
			b0 := b[j*d : (j+1)*d]
			o0[j], o1[j] = dot(a0, b0), dot(a1, b0)
		}
	}
	for ; i < rows; i++ {
		o := out[i*n : (i+1)*n]
		for j := range n {
			o[j] = dot(a[i*d:(i+1)*d], b[j*d:(j+1)*d])
		}
	}
}

// exact is the distance by metric between points i and j, computed
// directly.
func (s *searcher) exact(metric Metric, i, j int) float64 {
	a, b := s.x[i*s.d:(i+1)*s.d], s.x[j*s.d:(j+1)*s.d]
	if metric == Cosine {
		if s.norms[i] == 0 || s.norms[j] == 0 {
			return 1
		}
		return max(0, 1-dot(a, b)/math.Sqrt(s.norms[i]*s.norms[j]))
	}
	var sum float64
	for t := range a {
		v := a[t] - b[t]
		sum += v * v
	}
	return math.Sqrt(sum)
}

type neighbour struct {
	dist  float64
	index int32
}

// less orders by distance, then by index.
func (a neighbour) less(b neighbour) bool {
	return a.dist < b.dist || (a.dist == b.dist && a.index < b.index)
}

// neighbours is a max-heap of at most k neighbours: the farthest on top.
type neighbours []neighbour

func (h *neighbours) offer(nb neighbour, k int) {
	if len(*h) < k {
		*h = append(*h, nb)
		h.up(len(*h) - 1)
		return
	}
	if !nb.less((*h)[0]) {
		return
	}
	(*h)[0] = nb
	h.down(0)
}

func (h neighbours) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h[p].less(h[i]) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (h neighbours) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		big := l
		if r := l + 1; r < len(h) && h[l].less(h[r]) {
			big = r
		}
		if !h[i].less(h[big]) {
			return
		}
		h[i], h[big] = h[big], h[i]
		i = big
	}
}
