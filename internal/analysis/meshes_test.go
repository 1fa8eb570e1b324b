package analysis

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
)

// TestMeshesOfBothWriters: TensorBoard's summary (_VERTEX, _FACE, _COLOR,
// int32 faces and uint8 colours) and tensorboardX's add_mesh (_1, _2, _3,
// every part float32) give the same tetrahedron, each part at its step:
// the vertices the writers scaled by 1 + 0.5*step, the faces and colours
// they wrote.
func TestMeshesOfBothWriters(t *testing.T) {
	td := filepath.Join("..", "..", "collect", "testdata", "writers")
	rep, err := collect.Collect(context.Background(), []model.Logdir{
		{Name: "tf2", Path: filepath.Join(td, "tf2")}, {Name: "tbx", Path: filepath.Join(td, "tensorboardx")},
	}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Close()
	ms, err := meshes(context.Background(), rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	verts := []float32{1, 1, 1, -1, -1, 1, -1, 1, -1, 1, -1, -1}
	faces := []int32{0, 1, 2, 0, 3, 1, 0, 2, 3, 1, 3, 2}
	colors := []uint8{255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0}
	var got []string
	for _, s := range ms.Series {
		got = append(got, s.Run.Name+" "+s.Name+" "+strings.Join(s.Tags[:], ","))
		if len(s.Steps) != 2 || s.Total != 2 {
			t.Errorf("%s %s: %d steps of %d, want 2 of 2", s.Run.Name, s.Name, len(s.Steps), s.Total)
			continue
		}
		for k, st := range s.Steps {
			scale := float32(1 + 0.5*float64(k))
			if st.Step != int64(k) || st.Note != "" || len(st.Items) != 1 {
				t.Errorf("%s step %d: step %d, note %q, %d items", s.Name, k, st.Step, st.Note, len(st.Items))
				continue
			}
			it := st.Items[0]
			want := make([]float32, len(verts))
			for i, v := range verts {
				want[i] = v * scale
			}
			if !slices.Equal(it.Vertices, want) || !slices.Equal(it.Faces, faces) || !slices.Equal(it.Colors, colors) {
				t.Errorf("%s step %d: vertices %v, faces %v, colours %v", s.Name, k, it.Vertices, it.Faces, it.Colors)
			}
		}
	}
	want := []string{"tbx mesh/tetra mesh/tetra_1,mesh/tetra_2,mesh/tetra_3",
		"tf2/train mesh/tetra mesh/tetra_VERTEX,mesh/tetra_FACE,mesh/tetra_COLOR"}
	if !slices.Equal(got, want) {
		t.Errorf("meshes %q, want %q", got, want)
	}
}

// TestMeshesBudgetBeforeDecoding: a step whose vertices or faces claim
// more than a step may draw is noted and never decoded, whatever its
// claimed shape (an overflowing product included); faces that index past
// the vertices and colours out of range are left out, the mesh drawn as
// points.
func TestMeshesBudgetBeforeDecoding(t *testing.T) {
	decoded := 0
	values := map[string][]float64{
		"ok":     {0, 0, 0, 1, 0, 0, 0, 1, 0},
		"face9":  {0, 1, 9},
		"color":  {0, 0, 0, 255, 255, 255, 300, 0, 0},
		"face":   {0, 1, 2},
		"broken": nil,
	}
	rep := &model.Report{}
	rep.SetDecoders(model.Decoders{Tensor: func(e model.TensorEntry) ([]float64, error) {
		decoded++
		if v := values[e.Data.Path]; v != nil {
			return v, nil
		}
		return nil, errors.New("no such payload")
	}})
	entry := func(step int64, path string, shape ...int64) model.TensorEntry {
		return model.TensorEntry{Step: step, DType: "float32", Shape: shape, Data: model.BlobRef{Path: path}}
	}
	run := &model.Run{Name: "r", Meshes: []*model.Tensor{
		{Tag: "m_VERTEX", Entries: []model.TensorEntry{
			entry(0, "ok", 1, 3, 3), entry(1, "huge", 1, meshStepVertices+1, 3), entry(2, "overflow", 1<<20, 1<<20, 3),
			entry(3, "ok", 1, 3, 3), entry(4, "ok", 1, 3, 3), entry(5, "ok", 3, 2)}},
		{Tag: "m_FACE", Entries: []model.TensorEntry{entry(0, "face", 1, 1, 3), entry(3, "face9", 1, 1, 3), entry(4, "huge", 1, meshStepFaces+1, 3)}},
		{Tag: "m_COLOR", Entries: []model.TensorEntry{entry(0, "color", 1, 3, 3)}},
	}}
	rep.Runs = []*model.Run{run}
	ms, err := meshes(context.Background(), rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ms.Series) != 1 || len(ms.Series[0].Steps) != 6 {
		t.Fatalf("%d series, want 1 of 6 steps", len(ms.Series))
	}
	steps := ms.Series[0].Steps
	for k, want := range []string{
		"item 0's colour 2 holds 300, not an integer from 0 to 255: not drawn",
		fmt.Sprintf("%d vertices, over the %d a step may draw", meshStepVertices+1, meshStepVertices),
		fmt.Sprintf("2147483647 vertices, over the %d a step may draw", meshStepVertices),
		"item 0's face 0 has the index 9, not one of its 3 vertices: drawn as points",
		fmt.Sprintf("%d faces, over the %d a step may draw: drawn as points", meshStepFaces+1, meshStepFaces),
		"its vertices have the shape [3 2], not [batch, points, 3]",
	} {
		if steps[k].Note != want {
			t.Errorf("step %d: note %q, want %q", steps[k].Step, steps[k].Note, want)
		}
	}
	if it := steps[0].Items[0]; len(it.Vertices) != 9 || len(it.Faces) != 3 || it.Colors != nil {
		t.Errorf("step 0: %v", it)
	}
	if it := steps[3].Items[0]; it.Faces != nil || len(it.Vertices) != 9 {
		t.Errorf("step 3 keeps faces past its vertices: %v", it)
	}
	// Decoded: step 0's three parts, step 3's vertices and faces, step
	// 4's vertices; never a part over the budget.
	if decoded != 6 {
		t.Errorf("%d parts decoded, want 6", decoded)
	}
}
