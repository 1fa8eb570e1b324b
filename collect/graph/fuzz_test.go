package graph

import (
	"strings"
	"testing"
	"unicode/utf8"

	pb "github.com/trainreport/trainreport/collect/eventpb"
)

// FuzzGraphDef decodes arbitrary bytes as every payload a graph comes in:
// GraphDef, MetaGraphDef, RunMetadata, Keras model JSON and OneFlow
// structure graph, MindSpore GraphProto. None may panic, what decodes must
// be a usable node model, and its inputs stay within their bounds, in
// count a node and in bytes of names over the graph (checkInputs: the
// output's size against the payload's). Found inputs are kept under
// testdata/fuzz/FuzzGraphDef.
func FuzzGraphDef(f *testing.F) {
	gd := marshal(f, testGraphDef())
	f.Add(gd)
	f.Add(gd[:len(gd)-7])
	f.Add(marshal(f, &pb.MetaGraphDef{GraphDef: testGraphDef(), CollectionDef: [][]byte{{1}}}))
	f.Add(marshal(f, &pb.RunMetadata{StepStats: []byte{1}, FunctionGraphs: []*pb.RunMetadata_FunctionGraphs{
		{PreOptimizationGraph: testGraphDef()}, {PartitionGraphs: []*pb.GraphDef{testGraphDef()}}}}))
	f.Add([]byte(`{"class_name": "Sequential", "config": [{"class_name": "Dense", "config": {"name": "d"}}]}`))
	f.Add([]byte(`{"class_name": "Model", "config": {"name": "m", "layers": [{"class_name": "Model", "config": {"name": "m",
		"layers": [], "input_layers": [["a", 0, 99]], "output_layers": ["b", 0, -1]}, "inbound_nodes": [[["m", 0, 0, {}]]]},
		{"class_name": "Dense", "config": {"name": "x"}, "inbound_nodes": [{"args": [[[{"config": {"keras_history": ["m", 0, 5]}}]]]}]}],
		"input_layers": [], "output_layers": []}}`))
	f.Add([]byte(`[{"config": {"name": "j", "layers": [{"class_name": "relu", "inbound_nodes": ["a", ["b", 0]],
		"config": {"user_conf": {"attr": [{"key": "k", "value": {"at_list_int64": {"val": [1, 2]}}}, {"key": 1}]}}}]}}]`))
	f.Add(marshal(f, testMindSporeGraph()))
	// (fanIn's graphs, a node fed by another many times over, stall Go's
	// fuzzing engine, old decoders or new: TestMindSporeFanInIsBounded
	// has them.)
	f.Add(marshal(f, &pb.RunMetadata{PartitionGraphs: []*pb.GraphDef{{Node: []*pb.NodeDef{
		{Name: "p", Op: "Const"}, {Name: "c", Op: "AddN", Input: []string{"p", "p", "^p", "p:1", "q"}}}}, {}}}))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, decode := range []func([]byte) (*Graph, error){DecodeGraphDef, DecodeMetaGraphDef, DecodeRunMetadata, DecodeKeras, DecodeMindSpore} {
			g, err := decode(b)
			if err != nil {
				continue
			}
			checkGraph(t, g)
			checkInputs(t, g, len(b))
		}
		jobs, err := DecodeOneFlow(b)
		if err == nil {
			for _, j := range jobs {
				checkGraph(t, &j.Graph)
				checkInputs(t, &j.Graph, len(b))
			}
		}
	})
}

// checkGraph checks what every decoded graph promises: attributes sorted
// and of bounded length, and names that print.
func checkGraph(t *testing.T, g *Graph) {
	t.Helper()
	for _, n := range g.Nodes {
		for i, a := range n.Attrs {
			if i > 0 && n.Attrs[i-1].Name > a.Name {
				t.Fatalf("node %q: attributes not sorted: %v", n.Name, n.Attrs)
			}
			// A list may pass the bound by one item and its count.
			if len(a.Value) > 4*maxValueLen {
				t.Fatalf("node %q: attribute %s of %d bytes", n.Name, a.Name, len(a.Value))
			}
			if !utf8.ValidString(a.Value) && !strings.Contains(a.Value, "bytes>") {
				t.Fatalf("node %q: attribute %s is not text: %q", n.Name, a.Name, a.Value)
			}
		}
		for _, s := range n.OutputShapes {
			_ = s.String()
		}
		for _, in := range n.Inputs {
			_ = in.Node()
		}
	}
}

// FuzzKerasOutput decodes arbitrary bytes as Keras model JSON and checks
// the amplification property: what a model decodes to (outputBytes)
// stays within maxKerasOutput of its size, however its names nest. Found
// inputs are kept under testdata/fuzz/FuzzKerasOutput.
func FuzzKerasOutput(f *testing.F) {
	f.Add(kerasNested(3, 20, 10))
	f.Add(kerasNested(20, 40, 50))
	f.Add([]byte(`{"class_name": "Functional", "config": {"name": "m", "layers": [
		{"class_name": "InputLayer", "config": {"name": "a", "batch_shape": [null, 3]}, "inbound_nodes": []},
		{"class_name": "Dense", "config": {"name": "b", "units": 3}, "inbound_nodes": [[["a", 0, 0, {}]]]},
		{"class_name": "Functional", "config": {"name": "inner", "layers": [{"class_name": "InputLayer", "config": {"name": "i"}}],
			"input_layers": [["i", 0, 0]], "output_layers": [["i", 0, 0]]}, "inbound_nodes": [[["b", 0, 0, {}]]]},
		{"class_name": "Dense", "config": {"name": "c"}, "inbound_nodes": [{"args": [{"config": {"keras_history": ["inner", 0, 0]}}]}]}],
		"input_layers": [["a", 0, 0]], "output_layers": [["c", 0, 0]]}}`))
	f.Add([]byte(`{"class_name": "Sequential", "config": [{"class_name": "Dense", "config": {"name": "` + strings.Repeat("d", 300) + `"}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := DecodeKeras(b)
		if err != nil {
			return
		}
		if n := outputBytes(g); n > maxKerasOutput(len(b)) {
			t.Fatalf("%d bytes of JSON decode to %d bytes (limit %d), %d nodes", len(b), n, maxKerasOutput(len(b)), len(g.Nodes))
		}
	})
}
