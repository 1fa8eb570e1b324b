// Package project computes everything the embeddings page shows of one set
// of points, ahead of time: its PCA, t-SNE and UMAP layouts in 2-D and 3-D
// and each point's nearest neighbours in the original space, by cosine and
// Euclidean distance.
//
// Each method has a cap on the points it lays out, TensorBoard projector's
// (PCA 50,000, t-SNE 10,000, UMAP 5,000; neighbour lists 10,000): beyond it
// the method lays out a seeded random sample of that many points. The samples
// are nested (the first m points of one seeded permutation, in index order),
// so every point of the UMAP view is in the t-SNE view and has a neighbour
// list under the default caps. With the projector reader's own bounds (100,000
// points of at most 1,000 values) the caps bound the work: the costliest steps
// are the exact neighbour searches of the t-SNE and neighbour samples, O(m²d).
//
// The result depends only on the points, the options and the seed, not on
// the number of CPUs or the order the work runs in: every step is seeded and
// sums in a fixed order (see knn, tsne and umap), and the steps, run
// concurrently up to GOMAXPROCS, write only their own results.
package project

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/trainreport/trainreport/collect/reduce/knn"
	"github.com/trainreport/trainreport/collect/reduce/pca"
	"github.com/trainreport/trainreport/collect/reduce/tsne"
	"github.com/trainreport/trainreport/collect/reduce/umap"
)

// Method is a way of laying points out.
type Method string

// The methods, in the order the page offers them.
const (
	PCA  Method = "pca"
	TSNE Method = "tsne"
	UMAP Method = "umap"
)

// Methods lists every method.
var Methods = []Method{PCA, TSNE, UMAP}

// Default caps: the points a method lays out at most, TensorBoard
// projector's, and the points that get neighbour lists.
const (
	DefaultMaxPCA       = 50_000
	DefaultMaxTSNE      = 10_000
	DefaultMaxUMAP      = 5_000
	DefaultMaxNeighbors = 10_000
	// DefaultNeighbors is how many neighbours a point's lists hold.
	DefaultNeighbors = 10
)

// tsneNeighbors is the width of t-SNE's neighbour graph: 3 × perplexity 30,
// as van der Maaten's bhtsne and TensorBoard use.
const tsneNeighbors = 90

// Options choose the methods and their caps. A zero Options computes every
// method with the default caps and seed 0.
type Options struct {
	// Methods are the methods to compute; nil means all. PCA is always
	// computed: it is cheap, and the page's first view.
	Methods []Method
	// MaxPCA, MaxTSNE and MaxUMAP cap the points of each method, and
	// MaxNeighbors the points with neighbour lists; zero means the
	// default, negative means no neighbour lists.
	MaxPCA, MaxTSNE, MaxUMAP, MaxNeighbors int
	// Neighbors is how many neighbours each list holds; zero means
	// DefaultNeighbors.
	Neighbors int
	// Seed seeds the samples, t-SNE and UMAP.
	Seed uint64
}

func (o Options) withDefaults() Options {
	if o.Methods == nil {
		o.Methods = Methods
	}
	if !slices.Contains(o.Methods, PCA) {
		o.Methods = append([]Method{PCA}, o.Methods...)
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.MaxPCA, DefaultMaxPCA)
	def(&o.MaxTSNE, DefaultMaxTSNE)
	def(&o.MaxUMAP, DefaultMaxUMAP)
	def(&o.MaxNeighbors, DefaultMaxNeighbors)
	def(&o.Neighbors, DefaultNeighbors)
	return o
}

// Projection is one method's layout of a sample of the points.
type Projection struct {
	Method Method
	// Sample lists the points laid out, increasing indices into the
	// points; len(Sample) < N only when the method's cap sampled them.
	Sample []int32
	// Coords2 and Coords3 are the 2-D and 3-D layouts, row-major
	// len(Sample)×2 and ×3. For PCA they are the first two and three
	// principal components (zero beyond the points' dimension).
	Coords2, Coords3 []float32
	// Explained is, for PCA, the part of the variance each of the three
	// components explains.
	Explained []float64
	// Err says why the method has no layout (too few points for it);
	// Coords are then nil.
	Err error
}

// Neighbors are the nearest neighbours of a sample of the points in the
// original space, by each metric.
type Neighbors struct {
	// Sample lists the points with lists, increasing; the neighbours are
	// found among these points only.
	Sample []int32
	K      int
	// Euclidean and Cosine hold, for the i-th point of Sample, its K
	// nearest at Index[i*K:(i+1)*K], indices into the points (not into
	// Sample), nearest first, and their distances.
	Euclidean, Cosine knn.Graph
}

