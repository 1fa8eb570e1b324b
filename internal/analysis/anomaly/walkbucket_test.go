package anomaly

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/trainreport/trainreport/collect/model"
)

// vectorWalkOrSkip returns the vector walk, or skips the test saying why
// this build or CPU has none (the Go loops, which every other test of the
// walk runs through walkBucket then, are still tested there).
func vectorWalkOrSkip(t testing.TB) func(pts []model.Point, out, walls []float64, maxStep int64) bucketWalk {
	t.Helper()
	walk, why := vectorWalk()
	if walk == nil {
		t.Skip("no vector walk to compare with the Go loops: " + why)
	}
	return walk
}

// TestPointLayoutIsTheKernels checks model.Point's layout against the
// one walk8AVX512's permutations take apart (walkIdx): a point is 24
// bytes, its wall time, step and value at offsets 0, 8 and 16. Another
// order would make the kernel read steps as values; this says why at
// once, on any CPU.
func TestPointLayoutIsTheKernels(t *testing.T) {
	var p model.Point
	got := [4]uintptr{unsafe.Sizeof(p), unsafe.Offsetof(p.WallTime), unsafe.Offsetof(p.Step), unsafe.Offsetof(p.Value)}
	if want := [4]uintptr{24, 0, 8, 16}; got != want {
		t.Fatalf("model.Point: size and offsets of WallTime, Step, Value = %v, the vector walk's permutations take %v", got, want)
	}
}

// sameBucketWalk reports whether two walks found the same, floats bit for
// bit.
func sameBucketWalk(a, b bucketWalk) bool {
	return a.n == b.n && a.maxStep == b.maxStep && a.unsorted == b.unsorted && a.min == b.min && a.max == b.max &&
		math.Float64bits(a.vmin) == math.Float64bits(b.vmin) && math.Float64bits(a.vmax) == math.Float64bits(b.vmax)
}

// sameBits reports whether two slices hold the same floats bit for bit.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// checkVectorWalk checks that the vector walk of pts after before finds
// what the Go loops find, field for field, and writes the same values and
// wall times, bit for bit, into slices that start alike with bits no
// point has (so a store missed or misplaced shows), one longer than pts
// (so a store past the end shows).
func checkVectorWalk(t *testing.T, walk func([]model.Point, []float64, []float64, int64) bucketWalk, pts []model.Point, before int64) {
	t.Helper()
	fresh := func() []float64 {
		s := make([]float64, len(pts)+1)
		for i := range s {
			s[i] = math.Float64frombits(0x7ff4_dead_0000_0000 | uint64(i))
		}
		return s
	}
	wantOut, gotOut := fresh(), fresh()
	want := walkBucketGo(pts, wantOut[:len(pts)], before)
	got := walk(pts, gotOut[:len(pts)], nil, before)
	if !sameBucketWalk(got, want) || !sameBits(gotOut, wantOut) {
		t.Fatalf("%d points after step %d: vector walk %+v, values %v\nGo loop %+v, values %v\npoints %v",
			len(pts), before, got, gotOut, want, wantOut, pts)
	}
	wantOut, gotOut = fresh(), fresh()
	wantWalls, gotWalls := fresh(), fresh()
	want = walkBucketWallsGo(pts, wantOut[:len(pts)], wantWalls[:len(pts)], before)
	got = walk(pts, gotOut[:len(pts)], gotWalls[:len(pts)], before)
	if !sameBucketWalk(got, want) || !sameBits(gotOut, wantOut) || !sameBits(gotWalls, wantWalls) {
		t.Fatalf("%d points after step %d, copying walls: vector walk %+v, values %v, walls %v\nGo loop %+v, values %v, walls %v\npoints %v",
			len(pts), before, got, gotOut, gotWalls, want, wantOut, wantWalls, pts)
	}
}

