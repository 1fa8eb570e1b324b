package discover

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/trainreport/trainreport/internal/testsupport"
)

// The formats' own rules, and the cases that pin them, are collection's
// (collect/detection_test.go). These tests give discover rules of a toy
// format: record files *.rec, in a "part" directory counted in the run
// above it; "big.rec" files of no bytes are kind "empty-rec"; side files
// cfg.txt; sniffed files named *.m* starting "MAGIC", each a run of its
// own.
func toyRules(sniffed *[]string) Rules {
	rec := func(also bool) func(c Candidate) (string, bool) {
		return func(c Candidate) (string, bool) {
			if !also || !c.Alone && !strings.HasSuffix(c.Name, ".rec") {
				return "", false
			}
			if path.Base(c.Dir) == "part" {
				return path.Dir(c.Dir), true
			}
			return c.Dir, true
		}
	}
	return Rules{
		Rules: []Rule{
			{Kind: "cfg", Side: true, Match: func(c Candidate) (string, bool) { return c.Dir, c.Name == "cfg.txt" }},
			{Kind: "magic", Side: true, SniffBytes: 5,
				Match: func(c Candidate) (string, bool) {
					return strings.TrimSuffix(c.Rel, ".m"), strings.Contains(c.Name, ".m") && c.Size > 0
				},
				Sniff: func(head []byte) bool {
					*sniffed = append(*sniffed, string(head))
					return string(head) == "MAGIC"
				}},
			{Kind: "empty-rec", Match: func(c Candidate) (string, bool) { return rec(c.Size == 0)(c) }},
			{Kind: "rec", Match: rec(true)},
		},
		Beside: []string{"notes/beside.txt"},
	}
}

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func listing(runs []Run) []string {
	var got []string
	for _, r := range runs {
		for _, f := range r.Files {
			got = append(got, r.Path+" "+f.Rel+" "+string(f.Kind))
		}
		for _, f := range r.Side {
			got = append(got, r.Path+" "+f.Rel+" "+string(f.Kind)+" (side)")
		}
	}
	return got
}

// Discover groups files into runs by the rules it is given, first rule
// first, records by name and sides by path; a file no record rule took is
// sniffed, with no more than its rule's bytes, and one a record rule took
// is not (the toy's "x.m.rec" would sniff as MAGIC).
func TestDiscoverAppliesRulesInOrder(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"b/2.rec":      "x",
		"b/1.rec":      "x",
		"b/part/0.rec": "x",
		"b/big.rec":    "",
		"b/cfg.txt":    "x",
		"c/cfg.txt":    "x", // a run of side files only
		"env.m":        "MAGICAL",
		"other.m":      "NOT MAGIC",
		"x.m.rec":      "MAGIC",
		"notes.txt":    "x",
	})
	var sniffed []string
	runs, err := toyRules(&sniffed).Discover(context.Background(), testsupport.OpenDir(t, root), func(string, error) {})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		". x.m.rec rec",
		"b b/part/0.rec rec",
		"b b/1.rec rec",
		"b b/2.rec rec",
		"b b/big.rec empty-rec",
		"b b/cfg.txt cfg (side)",
		"c c/cfg.txt cfg (side)",
		"env env.m magic (side)",
	}
	if got := listing(runs); !slices.Equal(got, want) {
		t.Errorf("Discover:\n%q\nwant\n%q", got, want)
	}
	slices.Sort(sniffed)
	if want := []string{"MAGIC", "NOT M"}; !slices.Equal(sniffed, want) {
		t.Errorf("sniffed %q, want %q (5 bytes each, of env.m and other.m only)", sniffed, want)
	}
}

