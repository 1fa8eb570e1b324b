package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"
)

// sweepLogs writes a sweep of runs trials of tags scalar tags of steps
// steps each, in folder dir/sweep, and returns it.
func sweepLogs(t *testing.T, dir string, runs, tags, steps int) string {
	t.Helper()
	logdir := filepath.Join(dir, "sweep")
	for r := range runs {
		events := []*eventpb.Event{{WallTime: 1.7e9, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}}}
		for s := range steps {
			vals := make([]*eventpb.SummaryValue, tags)
			for k := range vals {
				v := math.Exp(-float64(s)/float64(steps)*float64(1+r%7)) + float64((s*31+r*17+k*7)%101)/1000
				vals[k] = simpleValue(fmt.Sprintf("metric%d", k), float32(v))
			}
			events = append(events, summaryEvent(int64(s), 0, vals...))
		}
		writeEventFile(t, filepath.Join(logdir, fmt.Sprintf("trial_%d", r), "events.out.tfevents.1.host"), events)
	}
	return logdir
}

// mergePeakEnv holds the arguments of TestMergePeakChild's merge.
const mergePeakEnv = "TRAINREPORT_TEST_MERGE_PEAK_ARGS"

// TestMergePeakChild is mergePeak's child: it runs merge with the
// arguments in mergePeakEnv and prints its process's peak resident
// memory (VmHWM); it is skipped otherwise.
func TestMergePeakChild(t *testing.T) {
	js, ok := os.LookupEnv(mergePeakEnv)
	if !ok {
		t.Skip("runs in mergePeak's child processes only")
	}
	var args []string
	if err := json.Unmarshal([]byte(js), &args); err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	if code := runMerge(t.Context(), args, io.Discard, &stderr); code != 0 {
		t.Fatalf("merge: exit status %d\n%s", code, stderr.String())
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status here")
	}
	for line := range strings.Lines(string(status)) {
		if strings.HasPrefix(line, "VmHWM:") {
			fmt.Print("peak " + strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:")) + "\n")
		}
	}
}

// mergePeak runs `trainreport merge` of parts into out in a process of
// its own (the test binary as TestMergePeakChild) and returns its peak
// resident memory, in bytes. The peak is the child's VmHWM, that of its
// own memory since it started: its rusage's ru_maxrss would not do, as
// Linux counts in it the memory of the process it was started from (a
// test binary that collected the parts), shared until its exec.
func mergePeak(t *testing.T, out string, parts []string) int64 {
	t.Helper()
	args := append([]string{"--quiet", "--root", testRoot, "-o", out}, parts...)
	js, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMergePeakChild$", "-test.v")
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "GOGC" && k != "GOMEMLIMIT" {
			env = append(env, kv)
		}
	}
	// The command's own target (GOGC unset: writeReport's 25%), which
	// the test binary's TestMain would otherwise set to 100%.
	cmd.Env = append(env, mergePeakEnv+"="+string(js), "GOGC=25")
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("merge: %v\n%s", err, b)
	}
	for line := range strings.Lines(string(b)) {
		var kb int64
		if _, err := fmt.Sscanf(line, "peak %d kB", &kb); err == nil {
			return kb * 1024
		}
	}
	t.Skipf("the merge's child did not say its peak (no /proc here?):\n%s", b)
	return 0
}

