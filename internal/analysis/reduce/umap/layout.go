package umap

import (
	"context"
	"math"
	"math/rand/v2"
)

// newRand returns the one generator a run draws from.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
}

// randomInit returns n×dims coordinates drawn uniformly from [−10, 10].
func randomInit(n, dims int, rng *rand.Rand) []float64 {
	emb := make([]float64, n*dims)
	for i := range emb {
		emb[i] = 20*rng.Float64() - 10
	}
	return emb
}

// rescale maps every axis of emb onto [0, 10], as umap-learn does before
// the descent, so that the learning rate means the same whatever the
// initialisation's scale.
func rescale(emb []float64, dims int) {
	for c := range dims {
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := c; i < len(emb); i += dims {
			lo, hi = min(lo, emb[i]), max(hi, emb[i])
		}
		span := hi - lo
		if !(span > 0) {
			continue
		}
		for i := c; i < len(emb); i += dims {
			emb[i] = 10 * (emb[i] - lo) / span
		}
	}
}

// optimize runs the stochastic gradient descent on emb (n×dims, changed in
// place). An edge of weight w is sampled every max(w)/w epochs, moving its
// two ends together; each sample is followed by NegativeRate moves of the
// head away from random points. Gradients are those of the cross entropy
// under the similarity 1/(1 + a·d^2b), each component clipped to ±4.
func optimize(ctx context.Context, emb []float64, g graph, dims, epochs int, a, b float64, opt Options, rng *rand.Rand) error {
	const (
		clip  = 4.0
		gamma = 1.0   // weight of the repulsions (umap-learn's repulsion_strength)
		eps   = 0.001 // keeps repulsion finite for points that meet
	)
	top := 0.0
	for _, w := range g.weight {
		top = max(top, w)
	}
	m := len(g.weight)
	every := make([]float64, m)    // epochs between samples of an edge
	next := make([]float64, m)     // epoch of an edge's next sample
	everyNeg := make([]float64, m) // epochs between its negative samples
	nextNeg := make([]float64, m)
	for e, w := range g.weight {
		every[e] = top / w
		next[e] = every[e]
		if opt.NegativeRate > 0 {
			everyNeg[e] = every[e] / float64(opt.NegativeRate)
			nextNeg[e] = everyNeg[e]
		}
	}
	n := g.n
	pw := newPower(b)
	clamp := func(x float64) float64 { return max(-clip, min(clip, x)) }
	var diff [3]float64
	for epoch := range epochs {
		if err := ctx.Err(); err != nil {
			return err
		}
		alpha := opt.LearningRate * (1 - float64(epoch)/float64(epochs))
		fe := float64(epoch)
		for e := range m {
			if next[e] > fe {
				continue
			}
			j, k := int(g.head[e])*dims, int(g.tail[e])*dims
			cur, other := emb[j:j+dims], emb[k:k+dims]
			d2 := 0.0
			for c := range dims {
				diff[c] = cur[c] - other[c]
				d2 += diff[c] * diff[c]
			}
			if d2 > 0 {
				pb := pw.of(d2) // d2^b; d2^(b−1) is pb/d2
				coeff := -2 * a * b * pb / d2 / (a*pb + 1)
				for c := range dims {
					grad := clamp(coeff*diff[c]) * alpha
					cur[c] += grad
					other[c] -= grad
				}
			}
			next[e] += every[e]
			if opt.NegativeRate == 0 {
				continue
			}
			negs := int((fe - nextNeg[e]) / everyNeg[e])
			for range negs {
				r := rng.IntN(n)
				other := emb[r*dims : r*dims+dims]
				d2 := 0.0
				for c := range dims {
					diff[c] = cur[c] - other[c]
					d2 += diff[c] * diff[c]
				}
				if !(d2 > 0) {
					continue // the point itself, or one on top of it: no direction to push
				}
				pb := pw.of(d2)
				coeff := 2 * gamma * b / ((eps + d2) * (a*pb + 1))
				for c := range dims {
					cur[c] += clamp(coeff*diff[c]) * alpha
				}
			}
			nextNeg[e] += float64(negs) * everyNeg[e]
		}
	}
	return nil
}
