package main

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/reduce/project"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

func TestEmbeddingFlags(t *testing.T) {
	c, _, err := parseArgs([]string{"--embedding-methods", "UMAP, pca", "--embedding-max-points", "tsne=200, neighbors=50,umap-total=7", "logs"}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	e := c.embeddings
	if !slices.Equal(e.opt.Methods, []project.Method{project.UMAP, project.PCA}) || e.opt.MaxTSNE != 200 || e.opt.MaxNeighbors != 50 ||
		e.opt.MaxPCA != 0 || e.totalUMAP != 7 || e.totalTSNE != 0 {
		t.Errorf("parsed %+v", e)
	}
	c, _, err = parseArgs([]string{"logs"}, io.Discard, io.Discard)
	if err != nil || c.embeddings.opt.Methods != nil {
		t.Errorf("default methods %v (%v), want nil: every method", c.embeddings.opt.Methods, err)
	}
	for _, bad := range [][]string{
		{"--embedding-methods", "pca,lle"},
		{"--embedding-max-points", "tsne=0"},
		{"--embedding-max-points", "tsne"},
		{"--embedding-max-points", "isomap=10"},
		{"--embedding-max-points", "umap=-3"},
		{"--embedding-budget", "-1"},
		{"--embedding-budget", "1.5x"},
	} {
		if _, _, err := parseArgs(append(bad, "logs"), io.Discard, io.Discard); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// --embedding-budget is in estimated core-seconds; 0 removes the bound.
func TestEmbeddingBudgetFlag(t *testing.T) {
	for arg, want := range map[string]int64{"": 0, "0": -1, "300": 300 * project.WorkPerSecond, "99999999999999": math.MaxInt64} {
		args := []string{"logs"}
		if arg != "" {
			args = []string{"--embedding-budget", arg, "logs"}
		}
		c, _, err := parseArgs(args, io.Discard, io.Discard)
		if err != nil || c.embeddings.budget != want {
			t.Errorf("%q: budget %d (%v), want %d", arg, c.embeddings.budget, err, want)
		}
	}
}

// Off a terminal (a CI log), the layouts' progress is a line at every
// tick, each saying what is done and what is being laid out, whatever
// the callbacks between ticks.
func TestEmbeddingProgressLinesEveryTick(t *testing.T) {
	var out strings.Builder
	p := newEmbeddingProgress(&out, false)
	start := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	p.start = start
	tick, stop, stopped := make(chan time.Time), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		p.report(tick, stop)
	}()
	p.update(analysis.EmbeddingProgress{Done: 0, Total: 3, TotalWork: 400, Current: "run \"a\", embedding \"x\x1b[2J\", step 0"})
	tick <- start.Add(progressPeriod)
	p.update(analysis.EmbeddingProgress{Done: 1, Total: 3, DoneWork: 100, TotalWork: 400, Current: "run \"a\", embedding \"y\", step 2"})
	p.update(analysis.EmbeddingProgress{Done: 2, Total: 3, DoneWork: 300, TotalWork: 400, Current: "run \"a\", embedding \"z\", step 4"})
	tick <- start.Add(2 * progressPeriod)
	tick <- start.Add(3 * progressPeriod) // nothing new: said again
	close(stop)
	<-stopped
	// A name render did not quote (it does) still reaches the log inert.
	want := `laying out embeddings: 0 of 3 done, 0% of the estimated work, 10s; now run \"a\", embedding \"x\x1b[2J\", step 0
laying out embeddings: 2 of 3 done, 75% of the estimated work, 20s; now run "a", embedding "z", step 4
laying out embeddings: 2 of 3 done, 75% of the estimated work, 30s; now run "a", embedding "z", step 4
`
	if out.String() != want {
		t.Errorf("lines:\n%s\nwant\n%s", out.String(), want)
	}
}

// The layouts are one phase of the analysis: no line is printed before
// analysis first tells of them, nor after it told they ended (other
// phases may still run).
func TestEmbeddingProgressSilentOutsideTheLayouts(t *testing.T) {
	var out strings.Builder
	p := newEmbeddingProgress(&out, false)
	now := time.Now()
	tick, stop, stopped := make(chan time.Time), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		p.report(tick, stop)
	}()
	tick <- now
	p.update(analysis.EmbeddingProgress{Done: 0, Total: 1, TotalWork: 400, Current: "run \"a\", embedding \"x\", step 0"})
	p.update(analysis.EmbeddingProgress{Done: 1, Total: 1, DoneWork: 400, TotalWork: 400})
	tick <- now.Add(progressPeriod)
	close(stop)
	<-stopped
	if out.String() != "" {
		t.Errorf("lines outside the layouts:\n%s", out.String())
	}
}

// After the analysis, the budgets' warnings are printed, even with
// --quiet, and how long the layouts took, without it.
func TestEmbeddingProgressDoneWarnsAndSaysHowLong(t *testing.T) {
	for _, quiet := range []bool{false, true} {
		var out strings.Builder
		p := newEmbeddingProgress(&out, quiet)
		p.update(analysis.EmbeddingProgress{Done: 0, Total: 2, TotalWork: 400, Current: "run \"a\", embedding \"x\", step 0"})
		p.update(analysis.EmbeddingProgress{Done: 2, Total: 2, DoneWork: 400, TotalWork: 400})
		p.done(result.Embeddings{Warnings: []string{"embeddings: UMAP not computed: \x1b[2J"}})
		want := "warning: embeddings: UMAP not computed: \\x1b[2J\n"
		if !quiet {
			want += "laid out 2 embeddings in "
		}
		if got := out.String(); !strings.HasPrefix(got, want) || quiet && got != want {
			t.Errorf("quiet %v: printed %q, want %q", quiet, got, want)
		}
	}
}

// A log directory holding only projector files (TF's projector API used
// without tf.summary) gets a report of its embeddings, not "no event files".
func TestEmbeddingsOnlyLogdir(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"projector_config.pbtxt": "embeddings {\n  tensor_name: \"e\"\n  tensor_path: \"t.tsv\"\n}\n",
		"t.tsv":                  "1\t2\n3\t4\n5\t7\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "site")
	code, stderr := runCLI(t, "-o", out, dir)
	if code != 0 || !strings.Contains(stderr, "laid out 1 embedding in ") {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	for _, f := range []string{"embeddings.html", "index.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}
