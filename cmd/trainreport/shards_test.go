package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// runCmd runs one subcommand of trainreport (run for the report itself)
// and returns its status and stderr.
func runCmd(t *testing.T, cmd string, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	var code int
	switch cmd {
	case "collect":
		code = runCollect(context.Background(), args, io.Discard, &stderr)
	case "merge":
		code = runMerge(context.Background(), args, io.Discard, &stderr)
	default:
		code = run(context.Background(), args, io.Discard, &stderr)
	}
	return code, stderr.String()
}

// collectShards writes the n parts of logdirs into dir and returns their
// folders, the collect flags extra given to each.
func collectShards(t *testing.T, dir string, n int, logdirs []string, extra ...string) []string {
	t.Helper()
	var parts []string
	for i := range n {
		part := filepath.Join(dir, fmt.Sprintf("part-%d", i))
		args := append([]string{"--quiet", "--shard", fmt.Sprintf("%d/%d", i, n), "-o", part}, extra...)
		if code, stderr := runCmd(t, "collect", append(args, logdirs...)...); code != 0 {
			t.Fatalf("collect %v: exit status %d\n%s", args, code, stderr)
		}
		parts = append(parts, part)
	}
	return parts
}

// TestMergedShardsEqualDirectBuild is the promise of sharding: the report
// merged from N parts is, byte for byte, the one built directly (every
// file of the site, and the single file), for one shard, some, and more
// shards than runs (shards without a run), on the demo, corpus folders
// (images read back from the logs at merge, hyperparameters joined across
// shards) and two log directories at once.
func TestMergedShardsEqualDirectBuild(t *testing.T) {
	demo := demoLogs(t)
	inputs := []struct {
		name    string
		logdirs []string
	}{
		{"demo", []string{demo}},
		{"lightning-tbx-sweep", []string{sharedCorpus(t, "lightning-tbx-sweep")}},
		{"keras-tf22-images", []string{sharedCorpus(t, "keras-tf22-images")}},
		{"tf2-hparams-keras", []string{sharedCorpus(t, "tf2-hparams-keras")}},
		{"two-logdirs", []string{"demo=" + demo, "sweep=" + sharedCorpus(t, "lightning-tbx-sweep")}},
	}
	for _, in := range inputs {
		t.Run(in.name, func(t *testing.T) {
			dir := t.TempDir()
			// The same names beside each other as below: summary.md links
			// the charts by their path from it.
			direct, single, md := filepath.Join(dir, "d", "report"), filepath.Join(dir, "d", "report.html"), filepath.Join(dir, "d", "report.md")
			args := append([]string{"--quiet", "-o", direct, "--single-file", single, "--markdown", md}, in.logdirs...)
			if code, stderr := runCmd(t, "", args...); code != 0 {
				t.Fatalf("direct build: exit status %d\n%s", code, stderr)
			}
			want := siteFiles(t, direct)
			runs := len(collectReport(t, strings.TrimPrefix(in.logdirs[0], "demo=")).Runs)
			for _, n := range []int{1, 3, runs + 3} {
				sdir := filepath.Join(dir, fmt.Sprintf("n%d", n))
				parts := collectShards(t, sdir, n, in.logdirs)
				merged, msingle, mmd := filepath.Join(sdir, "report"), filepath.Join(sdir, "report.html"), filepath.Join(sdir, "report.md")
				margs := append([]string{"--quiet", "-o", merged, "--single-file", msingle, "--markdown", mmd}, parts...)
				if code, stderr := runCmd(t, "merge", margs...); code != 0 {
					t.Fatalf("merge of %d: exit status %d\n%s", n, code, stderr)
				}
				got := siteFiles(t, merged)
				if len(got) != len(want) {
					t.Errorf("%d shards: %d files in the merged site, %d in the direct one", n, len(got), len(want))
				}
				for name, b := range want {
					if g, ok := got[name]; !ok {
						t.Errorf("%d shards: %s missing from the merged site", n, name)
					} else if !bytes.Equal(g, b) {
						t.Errorf("%d shards: %s differs from the direct build's", n, name)
					}
				}
				for _, f := range [][2]string{{single, msingle}, {md, mmd}} {
					if !bytes.Equal(readFile(t, f[0]), readFile(t, f[1])) {
						t.Errorf("%d shards: %s differs from %s", n, f[1], f[0])
					}
				}
			}
		})
	}
}

