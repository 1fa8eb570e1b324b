package analysis

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/reduce/project"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/testsupport"
)

// collectEmbeddings collects the log directory dir as the command does.
func collectEmbeddings(t *testing.T, dir string) *model.Report {
	t.Helper()
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "proj", Path: dir}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rep.Close() })
	return rep
}

func build(t *testing.T, rep *model.Report, opt Options) *result.Analysis {
	t.Helper()
	an, err := Build(context.Background(), rep, opt)
	if err != nil {
		t.Fatal(err)
	}
	return an
}

// methodsOf lists the methods a step was laid out by.
func methodsOf(s *result.EmbeddingStep) []string {
	methods := []string{}
	if s.Layout != nil {
		for _, p := range s.Layout.Projections {
			methods = append(methods, p.Method)
		}
	}
	return methods
}

// A config may name one small tensor file many times: the report's
// budgets of t-SNE and UMAP points bound the work, in report order, and
// the embeddings past them say so.
func TestEmbeddingPointBudgetsGoInReportOrder(t *testing.T) {
	rep := collectEmbeddings(t, testsupport.TinyEmbeddings(t, 5))
	an := build(t, rep, Options{EmbeddingTotalTSNE: 100, EmbeddingTotalUMAP: 150})
	if len(an.Embeddings.Sets) != 5 {
		t.Fatalf("%d embeddings, want 5", len(an.Embeddings.Sets))
	}
	for i, set := range an.Embeddings.Sets {
		s := set.Steps[0]
		want := []string{"pca", "tsne", "umap"}
		switch {
		case i >= 3:
			want = []string{"pca"}
		case i == 2:
			want = []string{"pca", "umap"}
		}
		if got := methodsOf(s); !slices.Equal(got, want) || len(s.Skipped) != 3-len(want) || s.Err != nil {
			t.Errorf("embedding %d (%s): methods %v, skipped %q, error %v; want %v", i, set.Name, got, s.Skipped, s.Err, want)
		}
		for _, note := range s.Skipped {
			if note != "t-SNE not computed: the report's budget of 100 points laid out by t-SNE over all embeddings was spent" &&
				note != "UMAP not computed: the report's budget of 150 points laid out by UMAP over all embeddings was spent" {
				t.Errorf("embedding %d: note %q", i, note)
			}
		}
	}
}

// 2,000 tiny embeddings: the default budget of work, counting each one's
// fixed cost and iterations, gives t-SNE and UMAP to the first ones that
// fit, in report order, and every one its PCA and neighbour lists; the
// others say what was left out, and one warning per note counts them. The
// plan is made from the shapes, before any point is read.
func TestManyTinyEmbeddingsSpendTheWorkBudget(t *testing.T) {
	const count = 2000
	rep := collectEmbeddings(t, testsupport.TinyEmbeddings(t, count))
	// The budgets of points are lifted: they would stop t-SNE and UMAP
	// at 1,000 of these embeddings, before the work budget does.
	plan, w := planEmbeddings(groupEmbeddings(rep), Options{EmbeddingTotalTSNE: count * 50, EmbeddingTotalUMAP: count * 50})
	if len(plan) != count {
		t.Fatalf("%d embeddings planned, want %d", len(plan), count)
	}
	full := project.Estimate(50, 9, project.Options{})
	var work int64
	with := map[project.Method]int{} // the embeddings with each method: a prefix
	for i, p := range plan {
		work += p.work
		if p.skipAll != "" || p.opt.MaxNeighbors < 0 {
			t.Fatalf("embedding %d: %q, lists %d", i, p.skipAll, p.opt.MaxNeighbors)
		}
		for _, m := range []project.Method{project.TSNE, project.UMAP} {
			has := slices.Contains(p.opt.Methods, m)
			if has && with[m] != i {
				t.Fatalf("embedding %d has %s after one without", i, m)
			}
			if has {
				with[m]++
			} else if !slices.ContainsFunc(p.step.Skipped, func(s string) bool {
				return strings.HasPrefix(s, methodTitle(m)+" not computed: the report's budget of 200 estimated core-seconds of embedding layouts was spent")
			}) {
				t.Fatalf("embedding %d: no %s, skipped %q", i, m, p.step.Skipped)
			}
		}
	}
	if work > DefaultEmbeddingBudget {
		t.Errorf("planned work %d, over the budget %d", work, DefaultEmbeddingBudget)
	}
	if want := int(DefaultEmbeddingBudget / full); with[project.UMAP] < want-5 || with[project.UMAP] > want+5 || with[project.TSNE] < with[project.UMAP] {
		t.Errorf("%v embeddings get t-SNE and UMAP; the budget holds about %d at %d units each", with, want, full)
	}
	// One warning per method, in the order the notes were first written.
	said := func(m project.Method) bool {
		return slices.ContainsFunc(w, func(s string) bool {
			return strings.Contains(s, fmt.Sprintf("%s not computed: the report's budget of 200 estimated core-seconds of embedding layouts was spent (--embedding-budget), for %s embeddings (the first: run \".\", embedding %q",
				methodTitle(m), result.FormatCount(count-with[m]), plan[with[m]].set.Name))
		})
	}
	if len(w) != 2 || !said(project.UMAP) || !said(project.TSNE) {
		t.Errorf("warnings %q", w)
	}
}

