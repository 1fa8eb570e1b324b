//go:build slurm

package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// slurmCluster is a one-node Slurm cluster on localhost, started by a test
// from Debian's slurm-wlm packages (make test-slurm installs them): MUNGE
// for authentication, slurmctld and slurmd in the foreground, every file
// (configuration, key, socket, state, spool, logs) in a temporary folder,
// the daemons on free ports, no accounting, no cgroups. Jobs run as the
// user running the test.
type slurmCluster struct {
	dir     string   // the cluster's folder
	env     []string // the environment of its commands: SLURM_CONF, no outer SLURM_*
	daemons []*daemon

	exit     chan struct{} // closed when the first daemon exits
	exitOnce sync.Once
}

// daemon is a daemon of the cluster; done is closed when it has exited.
type daemon struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error // Wait's, once done is closed
}

// slurmBinaries are the programs the cluster and its tests run.
var slurmBinaries = []string{"munged", "slurmctld", "slurmd", "sbatch", "scontrol", "squeue", "scancel", "sinfo"}

// startSlurm starts a cluster whose node is idle, and stops it when the
// test ends: jobs cancelled, then each daemon sent SIGTERM (SIGKILL after
// 15 s), then its folder removed. The daemons also get SIGKILL should the
// test process die without cleaning up (a -timeout panic).
func startSlurm(t testing.TB) *slurmCluster {
	t.Helper()
	for _, b := range slurmBinaries {
		if _, err := exec.LookPath(b); err != nil {
			t.Fatalf("%s is not installed: make test-slurm installs Debian's slurm-wlm and munge (.ci/install-slurm)", b)
		}
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Fatalf("GNU time is not installed: make test-slurm installs Debian's time (.ci/install-slurm)")
	}
	// Not t.TempDir: MUNGE's socket path must stay under the 108 bytes
	// of a Unix socket address, whatever the test's name.
	dir, err := os.MkdirTemp("", "trslurm")
	if err != nil {
		t.Fatal(err)
	}
	// Clients reach the socket through the folder.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	c := &slurmCluster{dir: dir, exit: make(chan struct{})}
	t.Cleanup(func() {
		c.stop(t)
		if !t.Failed() {
			os.RemoveAll(dir)
		} else {
			t.Logf("the cluster's files are kept in %s", dir)
		}
	})
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "SLURM_") {
			c.env = append(c.env, e)
		}
	}
	conf := filepath.Join(dir, "slurm.conf")
	c.env = append(c.env, "SLURM_CONF="+conf)

	key := make([]byte, 1024)
	rand.Read(key)
	if err := os.WriteFile(filepath.Join(dir, "munge.key"), key, 0o400); err != nil {
		t.Fatal(err)
	}
	socket := filepath.Join(dir, "munge.sock")
	c.start(t, "munged", "--foreground", "--force", "--socket="+socket,
		"--key-file="+filepath.Join(dir, "munge.key"), "--log-file="+filepath.Join(dir, "munged.log"),
		"--pid-file="+filepath.Join(dir, "munged.pid"), "--seed-file="+filepath.Join(dir, "munged.seed"))
	c.waitFor(t, 30*time.Second, "munged's socket", func() (bool, string) {
		_, err := os.Stat(socket)
		return err == nil, fmt.Sprint(err)
	})

	cpus, mem := nodeResources(t)
	ports := freePorts(t, 2)
	for _, d := range []string{"state", "spool"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(slurmConf, ports[0], ports[1], u.Username, socket, dir, cpus, mem)
	if err := os.WriteFile(conf, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	// -i: no saved state to recover, and none wanted.
	c.start(t, "slurmctld", "-D", "-i", "-f", conf)
	c.start(t, "slurmd", "-D", "-f", conf, "-N", "localhost")
	c.waitFor(t, 60*time.Second, "the node to be idle", func() (bool, string) {
		out, err := c.command(context.Background(), "sinfo", "--noheader", "--nodes=localhost", "--format=%t")
		s := strings.TrimSpace(out)
		return err == nil && s == "idle", s
	})
	return c
}

// slurmConf is the cluster's slurm.conf: ports, user, MUNGE socket,
// folder (state, spool, pid files, logs), the node's CPUs and memory (MB).
// The scheduler looks at pending jobs every second, so a dependent job
// starts soon after the jobs it waits for; a job's record stays 10
// minutes after it ends, for the test to read its state.
const slurmConf = `ClusterName=trainreport-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=%[1]d
SlurmdPort=%[2]d
SlurmUser=%[3]s
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=%[4]s
StateSaveLocation=%[5]s/state
SlurmdSpoolDir=%[5]s/spool
SlurmctldPidFile=%[5]s/slurmctld.pid
SlurmdPidFile=%[5]s/slurmd.pid
SlurmctldLogFile=%[5]s/slurmctld.log
SlurmdLogFile=%[5]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
MailProg=/bin/true
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,bf_interval=1
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=%[6]d RealMemory=%[7]d State=UNKNOWN
PartitionName=local Nodes=localhost Default=YES MaxTime=INFINITE State=UP
`

// nodeResources returns the CPUs and memory (MB) slurmd finds on this
// machine: a node configured with more would be drained.
func nodeResources(t testing.TB) (cpus, mem int) {
	t.Helper()
	out, err := exec.Command("slurmd", "-C").CombinedOutput()
	if err != nil {
		t.Fatalf("slurmd -C: %v\n%s", err, out)
	}
	c := regexp.MustCompile(`\bCPUs=(\d+)`).FindSubmatch(out)
	m := regexp.MustCompile(`\bRealMemory=(\d+)`).FindSubmatch(out)
	if c == nil || m == nil {
		t.Fatalf("slurmd -C: no CPUs or RealMemory in\n%s", out)
	}
	fmt.Sscan(string(c[1]), &cpus)
	fmt.Sscan(string(m[1]), &mem)
	return cpus, mem
}

// freePorts returns n TCP ports free on 127.0.0.1 now: held together so
// they differ, then released for the daemons.
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// start starts a daemon in the foreground, its output into NAME.out.
func (c *slurmCluster) start(t testing.TB, name string, args ...string) {
	t.Helper()
	out, err := os.Create(filepath.Join(c.dir, name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = c.dir, c.env, out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	d := &daemon{cmd: cmd, done: make(chan struct{})}
	go func() {
		d.err = cmd.Wait()
		close(d.done)
		c.exitOnce.Do(func() { close(c.exit) })
	}()
	c.daemons = append(c.daemons, d)
}

// waitFor polls ok until it holds, failing the test with the daemons'
// logs after timeout or as soon as a daemon has exited. What it waits for
// (a socket file, a node's state in sinfo) sends no event the test can
// wait on, so it looks again after pauses doubling from 10 ms to at most
// pollMax, and wakes at once when a daemon exits.
func (c *slurmCluster) waitFor(t testing.TB, timeout time.Duration, what string, ok func() (bool, string)) {
	t.Helper()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for wait := 10 * time.Millisecond; ; wait = min(2*wait, pollMax) {
		done, last := ok()
		if done {
			return
		}
		if err := c.exited(); err != nil {
			t.Fatalf("waiting for %s: %v\n%s", what, err, c.logs())
		}
		pause := time.NewTimer(wait)
		select {
		case <-pause.C:
		case <-c.exit:
			pause.Stop()
		case <-deadline.C:
			pause.Stop()
			if done, last = ok(); done {
				return
			}
			t.Fatalf("waited %v for %s (last: %s)\n%s", timeout, what, last, c.logs())
		}
	}
}

// pollMax bounds the pause between two looks at the cluster's state: each
// look runs a Slurm command (a process and an RPC to slurmctld), so the
// pauses grow, but a state that comes late is seen within pollMax.
const pollMax = 400 * time.Millisecond

// exited says which daemon has exited, if one has.
func (c *slurmCluster) exited() error {
	for _, d := range c.daemons {
		select {
		case <-d.done:
			return fmt.Errorf("%s exited: %v", filepath.Base(d.cmd.Path), d.err)
		default:
		}
	}
	return nil
}

// command runs a Slurm command against the cluster and returns its
// standard output; an error holds its standard error.
func (c *slurmCluster) command(ctx context.Context, name string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = c.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// logs returns the end of each daemon's log, for a failure message.
func (c *slurmCluster) logs() string {
	var b strings.Builder
	for _, name := range []string{"munged.out", "munged.log", "slurmctld.out", "slurmctld.log", "slurmd.out", "slurmd.log"} {
		data, err := os.ReadFile(filepath.Join(c.dir, name))
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		fmt.Fprintf(&b, "--- %s (last %d lines)\n%s\n", name, min(len(lines), 30), strings.Join(lines[max(0, len(lines)-30):], "\n"))
	}
	return b.String()
}

// stop cancels the cluster's jobs, waits (30 s at most) for them to end,
// and stops the daemons in the reverse order of their start.
func (c *slurmCluster) stop(t testing.TB) {
	if len(c.daemons) == 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if out, err := c.command(ctx, "squeue", "--noheader", "--format=%A"); err == nil && strings.TrimSpace(out) != "" {
			if _, err := c.command(ctx, "scancel", strings.Fields(out)...); err != nil {
				t.Log(err)
			}
			// Jobs ending send no event: look again after pauses
			// doubling up to pollMax, until the context's 30 s end.
			for wait := 10 * time.Millisecond; ctx.Err() == nil; wait = min(2*wait, pollMax) {
				out, err := c.command(ctx, "squeue", "--noheader", "--format=%A")
				if err != nil || strings.TrimSpace(out) == "" {
					break
				}
				select {
				case <-time.After(wait):
				case <-ctx.Done():
				}
			}
		}
	}
	for i := len(c.daemons) - 1; i >= 0; i-- {
		d := c.daemons[i]
		d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.done:
		case <-time.After(15 * time.Second):
			t.Logf("%s did not stop on SIGTERM in 15 s: killed", filepath.Base(d.cmd.Path))
			syscall.Kill(-d.cmd.Process.Pid, syscall.SIGKILL)
			<-d.done
		}
	}
	c.daemons = nil
}
