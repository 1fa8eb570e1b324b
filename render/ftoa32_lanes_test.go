package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"iter"
	"math"
	"sync/atomic"
	"testing"
)

// skipWithoutKernel skips a test of putFloat32sAVX512 on a CPU (or a
// build) without it: putFloat32s is then putFloat32sGo, which
// TestAppendFloat32 and FuzzAppendFloat32 check, and there is no second
// path to compare.
func skipWithoutKernel(t testing.TB) {
	t.Helper()
	if !useAVX512 {
		t.Skip("no AVX-512 kernel on this CPU or build (purego, not amd64): putFloat32s is putFloat32sGo")
	}
}

// guardBytes follow the room comparePaths hands the paths: no path may
// write them.
const guardBytes = 64

// comparePaths formats vs into room bytes by putFloat32s and by
// putFloat32sGo, and then by the kernel alone and putFloat32sGo on the
// values it took, and returns an error for any difference in bytes,
// values or length, or a write past the room, and how many values the
// kernel took. got and want are scratch, at least room+guardBytes long.
func comparePaths(vs []float64, room int, got, want []byte) (took int, err error) {
	guard := got[room : room+guardBytes]
	for i := range guard {
		guard[i] = 0xa5
	}
	defer func() {
		if err == nil && bytes.Count(guard, []byte{0xa5}) != guardBytes {
			err = fmt.Errorf("%d values, room %d: a path wrote past the room: %q", len(vs), room, guard)
		}
	}()
	got, want = got[:room], want[:room]
	n, done := putFloat32s(got, vs)
	wn, wdone := putFloat32sGo(want, vs)
	if n != wn || done != wdone || !bytes.Equal(got[:n], want[:wn]) {
		return 0, fmt.Errorf("putFloat32s(room %d, %v) = %d, %d values %q; putFloat32sGo %d, %d values %q",
			room, vs, n, done, got[:n], wn, wdone, want[:wn])
	}
	n, took = putFloat32sAVX512(got, vs, &ftoa32Lanes)
	if took%8 != 0 || took > len(vs) {
		return took, fmt.Errorf("putFloat32sAVX512(room %d, %d values) took %d values", room, len(vs), took)
	}
	wn, wdone = putFloat32sGo(want, vs[:took])
	if n != wn || wdone != took || !bytes.Equal(got[:n], want[:wn]) {
		return took, fmt.Errorf("putFloat32sAVX512(room %d, %v) = %d, %d values %q; putFloat32sGo %d, %d values %q",
			room, vs[:took], n, took, got[:n], wn, wdone, want[:wn])
	}
	return took, nil
}

