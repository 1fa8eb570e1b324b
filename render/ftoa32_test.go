package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"iter"
	"math"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/trainreport/trainreport/internal/cputime"
)

// checkFloat32 compares appendFloat32 with strconv on the float32 of bits
// u, formatting into got and want (returned for reuse: the exhaustive run
// allocates nothing per value), and returns an error for a difference.
func checkFloat32(u uint32, got, want []byte) (fast bool, _, _ []byte, err error) {
	v := float64(math.Float32frombits(u))
	got, ok := appendFloat32(got[:0], v)
	if !ok {
		return false, got, want, nil
	}
	if want = strconv.AppendFloat(want[:0], v, 'f', -1, 32); !bytes.Equal(got, want) {
		err = fmt.Errorf("appendFloat32(%v) = %s, strconv %s (bits %#x)", v, got, want, u)
	}
	return true, got, want, err
}

// TestAppendFloat32 compares appendFloat32 with strconv on float32s of
// every binade around its range, both signs: the first and last 2,000
// mantissas of each (powers of two, their neighbours, integers) and
// every 251st between; and on float64s that are no float32, which it
// must leave to strconv. With TRAINREPORT_FTOA32_ALL=1 it compares every
// float32 of those binades (about 640 M values), the binades on all
// cores.
func TestAppendFloat32(t *testing.T) {
	var fast, tried atomic.Int64
	eachSampledBinade(t, func(exp uint32, sample iter.Seq[uint32]) error {
		got, want := make([]byte, 0, 64), make([]byte, 0, 64)
		for u := range sample {
			tried.Add(1)
			ok, g, w, err := checkFloat32(u, got, want)
			got, want = g, w
			if err != nil {
				return err
			}
			if ok {
				fast.Add(1)
			}
		}
		return nil
	})
	// 34 of the 38 binades are in the fast path's range: it must take
	// nearly all of their values (ties are rare).
	if want := tried.Load() * 34 / 38 * 99 / 100; fast.Load() < want {
		t.Errorf("fast path took %d of %d values, want at least %d", fast.Load(), tried.Load(), want)
	}
	t.Logf("%d values compared, %d by the fast path", tried.Load(), fast.Load())
	for _, v := range []float64{0.1, 1.0000001, math.Pi, 3e38, math.NaN(), math.Inf(1)} {
		if _, ok := appendFloat32(nil, v); ok {
			t.Errorf("appendFloat32(%v) took a value that is no float32 of its range", v)
		}
	}
}

// eachSampledBinade calls check, on all cores, for each binade of
// float32s with exponent bits 115 to 152 (TestAppendFloat32's, around the
// fast path's range) with the bits of its sample, both signs: the first
// and last 2,000 mantissas and every 251st between, or every one with
// TRAINREPORT_FTOA32_ALL=1. The first error check returns stops the
// samples and fails t.
func eachSampledBinade(t *testing.T, check func(exp uint32, sample iter.Seq[uint32]) error) {
	t.Helper()
	step := uint32(251)
	if os.Getenv("TRAINREPORT_FTOA32_ALL") == "1" {
		step = 1
	}
	var failed atomic.Pointer[error]
	sample := func(exp uint32) iter.Seq[uint32] {
		return func(yield func(uint32) bool) {
			for _, sign := range []uint32{0, 1 << 31} {
				for mant := uint32(0); mant < 1<<23 && failed.Load() == nil; {
					if !yield(sign | exp<<23 | mant) {
						return
					}
					if mant < 2000 || mant >= 1<<23-2000 {
						mant++
					} else {
						mant += step
					}
				}
			}
		}
	}
	var wg sync.WaitGroup
	exps := make(chan uint32)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for exp := range exps {
				if err := check(exp, sample(exp)); err != nil {
					failed.CompareAndSwap(nil, &err)
				}
			}
		})
	}
	for exp := uint32(115); exp <= 152; exp++ {
		exps <- exp
	}
	close(exps)
	wg.Wait()
	if err := failed.Load(); err != nil {
		t.Fatal(*err)
	}
}

// TestDigits8 compares digits8 with a decimal counter on every n below
// 10^8.
func TestDigits8(t *testing.T) {
	var want [8]byte
	for i := range want {
		want[i] = '0'
	}
	for n := range uint32(1e8) {
		if got := digits8(n); got != binary.LittleEndian.Uint64(want[:]) {
			var b [8]byte
			binary.LittleEndian.PutUint64(b[:], got)
			t.Fatalf("digits8(%d) = %q, want %q", n, b[:], want[:])
		}
		for i := 7; i >= 0; i-- { // want++
			if want[i] < '9' {
				want[i]++
				break
			}
			want[i] = '0'
		}
	}
}

