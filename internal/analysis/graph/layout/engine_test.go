package layout

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/graph/hierarchy"
)

// childCacheEnv names the cache folder a child process of the test
// binary lays out a graph with (see TestMain): dot is started once per
// process, so each cache folder is tried in a process of its own.
const childCacheEnv = "TRAINREPORT_LAYOUT_TEST_CACHE"

func TestMain(m *testing.M) {
	if dir, ok := os.LookupEnv(childCacheEnv); ok {
		fmt.Print(layOutDiamond(dir))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// layOutDiamond lays out a graph that needs dot (a -> b, a -> c, b -> d,
// c -> d: not a chain) with the given cache folder, and says "laid out"
// or why not.
func layOutDiamond(cacheDir string) string {
	g := &model.NodeGraph{Nodes: []model.Node{
		{Name: "a", Op: "Placeholder"},
		{Name: "b", Op: "Relu", Inputs: []model.NodeInput{{Name: "a"}}},
		{Name: "c", Op: "Tanh", Inputs: []model.NodeInput{{Name: "a"}}},
		{Name: "d", Op: "AddV2", Inputs: []model.NodeInput{{Name: "b"}, {Name: "c"}}},
	}}
	h := hierarchy.Build(g)
	if !needsDot(h.Groups[0]) {
		return "the test graph does not need dot"
	}
	v := Views(context.Background(), h, g, Options{CacheDir: cacheDir, Metrics: testMetrics})[0]
	if v.Skipped != "" {
		return v.Skipped
	}
	for _, b := range v.Boxes {
		if b.W <= 0 || b.H <= 0 {
			return fmt.Sprintf("empty box %+v", b)
		}
	}
	return "laid out"
}

// runChild lays out layOutDiamond's graph in a new process with cacheDir
// and an empty TMPDIR of its own, which it checks is still empty after.
func runChild(t *testing.T, cacheDir string) string {
	t.Helper()
	tmp := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childCacheEnv+"="+cacheDir, "TMPDIR="+tmp)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, stderr.Bytes())
	}
	if left := tree(t, tmp); len(left) != 0 {
		t.Errorf("the child wrote in its TMPDIR: %v", left)
	}
	return string(out)
}

// tree lists every file and folder under dir with what identifies its
// content: mode and, for files, their size and checksum.
func tree(t *testing.T, dir string) map[string]string {
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

// tempRoot is a folder for cache folders, skipping the test when the
// temporary folder is itself one privateCache refuses (an odd TMPDIR).
func tempRoot(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("owners are checked on Unix only")
	}
	root := t.TempDir()
	if err := safeAncestors(root); err != nil {
		t.Skipf("the temporary folder is not private: %v", err)
	}
	return root
}

// plant writes files (relative name: content) under dir.
func plant(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPrivateCacheRefusesFoldersOthersControl: the cache folder holds
// machine code the process runs, so one that another user made, can
// write or can swap is refused, and nothing is written in it.
func TestPrivateCacheRefusesFoldersOthersControl(t *testing.T) {
	root := tempRoot(t)
	if _, err := privateCache(filepath.Join(root, "new", "cache")); err != nil {
		t.Fatalf("a new folder refused: %v", err)
	}
	if fi, err := os.Stat(filepath.Join(root, "new", "cache")); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the new cache folder: %v, %v; want mode 0700", fi, err)
	}
	sticky := filepath.Join(root, "sticky")
	if err := os.Mkdir(sticky, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sticky, 0o777|fs.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if _, err := privateCache(filepath.Join(sticky, "cache")); err != nil {
		t.Errorf("a folder of ours in a sticky folder (as in /tmp) refused: %v", err)
	}

	for _, c := range []struct {
		name  string
		setUp func(t *testing.T, dir string) string // returns the folder to try
		want  string
	}{
		{"relative", func(t *testing.T, dir string) string { return "cache" }, "not an absolute path"},
		{"open to others", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "cache")
			mkdir(t, p, 0o755)
			return p
		}, "open to group or others"},
		{"symlink", func(t *testing.T, dir string) string {
			mkdir(t, filepath.Join(dir, "elsewhere"), 0o700)
			p := filepath.Join(dir, "cache")
			if err := os.Symlink(filepath.Join(dir, "elsewhere"), p); err != nil {
				t.Fatal(err)
			}
			return p
		}, "symbolic link"},
		{"a file", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "cache")
			plant(t, dir, map[string]string{"cache": "x"})
			return p
		}, "not"},
		{"in a folder others can write", func(t *testing.T, dir string) string {
			pub := filepath.Join(dir, "pub")
			mkdir(t, pub, 0o777)
			p := filepath.Join(pub, "cache")
			mkdir(t, p, 0o700)
			return p
		}, "writable by others"},
		{"another user's", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "cache")
			mkdir(t, p, 0o700)
			if err := os.Lchown(p, 65534, 65534); err != nil {
				t.Skipf("cannot give a folder to another user: %v", err)
			}
			return p
		}, "owned by another user"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(root, strings.ReplaceAll(c.name, " ", "-"))
			mkdir(t, dir, 0o700)
			p := c.setUp(t, dir)
			before := tree(t, dir)
			_, err := privateCache(p)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("privateCache(%s): %v, want an error saying %q", p, err, c.want)
			}
			if after := tree(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("the refused folder changed:\n%v\n%v", before, after)
			}
		})
	}
}