// Result is what Compute finds of n points of dimension D.
type Result struct {
	N, D int
	// NonFinite counts the values that were NaN or infinite: they are
	// taken as zero, since no method can place them.
	NonFinite int
	// Projections are in the order of Methods, those computed.
	Projections []Projection
	// Neighbors is nil when there are no lists (fewer than 2 points, or
	// MaxNeighbors negative).
	Neighbors *Neighbors
}

// Compute lays out the n points of dimension d in data (row-major,
// len(data) = n*d) by every method of opt and finds their neighbours. It
// returns an error only for inputs that are not points or when ctx is done;
// a method that cannot lay the points out says why in its Projection.
func Compute(ctx context.Context, data []float32, n, d int, opt Options) (*Result, error) {
	if n < 1 || d < 1 || len(data) != n*d {
		return nil, fmt.Errorf("project: %d values are not %d points of %d", len(data), n, d)
	}
	opt = opt.withDefaults()
	res := &Result{N: n, D: d}
	if bad := countNonFinite(data); bad > 0 {
		res.NonFinite = bad
		data = slices.Clone(data)
		for i, v := range data {
			if !finite(v) {
				data[i] = 0
			}
		}
	}
	perm := permutation(n, opt.Seed)
	sampleOf := func(limit int) []int32 { return sample(perm, limit) }

	type layout struct {
		p     *Projection
		graph *knn.Graph
	}
	var (
		pcaP             = &Projection{Method: PCA, Sample: sampleOf(opt.MaxPCA)}
		tsneL, umapL     layout
		cos              knn.Graph
		nb               *Neighbors
		nbGraph          *knn.Graph
		firstTasks, rest []func(context.Context) error
	)
	firstTasks = append(firstTasks, func(context.Context) error {
		return projectPCA(data, d, pcaP)
	})
	// t-SNE and UMAP: a neighbour graph of their sample, then the 2-D and
	// 3-D layouts from it. A graph is searched once when samples coincide.
	graphs := map[int]*knn.Graph{} // sample size -> graph of width tsneNeighbors or less
	graphFor := func(s []int32, k int) (*knn.Graph, []func(context.Context) error) {
		k = min(k, len(s)-1)
		if g, ok := graphs[len(s)]; ok && g.K >= k {
			return g, nil
		}
		g := &knn.Graph{}
		graphs[len(s)] = g
		return g, []func(context.Context) error{func(ctx context.Context) error {
			var err error
			*g, err = knn.Search(ctx, gather(data, d, s), len(s), d, k, knn.Euclidean)
			return err
		}}
	}
	tsneOn, umapOn := slices.Contains(opt.Methods, TSNE), slices.Contains(opt.Methods, UMAP)
	// t-SNE's graph is the widest: searched first, UMAP reuses it when it
	// lays out the same points.
	// plan samples the points of one method and queues the search of
	// their k-NN graph.
	plan := func(l *layout, m Method, name string, max, k int) {
		l.p = &Projection{Method: m, Sample: sampleOf(max)}
		if len(l.p.Sample) < 3 {
			l.p.Err = fmt.Errorf("%s needs 3 points or more, not %d", name, len(l.p.Sample))
			return
		}
		g, tasks := graphFor(l.p.Sample, k)
		l.graph, firstTasks = g, append(firstTasks, tasks...)
	}
	if tsneOn {
		plan(&tsneL, TSNE, "t-SNE", opt.MaxTSNE, tsneNeighbors)
	}
	umapK := umap.DefaultOptions().Neighbors - 1
	if umapOn {
		plan(&umapL, UMAP, "UMAP", opt.MaxUMAP, umapK)
	}
	if opt.MaxNeighbors > 0 && n >= 2 {
		nb = &Neighbors{Sample: sampleOf(opt.MaxNeighbors)}
		nb.K = min(opt.Neighbors, len(nb.Sample)-1)
		// The Euclidean lists are the start of a graph searched anyway
		// when one covers the same points.
		g, tasks := graphFor(nb.Sample, nb.K)
		firstTasks = append(firstTasks, tasks...)
		firstTasks = append(firstTasks, func(ctx context.Context) error {
			var err error
			cos, err = knn.Search(ctx, gather(data, d, nb.Sample), len(nb.Sample), d, nb.K, knn.Cosine)
			return err
		})
		nbGraph = g
	}
	if err := runAll(ctx, firstTasks); err != nil {
		return nil, err
	}
	if tsneL.graph != nil {
		g, p := tsneL.graph, tsneL.p
		rest = append(rest,
			func(ctx context.Context) (err error) {
				p.Coords2, err = tsne.Embed(ctx, narrow(*g, tsneNeighbors), 2, tsne.Options{Seed: opt.Seed})
				return err
			},
			func(ctx context.Context) (err error) {
				p.Coords3, err = tsne.Embed(ctx, narrow(*g, tsneNeighbors), 3, tsne.Options{Seed: opt.Seed})
				return err
			})
	}
	if umapL.graph != nil {
		g, p := umapL.graph, umapL.p
		uo := umap.DefaultOptions()
		uo.Seed = opt.Seed
		rest = append(rest,
			func(ctx context.Context) (err error) {
				u := narrow(*g, umapK)
				p.Coords2, err = umap.Embed(ctx, u.N(), u.Index, u.Dist, u.K, 2, uo)
				return err
			},
			func(ctx context.Context) (err error) {
				u := narrow(*g, umapK)
				p.Coords3, err = umap.Embed(ctx, u.N(), u.Index, u.Dist, u.K, 3, uo)
				return err
			})
	}
	if err := runAll(ctx, rest); err != nil {
		return nil, err
	}
	res.Projections = append(res.Projections, *pcaP)
	for _, l := range []layout{tsneL, umapL} {
		if l.p != nil {
			res.Projections = append(res.Projections, *l.p)
		}
	}
	if nb != nil {
		nb.Euclidean, nb.Cosine = toPoints(narrow(*nbGraph, nb.K), nb.Sample), toPoints(cos, nb.Sample)
		res.Neighbors = nb
	}
	return res, nil
}

