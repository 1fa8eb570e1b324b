package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/internal/outdir"
)

// writeScalarLog writes a small event file of one scalar tag into dir/run
// and returns its path.
func writeScalarLog(t *testing.T, dir, run, tag string) string {
	t.Helper()
	var events []*eventpb.Event
	for step := range int64(5) {
		events = append(events, summaryEvent(step, 0, simpleValue(tag, float32(step))))
	}
	p := filepath.Join(dir, filepath.FromSlash(run), "events.out.tfevents.1700000000.host")
	writeEventFile(t, p, events)
	return p
}

// snapshot reads every file under dir (links as their targets' names), to
// check that a refused or hostile command changed nothing.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch {
		case d.Type()&os.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[p] = "-> " + l
		case d.Type().IsRegular():
			b, _ := os.ReadFile(p)
			out[p] = string(b)
		}
		return nil
	})
	return out
}

func sameSnapshot(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s: %s changed", what, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s: %s appeared", what, p)
		}
	}
}

// A log folder may ship its own report/ holding links to the user's files
// (and even the marker of a report): nothing is ever written through them.
// Without the marker the folder is refused before anything is read; with
// it, it is replaced by a real folder and the links' targets are intact.
func TestOutputFolderLinksAreNeverFollowed(t *testing.T) {
	home := t.TempDir()
	victims := filepath.Join(home, "victims")
	os.MkdirAll(victims, 0o755)
	for _, v := range []string{"authorized_keys", "summary.md", "index.json"} {
		os.WriteFile(filepath.Join(victims, v), []byte("precious "+v), 0o600)
	}
	logs := filepath.Join(home, "logs")
	writeScalarLog(t, logs, "run", "loss")
	plant := func(out string, marker bool) {
		os.MkdirAll(filepath.Join(out, "data"), 0o755)
		os.Symlink(filepath.Join(victims, "authorized_keys"), filepath.Join(out, "text.html"))
		os.Symlink(filepath.Join(victims, "authorized_keys"), filepath.Join(out, "index.html"))
		os.Symlink(filepath.Join(victims, "summary.md"), filepath.Join(out, "summary.md"))
		os.Symlink(filepath.Join(victims, "index.json"), filepath.Join(out, "data", "index.json"))
		os.Symlink(victims, filepath.Join(out, "assets"))
		if marker {
			os.WriteFile(filepath.Join(out, outdir.Marker), nil, 0o644)
		}
	}
	before := snapshot(t, victims)

	out := filepath.Join(logs, "report")
	plant(out, false)
	shipped := snapshot(t, out)
	code, stderr := runCLI(t, "-o", out, logs)
	if code != exitUsage || !strings.Contains(stderr, "did not write") || strings.Contains(stderr, "read 1 runs") {
		t.Errorf("unmarked folder of links: exit %d, stderr:\n%s\nwant a refusal before reading", code, stderr)
	}
	sameSnapshot(t, "refused", shipped, snapshot(t, out))

	out2 := filepath.Join(home, "marked")
	plant(out2, true)
	code, stderr = runCLI(t, "-quiet", "-o", out2, logs)
	if code != 0 {
		t.Fatalf("marked folder: exit %d:\n%s", code, stderr)
	}
	sameSnapshot(t, "victims", before, snapshot(t, victims))
	filepath.WalkDir(out2, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.Type().IsRegular() && !d.IsDir() {
			t.Errorf("the new report holds %s, not a file or folder", p)
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(out2, "index.html")); err != nil {
		t.Errorf("no index.html: %v", err)
	}
}

// Output paths that would replace or overwrite what they must not are
// refused with exit status 2 before any log is read, and nothing changes.
func TestOutputMistakesAreRefusedBeforeReading(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	logs := filepath.Join(home, "exp", "logs")
	event := writeScalarLog(t, logs, "run", "loss")
	other := filepath.Join(home, "other")
	os.MkdirAll(filepath.Join(other, "data"), 0o755)
	os.WriteFile(filepath.Join(other, "data", "index.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(other, "notes.txt"), []byte("mine"), 0o644)
	file := filepath.Join(home, "file")
	os.WriteFile(file, []byte("x"), 0o644)
	os.Symlink(other, filepath.Join(home, "link"))
	hparams := filepath.Join(logs, "run", "hparams.yaml")
	os.WriteFile(hparams, []byte("lr: 1\n"), 0o644)
	before := snapshot(t, home)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"root", []string{"-o", "/"}, "root of the file system"},
		{"home", []string{"-o", home}, "home folder"},
		{"the log directory", []string{"-o", logs}, "would replace the log directory"},
		{"an ancestor of the log directory", []string{"-o", filepath.Join(home, "exp")}, "would replace the log directory"},
		{"another program's folder", []string{"-o", other}, "did not write"},
		{"a file", []string{"-o", file}, "not a folder"},
		{"a link", []string{"-o", filepath.Join(home, "link")}, "symbolic link"},
		{"single file over an event file", []string{"-o", filepath.Join(home, "r"), "--single-file", event}, "input of the log directory"},
		{"markdown over hparams.yaml", []string{"-o", filepath.Join(home, "r"), "--markdown", hparams}, "input of the log directory"},
		{"single file inside the output", []string{"-o", filepath.Join(home, "r"), "--single-file", filepath.Join(home, "r", "all.html")}, "inside the output folder"},
		{"single file and markdown alike", []string{"-o", filepath.Join(home, "r"), "--single-file", file + ".x", "--markdown", file + ".x"}, "both name"},
		// Each output's folder is checked before the work, not found
		// missing once the whole site is written.
		{"markdown into a missing folder", []string{"-o", filepath.Join(home, "r"), "--markdown", filepath.Join(home, "nofolder", "x.md")}, "nofolder does not exist"},
		{"single file into a missing folder", []string{"-o", filepath.Join(home, "r"), "--single-file", filepath.Join(home, "nofolder", "x.html")}, "nofolder does not exist"},
		{"email into a missing folder", []string{"-o", filepath.Join(home, "r"), "--email", filepath.Join(home, "nofolder", "x.eml")}, "nofolder does not exist"},
		{"cpu profile into a missing folder", []string{"-o", filepath.Join(home, "r"), "--cpuprofile", filepath.Join(home, "nofolder", "p.out")}, "nofolder does not exist"},
		{"markdown below a file", []string{"-o", filepath.Join(home, "r"), "--markdown", filepath.Join(file, "x.md")}, file + " is not a folder"},
		{"output below a file", []string{"-o", filepath.Join(file, "a", "site")}, file + " is not a folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stderr := runCLI(t, append(tc.args, logs)...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "read 1 run") {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d saying %q before reading", code, stderr, exitUsage, tc.want)
			}
		})
	}
	sameSnapshot(t, "refusals", before, snapshot(t, home))
}