// siteFiles returns every file of a site by its path in it.
func siteFiles(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel] = readFile(t, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 5 {
		t.Fatalf("%s holds %d files: not a site", dir, len(out))
	}
	return out
}

func readFile(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestShardAssignmentIsStable checks that a run's shard depends on the run
// alone: collected again with a run added, every shard keeps its runs and
// the new run lands in one shard, and every run is in exactly one shard.
func TestShardAssignmentIsStable(t *testing.T) {
	logs := filepath.Join(t.TempDir(), "logs")
	for i := range 12 {
		writeScalarLog(t, logs, fmt.Sprintf("run%02d", i), "loss")
	}
	const n = 4
	before := shardRuns(t, collectShards(t, t.TempDir(), n, []string{logs}))
	writeScalarLog(t, logs, "run-added", "loss")
	after := shardRuns(t, collectShards(t, t.TempDir(), n, []string{logs}))
	seen := map[string]int{}
	for i := range n {
		for _, r := range after[i] {
			seen[r]++
		}
		var without []string
		for _, r := range after[i] {
			if r != "run-added" {
				without = append(without, r)
			}
		}
		if strings.Join(without, ",") != strings.Join(before[i], ",") {
			t.Errorf("shard %d: runs %v before the run was added, %v after", i, before[i], after[i])
		}
	}
	if len(seen) != 13 {
		t.Errorf("%d runs across the shards, want 13", len(seen))
	}
	for r, k := range seen {
		if k != 1 {
			t.Errorf("run %s is in %d shards", r, k)
		}
	}
	spread := 0
	for i := range n {
		if len(before[i]) > 0 {
			spread++
		}
	}
	if spread < 3 {
		t.Errorf("12 runs fell into %d of 4 shards: %v", spread, before)
	}
}

// shardRuns returns the runs each part holds, read as merge reads them.
func shardRuns(t *testing.T, parts []string) [][]string {
	t.Helper()
	var out [][]string
	for _, p := range parts {
		m, err := readMarker(t.Context(), p)
		if err != nil {
			t.Fatal(err)
		}
		abs := map[string]string{}
		for _, l := range m.Logdirs {
			abs[l.Name] = l.Abs
		}
		rep, err := readPart(t.Context(), p, m, abs)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range rep.Runs {
			names = append(names, r.Name)
		}
		rep.Close()
		out = append(out, names)
	}
	return out
}

// TestMergeRefusals checks that merge refuses what is not the complete set
// of parts of one collection, naming the part, and writes nothing.
func TestMergeRefusals(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	other := filepath.Join(dir, "other")
	for i := range 6 {
		writeScalarLog(t, logs, fmt.Sprintf("run%d", i), "loss")
		writeScalarLog(t, other, fmt.Sprintf("run%d", i), "loss")
	}
	three := collectShards(t, filepath.Join(dir, "three"), 3, []string{logs})
	two := collectShards(t, filepath.Join(dir, "two"), 2, []string{logs})
	otherLogs := collectShards(t, filepath.Join(dir, "other3"), 3, []string{other})
	keepAll := collectShards(t, filepath.Join(dir, "keepall"), 3, []string{logs}, "--keep-all-records")

	unfinished := filepath.Join(dir, "unfinished")
	if err := os.MkdirAll(unfinished, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(unfinished, partModel), readFile(t, filepath.Join(three[2], partModel)), 0o644)
	changed := filepath.Join(dir, "changed")
	os.MkdirAll(changed, 0o755)
	os.WriteFile(filepath.Join(changed, partMarker), readFile(t, filepath.Join(three[2], partMarker)), 0o644)
	os.WriteFile(filepath.Join(changed, partModel), readFile(t, filepath.Join(otherLogs[2], partModel)), 0o644)
	garbled := filepath.Join(dir, "garbled")
	os.MkdirAll(garbled, 0o755)
	os.WriteFile(filepath.Join(garbled, partMarker), []byte(`{"format":"trainreport-shard","version":1,"shard":5,"shards":3}`), 0o644)

	// A part is read like a log: a link or a FIFO in place of its files
	// is refused, not followed or waited on.
	linked := filepath.Join(dir, "linked")
	os.MkdirAll(linked, 0o755)
	os.Symlink(filepath.Join(three[2], partMarker), filepath.Join(linked, partMarker))
	os.Symlink(filepath.Join(three[2], partModel), filepath.Join(linked, partModel))
	fifo := filepath.Join(dir, "fifo")
	os.MkdirAll(fifo, 0o755)
	if err := syscall.Mkfifo(filepath.Join(fifo, partMarker), 0o644); err != nil {
		t.Fatal(err)
	}
	fifoModel := filepath.Join(dir, "fifomodel")
	os.MkdirAll(fifoModel, 0o755)
	os.WriteFile(filepath.Join(fifoModel, partMarker), readFile(t, filepath.Join(three[2], partMarker)), 0o644)
	if err := syscall.Mkfifo(filepath.Join(fifoModel, partModel), 0o644); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name  string
		parts []string
		flags []string
		want  string
	}{
		{"marker is a link", []string{three[0], three[1], linked}, nil, "part " + linked + ": shard.json: not a regular file"},
		{"marker is a FIFO", []string{three[0], three[1], fifo}, nil, "part " + fifo + ": shard.json: not a regular file"},
		{"model is a FIFO", []string{three[0], three[1], fifoModel}, nil, "part " + fifoModel + ": model.bin: not a regular file"},
		{"missing shard", three[:2], nil, "2 of 3 shards given: shard 2 missing"},
		{"duplicated shard", []string{three[0], three[1], three[1], three[2]}, nil, "parts " + three[1] + " and " + three[1] + " are both shard 1/3"},
		{"other N", []string{three[0], three[1], three[2], two[1]}, nil, "part " + two[1] + " is a shard of 2, part " + three[0] + " of 3"},
		{"other logs", []string{three[0], three[1], otherLogs[2]}, nil, "part " + otherLogs[2] + " was collected from other log directories"},
		{"other collect flags", []string{three[0], three[1], keepAll[2]}, nil, "part " + keepAll[2] + " was collected from other log directories, runs or collect flags"},
		{"no marker", []string{three[0], three[1], unfinished}, nil, "part " + unfinished + " has no shard.json: its collect did not finish"},
		{"not a part", []string{three[0], three[1], logs}, nil, "part " + logs + ": no shard.json, not a part"},
		{"model changed", []string{three[0], three[1], changed}, nil, "part " + changed + ": model.bin does not match the hash"},
		{"marker out of range", []string{three[0], three[1], garbled}, nil, "part " + garbled + ": shard 5/3 is out of range"},
		{"collect flag at merge", three, []string{"--keep-all-records"}, "--keep-all-records and --restarts are collect's flags"},
		{"output is a part", three, []string{"-o", three[0]}, "would replace"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report")
			args := append([]string{"-o", out}, c.flags...)
			code, stderr := runCmd(t, "merge", append(args, c.parts...)...)
			if code == 0 || !strings.Contains(stderr, c.want) {
				t.Errorf("merge: exit status %d, stderr %q, want an error holding %q", code, stderr, c.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("merge wrote %s", out)
			}
		})
	}

	// The logs must stay where collect read them: the payloads are read
	// from them, and merge says so rather than writing a report without.
	moved := filepath.Join(dir, "moved")
	if err := os.Rename(logs, moved); err != nil {
		t.Fatal(err)
	}
	code, stderr := runCmd(t, "merge", append([]string{"-o", filepath.Join(dir, "report")}, three...)...)
	if code == 0 || !strings.Contains(stderr, "the logs must be readable at the path collect read them from") {
		t.Errorf("merge with the logs moved: exit status %d, stderr %q", code, stderr)
	}
}