// projectPCA fills p with the first three principal components of the
// points of p.Sample.
func projectPCA(data []float32, d int, p *Projection) error {
	m := len(p.Sample)
	k := min(3, d)
	r, err := pca.Project(gather(data, d, p.Sample), m, d, k)
	if err != nil {
		return fmt.Errorf("PCA: %w", err)
	}
	p.Coords2, p.Coords3 = make([]float32, m*2), make([]float32, m*3)
	for i := range m {
		for c := range k {
			p.Coords3[i*3+c] = r.Coords[i*k+c]
			if c < 2 {
				p.Coords2[i*2+c] = r.Coords[i*k+c]
			}
		}
	}
	p.Explained = make([]float64, 3)
	copy(p.Explained, r.Explained)
	return nil
}

// permutation is a seeded random order of the n points.
func permutation(n int, seed uint64) []int32 {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	r := rand.New(rand.NewPCG(seed, 0x7361_6d70)) // "samp"
	r.Shuffle(n, func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// sample is the first limit points of perm in index order: a random
// sample of limit points, every one when there are no more. Samples of
// one permutation are nested.
func sample(perm []int32, limit int) []int32 {
	s := slices.Clone(perm[:min(len(perm), max(limit, 0))])
	slices.Sort(s)
	return s
}

// gather copies the points of s out of data, in order.
func gather(data []float32, d int, s []int32) []float32 {
	if len(s)*d == len(data) {
		return data // every point, in order (samples are sorted)
	}
	out := make([]float32, 0, len(s)*d)
	for _, i := range s {
		out = append(out, data[int(i)*d:(int(i)+1)*d]...)
	}
	return out
}

// narrow keeps the first k neighbours of each row of g: the k nearest,
// since rows are nearest first.
func narrow(g knn.Graph, k int) knn.Graph {
	k = min(k, g.K)
	if k == g.K {
		return g
	}
	n := g.N()
	out := knn.Graph{K: k, Index: make([]int32, n*k), Dist: make([]float32, n*k)}
	for i := range n {
		copy(out.Index[i*k:(i+1)*k], g.Index[i*g.K:])
		copy(out.Dist[i*k:(i+1)*k], g.Dist[i*g.K:])
	}
	return out
}

// toPoints turns g's indices into the sample s into indices of points.
func toPoints(g knn.Graph, s []int32) knn.Graph {
	out := knn.Graph{K: g.K, Index: make([]int32, len(g.Index)), Dist: g.Dist}
	for i, j := range g.Index {
		out.Index[i] = s[j]
	}
	return out
}

// runAll runs the tasks, at most GOMAXPROCS at a time, and returns the
// first error in task order; the others are cancelled when one fails.
func runAll(ctx context.Context, tasks []func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(tasks))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, t := range tasks {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := ctx.Err(); err != nil {
				errs[i] = err
				return
			}
			if errs[i] = t(ctx); errs[i] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	// The first failure is the cause; the others may only say that the
	// context was cancelled because of it.
	return cmp.Or(firstReal(errs), cmp.Or(errs...))
}

// firstReal is the first error that is not a cancellation, or nil.
func firstReal(errs []error) error {
	for _, err := range errs {
		if err != nil && err != context.Canceled {
			return err
		}
	}
	return nil
}

func countNonFinite(data []float32) int {
	n := 0
	for _, v := range data {
		if !finite(v) {
			n++
		}
	}
	return n
}

func finite(v float32) bool { return !math.IsNaN(float64(v)) && !math.IsInf(float64(v), 0) }