func mkdir(t *testing.T, p string, mode fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

// TestPlantedCacheIsNotRun: a cache folder holding foreign compiled code
// is read only when private. The test first fills a private folder (and
// finds the names wazero gives its files), then shows that garbage under
// those names in a private folder is read (dot fails to start: the
// garbage would be run if it were code), and that the same garbage in a
// folder open to others, behind a symbolic link or of another user is
// neither read nor changed, the graph being laid out all the same; no
// child process writes in its TMPDIR.
func TestPlantedCacheIsNotRun(t *testing.T) {
	root := tempRoot(t)
	good := filepath.Join(root, "good")
	if got := runChild(t, good); got != "laid out" {
		t.Fatalf("with a new private cache: %s", got)
	}
	files := tree(t, good)
	garbage := map[string]string{}
	for name, what := range files {
		if strings.HasPrefix(what, "-") { // a regular file
			garbage[name] = "not machine code"
		}
	}
	if len(garbage) == 0 {
		t.Fatalf("nothing cached in %s: %v", good, files)
	}
	if got := runChild(t, good); got != "laid out" {
		t.Fatalf("with the cache filled: %s", got)
	}
	if after := tree(t, good); fmt.Sprint(after) != fmt.Sprint(files) {
		t.Errorf("the filled cache changed when read:\n%v", after)
	}

	// The control: a private folder's garbage is read.
	private := filepath.Join(root, "private")
	mkdir(t, private, 0o700)
	plant(t, private, garbage)
	if got := runChild(t, private); !strings.Contains(got, "starting Graphviz") {
		t.Fatalf("garbage in a private cache: %q, want dot failing to start", got)
	}

	for _, c := range []struct {
		name  string
		setUp func(t *testing.T, dir string) string // returns the cache folder
	}{
		{"open to others", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "cache")
			mkdir(t, p, 0o755)
			plant(t, p, garbage)
			return p
		}},
		{"symlink", func(t *testing.T, dir string) string {
			target := filepath.Join(dir, "elsewhere")
			mkdir(t, target, 0o700)
			plant(t, target, garbage)
			p := filepath.Join(dir, "cache")
			if err := os.Symlink(target, p); err != nil {
				t.Fatal(err)
			}
			return p
		}},
		{"another user's", func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "cache")
			mkdir(t, p, 0o700)
			plant(t, p, garbage)
			if err := os.Lchown(p, 65534, 65534); err != nil {
				t.Skipf("cannot give a folder to another user: %v", err)
			}
			return p
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(root, strings.ReplaceAll(c.name, " ", "-"))
			mkdir(t, dir, 0o700)
			p := c.setUp(t, dir)
			before := tree(t, dir)
			if got := runChild(t, p); got != "laid out" {
				t.Errorf("with a planted cache %s: %s", c.name, got)
			}
			if after := tree(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("the planted cache changed:\n%v\n%v", before, after)
			}
		})
	}
}