// TestCollectShardRefusals checks collect's usage errors.
func TestCollectShardRefusals(t *testing.T) {
	logs := filepath.Join(t.TempDir(), "logs")
	writeScalarLog(t, logs, "run", "loss")
	out := filepath.Join(t.TempDir(), "part")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-o", out, logs}, "--shard I/N is required"},
		{[]string{"--shard", "3/3", "-o", out, logs}, `--shard "3/3": want I/N`},
		{[]string{"--shard", "-1/3", "-o", out, logs}, `--shard "-1/3"`},
		{[]string{"--shard", "0/0", "-o", out, logs}, `--shard "0/0"`},
		{[]string{"--shard", "a/b", "-o", out, logs}, `--shard "a/b"`},
		{[]string{"--shard", "1", "-o", out, logs}, `--shard "1"`},
		{[]string{"--shard", "0/2", logs}, "-o PART is required"},
		{[]string{"--shard", "0/2", "-o", out}, "no log directory given"},
		{[]string{"--shard", "0/2", "-o", logs, logs}, "would replace the log directory"},
		{[]string{"--shard", "0/2", "-o", out, "--keep-all-records", "--restarts", "latest", logs}, "--keep-all-records applies no restart rule"},
	} {
		code, stderr := runCmd(t, "collect", c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("collect %v: exit status %d, stderr %q, want %d and %q", c.args, code, stderr, exitUsage, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("collect %v wrote %s", c.args, out)
		}
	}
}

