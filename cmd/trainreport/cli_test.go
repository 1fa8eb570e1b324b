package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// runCLIOut runs the command and returns its exit status, stdout and
// stderr.
func runCLIOut(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestVersionOnStdout(t *testing.T) {
	code, stdout, stderr := runCLIOut(t, "--version")
	if code != 0 || !strings.HasPrefix(stdout, "trainreport ") || strings.Count(stdout, "\n") != 1 || stderr != "" {
		t.Errorf("--version: exit %d, stdout %q, stderr %q; want exit 0 and one line on stdout", code, stdout, stderr)
	}
	for _, c := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"none", nil, "trainreport devel (revision devel)"},
		{"go run", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}}, "trainreport devel (revision devel) go1.26.0"},
		{"release", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.2.3"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.modified", Value: "false"}}},
			"trainreport v1.2.3 (revision 0123abcd) go1.26.0"},
		{"modified", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261123-0123abcd+dirty"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.modified", Value: "true"}}},
			"trainreport v0.0.0-20261123-0123abcd+dirty (revision 0123abcd, modified)"},
	} {
		if got := versionLine(c.bi); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestHelpOnStdout: help asked for goes to stdout with status 0; the usage
// printed for a usage error goes to stderr with status 2.
func TestHelpOnStdout(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"-help"}, {"inspect", "-h"}, {"inspect", "--help"}} {
		var code int
		var stdout, stderr bytes.Buffer
		if args[0] == "inspect" {
			code = runInspect(context.Background(), args[1:], &stdout, &stderr)
		} else {
			code = run(context.Background(), args, &stdout, &stderr)
		}
		if code != 0 || !strings.HasPrefix(stdout.String(), "Usage: trainreport") || stderr.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %.40q, stderr %.80q; want exit 0 and the usage on stdout", args, code, stdout.String(), stderr.String())
		}
	}
	code, stdout, stderr := runCLIOut(t, "--no-such-flag", t.TempDir())
	if code != 2 || stdout != "" || !strings.Contains(stderr, "Usage: trainreport") {
		t.Errorf("a bad flag: exit %d, stdout %.40q, stderr %.80q; want exit 2 and the usage on stderr", code, stdout, stderr)
	}
}

// TestDefaultTitle: without --title, a log directory with a generic base
// name is called by its path from the first folder above that is not.
func TestDefaultTitle(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct {
		name string
		dir  string // under root, holding a run
		arg  string // "" for the directory itself
		want string
	}{
		{"lightning", "mnist/lightning_logs", "", "mnist/lightning_logs"},
		{"nested generic", "cifar/outputs/logs", "", "cifar/outputs/logs"},
		{"at most three", "deep/a/runs/tb/logs", "", "runs/tb/logs"},
		{"generic case", "bert/Runs", "", "bert/Runs"},
		{"specific", "resnet50-sweep", "", "resnet50-sweep"},
		{"named", "other/logs", "exp=", "exp"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(root, filepath.FromSlash(c.dir))
			writeScalarLog(t, dir, "version_0", "loss")
			out := filepath.Join(t.TempDir(), "site")
			if code, stderr := runCLI(t, "-quiet", "-o", out, c.arg+dir); code != 0 {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			var sum struct{ Title string }
			b, err := os.ReadFile(filepath.Join(out, "summary.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &sum); err != nil {
				t.Fatal(err)
			}
			if sum.Title != c.want {
				t.Errorf("title %q, want %q", sum.Title, c.want)
			}
		})
	}
}

// TestEmptyFolderOneMessage: a folder without event files is said once,
// as the error, not also as a warning.
func TestEmptyFolderOneMessage(t *testing.T) {
	empty := t.TempDir()
	code, stderr := runCLI(t, "-o", filepath.Join(t.TempDir(), "site"), empty)
	if code != 1 || strings.Count(stderr, "no event files") != 1 || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and one line", code, stderr)
	}
	// Beside a folder that has some, the empty one is a warning.
	full := t.TempDir()
	writeScalarLog(t, full, "run", "loss")
	code, stderr = runCLI(t, "-o", filepath.Join(t.TempDir(), "site"), full, empty)
	if code != 0 || !strings.Contains(stderr, "warning: "+empty+": no event files found") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and a warning for the empty folder", code, stderr)
	}
}

// TestMessagesCountInWords: "1 event file", "2 event files".
func TestMessagesCountInWords(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "events.out.tfevents.1.host"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr := runCLI(t, "-o", filepath.Join(t.TempDir(), "site"), dir)
	if !strings.Contains(stderr, ": 1 event file, none with a readable record") {
		t.Errorf("stderr:\n%s\nwant \"1 event file\"", stderr)
	}
	if n := strings.Count(stderr, "warning: "); !strings.Contains(stderr, "("+plural(n, "warning")+" above)") {
		t.Errorf("stderr:\n%s\nwant %q", stderr, plural(n, "warning")+" above")
	}
	ok := t.TempDir()
	writeScalarLog(t, ok, "run", "loss")
	_, stderr = runCLI(t, "-o", filepath.Join(t.TempDir(), "site"), ok)
	if !strings.Contains(stderr, "read 1 run, 1 file, 5 records (") {
		t.Errorf("stderr:\n%s\nwant \"read 1 run, 1 file, 5 records\"", stderr)
	}
	var b bytes.Buffer
	if code := runInspect(context.Background(), []string{dir}, &b, &b); code != 0 || !strings.Contains(b.String(), "0 bytes  0 records") {
		t.Errorf("inspect: exit %d:\n%s", code, b.String())
	}
	for n, want := range map[int]string{0: "0 records", 1: "1 record", 2: "2 records"} {
		if got := plural(n, "record"); got != want {
			t.Errorf("plural(%d): %q, want %q", n, got, want)
		}
	}
}

// TestSameNameWarns: a second NAME=LOGDIR taking a name already used is
// read under another name, with a warning that says which.
func TestSameNameWarns(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	writeScalarLog(t, a, "run", "loss")
	writeScalarLog(t, b, "run", "loss")
	code, stderr := runCLI(t, "-quiet", "-o", filepath.Join(t.TempDir(), "site"), "exp="+a, "exp="+b)
	want := `warning: the name "exp" is already taken by another log directory: ` + b + ` is named "exp_2"`
	if code != 0 || !strings.Contains(stderr, want) || strings.Count(stderr, "already taken") != 1 {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 0 and %q", code, stderr, want)
	}
	// Names taken from the directories' base names are no choice of the
	// user's: no warning.
	code, stderr = runCLI(t, "-quiet", "-o", filepath.Join(t.TempDir(), "site"), a, a)
	if code != 0 || strings.Contains(stderr, "already taken") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}
