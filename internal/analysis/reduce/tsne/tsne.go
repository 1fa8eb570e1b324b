// Package tsne lays points out in 2-D or 3-D by Barnes-Hut t-SNE, computed
// ahead of time, with the optimisation of scikit-learn and openTSNE rather
// than TensorBoard projector's: an early exaggeration of 12 and a learning
// rate of n/12 (Belkina et al. 2019, "Automated optimized parameters for
// t-distributed stochastic neighbor embedding") reach in 500 iterations
// the trustworthiness TensorBoard's exaggeration 4 and learning rate 10
// reach in 1,000 (at 5,000 points of the corpus's tf2-projector-ckpt: 0.954
// against 0.950), and in 300, 150 of them exaggerated, what 500 with 250
// exaggerated reach at the default cap (see DefaultIterations). What they
// lacked against scikit-learn's TSNE (0.974) was the repulsion's
// accuracy: θ 0.5, bhtsne's default, rather than TensorBoard's 0.8, gives
// 0.972 for 1.4 times the work of an iteration.
//
// t-SNE (van der Maaten and Hinton 2008) places points so that the
// Student-t similarities of the layout match Gaussian similarities of the
// input. Its Barnes-Hut form (van der Maaten 2014, "Accelerating t-SNE using
// tree-based algorithms") makes both sides cheap:
//
//   - the input similarities P are kept only between each point and its
//     3×perplexity nearest neighbours (knn.Search's lists): for point i a
//     Gaussian over the squared distances to them, its width found by
//     bisection so that the entropy of the row is log(perplexity); then P
//     is made symmetric, pᵢⱼ = (pⱼ|ᵢ + pᵢ|ⱼ)/2n, as a sparse matrix;
//   - the gradient 4(α·Σⱼ pᵢⱼ qᵢⱼ Z (yᵢ−yⱼ) − Σⱼ qᵢⱼ² Z (yᵢ−yⱼ)) splits into an
//     attraction along P's entries, exact, and a repulsion over all pairs
//     with its normaliser Z = Σ (1+‖yᵢ−yⱼ‖²)⁻¹, both summed over a
//     quadtree (octree in 3-D) of the layout: a cell whose half-width is
//     under θ times its distance from the point counts as one point of its
//     cell's mass at its centre of mass;
//   - descent with momentum and per-coordinate gains (Jacobs 1988) as in
//     van der Maaten's bhtsne: a gain grows by 0.2 while the gradient keeps
//     its direction and shrinks by a factor 0.8 when it turns, never below
//     0.01; the attraction is exaggerated for the first iterations so that
//     clusters form early; the layout is re-centred after each step.
//
// The tree is our own rather than gonum's spatial/barneshut, which computes
// forces through a callback and so could give the repulsion and Z (the
// callback can sum Z on the side): gonum's cannot hold two points at the
// same place (its Reset fails, and equal input vectors do converge), it
// allocates a tree of interface values per iteration, and it needs a 2-D and
// a 3-D copy of the code; ours is one flat array reused across iterations,
// for both dimensions, whose leaves may hold several points.
//
// Everything is seeded and summed in a fixed order: the same graph, options
// and seed give the same bytes, whatever the number of CPUs (points are
// shared among goroutines, each writing only its own points' gradients).
//
// At 10,000 points of 128 dimensions (BenchmarkEmbed) the defaults take the
// time docs/DEVELOPMENT.md gives.
package tsne

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Options are t-SNE's settings. A zero field takes its default:
// scikit-learn's and openTSNE's optimisation, TensorBoard projector's
// perplexity and accuracy (bhtsne's where neither has one).
type Options struct {
	// Perplexity is the effective number of neighbours of a point: 30.
	// Only the first 3×Perplexity neighbours are used; with fewer,
	// the effective number is at most what the graph holds.
	Perplexity float64
	// LearningRate is the step size of the descent: n/Exaggeration for n
	// points, at least MinLearningRate (TensorBoard's fixed 10 needs
	// twice the iterations at 5,000 points).
	LearningRate float64
	// Theta is the Barnes-Hut accuracy, smaller is more exact and slower:
	// 0.5, measured on a cell's half-width as bhtsne does.
	Theta float64
	// Exaggeration multiplies the attraction during the first
	// ExaggerationIters iterations: 12 and 150.
	Exaggeration      float64
	ExaggerationIters int
	// MomentumSwitch is the iteration from which the momentum is 0.8
	// rather than 0.5: 150.
	MomentumSwitch int
	// Iterations is the number of descent steps: DefaultIterations.
	Iterations int
	// Seed seeds the initial layout (Gaussian, standard deviation 1e-4).
	Seed uint64
}

