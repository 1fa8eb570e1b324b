//go:build slurm

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The Slurm integration test and benchmark (build tag slurm, run by
// `make test-slurm` and `make bench-slurm`): a sweep collected by a job
// array of examples/slurm/collect.sbatch and merged by a dependent
// examples/slurm/merge.sbatch, on a one-node cluster (slurmcluster_test.go),
// gives the report a direct build gives, byte for byte.

// slurmShards is the number of shards of the test and the benchmark.
const slurmShards = 8

// slurmWait bounds the wait for the jobs; below make test-slurm's
// -timeout, so a stuck job fails with the jobs' and daemons' logs.
const slurmWait = 10 * time.Minute

// TestSlurmArrayMergeEqualsDirectBuild runs the sbatch scripts users copy
// on a generated sweep of 400 runs: 8 array tasks, each writing its part,
// then the merge job once they all succeeded; the site, the single file
// and summary.md it writes are the direct build's, byte for byte, and the
// runs of the parts add up to the sweep's.
func TestSlurmArrayMergeEqualsDirectBuild(t *testing.T) {
	c := startSlurm(t)
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	logs := filepath.Join(dir, "sweep")
	synthSweep(t, logs, "-runs", "400", "-tags", "5", "-steps", "200")
	ctx, cancel := context.WithTimeout(context.Background(), slurmWait)
	defer cancel()

	s := runSlurmShards(t, ctx, c, bin, logs, filepath.Join(dir, "slurm"), slurmShards)
	for _, j := range s.jobs {
		if !strings.Contains(j.log, "trainreport ") || !strings.Contains(j.log, "peak RSS") {
			t.Errorf("job %s: its log has no line of trainreport or of /usr/bin/time:\n%s", j.id, j.log)
		}
	}
	runs := 0
	for i := range slurmShards {
		var m shardMarker
		b := readFile(t, filepath.Join(s.parts, fmt.Sprintf("part-%d", i), partMarker))
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		// 400 trials and the root, which holds the experiment.
		if m.Shard != i || m.Shards != slurmShards || m.Discovered != 401 {
			t.Errorf("part-%d: shard %d/%d of %d runs discovered, want %d/%d of 401", i, m.Shard, m.Shards, m.Discovered, i, slurmShards)
		}
		if m.Runs == 0 || m.Runs > 100 {
			t.Errorf("part-%d holds %d runs of 401: the shards are not spread", i, m.Runs)
		}
		runs += m.Runs
	}
	if runs != 401 {
		t.Errorf("the parts hold %d runs, want the sweep's 401", runs)
	}
	t.Logf("%d jobs COMPLETED in %.1f s from the array's submission; %s", len(s.jobs), s.wall.Seconds(), s.jobs[len(s.jobs)-1].usage)

	d := directBuild(t, ctx, bin, logs, filepath.Join(dir, "direct"))
	compareMergedReport(t, d, s.report)
}

// TestSlurmFailedShardCancelsMerge checks what the scripts do when a
// task fails (its part's folder is taken by another folder, which collect
// refuses to replace): the other tasks complete, the merge job is
// cancelled rather than left pending forever, no report is written, and
// the failed task's log says why. Then, the folder moved away, the failed
// shard alone run again as docs/SHARDS.md says (TRAINREPORT_SHARDS=4,
// --array=2) and the merge after it give the direct build's report.
func TestSlurmFailedShardCancelsMerge(t *testing.T) {
	c := startSlurm(t)
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	logs := filepath.Join(dir, "sweep")
	synthSweep(t, logs, "-runs", "20", "-tags", "2", "-steps", "50")
	ctx, cancel := context.WithTimeout(context.Background(), slurmWait)
	defer cancel()
	jobs := filepath.Join(dir, "slurm")
	taken := filepath.Join(jobs, "parts", "part-2")
	if err := os.MkdirAll(taken, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(taken, "notes.txt"), []byte("not a part"), 0o644); err != nil {
		t.Fatal(err)
	}

	s := submitShards(t, ctx, c, bin, logs, jobs, "0-3")
	if len(s.jobs) != 5 {
		t.Fatalf("want 4 tasks and a merge, got %s", s.states())
	}
	for i, j := range s.jobs {
		want := "COMPLETED"
		switch i {
		case 2:
			want = "FAILED"
			if !strings.Contains(j.log, "part-2") || !strings.Contains(j.log, "trainreport collect:") {
				t.Errorf("the failed task's log does not say why:\n%s", j.log)
			}
		case 4:
			want = "CANCELLED"
		}
		if j.state != want {
			t.Errorf("job %s is %s, want %s\n%s", j.id, j.state, want, j.log)
		}
	}
	if _, err := os.Stat(s.report.site); !os.IsNotExist(err) {
		t.Errorf("a report was written: %v", err)
	}
	if b := readFile(t, filepath.Join(taken, "notes.txt")); string(b) != "not a part" {
		t.Errorf("the folder in the part's place was changed")
	}
	if t.Failed() {
		return
	}

	if err := os.Rename(taken, filepath.Join(dir, "notes")); err != nil {
		t.Fatal(err)
	}
	s = submitShards(t, ctx, c, bin, logs, jobs, "2", "TRAINREPORT_SHARDS=4")
	if len(s.jobs) != 2 || s.jobs[0].state != "COMPLETED" || s.jobs[1].state != "COMPLETED" {
		t.Fatalf("shard 2 again, then the merge: want both COMPLETED, got %s\n%s", s.states(), jobLogs(jobs))
	}
	compareMergedReport(t, directBuild(t, ctx, bin, logs, filepath.Join(dir, "direct")), s.report)
}

// BenchmarkSlurmShards measures a sweep collected in 8 shards by a Slurm
// job array and merged by a dependent job, against a direct build, every
// command under /usr/bin/time: wall seconds and peak resident memory of
// the direct build, of each collect task (the largest reported) and of the
// merge, and the wall time from the array's submission to the merge's end
// (the node runs as many tasks at once as it has CPUs). The sweep is
// $TRAINREPORT_SLURM_SWEEP, or one of 400 runs x 5 tags x 200 steps
// generated for it; the reports must be byte-identical. Run it once:
//
//	go run ./examples/synth -sweep -runs 2000 -tags 5 -steps 1000 -o /tmp/sw2k
//	TRAINREPORT_SLURM_SWEEP=/tmp/sw2k make bench-slurm
func BenchmarkSlurmShards(b *testing.B) {
	c := startSlurm(b)
	dir := b.TempDir()
	bin := buildBinary(b, dir)
	logs := os.Getenv("TRAINREPORT_SLURM_SWEEP")
	if logs == "" {
		logs = filepath.Join(dir, "sweep")
		synthSweep(b, logs, "-runs", "400", "-tags", "5", "-steps", "200")
	}
	for i := 0; b.Loop(); i++ {
		ctx, cancel := context.WithTimeout(context.Background(), slurmWait)
		d := directBuild(b, ctx, bin, logs, filepath.Join(dir, fmt.Sprintf("direct%d", i)))
		s := runSlurmShards(b, ctx, c, bin, logs, filepath.Join(dir, fmt.Sprintf("slurm%d", i)), slurmShards)
		cancel()
		compareMergedReport(b, d, s.report)
		var collectWall, collectRSS float64
		for _, j := range s.jobs {
			b.Logf("job %s: %s", j.id, j.usage)
			if strings.Contains(j.usage, "collect") {
				collectWall, collectRSS = max(collectWall, j.wall), max(collectRSS, j.peakMB)
			}
		}
		m := s.jobs[len(s.jobs)-1]
		first, last := s.jobs[0].start, s.jobs[0].end
		for _, j := range s.jobs[:len(s.jobs)-1] {
			if j.start.Before(first) {
				first = j.start
			}
			if j.end.After(last) {
				last = j.end
			}
		}
		b.Logf("direct build: %.2f s, %.0f MiB peak RSS; slurm: %.2f s from submission to merge end: "+
			"the array's tasks from %s to %s (%v), the merge from %s to %s", d.wall, d.peakMB, s.wall.Seconds(),
			first.Format(time.TimeOnly), last.Format(time.TimeOnly), last.Sub(first), m.start.Format(time.TimeOnly), m.end.Format(time.TimeOnly))
		b.ReportMetric(d.wall, "direct-s")
		b.ReportMetric(d.peakMB, "direct-MiB")
		b.ReportMetric(s.wall.Seconds(), "slurm-s")
		b.ReportMetric(collectWall, "max-collect-s")
		b.ReportMetric(collectRSS, "max-collect-MiB")
		b.ReportMetric(m.wall, "merge-s")
		b.ReportMetric(m.peakMB, "merge-MiB")
		os.RemoveAll(filepath.Join(dir, fmt.Sprintf("direct%d", i)))
		os.RemoveAll(filepath.Join(dir, fmt.Sprintf("slurm%d", i)))
	}
}

// buildBinary builds trainreport into dir, for the jobs to run.
func buildBinary(t testing.TB, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "trainreport")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/trainreport")
	cmd.Dir = repoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// synthSweep writes a sweep with examples/synth -sweep into out.
func synthSweep(t testing.TB, out string, args ...string) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"run", "./examples/synth", "-sweep", "-o", out}, args...)...)
	cmd.Dir = repoRoot(t)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("examples/synth: %v\n%s", err, b)
	}
}