// TestPutFloat32sKernelMatchesGo compares putFloat32s, with its AVX-512
// kernel, with putFloat32sGo on the float32s TestAppendFloat32 tries (on
// all of them with TRAINREPORT_FTOA32_ALL=1), in blocks of valueBlock
// consecutive ones, as the value columns hand them, and checks that the
// kernel took nearly all of those of its range.
func TestPutFloat32sKernelMatchesGo(t *testing.T) {
	skipWithoutKernel(t)
	var inRange, took atomic.Int64
	eachSampledBinade(t, func(exp uint32, sample iter.Seq[uint32]) error {
		vs := make([]float64, 0, valueBlock)
		got, want := make([]byte, valueBlock*float32Room+guardBytes), make([]byte, valueBlock*float32Room+guardBytes)
		flush := func() error {
			k, err := comparePaths(vs, valueBlock*float32Room, got, want)
			took.Add(int64(k))
			vs = vs[:0]
			return err
		}
		n := 0
		for u := range sample {
			vs = append(vs, float64(math.Float32frombits(u)))
			n++
			if len(vs) == valueBlock {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if exp >= 117 && exp <= 150 {
			inRange.Add(int64(n))
		}
		return flush()
	})
	if took.Load() < inRange.Load()*98/100 {
		t.Errorf("the kernel took %d of %d values of its range, want 98%%", took.Load(), inRange.Load())
	}
	t.Logf("the kernel took %d of the %d values of its range", took.Load(), inRange.Load())
}

// leftValues are values putFloat32sGo leaves to strconv: not float32s,
// or not of its range. (It takes every float32 of its range: no interval
// there is empty, lo > hi, which a scan of all of them found.)
func leftValues(t *testing.T) []float64 {
	vs := []float64{
		math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		float64(math.Float32frombits(1)), float64(math.Float32frombits(0x80000001)), // subnormals
		float64(math.Nextafter32(1.0/1024, 0)), -float64(math.Nextafter32(1.0/1024, 0)),
		1 << 24, -(1 << 24), 3e38, 1e-30,
		0.1, 1.0000001, math.Nextafter(1, 2), // no float32
	}
	for _, v := range vs {
		if takesOne(v) {
			t.Fatalf("putFloat32sGo takes %v, listed as left to strconv", v)
		}
	}
	return vs
}

// takesOne reports whether putFloat32sGo takes v.
func takesOne(v float64) bool {
	_, done := putFloat32sGo(make([]byte, float32Room), []float64{v})
	return done == 1
}

// edgeValues are float32s of the kernel's range at its edges and of every
// layout: the least and greatest of the range, powers of two it takes,
// values of nine digits, of ten places, whole numbers, both signs.
func edgeValues() []float64 {
	var vs []float64
	for _, v := range []float32{
		1.0 / 1024, math.Nextafter32(1.0/1024, 1), math.Nextafter32(1<<24, 0), 1, 2, 0.5, 8388608,
		16777214, 12345678, 9999999, 1e7, 0.0009765625, 0.001, 0.00123, 123.456, 1e-3, 99999.99,
		0.3, 0.9224459, 2097152.25, 100000000.0 / 1024 / 1024, 3.5, 0.0078125, 65536.5,
	} {
		vs = append(vs, float64(v), -float64(v))
	}
	for exp := uint32(117); exp <= 150; exp++ {
		for _, mant := range []uint32{1, 2, 3, 1<<23 - 1, 1<<22 + 1, 0x2aaaaa} {
			vs = append(vs, float64(math.Float32frombits(exp<<23|mant)))
		}
	}
	return vs
}

// TestPutFloat32sLeftValueAtEachLane puts each value the kernel leaves
// at each place of a group of eight, and of the second group of
// sixteen, among values it takes, and compares the paths: the group
// must go to putFloat32sGo, which stops at that value.
func TestPutFloat32sLeftValueAtEachLane(t *testing.T) {
	skipWithoutKernel(t)
	good := edgeValues()
	room := 64 * float32Room
	got, want := make([]byte, room+guardBytes), make([]byte, room+guardBytes)
	for _, bad := range leftValues(t) {
		for _, n := range []int{8, 13, 16, 24} {
			for p := range n {
				vs := make([]float64, n)
				for i := range vs {
					vs[i] = good[(i*7+p)%len(good)]
				}
				vs[p] = bad
				took, err := comparePaths(vs, room, got, want)
				if err != nil {
					t.Fatal(err)
				}
				if wantTook := p / 8 * 8; took != wantTook {
					t.Fatalf("%v at %d of %d: the kernel took %d values, want %d", bad, p, n, took, wantTook)
				}
			}
		}
	}
}

// TestPutFloat32sEdgesInEveryLane runs the edge values through every
// lane (each rotation of the list) and every length up to 70, where the
// last values, fewer than eight, are putFloat32sGo's.
func TestPutFloat32sEdgesInEveryLane(t *testing.T) {
	skipWithoutKernel(t)
	good := edgeValues()
	room := len(good) * float32Room
	got, want := make([]byte, room+guardBytes), make([]byte, room+guardBytes)
	for r := range 8 {
		vs := append(append([]float64(nil), good[r:]...), good[:r]...)
		if took, err := comparePaths(vs, room, got, want); err != nil || took != len(vs)/8*8 {
			t.Fatalf("rotation %d: the kernel took %d of %d values (%v)", r, took, len(vs), err)
		}
	}
	for n := range 71 {
		if _, err := comparePaths(good[:n], room, got, want); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPutFloat32sRoomAtEachPoint hands the paths a dst of every length
// up to the room of 40 values: both must stop at the same value, with
// the same bytes, whichever of the kernel's groups (one or two a turn)
// the room ends in, and write nothing past it. The values are the edge
// values, and the longest texts of all, fourteen bytes with the comma
// (-0.0009765626), where a group's room is tightest.
func TestPutFloat32sRoomAtEachPoint(t *testing.T) {
	skipWithoutKernel(t)
	longest := make([]float64, 40)
	for i := range longest {
		longest[i] = -float64(math.Float32frombits(117<<23 | uint32(1+i*997)))
	}
	if b, _ := appendFloat32(nil, longest[0]); len(b) != 13 {
		t.Fatalf("%v is written %q, not in 13 bytes", longest[0], b)
	}
	got, want := make([]byte, 41*float32Room+guardBytes), make([]byte, 41*float32Room+guardBytes)
	for _, vs := range [][]float64{edgeValues()[:40], longest} {
		for room := range 41*float32Room + 1 {
			if _, err := comparePaths(vs, room, got, want); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// FuzzPutFloat32s compares putFloat32s (and its kernel) with
// putFloat32sGo on any values and room: data read as float32 bits, most
// of them of the kernel's range, or as float64 bits, and room the dst's
// length.
func FuzzPutFloat32s(f *testing.F) {
	seed := make([]byte, 0, 64*4)
	for i, v := range edgeValues()[:64] {
		if i == 37 {
			v = math.NaN()
		}
		seed = binary.LittleEndian.AppendUint32(seed, math.Float32bits(float32(v)))
	}
	f.Add(seed, true, uint16(2000))
	f.Add(seed, true, uint16(150))
	f.Add(seed[:8*8], false, uint16(200))
	f.Fuzz(func(t *testing.T, data []byte, f32 bool, room uint16) {
		skipWithoutKernel(t)
		var vs []float64
		if f32 {
			for ; len(data) >= 4; data = data[4:] {
				vs = append(vs, float64(math.Float32frombits(binary.LittleEndian.Uint32(data))))
			}
		} else {
			for ; len(data) >= 8; data = data[8:] {
				vs = append(vs, math.Float64frombits(binary.LittleEndian.Uint64(data)))
			}
		}
		got, want := make([]byte, int(room)+guardBytes), make([]byte, int(room)+guardBytes)
		if _, err := comparePaths(vs, int(room), got, want); err != nil {
			t.Fatal(err)
		}
	})
}
