package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/internal/testcorpus"
)

func corpusRoot(t testing.TB) string { return testcorpus.Dir(t) }

func runCLI(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	code := run(context.Background(), args, io.Discard, &stderr)
	return code, stderr.String()
}

// TestEveryCorpusDirectory builds a report for each directory of the shared
// corpus: damaged files give warnings, never a crash, and a directory with
// nothing readable (only Git LFS stubs) fails with a one-line reason.
func TestEveryCorpusDirectory(t *testing.T) {
	t.Parallel()
	root := corpusRoot(t)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			out := t.TempDir()
			// Caps below the defaults: tf2-projector-ckpt's three embeddings of
			// 10,000 points take about 36 CPU-seconds at the defaults
			// (docs/PERFORMANCE.md), and the sampling path is exercised too; these
			// small ones as well as tsne=500,umap=300,neighbors=500 did, at 3.6 s
			// of CPU for that folder's report rather than 8.0 s.
			code, stderr := runCLI(t, "-quiet", "-o", out, "--embedding-max-points", "tsne=200,umap=150,neighbors=200", filepath.Join(root, e.Name()))
			if e.Name() == "hf-whisper-lfs-pointers" {
				if code != 1 || !strings.Contains(stderr, "nothing readable") || !strings.Contains(stderr, "Git LFS pointer") {
					t.Errorf("exit %d, stderr:\n%s\nwant exit 1 naming the LFS stubs", code, stderr)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d:\n%s", code, stderr)
			}
			for _, f := range []string{"index.html", "summary.json", "summary.md", "data/index.json", "assets/echarts.min.js", "assets/app.js"} {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Errorf("missing %s", f)
				}
			}
			if e.Name() == "tf1-estimator-truncated" {
				if !strings.Contains(stderr, "offset 857490") {
					t.Errorf("truncation not reported with its offset:\n%s", stderr)
				}
				page, _ := os.ReadFile(filepath.Join(out, "index.html"))
				if !bytes.Contains(page, []byte("offset 857490")) || !bytes.Contains(page, []byte("2 truncated")) {
					t.Errorf("overview does not show the truncated files")
				}
			}
		})
	}
}

func TestOutputsAndFlags(t *testing.T) {
	root := corpusRoot(t)
	dir := t.TempDir()
	out, single, md := filepath.Join(dir, "site"), filepath.Join(dir, "one.html"), filepath.Join(dir, "sum.md")
	// Flags after the log directories, and a named log directory.
	code, stderr := runCLI(t, "torch="+filepath.Join(root, "tbreducer-torch-runs"), filepath.Join(root, "tf2-custom-loop-tensors"),
		"-o", out, "--single-file", single, "--markdown", md, "--title", "My <report>", "--max-points", "50")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "wrote ") {
		t.Errorf("no progress line on stderr:\n%s", stderr)
	}
	var sum struct {
		Title string
		Runs  []struct{ Name, Logdir string }
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Title != "My <report>" {
		t.Errorf("title %q", sum.Title)
	}
	names := map[string]bool{}
	for _, r := range sum.Runs {
		names[r.Logdir] = true
		if !strings.HasPrefix(r.Name, r.Logdir) {
			t.Errorf("run %q is not named after its log directory %q", r.Name, r.Logdir)
		}
	}
	if !names["torch"] || !names["tf2-custom-loop-tensors"] {
		t.Errorf("log directory names %v", names)
	}
	for _, f := range []string{single, md} {
		if fi, err := os.Stat(f); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	page, _ := os.ReadFile(filepath.Join(out, "scalars.html"))
	if !bytes.Contains(page, []byte("87 of 250 points")) {
		t.Errorf("--max-points 50 did not downsample the series of tag lax/bar_3 (250 points in 3 runs)")
	}
}

func TestErrors(t *testing.T) {
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("no logs here"), 0o644)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"missing directory", []string{"/no/such/dir"}, 1, "log directory /no/such/dir does not exist"},
		{"no event files", []string{empty}, 1, "no event files found"},
		{"no arguments", nil, 2, "no log directory given"},
		{"bad flag", []string{"-max-points", "0", empty}, 2, "max-points"},
		{"unknown restart rule", []string{"--restarts=newest", empty}, 2, `--restarts "newest": want attempts, latest or tensorboard`},
		{"restart rule and every record", []string{"--restarts=latest", "--keep-all-records", empty}, 2, "give it or --restarts, not both"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stderr := runCLI(t, append([]string{"-o", t.TempDir()}, tc.args...)...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d with %q", code, stderr, tc.code, tc.want)
			}
			last := strings.TrimSpace(stderr)
			if i := strings.LastIndex(last, "\n"); i >= 0 {
				last = last[i+1:]
			}
			if !strings.HasPrefix(last, "trainreport: ") {
				t.Errorf("last line %q is not a one-line reason", last)
			}
		})
	}
}

// TestTwoBuildsAreIdentical builds the demo report twice, site, single file
// and Markdown, and compares every byte.
func TestTwoBuildsAreIdentical(t *testing.T) {
	t.Parallel()
	logs := sharedDemo(t).logdir // read only
	build := func() string {
		dir := t.TempDir()
		code, stderr := runCLI(t, "-quiet", "-o", filepath.Join(dir, "site"), "--single-file", filepath.Join(dir, "one.html"),
			"--markdown", filepath.Join(dir, "sum.md"), logs)
		if code != 0 {
			t.Fatalf("exit %d:\n%s", code, stderr)
		}
		return dir
	}
	a, b := build(), build()
	n := 0
	filepath.WalkDir(a, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(a, p)
		x, _ := os.ReadFile(p)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s differs between two builds (%v)", rel, err)
		}
		n++
		return nil
	})
	if n < 10 {
		t.Errorf("only %d files compared", n)
	}
}