// hostileBuckets are buckets of n points that try the vector walk's
// lanes, groups and tail: each value's and step's odd case at every
// position, with steps before the bucket that every step passes, none
// does, or some do.
func hostileBuckets(n int) [][]model.Point {
	negZero := math.Copysign(0, -1)
	nan, inf := math.NaN(), math.Inf(1)
	base := func(value func(i int) float64, step func(i int) int64) []model.Point {
		pts := make([]model.Point, n)
		for i := range pts {
			pts[i] = model.Point{WallTime: 1.7e9 + float64(i)/8, Step: step(i), Value: value(i)}
		}
		return pts
	}
	rising := func(i int) int64 { return int64(i) }
	var out [][]model.Point
	// Values.
	out = append(out,
		base(func(i int) float64 { return float64(i%5) - 2 }, rising),                 // extremes equal in several lanes
		base(func(i int) float64 { return float64((i * 3) % 7) }, rising),             // ties across groups
		base(func(i int) float64 { return 0 }, rising),                                // all +0
		base(func(i int) float64 { return negZero }, rising),                          // all -0
		base(func(i int) float64 { return []float64{0, negZero}[i%2] }, rising),       // +0 first
		base(func(i int) float64 { return []float64{negZero, 0}[i%2] }, rising),       // -0 first
		base(func(i int) float64 { return []float64{0, 0, 0, negZero}[i%4] }, rising), // -0 in the last lanes
		base(func(i int) float64 { return math.MaxFloat64 * float64(1-2*(i%2)) }, rising),
		base(func(i int) float64 { return math.SmallestNonzeroFloat64 * float64(i%3-1) }, rising),
		base(func(i int) float64 { return float64(n - i) }, rising), // a new smallest every point
		base(func(i int) float64 { return float64(i) }, rising),     // a new largest every point
	)
	for k := range n {
		// A lone zero of each sign among zeros of the other, a lone
		// extreme, and each non-finite value, at every position.
		for _, v := range []float64{nan, inf, -inf, math.Float64frombits(0x7ff0_0000_0000_0001), negZero, 0, 1e300, -1e300} {
			other := 0.5
			if v == 0 {
				other = math.Copysign(0, -math.Copysign(1, v))
			}
			out = append(out, base(func(i int) float64 {
				if i == k {
					return v
				}
				return other
			}, rising))
		}
		// A non-finite value after a zero of each sign: the slow path
		// keeps the first.
		out = append(out, base(func(i int) float64 {
			switch {
			case i == k:
				return nan
			case i%2 == 0:
				return negZero
			}
			return 0
		}, rising))
		// Steps: one below the one before it at every position, one
		// equal, one far below, one far above.
		for _, s := range []int64{int64(k) - 1, int64(k) - 2, math.MinInt64, math.MaxInt64} {
			out = append(out, base(func(i int) float64 { return float64(i % 3) }, func(i int) int64 {
				if i == k {
					return s
				}
				return int64(i)
			}))
		}
	}
	// Steps equal, decreasing, the extremes of int64.
	for _, step := range []func(i int) int64{
		func(int) int64 { return 7 },
		func(i int) int64 { return int64(n - i) },
		func(int) int64 { return math.MinInt64 },
		func(int) int64 { return math.MaxInt64 },
		func(i int) int64 { return []int64{math.MinInt64, math.MaxInt64}[i%2] },
		func(i int) int64 { return math.MinInt64 + int64(i) },
		func(i int) int64 { return math.MaxInt64 - int64(n-i) },
	} {
		out = append(out, base(func(i int) float64 { return float64(i) }, step))
	}
	return out
}

// The vector walk finds what the Go loops find, field for field, and
// writes the same slices, bit for bit, on buckets of 0 to 17 points and
// longer ones (groups and a tail), on hostile values and steps at every
// position, after steps of MinInt64, MaxInt64 and between.
func TestVectorWalkIsTheGoLoops(t *testing.T) {
	walk := vectorWalkOrSkip(t)
	sizes := []int{}
	for n := range 18 {
		sizes = append(sizes, n)
	}
	sizes = append(sizes, 23, 24, 25, 31, 32, 33, 63, 64, 200, 201)
	for _, n := range sizes {
		for _, pts := range hostileBuckets(n) {
			for _, before := range []int64{math.MinInt64, -1, 0, 3, int64(n), math.MaxInt64} {
				checkVectorWalk(t, walk, pts, before)
			}
		}
	}
}

// The vector walk finds what the Go loops find on random buckets: values
// from a few (ties, zeros of both signs, now and then a non-finite one),
// steps mostly rising.
func TestVectorWalkIsTheGoLoopsOnRandomBuckets(t *testing.T) {
	walk := vectorWalkOrSkip(t)
	rng := rand.New(rand.NewPCG(25, 42))
	palette := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, -2.5, math.MaxFloat64, -math.MaxFloat64}
	for round := range 20_000 {
		n := rng.IntN(70)
		if round%100 == 0 {
			n = rng.IntN(3000)
		}
		pts := make([]model.Point, n)
		for i := range pts {
			v := rng.NormFloat64()
			if rng.IntN(3) == 0 {
				v = palette[rng.IntN(len(palette))]
			}
			if rng.IntN(500) == 0 {
				v = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[rng.IntN(3)]
			}
			step := int64(i)
			if rng.IntN(50) == 0 {
				step = rng.Int64N(int64(n+1)) - 1
			}
			pts[i] = model.Point{WallTime: rng.Float64(), Step: step, Value: v}
		}
		checkVectorWalk(t, walk, pts, rng.Int64N(3)-2)
	}
}

