package render

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/collect/reduce/project"
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
// part of the embeddings page, stopping with ctx's error when ctx is
// done. The outputs call it with a background context when it has not
// run; an embedding that cannot be read or reduced gets a note instead.
func (r *Report) ComputeEmbeddings(ctx context.Context) error {
	var err error
	r.embOnce.Do(func() { err = r.computeEmbeddings(ctx) })
	return err
}

func (r *Report) computeEmbeddings(ctx context.Context) error {
	// The report's budgets of points laid out by t-SNE and UMAP, the costly
	// methods: a small config can name one tensor file a thousand times.
	total := map[project.Method]int{
		project.TSNE: capOf(r.opt.EmbeddingTotalTSNE, DefaultEmbeddingTotalTSNE),
		project.UMAP: capOf(r.opt.EmbeddingTotalUMAP, DefaultEmbeddingTotalUMAP),
	}
	left := maps.Clone(total)
	caps := map[project.Method]int{
		project.TSNE: capOf(r.opt.Embeddings.MaxTSNE, project.DefaultMaxTSNE),
		project.UMAP: capOf(r.opt.Embeddings.MaxUMAP, project.DefaultMaxUMAP),
	}
	for _, v := range r.embeddingViews() {
		for _, s := range v.steps {
			if err := ctx.Err(); err != nil {
				return err
			}
			opt := r.opt.Embeddings
			if opt.Methods == nil {
				opt.Methods = project.Methods
			}
			opt.Methods = slices.DeleteFunc(slices.Clone(opt.Methods), func(m project.Method) bool {
				budget, costly := left[m]
				if !costly {
					return false
				}
				need := min(s.emb.NumPoints(), caps[m])
				if need > budget {
					s.skipped = append(s.skipped, fmt.Sprintf("%s not computed: the report's budget of %s points laid out by %s over all embeddings was spent",
						methodTitle(m), fmtCount(total[m]), methodTitle(m)))
					return true
				}
				left[m] -= need
				return false
			})
			s.res, s.err = reduceEmbedding(ctx, s.emb, opt)
			if s.err != nil && ctx.Err() != nil {
				return ctx.Err()
			}
		}
	}
	return nil
}

// embeddings returns the embeddings, reduced.
func (r *Report) embeddings() []*embeddingView {
	_ = r.ComputeEmbeddings(context.Background()) // cannot be cancelled
	return r.embeddingViews()
}

// reduceEmbedding reads one embedding's points and reduces them.
func reduceEmbedding(ctx context.Context, e *model.Embedding, opt project.Options) (*project.Result, error) {
	n, d := e.NumPoints(), e.Dims()
	if n == 0 || d == 0 {
		return nil, fmt.Errorf("embedding %q: shape %v unknown or empty", e.Name, e.Shape)
	}
	data, err := e.Load()
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
