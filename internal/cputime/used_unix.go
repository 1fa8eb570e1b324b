//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Used returns the CPU time the process has used, user and system.
func Used() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
