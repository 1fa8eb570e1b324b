package umap

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// spectralInit returns the graph's spectral layout, n×dims scaled so its
// largest coordinate is 10, with a little seeded noise that separates
// points the eigenvectors put together (as umap-learn does). It returns nil
// without error when the graph has several components or is too small,
// for the caller to start at random: umap-learn lays out each component
// apart instead, which we do not.
//
// The layout's axes are the eigenvectors of the normalised adjacency
// M = D^-½ W D^-½ with the largest eigenvalues after the trivial one (whose
// eigenvector is D^½·1), that is those of the normalised Laplacian I − M
// with the smallest. Lanczos iteration with full reorthogonalisation finds
// them from sparse products with M, in O(m·(edges + m·n)) for m steps,
// where a dense eigendecomposition would cost O(n³).
func spectralInit(ctx context.Context, g graph, dims int, rng *rand.Rand) ([]float64, error) {
	const (
		maxSteps = 200
		tol      = 1e-4 // on the residual ‖Mx − λx‖ of a unit Ritz vector, as umap-learn asks of ARPACK
	)
	n := g.n
	if n < dims+3 || components(g) > 1 {
		return nil, nil
	}
	rows := make([]int, n+1)
	for _, h := range g.head {
		rows[h+1]++
	}
	for i := range n {
		rows[i+1] += rows[i]
	}
	deg := make([]float64, n)
	for e, h := range g.head {
		deg[h] += g.weight[e]
	}
	scale := make([]float64, n) // D^-½
	trivial := make([]float64, n)
	for i, d := range deg {
		scale[i] = 1 / math.Sqrt(d)
		trivial[i] = math.Sqrt(d)
	}
	normalize(trivial)
	apply := func(dst, x []float64) {
		for i := range n {
			s := 0.0
			for e := rows[i]; e < rows[i+1]; e++ {
				t := g.tail[e]
				s += g.weight[e] * scale[t] * x[t]
			}
			dst[i] = scale[i] * s
		}
	}

	steps := min(maxSteps, n-1)
	basis := [][]float64{}
	v := make([]float64, n)
	for i := range v {
		v[i] = rng.Float64() - 0.5
	}
	orthogonalize(v, [][]float64{trivial})
	if normalize(v) == 0 {
		return nil, nil
	}
	var alphas, betas []float64
	var vals []float64
	var vecs *mat.Dense
	for j := 0; j < steps; j++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		basis = append(basis, v)
		w := make([]float64, n)
		apply(w, v)
		alpha := dot(w, v)
		alphas = append(alphas, alpha)
		// Full reorthogonalisation, twice ("twice is enough"), against the
		// basis and the trivial eigenvector keeps the Ritz values from
		// repeating as rounding errors accumulate.
		for range 2 {
			orthogonalize(w, basis)
			orthogonalize(w, [][]float64{trivial})
		}
		beta := normalize(w)
		last := j == steps-1 || beta < 1e-12
		if len(alphas) >= dims && (last || len(alphas)%10 == 0) {
			vals, vecs = tridiagEigen(alphas, betas)
			if last || converged(vals, vecs, beta, dims, tol) {
				break
			}
		}
		betas = append(betas, beta)
		v = w
	}
	if vecs == nil {
		return nil, nil
	}
	m := len(alphas)
	emb := make([]float64, n*dims)
	for c := range dims {
		col := m - 1 - c // eigenvalues ascend: the largest are last
		for r := range m {
			s := vecs.At(r, col)
			for i, x := range basis[r] {
				emb[i*dims+c] += s * x
			}
		}
	}
	top := 0.0
	for _, x := range emb {
		top = max(top, math.Abs(x))
	}
	if !(top > 0) || math.IsInf(top, 0) {
		return nil, nil
	}
	for i := range emb {
		emb[i] = emb[i]*10/top + 1e-4*rng.NormFloat64()
	}
	return emb, nil
}

// tridiagEigen returns the eigenvalues, ascending, and eigenvectors (as
// columns) of the symmetric tridiagonal matrix with diagonal alphas and
// off-diagonal betas.
func tridiagEigen(alphas, betas []float64) ([]float64, *mat.Dense) {
	m := len(alphas)
	t := mat.NewSymDense(m, nil)
	for i, a := range alphas {
		t.SetSym(i, i, a)
		if i+1 < m {
			t.SetSym(i, i+1, betas[i])
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(t, true) {
		return nil, nil
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	if !slices.IsSorted(vals) {
		return nil, nil // LAPACK returns them ascending; anything else is a failure
	}
	return vals, &vecs
}

// converged reports whether the dims largest Ritz pairs have residuals
// below tol: for Lanczos the residual of Ritz vector s is |β·s_last|.
func converged(vals []float64, vecs *mat.Dense, beta float64, dims int, tol float64) bool {
	if vecs == nil {
		return false
	}
	m := len(vals)
	for c := range dims {
		if math.Abs(beta*vecs.At(m-1, m-1-c)) > tol {
			return false
		}
	}
	return true
}

// components counts the graph's connected components.
func components(g graph) int {
	parent := make([]int32, g.n)
	for i := range parent {
		parent[i] = int32(i)
	}
	var find func(int32) int32
	find = func(x int32) int32 {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	count := g.n
	for e, h := range g.head {
		a, b := find(h), find(g.tail[e])
		if a != b {
			parent[max(a, b)] = min(a, b)
			count--
		}
	}
	return count
}

func dot(x, y []float64) float64 {
	s := 0.0
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// normalize scales x to unit length and returns its former length.
func normalize(x []float64) float64 {
	l := math.Sqrt(dot(x, x))
	if l > 0 {
		for i := range x {
			x[i] /= l
		}
	}
	return l
}

// orthogonalize removes from x its components along the unit vectors of basis.
func orthogonalize(x []float64, basis [][]float64) {
	for _, b := range basis {
		p := dot(x, b)
		for i, v := range b {
			x[i] -= p * v
		}
	}
}