// TestAppendFloat32AppendsToB checks that appendFloat32 appends to what
// b holds, in b's spare capacity when it has room (the same array) and
// past a full b.
func TestAppendFloat32AppendsToB(t *testing.T) {
	for _, c := range []int{3, 64} {
		b := append(make([]byte, 0, c), "ab,"...)
		got, ok := appendFloat32(b, -0.0009765625)
		if !ok || string(got) != "ab,-0.0009765625" {
			t.Fatalf("cap %d: appendFloat32 = %q, %v", c, got, ok)
		}
		if inPlace := &got[0] == &b[0]; inPlace != (c == 64) {
			t.Errorf("cap %d: appended in b's array %v", c, inPlace)
		}
	}
}

// FuzzAppendFloat32 compares appendFloat32 with strconv on any float32,
// and on the float64 of any bits (which it takes only when a float32).
func FuzzAppendFloat32(f *testing.F) {
	for _, v := range []float32{0.9224459, 1, 16777215, 2097152.25, 0.0009765625, -3.5, 1e-7, 3e38} {
		f.Add(math.Float32bits(v), uint64(0))
	}
	f.Add(uint32(0), math.Float64bits(0.1))
	f.Fuzz(func(t *testing.T, u uint32, w uint64) {
		if _, _, _, err := checkFloat32(u, nil, nil); err != nil {
			t.Fatal(err)
		}
		v := math.Float64frombits(w)
		if got, ok := appendFloat32(nil, v); ok {
			if want := strconv.AppendFloat(nil, v, 'f', -1, 32); float64(float32(v)) != v || string(got) != string(want) {
				t.Fatalf("appendFloat32(%v) = %s, strconv %s", v, got, want)
			}
		}
	})
}

// BenchmarkAppendFloat32 formats 100,000 float32 values of a loss-like
// curve (BenchmarkBundle's), by appendFloat32, by putFloat32s in blocks
// and by strconv.
func BenchmarkAppendFloat32(b *testing.B) {
	vals := make([]float64, 100_000)
	for i := range vals {
		vals[i] = float64(float32(1 + math.Sin(float64(i)/100)/3))
	}
	buf := make([]byte, 0, 64)
	b.Run("fast", func(b *testing.B) {
		defer cputime.ReportPerOp(b, cputime.Used())
		for b.Loop() {
			for _, v := range vals {
				buf, _ = appendFloat32(buf[:0], v)
			}
		}
	})
	// blocks: as the value columns hand them to putFloat32s (its AVX-512
	// kernel where there is one), valueBlock at a time; blocksGo: the
	// same by putFloat32sGo, the kernel's reference.
	for _, path := range []struct {
		name string
		put  func(dst []byte, vs []float64) (n, done int)
	}{{"blocks", putFloat32s}, {"blocksGo", putFloat32sGo}} {
		b.Run(path.name, func(b *testing.B) {
			dst := make([]byte, valueBlock*float32Room)
			defer cputime.ReportPerOp(b, cputime.Used())
			for b.Loop() {
				for i := 0; i < len(vals); i += valueBlock {
					path.put(dst, vals[i:min(i+valueBlock, len(vals))])
				}
			}
		})
	}
	b.Run("strconv", func(b *testing.B) {
		defer cputime.ReportPerOp(b, cputime.Used())
		for b.Loop() {
			for _, v := range vals {
				buf = strconv.AppendFloat(buf[:0], v, 'f', -1, 32)
			}
		}
	})
}

// TestFtoa32ScalesFit checks that no bound of putFloat32s's search
// overflows: H (and L, rounded up) over 2^32 for the largest mantissa,
// in every binade, with room to spare, and that the interval of a value
// of every binade, one ulp, spans at least one unit of 10^-d and less
// than ten.
func TestFtoa32ScalesFit(t *testing.T) {
	for e, sc := range ftoa32Scales {
		H := (1<<24-1)*sc.p5<<2 + 2*sc.p5
		if H>>61 != 0 || H+1<<32 < H {
			t.Errorf("binade %d: H = %#x, past 2^61", e, H)
		}
		if ulp := 4 * sc.p5; ulp < 1<<32 || ulp >= 10<<32 {
			t.Errorf("binade %d: an ulp is %v units", e, float64(ulp)/(1<<32))
		}
	}
}
