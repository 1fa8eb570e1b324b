package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
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

// testRoot is the --root of the tests whose logs lie in temporary folders
// and the shared corpus at once: they check what a merge makes, not
// what it may read (TestMergeRefusesForgedParts does).
const testRoot = "/"

// collectShards writes the n parts of logdirs into dir and returns their
// folders, the collect flags extra given to each (--root testRoot unless
// extra gives another).
func collectShards(t *testing.T, dir string, n int, logdirs []string, extra ...string) []string {
	t.Helper()
	var parts []string
	for i := range n {
		part := filepath.Join(dir, fmt.Sprintf("part-%d", i))
		args := append([]string{"--quiet", "--root", testRoot, "--shard", fmt.Sprintf("%d/%d", i, n), "-o", part}, extra...)
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
	t.Parallel()
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
				margs := append([]string{"--quiet", "--root", testRoot, "-o", merged, "--single-file", msingle, "--markdown", mmd}, parts...)
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

// shardRuns returns the runs each part holds, read as merge reads them
// (below testRoot).
func shardRuns(t *testing.T, parts []string) [][]string {
	t.Helper()
	root, err := os.OpenRoot(testRoot)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	var out [][]string
	for _, p := range parts {
		m, err := readMarker(t.Context(), p)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := scanPart(t.Context(), p, m, func(name string) (model.Source, error) {
			for _, l := range m.Logdirs {
				if l.Name == name {
					return openLogdir(t.Context(), root, l)
				}
			}
			return nil, fmt.Errorf("no log directory %q", name)
		}, analysis.NewShapes())
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
	three := collectShards(t, filepath.Join(dir, "three"), 3, []string{logs}, "--root", dir)
	two := collectShards(t, filepath.Join(dir, "two"), 2, []string{logs}, "--root", dir)
	otherLogs := collectShards(t, filepath.Join(dir, "other3"), 3, []string{other}, "--root", dir)
	keepAll := collectShards(t, filepath.Join(dir, "keepall"), 3, []string{logs}, "--keep-all-records", "--root", dir)
	elsewhere := collectShards(t, filepath.Join(dir, "elsewhere"), 3, []string{logs}, "--root", filepath.Dir(dir))

	unfinished := filepath.Join(dir, "unfinished")
	if err := os.MkdirAll(unfinished, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(unfinished, partModel), readFile(t, filepath.Join(three[2], partModel)), 0o644)
	// A part whose files changed after collect: each is named.
	marker, model := readFile(t, filepath.Join(three[2], partMarker)), readFile(t, filepath.Join(three[2], partModel))
	damaged := func(name string, marker, model []byte) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(p, 0o755)
		os.WriteFile(filepath.Join(p, partMarker), marker, 0o644)
		os.WriteFile(filepath.Join(p, partModel), model, 0o644)
		return p
	}
	flipped := bytes.Clone(model)
	flipped[len(flipped)/2] ^= 1
	changed := damaged("changed", marker, flipped)
	cut := damaged("cut", marker, model[:len(model)-1])
	grown := damaged("grown", marker, append(bytes.Clone(model), 0))
	markerCut := damaged("marker-cut", marker[:len(marker)-2], model)
	markerChanged := damaged("marker-changed", bytes.Replace(marker, []byte(`"runs": `), []byte(`"runs": 1`), 1), model)
	old := damaged("old", []byte(`{"format":"trainreport-shard","version":1,"shard":2,"shards":3,"model_sha256":"","logdirs":[{"name":"logs","path":"/logs","abs":"/logs"}]}`), model)
	// A forger seals what it writes: the fields are checked all the same.
	var m shardMarker
	if err := json.Unmarshal(marker, &m); err != nil {
		t.Fatal(err)
	}
	m.Shard = 5
	if err := m.seal(); err != nil {
		t.Fatal(err)
	}
	out5, _ := json.Marshal(m)
	garbled := damaged("garbled", out5, model)
	// A part of version 2 (model.bin of the model's version before this one, written whole
	// after collection), and one whose marker is sealed as this version's
	// but whose model.bin is of the older form: each refused, naming
	// the part and the file.
	// The header names the model's version: "trainreport-model N ...".
	header, body, _ := bytes.Cut(model, []byte("\n"))
	var version int
	if _, err := fmt.Sscanf(string(header), "trainreport-model %d ", &version); err != nil {
		t.Fatalf("model header %q: %v", header, err)
	}
	oldHeader := bytes.Replace(header, fmt.Appendf(nil, "trainreport-model %d ", version), fmt.Appendf(nil, "trainreport-model %d ", version-1), 1)
	oldModel := append(append(oldHeader, '\n'), body...)
	m2 := m
	m2.Shard, m2.Version = 2, 2
	if err := m2.seal(); err != nil {
		t.Fatal(err)
	}
	v2, _ := json.Marshal(m2)
	version2 := damaged("version2", v2, oldModel)
	m3 := m
	m3.Shard = 2
	sum := sha256.Sum256(oldModel)
	m3.Files = []partFile{{Name: partModel, Size: int64(len(oldModel)), SHA256: hex.EncodeToString(sum[:])}}
	if err := m3.seal(); err != nil {
		t.Fatal(err)
	}
	v3, _ := json.Marshal(m3)
	oldModelOnly := damaged("old-model", v3, oldModel)

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
		{"model changed", []string{three[0], three[1], changed}, nil, "part " + changed + ": model.bin does not match the hash its shard.json holds"},
		{"model cut short", []string{three[0], three[1], cut}, nil, fmt.Sprintf("part %s: model.bin is cut short: %d bytes, its shard.json lists %d", cut, len(model)-1, len(model))},
		{"model grown", []string{three[0], three[1], grown}, nil, fmt.Sprintf("part %s: model.bin is longer than the %d bytes its shard.json lists", grown, len(model))},
		{"marker cut short", []string{three[0], three[1], markerCut}, nil, "part " + markerCut + ": shard.json: damaged or cut short"},
		{"marker changed", []string{three[0], three[1], markerChanged}, nil, "part " + markerChanged + ": shard.json: does not match its own checksum"},
		{"part of another version", []string{three[0], three[1], old}, nil, "part " + old + ": shard.json: version 1 of the part format, this trainreport reads version 3: collect the parts again"},
		{"part of version 2", []string{three[0], three[1], version2}, nil, "part " + version2 + ": shard.json: version 2 of the part format, this trainreport reads version 3: collect the parts again"},
		{"model of an older version", []string{three[0], three[1], oldModelOnly}, nil, fmt.Sprintf("part %s: model.bin: trainreport-model file of version %d; this trainreport reads version %d", oldModelOnly, version-1, version)},
		{"marker out of range", []string{three[0], three[1], garbled}, nil, "part " + garbled + ": shard.json: shard 5/3 is out of range"},
		{"other root", []string{three[0], three[1], elsewhere[2]}, nil, "part " + elsewhere[2] + " was collected from other log directories"},
		{"collect flag at merge", three, []string{"--keep-all-records"}, "--keep-all-records and --restarts are collect's flags"},
		{"output is a part", three, []string{"-o", three[0]}, "would replace"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report")
			args := append([]string{"--root", dir, "-o", out}, c.flags...)
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
	code, stderr := runCmd(t, "merge", append([]string{"--root", dir, "-o", filepath.Join(dir, "report")}, three...)...)
	if code != exitFailed || !strings.Contains(stderr, "log directory logs: the logs must be readable at logs below the root "+dir+" (--root), as collect read them") {
		t.Errorf("merge with the logs moved: exit status %d, stderr %q", code, stderr)
	}
}

// TestCollectShardRefusals checks collect's usage errors.
func TestCollectShardRefusals(t *testing.T) {
	root := t.TempDir()
	logs := filepath.Join(root, "logs")
	writeScalarLog(t, logs, "run", "loss")
	out := filepath.Join(t.TempDir(), "part")
	// A link below the root that leads out of it: merge, reading below
	// its root, could not follow it, so collect refuses to name it.
	outside := filepath.Join(t.TempDir(), "outside")
	writeScalarLog(t, outside, "run", "loss")
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
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
		{[]string{"--shard", "0/2", "-o", out, "--root", logs, outside}, "log directory " + outside + " is not inside the root " + logs + " (--root, by default the current directory)"},
		{[]string{"--shard", "0/2", "-o", out, filepath.Join(root, "link")}, "log directory " + filepath.Join(root, "link") + " is not inside the root " + root},
		{[]string{"--shard", "0/2", "-o", out, "--root", filepath.Join(root, "nothing"), logs}, "--root: "},
	} {
		code, stderr := runCmd(t, "collect", append([]string{"--root", root}, c.args...)...)
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
	f.Add([]byte(`{"format":"trainreport-shard","version":2,"shard":5,"shards":3}`))
	m := shardMarker{Format: partFormat, Version: partVersion, Shards: 1, Logdirs: []shardLogdir{{Name: "a", Path: "a", Rel: "a"}},
		Files: []partFile{{Name: partModel, SHA256: strings.Repeat("0", 64)}}}
	m.seal()
	b, _ := json.Marshal(m)
	f.Add(b)
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
		for _, l := range m.Logdirs {
			if l.URL == "" && !fs.ValidPath(l.Rel) {
				t.Errorf("accepted the log directory %q at %q below the root", l.Name, l.Rel)
			}
		}
	})
}

// TestMergeElsewhere collects shards of a log directory given by a
// relative path, with the default root (the working directory), and
// merges them from another working directory, giving merge that folder
// as --root by a relative path: the report is the direct build's (it
// shows the path as given) and reads the payloads below the root. Merged
// from there without --root, the part's log directory is not below the
// working directory, and merge says where it looked.
func TestMergeElsewhere(t *testing.T) {
	base := t.TempDir()
	if err := os.CopyFS(filepath.Join(base, "work", "logs"), os.DirFS(sharedCorpus(t, "keras-tf22-images"))); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(base, "work"))
	if code, stderr := runCmd(t, "", "--quiet", "-o", filepath.Join(base, "d", "report"), "--single-file", filepath.Join(base, "d", "report.html"), "logs"); code != 0 {
		t.Fatalf("direct build: exit status %d\n%s", code, stderr)
	}
	var parts []string
	for i := range 3 {
		part := filepath.Join(base, "parts", fmt.Sprintf("part-%d", i))
		if code, stderr := runCmd(t, "collect", "--quiet", "--shard", fmt.Sprintf("%d/3", i), "-o", part, "logs"); code != 0 {
			t.Fatalf("collect: exit status %d\n%s", code, stderr)
		}
		if b := readFile(t, filepath.Join(part, partMarker)); bytes.Contains(b, []byte(base)) || !bytes.Contains(b, []byte(`"rel": "logs"`)) {
			t.Errorf("the part names its log directory otherwise than by its path below the root:\n%s", b)
		}
		parts = append(parts, part)
	}
	t.Chdir(base)
	out := filepath.Join(base, "m", "report")
	code, stderr := runCmd(t, "merge", append([]string{"--quiet", "-o", out}, parts...)...)
	if code != exitFailed || !strings.Contains(stderr, "log directory logs: the logs must be readable at logs below the root . (--root), as collect read them") {
		t.Errorf("merge without --root: exit status %d, stderr %q", code, stderr)
	}
	args := append([]string{"--quiet", "--root", "work", "-o", out, "--single-file", filepath.Join(base, "m", "report.html")}, parts...)
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
