// Package testsupport holds the small helpers that tests of several
// packages share, so that each is written once: float comparisons with
// NaN, a log folder opened for the length of a test, a folder of many tiny
// embeddings. Event files are written by package testlog. It is imported
// by tests only.
package testsupport

import (
	"math"
	"testing"

	"github.com/trainreport/trainreport/collect/logfs"
)

// Same reports whether a and b are the same number, a NaN being the same
// as any NaN (== says it is not even itself).
func Same(a, b float64) bool {
	return a == b || math.IsNaN(a) && math.IsNaN(b)
}

// Identical is Same that also tells zeros of different signs apart, for
// decoders that must keep the sign of a zero (any NaN, whatever its sign
// and payload, is still the same as any other).
func Identical(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b && math.Signbit(a) == math.Signbit(b)
}

// OpenDir opens the folder p as a log folder, closed when the test ends.
func OpenDir(t testing.TB, p string) *logfs.Dir {
	t.Helper()
	d, err := logfs.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}
