package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// With TRAINREPORT_HEAPPEAK set, a heap profile (gzipped protobuf) is
// written to the file it names, and the peak said on stderr; unset,
// nothing is written.
func TestHeapPeakWritesAProfile(t *testing.T) {
	name := filepath.Join(t.TempDir(), "heap.pprof")
	var stderr bytes.Buffer
	startHeapPeak(&stderr)(new(error)) // unset: nothing
	if stderr.Len() > 0 {
		t.Fatalf("unset, it said %q", stderr.String())
	}
	t.Setenv(heapPeakEnv, name)
	stop := startHeapPeak(&stderr)
	held := make([][]byte, 0, 64)
	for range 64 {
		held = append(held, make([]byte, 1<<20))
	}
	runtime.GC() // the live heap the last sample, when stopped, reads
	var err error
	stop(&err)
	runtime.KeepAlive(held)
	if err != nil {
		t.Fatal(err)
	}
	b, readErr := os.ReadFile(name)
	if readErr != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Fatalf("profile: %d bytes, %v", len(b), readErr)
	}
	if !strings.Contains(stderr.String(), "heap peak: ") {
		t.Errorf("stderr: %q", stderr.String())
	}
}
