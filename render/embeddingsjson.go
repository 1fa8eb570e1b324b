package render

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// embeddingFileJSON is data/embeddings/<run>/<name>.json: every step of
// one (run, embedding) with the coordinates of each projection, so that a
// user can take them elsewhere, and the Tianshu projector API's shapes.
type embeddingFileJSON struct {
	Run   string              `json:"run"`
	Name  string              `json:"name"`
	Steps []embeddingStepJSON `json:"steps"`
	// Tianshu is what Tianshu's projector API serves: the index {name:
	// [steps], shape, sample, sample_type} and per step [[coords],
	// [labels]] of the PCA layout in 3-D.
	Tianshu tianshuEmbeddingJSON `json:"tianshu"`
}

type embeddingStepJSON struct {
	Step     int64         `json:"step"`
	WallTime summary.Float `json:"wall_time"`
	Source   string        `json:"source"`
	File     string        `json:"file"`
	Shape    []int64       `json:"shape"`
	// NonFinite counts the values that were NaN or infinite, laid out as
	// zeros.
	NonFinite int    `json:"non_finite,omitempty"`
	Error     string `json:"error,omitempty"`
	// Skipped says which methods were left out, and why: the report's
	// budgets, or points that give them nothing to do.
	Skipped []string `json:"skipped,omitempty"`
	// Repeats is how many more times the source listed this same entry,
	// merged into it (result.EmbeddingStep.Repeats).
	Repeats int `json:"repeats,omitempty"`
	// Columns and Metadata are the per-point table, a row per point.
	Columns     []string             `json:"columns"`
	Metadata    [][]string           `json:"metadata"`
	Sprite      *spriteJSON          `json:"sprite,omitempty"`
	Projections []projectionJSON     `json:"projections"`
	Neighbors   *embeddingNeighbors  `json:"neighbors,omitempty"`
	Sample      *embeddingSampleJSON `json:"sample,omitempty"`
}

type spriteJSON struct {
	// Src is the image: its file in the site, its data: URI in the
	// single file.
	Src            string `json:"src"`
	Width          int    `json:"width"`
	Height         int    `json:"height"`
	SingleImageDim [2]int `json:"single_image_dim"`
	Error          string `json:"error,omitempty"`
}

type embeddingSampleJSON struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// projectionJSON is one method's layouts: coordinates of the points of
// Sample (every point when null), in sample order.
type projectionJSON struct {
	Method string  `json:"method"`
	Sample []int32 `json:"sample"`
	// Sampled is set when the method's cap left points out.
	Sampled   bool              `json:"sampled"`
	Explained []float64         `json:"explained,omitempty"`
	Coords2   []json.RawMessage `json:"coords_2d"`
	Coords3   []json.RawMessage `json:"coords_3d"`
	Error     string            `json:"error,omitempty"`
	// Note says how the layout was made when not by the method over
	// every point: copies of a point laid out once, too few distinct
	// points.
	Note string `json:"note,omitempty"`
}

// embeddingNeighbors are the nearest neighbours in the original space of
// the points of Sample (every point when null): per point, K indices of
// points and their distances, nearest first.
type embeddingNeighbors struct {
	Sample        []int32           `json:"sample"`
	K             int               `json:"k"`
	Euclidean     []json.RawMessage `json:"euclidean"`
	EuclideanDist []json.RawMessage `json:"euclidean_dist"`
	Cosine        []json.RawMessage `json:"cosine"`
	CosineDist    []json.RawMessage `json:"cosine_dist"`
}

type tianshuEmbeddingJSON struct {
	Index map[string]any    `json:"index"`
	Steps map[string][2]any `json:"steps"`
}