// TestStepBudgetFlags: --max-media-steps, --max-histogram-steps and
// --max-page-points reach the pages, which say what they hold.
func TestStepBudgetFlags(t *testing.T) {
	t.Parallel()
	logs := sharedDemo(t).logdir // read only
	out := filepath.Join(t.TempDir(), "site")
	if code, stderr := runCLI(t, logs, "-o", out, "-quiet", "--max-media-steps", "10", "--max-histogram-steps", "7", "--max-page-points", "3000"); code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	for page, want := range map[string]string{
		"images.html":     "10 of 120 steps", // samples/reconstruction
		"histograms.html": "7 of 51 steps",
	} {
		b, err := os.ReadFile(filepath.Join(out, page))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("%s does not say %q", page, want)
		}
	}
	if code, _ := runCLI(t, logs, "-o", out, "--max-media-steps", "0"); code != 2 {
		t.Errorf("--max-media-steps 0: exit %d, want 2", code)
	}
	// The scalars page says it drew fewer points per series, and its
	// charts' labels add up to at most the page budget.
	b, err := os.ReadFile(filepath.Join(out, "scalars.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`each draws at most \d+ points, to keep it under 3,000 drawn points`).Match(b) {
		t.Error("scalars.html does not say its page budget lowered the points per series")
	}
	drawn := 0
	for _, m := range regexp.MustCompile(`<span class="points">([0-9,]+)`).FindAllSubmatch(b, -1) {
		n, _ := strconv.Atoi(strings.ReplaceAll(string(m[1]), ",", ""))
		drawn += n
	}
	if drawn == 0 || drawn > 3000 {
		t.Errorf("scalars.html draws %d points in all, want 1 to 3,000", drawn)
	}
	if code, _ := runCLI(t, logs, "-o", out, "--max-page-points", "-1"); code != 2 {
		t.Errorf("--max-page-points -1: exit %d, want 2", code)
	}
}

// TestMaxSingleFileBytesFlag: --max-single-file-bytes reaches the single
// file, which then leaves pages out and stays under it; 0 removes the
// bound and a negative value is refused.
func TestMaxSingleFileBytesFlag(t *testing.T) {
	t.Parallel()
	logs := sharedDemo(t).logdir // read only
	sizes := map[string]int{}
	for _, budget := range []string{"0", "1400000"} {
		single := filepath.Join(t.TempDir(), "report.html")
		if code, stderr := runCLI(t, logs, "-o", filepath.Join(t.TempDir(), "site"), "-quiet", "--single-file", single, "--max-single-file-bytes", budget); code != 0 {
			t.Fatalf("--max-single-file-bytes %s: exit %d:\n%s", budget, code, stderr)
		}
		b, err := os.ReadFile(single)
		if err != nil {
			t.Fatal(err)
		}
		sizes[budget] = len(b)
		if cut := bytes.Contains(b, []byte("(--max-single-file-bytes)")); cut != (budget != "0") {
			t.Errorf("--max-single-file-bytes %s: pages left out %v (%d bytes)", budget, cut, len(b))
		}
	}
	if sizes["0"] <= 1_400_000 || sizes["1400000"] > 1_400_000 {
		t.Errorf("single file of %d bytes without a bound, %d under 1,400,000", sizes["0"], sizes["1400000"])
	}
	if code, _ := runCLI(t, logs, "-o", filepath.Join(t.TempDir(), "site"), "--single-file", filepath.Join(t.TempDir(), "r.html"), "--max-single-file-bytes", "-1"); code != 2 {
		t.Errorf("--max-single-file-bytes -1: exit %d, want 2", code)
	}
}

// TestMaxPageBytesFlag: --max-page-bytes reaches the scalars page, which
// then summarises its runs and stays under it; 0 removes the bound and a
// negative value is refused.
func TestMaxPageBytesFlag(t *testing.T) {
	t.Parallel()
	logs := sharedDemo(t).logdir // read only
	for _, tc := range []struct {
		budget string
		sweep  bool
	}{{"0", false}, {"60000", true}} {
		out := filepath.Join(t.TempDir(), "site")
		if code, stderr := runCLI(t, logs, "-o", out, "-quiet", "--max-page-bytes", tc.budget); code != 0 {
			t.Fatalf("--max-page-bytes %s: exit %d:\n%s", tc.budget, code, stderr)
		}
		b, err := os.ReadFile(filepath.Join(out, "scalars.html"))
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(b, []byte("data-sweep-selector")); got != tc.sweep {
			t.Errorf("--max-page-bytes %s: a sweep's page %v, want %v (%d bytes)", tc.budget, got, tc.sweep, len(b))
		}
		if tc.sweep && len(b) > 60000 {
			t.Errorf("--max-page-bytes 60000: scalars.html of %d bytes", len(b))
		}
	}
	if code, _ := runCLI(t, logs, "-o", filepath.Join(t.TempDir(), "site"), "--max-page-bytes", "-1"); code != 2 {
		t.Errorf("--max-page-bytes -1: exit %d, want 2", code)
	}
}
