package render

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/reduce/project"
)

// embeddingView is one (run, embedding name): its steps, each with what
// the build computed of its points.
type embeddingView struct {
	run   *model.Run
	name  string
	file  string // data file, relative to data/
	steps []*embeddingStep
}

// embeddingStep is one embedding of the model (a step of a name) and its
// reductions.
type embeddingStep struct {
	emb *model.Embedding
	res *project.Result
	err error // the points could not be read or reduced
	// skipped says which methods the report's budgets left out, and why.
	skipped []string
}

func runEmbeddings(run *model.Run) []*model.Embedding { return run.Embeddings }

// countEmbeddings counts, for the overview's list of pages, the (run,
// name) embeddings and the runs that have them.
func countEmbeddings(r *Report, _ []model.Kind) countLine {
	c := countLine{Unit: "embedding"}
	for _, run := range r.rep.Runs {
		if len(run.Embeddings) > 0 {
			c.Runs++
		}
	}
	c.N = len(r.embeddingViews())
	return c
}

// embeddingViews groups the report's embeddings by run and name, steps in
// step order, without reducing them.
func (r *Report) embeddingViews() []*embeddingView {
	r.embGroupOnce.Do(func() {
		for _, run := range r.rep.Runs {
			byName := map[string]*embeddingView{}
			var views []*embeddingView
			for _, e := range run.Embeddings {
				v := byName[e.Name]
				if v == nil {
					v = &embeddingView{run: run, name: e.Name, file: dataFile("embeddings", run.Name, e.Name)}
					byName[e.Name] = v
					views = append(views, v)
				}
				v.steps = append(v.steps, &embeddingStep{emb: e})
			}
			for _, v := range views {
				slices.SortStableFunc(v.steps, func(a, b *embeddingStep) int { return cmpInt64(a.emb.Step, b.emb.Step) })
			}
			r.embViews = append(r.embViews, views...)
		}
	})
	return r.embViews
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ComputeEmbeddings reads the points of every embedding and reduces them
// (PCA, t-SNE, UMAP, neighbour lists; see package project), the costly
// part of the embeddings page, within the report's budgets (see
// planEmbeddings), telling Options.EmbeddingProgress how far it is, and
// stopping with ctx's error when ctx is done. The outputs call it with a
// background context when it has not run; an embedding that cannot be
// read or reduced gets a note instead.
func (r *Report) ComputeEmbeddings(ctx context.Context) error {
	var err error
	r.embOnce.Do(func() { err = r.computeEmbeddings(ctx) })
	return err
}

func (r *Report) computeEmbeddings(ctx context.Context) error {
	steps := r.planEmbeddings()
	var total, done int64
	for _, p := range steps {
		total += p.work
	}
	progress := func(i int) {
		if r.opt.EmbeddingProgress == nil {
			return
		}
		pr := EmbeddingProgress{Done: i, Total: len(steps), DoneWork: done, TotalWork: total}
		if i < len(steps) {
			v, e := steps[i].view, steps[i].step.emb
			pr.Current = fmt.Sprintf("run %q, embedding %q, step %d", v.run.Name, v.name, e.Step)
		}
		r.opt.EmbeddingProgress(pr)
	}
	for i, p := range steps {
		if err := ctx.Err(); err != nil {
			return err
		}
		progress(i)
		s := p.step
		if p.skipAll == "" {
			s.res, s.err = reduceEmbedding(ctx, s.emb, r.rep.Decoders(), p.opt)
			if s.err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
			if s.res != nil {
				s.skipped = append(s.skipped, s.res.Notes...)
			}
		}
		done += p.work
	}
	progress(len(steps))
	return nil
}

// EmbeddingProgress is what ComputeEmbeddings tells of its progress: the
// embeddings (one step of a run's embedding each) laid out and the
// estimated work they took (project.Estimate's units), of all, and the one
// it is laying out.
type EmbeddingProgress struct {
	Done, Total         int
	DoneWork, TotalWork int64
	// Current names the embedding being laid out, "" at the end.
	Current string
}

// plannedEmbedding is what the budgets leave one embedding step: the
// options it is reduced with and its estimated work, or why it is not
// laid out at all.
type plannedEmbedding struct {
	view    *embeddingView
	step    *embeddingStep
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
// report's warnings. The plan depends on the shapes and options alone, so
// that a report is the same on every machine.
func (r *Report) planEmbeddings() []*plannedEmbedding {
	budget := r.opt.EmbeddingBudget
	switch {
	case budget == 0:
		budget = DefaultEmbeddingBudget
	case budget < 0:
		budget = math.MaxInt64
	}
	left := budget
	total := map[project.Method]int{
		project.TSNE: capOf(r.opt.EmbeddingTotalTSNE, DefaultEmbeddingTotalTSNE),
		project.UMAP: capOf(r.opt.EmbeddingTotalUMAP, DefaultEmbeddingTotalUMAP),
	}
	points := maps.Clone(total)
	caps := map[project.Method]int{
		project.TSNE: capOf(r.opt.Embeddings.MaxTSNE, project.DefaultMaxTSNE),
		project.UMAP: capOf(r.opt.Embeddings.MaxUMAP, project.DefaultMaxUMAP),
	}
	seconds := strconv.FormatFloat(float64(budget)/project.WorkPerSecond, 'g', 2, 64)
	if budget >= project.WorkPerSecond {
		seconds = fmtCount(int(min(budget/project.WorkPerSecond, math.MaxInt32)))
	}
	spent := fmt.Sprintf("the report's budget of %s estimated core-seconds of embedding layouts was spent (--embedding-budget)", seconds)
	var plan []*plannedEmbedding
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
			p.step.skipped = append(p.step.skipped, msg)
		}
		o := out[msg]
		if o == nil {
			o = &leftOut{first: fmt.Sprintf("run %q, embedding %q, step %d", p.view.run.Name, p.view.name, p.step.emb.Step)}
			out[msg] = o
			order = append(order, msg)
		}
		o.n++
	}
	// Each part of an embedding costs what it adds to the estimate of the
	// parts already planned: a neighbour graph shared by two is paid once.
	estimate := func(p *plannedEmbedding) int64 {
		return project.Estimate(p.step.emb.NumPoints(), p.step.emb.Dims(), p.opt)
	}
	for _, v := range r.embeddingViews() {
		for _, s := range v.steps {
			// PCA alone first; the other parts are added below.
			opt := r.opt.Embeddings
			opt.Methods, opt.MaxNeighbors = []project.Method{project.PCA}, -1
			p := &plannedEmbedding{view: v, step: s, opt: opt}
			plan = append(plan, p)
			if base := estimate(p); base <= left {
				left -= base
				p.work = base
				continue
			}
			p.skipAll = "not laid out: " + spent
			s.err = errors.New(p.skipAll)
			note(p, p.skipAll)
		}
	}
	methods := r.opt.Embeddings.Methods
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
		if p.skipAll != "" || r.opt.Embeddings.MaxNeighbors < 0 {
			continue
		}
		with := p.opt
		with.MaxNeighbors = r.opt.Embeddings.MaxNeighbors
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
			need := min(p.step.emb.NumPoints(), caps[m])
			if add(p, with, methodTitle(m), func() string {
				if need > points[m] {
					return fmt.Sprintf("the report's budget of %s points laid out by %s over all embeddings was spent", fmtCount(total[m]), methodTitle(m))
				}
				return ""
			}) > 0 {
				points[m] -= need
			}
		}
	}
	for _, msg := range order {
		o := out[msg]
		r.embWarnings = append(r.embWarnings, fmt.Sprintf("embeddings: %s, for %s (the first: %s)", msg, plural(o.n, "embedding", "embeddings"), o.first))
	}
	return plan
}