// The budget of work goes to every embedding's PCA first, then in report
// order to each one's neighbour lists, t-SNE and UMAP while they fit; a
// budget too small even for PCA leaves an embedding out, said on its step.
// The work planned stays within the budget, progress is told before each
// embedding and at the end, and each step says what it got.
func TestEmbeddingWorkBudgetPlansPCAFirst(t *testing.T) {
	// The parts of one embedding, each as it adds to the estimate of
	// those before it (t-SNE's graph is the lists' Euclidean one).
	est := func(methods []project.Method, lists int) int64 {
		return project.Estimate(50, 9, project.Options{Methods: methods, MaxNeighbors: lists})
	}
	pca := []project.Method{project.PCA}
	b := est(pca, -1)
	l := est(pca, 0) - b
	ts := est(append(pca, project.TSNE), 0) - b - l
	u := est(project.Methods, 0) - b - l - ts
	if !(u > ts/2 && ts/2 > 3*l && b/2 > 5*l) {
		t.Fatalf("the cases below assume other costs: pca %d, lists %d, t-SNE %d, UMAP %d", b, l, ts, u)
	}
	for _, tc := range []struct {
		name   string
		budget int64
		want   []string
		warn   []string
	}{
		{"layouts while they fit", 6*b + 2*(l+ts+u) + 4*l + ts + ts/2, []string{
			"[pca tsne umap] lists=true skipped=0 error=false",
			"[pca tsne umap] lists=true skipped=0 error=false",
			"[pca tsne] lists=true skipped=1 error=false",
			"[pca] lists=true skipped=2 error=false",
			"[pca] lists=true skipped=2 error=false",
			"[pca] lists=true skipped=2 error=false",
		}, []string{`UMAP not computed: the report's budget of %s estimated core-seconds of embedding layouts was spent (--embedding-budget), for 4 embeddings (the first: run ".", embedding "e2", step 0)`,
			`t-SNE not computed: the report's budget of %s estimated core-seconds of embedding layouts was spent (--embedding-budget), for 3 embeddings (the first: run ".", embedding "e3", step 0)`}},
		{"PCA first", 5*b + b/2, []string{
			"[pca] lists=true skipped=2 error=false",
			"[pca] lists=true skipped=2 error=false",
			"[pca] lists=true skipped=2 error=false",
			"[pca] lists=true skipped=2 error=false",
			"[pca] lists=true skipped=2 error=false",
			"[] lists=false skipped=0 error=true",
		}, []string{`not laid out: the report's budget of %s estimated core-seconds of embedding layouts was spent (--embedding-budget), for 1 embedding (the first: run ".", embedding "e5", step 0)`,
			`t-SNE not computed: the report's budget of %s estimated core-seconds of embedding layouts was spent (--embedding-budget), for 5 embeddings (the first: run ".", embedding "e0", step 0)`,
			`UMAP not computed: the report's budget of %s estimated core-seconds of embedding layouts was spent (--embedding-budget), for 5 embeddings (the first: run ".", embedding "e0", step 0)`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := collectEmbeddings(t, testsupport.TinyEmbeddings(t, 6))
			var seen []EmbeddingProgress
			an := build(t, rep, Options{EmbeddingBudget: tc.budget, EmbeddingProgress: func(p EmbeddingProgress) { seen = append(seen, p) }})
			var got []string
			for _, set := range an.Embeddings.Sets {
				s := set.Steps[0]
				lists := s.Layout != nil && s.Layout.Neighbors != nil
				got = append(got, fmt.Sprintf("%v lists=%v skipped=%d error=%v", methodsOf(s), lists, len(s.Skipped), s.Err != nil))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("embeddings:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			last := seen[len(seen)-1]
			if len(seen) != 7 || last.Done != 6 || last.Current != "" || last.DoneWork != last.TotalWork || last.TotalWork > tc.budget ||
				seen[0].Done != 0 || seen[0].Current != `run ".", embedding "e0", step 0` {
				t.Errorf("progress %+v", seen)
			}
			w := slices.Clone(an.Embeddings.Warnings)
			for i := range w {
				w[i] = strings.TrimPrefix(w[i], "embeddings: ")
			}
			seconds := strconv.FormatFloat(float64(tc.budget)/project.WorkPerSecond, 'g', 2, 64)
			for i := range tc.warn {
				tc.warn[i] = fmt.Sprintf(tc.warn[i], seconds)
			}
			if strings.Join(w, "\n") != strings.Join(tc.warn, "\n") {
				t.Errorf("warnings\n%s\nwant\n%s", strings.Join(w, "\n"), strings.Join(tc.warn, "\n"))
			}
		})
	}
}

// The embeddings are grouped by run and name, runs in report order, the
// names of a run in the order of their first step, steps in step order;
// with SummaryOnly none is read or laid out, and no progress is
// told.
func TestEmbeddingsGroupedByRunAndNameInStepOrder(t *testing.T) {
	emb := func(name string, step int64) *model.Embedding {
		return &model.Embedding{Name: name, Step: step, Shape: []int64{4, 2}}
	}
	rep := &model.Report{Runs: []*model.Run{
		{Name: "b", Embeddings: []*model.Embedding{emb("y", 5), emb("x", 3), emb("y", 1), emb("x", 2)}},
		{Name: "a", Embeddings: []*model.Embedding{emb("x", 7)}},
	}}
	called := false
	an := build(t, rep, Options{SummaryOnly: true, EmbeddingProgress: func(EmbeddingProgress) { called = true }})
	var got []string
	for _, set := range an.Embeddings.Sets {
		var steps []string
		for _, s := range set.Steps {
			steps = append(steps, strconv.FormatInt(s.Embedding.Step, 10))
			if s.Layout != nil || s.Err != nil || s.Skipped != nil {
				t.Errorf("run %s, %s step %d laid out: %+v", set.Run.Name, set.Name, s.Embedding.Step, s)
			}
		}
		got = append(got, set.Run.Name+"/"+set.Name+":"+strings.Join(steps, ","))
	}
	if want := "b/y:1,5 b/x:2,3 a/x:7"; strings.Join(got, " ") != want {
		t.Errorf("sets %q, want %q", got, want)
	}
	if called || an.Embeddings.Warnings != nil {
		t.Errorf("progress told %v, warnings %q", called, an.Embeddings.Warnings)
	}
}

// The page's line of caps and methods comes with the result: the
// defaults where the options say none, no neighbour lists when they are
// off, the methods asked for in their order.
func TestEmbeddingCapsAndMethodTitles(t *testing.T) {
	for _, tc := range []struct {
		opt     project.Options
		caps    [4]int
		methods []string
	}{
		{project.Options{}, [4]int{project.DefaultMaxPCA, project.DefaultMaxTSNE, project.DefaultMaxUMAP, project.DefaultMaxNeighbors}, []string{"PCA", "t-SNE", "UMAP"}},
		{project.Options{Methods: []project.Method{project.UMAP, project.PCA}, MaxTSNE: 7, MaxNeighbors: -1},
			[4]int{project.DefaultMaxPCA, 7, project.DefaultMaxUMAP, 0}, []string{"UMAP", "PCA"}},
	} {
		an := build(t, &model.Report{}, Options{Embeddings: tc.opt})
		e := an.Embeddings
		if got := [4]int{e.MaxPCA, e.MaxTSNE, e.MaxUMAP, e.MaxNeighbors}; got != tc.caps || !slices.Equal(e.Methods, tc.methods) {
			t.Errorf("%+v: caps %v, methods %q; want %v, %q", tc.opt, got, e.Methods, tc.caps, tc.methods)
		}
	}
}

// Cancelling stops the layouts before the next embedding, and Build says
// which phase it stopped in, wrapping ctx's error.
func TestEmbeddingLayoutsStopWhenCancelled(t *testing.T) {
	rep := collectEmbeddings(t, testsupport.TinyEmbeddings(t, 4))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen []EmbeddingProgress
	_, err := Build(ctx, rep, Options{EmbeddingProgress: func(p EmbeddingProgress) {
		seen = append(seen, p)
		if p.Done == 1 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "laying out the embeddings: ") {
		t.Errorf("error %v, want the phase and context.Canceled", err)
	}
	if len(seen) != 2 {
		t.Errorf("progress told %d times after the cancel at the second embedding: %+v", len(seen), seen)
	}
}

// An embedding whose points cannot be read is a note on its step, and the
// others are laid out all the same.
func TestUnreadableEmbeddingIsANote(t *testing.T) {
	dir := testsupport.TinyEmbeddings(t, 0)
	config := "embeddings { tensor_name: \"missing\" tensor_path: \"nope.tsv\" tensor_shape: [3, 2] }\n" +
		"embeddings { tensor_name: \"good\" tensor_path: \"t.tsv\" }\n"
	if err := os.WriteFile(filepath.Join(dir, "projector_config.pbtxt"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	an := build(t, collectEmbeddings(t, dir), Options{Embeddings: project.Options{Methods: []project.Method{project.PCA}}})
	sets := map[string]*result.EmbeddingStep{}
	for _, set := range an.Embeddings.Sets {
		sets[set.Name] = set.Steps[0]
	}
	if len(sets) != 2 || sets["missing"] == nil || sets["good"] == nil {
		t.Fatalf("embeddings %v, want missing and good", sets)
	}
	if s := sets["missing"]; s.Err == nil || s.Layout != nil {
		t.Errorf("missing: error %v, layout %+v", s.Err, s.Layout)
	}
	if s := sets["good"]; s.Err != nil || s.Layout == nil || s.Layout.N != 50 || len(s.Layout.Projections[0].Coords3) != 150 {
		t.Errorf("good: error %v, layout %+v", s.Err, s.Layout)
	}
}
