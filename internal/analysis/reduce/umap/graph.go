package umap

import (
	"math"
	"slices"
)

// graph is the symmetric fuzzy simplicial set: every edge once in each
// direction, sorted by (head, tail), which is the order the descent visits
// them in (umap-learn's COO order).
type graph struct {
	n          int
	head, tail []int32
	weight     []float64
}

// fuzzySet builds the symmetric weighted graph from the first kk columns of
// the n×k neighbour graph (index, dist).
func fuzzySet(n int, index []int32, dist []float32, k, kk int) graph {
	type entry struct {
		key  uint64 // head<<32 | tail
		w    float64
		mine bool // from the head's own row (A), or from the tail's (Aᵀ)
	}
	entries := make([]entry, 0, 2*n*kk)
	row := make([]float64, kk)
	meanAll := 0.0
	for i := range n {
		for _, d := range dist[i*k : i*k+kk] {
			meanAll += float64(d)
		}
	}
	meanAll /= float64(n * (kk + 1)) // counting each point's zero distance to itself, as umap-learn does
	for i := range n {
		idx, ds := index[i*k:i*k+kk], dist[i*k:i*k+kk]
		for j := range row {
			row[j] = float64(ds[j])
			if idx[j] < 0 {
				row = row[:j]
				break
			}
		}
		rho, sigma := smoothDist(row, kk+1, meanAll)
		for j, d := range row {
			t := idx[j]
			if int(t) == i {
				continue
			}
			w := 1.0
			if d-rho > 0 && sigma > 0 {
				w = math.Exp(-(d - rho) / sigma)
			}
			if w == 0 {
				continue
			}
			entries = append(entries,
				entry{uint64(i)<<32 | uint64(t), w, true},
				entry{uint64(t)<<32 | uint64(i), w, false})
		}
		row = row[:kk]
	}
	slices.SortStableFunc(entries, func(x, y entry) int {
		switch {
		case x.key < y.key:
			return -1
		case x.key > y.key:
			return 1
		}
		return 0
	})
	g := graph{n: n}
	for s := 0; s < len(entries); {
		e := s
		var a, at float64
		for ; e < len(entries) && entries[e].key == entries[s].key; e++ {
			// A repeated neighbour keeps its strongest weight.
			if entries[e].mine {
				a = max(a, entries[e].w)
			} else {
				at = max(at, entries[e].w)
			}
		}
		if w := a + at - a*at; w > 0 {
			g.head = append(g.head, int32(entries[s].key>>32))
			g.tail = append(g.tail, int32(entries[s].key&math.MaxUint32))
			g.weight = append(g.weight, w)
		}
		s = e
	}
	return g
}

// smoothDist returns a point's ρ, the distance to its nearest neighbour at
// a positive distance, and σ, found by bisection so that its weights
// exp(−(d−ρ)/σ) (1 within ρ) sum to log2(size), size being umap-learn's
// neighbourhood counting the point itself. Like umap-learn, σ is kept
// above a thousandth of the mean neighbour distance (the point's own, or
// meanAll's when all its neighbours sit on it) so that duplicates do not
// make it vanish.
func smoothDist(ds []float64, size int, meanAll float64) (rho, sigma float64) {
	const (
		iterations = 64
		tolerance  = 1e-5
		minScale   = 1e-3
	)
	target := math.Log2(float64(size))
	for _, d := range ds {
		if d > 0 {
			rho = d
			break
		}
	}
	lo, hi, mid := 0.0, math.Inf(1), 1.0
	for range iterations {
		sum := 0.0
		for _, d := range ds {
			if r := d - rho; r > 0 {
				sum += math.Exp(-r / mid)
			} else {
				sum++
			}
		}
		if math.Abs(sum-target) < tolerance {
			break
		}
		if sum > target {
			hi = mid
			mid = (lo + hi) / 2
		} else {
			lo = mid
			if math.IsInf(hi, 1) {
				mid *= 2
			} else {
				mid = (lo + hi) / 2
			}
		}
	}
	sigma = mid
	if rho > 0 {
		mean := 0.0
		for _, d := range ds {
			mean += d
		}
		// umap-learn's mean includes the point's zero distance to itself.
		mean /= float64(len(ds) + 1)
		sigma = max(sigma, minScale*mean)
	} else {
		sigma = max(sigma, minScale*meanAll)
	}
	return rho, sigma
}

// prune drops the edges weaker than 1/epochs of the strongest, which the
// descent would sample less than once (umap-learn does the same, with its
// default epoch count when asked for 10 epochs or fewer).
func (g graph) prune(epochs int) graph {
	top := 0.0
	for _, w := range g.weight {
		top = max(top, w)
	}
	limit := top / float64(epochs)
	out := graph{n: g.n}
	for i, w := range g.weight {
		if w >= limit {
			out.head = append(out.head, g.head[i])
			out.tail = append(out.tail, g.tail[i])
			out.weight = append(out.weight, w)
		}
	}
	return out
}
