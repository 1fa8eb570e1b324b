package analysis

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Budgets of the Meshes page, per series. A mesh step is drawn whole or
// not at all (faces index the vertices, so neither can be thinned alone),
// and every kept step is in the page's data file: the steps are fewer
// than the media budget, and each is bounded before it is decoded, from
// the shapes the log claims.
const (
	// meshSteps bounds the kept steps of one mesh (at most the media
	// budget): spread evenly, the last kept.
	meshSteps = 20
	// meshStepVertices and meshStepFaces bound one kept step, its batch
	// together: 100,000 points and 200,000 triangles are some 4 MB of
	// data file, and what a canvas redraws while it turns.
	meshStepVertices = 100_000
	meshStepFaces    = 200_000
)

// The parts of a mesh, in MeshSeries.Tags's order.
const (
	meshVertex = iota
	meshFace
	meshColor
)

// meshSuffixes name the part of each mesh tag: TensorBoard's summary (and
// PyTorch's add_mesh, which uses it) ends a tag with the content type's
// name, tensorboardX's with its number.
var meshSuffixes = []struct {
	suffix string
	part   int
}{
	{"_VERTEX", meshVertex}, {"_FACE", meshFace}, {"_COLOR", meshColor},
	{"_1", meshVertex}, {"_2", meshFace}, {"_3", meshColor},
}

// meshName returns a mesh tag's mesh and part; a tag of neither form is a
// mesh of vertices alone, named by the whole tag.
func meshName(tag string) (string, int) {
	for _, s := range meshSuffixes {
		if name, ok := strings.CutSuffix(tag, s.suffix); ok && name != "" {
			return name, s.part
		}
	}
	return tag, meshVertex
}

// meshes groups each run's mesh tags into meshes and decodes their kept
// steps, a series per worker.
func meshes(ctx context.Context, rep *model.Report, opt Options) (result.Meshes, error) {
	out := result.Meshes{MaxVertices: meshStepVertices, MaxFaces: meshStepFaces}
	type job struct {
		s     *result.MeshSeries
		parts [3]*model.Tensor
	}
	var jobs []job
	for _, run := range rep.Runs {
		byName := map[string]*job{}
		var names []string
		for _, t := range run.Meshes {
			name, part := meshName(t.Tag)
			j := byName[name]
			if j == nil {
				j = &job{s: &result.MeshSeries{Run: run, Name: name}}
				byName[name] = j
				names = append(names, name)
			}
			if j.parts[part] == nil { // a part twice keeps the first
				j.parts[part] = t
				j.s.Tags[part] = t.Tag
			}
		}
		slices.Sort(names)
		for _, n := range names {
			if j := byName[n]; j.parts[meshVertex] != nil && len(j.parts[meshVertex].Entries) > 0 {
				jobs = append(jobs, *j)
			}
		}
	}
	steps := meshSteps
	if opt.MediaSteps > 0 {
		steps = min(steps, opt.MediaSteps)
	}
	err := parallelEach(ctx, len(jobs), func(i int) {
		j := jobs[i]
		line := lineEntries(j.parts[meshVertex].Entries)
		j.s.Total = len(line)
		for _, v := range keptMeshEntries(line, steps) {
			j.s.Steps = append(j.s.Steps, meshStep(rep.Decoders(), v, j.parts))
		}
	})
	if err != nil {
		return out, err
	}
	for _, j := range jobs {
		out.Series = append(out.Series, j.s)
	}
	return out, nil
}

// lineEntries are the entries of es on the line: a restart's superseded
// writes of a mesh are counted (inspect) but not drawn.
func lineEntries(es []model.TensorEntry) []model.TensorEntry {
	out := es[:0:0]
	for _, e := range es {
		if !e.Superseded {
			out = append(out, e)
		}
	}
	return out
}

// keptMeshEntries returns at most n of es, spread evenly, the last kept.
func keptMeshEntries(es []model.TensorEntry, n int) []model.TensorEntry {
	if len(es) <= n {
		return es
	}
	return spread(es, n)
}

// meshStep decodes the step of the vertex entry v, with the face and
// colour entries of its step.
func meshStep(dec model.Decoders, v model.TensorEntry, parts [3]*model.Tensor) result.MeshStep {
	st := result.MeshStep{Step: v.Step, WallTime: v.WallTime}
	var notes []string
	batch, n, total, ok := meshShape(v.Shape)
	switch {
	case !ok:
		st.Note = fmt.Sprintf("its vertices have the shape %v, not [batch, points, 3]", v.Shape)
		return st
	case total > meshStepVertices:
		st.Note = fmt.Sprintf("%d vertices, over the %d a step may draw", total, meshStepVertices)
		return st
	}
	vals, err := v.Load(dec)
	if err != nil {
		st.Note = fmt.Sprintf("its vertices cannot be read: %v", err)
		return st
	}
	if len(vals) != batch*n*3 {
		st.Note = fmt.Sprintf("its vertices hold %d values, not the %d of their shape %v", len(vals), batch*n*3, v.Shape)
		return st
	}
	st.Items = make([]result.MeshItem, batch)
	for b := range batch {
		it := &st.Items[b]
		it.Vertices = make([]float32, n*3)
		for k := range it.Vertices {
			it.Vertices[k] = float32(vals[b*n*3+k])
		}
	}
	if f := entryAt(parts[meshFace], v.Step); f != nil {
		if note := meshFaces(dec, *f, st.Items, n); note != "" {
			notes = append(notes, note)
		}
	}
	if c := entryAt(parts[meshColor], v.Step); c != nil {
		if note := meshColors(dec, *c, st.Items, n); note != "" {
			notes = append(notes, note)
		}
	}
	st.Note = strings.Join(notes, "; ")
	return st
}