// -o's missing folders are made, so an output file may be named in one
// of them (CI's fresh workspace: -o out/site --single-file out/site.html);
// the check of output folders refuses only what will still be missing.
func TestOutputFilesInTheOutputsNewFolders(t *testing.T) {
	home := t.TempDir()
	logs := filepath.Join(home, "logs")
	writeScalarLog(t, logs, "run", "loss")
	out := filepath.Join(home, "new", "deeper", "site")
	single, md := filepath.Join(home, "new", "deeper", "site.html"), filepath.Join(home, "new", "site.md")
	if code, stderr := runCLI(t, "-quiet", "-o", out, "--single-file", single, "--markdown", md, logs); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	for _, p := range []string{filepath.Join(out, "index.html"), single, md} {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
	beside := filepath.Join(home, "other", "site.md") // no output makes other/
	if code, stderr := runCLI(t, "-quiet", "-o", filepath.Join(home, "new2", "site"), "--markdown", beside, logs); code != exitUsage || !strings.Contains(stderr, "other does not exist") {
		t.Errorf("exit %d, stderr:\n%s\nwant %d: other/ is no folder of -o's", code, stderr, exitUsage)
	}
}

// A report written where an earlier one was replaces it whole: its pages,
// data and media that this report does not have are gone, and the folder
// is marked as a report for the next one.
func TestReportReplacesEarlierReportWhole(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	writeScalarLog(t, logs, "run", "loss")
	out := filepath.Join(dir, "report")
	if code, stderr := runCLI(t, "-quiet", "-o", out, logs); code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	stale := []string{"audio.html", "media/images/x/y/1-0.png", "data/scalars/old/tag.json"}
	for _, s := range stale {
		p := filepath.Join(out, filepath.FromSlash(s))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("old"), 0o644)
	}
	if code, stderr := runCLI(t, "-quiet", "-o", out, logs); code != 0 {
		t.Fatalf("second report: exit %d:\n%s", code, stderr)
	}
	for _, s := range stale {
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(s))); err == nil {
			t.Errorf("%s of the earlier report is still there", s)
		}
	}
	if _, err := os.Stat(filepath.Join(out, outdir.Marker)); err != nil {
		t.Errorf("no marker: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("beside the report: %q, want only logs and report (no temporary folder left)", names)
	}
}

