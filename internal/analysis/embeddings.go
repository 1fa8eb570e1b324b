package analysis

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/reduce/project"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Defaults of the embedding options.
const (
	// DefaultEmbeddingTotalTSNE and DefaultEmbeddingTotalUMAP are twenty
	// embeddings each at the methods' caps.
	DefaultEmbeddingTotalTSNE = 50_000
	DefaultEmbeddingTotalUMAP = 50_000
	// DefaultEmbeddingBudget is 200 estimated core-seconds: twenty
	// embeddings of 10,000 points of 16 values with every method at its
	// cap (each about 10; the corpus's tf2-projector-ckpt, three of them,
	// takes about 21 CPU seconds, docs/PERFORMANCE.md).
	DefaultEmbeddingBudget = 200 * project.WorkPerSecond
)

// EmbeddingProgress is what the embeddings' layouts tell
// Options.EmbeddingProgress of their progress: the embeddings (one step of
// a run's embedding each) laid out and the estimated work they took
// (project.Estimate's units), of all, and the one being laid out.
type EmbeddingProgress struct {
	Done, Total         int
	DoneWork, TotalWork int64
	// Current names the embedding being laid out, "" at the end.
	Current string
}

// embeddings groups the report's embeddings and lays them out (PCA,
// t-SNE, UMAP, neighbour lists; see package project), the costly part of
// the embeddings page, within the report's budgets (see planEmbeddings),
// telling opt.EmbeddingProgress how far it is before each embedding and
// at the end. An embedding that cannot be read or laid out gets a note
// instead; only ctx being done stops it, with ctx's error.
func embeddings(ctx context.Context, rep *model.Report, opt Options) (result.Embeddings, error) {
	emb := result.Embeddings{Sets: groupEmbeddings(rep)}
	o := opt.Embeddings
	emb.MaxPCA, emb.MaxTSNE = capOf(o.MaxPCA, project.DefaultMaxPCA), capOf(o.MaxTSNE, project.DefaultMaxTSNE)
	emb.MaxUMAP, emb.MaxNeighbors = capOf(o.MaxUMAP, project.DefaultMaxUMAP), capOf(o.MaxNeighbors, project.DefaultMaxNeighbors)
	methods := o.Methods
	if methods == nil {
		methods = project.Methods
	}
	emb.Methods = make([]string, len(methods))
	for i, m := range methods {
		emb.Methods[i] = methodTitle(m)
	}
	if opt.SummaryOnly {
		return emb, nil
	}
	plan, warnings := planEmbeddings(emb.Sets, opt)
	emb.Warnings = warnings
	var total, done int64
	for _, p := range plan {
		total += p.work
	}
	progress := func(i int) {
		if opt.EmbeddingProgress == nil {
			return
		}
		pr := EmbeddingProgress{Done: i, Total: len(plan), DoneWork: done, TotalWork: total}
		if i < len(plan) {
			pr.Current = embeddingName(plan[i].set, plan[i].step)
		}
		opt.EmbeddingProgress(pr)
	}
	for i, p := range plan {
		if err := ctx.Err(); err != nil {
			return emb, err
		}
		progress(i)
		s := p.step
		if p.skipAll == "" {
			res, err := reduceEmbedding(ctx, s.Embedding, rep.Decoders(), p.opt)
			if err != nil && ctx.Err() != nil {
				return emb, ctx.Err()
			}
			s.Err = err
			if res != nil {
				s.Skipped = append(s.Skipped, res.Notes...)
				s.Layout = &res.EmbeddingLayout
			}
		}
		done += p.work
	}
	progress(len(plan))
	return emb, nil
}

// groupEmbeddings groups the report's embeddings by run and name, steps
// in step order. An entry its source lists again (the same tensor, step
// and files: a projector config repeating it) is merged into the first,
// counted in its Repeats: the page would list the same "step 0" again.
func groupEmbeddings(rep *model.Report) []*result.EmbeddingSet {
	var sets []*result.EmbeddingSet
	for _, run := range rep.Runs {
		byName := map[string]*result.EmbeddingSet{}
		var named []*result.EmbeddingSet
	entries:
		for _, e := range run.Embeddings {
			s := byName[e.Name]
			if s == nil {
				s = &result.EmbeddingSet{Run: run, Name: e.Name}
				byName[e.Name] = s
				named = append(named, s)
			}
			for _, st := range s.Steps {
				if sameEntry(st.Embedding, e) {
					st.Repeats++
					continue entries
				}
			}
			s.Steps = append(s.Steps, &result.EmbeddingStep{Embedding: e})
		}
		for _, s := range named {
			slices.SortStableFunc(s.Steps, func(a, b *result.EmbeddingStep) int { return cmp.Compare(a.Embedding.Step, b.Embedding.Step) })
		}
		sets = append(sets, named...)
	}
	return sets
}