// report is where a report was written: its site, single file and
// summary.md, with the same names beside each other in every folder (the
// markdown links the charts by their path from it).
type report struct {
	site, single, markdown string
	wall, peakMB           float64 // of the command that wrote it (s, MiB), from /usr/bin/time
}

func reportIn(dir string) report {
	return report{site: filepath.Join(dir, "report"), single: filepath.Join(dir, "report.html"), markdown: filepath.Join(dir, "report.md")}
}

// flags are the report flags writing r.
func (r report) flags() []string {
	return []string{"--single-file", r.single, "--markdown", r.markdown}
}

// usageLine is the line /usr/bin/time -f adds to a job log (the sbatch
// scripts' format) or to the direct build's output (timeFormat).
var usageLine = regexp.MustCompile(`(?m)^trainreport (collect|merge|build)[^\n]*?([0-9.]+) s wall, ([0-9]+) KB peak RSS$`)

const timeFormat = "trainreport build: %e s wall, %M KB peak RSS"

// directBuild builds the report of logs into dir, as the jobs' binary.
func directBuild(t testing.TB, ctx context.Context, bin, logs, dir string) report {
	t.Helper()
	r := reportIn(dir)
	args := append([]string{"-f", timeFormat, bin, "--quiet", "-o", r.site}, r.flags()...)
	cmd := exec.CommandContext(ctx, "/usr/bin/time", append(args, logs)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("direct build: %v\n%s", err, out)
	}
	m := usageLine.FindSubmatch(out)
	if m == nil {
		t.Fatalf("direct build: no line of /usr/bin/time in\n%s", out)
	}
	r.wall, _ = strconv.ParseFloat(string(m[2]), 64)
	kb, _ := strconv.ParseFloat(string(m[3]), 64)
	r.peakMB = kb / 1024
	return r
}