// DefaultIterations is the descent steps of Options.Iterations 0: 150
// exaggerated and 150 more. At the default cap, 2,500 points of each of
// the corpus's three tf2-projector-ckpt embeddings, they keep the
// trustworthiness of 500 iterations with 250 exaggerated (scikit-learn's
// 250 and openTSNE's) within 0.003 in 2-D and 3-D, and scikit-learn's own
// (1,000 iterations) within 0.004, for 0.6 of the work;
// docs/PERFORMANCE.md gives the figures. 350 with 250 exaggerated lost
// more (0.003 to 0.004), 300 with 200 exaggerated more still.
const DefaultIterations = 300

// MinLearningRate is the least learning rate of Options.LearningRate 0,
// TensorBoard's, for small sets where n/Exaggeration would be smaller.
const MinLearningRate = 10

// withDefaults fills the zero fields for n points.
func (o Options) withDefaults(n int) Options {
	def := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	defInt := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&o.Perplexity, 30)
	def(&o.Theta, 0.5)
	def(&o.Exaggeration, 12)
	def(&o.LearningRate, max(float64(n)/o.Exaggeration, MinLearningRate))
	defInt(&o.ExaggerationIters, DefaultIterations/2)
	defInt(&o.MomentumSwitch, DefaultIterations/2)
	defInt(&o.Iterations, DefaultIterations)
	return o
}

// Embed returns the layout in dims (2 or 3) dimensions of the points whose
// nearest neighbours g holds (any metric: its distances are squared into
// the Gaussian), row-major n×dims with n = g.N(), centred on the origin. It
// stops with ctx's error when ctx is done.
func Embed(ctx context.Context, g result.NeighborLists, dims int, opt Options) ([]float32, error) {
	n := g.N()
	opt = opt.withDefaults(n)
	switch {
	case dims != 2 && dims != 3:
		return nil, fmt.Errorf("tsne: %d dimensions, not 2 or 3", dims)
	case g.K < 1 || n < 2 || len(g.Index) != n*g.K || len(g.Dist) != n*g.K:
		return nil, fmt.Errorf("tsne: a graph of %d neighbours of %d points (%d indices, %d distances)",
			g.K, n, len(g.Index), len(g.Dist))
	case !finite(opt.Perplexity) || !finite(opt.LearningRate) || !finite(opt.Theta) || !finite(opt.Exaggeration) ||
		opt.ExaggerationIters < 0 || opt.MomentumSwitch < 0 || opt.Iterations < 0:
		return nil, fmt.Errorf("tsne: options out of range: %+v", opt)
	}
	for i, j := range g.Index {
		if j < 0 || int(j) >= n || int(j) == i/g.K {
			return nil, fmt.Errorf("tsne: point %d: neighbour %d of %d points", i/g.K, j, n)
		}
		if d := g.Dist[i]; !(d >= 0) || math.IsInf(float64(d), 0) {
			return nil, fmt.Errorf("tsne: point %d: distance %v", i/g.K, d)
		}
	}
	p := affinities(g, opt.Perplexity)

	r := rand.New(rand.NewPCG(opt.Seed, 0x7453_4e45)) // "tSNE"
	y := make([]float64, n*dims)
	for i := range y {
		y[i] = 1e-4 * r.NormFloat64()
	}
	s := state{
		n: n, dims: dims, opt: opt, p: p, y: y,
		grad:  make([]float64, n*dims),
		step:  make([]float64, n*dims),
		gains: make([]float64, n*dims),
		rep:   make([]float64, n*dims),
		z:     make([]float64, n),
	}
	for i := range s.gains {
		s.gains[i] = 1
	}
	for it := range opt.Iterations {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("tsne: iteration %d: %w", it, err)
		}
		s.iterate(it)
	}
	out := make([]float32, len(y))
	for i, v := range y {
		out[i] = float32(v)
	}
	return out, nil
}