// FuzzReadMarker feeds readMarker any shard.json: it must not panic, and
// a marker it accepts must name a shard in range and a log directory.
func FuzzReadMarker(f *testing.F) {
	f.Add([]byte(`{"format":"trainreport-shard","version":1,"shard":0,"shards":1,"fingerprint":"x","logdirs":[{"name":"a","path":"a","abs":"/a"}]}`))
	f.Add([]byte(`{"format":"trainreport-shard","version":1,"shard":5,"shards":3}`))
	f.Add([]byte(`{"shards":1e30}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, partMarker), data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := readMarker(t.Context(), dir)
		if err != nil {
			if !strings.Contains(err.Error(), dir) {
				t.Errorf("error %q does not name the part", err)
			}
			return
		}
		if m.Shard < 0 || m.Shard >= m.Shards || m.Shards > maxShards || len(m.Logdirs) == 0 {
			t.Errorf("accepted shard %d/%d with %d log directories", m.Shard, m.Shards, len(m.Logdirs))
		}
	})
}

// TestMergeElsewhere collects shards of a log directory given by a
// relative path and merges them from another working directory: the
// report still shows the path as given (as the direct build from the
// first directory does) and reads the payloads from the absolute path.
func TestMergeElsewhere(t *testing.T) {
	base := t.TempDir()
	if err := os.CopyFS(filepath.Join(base, "work", "logs"), os.DirFS(sharedCorpus(t, "keras-tf22-images"))); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(base, "work"))
	if code, stderr := runCmd(t, "", "--quiet", "-o", filepath.Join(base, "d", "report"), "--single-file", filepath.Join(base, "d", "report.html"), "logs"); code != 0 {
		t.Fatalf("direct build: exit status %d\n%s", code, stderr)
	}
	parts := collectShards(t, filepath.Join(base, "parts"), 3, []string{"logs"})
	t.Chdir(base)
	out := filepath.Join(base, "m", "report")
	args := append([]string{"--quiet", "-o", out, "--single-file", filepath.Join(base, "m", "report.html")}, parts...)
	if code, stderr := runCmd(t, "merge", args...); code != 0 {
		t.Fatalf("merge: exit status %d\n%s", code, stderr)
	}
	if !bytes.Equal(readFile(t, filepath.Join(base, "d", "report.html")), readFile(t, filepath.Join(base, "m", "report.html"))) {
		t.Errorf("the single file merged from elsewhere differs from the direct build's")
	}
	want, got := siteFiles(t, filepath.Join(base, "d", "report")), siteFiles(t, out)
	for name, b := range want {
		if !bytes.Equal(got[name], b) {
			t.Errorf("%s merged from elsewhere differs from the direct build's", name)
		}
	}
	if !bytes.Contains(readFile(t, filepath.Join(out, "index.html")), []byte("<code>logs</code>")) {
		t.Errorf("the overview does not show the log directory as given")
	}
}