// TestMergeMemoryStaysFlat checks that a merge's peak memory does not
// grow with the points of its parts: the parts of a sweep of 2R runs
// (4 parts) merge within a stated margin of the parts of R runs (2
// parts), of the same shape, though they hold twice the points. A merge
// holding every point, as merge did before it read its parts a run at a
// time, grows by their bytes (24 per point, and more with the garbage
// collector's headroom), which the test checks is several times the
// margin. What may grow with the runs is their summaries: each run
// without its points, each series' values at its band's steps (at most
// analysis.DefaultMaxPoints of them, 4 bytes each) and what its pages
// list; the points drawn share the pages' budget, whatever the runs.
// Both sweeps are past the 100 runs whose every line the scalars page
// draws (render's sweepPageRuns), so both reports draw the same things,
// bands and extremes: at 100 runs against 200, the smaller kept every
// series' drawn points and the larger did not, which hid any growth
// behind the difference.
func TestMergeMemoryStaysFlat(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes and merges 7.2 M scalar points")
	}
	const runs, tags, steps = 120, 5, 4000
	measure := func(runs, shards int) int64 {
		dir := t.TempDir()
		logdir := sweepLogs(t, dir, runs, tags, steps)
		parts := collectShards(t, dir, shards, []string{logdir})
		peak := int64(math.MaxInt64)
		for i := range 2 { // the lower of two: a collection's timing moves a peak
			peak = min(peak, mergePeak(t, filepath.Join(dir, fmt.Sprintf("report%d", i)), parts))
		}
		return peak
	}
	start := time.Now()
	small := measure(runs, 2)
	large := measure(2*runs, 4)
	// The margin: a tenth of the smaller peak, plus the larger sweep's
	// band values and its pages' lists (a MB per hundred runs, above).
	margin := small/10 + int64(runs)*tags*min(steps, 2000)*4 + 1<<20
	points := int64(runs) * tags * steps * 24 // the points the larger holds more
	t.Logf("merge peaks: %d runs in 2 parts %.1f MB, %d runs in 4 parts %.1f MB (margin %.1f MB; %.1f MB more points; %.0fs)",
		runs, float64(small)/1e6, 2*runs, float64(large)/1e6, float64(margin)/1e6, float64(points)/1e6, time.Since(start).Seconds())
	if points < 3*margin {
		t.Fatalf("the test cannot tell: %.1f MB more points against a margin of %.1f MB", float64(points)/1e6, float64(margin)/1e6)
	}
	if large > small+margin {
		t.Errorf("merging twice the runs in twice the parts peaked at %.1f MB, against %.1f MB: more than the margin of %.1f MB",
			float64(large)/1e6, float64(small)/1e6, float64(margin)/1e6)
	}
}

// TestMergeRefusesAPartChangedBetweenItsPasses changes a part after
// merge's first pass read it (a byte of a point, which decodes, and the
// file cut short, which does not) and checks that the second pass
// refuses it, naming the part, and that nothing is published: the site
// is written in a temporary folder, which is removed.
func TestMergeRefusesAPartChangedBetweenItsPasses(t *testing.T) {
	dir := t.TempDir()
	logdir := sweepLogs(t, dir, 6, 2, 300)
	for _, change := range []string{"a byte", "cut short"} {
		t.Run(change, func(t *testing.T) {
			parts := collectShards(t, filepath.Join(dir, change), 2, []string{logdir})
			markers := make([]*shardMarker, len(parts))
			for k, p := range parts {
				m, err := readMarker(t.Context(), p)
				if err != nil {
					t.Fatal(err)
				}
				markers[k] = m
			}
			rep, shapes, err := scanParts(t.Context(), parts, markers, func(string) (model.Source, error) { return nil, nil })
			if err != nil {
				t.Fatal(err)
			}
			defer rep.Close()
			bin := filepath.Join(parts[1], partModel)
			b, err := os.ReadFile(bin)
			if err != nil {
				t.Fatal(err)
			}
			switch change {
			case "a byte":
				b[len(b)/2] ^= 0x10
			default:
				b = b[:len(b)/2]
			}
			if err := os.WriteFile(bin, b, 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, change, "report")
			c, _, err := parseArgs([]string{"--quiet", "-o", out, logdir}, io.Discard, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			points := &partRuns{ctx: t.Context(), parts: parts, markers: markers, rep: rep, shapes: shapes}
			err = writeReport(t.Context(), c, rep, "t", nil, points, time.Now(), io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), "part "+parts[1]+": model.bin changed while merge read it") {
				t.Fatalf("a part changed between the passes: %v", err)
			}
			entries, err := os.ReadDir(filepath.Dir(out))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if !strings.HasPrefix(e.Name(), "part-") {
					t.Errorf("%s left beside the parts", e.Name())
				}
			}
		})
	}
}
