package logfs

import (
	"errors"
	"gocloud.dev/blob"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// setup makes a log directory with a file, a FIFO, links in and out, and
// a secret beside it.
func setup(t *testing.T) (*Dir, string) {
	t.Helper()
	parent := t.TempDir()
	root := filepath.Join(parent, "logs")
	must(t, os.MkdirAll(filepath.Join(root, "run"), 0o755))
	must(t, os.WriteFile(filepath.Join(parent, "secret"), []byte("token"), 0o600))
	must(t, os.WriteFile(filepath.Join(root, "run", "hparams.yaml"), []byte("lr: 0.1\n"), 0o644))
	must(t, os.Symlink(filepath.Join(parent, "secret"), filepath.Join(root, "run", "abs-out")))
	must(t, os.Symlink("../../secret", filepath.Join(root, "run", "rel-out")))
	must(t, os.Symlink("hparams.yaml", filepath.Join(root, "run", "in")))
	must(t, os.Symlink(parent, filepath.Join(root, "up")))
	if err := syscall.Mkfifo(filepath.Join(root, "run", "fifo"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	d, err := Open(root)
	must(t, err)
	t.Cleanup(func() { d.Close() })
	return d, root
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Nothing but the directory's own files is read: no link is followed, even
// one that stays inside, so what a report holds is what the log directory
// holds, whatever discovery or a config names.
func TestOpenRefusesWhatLeavesOrIsNotAFile(t *testing.T) {
	d, _ := setup(t)
	for _, name := range []string{"run/abs-out", "run/rel-out", "run/in", "up/secret", "up/logs/run/hparams.yaml", "../secret", "/etc/passwd", "run/fifo", "run", "run/missing"} {
		f, err := d.Open(name)
		if err == nil {
			f.Close()
			t.Errorf("Open(%q) succeeded", name)
		}
	}
	if _, err := d.Open("run/fifo"); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Open(fifo) = %v, want ErrNotRegular", err)
	}
	for _, name := range []string{"run/hparams.yaml", "run/../run/hparams.yaml", "./run/hparams.yaml"} {
		b, err := d.ReadFile(name, 100)
		if err != nil || string(b) != "lr: 0.1\n" {
			t.Errorf("ReadFile(%q) = %q, %v", name, b, err)
		}
	}
}

func TestReadFileBoundsSize(t *testing.T) {
	d, root := setup(t)
	must(t, os.WriteFile(filepath.Join(root, "big"), make([]byte, 1000), 0o644))
	if _, err := d.ReadFile("big", 999); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadFile over the limit = %v, want ErrTooLarge", err)
	}
	if b, err := d.ReadFile("big", 1000); err != nil || len(b) != 1000 {
		t.Errorf("ReadFile at the limit = %d bytes, %v", len(b), err)
	}
}

// A range taken from a file that has shrunk since must not allocate what
// it claims.
func TestReadAtChecksTheRange(t *testing.T) {
	d, root := setup(t)
	must(t, os.WriteFile(filepath.Join(root, "blob"), []byte("0123456789"), 0o644))
	if b, err := d.ReadAt("blob", 2, 3); err != nil || string(b) != "234" {
		t.Errorf("ReadAt = %q, %v", b, err)
	}
	for _, r := range [][2]int64{{8, 3}, {11, 0}, {0, 1 << 40}, {-1, 2}, {2, -1}} {
		if _, err := d.ReadAt("blob", r[0], r[1]); err == nil {
			t.Errorf("ReadAt(%d, %d) succeeded", r[0], r[1])
		}
	}
	if _, err := d.ReadAt("run/abs-out", 0, 1); err == nil {
		t.Errorf("ReadAt through a link out succeeded")
	}
}

func TestWalkRefusesLinksAndFIFOs(t *testing.T) {
	d, _ := setup(t)
	var files, refused []string
	err := d.Walk(func(name string, size int64) error {
		files = append(files, name)
		return nil
	}, func(name string, err error) {
		refused = append(refused, name+": "+err.Error())
	})
	must(t, err)
	if strings.Join(files, " ") != "run/hparams.yaml" {
		t.Errorf("files %q", files)
	}
	got := strings.Join(refused, "\n")
	for _, want := range []string{"run/abs-out: not a regular file (symbolic link)", "run/fifo: not a regular file (named pipe)", "up: not a regular file (symbolic link)"} {
		if !strings.Contains(got, want) {
			t.Errorf("refused:\n%s\nwant %q", got, want)
		}
	}
}

func TestRel(t *testing.T) {
	d, root := setup(t)
	for _, tc := range []struct{ dir, name, want string }{
		{"run", "t.tsv", "run/t.tsv"},
		{"run", "../run/t.tsv", "run/t.tsv"},
		{"run", `..\x\t.tsv`, "x/t.tsv"},
		{".", "t.tsv", "t.tsv"},
		{"run", filepath.Join(root, "run", "t.tsv"), "run/t.tsv"},
		{"run", "../../secret", ""},
		{"run", `..\..\secret`, ""},
		{"run", "/etc/passwd", ""},
		{"run", filepath.Join(filepath.Dir(root), "secret"), ""},
		{"run", "", ""},
	} {
		got, err := d.Rel(tc.dir, tc.name)
		if tc.want == "" && err == nil || tc.want != "" && (err != nil || got != tc.want) {
			t.Errorf("Rel(%q, %q) = %q, %v; want %q", tc.dir, tc.name, got, err, tc.want)
		}
	}
	if _, err := d.Stat("up/secret"); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat through a link out = %v, want a refusal", err)
	}
}

// TestBucketNames checks the names a bucket's key may have: what a path
// would clean into another name, leave by, or that a terminal or a
// Windows reader would take otherwise, is not a plain name.
func TestBucketNames(t *testing.T) {
	for _, c := range []struct {
		key  string
		want bool
	}{
		{"run1", true}, {"événement", true}, {"a b", true},
		{"back\\slash", false}, {"bad\xffutf8", false}, {"ctl\x1b[31m", false}, {"nl\n", false}, {"del\x7f", false},
	} {
		if got := validName(c.key); got != c.want {
			t.Errorf("validName(%q) = %v, want %v", c.key, got, c.want)
		}
	}
	for _, c := range []struct{ url, err string }{
		{"s3://b/p", ""}, {"az://c/p/q/", ""}, {"gs://b", ""},
		{"s3://u:p@b/p", "user information"},
		{"s3:///p", "no bucket"},
		{"s3://b/../p", "not a plain"},
		{"s3://b/p//q", "not a plain"},
		{"s3://b/p?endpoint=x&session_token=y", "credential"},
		{"s3://b/p\\q", "not a plain"},
	} {
		u, err := parseURL(c.url)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("parseURL(%q) = %+v, %v; want an error with %q", c.url, u, err, c.err)
		}
	}
	if got := Redact("s3://b/p/q?endpoint=http://h:1&region=x"); got != "s3://b/p/q" {
		t.Errorf("Redact = %q", got)
	}
}

