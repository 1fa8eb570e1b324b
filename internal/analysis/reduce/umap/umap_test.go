package umap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/trainreport/trainreport/internal/cputime"
	"gonum.org/v1/gonum/mat"
)

func TestTrustworthinessMatchesScikitLearn(t *testing.T) {
	ref := readReference(t)
	data, _, d := readRows(t, ref.Check.Data)
	layout, _, dims := readRows(t, ref.Check.Layout)
	got := trustworthiness(t, data, d, layout, dims, ref.K)
	if math.Abs(got-ref.Check.Trust) > 1e-9 {
		t.Errorf("trustworthiness of umap-learn's layout of %s = %.12f, scikit-learn says %.12f", ref.Check.Data, got, ref.Check.Trust)
	}
}

// TestTrustworthinessAgainstUmapLearn holds our layouts to umap-learn's on
// the same points. Every dataset is laid out as the report lays it out
// (spectral start, the 200 epochs package project asks for) in 2-D and
// 3-D. umap-learn's own epochs (500 at these sizes) and a random start are
// held to it on the smallest dataset only, mnist100 (100 real images of
// 784 pixels, eight seeds), which runs the same epochs loop and random
// start as the larger sets. The larger sets' variants (the package's
// tests took 21.3 user CPU-seconds with them, 8.9 without, on the busy
// 2-core machine) are BenchmarkTrustworthinessAgainstUmapLearn's.
func TestTrustworthinessAgainstUmapLearn(t *testing.T) {
	if testing.Short() {
		t.Skip("lays out four datasets: about 8 s of CPU")
	}
	ref := readReference(t)
	for _, ds := range ref.Datasets {
		runs := []umapRun{{Spectral, 200}}
		if ds.Name == "mnist100" {
			runs = allUmapRuns
		}
		checkAgainstUmapLearn(t, ref, ds.Name, runs)
	}
}

// BenchmarkTrustworthinessAgainstUmapLearn holds every variant (spectral
// and random starts, umap-learn's epochs and the report's) to umap-learn's
// trustworthiness on all four datasets, the larger ones included, and
// reports each one's (trust-<dataset>-<dims>d-<init>-<epochs>):
//
//	go test ./internal/analysis/reduce/umap -run '^$' -bench TrustworthinessAgainstUmapLearn -benchtime 1x
func BenchmarkTrustworthinessAgainstUmapLearn(b *testing.B) {
	ref := readReference(b)
	for b.Loop() {
		for _, ds := range ref.Datasets {
			checkAgainstUmapLearn(b, ref, ds.Name, allUmapRuns)
		}
	}
}

// umapRun is a start and a number of epochs (0: umap-learn's).
type umapRun struct {
	init   Init
	epochs int
}

// allUmapRuns are umap-learn's epochs from both starts and the report's
// 200 epochs; random starts are checked in 2-D only.
var allUmapRuns = []umapRun{{Spectral, 0}, {Random, 0}, {Spectral, 200}}

// checkAgainstUmapLearn lays out the reference dataset name with each run
// in 2-D and 3-D and fails when its trustworthiness is more than 0.02
// below umap-learn's.
func checkAgainstUmapLearn(tb testing.TB, ref reference, name string, runs []umapRun) {
	tb.Helper()
	i := slices.IndexFunc(ref.Datasets, func(d dataset) bool { return d.Name == name })
	if i < 0 {
		tb.Fatalf("reference.json has no dataset %s", name)
	}
	ds := ref.Datasets[i]
	data, n, d := readRows(tb, ds.File)
	if n != ds.N || d != ds.D {
		tb.Fatalf("%s: %d×%d, reference.json says %d×%d", ds.File, n, d, ds.N, ds.D)
	}
	const k = 14 // umap-learn's 15 neighbours count the point itself
	index, dist := neighbours(tb, data, n, d, k)
	for _, dims := range []int{2, 3} {
		want := map[int]float64{2: ds.Trust2, 3: ds.Trust3}[dims]
		for _, run := range runs {
			init := run.init
			if init == Random && dims == 3 {
				continue // random starts are checked in 2-D only, to keep the test short
			}
			opt := DefaultOptions()
			opt.Init, opt.Epochs = init, run.epochs
			// A small set's trustworthiness moves by a point's
			// share (0.01 of 100) from one seed to the next: its
			// mean over seeds is what is compared (16 seeds of
			// mnist100 from a random start: 0.850 to 0.885).
			seeds := 1
			if n < 500 {
				seeds = 8
			}
			start := time.Now()
			got := 0.0
			for seed := range seeds {
				opt.Seed = uint64(seed + 1)
				emb, err := Embed(context.Background(), n, index, dist, k, dims, opt)
				if err != nil {
					tb.Fatal(err)
				}
				got += trustworthiness(tb, data, d, emb, dims, ref.K) / float64(seeds)
			}
			took := time.Since(start)
			tb.Logf("%s %d-D init %v, epochs %d: trustworthiness %.4f (umap-learn %.4f) in %v", ds.Name, dims, init, run.epochs, got, want, took.Round(time.Millisecond))
			if b, ok := tb.(*testing.B); ok {
				b.ReportMetric(got, fmt.Sprintf("trust-%s-%dd-%v-%d", ds.Name, dims, init, run.epochs))
			}
			if got < want-0.02 {
				tb.Errorf("%s in %d-D from init %v, epochs %d: trustworthiness %.4f, umap-learn's %.4f: more than 0.02 below", ds.Name, dims, init, run.epochs, got, want)
			}
		}
	}
}

