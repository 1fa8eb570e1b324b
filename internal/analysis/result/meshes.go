package result

import "github.com/trainreport/trainreport/collect/model"

// Meshes are the runs' 3-D meshes (TensorBoard's mesh plugin, PyTorch's
// and tensorboardX's add_mesh), a series per run and mesh name, in run
// order, then name order.
type Meshes struct {
	Series []*MeshSeries
	// MaxVertices and MaxFaces bound what one kept step holds, its batch
	// together: a step of more is kept with a note and nothing to draw.
	MaxVertices, MaxFaces int
}

// MeshSeries is one mesh of a run over its steps.
type MeshSeries struct {
	Run *model.Run
	// Name is the mesh's: its tags' without the part's suffix
	// (_VERTEX, _FACE, _COLOR; tensorboardX's _1, _2, _3).
	Name string
	// Tags are the tags the parts are read from: vertices, faces, colours
	// ("" for a part the log does not have).
	Tags [3]string
	// Steps are the kept steps (at most the media budget, spread evenly,
	// the last kept) in step order; Total counts the vertex entries.
	Steps []MeshStep
	Total int
}

// MeshStep is a mesh at one step: an item per element of its batch.
type MeshStep struct {
	Step     int64
	WallTime float64
	Items    []MeshItem
	// Note says what of the step is not drawn and why (a part that could
	// not be read, faces out of range, a step over the budgets); "" when
	// it is drawn whole.
	Note string
}

// MeshItem is one mesh: its vertices (x, y, z each), its triangles (three
// vertex indices each) and its vertices' colours (r, g, b each, 0 to 255),
// the last two empty when the log has none or they could not be used.
type MeshItem struct {
	Vertices []float32
	Faces    []int32
	Colors   []uint8
}