// slurmRun is what runSlurmShards leaves: the parts, the merged report,
// the jobs (the array's tasks in order, then the merge) and the wall time
// from submitting the array to seeing the merge end.
type slurmRun struct {
	parts  string
	report report
	jobs   []slurmJob
	wall   time.Duration
}

// slurmJob is a job, or a task of an array, once ended.
type slurmJob struct {
	id, state  string
	start, end time.Time // Slurm's, to the second
	log        string    // its output file
	usage      string    // its /usr/bin/time line
	wall       float64   // seconds, from usage
	peakMB     float64   // peak resident memory (MiB), from usage
}

// runSlurmShards submits examples/slurm/collect.sbatch as an array of n
// tasks over logs and examples/slurm/merge.sbatch after it, from dir (the
// job logs land there), waits for them (until ctx is done), and fails
// with every job's state and log, and the daemons' logs, unless each
// completed.
func runSlurmShards(t testing.TB, ctx context.Context, c *slurmCluster, bin, logs, dir string, n int) slurmRun {
	t.Helper()
	s := submitShards(t, ctx, c, bin, logs, dir, fmt.Sprintf("0-%d", n-1))
	failed := len(s.jobs) != n+1
	for _, j := range s.jobs {
		failed = failed || j.state != "COMPLETED"
	}
	if failed {
		t.Fatalf("want %d collect tasks and a merge, all COMPLETED; got %s\n%s\n%s", n, s.states(), jobLogs(dir), c.logs())
	}
	return s
}

