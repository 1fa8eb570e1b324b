//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// sample is one measurement of one tool.
type sample struct {
	Wall  time.Duration
	CPU   time.Duration // user + system
	RSSKB int64         // peak resident set size in KiB
}

// clockTick is USER_HZ, the unit of the times in /proc/<pid>/stat: 100 on
// every Linux architecture Go supports.
const clockTick = 10 * time.Millisecond

// setSubreaper makes this process adopt its orphaned descendants
// (PR_SET_CHILD_SUBREAPER): when a tensorboard process is killed, its data
// server is reparented to us instead of to init, so we can wait for it and
// be sure it is gone.
func setSubreaper() error {
	const prSetChildSubreaper = 36
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return e
	}
	return nil
}

// runProcess runs a command to completion, in its own process group, and
// measures it: wall time from just before fork to just after it is reaped,
// and CPU time (user + sys) and peak RSS (ru_maxrss) from the rusage wait4
// returns for it (which covers the descendants it waited for itself).
// stdout nil means /dev/null. On timeout or cancellation the whole process
// group is killed.
func runProcess(ctx context.Context, timeout time.Duration, stdout io.Writer, env []string, name string, args ...string) (sample, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Stdout = stdout
	stderr := &tailBuffer{max: 4096}
	cmd.Stderr = stderr
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.Process != nil {
		// Anything the command left behind in its group goes too.
		killGroup(cmd.Process.Pid)
		reapAdopted()
	}
	if ctx.Err() == context.DeadlineExceeded {
		return sample{}, fmt.Errorf("%s: timed out after %v", name, timeout)
	}
	if err != nil {
		return sample{}, fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	ru, _ := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	s := sample{Wall: wall, CPU: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	if ru != nil {
		s.RSSKB = ru.Maxrss // KiB on Linux
	}
	return s, nil
}

// killGroup sends SIGKILL to process group pgid; it is not an error when
// the group is already gone.
func killGroup(pgid int) {
	if pgid > 0 {
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// reapAdopted waits for every exited child of ours that is not managed by
// os/exec: the descendants we adopted as subreaper after their parent died.
// It never blocks.
func reapAdopted() {
	self := os.Getpid()
	for _, p := range scanProcs() {
		if p.ppid == self && p.state == 'Z' {
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(p.pid, &ws, syscall.WNOHANG, nil)
		}
	}
}

// procInfo is what /proc tells of one process.
type procInfo struct {
	pid, ppid int
	state     byte
	comm      string
	cpu       time.Duration // utime + stime + cutime + cstime
	hwmKB     int64         // VmHWM: its peak resident set size
	rssKB     int64         // VmRSS: its resident set size now
}

// readProc reads /proc/<pid>/stat and, unless statOnly, /proc/<pid>/status.
func readProc(pid int, statOnly bool) (procInfo, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, err
	}
	// pid (comm) state ppid ...; comm may hold spaces and parentheses.
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open || end+2 >= len(b) {
		return procInfo{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	f := strings.Fields(string(b[end+2:]))
	if len(f) < 15 {
		return procInfo{}, fmt.Errorf("/proc/%d/stat: unexpected format", pid)
	}
	p := procInfo{pid: pid, state: f[0][0], comm: string(b[open+1 : end])}
	p.ppid, _ = strconv.Atoi(f[1])
	var ticks int64
	for _, i := range []int{11, 12, 13, 14} { // utime stime cutime cstime (fields 14-17)
		n, _ := strconv.ParseInt(f[i], 10, 64)
		ticks += n
	}
	p.cpu = time.Duration(ticks) * clockTick
	if statOnly {
		return p, nil
	}
	st, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return p, nil // exited meanwhile
	}
	defer st.Close()
	sc := bufio.NewScanner(st)
	for sc.Scan() {
		line := sc.Text()
		for _, k := range []struct {
			key string
			dst *int64
		}{{"VmHWM:", &p.hwmKB}, {"VmRSS:", &p.rssKB}} {
			if rest, ok := strings.CutPrefix(line, k.key); ok {
				fs := strings.Fields(rest)
				if len(fs) > 0 {
					*k.dst, _ = strconv.ParseInt(fs[0], 10, 64)
				}
			}
		}
	}
	return p, nil
}

// scanProcs lists every process, from /proc/<pid>/stat only.
func scanProcs() []procInfo {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []procInfo
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, err := readProc(pid, true); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// processTree returns root and all its descendants, with their status.
func processTree(root int) []procInfo {
	kids := map[int][]int{}
	for _, p := range scanProcs() {
		kids[p.ppid] = append(kids[p.ppid], p.pid)
	}
	var out []procInfo
	queue := []int{root}
	seen := map[int]bool{}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		if p, err := readProc(pid, false); err == nil {
			out = append(out, p)
		}
		queue = append(queue, kids[pid]...)
	}
	return out
}

// treeUsage sums a process tree: CPU time of every process (with the
// children each has reaped), the sum of every process's VmHWM, and the sum
// of their VmRSS now.
func treeUsage(tree []procInfo) (cpu time.Duration, hwmKB, rssKB int64) {
	for _, p := range tree {
		cpu += p.cpu
		hwmKB += p.hwmKB
		rssKB += p.rssKB
	}
	return
}

// killTree kills a process tree started by cmd (its process group, and
// every process in tree, which may have left the group), waits until cmd is
// reaped (exited is closed by the goroutine that waits for it) and reaps
// the adopted orphans. It fails when a process of the tree is still there
// after 10 s.
func killTree(pgid int, tree []procInfo, exited <-chan struct{}) error {
	killGroup(pgid)
	for _, p := range tree {
		_ = syscall.Kill(p.pid, syscall.SIGKILL)
	}
	deadline := time.Now().Add(10 * time.Second)
	select {
	case <-exited:
	case <-time.After(time.Until(deadline)):
		return fmt.Errorf("process %d did not exit after SIGKILL", pgid)
	}
	for _, p := range tree {
		if p.pid == pgid {
			continue
		}
		for {
			var ws syscall.WaitStatus
			wpid, err := syscall.Wait4(p.pid, &ws, syscall.WNOHANG, nil)
			if wpid == p.pid {
				break // reaped: it was ours by adoption
			}
			if errors.Is(err, syscall.ECHILD) {
				if _, err := os.Stat("/proc/" + strconv.Itoa(p.pid)); err != nil {
					break // gone
				}
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("process %d (%s) of the tree is still there after SIGKILL", p.pid, p.comm)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nil
}

// strays lists processes, other than ourselves, whose command line mentions
// s (our temporary directory): tensorboard's TMPDIR and its data server's
// port file live there, so a leftover of ours would show.
func strays(s string) []procInfo {
	var out []procInfo
	self := os.Getpid()
	for _, p := range scanProcs() {
		if p.pid == self {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(p.pid) + "/cmdline")
		if err == nil && bytes.Contains(cmdline, []byte(s)) && p.state != 'Z' {
			out = append(out, p)
		}
	}
	return out
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) Bytes() []byte { return t.b }
