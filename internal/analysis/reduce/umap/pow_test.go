package umap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPowIsWithinABillionthOfMathPow checks the descent's power against
// math.Pow over the distances a layout meets (squared distances from 1e-12
// to 1e12, exponents of the fitted curves) and at the edges it hands to
// math.Pow.
func TestPowIsWithinABillionthOfMathPow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for range 200_000 {
		x := math.Pow(10, 24*r.Float64()-12)
		y := 0.5 + 1.5*r.Float64()
		want := math.Pow(x, y)
		rel := math.Abs(pow(x, y)-want) / want
		worst = max(worst, rel)
		if rel > 1e-9 {
			t.Fatalf("pow(%v, %v) = %v, math.Pow %v: relative error %.3g", x, y, pow(x, y), want, rel)
		}
	}
	t.Logf("worst relative error %.3g", worst)
	for _, c := range [][2]float64{{0, 0.9}, {5e-324, 0.9}, {math.Inf(1), 0.9}, {math.NaN(), 0.9}, {-2, 0.9}, {1e300, 5}, {1, 0.9}, {2, 1}, {0.5, 1}} {
		got, want := pow(c[0], c[1]), math.Pow(c[0], c[1])
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) && math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("pow(%v, %v) = %v, math.Pow %v", c[0], c[1], got, want)
		}
	}
}

func BenchmarkPow(b *testing.B) {
	x := make([]float64, 1024)
	for i := range x {
		x[i] = float64(i+1) / 37
	}
	b.Run("pow", func(b *testing.B) {
		s := 0.0
		for i := 0; b.Loop(); i++ {
			s += pow(x[i&1023], 0.8951)
		}
		_ = s
	})
	b.Run("exp-log", func(b *testing.B) {
		s := 0.0
		for i := 0; b.Loop(); i++ {
			s += math.Exp(0.8951 * math.Log(x[i&1023]))
		}
		_ = s
	})
}