// sameEntry reports whether a and b, of one name, are the same entry of
// their source: the same step, shape and files (declaring file, tensor,
// checkpoint, metadata and sprite). Samples (OneFlow's, TS-VIS's) are
// never merged: each record is its own.
func sameEntry(a, b *model.Embedding) bool {
	sameRef := func(x, y *model.TensorRef) bool {
		return x == nil && y == nil || x != nil && y != nil && x.BlobRef == y.BlobRef && x.Format == y.Format && x.DType == y.DType
	}
	sameMeta := func(x, y *model.EmbeddingMetadata) bool {
		return x == nil && y == nil || x != nil && y != nil && x.File != "" && x.File == y.File && len(x.Rows) == len(y.Rows)
	}
	sameSprite := func(x, y *model.Sprite) bool {
		return x == nil && y == nil || x != nil && y != nil && x.File == y.File && x.SingleImageDim == y.SingleImageDim
	}
	return a.Sample == nil && b.Sample == nil && a.Source == b.Source && a.File == b.File && a.Step == b.Step &&
		a.WallTime == b.WallTime && slices.Equal(a.Shape, b.Shape) && a.Checkpoint == b.Checkpoint &&
		sameRef(a.Points, b.Points) && sameMeta(a.Metadata, b.Metadata) && sameSprite(a.Sprite, b.Sprite)
}

// embeddingName names one step of a set in progress and warnings.
func embeddingName(set *result.EmbeddingSet, step *result.EmbeddingStep) string {
	return fmt.Sprintf("run %q, embedding %q, step %d", set.Run.Name, set.Name, step.Embedding.Step)
}

// plannedEmbedding is what the budgets leave one embedding step: the
// options it is reduced with and its estimated work, or why it is not
// laid out at all.
type plannedEmbedding struct {
	set     *result.EmbeddingSet
	step    *result.EmbeddingStep
	opt     project.Options
	work    int64
	skipAll string
}

