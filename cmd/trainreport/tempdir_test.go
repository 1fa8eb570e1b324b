package main

// Issue 23, item 1: the graph layout engine's compiled code came from
// $TMPDIR/go-graphviz, a folder another local user can create first, at
// the start of every command. These tests run the command in processes of
// its own (the test binary calling main, with the environment a user
// would have) against a planted folder there.

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// mainArgsEnv holds, as JSON, the arguments TestRunMainChild runs main
// with.
const mainArgsEnv = "TRAINREPORT_TEST_MAIN_ARGS"

// TestRunMainChild is not a test: it is the command itself, run by
// runMain in a process of its own; it is skipped otherwise.
func TestRunMainChild(t *testing.T) {
	js, ok := os.LookupEnv(mainArgsEnv)
	if !ok {
		t.Skip("runs main in runMain's child processes only")
	}
	var args []string
	if err := json.Unmarshal([]byte(js), &args); err != nil {
		t.Fatal(err)
	}
	os.Args = append([]string{"trainreport"}, args...)
	main() // exits
}

// runMain runs the command with args in a new process whose TMPDIR,
// HOME and XDG_CACHE_HOME are the given folders, and returns its exit
// status and stderr.
func runMain(t *testing.T, tmp, home, cache string, args ...string) (int, string) {
	t.Helper()
	js, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunMainChild$")
	cmd.Dir = t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "TMPDIR" && k != "HOME" && k != "XDG_CACHE_HOME" {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, mainArgsEnv+"="+string(js), "TMPDIR="+tmp, "HOME="+home, "XDG_CACHE_HOME="+cache)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

// diamondGraphLog writes a log directory holding a GraphDef that dot lays
// out (a -> b, a -> c, b -> d, c -> d: not a chain) and a scalar.
func diamondGraphLog(t *testing.T) string {
	t.Helper()
	gd := &eventpb.GraphDef{Node: []*eventpb.NodeDef{
		{Name: "a", Op: "Placeholder"},
		{Name: "b", Op: "Relu", Input: []string{"a"}},
		{Name: "c", Op: "Tanh", Input: []string{"a"}},
		{Name: "d", Op: "AddV2", Input: []string{"b", "c"}},
	}}
	b, err := proto.Marshal(gd)
	if err != nil {
		t.Fatal(err)
	}
	logdir := filepath.Join(t.TempDir(), "logs")
	writeEventFile(t, filepath.Join(logdir, "run", "events.out.tfevents.1.host"), []*eventpb.Event{
		{WallTime: 1.7e9, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}},
		{WallTime: 1.7e9, What: &eventpb.Event_GraphDef{GraphDef: b}},
		summaryEvent(1, 0, simpleValue("loss", 1)),
	})
	return logdir
}

// fileTree lists every entry under dir (not following links) with its
// mode and, for files, their size and checksum.
func fileTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		m[rel] = fi.Mode().String()
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[rel] += fmt.Sprintf(" %d bytes, sha256 %x", len(b), sha256.Sum256(b))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// checkGraphLaidOut checks that the site's graph data has every view
// laid out, none skipped with a reason.
func checkGraphLaidOut(t *testing.T, site string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(filepath.Join(site, "data", "graphs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".json") {
			return err
		}
		n++
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), `"skipped"`) {
			t.Errorf("%s: a view was not laid out:\n%.800s", p, b)
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Fatalf("no graph data in %s (%v)", site, err)
	}
}