// EmbeddingWarnings say, once ComputeEmbeddings has run, what the report's
// budgets left out of its embeddings: a line per note, counting the
// embeddings it is on and naming the first.
func (r *Report) EmbeddingWarnings() []string { return r.embWarnings }

// embeddings returns the embeddings, reduced.
func (r *Report) embeddings() []*embeddingView {
	_ = r.ComputeEmbeddings(context.Background()) // cannot be cancelled
	return r.embeddingViews()
}

// reduceEmbedding reads one embedding's points with the report's
// decoders and reduces them.
func reduceEmbedding(ctx context.Context, e *model.Embedding, dec model.Decoders, opt project.Options) (*project.Result, error) {
	n, d := e.NumPoints(), e.Dims()
	if n == 0 || d == 0 {
		return nil, fmt.Errorf("embedding %q: shape %v unknown or empty", e.Name, e.Shape)
	}
	data, err := e.Load(dec)
	if err != nil {
		return nil, err
	}
	if len(data) != n*d {
		return nil, fmt.Errorf("embedding %q: %d values, not %d points of %d", e.Name, len(data), n, d)
	}
	return project.Compute(ctx, data, n, d, opt)
}

// embeddingsPage is what templates/embeddings.html draws: the list of
// embeddings, each with its data file or, in the single file, its data.
type embeddingsPage struct {
	Caps    string
	Methods string
	Index   template.JS
	Data    []embeddingInline // the single file's data, one element each
}

type embeddingInline struct {
	ID   string
	Data template.JS
}

// embeddingIndexJSON is one (run, name) of the page's list.
type embeddingIndexJSON struct {
	Run    string                 `json:"run"`
	Name   string                 `json:"name"`
	Steps  []embeddingStepSummary `json:"steps"`
	File   string                 `json:"file,omitempty"`
	Script string                 `json:"script,omitempty"`
	Inline string                 `json:"inline,omitempty"` // id of the element holding the data
}