// planEmbeddings applies the report's budgets before any point is read,
// from the embeddings' shapes: a small config can name one tensor file a
// thousand times, and a thousand tiny embeddings cost as much as a few big
// ones (t-SNE and UMAP iterate as often over 50 points as over 5,000). The
// budget of work (project.Estimate's units) goes in report order first to
// every embedding's PCA, which a report shows whenever it can, then to
// every embedding's neighbour lists, then to each one's t-SNE and UMAP,
// each part while it fits; the budgets of t-SNE and UMAP points apply too.
// What a budget leaves out is noted on the step and summed up in the
// warnings returned, a line per note. The plan depends on the shapes and
// options alone, so that a report is the same on every machine.
func planEmbeddings(sets []*result.EmbeddingSet, o Options) (plan []*plannedEmbedding, warnings []string) {
	budget := o.EmbeddingBudget
	switch {
	case budget == 0:
		budget = DefaultEmbeddingBudget
	case budget < 0:
		budget = math.MaxInt64
	}
	left := budget
	total := map[project.Method]int{
		project.TSNE: capOf(o.EmbeddingTotalTSNE, DefaultEmbeddingTotalTSNE),
		project.UMAP: capOf(o.EmbeddingTotalUMAP, DefaultEmbeddingTotalUMAP),
	}
	points := maps.Clone(total)
	caps := map[project.Method]int{
		project.TSNE: capOf(o.Embeddings.MaxTSNE, project.DefaultMaxTSNE),
		project.UMAP: capOf(o.Embeddings.MaxUMAP, project.DefaultMaxUMAP),
	}
	seconds := strconv.FormatFloat(float64(budget)/project.WorkPerSecond, 'g', 2, 64)
	if budget >= project.WorkPerSecond {
		seconds = result.FormatCount(int(min(budget/project.WorkPerSecond, math.MaxInt32)))
	}
	spent := fmt.Sprintf("the report's budget of %s estimated core-seconds of embedding layouts was spent (--embedding-budget)", seconds)
	// Each note a budget writes is one warning, counting the embeddings
	// it was written on and naming the first.
	type leftOut struct {
		n     int
		first string
	}
	out := map[string]*leftOut{}
	var order []string
	note := func(p *plannedEmbedding, msg string) {
		if p.skipAll == "" {
			p.step.Skipped = append(p.step.Skipped, msg)
		}
		o := out[msg]
		if o == nil {
			o = &leftOut{first: embeddingName(p.set, p.step)}
			out[msg] = o
			order = append(order, msg)
		}
		o.n++
	}
	// Each part of an embedding costs what it adds to the estimate of the
	// parts already planned: a neighbour graph shared by two is paid once.
	estimate := func(p *plannedEmbedding) int64 {
		return project.Estimate(p.step.Embedding.NumPoints(), p.step.Embedding.Dims(), p.opt)
	}
	for _, set := range sets {
		for _, s := range set.Steps {
			// PCA alone first; the other parts are added below.
			opt := o.Embeddings
			opt.Methods, opt.MaxNeighbors = []project.Method{project.PCA}, -1
			p := &plannedEmbedding{set: set, step: s, opt: opt}
			plan = append(plan, p)
			if base := estimate(p); base <= left {
				left -= base
				p.work = base
				continue
			}
			p.skipAll = "not laid out: " + spent
			s.Err = errors.New(p.skipAll)
			note(p, p.skipAll)
		}
	}
	methods := o.Embeddings.Methods
	if methods == nil {
		methods = project.Methods
	}
	// add plans p with the options with, which add one part, when it fits
	// the budgets, or notes why not; it returns the part's work. A part
	// that adds none is planned whatever the budgets: Compute says why it
	// has nothing to do (too few points, one dimension).
	add := func(p *plannedEmbedding, with project.Options, what string, why func() string) int64 {
		after := estimate(&plannedEmbedding{step: p.step, opt: with})
		cost := max(after-p.work, 0)
		reason := ""
		switch {
		case cost == 0:
		case why != nil && why() != "":
			reason = why()
		case cost > left:
			reason = spent
		}
		if reason != "" {
			note(p, what+" not computed: "+reason)
			return -1
		}
		left -= cost
		p.work, p.opt = after, with
		return cost
	}
	for _, p := range plan {
		if p.skipAll != "" || o.Embeddings.MaxNeighbors < 0 {
			continue
		}
		with := p.opt
		with.MaxNeighbors = o.Embeddings.MaxNeighbors
		add(p, with, "neighbour lists", nil)
	}
	for _, p := range plan {
		if p.skipAll != "" {
			continue
		}
		for _, m := range []project.Method{project.TSNE, project.UMAP} {
			if !slices.Contains(methods, m) {
				continue
			}
			with := p.opt
			with.Methods = append(slices.Clone(p.opt.Methods), m)
			need := min(p.step.Embedding.NumPoints(), caps[m])
			if add(p, with, methodTitle(m), func() string {
				if need > points[m] {
					return fmt.Sprintf("the report's budget of %s points laid out by %s over all embeddings was spent", result.FormatCount(total[m]), methodTitle(m))
				}
				return ""
			}) > 0 {
				points[m] -= need
			}
		}
	}
	for _, msg := range order {
		o := out[msg]
		warnings = append(warnings, fmt.Sprintf("embeddings: %s, for %s (the first: %s)", msg, result.CountOf(o.n, "embedding", "embeddings"), o.first))
	}
	return plan, warnings
}

// reduceEmbedding reads one embedding's points and reduces them.
func reduceEmbedding(ctx context.Context, e *model.Embedding, d model.Decoders, opt project.Options) (*project.Result, error) {
	if e.Points == nil {
		// What the run's warning says, not a shape it never had.
		if e.Checkpoint != "" {
			return nil, fmt.Errorf("no points: its tensor is in TensorFlow checkpoint %q, which was not read (the run's warnings say why)", e.Checkpoint)
		}
		return nil, errors.New("no points: its tensor was not read (the run's warnings say why)")
	}
	n, dims := e.NumPoints(), e.Dims()
	if n == 0 || dims == 0 {
		return nil, fmt.Errorf("embedding %q: shape %v unknown or empty", e.Name, e.Shape)
	}
	data, err := e.Load(d)
	if err != nil {
		return nil, err
	}
	if len(data) != n*dims {
		return nil, fmt.Errorf("embedding %q: %d values, not %d points of %d", e.Name, len(data), n, dims)
	}
	return project.Compute(ctx, data, n, dims, opt)
}

// capOf is an option's cap: def for 0, none (0) for a negative one.
func capOf(v, def int) int {
	if v == 0 {
		return def
	}
	return max(v, 0)
}

// methodTitle is how notes and the page name a method.
func methodTitle(m project.Method) string {
	switch m {
	case project.PCA:
		return "PCA"
	case project.TSNE:
		return "t-SNE"
	case project.UMAP:
		return "UMAP"
	}
	return string(m)
}