// FuzzParseURL: whatever a log directory URL holds, what it is shown as
// holds no query, no user information and no name that is not plain, and
// its prefix names nothing outside it.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"s3://b/p", "s3://u:p@b/p?endpoint=http://h:1", "az://c/a/../b", "gs://b/p?x=1&secret=2", "s3://b/p//q/", "azblob://c/\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := parseURL(s)
		if err != nil {
			return
		}
		scheme, rest, _ := strings.Cut(u.display, "://")
		if _, ok := schemes[scheme]; !ok || strings.ContainsAny(rest, "?@\\") || !validName(rest) || !fs.ValidPath(rest) {
			t.Errorf("parseURL(%q) shows %q", s, u.display)
		}
		if u.prefix != "" && (!strings.HasSuffix(u.prefix, "/") || !fs.ValidPath(strings.TrimSuffix(u.prefix, "/"))) {
			t.Errorf("parseURL(%q): prefix %q", s, u.prefix)
		}
		if Redact(s) != u.display {
			t.Errorf("Redact(%q) = %q, want %q", s, Redact(s), u.display)
		}
	})
}

// FuzzBucketEntry: a key a listing returns is read only under a name
// that is a plain path below the directory listed; any other is refused
// under a quoted name that is one element.
func FuzzBucketEntry(f *testing.F) {
	for _, s := range []string{"p/run/events", "p/../x", "p//x", "p/a\\b", "p/\x1b[31m", "p/\xff", "p/.", "p/"} {
		f.Add(s, false)
		f.Add(s+"/", true)
	}
	b := &bucket{}
	f.Fuzz(func(t *testing.T, key string, isDir bool) {
		if !strings.HasPrefix(key, "p/") {
			return
		}
		e, ok := b.entry("run", "p/", &blob.ListObject{Key: key, IsDir: isDir, Size: 1})
		if !ok {
			return
		}
		rel := strings.TrimPrefix(e.name, "run/")
		switch {
		case !strings.HasPrefix(e.name, "run/") || strings.Contains(rel, "/") && e.bad == nil:
			t.Errorf("key %q: name %q outside the directory", key, e.name)
		case e.bad == nil && (!fs.ValidPath(e.name) || !validName(e.name)):
			t.Errorf("key %q read as %q", key, e.name)
		case e.bad != nil && !strings.HasPrefix(rel, `"`):
			t.Errorf("key %q refused under %q", key, e.name)
		}
	})
}

// TestOpenInStaysBelowTheRoot: a log directory named below a root (as a
// part names one to merge) is opened only by a clean relative name, and
// only inside the root, whatever links the way passes; inside it, Open's
// rules hold.
func TestOpenInStaysBelowTheRoot(t *testing.T) {
	_, logs := setup(t)
	parent := filepath.Dir(logs)
	outside := t.TempDir()
	must(t, os.WriteFile(filepath.Join(outside, "secret"), []byte("token"), 0o600))
	must(t, os.Symlink(outside, filepath.Join(parent, "out")))
	must(t, os.Symlink("logs", filepath.Join(parent, "in")))
	root, err := os.OpenRoot(parent)
	must(t, err)
	defer root.Close()
	for _, name := range []string{"../" + filepath.Base(outside), outside, "/", "", "logs/../logs", "./logs", "logs/", "out", "logs/up/..", "logs//run"} {
		if d, err := OpenIn(root, name); err == nil {
			d.Close()
			t.Errorf("OpenIn(%q) succeeded", name)
		}
	}
	for _, name := range []string{"logs", "in", "."} {
		d, err := OpenIn(root, name)
		if err != nil {
			t.Errorf("OpenIn(%q): %v", name, err)
			continue
		}
		want := "run/hparams.yaml"
		if name == "." {
			want = "logs/run/hparams.yaml"
		}
		if b, err := d.ReadFile(want, 100); err != nil || string(b) != "lr: 0.1\n" {
			t.Errorf("OpenIn(%q).ReadFile(%q) = %q, %v", name, want, b, err)
		}
		if _, err := d.ReadFile(strings.TrimSuffix(want, "hparams.yaml")+"abs-out", 100); err == nil {
			t.Errorf("OpenIn(%q) follows a link inside the log directory", name)
		}
		d.Close()
	}
}
