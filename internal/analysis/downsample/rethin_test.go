package downsample

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/cputime"
)

// hostileValues returns n values drawn from few distinct ones, so that
// buckets hold ties of their extremes, with both zeros, NaN and the
// infinities among them when odd is set.
func hostileValues(rng *rand.Rand, n int, odd bool) []model.Point {
	alphabet := []float64{-2, -1, 0, 0.5, 1, 3, math.Copysign(0, -1)}
	if odd {
		alphabet = append(alphabet, math.NaN(), math.Inf(1), math.Inf(-1))
	}
	pts := make([]model.Point, n)
	for i := range pts {
		v := alphabet[rng.IntN(len(alphabet))]
		if rng.IntN(4) == 0 {
			v = rng.NormFloat64()
		}
		pts[i] = model.Point{Step: int64(i), Value: v}
	}
	return pts
}

// decaying returns a noisy, decaying series of n float32 values, as a
// loss of the 8 M-point log's runs.
func decaying(rng *rand.Rand, n int) []model.Point {
	pts := make([]model.Point, n)
	for i := range pts {
		pts[i] = model.Point{Step: int64(i), Value: float64(float32(math.Exp(-float64(i)/25_000) + rng.NormFloat64()*0.02))}
	}
	return pts
}

// TestRethinIsPoints checks Rethin against Points for series of 1 to 300
// points of tied, signed-zero and non-finite values, thinned first at
// one budget then at every other from 0 to past the series' length: the
// same indices and buckets, and every point read again only when the
// first result has no buckets or the second budget keeps them all.
func TestRethinIsPoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 1; n <= 300; n += 1 + n/10 {
		for _, odd := range []bool{false, true} {
			pts := hostileValues(rng, n, odd)
			for _, b1 := range []int{1, 4, 7, 8, 16, 40, 99, 200, 400} {
				draw, buckets := Points(pts, b1)
				for b2 := 0; b2 <= n+4; b2 += 1 + b2/8 {
					want, wantBk := Points(pts, b2)
					got, gotBk, read := rethin(pts, draw, buckets, b2)
					if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotBk, wantBk) {
						t.Fatalf("%d points (odd %v) from budget %d to %d:\n got %v %v\nwant %v %v", n, odd, b1, b2, got, gotBk, want, wantBk)
					}
					if fits := b2 <= 0 || n <= b2; read < 0 && buckets != nil && !fits {
						t.Fatalf("%d points from budget %d to %d: Points did it all", n, b1, b2)
					}
				}
			}
		}
	}
}

// TestRethinReadsLessThanPoints checks what Rethin reads of a noisy,
// decaying series of 100,000 points thinned at 2,000 then at 1,036
// points (a series of the 8 M-point log's sweep page): at most a fifth of
// its points (27% before parts that the kept points' bounds rule out went
// unread; 18% since), where Points reads them all, for the same result.
func TestRethinReadsLessThanPoints(t *testing.T) {
	pts := decaying(rand.New(rand.NewPCG(7, 8)), 100_000)
	draw, buckets := Points(pts, 2000)
	want, wantBk := Points(pts, 1036)
	got, gotBk, read := rethin(pts, draw, buckets, 1036)
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotBk, wantBk) {
		t.Fatal("Rethin differs from Points")
	}
	if read < 0 || read > len(pts)/5 {
		t.Errorf("Rethin read %d of %d points, want at most a fifth", read, len(pts))
	}
	t.Logf("read %d of %d points", read, len(pts))
}

// TestRethinTakesNoForeignIndex checks that kept indices outside the
// series (not Points' of it) make Rethin leave it all to Points, with no
// panic.
func TestRethinTakesNoForeignIndex(t *testing.T) {
	pts := hostileValues(rand.New(rand.NewPCG(11, 12)), 100, true)
	draw, buckets := Points(pts, 40)
	want, wantBk := Points(pts, 12)
	for _, bad := range []int{-1, len(pts), 1 << 40} {
		d := append([]int(nil), draw...)
		d[len(d)/2] = bad
		got, gotBk, read := rethin(pts, d, buckets, 12)
		if read != -1 || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotBk, wantBk) {
			t.Errorf("kept index %d: read %d, got %v %v", bad, read, got, gotBk)
		}
	}
}

// FuzzRethinIsPoints checks Rethin against Points for series made of the
// input's bytes (each a value of a small alphabet with both zeros, NaN
// and the infinities, so that ties and non-finite points are common) and
// two budgets.
func FuzzRethinIsPoints(f *testing.F) {
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a"), uint16(8), uint16(4))
	f.Add(make([]byte, 300), uint16(40), uint16(12))
	f.Fuzz(func(t *testing.T, data []byte, b1, b2 uint16) {
		alphabet := []float64{-2, -1, 0, 0.5, 1, 3, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e-300}
		pts := make([]model.Point, len(data))
		for i, c := range data {
			pts[i] = model.Point{Step: int64(i), Value: alphabet[int(c)%len(alphabet)]}
		}
		draw, buckets := Points(pts, int(b1%512))
		want, wantBk := Points(pts, int(b2%512))
		got, gotBk := Rethin(pts, draw, buckets, int(b2%512))
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotBk, wantBk) {
			t.Fatalf("%d points from budget %d to %d:\n got %v %v\nwant %v %v", len(pts), b1%512, b2%512, got, gotBk, want, wantBk)
		}
	})
}

// BenchmarkRethin thins 8 noisy series of 100,000 points at 1,036
// points, from their thinning at 2,000 (Rethin) or from their points
// (Points): the 8 M-point log's sweep page thins 80.
func BenchmarkRethin(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 10))
	type series struct {
		pts     []model.Point
		draw    []int
		buckets []Bucket
	}
	var all []series
	for range 8 {
		pts := decaying(rng, 100_000)
		draw, buckets := Points(pts, 2000)
		all = append(all, series{pts, draw, buckets})
	}
	for _, from := range []bool{true, false} {
		b.Run(fmt.Sprintf("from=%v", from), func(b *testing.B) {
			defer cputime.ReportPerOp(b, cputime.Used())
			for b.Loop() {
				for _, s := range all {
					if from {
						Rethin(s.pts, s.draw, s.buckets, 1036)
					} else {
						Points(s.pts, 1036)
					}
				}
			}
		})
	}
}