// blobs returns n points of d dimensions around c seeded centres spread
// with standard deviation scale; the points' own is 1.
func blobs(n, d, c int, scale float64, seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 1))
	centres := make([]float64, c*d)
	for i := range centres {
		centres[i] = scale * rng.NormFloat64()
	}
	data := make([]float32, n*d)
	for i := range n {
		ci := i % c
		for j := range d {
			data[i*d+j] = float32(centres[ci*d+j] + rng.NormFloat64())
		}
	}
	return data
}

func TestEmbedIsDeterministicForASeed(t *testing.T) {
	const n, d, k = 300, 8, 14
	data := blobs(n, d, 3, 10, 7)
	index, dist := neighbours(t, data, n, d, k)
	for _, init := range []Init{Spectral, Random} {
		opt := DefaultOptions()
		opt.Init = init
		opt.Epochs = 50
		opt.Seed = 3
		first, err := Embed(context.Background(), n, index, dist, k, 2, opt)
		if err != nil {
			t.Fatal(err)
		}
		again, err := Embed(context.Background(), n, index, dist, k, 2, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(first, again) {
			t.Errorf("init %v: two runs with seed 3 differ", init)
		}
		opt.Seed = 4
		other, err := Embed(context.Background(), n, index, dist, k, 2, opt)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(first, other) {
			t.Errorf("init %v: seeds 3 and 4 give the same layout", init)
		}
	}
}

func TestEmbedStopsWhenContextIsDone(t *testing.T) {
	const n, d, k = 200, 4, 10
	data := blobs(n, d, 2, 10, 1)
	index, dist := neighbours(t, data, n, d, k)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, init := range []Init{Spectral, Random} {
		opt := DefaultOptions()
		opt.Init = init
		_, err := Embed(ctx, n, index, dist, k, 2, opt)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("init %v: Embed with a cancelled context returned %v, want context.Canceled", init, err)
		}
	}
}

