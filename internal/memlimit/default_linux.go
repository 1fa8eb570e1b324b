package memlimit

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// readings are the bounds Linux puts on the process's memory: its cgroup's
// limit (v2, then v1), MemAvailable, and what RLIMIT_AS leaves of the
// address space (the runtime reserves much more than it maps: the
// address space used now is subtracted).
func readings() []reading {
	rs := []reading{{cgroupLimit(), 0.75, "3/4 of the cgroup's memory limit"}}
	if kb := meminfo("MemAvailable:"); kb > 0 {
		rs = append(rs, reading{kb << 10, 0.75, "3/4 of the memory available"})
	}
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &rl); err == nil && rl.Cur != ^uint64(0) && rl.Cur < 1<<62 {
		vm := status("VmSize:") << 10
		rs = append(rs, reading{rl.Cur - min(rl.Cur, vm), 0.5, "1/2 of the address space left under ulimit -v"})
	}
	return rs
}

// cgroupLimit returns the memory limit of the process's cgroup, 0 when
// there is none or it cannot be read: the cgroup's own folder under
// /sys/fs/cgroup as /proc/self/cgroup names it, else the mount's root
// (a container's, with a cgroup namespace).
func cgroupLimit() uint64 {
	b, _ := os.ReadFile("/proc/self/cgroup")
	v1, v2 := "/", "/"
	for _, line := range strings.Split(string(b), "\n") {
		parts := strings.SplitN(line, ":", 3)
		switch {
		case len(parts) != 3:
		case parts[0] == "0" && parts[1] == "":
			v2 = parts[2]
		case strings.Contains(","+parts[1]+",", ",memory,"):
			v1 = parts[2]
		}
	}
	for _, p := range []string{
		filepath.Join("/sys/fs/cgroup", v2, "memory.max"), "/sys/fs/cgroup/memory.max",
		filepath.Join("/sys/fs/cgroup/memory", v1, "memory.limit_in_bytes"), "/sys/fs/cgroup/memory/memory.limit_in_bytes",
	} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		s := strings.TrimSpace(string(b))
		if s == "max" {
			return 0
		}
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || n >= 1<<62 { // v1 writes "no limit" as a huge number
			return 0
		}
		return n
	}
	return 0
}

// meminfo returns the field of /proc/meminfo, in kB; 0 when missing.
func meminfo(field string) uint64 { return kbField("/proc/meminfo", field) }

// status returns the field of /proc/self/status, in kB; 0 when missing.
func status(field string) uint64 { return kbField("/proc/self/status", field) }

func kbField(file, field string) uint64 {
	b, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field); ok {
			n, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}
