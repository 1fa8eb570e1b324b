// Package project computes everything the embeddings page shows of one set
// of points, ahead of time: its PCA, t-SNE and UMAP layouts in 2-D and 3-D
// and each point's nearest neighbours in the original space, by cosine and
// Euclidean distance.
//
// Each method has a cap on the points it lays out (PCA 50,000, t-SNE 2,500,
// UMAP 2,500; neighbour lists 10,000): beyond it the method lays out a seeded
// random sample of that many points. The samples are nested (the first m
// points of one seeded permutation, in index order), so under the default
// caps t-SNE and UMAP lay out the same points, from one neighbour search, and
// each of them has a neighbour list. The caps are chosen by measured cost
// rather than TensorBoard projector's (t-SNE 10,000, UMAP 5,000): t-SNE's
// work grows as points × log(points) × iterations and UMAP's as points ×
// epochs, and at those caps the three embeddings of the corpus's
// tf2-projector-ckpt took minutes to lay out (docs/PERFORMANCE.md gives the
// figures). With the projector reader's own bounds (100,000
// points of at most 1,000 values) the caps bound the work: the costliest steps
// are the exact neighbour searches of the t-SNE and neighbour samples, O(m²d).
//
// Degenerate points take a fast path, decided before any neighbour search:
// copies of a point are laid out once by t-SNE and UMAP and drawn on their
// original (identical points would otherwise tie every neighbour search and
// pull the layouts into one place, the slowest case of both), fewer than
// three distinct points get a trivial layout, and points of one value each
// are shown by PCA alone, which is then the data itself, centred. Each says
// so in its result.Projection's Note or the Result's Notes.
//
// Estimate gives the work of Compute from the points' shape alone, before
// they are read, so that a report can budget the work of all its
// embeddings and stay deterministic.
//
// The result depends only on the points, the options and the seed, not on
// the number of CPUs or the order the work runs in: every step is seeded and
// sums in a fixed order (see knn, tsne and umap), and the steps, run
// concurrently up to GOMAXPROCS, write only their own results.
package project

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/trainreport/trainreport/internal/analysis/reduce/knn"
	"github.com/trainreport/trainreport/internal/analysis/reduce/pca"
	"github.com/trainreport/trainreport/internal/analysis/reduce/tsne"
	"github.com/trainreport/trainreport/internal/analysis/reduce/umap"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Method is a way of laying points out; a result.Projection names its
// method by this string.
type Method string

// The methods, in the order the page offers them.
const (
	PCA  Method = "pca"
	TSNE Method = "tsne"
	UMAP Method = "umap"
)

// Methods lists every method.
var Methods = []Method{PCA, TSNE, UMAP}

// Default caps: the points a method lays out at most, chosen by measured
// cost (see the package comment), and the points that get neighbour lists.
const (
	DefaultMaxPCA       = 50_000
	DefaultMaxTSNE      = 2_500
	DefaultMaxUMAP      = 2_500
	DefaultMaxNeighbors = 10_000
	// DefaultNeighbors is how many neighbours a point's lists hold.
	DefaultNeighbors = 10
)

// tsneNeighbors is the width of t-SNE's neighbour graph: 3 × perplexity 30,
// as van der Maaten's bhtsne and TensorBoard use.
const tsneNeighbors = 90

// umapEpochs is UMAP's descent passes: umap-learn's for more than 10,000
// points, where it gives 500 to smaller sets. At 5,000 points of the
// corpus's tf2-projector-ckpt 200 lost 0.003 of trustworthiness in 2-D and
// 0.002 in 3-D, for 40% of the work; at 2,500, 0.002 and 0.001.
const umapEpochs = 200

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

// Result is what Compute finds of n points of dimension D: their layout
// as the report shows it, and what was left out.
type Result struct {
	// EmbeddingLayout holds N, the count of values that were NaN or
	// infinite (taken as zero, since no method can place them), the
	// projections in the order of Methods, those computed, and the
	// neighbour lists (nil when fewer than 2 points or MaxNeighbors is
	// negative).
	result.EmbeddingLayout
	D int
	// Notes say which methods asked for were not computed, and why.
	Notes []string
}

