package downsample

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

func noisy(n int) []model.Point {
	r := rand.New(rand.NewPCG(1, 2))
	pts := make([]model.Point, n)
	for i := range pts {
		pts[i] = model.Point{Step: int64(i), WallTime: float64(i), Value: math.Sin(float64(i)/500) + r.NormFloat64()*0.1}
	}
	return pts
}

func TestSmallSeriesKeptWhole(t *testing.T) {
	pts := noisy(100)
	keep, buckets := Points(pts, 2000)
	if len(keep) != 100 || buckets != nil {
		t.Fatalf("kept %d points and %d buckets, want all 100 and none", len(keep), len(buckets))
	}
	if keep, _ := Points(pts, 0); len(keep) != 100 {
		t.Fatalf("budget 0 kept %d points, want all", len(keep))
	}
}

func TestKeepsExtremesFirstLastAndNonFinite(t *testing.T) {
	pts := noisy(100_000)
	pts[12_345].Value = 50  // a spike
	pts[54_321].Value = -50 // a dip
	pts[70_000].Value = math.NaN()
	pts[70_001].Value = math.NaN() // same bucket: the first NaN stands for both
	pts[80_000].Value = math.Inf(1)
	pts[90_000].Value = math.Inf(-1)
	keep, buckets := Points(pts, 2000)

	if len(keep) > 2000+3 {
		t.Errorf("kept %d points for a budget of 2000", len(keep))
	}
	if !slices.IsSorted(keep) {
		t.Errorf("indices not in increasing order")
	}
	if len(slices.Compact(slices.Clone(keep))) != len(keep) {
		t.Errorf("duplicate indices")
	}
	for _, want := range []int{0, 12_345, 54_321, 70_000, 80_000, 90_000, len(pts) - 1} {
		if _, ok := slices.BinarySearch(keep, want); !ok {
			t.Errorf("index %d (value %v) not kept", want, pts[want].Value)
		}
	}
	// Every bucket's extremes are kept, and the buckets tile the series.
	next := 0
	for _, b := range buckets {
		if b.First != next {
			t.Fatalf("bucket starts at %d, want %d", b.First, next)
		}
		next = b.Last + 1
		for _, i := range []int{b.First, b.Last} {
			if _, ok := slices.BinarySearch(keep, i); !ok {
				t.Errorf("bucket edge %d not kept", i)
			}
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for i := b.First; i <= b.Last; i++ {
			if v := pts[i].Value; !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		if b.Min != lo || b.Max != hi {
			t.Errorf("bucket [%d,%d] range [%v,%v], want [%v,%v]", b.First, b.Last, b.Min, b.Max, lo, hi)
		}
	}
	if next != len(pts) {
		t.Errorf("buckets end at %d, want %d", next, len(pts))
	}
}

func TestAllNonFiniteBucket(t *testing.T) {
	pts := make([]model.Point, 40)
	for i := range pts {
		pts[i] = model.Point{Step: int64(i), Value: math.NaN()}
	}
	keep, buckets := Points(pts, 8)
	for _, b := range buckets {
		if b.HasFinite {
			t.Errorf("bucket [%d,%d] claims finite values", b.First, b.Last)
		}
	}
	if len(keep) == 0 || keep[0] != 0 || keep[len(keep)-1] != 39 {
		t.Errorf("keep = %v, want first and last at least", keep)
	}
}

func BenchmarkPoints(b *testing.B) {
	pts := noisy(1_000_000)
	b.SetBytes(int64(len(pts)) * 24)
	for b.Loop() {
		Points(pts, 2000)
	}
}