func TestEmbedRefusesMalformedInput(t *testing.T) {
	good := func() (int, []int32, []float32, int, int, Options) {
		return 3, []int32{1, 2, 0, 2, 0, 1}, []float32{1, 2, 1, 1, 2, 1}, 2, 2, DefaultOptions()
	}
	for _, c := range []struct {
		name   string
		change func(n *int, idx *[]int32, dist *[]float32, k, dims *int, opt *Options)
	}{
		{"neighbour out of range", func(_ *int, idx *[]int32, _ *[]float32, _, _ *int, _ *Options) { (*idx)[1] = 3 }},
		{"neighbour below -1", func(_ *int, idx *[]int32, _ *[]float32, _, _ *int, _ *Options) { (*idx)[1] = -2 }},
		{"NaN distance", func(_ *int, _ *[]int32, d *[]float32, _, _ *int, _ *Options) { (*d)[0] = float32(math.NaN()) }},
		{"negative distance", func(_ *int, _ *[]int32, d *[]float32, _, _ *int, _ *Options) { (*d)[0] = -1 }},
		{"infinite distance", func(_ *int, _ *[]int32, d *[]float32, _, _ *int, _ *Options) { (*d)[0] = float32(math.Inf(1)) }},
		{"short index", func(_ *int, idx *[]int32, _ *[]float32, _, _ *int, _ *Options) { *idx = (*idx)[:5] }},
		{"more points than rows", func(n *int, _ *[]int32, _ *[]float32, _, _ *int, _ *Options) { *n = 4 }},
		{"four dimensions", func(_ *int, _ *[]int32, _ *[]float32, _, dims *int, _ *Options) { *dims = 4 }},
		{"no neighbours", func(_ *int, idx *[]int32, d *[]float32, k, _ *int, _ *Options) { *k, *idx, *d = 0, nil, nil }},
		{"one neighbour counting itself", func(_ *int, _ *[]int32, _ *[]float32, _, _ *int, o *Options) { o.Neighbors = 1 }},
		{"min dist above spread", func(_ *int, _ *[]int32, _ *[]float32, _, _ *int, o *Options) { o.MinDist = 2 }},
		{"NaN learning rate", func(_ *int, _ *[]int32, _ *[]float32, _, _ *int, o *Options) { o.LearningRate = math.NaN() }},
		{"negative epochs", func(_ *int, _ *[]int32, _ *[]float32, _, _ *int, o *Options) { o.Epochs = -1 }},
		{"unknown init", func(_ *int, _ *[]int32, _ *[]float32, _, _ *int, o *Options) { o.Init = 7 }},
	} {
		n, idx, dist, k, dims, opt := good()
		c.change(&n, &idx, &dist, &k, &dims, &opt)
		if _, err := Embed(context.Background(), n, idx, dist, k, dims, opt); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	n, idx, dist, k, dims, opt := good()
	if emb, err := Embed(context.Background(), n, idx, dist, k, dims, opt); err != nil || len(emb) != n*dims {
		t.Errorf("valid graph: %d coordinates, %v", len(emb), err)
	}
}

func TestEmbedHandlesDegenerateGraphs(t *testing.T) {
	for _, c := range []struct {
		name string
		n, k int
		idx  []int32
		dist []float32
	}{
		{"no point", 0, 3, nil, nil},
		{"one point without neighbours", 1, 1, []int32{-1}, []float32{0}},
		{"duplicates at distance zero", 4, 3, []int32{1, 2, 3, 0, 2, 3, 0, 1, 3, 0, 1, 2}, make([]float32, 12)},
		{"rows ending early", 3, 2, []int32{1, -1, 0, -1, 0, 1}, []float32{1, 0, 1, 0, 2, 1}},
	} {
		for _, init := range []Init{Spectral, Random} {
			opt := DefaultOptions()
			opt.Init = init
			emb, err := Embed(context.Background(), c.n, c.idx, c.dist, c.k, 3, opt)
			if err != nil {
				t.Errorf("%s, init %v: %v", c.name, init, err)
				continue
			}
			if len(emb) != 3*c.n {
				t.Errorf("%s, init %v: %d coordinates, want %d", c.name, init, len(emb), 3*c.n)
			}
			for _, x := range emb {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
					t.Errorf("%s, init %v: coordinate %v", c.name, init, x)
					break
				}
			}
		}
	}
}

func TestSmoothDistSumsToLog2OfNeighbourhood(t *testing.T) {
	ds := []float64{0.5, 0.7, 0.8, 1.1, 1.3, 2, 2.2, 3, 3.1, 4, 4.2, 5, 6, 7}
	rho, sigma := smoothDist(ds, len(ds)+1, 1)
	if rho != 0.5 {
		t.Errorf("rho = %g, want the nearest distance 0.5", rho)
	}
	sum := 0.0
	for _, d := range ds {
		sum += math.Exp(-max(d-rho, 0) / sigma)
	}
	if want := math.Log2(15); math.Abs(sum-want) > 1e-4 {
		t.Errorf("weights sum to %g, want log2(15) = %g", sum, want)
	}
}

func TestFuzzySetIsTheFuzzyUnion(t *testing.T) {
	// Three points on a line at 0, 1 and 3; each knows two neighbours.
	idx := []int32{1, 2, 0, 2, 1, 0}
	dist := []float32{1, 3, 1, 2, 2, 3}
	g := fuzzySet(3, idx, dist, 2, 2)
	dir := map[[2]int32]float64{}
	for i := range 3 {
		rho, sigma := smoothDist([]float64{float64(dist[2*i]), float64(dist[2*i+1])}, 3, 0)
		for c := range 2 {
			d := float64(dist[2*i+c])
			dir[[2]int32{int32(i), idx[2*i+c]}] = math.Exp(-max(d-rho, 0) / sigma)
		}
	}
	if len(g.weight) != 6 {
		t.Fatalf("%d edges, want 6", len(g.weight))
	}
	for e, w := range g.weight {
		h, tl := g.head[e], g.tail[e]
		a, at := dir[[2]int32{h, tl}], dir[[2]int32{tl, h}]
		if want := a + at - a*at; math.Abs(w-want) > 1e-12 {
			t.Errorf("edge %d→%d weighs %g, want %g+%g−%g·%g = %g", h, tl, w, a, at, a, at, want)
		}
		if e > 0 && (g.head[e-1] > h || g.head[e-1] == h && g.tail[e-1] >= tl) {
			t.Errorf("edge %d→%d out of order", h, tl)
		}
	}
}

