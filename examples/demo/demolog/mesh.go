package demolog

import (
	"encoding/binary"
	"math"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// Sizes of the evaluation's reconstructed mesh (mesh.go).
const (
	meshRings, meshSegments = 16, 32 // a torus of 512 vertices and 1,024 triangles
)

// reconstruction is the evaluation run's 3-D reconstruction, as
// TensorBoard's mesh summary (and PyTorch's add_mesh) write one: a torus
// the model reconstructs from a noisy start, closer to its target shape as
// training goes on; three tags, <name>_VERTEX (float32 [1, 512, 3]), _FACE
// (int32 [1, 1024, 3]) and _COLOR (uint8 [1, 512, 3], coloured by height),
// each with the plugin "mesh" and its MeshPluginData.
type reconstruction struct {
	noise []float64
	faces []int32
}

func newReconstruction() *reconstruction {
	rng := newRNG(evalRun + "/mesh")
	m := &reconstruction{noise: make([]float64, 3*meshRings*meshSegments)}
	for i := range m.noise {
		m.noise[i] = rng.NormFloat64()
	}
	for r := range meshRings {
		for s := range meshSegments {
			a := int32(r*meshSegments + s)
			b := int32(r*meshSegments + (s+1)%meshSegments)
			c := int32(((r+1)%meshRings)*meshSegments + s)
			d := int32(((r+1)%meshRings)*meshSegments + (s+1)%meshSegments)
			m.faces = append(m.faces, a, b, d, a, d, c)
		}
	}
	return m
}

// write writes the reconstruction at step into f, the run's event file of
// tensors, as one writer's summaries go into one file.
func (m *reconstruction) write(f *eventFile, step int64, wall float64) {
	n := meshRings * meshSegments
	left := 0.6 * math.Exp(-float64(step)/1500) // what is left of the noise
	var vb []byte
	colors := make([]uint8, 0, 3*n)
	for r := range meshRings {
		u := 2 * math.Pi * float64(r) / meshRings
		for s := range meshSegments {
			v := 2 * math.Pi * float64(s) / meshSegments
			i := 3 * (r*meshSegments + s)
			x := (1 + 0.4*math.Cos(v)) * math.Cos(u)
			y := (1 + 0.4*math.Cos(v)) * math.Sin(u)
			z := 0.4 * math.Sin(v)
			for k, c := range []float64{x, y, z} {
				vb = binary.LittleEndian.AppendUint32(vb, math.Float32bits(float32(c+left*m.noise[i+k])))
			}
			h := (z + 0.4) / 0.8 // 0 at the bottom, 1 at the top
			colors = append(colors, uint8(40+200*h), uint8(90+80*(1-h)), uint8(200-150*h))
		}
	}
	var fb []byte
	for _, x := range m.faces {
		fb = binary.LittleEndian.AppendUint32(fb, uint32(x))
	}
	const name = "eval/reconstruction"
	f.meshPart(step, wall, name, 1, "_VERTEX", eventpb.DataType_DT_FLOAT, int64(n), vb)
	f.meshPart(step, wall, name, 2, "_FACE", eventpb.DataType_DT_INT32, int64(len(m.faces)/3), fb)
	f.meshPart(step, wall, name, 3, "_COLOR", eventpb.DataType_DT_UINT8, int64(n), colors)
}

// meshPart writes one part of a mesh (content type: 1 vertices, 2 faces, 3
// colours) as a [1, rows, 3] tensor under <name><suffix>, its metadata
// MeshPluginData{name=2, content_type=3, shape=6} as TensorBoard's
// summary writes it.
func (ef *eventFile) meshPart(step int64, wall float64, name string, contentType uint64, suffix string, dt eventpb.DataType, rows int64, content []byte) {
	md := protowire.AppendTag(nil, 2, protowire.BytesType)
	md = protowire.AppendString(md, name)
	md = protowire.AppendTag(md, 3, protowire.VarintType)
	md = protowire.AppendVarint(md, contentType)
	for _, d := range []int64{1, rows, 3} {
		md = protowire.AppendTag(md, 6, protowire.VarintType)
		md = protowire.AppendVarint(md, uint64(d))
	}
	ts := &eventpb.TensorShapeProto{Dim: []*eventpb.TensorShapeProto_Dim{{Size: 1}, {Size: rows}, {Size: 3}}}
	ef.write(&eventpb.Event{WallTime: wall, Step: step, What: &eventpb.Event_Summary{Summary: &eventpb.Summary{
		Value: []*eventpb.SummaryValue{{Tag: name + suffix,
			Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "mesh", Content: md}},
			Value:    &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: dt, TensorShape: ts, TensorContent: content}}}},
	}}})
}