// A file given alone is a record file when a record rule takes it by
// name, else what a sniffing rule takes it for, else a record file of the
// first record rule that takes files alone; side rules do not apply.
func TestSingle(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"a.rec":    "x",
		"env.m":    "MAGIC",
		"data.bin": "x",
		"none.bin": "",
		"cfg.txt":  "x",
	})
	var sniffed []string
	rs := toyRules(&sniffed)
	for name, want := range map[string]string{
		"a.rec":    ". a.rec rec",
		"env.m":    "env env.m magic (side)",
		"data.bin": ". data.bin rec",
		"none.bin": ". none.bin empty-rec",
		"cfg.txt":  ". cfg.txt rec",
	} {
		runs, err := rs.Single(testsupport.OpenDir(t, root), name)
		if err != nil {
			t.Errorf("Single(%s): %v", name, err)
			continue
		}
		if got := listing(runs); !slices.Equal(got, []string{want}) {
			t.Errorf("Single(%s) = %q, want %q", name, got, want)
		}
	}
	if _, err := rs.Single(testsupport.OpenDir(t, root), "missing"); err == nil {
		t.Errorf("Single of a missing file succeeded")
	}
	rs.Rules = slices.DeleteFunc(rs.Rules, func(r Rule) bool { return !r.Side })
	if _, err := rs.Single(testsupport.OpenDir(t, root), "data.bin"); err == nil || !strings.Contains(err.Error(), "data.bin") {
		t.Errorf("Single of a file no rule takes: %v, want an error naming it", err)
	}
}

// IsInput counts what the rules take by name, and the files read beside,
// not files told by their content.
func TestIsInput(t *testing.T) {
	var sniffed []string
	rs := toyRules(&sniffed)
	for rel, want := range map[string]bool{
		"r/a.rec":         true,
		"r/part/a.rec":    true,
		"r/cfg.txt":       true,
		"r/beside.txt":    true,
		"beside.txt":      true,
		"env.m":           false,
		"r/notes.txt":     false,
		"r/cfg.txt.bak":   false,
		"r/a.rec/file.md": false,
	} {
		if got := rs.IsInput(rel); got != want {
			t.Errorf("IsInput(%q) = %v, want %v", rel, got, want)
		}
	}
	if len(sniffed) != 0 {
		t.Errorf("IsInput sniffed %q", sniffed)
	}
}

// Files that are links, FIFOs or in linked directories are not read,
// and each is named in a warning: a log directory may not reach outside
// itself, and a FIFO would block the reader.
func TestDiscoverRefusesLinksAndFIFOs(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "9.secret.rec")
	if err := os.WriteFile(secret, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "run"), 0o755)
	if err := os.WriteFile(filepath.Join(root, "run", "1.host.rec"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, l := range []struct{ target, name string }{
		{secret, "run/2.link.rec"},
		{outside, "linked"},
		{"1.host.rec", "run/3.inside.rec"},
	} {
		if err := os.Symlink(l.target, filepath.Join(root, filepath.FromSlash(l.name))); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(root, "run", "4.fifo.rec"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	var warned []string
	var sniffed []string
	runs, err := toyRules(&sniffed).Discover(context.Background(), testsupport.OpenDir(t, root), func(name string, err error) {
		warned = append(warned, name)
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		for _, f := range r.Files {
			got = append(got, f.Rel)
		}
	}
	if want := []string{"run/1.host.rec"}; !slices.Equal(got, want) {
		t.Errorf("files %q, want %q", got, want)
	}
	slices.Sort(warned)
	want := []string{"linked", "run/2.link.rec", "run/3.inside.rec", "run/4.fifo.rec"}
	if !slices.Equal(warned, want) {
		t.Errorf("warnings for %q, want %q", warned, want)
	}
}

// A cancelled walk stops with the context's error.
func TestDiscoverCancelled(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a.rec": "x"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var sniffed []string
	if _, err := toyRules(&sniffed).Discover(ctx, testsupport.OpenDir(t, root), func(string, error) {}); !errors.Is(err, context.Canceled) {
		t.Errorf("Discover with a cancelled context: %v", err)
	}
}