func TestSpectralInitMatchesDenseEigenvectors(t *testing.T) {
	const n, d, k = 150, 3, 10
	// A noisy circle: connected, with distinct leading eigenvalues.
	rng := rand.New(rand.NewPCG(5, 5))
	data := make([]float32, n*d)
	for i := range n {
		a := 2 * math.Pi * float64(i) / n
		data[i*d] = float32(3*math.Cos(a) + 0.05*rng.NormFloat64())
		data[i*d+1] = float32(math.Sin(a) + 0.05*rng.NormFloat64())
		data[i*d+2] = float32(0.05 * rng.NormFloat64())
	}
	index, dist := neighbours(t, data, n, d, k)
	g := fuzzySet(n, index, dist, k, k)
	emb, err := spectralInit(context.Background(), g, 2, newRand(1))
	if err != nil || emb == nil {
		t.Fatalf("spectralInit: %v, %v", emb == nil, err)
	}
	// Dense reference: eigenvectors of D^-½ W D^-½.
	w := mat.NewSymDense(n, nil)
	deg := make([]float64, n)
	for e, h := range g.head {
		w.SetSym(int(h), int(g.tail[e]), g.weight[e])
		deg[h] += g.weight[e]
	}
	for i := range n {
		for j := i; j < n; j++ {
			w.SetSym(i, j, w.At(i, j)/math.Sqrt(deg[i]*deg[j]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(w, true) {
		t.Fatal("dense factorisation failed")
	}
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	for c := range 2 {
		col := n - 2 - c // skip the trivial eigenvector, the last
		got := make([]float64, n)
		want := make([]float64, n)
		for i := range n {
			got[i] = emb[i*2+c]
			want[i] = vecs.At(i, col)
		}
		normalize(got)
		if cos := math.Abs(dot(got, want)); cos < 0.999 {
			t.Errorf("axis %d: |cos| with the dense eigenvector = %.5f, want ≥ 0.999", c, cos)
		}
	}
}

func TestSpectralInitFallsBackOnDisconnectedGraphs(t *testing.T) {
	const n, d, k = 100, 2, 5
	data := blobs(n, d, 2, 10, 2) // two blobs far apart: two components
	index, dist := neighbours(t, data, n, d, k)
	g := fuzzySet(n, index, dist, k, k)
	if c := components(g); c < 2 {
		t.Fatalf("%d components, the test needs several", c)
	}
	emb, err := spectralInit(context.Background(), g, 2, newRand(1))
	if err != nil || emb != nil {
		t.Errorf("spectralInit on a disconnected graph = %d coordinates, %v; want none, to start at random", len(emb), err)
	}
}

// BenchmarkEmbed10000x128 lays out 10,000 points of 128 dimensions (20
// seeded Gaussian clusters that overlap, so that the neighbour graph is
// connected and the spectral start is measured) in 2-D from their exact 14 nearest neighbours,
// computed before the timer starts. With UMAP_BENCH_DUMP=FILE it also
// writes the data there (raw little-endian float32) for
// testdata/reference.py --bench FILE to time umap-learn on the same points.
// Besides time and allocation it reports the CPU seconds used (the fair
// measure on a shared machine) and the trustworthiness of the first 2,000
// points' layout.
func BenchmarkEmbed10000x128(b *testing.B) {
	const n, d, k = 10000, 128, 14
	data := blobs(n, d, 20, 0.5, 11)
	if path := os.Getenv("UMAP_BENCH_DUMP"); path != "" {
		buf := make([]byte, 0, 4*len(data))
		for _, v := range data {
			u := math.Float32bits(v)
			buf = append(buf, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
		}
		if err := os.WriteFile(path, buf, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	index, dist := neighbours(b, data, n, d, k)
	for _, init := range []Init{Spectral, Random} {
		b.Run([]string{"spectral", "random"}[init], func(b *testing.B) {
			opt := DefaultOptions()
			opt.Init = init
			runtime.GC()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			cpu := cputime.Used()
			var emb []float32
			for b.Loop() {
				var err error
				if emb, err = Embed(context.Background(), n, index, dist, k, 2, opt); err != nil {
					b.Fatal(err)
				}
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			b.ReportMetric((cputime.Used()-cpu).Seconds()/float64(b.N), "cpu-s/op")
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/(1<<20), "MB-alloc/op")
			// Trustworthiness of the first 2,000 points, as reference.py --bench reports it.
			const m = 2000
			b.ReportMetric(trustworthiness(b, data[:m*d], d, emb[:m*2], 2, 10), "trust-2000")
		})
	}
}
