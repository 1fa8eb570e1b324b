package graph

import (
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/mindspore/mspb"
)

func testMindSporeGraph() *mspb.Graph {
	f32 := func(dims ...int64) *mspb.Type {
		s := &mspb.Shape{}
		for _, d := range dims {
			s.Dim = append(s.Dim, &mspb.Shape_Dim{Size: d})
		}
		return &mspb.Type{DataType: mspb.DataType_DT_TENSOR, Value: &mspb.Type_TensorType{TensorType: &mspb.TensorType{
			ElemType: mspb.DataType_DT_FLOAT32, Shape: s}}}
	}
	return &mspb.Graph{
		Name:       "train",
		Parameters: []*mspb.Parameter{{Name: "x", Type: f32(8, 4)}, {Name: "fc.weight", Type: f32(2, 4)}},
		ConstVals: []*mspb.NamedValue{{Key: "cst1", Value: &mspb.IRValue{Dtype: mspb.DataType_DT_BOOL, BoolVal: true}},
			{Key: "cst2", Value: &mspb.IRValue{Dtype: mspb.DataType_DT_TUPLE, Values: []*mspb.IRValue{
				{Dtype: mspb.DataType_DT_INT64, IntVal: 1}, {Dtype: mspb.DataType_DT_STRING, StrVal: "<b>"}}}}},
		Node: []*mspb.Node{
			{Name: "1", OpType: "MatMul", Scope: "Default/net/fc-Dense", FullName: "Default/net/fc-Dense/MatMul-op0",
				Input:      []*mspb.Input{{Name: "x"}, {Name: "fc.weight"}, {Name: "cst1"}},
				Attribute:  []*mspb.Attribute{{Name: "transpose_b", Value: &mspb.IRValue{Dtype: mspb.DataType_DT_BOOL, BoolVal: true}}},
				OutputType: f32(8, 2), InstanceName: "matmul"},
			// No full name: scope, op type and id.
			{Name: "2", OpType: "ReLU", Scope: "Default/net/",
				Input: []*mspb.Input{{Name: "1"}, {Name: "3", Type: mspb.Input_CONTROL_EDGE}},
				OutputType: &mspb.Type{DataType: mspb.DataType_DT_TUPLE, Value: &mspb.Type_SequenceType{SequenceType: &mspb.SequenceType{
					ElemTypes: []*mspb.Type{f32(1), {DataType: mspb.DataType_DT_INT32}}}}}},
			{Name: "3", OpType: "Depend", Input: []*mspb.Input{{Name: "cst2"}}},
		},
		Outputs: []*mspb.Output{{Name: "2"}},
	}
}

func TestDecodeMindSpore(t *testing.T) {
	b, err := proto.Marshal(testMindSporeGraph())
	if err != nil {
		t.Fatal(err)
	}
	g, err := DecodeMindSpore(b)
	if err != nil {
		t.Fatal(err)
	}
	var names, ops []string
	for _, n := range g.Nodes {
		names = append(names, n.Name)
		ops = append(ops, n.Op)
	}
	if want := []string{"x", "fc.weight", "cst1", "cst2", "Default/net/fc-Dense/MatMul-op0", "Default/net/ReLU2", "Depend3"}; !slices.Equal(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	if want := []string{"Parameter", "Parameter", "Const", "Const", "MatMul", "ReLU", "Depend"}; !slices.Equal(ops, want) {
		t.Errorf("ops %q, want %q", ops, want)
	}
	mm, relu := g.Nodes[4], g.Nodes[5]
	if got := []Input{{Name: "x"}, {Name: "fc.weight"}, {Name: "cst1"}}; !slices.Equal(mm.Inputs, got) {
		t.Errorf("MatMul inputs %v", mm.Inputs)
	}
	if want := []Input{{Name: "Default/net/fc-Dense/MatMul-op0"}, {Name: "Depend3", Control: true}}; !slices.Equal(relu.Inputs, want) {
		t.Errorf("ReLU inputs %v, want %v", relu.Inputs, want)
	}
	if want := []Attr{{Name: "instance_name", Value: "matmul"}, {Name: "output_type", Value: "float32"}, {Name: "transpose_b", Value: "true"}}; !slices.Equal(mm.Attrs, want) {
		t.Errorf("MatMul attributes %v, want %v", mm.Attrs, want)
	}
	if len(mm.OutputShapes) != 1 || mm.OutputShapes[0].String() != "[8,2]" {
		t.Errorf("MatMul output shapes %v", mm.OutputShapes)
	}
	if want := []Attr{{Name: "output_type", Value: "tuple[float32, int32]"}}; !slices.Equal(relu.Attrs, want) {
		t.Errorf("ReLU attributes %v, want %v", relu.Attrs, want)
	}
	if got := g.Nodes[3].Attrs; len(got) != 1 || got[0].Value != `[1, "<b>"]` {
		t.Errorf("tuple constant %v", got)
	}
	if got := g.Nodes[1].OutputShapes; len(got) != 1 || got[0].String() != "[2,4]" {
		t.Errorf("parameter shape %v", got)
	}
	if want := []string{`graph "train"`, `output "Default/net/ReLU2"`}; !slices.Equal(g.Notes, want) {
		t.Errorf("notes %q, want %q", g.Notes, want)
	}
	checkGraph(t, g)
	if _, err := DecodeMindSpore([]byte{0x0a, 0xff}); err == nil {
		t.Errorf("a truncated graph decoded")
	}
}
