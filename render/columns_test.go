package render

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// valueColumnInputs are values of every kind a value column meets:
// float32s of the fast path's range, both signs and every binade, and
// those it leaves to appendValue (zero, -0, tiny, huge, non-finite,
// float64s that are no float32).
func valueColumnInputs(n int, rng *rand.Rand) []float64 {
	special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1e-20, 3e30, 0.1,
		float64(float32(0.0009765625)), -float64(float32(0.0009765625)), 16777215, 1, -1, 123456.5}
	vs := make([]float64, n)
	for i := range vs {
		if rng.IntN(8) == 0 {
			vs[i] = special[rng.IntN(len(special))]
			continue
		}
		// A float32 of a binade from 2^-12 to 2^25, either sign.
		u := uint32(115+rng.IntN(38))<<23 | rng.Uint32N(1<<23) | rng.Uint32N(2)<<31
		vs[i] = float64(math.Float32frombits(u))
	}
	return vs
}

// The value column is each value as appendValue writes it, joined by
// commas, whatever mix of values it holds, at the indices given or all,
// across the blocks it is formatted by (valueBlock) and across the
// chunks it hands spill; the spilled chunks and the rest are the column.
func TestValueColumnIsEachValueAsAppendValueWritesIt(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, valueBlock - 1, valueBlock, valueBlock + 1, 3*valueBlock + 5, 40_000} {
		vs := valueColumnInputs(n, rng)
		pts := make([]model.Point, n)
		for i, v := range vs {
			pts[i].Value = v
		}
		var idx []int
		for i := 0; i < n; i += 1 + rng.IntN(3) {
			idx = append(idx, i)
		}
		for _, c := range []kept{{pts, nil}, {pts, idx}} {
			for _, f32 := range []bool{true, false} {
				var want []byte
				for i := range c.len() {
					if i > 0 {
						want = append(want, ',')
					}
					want = appendValue(want, c.at(i).Value, f32)
				}
				var spilled bytes.Buffer
				spills, most := 0, 0
				spill := func(b []byte) []byte {
					spills++
					most = max(most, len(b))
					spilled.Write(b)
					return b[:0]
				}
				got := appendValueColumn([]byte("x"), c, f32, spill)
				spilled.Write(got)
				if g := spilled.Bytes(); !bytes.Equal(g[1:], want) || g[0] != 'x' {
					t.Fatalf("%d values (indexed %v), float32 %v: column differs from appendValue's:\n%.300s\nwant\n%.300s", n, c.idx != nil, f32, g, want)
				}
				// A chunk is handed over once it holds bundleChunk bytes,
				// at most a block past it.
				if big := len(want) > bundleChunk+valueBlock*float32Room; big && spills == 0 || len(want) < bundleChunk && spills > 0 {
					t.Errorf("%d values, %d bytes: spilled %d times", n, len(want), spills)
				}
				if most > bundleChunk+valueBlock*float32Room {
					t.Errorf("%d values: a chunk of %d bytes spilled, past %d", n, most, bundleChunk+valueBlock*float32Room)
				}
			}
		}
	}
}

// appendFloat32 appends one value as putFloat32s writes a column's, in
// b's spare room when it has some and past a full b, and leaves b as it
// was for a value it does not take.
func TestAppendFloat32LeavesBForAValueItDoesNotTake(t *testing.T) {
	b := append(make([]byte, 0, 4), "ab"...)
	if got, ok := appendFloat32(b, 0); ok || string(got) != "ab" || cap(got) != 4 {
		t.Errorf("appendFloat32(0) = %q, %v (cap %d), want b as it was", got, ok, cap(got))
	}
	if got, ok := appendFloat32(b, 0.5); !ok || string(got) != "ab0.5" {
		t.Errorf("appendFloat32(0.5) = %q, %v", got, ok)
	}
}

// stepProgressionReference is stepProgression as it was written: every
// step in the range and every difference the stride.
func stepProgressionReference(st []int64) bool {
	if len(st) == 0 {
		return false
	}
	var stride int64
	if len(st) > 1 {
		stride = st[1] - st[0]
	}
	ok := inExactStep(st[0]) && inExactStep(stride)
	for i := 1; ok && i < len(st); i++ {
		ok = inExactStep(st[i]) && st[i]-st[i-1] == stride
	}
	return ok
}

