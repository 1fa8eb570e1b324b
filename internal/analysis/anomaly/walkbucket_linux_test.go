package anomaly

import (
	"math"
	"syscall"
	"testing"
	"unsafe"

	"github.com/trainreport/trainreport/collect/model"
)

// guarded returns n elements of T that end where a page no access is
// allowed to begins, so that a read or write past them faults.
func guarded[T any](t *testing.T, n int) []T {
	t.Helper()
	page := syscall.Getpagesize()
	size := int(unsafe.Sizeof(*new(T)))
	pages := (n*size+page-1)/page + 1
	mem, err := syscall.Mmap(-1, 0, pages*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatalf("mmap: %v", err)
	}
	t.Cleanup(func() { syscall.Munmap(mem) })
	guard := mem[(pages-1)*page:]
	if err := syscall.Mprotect(guard, syscall.PROT_NONE); err != nil {
		t.Fatalf("mprotect: %v", err)
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&mem[(pages-1)*page-n*size])), n)
}

// The vector walk reads and writes nothing past its slices: each ends at
// a page no access is allowed to (a fault, not a failure, if it did), on
// buckets of 0 to 40 points with their extremes last.
func TestVectorWalkStaysWithinItsSlices(t *testing.T) {
	walk := vectorWalkOrSkip(t)
	for n := range 41 {
		pts := guarded[model.Point](t, n)
		for i := range pts {
			pts[i] = model.Point{WallTime: float64(i), Step: int64(i), Value: float64(i % 7)}
		}
		if n > 1 {
			pts[n-2].Value, pts[n-1].Value = -1, 8 // the last turn's search finds them
		}
		out, walls := guarded[float64](t, n), guarded[float64](t, n)
		got := walk(pts, out, walls, math.MinInt64)
		if want := walkBucketWallsGo(pts, make([]float64, n), make([]float64, n), math.MinInt64); !sameBucketWalk(got, want) {
			t.Fatalf("%d points: %+v, want %+v", n, got, want)
		}
	}
}
