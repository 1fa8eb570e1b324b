package umap

import (
	"math"
	"testing"
)

func TestFitCurveMatchesUmapLearnParameters(t *testing.T) {
	for _, c := range readReference(t).Curves {
		a, b := fitCurve(c.MinDist, c.Spread)
		if math.Abs(a-c.A) > 1e-4*c.A || math.Abs(b-c.B) > 1e-4*c.B {
			t.Errorf("fitCurve(%g, %g) = %.6f, %.6f, umap-learn's find_ab_params gives %.6f, %.6f",
				c.MinDist, c.Spread, a, b, c.A, c.B)
		}
	}
}