// FuzzVectorWalk checks the vector walk against the Go loops on buckets
// of any bits: the first byte says how the rest is read (bit 0: as whole
// points, 24 bytes each, else a byte a point that picks its value and
// its step from the odd cases), the next 8 are the step before the
// bucket.
func FuzzVectorWalk(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0x80})
	f.Add(append([]byte{0, 0, 0, 0, 0, 0, 0, 0, 0}, []byte("\x00\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff\x01")...))
	f.Add(append([]byte{1, 5, 0, 0, 0, 0, 0, 0, 0}, make([]byte, 24*9)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		walk := vectorWalkOrSkip(t)
		if len(data) < 9 {
			return
		}
		mode, before, data := data[0], int64(binary.LittleEndian.Uint64(data[1:9])), data[9:]
		var pts []model.Point
		if mode&1 != 0 {
			for ; len(data) >= 24; data = data[24:] {
				pts = append(pts, model.Point{
					WallTime: math.Float64frombits(binary.LittleEndian.Uint64(data)),
					Step:     int64(binary.LittleEndian.Uint64(data[8:])),
					Value:    math.Float64frombits(binary.LittleEndian.Uint64(data[16:])),
				})
			}
		} else {
			values := []float64{0, math.Copysign(0, -1), 1, -1, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64,
				-math.MaxFloat64, math.SmallestNonzeroFloat64, 0.5, -0.5, 2, -2, 3, -3}
			for i, b := range data {
				steps := []int64{int64(i), int64(i), int64(i) - 1, 0, math.MinInt64, math.MaxInt64, before, before - 1}
				pts = append(pts, model.Point{WallTime: float64(i), Step: steps[b>>4&7], Value: values[b&15]})
			}
		}
		checkVectorWalk(t, walk, pts, before)
	})
}

// BenchmarkWalk walks the ten 100,000-point series of a run like p8m's
// as a report does (finiteValues' buckets at p8m's draw cap, 200 points
// each; wall times copied or not), with the Go loops and the vector walk:
// p8m's 24 MB of points, read from the shared cache or memory (ns/op a
// million points), and the first 20,000 points of one series, 480 KB,
// which stay in a core's L2 (ns/op 20,000 points).
func BenchmarkWalk(b *testing.B) {
	ss := p8mSeries(100_000)
	type walker func([]model.Point, []float64, []float64, int64) bucketWalk
	goLoops := func(pts []model.Point, out, walls []float64, maxStep int64) bucketWalk {
		if walls != nil {
			return walkBucketWallsGo(pts, out, walls, maxStep)
		}
		return walkBucketGo(pts, out, maxStep)
	}
	walks := []struct {
		name string
		walk walker
	}{{"go", goLoops}}
	if vec, _ := vectorWalk(); vec != nil {
		walks = append(walks, struct {
			name string
			walk walker
		}{"avx512", vec})
	}
	series := map[string][][]model.Point{"p8m": nil, "inL2": {ss[0].pts[:20_000]}}
	for _, s := range ss {
		series["p8m"] = append(series["p8m"], s.pts)
	}
	out, walls := make([]float64, 100_000), make([]float64, 100_000)
	for _, set := range []string{"p8m", "inL2"} {
		for _, w := range walks {
			for _, copyWalls := range []bool{false, true} {
				b.Run(fmt.Sprintf("%s/%s/walls=%v", set, w.name, copyWalls), func(b *testing.B) {
					var points int64
					for _, pts := range series[set] {
						points += int64(len(pts))
					}
					b.SetBytes(points * 24)
					for b.Loop() {
						for _, pts := range series[set] {
							for lo := 0; lo < len(pts); lo += 200 {
								hi := lo + 200
								var wb []float64
								if copyWalls {
									wb = walls[lo:hi]
								}
								w.walk(pts[lo:hi], out[lo:hi], wb, math.MinInt64)
							}
						}
					}
				})
			}
		}
	}
}
