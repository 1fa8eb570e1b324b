// Package umap reduces points to two or three dimensions with UMAP, the
// Uniform Manifold Approximation and Projection of McInnes, Healy and
// Melville (2018, arXiv:1802.03426), following the choices of their
// reference implementation, umap-learn, so that our layouts are as
// trustworthy as its own.
//
// The method, in our words:
//
//  1. From each point's k nearest neighbours (computed elsewhere, for
//     example by internal/analysis/reduce/knn) build a weighted graph: a point's
//     distance to its nearest neighbour, ρ, counts as zero, and beyond it
//     weights fall off as exp(−(d−ρ)/σ), with σ found by bisection so that a
//     point's weights sum to log2 of umap-learn's neighbour count (which
//     counts the point itself). The directed weights A are made symmetric by
//     fuzzy union, A + Aᵀ − A∘Aᵀ, and edges weaker than 1/epochs of the
//     strongest are dropped.
//  2. Start from the graph's spectral layout (the leading non-trivial
//     eigenvectors of D^-½ A D^-½, by Lanczos iteration) scaled to ±10, or,
//     when the graph falls apart into several components or the iteration
//     fails, from seeded uniform noise in [−10, 10].
//  3. Move the points by stochastic gradient descent on the cross entropy
//     between the graph and the low-dimensional similarities
//     1/(1 + a·d^2b), where a and b are fitted by least squares to a curve
//     that is flat up to MinDist and decays with Spread (a ≈ 1.577,
//     b ≈ 0.895 for the defaults). Each edge is sampled in proportion to its
//     weight, each sample followed by NegativeRate repulsions from random
//     points; the learning rate decays linearly to zero and every gradient
//     component is clipped to ±4.
//
// The descent runs on one goroutine with one seeded generator, so a seed
// gives the same coordinates on every run (umap-learn is likewise
// sequential when given a random_state); across architectures results may
// differ in the last bits, as Go may fuse multiply-adds on some.
//
// Quality (testdata/reference.py, umap-learn 0.5.12, random_state 42):
// trustworthiness (scikit-learn's, k = 10) of ours and umap-learn's
// layouts, 2-D then 3-D, on data the test commits:
//
//	Gaussian blobs, 1,000 × 10            0.9630 0.9719   umap-learn 0.9627 0.9723
//	Swiss roll, 1,500 × 3                 0.9990 0.9990   umap-learn 0.9988 0.9990
//	digits, 1,797 × 64                    0.9886 0.9923   umap-learn 0.9888 0.9924
//	corpus's MNIST projector, 100 × 784   0.8715 0.8863   umap-learn 0.8785 0.8889
//
// (the last, of 100 points, the mean over seeds 1 to 8). Package project
// asks for 200 epochs, which lose at most 0.002 of these but on the
// small MNIST set. TestTrustworthinessAgainstUmapLearn requires ours
// within 0.02 of the reference. The spectral start gives the same trustworthiness as a random
// one (within 0.01 on these sets) but keeps global shape: from a random
// start the Swiss roll comes out torn in three pieces, from the spectral
// one whole, as umap-learn draws it. Its Lanczos iteration costs well under
// a second for 10,000 points (0.51 CPU seconds measured on the
// benchmark's graph of 232,348 edges), lost in the descent's noise.
//
// The descent's power x^b, most of its time, is read from tables (see
// power): half the CPU of a layout at the corpus's size, 2,500 points of
// tf2-projector-ckpt, where the figures below predate it.
//
// Cost (BenchmarkEmbed10000x128: 10,000 points × 128 dimensions in
// overlapping clusters, 2-D, 500 epochs, neighbours computed beforehand):
// on the idle 2-core machine 24.2 s (22.8 CPU seconds) from the spectral
// start, 25.4 s from a random one; under load, 33 to 37 CPU seconds. Peak
// memory of the whole benchmark process under 100 MB; 54 to 62 MB
// allocated per layout. umap-learn took about 70 CPU seconds and 615 MB
// on the same points.
package umap

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// Init chooses how the layout starts.
type Init int

const (
	// Spectral starts from the graph's spectral layout and falls back to
	// Random when the graph is disconnected or the eigenvectors do not come.
	Spectral Init = iota
	// Random starts from seeded uniform noise in [−10, 10].
	Random
)

// Options are UMAP's parameters; DefaultOptions gives umap-learn's defaults.
type Options struct {
	// Neighbors is umap-learn's n_neighbors: the size of a neighbourhood
	// counting the point itself, so Embed uses Neighbors−1 columns of the
	// neighbour graph (fewer when the graph has fewer).
	Neighbors int
	// MinDist is how close points may pack in the layout, 0 ≤ MinDist ≤ Spread.
	MinDist float64
	// Spread is the scale of the layout's clusters, > 0.
	Spread float64
	// Epochs is the number of passes of gradient descent; 0 means
	// umap-learn's rule: 500 up to 10,000 points, 200 beyond.
	Epochs int
	// NegativeRate is the number of repulsive samples per attractive one.
	NegativeRate int
	// LearningRate is the initial step, decaying linearly to zero.
	LearningRate float64
	// Init chooses the starting layout.
	Init Init
	// Seed makes the result reproducible: equal inputs and seeds give equal
	// coordinates.
	Seed uint64
}