// finite reports whether an option is usable: not negative, not NaN, not
// infinite.
func finite(v float64) bool { return v >= 0 && !math.IsInf(v, 1) }

// sparse is a symmetric matrix in compressed rows: row i's columns are
// col[start[i]:start[i+1]], increasing.
type sparse struct {
	start []int
	col   []int32
	val   []float64
}

// affinities returns the symmetric P of the graph's points.
func affinities(g result.NeighborLists, perplexity float64) sparse {
	n := g.N()
	k := min(g.K, max(1, int(3*perplexity)))
	cond := make([]float64, n*k)
	for i := range n {
		conditional(g.Dist[i*g.K:i*g.K+k], perplexity, cond[i*k:(i+1)*k])
	}
	// Each p(j|i) goes to (i, j) and (j, i): count, place, then sort each
	// row and merge its repeated columns.
	count := make([]int, n+1)
	for i := range n {
		for _, j := range g.Index[i*g.K : i*g.K+k] {
			count[i+1]++
			count[j+1]++
		}
	}
	for i := range n {
		count[i+1] += count[i]
	}
	type entry struct {
		col int32
		val float64
	}
	entries := make([]entry, count[n])
	fill := slices.Clone(count[:n])
	for i := range n {
		for t, j := range g.Index[i*g.K : i*g.K+k] {
			v := cond[i*k+t]
			entries[fill[i]] = entry{j, v}
			fill[i]++
			entries[fill[j]] = entry{int32(i), v}
			fill[j]++
		}
	}
	var p sparse
	p.start = make([]int, 1, n+1)
	var total float64
	for i := range n {
		row := entries[count[i]:count[i+1]]
		slices.SortFunc(row, func(a, b entry) int { return int(a.col) - int(b.col) })
		for t, e := range row {
			if t > 0 && row[t-1].col == e.col {
				p.val[len(p.val)-1] += e.val
			} else {
				p.col = append(p.col, e.col)
				p.val = append(p.val, e.val)
			}
		}
		p.start = append(p.start, len(p.col))
	}
	for _, v := range p.val {
		total += v
	}
	for t := range p.val {
		p.val[t] /= total
	}
	return p
}

// conditional writes p(j|i) for the distances of one point's neighbours:
// a Gaussian over the squared distances whose precision is bisected until
// the entropy is log(perplexity) (within 1e-5, at most 200 steps, bhtsne's
// bounds).
func conditional(dist []float32, perplexity float64, out []float64) {
	sq := make([]float64, len(dist))
	for t, d := range dist {
		// Shifted by the nearest so the largest term is exp(0): the same
		// distribution, without underflow when every distance is large.
		sq[t] = float64(d)*float64(d) - float64(dist[0])*float64(dist[0])
	}
	target := math.Log(perplexity)
	beta, lo, hi := 1.0, 0.0, math.Inf(1)
	for range 200 {
		var sum, wsum float64
		for t, d := range sq {
			out[t] = math.Exp(-beta * d)
			sum += out[t]
			wsum += d * out[t]
		}
		h := math.Log(sum) + beta*wsum/sum
		for t := range out {
			out[t] /= sum
		}
		diff := h - target
		if math.Abs(diff) < 1e-5 {
			return
		}
		if diff > 0 { // too flat: narrow it
			lo = beta
			if math.IsInf(hi, 1) {
				beta *= 2
			} else {
				beta = (beta + hi) / 2
			}
		} else {
			hi = beta
			beta = (beta + lo) / 2
		}
	}
}