// submitShards submits the jobs as runSlurmShards does, the collect tasks
// of the array given (sbatch's --array), with the variables env added to
// the jobs' environment, and waits for the merge job to end (or to be
// cancelled), whatever the collect tasks did.
func submitShards(t testing.TB, ctx context.Context, c *slurmCluster, bin, logs, dir, tasks string, env ...string) slurmRun {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	scripts := filepath.Join(repoRoot(t), "examples", "slurm")
	s := slurmRun{parts: filepath.Join(dir, "parts"), report: reportIn(dir)}
	// The logs lie outside the folder the jobs run in: the parts name them
	// below their parent, given to both scripts as sbatch hands the
	// submitting shell's environment on.
	env = append(append(slices.Clip(c.env), "TRAINREPORT="+bin, "TRAINREPORT_ROOT="+filepath.Dir(logs)), env...)
	sbatch := func(args ...string) string {
		cmd := exec.CommandContext(ctx, "sbatch", append([]string{"--parsable"}, args...)...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("sbatch %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	start := time.Now()
	array := sbatch("--array="+tasks, filepath.Join(scripts, "collect.sbatch"), s.parts, logs)
	// merge.sbatch hands the arguments after REPORT to merge.
	merge := sbatch(append([]string{"--dependency=afterok:" + array, filepath.Join(scripts, "merge.sbatch"), s.parts, s.report.site}, s.report.flags()...)...)
	var states map[string]map[string]string
	// A job's end sends no event the test can wait on: look again after
	// pauses doubling from 10 ms to pollMax, until ctx ends.
	for wait := 10 * time.Millisecond; ; wait = min(2*wait, pollMax) {
		var err error
		states, err = jobStates(ctx, c, array, merge)
		if err != nil {
			t.Fatalf("%v\n%s", err, c.logs())
		}
		if _, ok := terminalStates[states[merge]["JobState"]]; ok {
			break
		}
		if err := c.exited(); err != nil {
			t.Fatalf("%v\n%s", err, c.logs())
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the jobs did not end in %v: %v\n%s\n%s", slurmWait, states, jobLogs(dir), c.logs())
		case <-time.After(wait):
		}
	}
	s.wall = time.Since(start)
	ids := make([]string, 0, len(states))
	for id := range states {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return jobOrder(ids[i]) < jobOrder(ids[j]) })
	for _, id := range ids {
		f := states[id]
		j := slurmJob{id: id, state: f["JobState"]}
		// Unknown or None when the job never started.
		j.start, _ = time.ParseInLocation("2006-01-02T15:04:05", f["StartTime"], time.Local)
		j.end, _ = time.ParseInLocation("2006-01-02T15:04:05", f["EndTime"], time.Local)
		name := "trainreport-merge-" + id + ".out"
		if a, task, ok := strings.Cut(id, "_"); ok {
			name = "trainreport-collect-" + a + "_" + task + ".out"
		}
		if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
			j.log = string(b)
		}
		if m := usageLine.FindStringSubmatch(j.log); m != nil {
			j.usage = m[0]
			j.wall, _ = strconv.ParseFloat(m[2], 64)
			kb, _ := strconv.ParseFloat(m[3], 64)
			j.peakMB = kb / 1024
		}
		s.jobs = append(s.jobs, j)
	}
	return s
}

// states lists the jobs' IDs and states.
func (s slurmRun) states() string {
	var b strings.Builder
	for _, j := range s.jobs {
		fmt.Fprintf(&b, " %s=%s", j.id, j.state)
	}
	return strings.TrimSpace(b.String())
}

// terminalStates are the states of a job that has ended.
var terminalStates = map[string]struct{}{
	"COMPLETED": {}, "FAILED": {}, "CANCELLED": {}, "TIMEOUT": {}, "NODE_FAIL": {},
	"OUT_OF_MEMORY": {}, "PREEMPTED": {}, "BOOT_FAIL": {}, "DEADLINE": {},
}

// jobStates returns the fields scontrol shows of each task of the array
// and of the merge job (JobState, StartTime, ...), by ID (ARRAY_TASK for
// a task).
func jobStates(ctx context.Context, c *slurmCluster, array, merge string) (map[string]map[string]string, error) {
	states := map[string]map[string]string{}
	for _, id := range []string{array, merge} {
		out, err := c.command(ctx, "scontrol", "--oneliner", "show", "job", id)
		if err != nil {
			return nil, err
		}
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			f := map[string]string{}
			for _, kv := range strings.Fields(line) {
				if k, v, ok := strings.Cut(kv, "="); ok {
					f[k] = v
				}
			}
			key := f["JobId"]
			if t := f["ArrayTaskId"]; t != "" && f["ArrayJobId"] != "" {
				// A pending array shows as one record of its tasks' range.
				key = f["ArrayJobId"] + "_" + t
			}
			states[key] = f
		}
	}
	return states, nil
}

// jobOrder sorts the array's tasks by index, then the merge.
func jobOrder(id string) int {
	if _, task, ok := strings.Cut(id, "_"); ok {
		n, err := strconv.Atoi(task)
		if err == nil {
			return n
		}
	}
	return 1 << 30
}

// jobLogs returns every job log in dir, for a failure message.
func jobLogs(dir string) string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(dir, "trainreport-*.out"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		fmt.Fprintf(&b, "--- %s\n%s\n", filepath.Base(f), bytes.TrimSpace(data))
	}
	if len(files) == 0 {
		b.WriteString("(no job log)\n")
	}
	return b.String()
}

// compareMergedReport fails unless got is byte for byte want: every file of
// the site, the single file and summary.md.
func compareMergedReport(t testing.TB, want, got report) {
	t.Helper()
	w, g := siteFiles(t, want.site), siteFiles(t, got.site)
	if len(g) != len(w) {
		t.Errorf("%d files in the merged site, %d in the direct one", len(g), len(w))
	}
	for name, b := range w {
		if gb, ok := g[name]; !ok {
			t.Errorf("%s missing from the merged site", name)
		} else if !bytes.Equal(gb, b) {
			t.Errorf("%s differs from the direct build's", name)
		}
	}
	for _, f := range [][2]string{{want.single, got.single}, {want.markdown, got.markdown}} {
		if !bytes.Equal(readFile(t, f[0]), readFile(t, f[1])) {
			t.Errorf("%s differs from %s", f[1], f[0])
		}
	}
	if !t.Failed() {
		t.Logf("merged report = direct build: %d files of the site, the single file and summary.md byte for byte", len(w))
	}
}