// DefaultOptions returns umap-learn's defaults: 15 neighbours, min_dist
// 0.1, spread 1, the epoch rule by size, negative sample rate 5, learning
// rate 1, spectral initialisation; seed 0.
func DefaultOptions() Options {
	return Options{
		Neighbors:    15,
		MinDist:      0.1,
		Spread:       1,
		NegativeRate: 5,
		LearningRate: 1,
		Init:         Spectral,
	}
}

// Embed lays out n points in dims (2 or 3) dimensions and returns their
// coordinates, row-major n×dims. The points are given by their neighbour
// graph: row i of index and dist (k entries each, row-major n×k) lists
// point i's nearest neighbours other than itself and their distances,
// nearest first, as knn.Search's result.NeighborLists hold them. A row may
// be shorter than k by ending with index −1. Embed stops with ctx's error when ctx is done.
func Embed(ctx context.Context, n int, index []int32, dist []float32, k, dims int, opt Options) ([]float32, error) {
	if err := check(n, index, dist, k, dims, opt); err != nil {
		return nil, fmt.Errorf("umap: %w", err)
	}
	if n == 0 {
		return []float32{}, nil
	}
	epochs := opt.Epochs
	if epochs == 0 {
		epochs = DefaultEpochs(n)
	}
	a, b := fitCurve(opt.MinDist, opt.Spread)
	g := fuzzySet(n, index, dist, k, min(k, opt.Neighbors-1))
	if epochs > 10 {
		g = g.prune(epochs)
	} else {
		g = g.prune(DefaultEpochs(n))
	}
	rng := newRand(opt.Seed)
	var emb []float64
	if opt.Init == Spectral {
		var err error
		emb, err = spectralInit(ctx, g, dims, rng)
		if err != nil {
			return nil, fmt.Errorf("umap: spectral initialisation: %w", err)
		}
	}
	if emb == nil {
		emb = randomInit(n, dims, rng)
	}
	rescale(emb, dims)
	if err := optimize(ctx, emb, g, dims, epochs, a, b, opt, rng); err != nil {
		return nil, fmt.Errorf("umap: layout: %w", err)
	}
	out := make([]float32, len(emb))
	for i, v := range emb {
		out[i] = float32(v)
	}
	return out, nil
}

// DefaultEpochs is the epochs of n points when Options.Epochs is 0,
// umap-learn's rule: small sets get more passes.
func DefaultEpochs(n int) int {
	if n > 10000 {
		return 200
	}
	return 500
}

func check(n int, index []int32, dist []float32, k, dims int, opt Options) error {
	switch {
	case n < 0 || k < 0:
		return fmt.Errorf("negative size n=%d k=%d", n, k)
	case dims != 2 && dims != 3:
		return fmt.Errorf("%d dimensions asked, want 2 or 3", dims)
	case n > 0 && k == 0:
		return errors.New("no neighbours given")
	case n > 0 && (n > math.MaxInt32 || k > math.MaxInt/n):
		return fmt.Errorf("graph of %d×%d too large", n, k)
	case len(index) != n*k || len(dist) != n*k:
		return fmt.Errorf("graph holds %d indices and %d distances, want %d×%d", len(index), len(dist), n, k)
	case opt.Neighbors < 2:
		return fmt.Errorf("Neighbors %d, want at least 2", opt.Neighbors)
	case !(opt.Spread > 0) || !(opt.MinDist >= 0) || opt.MinDist > opt.Spread:
		return fmt.Errorf("MinDist %g and Spread %g, want 0 ≤ MinDist ≤ Spread, Spread > 0", opt.MinDist, opt.Spread)
	case opt.Epochs < 0 || opt.NegativeRate < 0:
		return fmt.Errorf("Epochs %d, NegativeRate %d, want ≥ 0", opt.Epochs, opt.NegativeRate)
	case !(opt.LearningRate > 0) || math.IsInf(opt.LearningRate, 0):
		return fmt.Errorf("LearningRate %g, want > 0", opt.LearningRate)
	case opt.Init != Spectral && opt.Init != Random:
		return fmt.Errorf("unknown Init %d", opt.Init)
	}
	for i, j := range index {
		if j < -1 || int(j) >= n {
			return fmt.Errorf("point %d's neighbour %d is %d, outside [0, %d)", i/k, i%k, j, n)
		}
		if d := dist[i]; j >= 0 && (!(d >= 0) || math.IsInf(float64(d), 0)) {
			return fmt.Errorf("point %d's neighbour %d is at distance %g", i/k, i%k, d)
		}
	}
	return nil
}

// String returns the initialisation's name as umap-learn spells it.
func (i Init) String() string {
	switch i {
	case Spectral:
		return "spectral"
	case Random:
		return "random"
	}
	return fmt.Sprintf("Init(%d)", int(i))
}