// Compute lays out the n points of dimension d in data (row-major,
// len(data) = n*d) by every method of opt and finds their neighbours. It
// returns an error only for inputs that are not points or when ctx is done;
// a method that cannot lay the points out says why in its
// result.Projection.
func Compute(ctx context.Context, data []float32, n, d int, opt Options) (*Result, error) {
	if n < 1 || d < 1 || len(data) != n*d {
		return nil, fmt.Errorf("project: %d values are not %d points of %d", len(data), n, d)
	}
	opt = opt.withDefaults()
	res := &Result{EmbeddingLayout: result.EmbeddingLayout{N: n}, D: d}
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
		p     *result.Projection
		graph *result.NeighborLists
		// distinct are the points of p.Sample laid out, one per value;
		// of maps each point of p.Sample to its place in distinct.
		distinct, of []int32
	}
	var (
		pcaP             = &result.Projection{Method: string(PCA), Sample: sampleOf(opt.MaxPCA)}
		tsneL, umapL     layout
		cos              result.NeighborLists
		nb               *result.Neighbors
		nbGraph          *result.NeighborLists
		firstTasks, rest []func(context.Context) error
	)
	firstTasks = append(firstTasks, func(context.Context) error {
		return projectPCA(data, d, pcaP)
	})
	// t-SNE and UMAP: a neighbour graph of their sample, then the 2-D and
	// 3-D layouts from it. A graph is searched once for a set of points.
	type searched struct {
		points []int32
		g      *result.NeighborLists // of width tsneNeighbors or less
	}
	var graphs []searched
	graphFor := func(s []int32, k int) (*result.NeighborLists, []func(context.Context) error) {
		k = min(k, len(s)-1)
		for _, sg := range graphs {
			if sg.g.K >= k && slices.Equal(sg.points, s) {
				return sg.g, nil
			}
		}
		g := &result.NeighborLists{}
		graphs = append(graphs, searched{s, g})
		return g, []func(context.Context) error{func(ctx context.Context) error {
			var err error
			*g, err = knn.Search(ctx, gather(data, d, s), len(s), d, k, knn.Euclidean)
			return err
		}}
	}
	tsneOn, umapOn := slices.Contains(opt.Methods, TSNE), slices.Contains(opt.Methods, UMAP)
	if d == 1 && (tsneOn || umapOn) {
		// A line laid out in a plane by t-SNE or UMAP only distorts it.
		res.Notes = append(res.Notes, "t-SNE and UMAP not computed: the points have one value each, which PCA shows as it is (centred)")
		tsneOn, umapOn = false, false
	}
	// t-SNE's graph is the widest: searched first, UMAP reuses it when it
	// lays out the same points.
	// plan samples the points of one method and queues the search of
	// the k-NN graph of their distinct values.
	plan := func(l *layout, m Method, name string, max, k int) {
		l.p = &result.Projection{Method: string(m), Sample: sampleOf(max)}
		if len(l.p.Sample) < 3 {
			l.p.Err = fmt.Errorf("%s needs 3 points or more, not %d", name, len(l.p.Sample))
			return
		}
		l.distinct, l.of = distinct(data, d, l.p.Sample)
		if nd := len(l.distinct); nd < len(l.p.Sample) {
			l.p.Note = copiesNote(name, len(l.p.Sample), nd)
		}
		if len(l.distinct) < 3 {
			trivial(l.p, l.of, len(l.distinct))
			return
		}
		g, tasks := graphFor(l.distinct, k)
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
		nb = &result.Neighbors{Sample: sampleOf(opt.MaxNeighbors)}
		nb.K = min(opt.Neighbors, len(nb.Sample)-1)
		// The Euclidean lists are the start of a graph searched anyway
		// when one covers the same points; otherwise one product of the
		// points gives both lists.
		g, tasks := graphFor(nb.Sample, nb.K)
		points := func() []float32 { return gather(data, d, nb.Sample) }
		if len(tasks) > 0 {
			tasks = []func(context.Context) error{func(ctx context.Context) error {
				var err error
				*g, cos, err = knn.SearchBoth(ctx, points(), len(nb.Sample), d, nb.K)
				return err
			}}
		} else {
			tasks = []func(context.Context) error{func(ctx context.Context) error {
				var err error
				cos, err = knn.Search(ctx, points(), len(nb.Sample), d, nb.K, knn.Cosine)
				return err
			}}
		}
		firstTasks = append(firstTasks, tasks...)
		nbGraph = g
	}
	if err := runAll(ctx, firstTasks); err != nil {
		return nil, err
	}
	// UMAP's layouts run on one core each, t-SNE's share each iteration
	// among the cores: UMAP's first, so that t-SNE's fill the cores at
	// the end rather than one UMAP layout finishing alone.
	if umapL.graph != nil {
		g, p, c := umapL.graph, umapL.p, umapL.of
		uo := umap.DefaultOptions()
		uo.Seed, uo.Epochs = opt.Seed, umapEpochs
		rest = append(rest,
			func(ctx context.Context) error {
				u := narrow(*g, umapK)
				y, err := umap.Embed(ctx, u.N(), u.Index, u.Dist, u.K, 2, uo)
				p.Coords2 = spread(y, c, 2)
				return err
			},
			func(ctx context.Context) error {
				u := narrow(*g, umapK)
				y, err := umap.Embed(ctx, u.N(), u.Index, u.Dist, u.K, 3, uo)
				p.Coords3 = spread(y, c, 3)
				return err
			})
	}
	if tsneL.graph != nil {
		g, p, c := tsneL.graph, tsneL.p, tsneL.of
		rest = append(rest,
			func(ctx context.Context) error {
				y, err := tsne.Embed(ctx, narrow(*g, tsneNeighbors), 2, tsne.Options{Seed: opt.Seed})
				p.Coords2 = spread(y, c, 2)
				return err
			},
			func(ctx context.Context) error {
				y, err := tsne.Embed(ctx, narrow(*g, tsneNeighbors), 3, tsne.Options{Seed: opt.Seed})
				p.Coords3 = spread(y, c, 3)
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

// distinct finds the distinct values among the points of s: the first
// point of s with each value, in s's order, and for each point of s the
// place of its value in that list. -0 and 0 are one value (their distance
// is 0); NaNs were taken as 0 before.
func distinct(data []float32, d int, s []int32) (first, of []int32) {
	row := func(i int32) []float32 { return data[int(i)*d : (int(i)+1)*d] }
	byHash := make(map[uint64][]int32, len(s)) // hash -> places in first
	of = make([]int32, len(s))
	for t, i := range s {
		h := fnv.New64a()
		var b [4]byte
		for _, v := range row(i) {
			if v == 0 {
				v = 0 // -0 too
			}
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
			h.Write(b[:])
		}
		key := h.Sum64()
		place := int32(-1)
		for _, f := range byHash[key] {
			if slices.Equal(row(first[f]), row(i)) { // -0 == 0 as floats
				place = f
				break
			}
		}
		if place < 0 {
			place = int32(len(first))
			first = append(first, i)
			byHash[key] = append(byHash[key], place)
		}
		of[t] = place
	}
	return first, of
}

// copiesNote says that a method laid out fewer distinct points than its
// sample holds.
func copiesNote(name string, points, distinct int) string {
	switch distinct {
	case 1:
		return fmt.Sprintf("the %s points laid out are all one point: %s has nothing to lay out, and draws them at one place", count(points), name)
	case 2:
		return fmt.Sprintf("the %s points laid out are 2 distinct points, too few for %s: drawn at two places", count(points), name)
	}
	return fmt.Sprintf("the %s points laid out are %s distinct points: %s laid those out and draws each copy on its original", count(points), count(distinct), name)
}

// count writes n with thousands separators, as the page writes counts.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// trivial lays out points of fewer than 3 distinct values (of maps each
// to its value) without the method: the first value at the origin, the
// second one unit along the first axis.
func trivial(p *result.Projection, of []int32, distinct int) {
	p.Coords2, p.Coords3 = make([]float32, 2*len(of)), make([]float32, 3*len(of))
	if distinct < 2 {
		return
	}
	for t, c := range of {
		p.Coords2[2*t], p.Coords3[3*t] = float32(c), float32(c)
	}
}

// spread gives each point the coordinates of its value: row of[t] of y,
// of width w. y is returned as it is when every value is one point.
func spread(y []float32, of []int32, w int) []float32 {
	if y == nil || len(y) == len(of)*w {
		return y
	}
	out := make([]float32, len(of)*w)
	for t, c := range of {
		copy(out[t*w:(t+1)*w], y[int(c)*w:(int(c)+1)*w])
	}
	return out
}

// projectPCA fills p with the first three principal components of the
// points of p.Sample.
func projectPCA(data []float32, d int, p *result.Projection) error {
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
func narrow(g result.NeighborLists, k int) result.NeighborLists {
	k = min(k, g.K)
	if k == g.K {
		return g
	}
	n := g.N()
	out := result.NeighborLists{K: k, Index: make([]int32, n*k), Dist: make([]float32, n*k)}
	for i := range n {
		copy(out.Index[i*k:(i+1)*k], g.Index[i*g.K:])
		copy(out.Dist[i*k:(i+1)*k], g.Dist[i*g.K:])
	}
	return out
}

// toPoints turns g's indices into the sample s into indices of points.
func toPoints(g result.NeighborLists, s []int32) result.NeighborLists {
	out := result.NeighborLists{K: g.K, Index: make([]int32, len(g.Index)), Dist: g.Dist}
	for i, j := range g.Index {
		out.Index[i] = s[j]
	}
	return out
}

// runAll runs the tasks, at most GOMAXPROCS at a time, starting them in
// order, and returns the first error in task order; the others are
// cancelled when one fails.
func runAll(ctx context.Context, tasks []func(context.Context) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(tasks))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, t := range tasks {
		// Taken here rather than in the task, so that tasks start in
		// their order: the caller puts the ones that use one core first
		// and those that share their work among cores last, where they
		// fill the cores the others leave.
		sem <- struct{}{}
		wg.Go(func() {
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

// Work units: Estimate's measure of Compute's work, roughly a nanosecond
// of one core of the 2-core development machine each (calibrated there on
// the steps below; a busy machine takes longer, but the estimate, made from
// shapes alone, is the same on every machine, so a budget of them keeps a
// report's output deterministic). Upper bounds where the cost depends on
// the points: UMAP's descent as if every edge were sampled every epoch,
// which is what ties make it do.
const (
	// WorkPerSecond is the work units of about a second of one core.
	WorkPerSecond = 1_000_000_000
	// workFixed is each embedding's cost whatever its size: reading its
	// file, the tasks, its data file.
	workFixed = 1_000_000
	// workPoint is each point's reading and writing out.
	workPoint = 50
	// workSearch is one (query, point) pair of a neighbour search per
	// dimension, and workSearchPair its heap's share.
	workSearch, workSearchPair = 1, 8
	// workPCA is one product of the covariance (points × d²), and
	// workEigen one of its eigendecomposition (d³).
	workPCA, workEigen = 1, 6
	// workTSNE is one point of one t-SNE iteration in one layout.
	workTSNE = 1_000
	// workUMAP is one edge of one UMAP epoch in one layout, with its
	// negative samples.
	workUMAP = 200
)

// Estimate is the work Compute does on n points of dimension d with opt,
// in work units, from the shape alone: what a report budgets before
// reading the points. It follows Compute's plan: the caps, the methods
// asked for, a method left out for too few points or one dimension, one
// neighbour search per set of points. Copies of a point make t-SNE and
// UMAP cheaper (each value is laid out once), though the neighbour lists
// then need a search of their own.
func Estimate(n, d int, opt Options) int64 {
	if n < 1 || d < 1 {
		return workFixed
	}
	opt = opt.withDefaults()
	sampled := func(limit int) int64 { return int64(min(n, max(limit, 0))) }
	D := int64(d)
	m := sampled(opt.MaxPCA)
	work := workFixed + int64(n)*D + m*workPoint + m*D*D*workPCA + D*D*D*workEigen
	// The samples are nested: two of one size are the same points, whose
	// Euclidean graph is searched once.
	searched := map[int64]bool{}
	search := func(m int64) int64 {
		if searched[m] {
			return 0
		}
		searched[m] = true
		return m * m * (D*workSearch + workSearchPair)
	}
	if d > 1 {
		if m := sampled(opt.MaxTSNE); slices.Contains(opt.Methods, TSNE) && m >= 3 {
			work += search(m) + 2*int64(tsne.DefaultIterations)*m*workTSNE
		}
		if m := sampled(opt.MaxUMAP); slices.Contains(opt.Methods, UMAP) && m >= 3 {
			// Fuzzy union: each point's edges to its neighbours, both ways.
			k := int64(umap.DefaultOptions().Neighbors - 1)
			work += search(m) + 2*umapEpochs*m*2*k*workUMAP
		}
	}
	if m := sampled(opt.MaxNeighbors); opt.MaxNeighbors > 0 && n >= 2 {
		if searched[m] {
			// The Euclidean lists from t-SNE's or UMAP's graph, the
			// cosine ones from a search of their own.
			work += m * m * (D*workSearch + workSearchPair)
		} else {
			// Both from one product, with a heap each.
			work += search(m) + m*m*workSearchPair
		}
	}
	return work
}
