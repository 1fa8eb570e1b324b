package memlimit

// Default returns the default budget, in bytes, and what it was taken
// from: the least of 3/4 of the memory limit of the process's cgroup, 3/4
// of the memory available on the machine (MemAvailable) and 1/2 of the
// address space left under its ulimit -v. 0 and "" where none is known
// (outside Linux), which means no budget.
//
// The quarter left is what the runtime holds beyond the heap (stacks,
// the binary, other mappings) and the margin within which a command the
// watchdog cancelled still runs. Under ulimit -v half is left: the
// runtime reserves address space well beyond what it uses, and one
// buffer grown by doubling asks for as much again as it holds.
func Default() (uint64, string) {
	return pick(readings())
}

// reading is one bound on the memory the process may use, and the
// fraction of it the default budget may take.
type reading struct {
	bytes    uint64
	fraction float64
	what     string
}

// pick returns the least of the readings known (bytes 0 is unknown),
// each its fraction, and what it is.
func pick(rs []reading) (uint64, string) {
	var best uint64
	var what string
	for _, r := range rs {
		if n := uint64(float64(r.bytes) * r.fraction); n > 0 && (best == 0 || n < best) {
			best, what = n, r.what
		}
	}
	return best, what
}