type embeddingStepSummary struct {
	Step   int64   `json:"step"`
	Shape  []int64 `json:"shape"`
	Source string  `json:"source"`
}

func (r *Report) embeddingsPage(single bool) (*embeddingsPage, error) {
	o := r.opt.Embeddings
	p := &embeddingsPage{
		Caps: fmt.Sprintf("PCA %s, t-SNE %s, UMAP %s points; neighbour lists for %s", fmtCount(capOf(o.MaxPCA, project.DefaultMaxPCA)),
			fmtCount(capOf(o.MaxTSNE, project.DefaultMaxTSNE)), fmtCount(capOf(o.MaxUMAP, project.DefaultMaxUMAP)),
			fmtCount(capOf(o.MaxNeighbors, project.DefaultMaxNeighbors))),
	}
	methods := o.Methods
	if methods == nil {
		methods = project.Methods
	}
	names := make([]string, len(methods))
	for i, m := range methods {
		names[i] = methodTitle(m)
	}
	p.Methods = strings.Join(names, ", ")
	var index []embeddingIndexJSON
	views := r.embeddingViews()
	if single {
		views = r.embeddings()
	}
	for i, v := range views {
		ij := embeddingIndexJSON{Run: v.run.Name, Name: v.name}
		for _, s := range v.steps {
			ij.Steps = append(ij.Steps, embeddingStepSummary{Step: s.emb.Step, Shape: s.emb.Shape, Source: s.emb.Source})
		}
		if single {
			b, err := r.embeddingFile(v, func(s *embeddingStep, j int) (string, error) {
				return mediaSrc(true, "", spriteMime(s.emb.Sprite), s.emb.Sprite.Data)
			})
			if err != nil {
				return nil, err
			}
			ij.Inline = "embedding-data-" + strconv.Itoa(i)
			p.Data = append(p.Data, embeddingInline{ID: ij.Inline, Data: template.JS(htmlSafe(b))})
		} else {
			ij.File, ij.Script = v.file, dataScriptFile(v.file)
		}
		index = append(index, ij)
	}
	var err error
	p.Index, err = scriptJSON(index)
	return p, err
}

func capOf(v, def int) int {
	if v == 0 {
		return def
	}
	return max(v, 0)
}

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

// htmlSafe escapes what could end a <script> element in JSON text, as
// encoding/json's HTML escaping does.
func htmlSafe(b []byte) []byte {
	var out bytes.Buffer
	json.HTMLEscape(&out, b)
	return out.Bytes()
}

func spriteMime(s *model.Sprite) string {
	if s == nil {
		return ""
	}
	_, mime := imageType(s.Format)
	return mime
}

// spriteFile names the sprite of the j-th step of v in the site.
func spriteFile(v *embeddingView, j int, s *model.Sprite) string {
	ext, _ := imageType(s.Format)
	return mediaFile("embeddings", v.run.Name, v.name, "sprite", j, ext)
}

// embeddingsData writes each (run, name)'s data file, its script form,
// and the sprites.
func (r *Report) embeddingsData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: "embedding", index: map[string]map[string]string{}}
	for _, v := range r.embeddings() {
		sprites := map[int]string{}
		for j, s := range v.steps {
			if s.emb.Sprite == nil {
				continue
			}
			name := spriteFile(v, j, s.emb.Sprite)
			b, err := readBlob(s.emb.Sprite.Data)
			if err != nil {
				d.note(v.run.Name, v.name, fmt.Errorf("step %d sprite: %w", s.emb.Step, err))
				continue
			}
			if err := emit(file{name, b}); err != nil {
				return nil, err
			}
			sprites[j] = name
		}
		b, err := r.embeddingFile(v, func(_ *embeddingStep, j int) (string, error) {
			if name, ok := sprites[j]; ok {
				return name, nil
			}
			return "", fmt.Errorf("not written")
		})
		if err != nil {
			d.note(v.run.Name, v.name, fmt.Errorf("data file not written: %w", err))
			continue
		}
		for _, s := range v.steps {
			if s.err != nil {
				d.note(v.run.Name, v.name, fmt.Errorf("step %d: %w", s.emb.Step, s.err))
			}
		}
		if err := emit(file{"data/" + v.file, b}); err != nil {
			return nil, err
		}
		// The script form hands the same text, as a string: the file is
		// an object whose Tianshu part has the embedding's name as a key,
		// which in a script's object literal could be "__proto__".
		script := dataScript(v.file, len(b)+len(b)/8, func(out []byte) []byte {
			q, _ := json.Marshal(string(b)) // a string always encodes
			return append(out, q...)
		})
		if err := emit(file{"data/" + dataScriptFile(v.file), script}); err != nil {
			return nil, err
		}
		d.add(v.run.Name, v.name, v.file)
	}
	return d, nil
}