// meshShape reads a part's shape as [batch, points, 3] ([points, 3] is a
// batch of one), and says how many points the batch holds in all, capped
// at math.MaxInt32 (a claimed shape may overflow any product).
func meshShape(shape []int64) (batch, n, total int, ok bool) {
	if len(shape) == 2 {
		shape = []int64{1, shape[0], shape[1]}
	}
	if len(shape) != 3 || shape[2] != 3 || shape[0] < 1 || shape[1] < 0 || shape[0] > math.MaxInt32 || shape[1] > math.MaxInt32 {
		return 0, 0, 0, false
	}
	if shape[1] > 0 && shape[0] > math.MaxInt32/shape[1] {
		return int(shape[0]), int(shape[1]), math.MaxInt32, true
	}
	return int(shape[0]), int(shape[1]), int(shape[0] * shape[1]), true
}

// entryAt is the entry of t on the line at step (a step's superseded
// writes come before it), nil when t is nil or has none.
func entryAt(t *model.Tensor, step int64) *model.TensorEntry {
	if t == nil {
		return nil
	}
	i, _ := slices.BinarySearchFunc(t.Entries, step, func(e model.TensorEntry, s int64) int { return cmp.Compare(e.Step, s) })
	for ; i < len(t.Entries) && t.Entries[i].Step == step; i++ {
		if !t.Entries[i].Superseded {
			return &t.Entries[i]
		}
	}
	return nil
}

// meshFaces reads the faces f of items, whose meshes have n vertices
// each: three integer indices below n a face. An item with a face that is
// not keeps none (a mesh is drawn whole, or as the points it is).
func meshFaces(dec model.Decoders, f model.TensorEntry, items []result.MeshItem, n int) string {
	batch, nf, total, ok := meshShape(f.Shape)
	switch {
	case !ok || batch != len(items):
		return fmt.Sprintf("its faces have the shape %v, not [%d, faces, 3]: drawn as points", f.Shape, len(items))
	case total > meshStepFaces:
		return fmt.Sprintf("%d faces, over the %d a step may draw: drawn as points", total, meshStepFaces)
	}
	vals, err := f.Load(dec)
	if err != nil {
		return fmt.Sprintf("its faces cannot be read (%v): drawn as points", err)
	}
	if len(vals) != total*3 {
		return fmt.Sprintf("its faces hold %d values, not the %d of their shape %v: drawn as points", len(vals), total*3, f.Shape)
	}
	var bad []string
	for b := range items {
		fs := make([]int32, nf*3)
		for k := range fs {
			x := vals[b*nf*3+k]
			if !(x >= 0 && x < float64(n) && x == math.Trunc(x)) {
				bad = append(bad, fmt.Sprintf("item %d's face %d has the index %v, not one of its %d vertices", b, k/3, x, n))
				fs = nil
				break
			}
			fs[k] = int32(x)
		}
		items[b].Faces = fs
	}
	if len(bad) > 0 {
		return strings.Join(bad, "; ") + ": drawn as points"
	}
	return ""
}

// meshColors reads the colours c of items, whose meshes have n vertices
// each: three integers from 0 to 255 a vertex. An item with one that is
// not keeps none (the page draws its own).
func meshColors(dec model.Decoders, c model.TensorEntry, items []result.MeshItem, n int) string {
	batch, nc, total, ok := meshShape(c.Shape)
	switch {
	case !ok || batch != len(items) || nc != n:
		return fmt.Sprintf("its colours have the shape %v, not [%d, %d, 3]: not drawn", c.Shape, len(items), n)
	case total > meshStepVertices:
		return fmt.Sprintf("%d colours, over the %d a step may draw: not drawn", total, meshStepVertices)
	}
	vals, err := c.Load(dec)
	if err != nil {
		return fmt.Sprintf("its colours cannot be read (%v): not drawn", err)
	}
	if len(vals) != total*3 {
		return fmt.Sprintf("its colours hold %d values, not the %d of their shape %v: not drawn", len(vals), total*3, c.Shape)
	}
	var bad []string
	for b := range items {
		cs := make([]uint8, n*3)
		for k := range cs {
			x := vals[b*n*3+k]
			if !(x >= 0 && x <= 255 && x == math.Trunc(x)) {
				bad = append(bad, fmt.Sprintf("item %d's colour %d holds %v, not an integer from 0 to 255", b, k/3, x))
				cs = nil
				break
			}
			cs[k] = uint8(x)
		}
		items[b].Colors = cs
	}
	if len(bad) > 0 {
		return strings.Join(bad, "; ") + ": not drawn"
	}
	return ""
}
