package model

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/trainreport/trainreport/internal/cputime"
)

// statsReference is Stats worked out plainly: every point compared one by
// one, the extremes kept as Extremes.
func statsReference(s *Scalar) Stats {
	st := Stats{Count: len(s.Points)}
	for _, p := range s.Points {
		if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
			st.NonFinite++
			continue
		}
		e := Extreme{Step: p.Step, WallTime: p.WallTime, Value: p.Value}
		if !st.HasFinite {
			st.Min, st.Max, st.HasFinite = e, e, true
			continue
		}
		if p.Value < st.Min.Value {
			st.Min = e
		}
		if p.Value > st.Max.Value {
			st.Max = e
		}
	}
	if n := len(s.Points); n > 0 {
		p := s.Points[n-1]
		st.Last = Extreme{Step: p.Step, WallTime: p.WallTime, Value: p.Value}
	}
	return st
}

// sameStats reports whether a and b are equal bit for bit (-0 is not +0,
// a NaN last value equals itself).
func sameStats(a, b Stats) bool {
	same := func(x, y Extreme) bool {
		return x.Step == y.Step && math.Float64bits(x.WallTime) == math.Float64bits(y.WallTime) &&
			math.Float64bits(x.Value) == math.Float64bits(y.Value)
	}
	return a.Count == b.Count && a.NonFinite == b.NonFinite && a.HasFinite == b.HasFinite &&
		same(a.Last, b.Last) && same(a.Min, b.Min) && same(a.Max, b.Max)
}

// TestStatsMatchesReference checks Stats against statsReference on noisy
// series and adversarial ones: non-finite values of every kind alone and
// mixed in, signed zeros (equal as floats: the first counts), ties, the
// largest and smallest finite values, an empty series, a single point.
func TestStatsMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64}
	for _, name := range []string{"noisy", "specials mixed in", "specials only", "zeros", "ties", "empty", "one"} {
		n := 3_000
		switch name {
		case "empty":
			n = 0
		case "one":
			n = 1
		}
		s := &Scalar{Points: make([]Point, n)}
		for i := range s.Points {
			v := rng.NormFloat64()
			switch name {
			case "specials mixed in":
				if rng.IntN(50) == 0 {
					v = special[rng.IntN(len(special))]
				}
			case "specials only":
				v = special[rng.IntN(len(special))]
			case "zeros":
				v = special[3+rng.IntN(2)]
			case "ties":
				v = float64(rng.IntN(3))
			}
			s.Points[i] = Point{Step: int64(i), WallTime: float64(i) / 7, Value: v}
		}
		if got, want := s.Stats(), statsReference(s); !sameStats(got, want) {
			t.Errorf("%s: Stats %+v, want %+v", name, got, want)
		}
	}
}

// FuzzStats checks Stats against statsReference on a series whose values
// are the input's bytes read 8 at a time as float64 bits, so that every
// NaN payload, infinity, zero sign and subnormal can occur.
func FuzzStats(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xf0, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0, 0, 0, 0, 0, 0, 0xf0, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := &Scalar{Points: make([]Point, len(data)/8)}
		for i := range s.Points {
			s.Points[i] = Point{Step: int64(i), WallTime: float64(i), Value: math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))}
		}
		if got, want := s.Stats(), statsReference(s); !sameStats(got, want) {
			t.Errorf("Stats %+v, want %+v", got, want)
		}
	})
}

// BenchmarkStats summarises a noisy series of 100,000 points (a series of
// the 8 M-point benchmark log), reporting the CPU time per op (cpu-ns/op):
// on a machine shared with other work the wall clock measures the
// neighbours as much as the code.
func BenchmarkStats(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	s := &Scalar{Points: make([]Point, 100_000)}
	for i := range s.Points {
		s.Points[i] = Point{Step: int64(i), WallTime: float64(i), Value: math.Sin(float64(i)/500) + rng.NormFloat64()*0.1}
	}
	defer cputime.ReportPerOp(b, cputime.Used())
	for b.Loop() {
		s.Stats()
	}
}