// Reports written into one folder at once each leave a whole report: the
// folder ends up as one of them, never a mixture, and no temporary folder
// is left beside it.
func TestConcurrentReportsIntoOneFolder(t *testing.T) {
	dir := t.TempDir()
	logsA := filepath.Join(dir, "a")
	writeScalarLog(t, logsA, "run", "loss_a")
	logsB := filepath.Join(dir, "b")
	writeScalarLog(t, logsB, "run", "loss_b")
	out := filepath.Join(dir, "report")
	var wg sync.WaitGroup
	codes := make([]int, 6)
	for i := range codes {
		logs := logsA
		if i%2 == 1 {
			logs = logsB
		}
		wg.Go(func() { codes[i], _ = runCLI(t, "-quiet", "-o", out, logs) })
	}
	wg.Wait()
	for i, c := range codes {
		if c != 0 {
			t.Errorf("report %d: exit %d", i, c)
		}
	}
	sum, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	a, b := bytes.Contains(sum, []byte("loss_a")), bytes.Contains(sum, []byte("loss_b"))
	if a == b {
		t.Errorf("summary.json holds loss_a %v, loss_b %v: want exactly one report", a, b)
	}
	// The run's scalar bundle holds the series of the same report.
	scalars, _ := filepath.Glob(filepath.Join(out, "data", "scalars", "*"))
	if len(scalars) != 1 {
		t.Fatalf("data files %q: want the one run's bundle", scalars)
	}
	bundle, err := os.ReadFile(scalars[0])
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(bundle, []byte("loss_a")) != a || bytes.Contains(bundle, []byte("loss_b")) != b {
		t.Errorf("the bundle is not of the report summary.json is of: %.200s", bundle)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("%d entries beside the report, want a, b and report", len(entries))
	}
}

// --single-file and --markdown replace a link at their path instead of
// writing through it.
func TestOutputFilesReplaceLinks(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	writeScalarLog(t, logs, "run", "loss")
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("precious"), 0o600)
	single, md := filepath.Join(dir, "all.html"), filepath.Join(dir, "summary.md")
	os.Symlink(victim, single)
	os.Symlink(victim, md)
	if code, stderr := runCLI(t, "-quiet", "-o", filepath.Join(dir, "r"), "--single-file", single, "--markdown", md, logs); code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("written through a link: victim holds %q", b)
	}
	for _, p := range []string{single, md} {
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
			t.Errorf("%s: %v, %v", p, fi, err)
		}
	}
}

// File and tag names reach the terminal with their control characters
// escaped: a log cannot move the cursor or retitle the window.
func TestWarningsEscapeControlCharacters(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	writeScalarLog(t, logs, "run", "loss")
	odd := "run\x1b]0;pwned\x07\u202e/events.out.tfevents.1.host"
	p := filepath.Join(logs, odd)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte("not a record at all, long enough to be damaged"), 0o644); err != nil {
		t.Skipf("this file system refuses the name: %v", err)
	}
	code, stderr := runCLI(t, "-o", filepath.Join(dir, "r"), logs)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	if strings.ContainsAny(stderr, "\x1b\x07\u202e") {
		t.Errorf("stderr holds raw control characters:\n%q", stderr)
	}
	if !strings.Contains(stderr, `run\x1b]0;pwned\a\u202e/events`) {
		t.Errorf("the odd name is not shown escaped:\n%s", stderr)
	}
	var out bytes.Buffer
	var errb bytes.Buffer
	runInspect(t.Context(), []string{logs}, &out, &errb)
	if strings.ContainsAny(out.String()+errb.String(), "\x1b\x07\u202e") {
		t.Errorf("inspect prints raw control characters:\n%q", out.String())
	}
}

