package umap

import "math"

// fitCurve returns a and b such that 1/(1 + a·x^2b) fits, by least squares
// on 300 points of [0, 3·spread], the curve that is 1 up to minDist and
// exp(−(x−minDist)/spread) beyond: the layout's notion of similarity at
// distance x. umap-learn fits the same curve (find_ab_params, with scipy's
// Levenberg-Marquardt from a = b = 1); so do we, by damped Gauss-Newton.
func fitCurve(minDist, spread float64) (a, b float64) {
	const n = 300
	var xs, ys [n]float64
	for i := range xs {
		x := 3 * spread * float64(i) / (n - 1)
		xs[i] = x
		ys[i] = 1
		if x >= minDist {
			ys[i] = math.Exp(-(x - minDist) / spread)
		}
	}
	// cost returns the sum of squared residuals at (a, b).
	cost := func(a, b float64) float64 {
		s := 0.0
		for i, x := range xs {
			r := 1/(1+a*math.Pow(x, 2*b)) - ys[i]
			s += r * r
		}
		return s
	}
	a, b = 1, 1
	c := cost(a, b)
	lambda := 1e-3
	for range 200 {
		// Normal equations J'J δ = −J'r for the two parameters.
		var jaa, jab, jbb, ga, gb float64
		for i, x := range xs {
			if x == 0 {
				continue // f(0) = 1 whatever a and b: no gradient
			}
			p := math.Pow(x, 2*b)
			f := 1 / (1 + a*p)
			r := f - ys[i]
			da := -p * f * f
			db := -a * p * 2 * math.Log(x) * f * f
			jaa += da * da
			jab += da * db
			jbb += db * db
			ga += da * r
			gb += db * r
		}
		improved := false
		for range 30 {
			m00, m11 := jaa*(1+lambda), jbb*(1+lambda)
			det := m00*m11 - jab*jab
			if det == 0 {
				lambda *= 10
				continue
			}
			na := a - (m11*ga-jab*gb)/det
			nb := b - (m00*gb-jab*ga)/det
			if nc := cost(na, nb); na > 0 && nb > 0 && nc < c {
				done := c-nc <= 1e-15*c
				a, b, c = na, nb, nc
				lambda = max(lambda/10, 1e-12)
				improved = !done
				break
			}
			lambda *= 10
		}
		if !improved {
			break
		}
	}
	return a, b
}
