package project

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/internal/analysis/result"
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
		if p.Method != string(Methods[i]) {
			t.Errorf("projection %d is %s, want %s", i, p.Method, Methods[i])
		}
		if p.Err != nil {
			t.Fatalf("%s: %v", p.Method, p.Err)
		}
		m := len(p.Sample)
		if m != want[Method(p.Method)] {
			t.Errorf("%s: %d points, want %d", p.Method, m, want[Method(p.Method)])
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
func checkNeighbors(t *testing.T, data []float32, d int, nb *result.Neighbors) {
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
	if len(res.Projections) != 2 || res.Projections[0].Method != string(PCA) || res.Projections[1].Method != string(UMAP) {
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
	if len(res.Projections) != 1 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "one value each") {
		t.Errorf("points of 1 dimension: %d projections, notes %q; want PCA alone, said so", len(res.Projections), res.Notes)
	}
	// Two points of two dimensions: too few for t-SNE and UMAP.
	res, err = Compute(context.Background(), []float32{1, 2, 3, 5}, 2, 2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Projections[1:] {
		if p.Err == nil {
			t.Errorf("%s of 2 points: no error", p.Method)
		}
	}
	if len(res.Projections) != 3 {
		t.Errorf("%d projections of 2 points, want 3", len(res.Projections))
	}
	if _, err := Compute(context.Background(), []float32{1, 2, 3}, 2, 2, Options{}); err == nil {
		t.Error("3 values taken for 2 points of 2")
	}
}

// Identical points (a 38 KB file of 5,000 took 157 s, t-SNE and UMAP
// tying every neighbour search) take the fast path: t-SNE and UMAP are
// not run, every point drawn at the origin, which a t-SNE run, starting
// from seeded noise, never gives; the page says so.
func TestIdenticalPointsTakeTheFastPath(t *testing.T) {
	const n, d = 5000, 4
	data := make([]float32, n*d)
	for i := range data {
		data[i] = 1
	}
	for i := 1; i < n; i += 2 {
		data[i*d] = float32(math.Copysign(0, -1)) // -0 is 0
		data[(i-1)*d] = 0
	}
	opt := Options{MaxNeighbors: 100}
	res, err := Compute(context.Background(), data, n, d, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Projections) != 3 {
		t.Fatalf("%d projections, want 3", len(res.Projections))
	}
	for _, p := range res.Projections[1:] {
		if p.Err != nil || !strings.Contains(p.Note, "are all one point") {
			t.Errorf("%s: error %v, note %q", p.Method, p.Err, p.Note)
		}
		if len(p.Coords2) != 2*len(p.Sample) || len(p.Coords3) != 3*len(p.Sample) || slices.ContainsFunc(p.Coords2, nonZero) || slices.ContainsFunc(p.Coords3, nonZero) {
			t.Errorf("%s: %d and %d coordinates, not all at the origin", p.Method, len(p.Coords2), len(p.Coords3))
		}
	}
	if res.Neighbors == nil || res.Neighbors.Euclidean.Dist[0] != 0 {
		t.Error("the neighbour lists of identical points are not at distance 0")
	}
	// The estimate, made before the points are read, does not know they
	// are copies: it bounds the work from above.
	if Estimate(n, d, opt) <= Estimate(n, d, Options{Methods: []Method{PCA}, MaxNeighbors: 100}) {
		t.Error("the estimate counts no t-SNE or UMAP")
	}
}

func nonZero(v float32) bool { return v != 0 }

// Copies of a point are laid out once: t-SNE and UMAP of 300 points that
// are 30 distinct ones repeated give each copy its original's place, the
// layout of the 30 alone.
func TestCopiesLaidOutOnce(t *testing.T) {
	const distinctN, copies, d = 30, 10, 5
	base := clusters(distinctN, d, 3, 4)
	var data []float32
	for range copies {
		data = append(data, base...)
	}
	n := distinctN * copies
	res, err := Compute(context.Background(), data, n, d, Options{MaxNeighbors: -1})
	if err != nil {
		t.Fatal(err)
	}
	alone, err := Compute(context.Background(), base, distinctN, d, Options{MaxNeighbors: -1})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range res.Projections[1:] {
		if p.Err != nil || !strings.Contains(p.Note, "300 points laid out are 30 distinct points") {
			t.Errorf("%s: error %v, note %q", p.Method, p.Err, p.Note)
		}
		want := alone.Projections[1+i]
		if want.Note != "" {
			t.Errorf("%s of distinct points: note %q", p.Method, want.Note)
		}
		for j := range n {
			k := j % distinctN
			if !slices.Equal(p.Coords2[2*j:2*j+2], want.Coords2[2*k:2*k+2]) || !slices.Equal(p.Coords3[3*j:3*j+3], want.Coords3[3*k:3*k+3]) {
				t.Fatalf("%s: point %d is not drawn where the layout of the distinct points puts it", p.Method, j)
			}
		}
	}
	// Two distinct points: a trivial layout, each copy on one of two
	// places, said so.
	two := []float32{0, 0, 1, 1, 0, 0, 1, 1, 1, 1}
	res, err = Compute(context.Background(), two, 5, 2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Projections[1:] {
		if p.Err != nil || !strings.Contains(p.Note, "2 distinct points, too few") ||
			!slices.Equal(p.Coords2, []float32{0, 0, 1, 0, 0, 0, 1, 0, 1, 0}) {
			t.Errorf("%s of 2 distinct points: %v, note %q, coordinates %v", p.Method, p.Err, p.Note, p.Coords2)
		}
	}
}

// Points of one value each (100,000 × 1 took 199 s) are shown by PCA
// alone, which is the data itself, centred; the estimate counts no t-SNE
// or UMAP.
func TestOneDimensionIsPCAAlone(t *testing.T) {
	const n = 2000
	data := make([]float32, n)
	var mean float64
	for i := range data {
		data[i] = float32(i%100) / 4
		mean += float64(data[i])
	}
	mean /= n
	res, err := Compute(context.Background(), data, n, 1, Options{MaxNeighbors: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Projections) != 1 || len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "t-SNE and UMAP not computed: the points have one value each") {
		t.Fatalf("%d projections, notes %q", len(res.Projections), res.Notes)
	}
	p := res.Projections[0]
	for i := range n {
		if got, want := float64(p.Coords2[2*i]), float64(data[i])-mean; math.Abs(got-want) > 1e-4 || p.Coords2[2*i+1] != 0 {
			t.Fatalf("PCA of point %d: (%v, %v), want (%v, 0)", i, got, p.Coords2[2*i+1], want)
		}
	}
	if res.Neighbors == nil || len(res.Neighbors.Sample) != 50 {
		t.Error("no neighbour lists")
	}
	if e, pcaAlone := Estimate(100_000, 1, Options{}), Estimate(100_000, 1, Options{Methods: []Method{PCA}}); e != pcaAlone {
		t.Errorf("estimate of 100,000 × 1: %d, %d with PCA alone", e, pcaAlone)
	}
}

// The estimate follows Compute's plan from the shape alone, and is what
// docs/PAGES.md says of an embedding at its caps.
func TestEstimateFollowsThePlan(t *testing.T) {
	pca := []Method{PCA}
	est := func(n, d int, methods []Method, lists int) int64 {
		return Estimate(n, d, Options{Methods: methods, MaxNeighbors: lists})
	}
	full := est(10_000, 16, nil, 0)
	if s := full / WorkPerSecond; s < 10 || s > 13 {
		t.Errorf("10,000 × 16 at the caps: %d core-seconds, want the 11 the docs give", s)
	}
	// Each part adds to the estimate; t-SNE's graph is the lists' own
	// when they lay out the same points (with t-SNE's cap raised to the
	// lists').
	base, lists := est(10_000, 16, pca, -1), est(10_000, 16, pca, 0)
	withTSNE := est(10_000, 16, []Method{PCA, TSNE}, 0)
	if !(base < lists && lists < withTSNE && withTSNE < full) {
		t.Errorf("PCA %d, with lists %d, with t-SNE %d, all %d", base, lists, withTSNE, full)
	}
	wide := func(lists int) int64 {
		return Estimate(10_000, 16, Options{Methods: []Method{PCA, TSNE}, MaxTSNE: DefaultMaxNeighbors, MaxNeighbors: lists})
	}
	if shared, alone := wide(0)-lists, wide(-1)-base; shared >= alone {
		t.Errorf("t-SNE adds %d beside the lists, %d alone: the graph is not shared", shared, alone)
	}
	// Past the caps, only PCA's part grows.
	if big := est(100_000, 16, nil, 0); big-full != est(100_000, 16, pca, -1)-base {
		t.Errorf("100,000 points: %d, 10,000: %d", big, full)
	}
	if est(2, 16, nil, 0) != est(2, 16, pca, 0) {
		t.Error("2 points: t-SNE or UMAP counted")
	}
	// A tiny embedding's layouts still cost a part of a second: the
	// iterations, whatever the points.
	if e := est(50, 8, nil, 0); e < WorkPerSecond/10 || est(50, 8, pca, -1) < workFixed {
		t.Errorf("50 × 8: %d", e)
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
//	go test ./internal/analysis/reduce/project -run '^$' -bench Embeddings10000 -benchtime 1x -benchmem
func BenchmarkEmbeddings10000(b *testing.B) {
	const n, d = 10_000, 128
	data := clusters(n, d, 10, 42)
	for b.Loop() {
		if _, err := Compute(context.Background(), data, n, d, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