// Outputs found unsafe by a second adversarial trial: a link planted in a
// log folder on the way to -o, output files that name a file only a
// projector config names, one file under two spellings, and --cpuprofile,
// which was written before any check and through links.
func TestOutputMistakesOfTheSecondTrial(t *testing.T) {
	home := t.TempDir()
	logs := filepath.Join(home, "logs")
	writeScalarLog(t, logs, "run", "loss")
	victim := filepath.Join(home, "victim")
	os.MkdirAll(victim, 0o755)
	os.WriteFile(filepath.Join(victim, "secret.txt"), []byte("precious"), 0o600)
	os.Symlink(victim, filepath.Join(logs, "reports"))
	os.WriteFile(filepath.Join(logs, "run", "projector_config.pbtxt"), []byte(`embeddings { tensor_name: "e" tensor_path: "t.tsv" metadata_path: "meta.tsv" }`), 0o644)
	os.WriteFile(filepath.Join(logs, "run", "t.tsv"), []byte("1\t2\n3\t4\n"), 0o644)
	os.WriteFile(filepath.Join(logs, "run", "meta.tsv"), []byte("a\nb\n"), 0o644)
	os.Symlink(filepath.Join(victim, "secret.txt"), filepath.Join(home, "prof.out"))
	before, victims := snapshot(t, logs), snapshot(t, victim)
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, filepath.Join(home, "same"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"-o through a link inside the log directory", []string{"-o", filepath.Join(logs, "reports", "today")}, "symbolic link"},
		{"markdown over a tensor file a config names", []string{"-o", filepath.Join(home, "r1"), "--markdown", filepath.Join(logs, "run", "t.tsv")}, "names a file the report reads"},
		{"single file over a metadata file a config names", []string{"-o", filepath.Join(home, "r2"), "--single-file", filepath.Join(logs, "run", "meta.tsv")}, "names a file the report reads"},
		{"one file under two spellings", []string{"-o", filepath.Join(home, "r3"), "--single-file", filepath.Join(home, "same"), "--markdown", rel}, "both name"},
		{"cpu profile refused before it is written", []string{"-o", "/", "--cpuprofile", filepath.Join(home, "prof.out")}, "root of the file system"},
		{"cpu profile over an input", []string{"-o", filepath.Join(home, "r4"), "--cpuprofile", filepath.Join(logs, "run", "events.out.tfevents.1700000000.host")}, "input of the log directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stderr := runCLI(t, append(tc.args, logs)...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d saying %q", code, stderr, exitUsage, tc.want)
			}
		})
	}
	sameSnapshot(t, "logs", before, snapshot(t, logs))
	sameSnapshot(t, "victim", victims, snapshot(t, victim))
	// A profile written next to a link replaces the link.
	if code, stderr := runCLI(t, "-quiet", "-o", filepath.Join(home, "r5"), "--cpuprofile", filepath.Join(home, "prof.out"), logs); code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	sameSnapshot(t, "victim", victims, snapshot(t, victim))
	if fi, err := os.Lstat(filepath.Join(home, "prof.out")); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		t.Errorf("profile: %v, %v", fi, err)
	}
}

// 60,000 one-value tags in a 900 KB file made a report of 120,044 files
// (513 MB): a file or two per run and tag. The run keeps its first 10,000
// tags (collect's budget), so the site's files are bounded by it,
// whatever the tags the file names; the rest is one warning naming the
// file, and the report is written.
func TestManyTagsWriteBoundedFiles(t *testing.T) {
	const tags, budget = 12_000, 10_000
	logs := filepath.Join(t.TempDir(), "logs")
	var events []*eventpb.Event
	var vals []*eventpb.SummaryValue
	for i := range tags {
		vals = append(vals, simpleValue(fmt.Sprintf("t%d", i), 1))
		if len(vals) == 1000 {
			events = append(events, summaryEvent(0, 0, vals...))
			vals = nil
		}
	}
	writeEventFile(t, filepath.Join(logs, "run", "events.out.tfevents.1700000000.host"), events)
	site := filepath.Join(t.TempDir(), "site")
	code, stderr := runCLI(t, "-quiet", "-o", site, logs)
	if code != exitOK || !strings.Contains(stderr, "events.out.tfevents.1700000000.host: offset") || !strings.Contains(stderr, "the most a run may") {
		t.Fatalf("exit %d, stderr:\n%s\nwant 0 and a warning naming the file", code, stderr)
	}
	files := 0
	filepath.WalkDir(site, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files++
		}
		return err
	})
	// Two data files a scalar tag, and the pages, assets and summaries.
	if max := 2*budget + 100; files > max {
		t.Errorf("%d tags wrote %d files, want at most %d", tags, files, max)
	}
}