// state is the descent's.
type state struct {
	n, dims int
	opt     Options
	p       sparse
	y       []float64 // layout, row-major n×dims
	grad    []float64
	step    []float64 // the last update, for momentum
	gains   []float64
	rep     []float64 // repulsion times Z
	z       []float64 // each point's share of Z
	tree    tree
}

// iterate takes one step of gradient descent.
func (s *state) iterate(it int) {
	exag := 1.0
	if it < s.opt.ExaggerationIters {
		exag = s.opt.Exaggeration
	}
	momentum := 0.5
	if it >= s.opt.MomentumSwitch {
		momentum = 0.8
	}
	s.tree.build(s.y, s.n, s.dims)

	// Each worker owns a fixed range of points: the result does not depend
	// on which runs first.
	workers := min(runtime.GOMAXPROCS(0), max(1, s.n/256))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.forces(w*s.n/workers, (w+1)*s.n/workers)
		}()
	}
	wg.Wait()
	var z float64
	for _, v := range s.z {
		z += v
	}
	for i := range s.n {
		for c := range s.dims {
			t := i*s.dims + c
			g := 4 * (exag*s.grad[t] - s.rep[t]/z)
			if (g > 0) != (s.step[t] > 0) {
				s.gains[t] += 0.2
			} else {
				s.gains[t] = max(s.gains[t]*0.8, 0.01)
			}
			s.step[t] = momentum*s.step[t] - s.opt.LearningRate*s.gains[t]*g
			s.y[t] += s.step[t]
		}
	}
	for c := range s.dims {
		var mean float64
		for i := range s.n {
			mean += s.y[i*s.dims+c]
		}
		mean /= float64(s.n)
		for i := range s.n {
			s.y[i*s.dims+c] -= mean
		}
	}
}

// forces computes, for the points lo to hi, the attraction into grad, the
// repulsion times Z into rep and their terms of Z into z.
func (s *state) forces(lo, hi int) {
	d := s.dims
	theta2 := s.opt.Theta * s.opt.Theta
	for i := lo; i < hi; i++ {
		attr := s.attraction(i)
		var rep [3]float64
		if d == 2 {
			s.z[i], rep[0], rep[1] = s.tree.repulsion2(i, s.y[2*i], s.y[2*i+1], theta2)
		} else {
			s.z[i], rep[0], rep[1], rep[2] = s.tree.repulsion3(i, s.y[3*i], s.y[3*i+1], s.y[3*i+2], theta2)
		}
		for c := range d {
			s.grad[i*d+c] = attr[c]
			s.rep[i*d+c] = rep[c]
		}
	}
}

// attraction returns Σⱼ pᵢⱼ (yᵢ−yⱼ)/(1+‖yᵢ−yⱼ‖²) over P's row i, written
// out for each dimension: the loop every iteration spends most in.
func (s *state) attraction(i int) [3]float64 {
	cols := s.p.col[s.p.start[i]:s.p.start[i+1]]
	vals := s.p.val[s.p.start[i]:s.p.start[i+1]]
	vals = vals[:len(cols)]
	var f [3]float64
	y := s.y
	if s.dims == 2 {
		x0, x1 := y[2*i], y[2*i+1]
		for t, j := range cols {
			yj := y[2*int(j) : 2*int(j)+2 : 2*int(j)+2]
			a, b := x0-yj[0], x1-yj[1]
			w := vals[t] / (1 + a*a + b*b)
			f[0] += w * a
			f[1] += w * b
		}
		return f
	}
	x0, x1, x2 := y[3*i], y[3*i+1], y[3*i+2]
	for t, j := range cols {
		yj := y[3*int(j) : 3*int(j)+3 : 3*int(j)+3]
		a, b, c := x0-yj[0], x1-yj[1], x2-yj[2]
		w := vals[t] / (1 + a*a + b*b + c*c)
		f[0] += w * a
		f[1] += w * b
		f[2] += w * c
	}
	return f
}