// stepProgression, which checks the range at the ends only, takes the
// steps the scan of every step takes: progressions that wrap around
// int64 (whose every difference is the stride) and leave the range
// between their ends included.
func TestStepProgressionTakesWhatTheScanTakes(t *testing.T) {
	cases := [][]int64{nil, {5}, {0, 1, 2}, {3, 2, 1}, {1 << 52, 1<<52 + 1}, {-(1<<52 - 1), 0, 1<<52 - 1},
		{-(1<<52 - 1), 1<<52 - 1}, {0, 1 << 51, 1 << 52}, {1, 1, 2}}
	// A stride of 2^51 wraps int64 after 2^13 terms, back into the range.
	wrap := make([]int64, 1<<13+3)
	for i := range wrap {
		wrap[i] = int64(uint64(i) << 51)
	}
	cases = append(cases, wrap, wrap[:4], wrap[1<<13:])
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2_000 {
		n := 1 + rng.IntN(6)
		first, stride := rng.Int64N(1<<53)-1<<52, rng.Int64N(1<<53)-1<<52
		st := make([]int64, n)
		for i := range st {
			st[i] = first + int64(i)*stride
		}
		if rng.IntN(4) == 0 {
			st[rng.IntN(n)] += 1
		}
		cases = append(cases, st)
	}
	for _, st := range cases {
		_, _, got := stepProgression(stepPoints(st), result.StepProgression{})
		if want := stepProgressionReference(st); got != want {
			t.Fatalf("steps %.80v (%d): progression %v, the scan says %v", st, len(st), got, want)
		}
	}
}

// BenchmarkValueColumn formats 100,000 float32 values of
// BenchmarkAppendFloat32's curve as a bundle's value column.
func BenchmarkValueColumn(b *testing.B) {
	pts := make([]model.Point, 100_000)
	for i := range pts {
		pts[i].Value = float64(float32(1 + math.Sin(float64(i)/100)/3))
	}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = appendValueColumn(buf[:0], kept{pts: pts}, true, nil)
	}
	b.SetBytes(int64(len(buf)))
}

// A value column is read from the values handed beside the points (a
// copy the analysis' walk made, in cache) when they are the values of
// every point, and from the points otherwise: the same bytes for the
// same values, and the values handed are those written.
func TestColumnsReadTheValuesHanded(t *testing.T) {
	pts := make([]model.Point, 1000)
	vals := make([]float64, len(pts))
	for i := range pts {
		pts[i] = model.Point{Step: int64(i), WallTime: 1.7e9 + float64(i)/10, Value: float64(float32(math.Exp(-float64(i) / 300)))}
		vals[i] = pts[i].Value
	}
	pts[10].Value, vals[10] = 1e30, 1e30 // one left to strconv
	for _, f32 := range []bool{true, false} {
		want := appendColumns(nil, column{kept: kept{pts: pts}}, f32, -1, nil, nil)
		if got := appendColumns(nil, column{kept: kept{pts: pts}, vals: vals}, f32, -1, nil, nil); !bytes.Equal(got, want) {
			t.Errorf("f32 %v: the values handed make other bytes than the points'", f32)
		}
		// Other values handed: they are what is written.
		other := make([]float64, len(vals))
		for i, v := range vals {
			other[i] = v * 2
		}
		moved := slices.Clone(pts)
		for i := range moved {
			moved[i].Value = other[i]
		}
		if got, want := appendColumns(nil, column{kept: kept{pts: pts}, vals: other}, f32, -1, nil, nil), appendColumns(nil, column{kept: kept{pts: moved}}, f32, -1, nil, nil); !bytes.Equal(got, want) {
			t.Errorf("f32 %v: the values handed are not those written", f32)
		}
		// Values not those of every point (a series thinned, or a short
		// slice) are not read.
		idx := []int{0, 5, 999}
		if got, want := appendColumns(nil, column{kept: kept{pts, idx}, vals: other}, f32, -1, nil, nil), appendColumns(nil, column{kept: kept{pts, idx}}, f32, -1, nil, nil); !bytes.Equal(got, want) {
			t.Errorf("f32 %v: values read for a thinned series", f32)
		}
		if got := appendColumns(nil, column{kept: kept{pts: pts}, vals: other[:999]}, f32, -1, nil, nil); !bytes.Equal(got, want) {
			t.Errorf("f32 %v: values read from a slice shorter than the points", f32)
		}
	}
}

