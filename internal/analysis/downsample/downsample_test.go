package downsample

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/cputime"
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
	pts := noisy(1_000_000)
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
	defer cputime.ReportPerOp(b, cputime.Used())
	for b.Loop() {
		Points(pts, 2000)
	}
}

// pointsReference is Points worked out plainly: each bucket's values
// compared one by one, the first of equal extremes kept.
func pointsReference(pts []model.Point, budget int) (keep []int, buckets []Bucket) {
	n := len(pts)
	if budget <= 0 || n <= budget {
		for i := range n {
			keep = append(keep, i)
		}
		return keep, nil
	}
	nb := max(budget/4, 1)
	for b := range nb {
		lo, hi := b*n/nb, (b+1)*n/nb-1
		bk := Bucket{First: lo, Last: hi}
		idx := []int{lo, hi}
		imin, imax, inan, ipos, ineg := -1, -1, -1, -1, -1
		for i := lo; i <= hi; i++ {
			v := pts[i].Value
			switch {
			case math.IsNaN(v):
				if inan < 0 {
					inan = i
				}
			case math.IsInf(v, 1):
				if ipos < 0 {
					ipos = i
				}
			case math.IsInf(v, -1):
				if ineg < 0 {
					ineg = i
				}
			default:
				if imin < 0 || v < pts[imin].Value {
					imin = i
				}
				if imax < 0 || v > pts[imax].Value {
					imax = i
				}
			}
		}
		if imin >= 0 {
			bk.Min, bk.Max, bk.HasFinite = pts[imin].Value, pts[imax].Value, true
		}
		for _, i := range []int{imin, imax, inan, ipos, ineg} {
			if i >= 0 {
				idx = append(idx, i)
			}
		}
		slices.Sort(idx)
		keep = append(keep, slices.Compact(idx)...)
		buckets = append(buckets, bk)
	}
	return keep, buckets
}

// checkPointsMatchReference fails t when Points differs from
// pointsReference on pts: the same indices, the same buckets, their
// extremes the same bits (-0 is not +0).
func checkPointsMatchReference(t *testing.T, pts []model.Point, budget int) {
	t.Helper()
	keep, buckets := Points(pts, budget)
	wantKeep, wantBuckets := pointsReference(pts, budget)
	if !slices.Equal(keep, wantKeep) {
		t.Fatalf("budget %d, %d points: keep %v, want %v", budget, len(pts), keep, wantKeep)
	}
	same := func(a, b Bucket) bool {
		return a.First == b.First && a.Last == b.Last && a.HasFinite == b.HasFinite &&
			math.Float64bits(a.Min) == math.Float64bits(b.Min) && math.Float64bits(a.Max) == math.Float64bits(b.Max)
	}
	if !slices.EqualFunc(buckets, wantBuckets, same) {
		t.Fatalf("budget %d, %d points: buckets %v, want %v", budget, len(pts), buckets, wantBuckets)
	}
	// Values, from the values alone, when every one is finite.
	vals := make([]float64, len(pts))
	for i, p := range pts {
		if vals[i] = p.Value; p.Value-p.Value != 0 {
			return
		}
	}
	keep, buckets = Values(vals, budget)
	if !slices.Equal(keep, wantKeep) || !slices.EqualFunc(buckets, wantBuckets, same) {
		t.Fatalf("budget %d, %d values: Values keeps %v and %v, want %v and %v", budget, len(pts), keep, buckets, wantKeep, wantBuckets)
	}
}

// TestPointsMatchesReference checks Points against pointsReference on
// noisy series and adversarial ones: non-finite values of every kind
// alone and mixed in, signed zeros (equal as floats, not as bits), ties
// of the extremes, the largest and smallest finite values, subnormals,
// constant and monotone series, buckets of one point.
func TestPointsMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 1, -1}
	series := map[string][]model.Point{"noisy": noisy(50_000)}
	for _, name := range []string{"specials mixed in", "specials only", "zeros", "ties"} {
		pts := make([]model.Point, 5_000)
		for i := range pts {
			v := rng.NormFloat64()
			switch name {
			case "specials mixed in":
				if rng.IntN(100) == 0 {
					v = special[rng.IntN(len(special))]
				}
			case "specials only":
				v = special[rng.IntN(len(special))]
			case "zeros":
				v = special[3+rng.IntN(2)]
			case "ties":
				v = float64(rng.IntN(3))
			}
			pts[i] = model.Point{Step: int64(i), Value: v}
		}
		series[name] = pts
	}
	constant, falling := make([]model.Point, 3_000), make([]model.Point, 3_000)
	for i := range constant {
		constant[i].Value, falling[i].Value = 2, -float64(i)
	}
	series["constant"], series["falling"] = constant, falling
	for name, pts := range series {
		t.Run(name, func(t *testing.T) {
			for _, budget := range []int{0, 1, 4, 7, 100, 2000, len(pts), len(pts) + 1} {
				checkPointsMatchReference(t, pts, budget)
			}
		})
	}
}

// FuzzPoints checks Points (and Values, when every value is finite)
// against pointsReference on a series whose values are the input's bytes
// read 8 at a time as float64 bits, so that every NaN payload, infinity,
// zero sign and subnormal can occur.
func FuzzPoints(f *testing.F) {
	f.Add(uint8(8), []byte{0, 0, 0, 0, 0, 0, 0xf0, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0x80, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add(uint8(4), []byte{0, 0, 0, 0, 0, 0, 0xf8, 0x7f, 0, 0, 0, 0, 0, 0, 0xf0, 0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 9, 9, 9, 9, 9, 9, 9, 0x3f, 9, 9, 9, 9, 9, 9, 9, 0xbf})
	f.Fuzz(func(t *testing.T, budget uint8, data []byte) {
		pts := make([]model.Point, len(data)/8)
		for i := range pts {
			pts[i] = model.Point{Step: int64(i), Value: math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))}
		}
		checkPointsMatchReference(t, pts, int(budget%64))
	})
}
