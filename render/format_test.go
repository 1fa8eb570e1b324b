package render

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/trainreport/trainreport/internal/cputime"
)

func TestAppendWallTimeIsShortest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	check := func(w float64) {
		t.Helper()
		want := strconv.FormatFloat(w, 'f', -1, 64)
		if got := string(appendWallTime(nil, w)); got != want {
			t.Fatalf("appendWallTime(%v) = %s, want %s", w, got, want)
		}
	}
	for _, w := range []float64{1, 1.5, 9, 10, 100.25, 1e9, 1700000004.5, 1622543341.789407, 1622543341.7903051,
		1795319766.477566, 8999999999.999999, math.Nextafter(9e9, 0), 1.000001, 1.0000001, 123456.000001} {
		check(w)
	}
	for range 300_000 {
		base := 1e9 + rng.Float64()*8e9
		switch d := rng.IntN(9); {
		case d == 8:
			check(base) // full precision
		default:
			p := math.Pow(10, float64(d))
			check(math.Round(base*p) / p)
		}
		check(1 + rng.Float64()*1000)
	}
}

// FuzzAppendWallTime checks the fast path against strconv on any float.
func FuzzAppendWallTime(f *testing.F) {
	for _, w := range []float64{1, 1700000004.5, 1622543341.7903051, 8999999999.999999, 0.5, -3} {
		f.Add(w)
	}
	f.Fuzz(func(t *testing.T, w float64) {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return
		}
		want := string(appendValue(nil, w, false))
		if got := string(appendWallTime(nil, w)); got != want {
			t.Fatalf("appendWallTime(%v) = %s, want %s", w, got, want)
		}
	})
}

// BenchmarkAppendWallTime compares appendWallTime with strconv's general
// shortest form (appendValue), which it replaces for wall times.
func BenchmarkAppendWallTime(b *testing.B) {
	for _, c := range []struct {
		name string
		w    float64
	}{{"one decimal", 1700000004.5}, {"six decimals", 1622543341.789407}, {"seven decimals", 1622543341.7903051}} {
		b.Run(c.name, func(b *testing.B) {
			buf := make([]byte, 0, 32)
			defer cputime.ReportPerOp(b, cputime.Used())
			for b.Loop() {
				buf = appendWallTime(buf[:0], c.w)
			}
		})
		b.Run(c.name+"/strconv", func(b *testing.B) {
			buf := make([]byte, 0, 32)
			for b.Loop() {
				buf = appendValue(buf[:0], c.w, false)
			}
		})
	}
}

// TestAppendIntAsStrconv compares appendInt with strconv.AppendInt on the
// integers around every power of ten, both signs, the extremes and a
// random sample, appended to a buffer full and with room to spare.
func TestAppendIntAsStrconv(t *testing.T) {
	check := func(d int64) {
		t.Helper()
		for _, c := range []int{2, 64} {
			b := append(make([]byte, 0, c), "x,"...)
			want := strconv.AppendInt([]byte("x,"), d, 10)
			if got := appendInt(b, d); string(got) != string(want) {
				t.Fatalf("appendInt(%d) = %s, want %s", d, got, want)
			}
		}
	}
	for _, d := range []int64{0, 1, 9, 10, math.MaxInt64, math.MinInt64, math.MinInt64 + 1} {
		check(d)
		check(-d)
	}
	for p := int64(1); p <= 1e18; p *= 10 {
		for _, d := range []int64{p - 1, p, p + 1, 2*p - 1} {
			check(d)
			check(-d)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 100_000 {
		d := rng.Int64() >> rng.IntN(63)
		check(d)
		check(-d)
	}
}

// FuzzAppendInt compares appendInt with strconv.AppendInt on any integer.
func FuzzAppendInt(f *testing.F) {
	for _, d := range []int64{0, 7, -7, 12345678, 1e16 - 1, 1e16, math.MinInt64} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, d int64) {
		if got, want := appendInt(nil, d), strconv.AppendInt(nil, d, 10); string(got) != string(want) {
			t.Fatalf("appendInt(%d) = %s, want %s", d, got, want)
		}
	})
}