// TestForeignTempFolderNeitherRunNorTripped plants what another local
// user could in a shared TMPDIR, where the layout library used to keep
// (and run) its compiled code: garbage under the names of its files, a
// folder where a file goes, a folder no one may write, a link to another
// folder. --version and a report laying out a graph succeed, nothing in
// the TMPDIR (or behind the link) is read or changed, nothing is written
// there, and the compiled code is kept in the user's private cache,
// created 0700, which --version does not create.
func TestForeignTempFolderNeitherRunNorTripped(t *testing.T) {
	t.Parallel()
	logdir := diamondGraphLog(t)
	home := t.TempDir()

	// --version compiles nothing and writes nowhere.
	tmp, cache := t.TempDir(), t.TempDir()
	if code, out := runMain(t, tmp, home, cache, "--version"); code != 0 {
		t.Fatalf("--version: exit %d\n%s", code, out)
	}
	if left := fileTree(t, tmp); len(left) != 0 {
		t.Errorf("--version wrote in TMPDIR: %v", left)
	}
	if left := fileTree(t, cache); len(left) != 0 {
		t.Errorf("--version wrote in the cache: %v", left)
	}

	// A report fills the private cache and nothing else: the names of
	// what it writes there are those the library gave its files in TMPDIR.
	site := filepath.Join(t.TempDir(), "site")
	if code, out := runMain(t, tmp, home, cache, "-quiet", "-o", site, logdir); code != 0 {
		t.Fatalf("report: exit %d\n%s", code, out)
	}
	checkGraphLaidOut(t, site)
	if left := fileTree(t, tmp); len(left) != 0 {
		t.Errorf("the report wrote in TMPDIR: %v", left)
	}
	private := filepath.Join(cache, "trainreport", "graphviz")
	for _, d := range []string{filepath.Join(cache, "trainreport"), private} {
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("the private cache %s: %v %v, want a folder of mode 0700", d, fi, err)
		}
	}
	var cached []string
	for name, what := range fileTree(t, private) {
		if strings.HasPrefix(what, "-") {
			cached = append(cached, name)
		}
	}
	if len(cached) == 0 {
		t.Fatalf("nothing in the private cache %s", private)
	}

	for _, c := range []struct {
		name  string
		plant func(t *testing.T, tmp, elsewhere string)
	}{
		{"garbage code", func(t *testing.T, tmp, _ string) {
			for _, name := range cached {
				writeFile(t, filepath.Join(tmp, "go-graphviz", name), "not machine code")
			}
		}},
		{"a folder for a file", func(t *testing.T, tmp, _ string) {
			for _, name := range cached {
				if err := os.MkdirAll(filepath.Join(tmp, "go-graphviz", name), 0o755); err != nil {
					t.Fatal(err)
				}
			}
		}},
		{"a folder no one may write", func(t *testing.T, tmp, _ string) {
			for _, name := range cached {
				writeFile(t, filepath.Join(tmp, "go-graphviz", name), "not machine code")
				if err := os.Chmod(filepath.Dir(filepath.Join(tmp, "go-graphviz", name)), 0o555); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Chmod(filepath.Join(tmp, "go-graphviz"), 0o555); err != nil {
				t.Fatal(err)
			}
		}},
		{"a link elsewhere", func(t *testing.T, tmp, elsewhere string) {
			for _, name := range cached {
				writeFile(t, filepath.Join(elsewhere, name), "not machine code")
			}
			if err := os.Symlink(elsewhere, filepath.Join(tmp, "go-graphviz")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmp, elsewhere := t.TempDir(), t.TempDir()
			c.plant(t, tmp, elsewhere)
			t.Cleanup(func() { // let t.TempDir remove what was made read-only
				filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
					if err == nil && d.IsDir() {
						os.Chmod(p, 0o700)
					}
					return nil
				})
			})
			before, beforeElsewhere := fileTree(t, tmp), fileTree(t, elsewhere)
			if code, out := runMain(t, tmp, home, cache, "--version"); code != 0 {
				t.Errorf("--version: exit %d\n%s", code, out)
			}
			site := filepath.Join(t.TempDir(), "site")
			if code, out := runMain(t, tmp, home, cache, "-quiet", "-o", site, logdir); code != 0 {
				t.Fatalf("report: exit %d\n%s", code, out)
			}
			checkGraphLaidOut(t, site)
			if after := fileTree(t, tmp); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("TMPDIR changed:\n%v\n%v", before, after)
			}
			if after := fileTree(t, elsewhere); fmt.Sprint(after) != fmt.Sprint(beforeElsewhere) {
				t.Errorf("the folder behind the link changed:\n%v\n%v", beforeElsewhere, after)
			}
		})
	}
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
