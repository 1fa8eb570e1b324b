//go:build !unix

package analysis

import "time"

// cpuTime is not measured here: reportCPU reports nothing.
func cpuTime() time.Duration { return 0 }
