//go:build unix

package model

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, user and system: on
// a machine shared with other work, a fairer measure of a benchmark's
// cost than the wall clock.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