// embeddingFile encodes v's data file; sprite gives the src of the sprite
// of the j-th step (an error leaves it out with its message).
func (r *Report) embeddingFile(v *result.EmbeddingSet, sprite func(s *result.EmbeddingStep, j int) (string, error)) ([]byte, error) {
	f := embeddingFileJSON{Run: v.Run.Name, Name: v.Name, Steps: []embeddingStepJSON{},
		Tianshu: tianshuEmbeddingJSON{Index: map[string]any{}, Steps: map[string][2]any{}}}
	var steps []int64
	for j, s := range v.Steps {
		e := s.Embedding
		sj := embeddingStepJSON{Step: e.Step, WallTime: summary.Float(e.WallTime), Source: e.Source, File: e.File,
			Shape: e.Shape, Columns: []string{}, Metadata: [][]string{}, Projections: []projectionJSON{}}
		if e.Metadata != nil {
			sj.Columns, sj.Metadata = e.Metadata.Columns, shownRows(e.Metadata.Rows, s.Layout, e.NumPoints())
		}
		if e.Sprite != nil {
			sp := &spriteJSON{Width: e.Sprite.Width, Height: e.Sprite.Height, SingleImageDim: e.Sprite.SingleImageDim}
			src, err := sprite(s, j)
			if err != nil {
				sp.Error = err.Error()
			}
			sp.Src = src
			sj.Sprite = sp
		}
		if e.Sample != nil {
			sj.Sample = &embeddingSampleJSON{Name: e.Sample.Name, Type: e.Sample.Type}
		}
		if s.Err != nil {
			sj.Error = s.Err.Error()
			if e.Points == nil && len(sj.Metadata) > 0 {
				// The warning says the metadata is read: it is here.
				sj.Error += fmt.Sprintf("; its %s of metadata (%s) are in its data file", result.CountOf(len(sj.Metadata), "row", "rows"), e.Metadata.File)
			}
		}
		sj.Skipped, sj.Repeats = s.Skipped, s.Repeats
		if res := s.Layout; res != nil {
			sj.NonFinite = res.NonFinite
			for _, p := range res.Projections {
				sj.Projections = append(sj.Projections, projectionOf(p, res.N))
			}
			if nb := res.Neighbors; nb != nil {
				sj.Neighbors = neighborsOf(nb, res.N)
			}
			// Tianshu: the PCA layout in 3-D and the first column's labels.
			if len(res.Projections) > 0 && res.Projections[0].Err == nil {
				p := res.Projections[0]
				labels := make([]string, len(p.Sample))
				if e.Metadata != nil {
					for i, k := range p.Sample {
						if int(k) < len(e.Metadata.Rows) && len(e.Metadata.Rows[k]) > 0 {
							labels[i] = e.Metadata.Rows[k][0]
						}
					}
				}
				f.Tianshu.Steps[strconv.FormatInt(e.Step, 10)] = [2]any{rows(p.Coords3, 3), labels}
			}
		}
		steps = append(steps, e.Step)
		f.Steps = append(f.Steps, sj)
	}
	last := v.Steps[len(v.Steps)-1].Embedding
	f.Tianshu.Index[v.Name] = steps
	f.Tianshu.Index["shape"] = last.Shape
	sample, sampleType := "", ""
	if last.Sample != nil {
		sample, sampleType = last.Sample.Name, last.Sample.Type
	}
	f.Tianshu.Index["sample"], f.Tianshu.Index["sample_type"] = sample, sampleType
	return json.Marshal(f)
}

// shownRows returns the metadata rows of the points some projection or
// neighbour list shows, indexed by point, null for the others: a cap
// leaves most points of a big embedding out, and their rows would be most
// of the file. Rows past the points (a metadata file longer than the
// tensor) belong to no point; without points (n is 0), every row is
// returned.
func shownRows(rows [][]string, res *result.EmbeddingLayout, n int) [][]string {
	if res == nil && n == 0 {
		// No points were read (a checkpoint that was not): the rows are
		// all there is of the embedding, and the warning says they are
		// read. collect bounds them.
		return rows
	}
	rows = rows[:min(len(rows), n)]
	if res == nil {
		return rows
	}
	shown := make([]bool, len(rows))
	mark := func(sample []int32) bool {
		if len(sample) == res.N {
			return true // every point
		}
		for _, p := range sample {
			if int(p) < len(shown) {
				shown[p] = true
			}
		}
		return false
	}
	for _, p := range res.Projections {
		if mark(p.Sample) {
			return rows
		}
	}
	if res.Neighbors != nil && mark(res.Neighbors.Sample) {
		return rows
	}
	out := make([][]string, len(rows))
	for i, r := range rows {
		if shown[i] {
			out[i] = r
		}
	}
	return out
}

func projectionOf(p result.Projection, n int) projectionJSON {
	j := projectionJSON{Method: p.Method, Explained: p.Explained,
		Coords2: []json.RawMessage{}, Coords3: []json.RawMessage{}, Note: p.Note}
	if len(p.Sample) < n {
		j.Sample, j.Sampled = p.Sample, true
	}
	if p.Err != nil {
		j.Error = p.Err.Error()
		return j
	}
	j.Coords2, j.Coords3 = rows(p.Coords2, 2), rows(p.Coords3, 3)
	return j
}

func neighborsOf(nb *result.Neighbors, n int) *embeddingNeighbors {
	j := &embeddingNeighbors{K: nb.K}
	if len(nb.Sample) < n {
		j.Sample = nb.Sample
	}
	j.Euclidean, j.EuclideanDist = graphRows(nb.Euclidean)
	j.Cosine, j.CosineDist = graphRows(nb.Cosine)
	return j
}

// rows encodes row-major values of width w as JSON arrays, one per row,
// float32 values in their shortest form.
func rows(v []float32, w int) []json.RawMessage {
	out := make([]json.RawMessage, 0, len(v)/max(w, 1))
	for i := 0; i+w <= len(v); i += w {
		out = append(out, appendFloat32s(nil, v[i:i+w]))
	}
	return out
}

func graphRows(g result.NeighborLists) (idx, dist []json.RawMessage) {
	for i := 0; i < g.N(); i++ {
		b := []byte{'['}
		for c, k := range g.Index[i*g.K : (i+1)*g.K] {
			if c > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(k), 10)
		}
		idx = append(idx, append(b, ']'))
		dist = append(dist, appendFloat32s(nil, g.Dist[i*g.K:(i+1)*g.K]))
	}
	return idx, dist
}

func appendFloat32s(b []byte, v []float32) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendFloat(b, float64(x), 'g', -1, 32)
	}
	return append(b, ']')
}
