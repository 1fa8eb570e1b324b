// Package cputime measures the CPU time of the process, for benchmarks: on
// a machine shared with other work, the wall clock's ns/op measures the
// neighbours as much as the code, and the process's user and system time
// do not. It is imported by tests only.
package cputime

import (
	"testing"
	"time"
)

// ReportPerOp reports to b the process's CPU time per iteration since
// start (a Used), as cpu-ns/op; nothing where Used measures nothing.
func ReportPerOp(b *testing.B, start time.Duration) {
	if start > 0 && b.N > 0 {
		b.ReportMetric(float64(Used()-start)/float64(b.N), "cpu-ns/op")
	}
}