// A wall-time column is read from the wall times handed beside the
// points (a copy the analysis' walk made, in cache) when they are those
// of every point, and from the points otherwise: the same bytes for the
// same wall times, and the wall times handed are those written.
func TestColumnsReadTheWallTimesHanded(t *testing.T) {
	pts := make([]model.Point, 3*wallBlock+10) // more than a block of the points'
	walls := make([]float64, len(pts))
	for i := range pts {
		pts[i] = model.Point{Step: int64(i), WallTime: 1.7e9 + float64(i)/10, Value: float64(i)}
		walls[i] = pts[i].WallTime
	}
	want := appendColumns(nil, column{kept: kept{pts: pts}}, true, -1, nil, nil)
	if got := appendColumns(nil, column{kept: kept{pts: pts}, walls: walls}, true, -1, nil, nil); !bytes.Equal(got, want) {
		t.Errorf("the wall times handed make other bytes than the points'")
	}
	// Other wall times handed: they are what is written.
	other := make([]float64, len(walls))
	moved := slices.Clone(pts)
	for i := range other {
		other[i] = 1.6e9 + float64(i)*2.5
		moved[i].WallTime = other[i]
	}
	if got, want := appendColumns(nil, column{kept: kept{pts: pts}, walls: other}, true, -1, nil, nil), appendColumns(nil, column{kept: kept{pts: moved}}, true, -1, nil, nil); !bytes.Equal(got, want) {
		t.Errorf("the wall times handed are not those written")
	}
	// Wall times not those of every point (a series thinned, or a short
	// slice) are not read.
	idx := []int{0, 5, len(pts) - 1}
	if got, want := appendColumns(nil, column{kept: kept{pts, idx}, walls: other}, true, -1, nil, nil), appendColumns(nil, column{kept: kept{pts, idx}}, true, -1, nil, nil); !bytes.Equal(got, want) {
		t.Errorf("wall times read for a thinned series")
	}
	if got := appendColumns(nil, column{kept: kept{pts: pts}, walls: other[:len(other)-1]}, true, -1, nil, nil); !bytes.Equal(got, want) {
		t.Errorf("wall times read from a slice shorter than the points")
	}
}

// The wall-time form of a column longer than the blocks its points'
// wall times are gathered in (wallBlock) is the reference's from every
// source (wallSources), whatever breaks wallRun's loop on either side of
// a block's edge: a wall time that raises the scale, a -0, a NaN, one of
// 17 digits, a delta out of range.
func TestWallFormAcrossBlocks(t *testing.T) {
	n := 3*wallBlock + 7
	breaks := map[string]float64{
		"a tenth":      1.7e9 + 0.1,
		"a -0":         math.Copysign(0, -1),
		"a NaN":        math.NaN(),
		"17 digits":    0.30000000000000004,
		"a huge delta": 4e15,
		"a zero":       0,
	}
	for name, w := range breaks {
		for _, at := range []int{1, wallBlock - 1, wallBlock, wallBlock + 1, 2 * wallBlock, n - 1} {
			ws := make([]float64, n)
			for i := range ws {
				ws[i] = 1.7e9 + float64(i)
			}
			ws[at] = w
			checkWallForm(t, ws)
			want := appendWallColumn(nil, wallPoints(ws), nil, nil)
			for _, src := range wallSources(ws) {
				if got := appendWallColumn(nil, src.wallTimes, nil, nil); !bytes.Equal(got, want) {
					t.Errorf("%s at %d: the column from %s is not the points'", name, at, src.name)
				}
			}
		}
	}
}
