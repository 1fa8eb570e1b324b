package umap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPowerIsWithinFloat32PrecisionOfMathPow checks the descent's power
// against math.Pow over the distances a layout meets (squared distances
// from 1e-12 to 1e12) for exponents of fitted curves and beyond, within
// the interpolation's bound h²/8·|b(b−1)| (h = 1/1,024) and a few ulps,
// and at the edges it hands to math.Pow.
func TestPowerIsWithinFloat32PrecisionOfMathPow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, b := range []float64{0.5, 0.7915, 0.8951, 1, 1.0575, 1.5, 2} {
		p := newPower(b)
		bound := 1.0/(8*mantSteps*mantSteps)*math.Abs(b*(b-1)) + 1e-15
		worst := 0.0
		for range 100_000 {
			x := math.Pow(10, 24*r.Float64()-12)
			want := math.Pow(x, b)
			rel := math.Abs(p.of(x)-want) / want
			worst = max(worst, rel)
			if rel > bound {
				t.Fatalf("%v^%v = %v, math.Pow %v: relative error %.3g, over %.3g", x, b, p.of(x), want, rel, bound)
			}
		}
		t.Logf("b = %v: worst relative error %.3g (bound %.3g)", b, worst, bound)
		for _, x := range []float64{0, 5e-324, 2.2e-308, math.Inf(1), math.NaN(), -2, 1e300, 1e-300, 1, 2, 0.5, 4} {
			got, want := p.of(x), math.Pow(x, b)
			if got != want && !(math.IsNaN(got) && math.IsNaN(want)) && math.Abs(got-want) > bound*math.Abs(want) {
				t.Errorf("%v^%v = %v, math.Pow %v", x, b, got, want)
			}
		}
	}
}

func BenchmarkPow(b *testing.B) {
	x := make([]float64, 1024)
	for i := range x {
		x[i] = float64(i+1) / 37
	}
	b.Run("power", func(b *testing.B) {
		p := newPower(0.8951)
		s := 0.0
		for i := 0; b.Loop(); i++ {
			s += p.of(x[i&1023])
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
