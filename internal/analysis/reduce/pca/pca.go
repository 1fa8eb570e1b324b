// Package pca projects points onto their principal components, the first
// projection of the embeddings page.
//
// The components are the eigenvectors of the covariance of the centred data
// (Pearson 1901; Hotelling 1933), found with gonum's symmetric
// eigendecomposition of the d×d matrix XᵀX rather than an SVD of the n×d X:
// the same vectors, and at 10,000 × 128 the product and the small
// decomposition take a fraction of what the thin SVD of X does
// (BenchmarkProject and BenchmarkSVD measure both; figures in
// docs/DEVELOPMENT.md). Squaring X loses precision only for components whose
// variance is below about 1e-16 of the largest, which no plot can show.
//
// The sign of an eigenvector is arbitrary; Project makes the loading of
// largest magnitude of each component positive (the first of equal ones), so
// the same data always gives the same picture.
package pca

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// rowBlock is how many rows of the data are in float64 at a time.
const rowBlock = 4096

// Result is the projection of n points onto their first K principal
// components.
type Result struct {
	K int
	// Coords is row-major n×K: point i is at Coords[i*K:(i+1)*K].
	Coords []float32
	// Explained is, for each component, the part of the total variance it
	// explains (between 0 and 1, decreasing; 0 for all when every point is
	// the same).
	Explained []float64
}

// Project returns the coordinates of the n points of dimension d in data
// (row-major, len(data) = n*d) on their first k principal components. It
// needs 1 ≤ k ≤ d, n ≥ 1 and finite values. When k exceeds the rank of the
// centred data, the surplus components explain nothing and their
// coordinates are (near) zero.
func Project(data []float32, n, d, k int) (Result, error) {
	switch {
	case n <= 0 || d <= 0:
		return Result{}, fmt.Errorf("pca: %d points of dimension %d", n, d)
	case len(data) != n*d:
		return Result{}, fmt.Errorf("pca: %d values for %d points of dimension %d", len(data), n, d)
	case k < 1 || k > d:
		return Result{}, fmt.Errorf("pca: %d components of %d dimensions", k, d)
	}
	mean := make([]float64, d)
	for i, v := range data {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return Result{}, fmt.Errorf("pca: point %d: value %v", i/d, v)
		}
		mean[i%d] += float64(v)
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	// XᵀX and the projection go through blocks of rows so that memory stays
	// at d² plus a block, not a float64 copy of the data (410 MB at
	// 50,000 × 1,024).
	cov := mat.NewSymDense(d, nil)
	buf := make([]float64, min(n, rowBlock)*d)
	centred := func(lo int) *mat.Dense {
		rows := min(rowBlock, n-lo)
		b := buf[:rows*d]
		for t := range b {
			b[t] = float64(data[lo*d+t]) - mean[t%d]
		}
		return mat.NewDense(rows, d, b)
	}
	for lo := 0; lo < n; lo += rowBlock {
		cov.SymRankK(cov, 1, centred(lo).T())
	}
	var eig mat.EigenSym
	if !eig.Factorize(cov, true) {
		return Result{}, fmt.Errorf("pca: the eigendecomposition of the %d×%d covariance did not converge", d, d)
	}
	values := eig.Values(nil) // ascending
	var vectors mat.Dense
	eig.VectorsTo(&vectors)

	var total float64
	for _, v := range values {
		total += max(v, 0)
	}
	res := Result{K: k, Coords: make([]float32, n*k), Explained: make([]float64, k)}
	w := mat.NewDense(d, k, nil)
	for c := range k {
		col := d - 1 - c // largest first
		if total > 0 {
			res.Explained[c] = max(values[col], 0) / total
		}
		sign, big := 1.0, -1.0
		for j := range d {
			if v := vectors.At(j, col); math.Abs(v) > big {
				big = math.Abs(v)
				sign = math.Copysign(1, v)
			}
		}
		for j := range d {
			w.Set(j, c, sign*vectors.At(j, col))
		}
	}
	var proj mat.Dense
	for lo := 0; lo < n; lo += rowBlock {
		proj.Reset()
		proj.Mul(centred(lo), w)
		for t, v := range proj.RawMatrix().Data {
			res.Coords[lo*k+t] = float32(v)
		}
	}
	return res, nil
}
