package project

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"testing"
)

// clusters returns n points of dimension d around c centres, seeded.
func clusters(n, d, c int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	centres := make([]float64, c*d)
	for i := range centres {
		centres[i] = 5 * r.NormFloat64()
	}
	data := make([]float32, n*d)
	for i := range n {
		k := i % c
		for j := range d {
			data[i*d+j] = float32(centres[k*d+j] + r.NormFloat64())
		}
	}
	return data
}

func TestCapsAndSamples(t *testing.T) {
	const n, d = 300, 8
	data := clusters(n, d, 3, 7)
	res, err := Compute(context.Background(), data, n, d, Options{MaxPCA: 250, MaxTSNE: 120, MaxUMAP: 60, MaxNeighbors: 100, Neighbors: 5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	want := map[Method]int{PCA: 250, TSNE: 120, UMAP: 60}
	if len(res.Projections) != 3 {
		t.Fatalf("%d projections, want 3", len(res.Projections))
	}
	var prev []int32
	for i, p := range res.Projections {
		if p.Method != Methods[i] {
			t.Errorf("projection %d is %s, want %s", i, p.Method, Methods[i])
		}
		if p.Err != nil {
			t.Fatalf("%s: %v", p.Method, p.Err)
		}
		m := len(p.Sample)
		if m != want[p.Method] {
			t.Errorf("%s: %d points, want %d", p.Method, m, want[p.Method])
		}
		if !slices.IsSorted(p.Sample) || len(slices.Compact(slices.Clone(p.Sample))) != m {
			t.Errorf("%s: sample not increasing", p.Method)
		}
		if len(p.Coords2) != 2*m || len(p.Coords3) != 3*m {
			t.Errorf("%s: %d and %d coordinates for %d points", p.Method, len(p.Coords2), len(p.Coords3), m)
		}
		// Nested: each smaller sample is within the one before.
		for _, j := range p.Sample {
			if prev != nil && !slices.Contains(prev, j) {
				t.Errorf("%s: point %d not in the larger sample", p.Method, j)
				break
			}
		}
		prev = p.Sample
	}
	// The samples are spread over the points, not the first ones.
	if s := res.Projections[2].Sample; s[len(s)-1] < n/2 {
		t.Errorf("UMAP sample ends at %d of %d points: not spread", s[len(s)-1], n)
	}
	if e := res.Projections[0].Explained; len(e) != 3 || !(e[0] >= e[1] && e[1] >= e[2] && e[0] > 0 && e[0]+e[1]+e[2] <= 1+1e-9) {
		t.Errorf("PCA explained %v", e)
	}
	nb := res.Neighbors
	if nb == nil || len(nb.Sample) != 100 || nb.K != 5 {
		t.Fatalf("neighbours %+v", nb)
	}
	checkNeighbors(t, data, d, nb)
}

// checkNeighbors compares the lists with a brute-force search among the
// sample's points.
func checkNeighbors(t *testing.T, data []float32, d int, nb *Neighbors) {
	t.Helper()
	dist := func(a, b int32, cosine bool) float64 {
		var dot, na, nb2, sq float64
		for j := range d {
			x, y := float64(data[int(a)*d+j]), float64(data[int(b)*d+j])
			dot, na, nb2, sq = dot+x*y, na+x*x, nb2+y*y, sq+(x-y)*(x-y)
		}
		if cosine {
			return 1 - dot/math.Sqrt(na*nb2)
		}
		return math.Sqrt(sq)
	}
	for _, metric := range []struct {
		cosine bool
		idx    []int32
		dist   []float32
	}{{false, nb.Euclidean.Index, nb.Euclidean.Dist}, {true, nb.Cosine.Index, nb.Cosine.Dist}} {
		for i, p := range nb.Sample {
			others := slices.DeleteFunc(slices.Clone(nb.Sample), func(q int32) bool { return q == p })
			sort.SliceStable(others, func(a, b int) bool { return dist(p, others[a], metric.cosine) < dist(p, others[b], metric.cosine) })
			for k := range nb.K {
				got, want := metric.idx[i*nb.K+k], others[k]
				dg, dw := float64(metric.dist[i*nb.K+k]), dist(p, want, metric.cosine)
				if got != want && math.Abs(dist(p, got, metric.cosine)-dw) > 1e-5 {
					t.Fatalf("cosine %v: point %d neighbour %d is %d, want %d", metric.cosine, p, k, got, want)
				}
				if math.Abs(dg-dw) > 1e-4*math.Max(1, dw) {
					t.Fatalf("cosine %v: point %d neighbour %d at %v, want %v", metric.cosine, p, k, dg, dw)
				}
			}
		}
	}
}

func TestEveryPointUnderTheCaps(t *testing.T) {
	const n, d = 40, 5
	res, err := Compute(context.Background(), clusters(n, d, 2, 1), n, d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Projections {
		if len(p.Sample) != n || p.Err != nil {
			t.Errorf("%s: %d points (%v), want all %d", p.Method, len(p.Sample), p.Err, n)
		}
	}
	if res.Neighbors.K != DefaultNeighbors || len(res.Neighbors.Sample) != n {
		t.Errorf("neighbours of %d points, %d each", len(res.Neighbors.Sample), res.Neighbors.K)
	}
}

func TestDeterministic(t *testing.T) {
	const n, d = 400, 16
	data := clusters(n, d, 4, 11)
	opt := Options{MaxUMAP: 200, Seed: 5}
	a, err := Compute(context.Background(), data, n, d, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	b, err := Compute(context.Background(), data, n, d, opt)
	if err != nil {
		t.Fatal(err)
	}
	for i := range a.Projections {
		pa, pb := a.Projections[i], b.Projections[i]
		if !slices.Equal(pa.Sample, pb.Sample) || !slices.Equal(pa.Coords2, pb.Coords2) || !slices.Equal(pa.Coords3, pb.Coords3) {
			t.Errorf("%s differs between runs on 1 CPU and on all", pa.Method)
		}
	}
	if !slices.Equal(a.Neighbors.Cosine.Index, b.Neighbors.Cosine.Index) || !slices.Equal(a.Neighbors.Euclidean.Dist, b.Neighbors.Euclidean.Dist) {
		t.Error("neighbours differ between runs")
	}
	// Another seed gives another sample and t-SNE layout.
	c, err := Compute(context.Background(), data, n, d, Options{MaxUMAP: 200, Seed: 6})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(a.Projections[2].Sample, c.Projections[2].Sample) || slices.Equal(a.Projections[1].Coords2, c.Projections[1].Coords2) {
		t.Error("the seed changes nothing")
	}
}

func TestMethodsAndSmallInputs(t *testing.T) {
	res, err := Compute(context.Background(), clusters(50, 4, 2, 2), 50, 4, Options{Methods: []Method{UMAP}, MaxNeighbors: -1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Projections) != 2 || res.Projections[0].Method != PCA || res.Projections[1].Method != UMAP {
		t.Errorf("projections %v, want PCA and UMAP", res.Projections)
	}
	if res.Neighbors != nil {
		t.Error("neighbour lists despite MaxNeighbors < 0")
	}
	// Two points of one dimension, one NaN: PCA only, padded with zeros.
	res, err = Compute(context.Background(), []float32{1, float32(math.NaN())}, 2, 1, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.NonFinite != 1 {
		t.Errorf("NonFinite %d, want 1", res.NonFinite)
	}
	p := res.Projections[0]
	if p.Err != nil || len(p.Coords3) != 6 || p.Coords3[1] != 0 || p.Coords3[2] != 0 || p.Coords3[0] == 0 {
		t.Errorf("PCA of 2 points of 1 dimension: %+v", p)
	}
	for _, p := range res.Projections[1:] {
		if p.Err == nil {
			t.Errorf("%s of 2 points: no error", p.Method)
		}
	}
	if _, err := Compute(context.Background(), []float32{1, 2, 3}, 2, 2, Options{}); err == nil {
		t.Error("3 values taken for 2 points of 2")
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Compute(ctx, clusters(200, 8, 2, 3), 200, 8, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// BenchmarkEmbeddings10000 is the whole build of one embedding of 10,000
// points of 128 dimensions: PCA, t-SNE and UMAP in 2-D and 3-D and the
// neighbour lists. It takes minutes: run it alone on an idle machine,
//
//	go test ./collect/reduce/project -run '^$' -bench Embeddings10000 -benchtime 1x -benchmem
func BenchmarkEmbeddings10000(b *testing.B) {
	const n, d = 10_000, 128
	data := clusters(n, d, 10, 42)
	for b.Loop() {
		if _, err := Compute(context.Background(), data, n, d, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
