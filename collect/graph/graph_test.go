package graph

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/internal/testcorpus"
)

func marshal(t testing.TB, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func shapeProto(dims ...int64) *pb.TensorShapeProto {
	s := &pb.TensorShapeProto{}
	for _, d := range dims {
		s.Dim = append(s.Dim, &pb.TensorShapeProto_Dim{Size: d})
	}
	return s
}

func attrOf(v any) *pb.AttrValue {
	switch x := v.(type) {
	case string:
		return &pb.AttrValue{Value: &pb.AttrValue_S{S: []byte(x)}}
	case int64:
		return &pb.AttrValue{Value: &pb.AttrValue_I{I: x}}
	case float32:
		return &pb.AttrValue{Value: &pb.AttrValue_F{F: x}}
	case bool:
		return &pb.AttrValue{Value: &pb.AttrValue_B{B: x}}
	case pb.DataType:
		return &pb.AttrValue{Value: &pb.AttrValue_Type{Type: x}}
	case *pb.TensorShapeProto:
		return &pb.AttrValue{Value: &pb.AttrValue_Shape{Shape: x}}
	case *pb.TensorProto:
		return &pb.AttrValue{Value: &pb.AttrValue_Tensor{Tensor: x}}
	case *pb.NameAttrList:
		return &pb.AttrValue{Value: &pb.AttrValue_Func{Func: x}}
	case *pb.AttrValue_ListValue:
		return &pb.AttrValue{Value: &pb.AttrValue_List{List: x}}
	}
	panic("attrOf: unsupported value")
}

// testGraphDef is a small graph with every kind of attribute, a control
// edge, a device and recorded output shapes.
func testGraphDef() *pb.GraphDef {
	return &pb.GraphDef{
		Versions: &pb.VersionDef{Producer: 27},
		Library: &pb.FunctionDefLibrary{Function: []*pb.FunctionDef{
			{Signature: &pb.FunctionSignature{Name: "map_fn"}},
			{Signature: &pb.FunctionSignature{Name: "filter_fn"}},
		}},
		Node: []*pb.NodeDef{
			{Name: "x", Op: "Placeholder", Device: "/device:CPU:0", Attr: map[string]*pb.AttrValue{
				"dtype":          attrOf(pb.DataType_DT_FLOAT),
				"shape":          attrOf(shapeProto(-1, 32, 32, 3)),
				"_output_shapes": attrOf(&pb.AttrValue_ListValue{Shape: []*pb.TensorShapeProto{shapeProto(-1, 32, 32, 3)}}),
			}},
			{Name: "w", Op: "Const", Attr: map[string]*pb.AttrValue{
				"value": attrOf(&pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorShape: shapeProto(3, 3, 3, 8), TensorContent: make([]byte, 4*3*3*3*8)}),
				"dtype": attrOf(pb.DataType(101)), // float32_ref
			}},
			{Name: "init", Op: "NoOp"},
			{Name: "scope/conv", Op: "Conv2D", Input: []string{"x", "w:0", "^init"}, Device: "/job:worker/task:0/device:GPU:0", Attr: map[string]*pb.AttrValue{
				"strides":     attrOf(&pb.AttrValue_ListValue{I: []int64{1, 1, 1, 1}}),
				"padding":     attrOf("SAME"),
				"use_cudnn":   attrOf(true),
				"epsilon":     attrOf(float32(0.001)),
				"axis":        attrOf(int64(-1)),
				"blob":        attrOf(string([]byte{0xff, 0xfe, 0})),
				"long":        attrOf(strings.Repeat("ab", 100)),
				"many":        attrOf(&pb.AttrValue_ListValue{I: []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}}),
				"types":       attrOf(&pb.AttrValue_ListValue{Type: []pb.DataType{pb.DataType_DT_INT32, 20, 999}}),
				"_class":      attrOf(&pb.AttrValue_ListValue{S: [][]byte{[]byte("loc:@w")}}),
				"empty":       attrOf(&pb.AttrValue_ListValue{}),
				"f":           attrOf(&pb.NameAttrList{Name: "map_fn", Attr: map[string]*pb.AttrValue{"T": attrOf(pb.DataType_DT_INT64)}}),
				"unknown":     attrOf(&pb.TensorShapeProto{UnknownRank: true}),
				"placeholder": {Value: &pb.AttrValue_Placeholder{Placeholder: "T"}},
				"unset":       {},
				"_output_shapes": attrOf(&pb.AttrValue_ListValue{Shape: []*pb.TensorShapeProto{
					shapeProto(-1, 32, 32, 8), {UnknownRank: true}, shapeProto()}}),
			}},
		},
	}
}

func TestDecodeGraphDef(t *testing.T) {
	g, err := DecodeGraphDef(marshal(t, testGraphDef()))
	if err != nil {
		t.Fatal(err)
	}
	want := &Graph{
		Producer:  27,
		Functions: []string{"filter_fn", "map_fn"},
		Notes:     []string{"function library: 2 functions, bodies not decoded"},
		Nodes: []Node{
			{Name: "x", Op: "Placeholder", Device: "/device:CPU:0",
				Attrs:        []Attr{{Name: "dtype", Value: "float32"}, {Name: "shape", Value: "[?,32,32,3]"}},
				OutputShapes: []Shape{{Dims: []int64{-1, 32, 32, 3}}}},
			{Name: "w", Op: "Const", Attrs: []Attr{{Name: "dtype", Value: "float32_ref"}, {Name: "value", Value: "float32 [3,3,3,8]"}}},
			{Name: "init", Op: "NoOp"},
			{Name: "scope/conv", Op: "Conv2D", Device: "/job:worker/task:0/device:GPU:0",
				Inputs: []Input{{Name: "x"}, {Name: "w:0"}, {Name: "init", Control: true}},
				Attrs: []Attr{
					{Name: "_class", Value: `["loc:@w"]`},
					{Name: "axis", Value: "-1"},
					{Name: "blob", Value: "<3 bytes>"},
					{Name: "empty", Value: "[]"},
					{Name: "epsilon", Value: "0.001"},
					{Name: "f", Value: "map_fn[T=int64]"},
					{Name: "long", Value: `"` + strings.Repeat("ab", 78) + `…`},
					{Name: "many", Value: "[1, 2, 3, 4, 5, 6, 7, 8, … (10 items)]"},
					{Name: "padding", Value: `"SAME"`},
					{Name: "placeholder", Value: "$T"},
					{Name: "strides", Value: "[1, 1, 1, 1]"},
					{Name: "types", Value: "[int32, resource, dtype999]"},
					{Name: "unknown", Value: "<unknown>"},
					{Name: "unset", Value: ""},
					{Name: "use_cudnn", Value: "true"},
				},
				OutputShapes: []Shape{{Dims: []int64{-1, 32, 32, 8}}, {UnknownRank: true}, {Dims: []int64{}}}},
		},
	}
	if !reflect.DeepEqual(g, want) {
		t.Errorf("got\n%+v\nwant\n%+v", g, want)
	}
	if got := g.Nodes[3].Inputs[1].Node(); got != "w" {
		t.Errorf("Input.Node() = %q, want w", got)
	}
	if got := g.Nodes[3].Inputs[2].String(); got != "^init" {
		t.Errorf("control Input.String() = %q, want ^init", got)
	}
}

func TestShapeString(t *testing.T) {
	for _, c := range []struct {
		s    Shape
		want string
	}{
		{Shape{}, "[]"},
		{Shape{Dims: []int64{-1, 2}}, "[?,2]"},
		{Shape{UnknownRank: true}, "<unknown>"},
	} {
		if got := c.s.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	gd := marshal(t, testGraphDef())
	for _, c := range []struct {
		name   string
		decode func([]byte) (*Graph, error)
		in     []byte
		msg    string
	}{
		{"GraphDef cut inside a node", DecodeGraphDef, gd[:len(gd)/2], "not a GraphDef"},
		{"MetaGraphDef of text", DecodeMetaGraphDef, []byte("graph_def {}"), "not a MetaGraphDef"},
		{"RunMetadata of garbage", DecodeRunMetadata, []byte{0x1a, 0x05, 0x0a}, "not a RunMetadata"},
		{"Keras not JSON", DecodeKeras, []byte("{"), "not Keras model JSON"},
		{"Keras not an object", DecodeKeras, []byte("[1]"), "is a list"},
		{"Keras without layers", DecodeKeras, []byte(`{"class_name": "Dense", "config": {"name": "d"}}`), "holds no layers"},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := c.decode(c.in)
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %+v, %v; want an error with %q", g, err, c.msg)
			}
		})
	}
	for _, c := range []struct{ name, in, msg string }{
		{"not JSON", "[", "not a OneFlow structure graph"},
		{"a number", "3", "is a number"},
		{"job not an object", "[1]", "job 0 is a number"},
		{"layers not a list", `[{"config": {"layers": 1}}]`, "layers is a number"},
	} {
		t.Run("OneFlow "+c.name, func(t *testing.T) {
			jobs, err := DecodeOneFlow([]byte(c.in))
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %+v, %v; want an error with %q", jobs, err, c.msg)
			}
		})
	}
}

func TestDecodeMetaGraphDef(t *testing.T) {
	m := &pb.MetaGraphDef{GraphDef: testGraphDef(), SaverDef: []byte{8, 1},
		CollectionDef: [][]byte{{10, 1, 'a'}, {10, 1, 'b'}}, SignatureDef: [][]byte{{10, 1, 's'}}}
	g, err := DecodeMetaGraphDef(marshal(t, m))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != 4 || g.Producer != 27 {
		t.Errorf("%d nodes, producer %d; want 4, 27", len(g.Nodes), g.Producer)
	}
	want := []string{"function library: 2 functions, bodies not decoded",
		"MetaGraphDef: 2 collections, 1 signature, the saver not read"}
	if !slices.Equal(g.Notes, want) {
		t.Errorf("notes %q, want %q", g.Notes, want)
	}

	g, err = DecodeMetaGraphDef(nil)
	if err != nil || len(g.Nodes) != 0 || !slices.Equal(g.Notes, []string{"the MetaGraphDef holds no graph"}) {
		t.Errorf("empty MetaGraphDef: %+v, %v", g, err)
	}
}

func names(g *Graph) []string {
	var out []string
	for _, n := range g.Nodes {
		out = append(out, n.Name)
	}
	return out
}

func TestDecodeRunMetadata(t *testing.T) {
	one := func(names ...string) *pb.GraphDef {
		gd := &pb.GraphDef{}
		for i, n := range names {
			nd := &pb.NodeDef{Name: n, Op: "Op"}
			if i > 0 {
				nd.Input = []string{"^" + names[i-1]}
			}
			gd.Node = append(gd.Node, nd)
		}
		return gd
	}
	for _, c := range []struct {
		name  string
		rm    *pb.RunMetadata
		nodes []string
		notes []string
	}{
		{"empty: a trace that captured nothing", &pb.RunMetadata{}, nil,
			[]string{"the RunMetadata holds no graph"}},
		{"step stats only", &pb.RunMetadata{StepStats: []byte{10, 0}}, nil,
			[]string{"the RunMetadata holds no graph"}},
		{"step stats unreadable", &pb.RunMetadata{StepStats: []byte{10, 5, 1}}, nil,
			[]string{"the RunMetadata holds no graph", "step stats (3 bytes) not read: step stats: unexpected EOF"}},
		{"pre-optimization graph preferred", &pb.RunMetadata{
			PartitionGraphs: []*pb.GraphDef{one("p")},
			FunctionGraphs: []*pb.RunMetadata_FunctionGraphs{{
				PartitionGraphs:       []*pb.GraphDef{one("fp")},
				PreOptimizationGraph:  one("a", "b"),
				PostOptimizationGraph: one("post"),
			}},
			CostGraph: []byte{1, 2, 3},
		}, []string{"a", "b"}, []string{
			"3 partition or optimized graphs not read: the graph is the traced one, before optimization",
			"cost graph (3 bytes) not read"}},
		{"several function graphs merged", &pb.RunMetadata{FunctionGraphs: []*pb.RunMetadata_FunctionGraphs{
			{PreOptimizationGraph: one("a", "b")}, {PreOptimizationGraph: one("a")}}},
			[]string{"graph_1/a", "graph_1/b", "graph_2/a"}, nil},
		{"partition graphs without function graphs", &pb.RunMetadata{
			PartitionGraphs: []*pb.GraphDef{one("x", "y"), one("z")}},
			[]string{"graph_1/x", "graph_1/y", "graph_2/z"}, nil},
		{"post-optimization graph as the last resort", &pb.RunMetadata{FunctionGraphs: []*pb.RunMetadata_FunctionGraphs{
			{PostOptimizationGraph: one("opt")}}}, []string{"opt"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := DecodeRunMetadata(marshal(t, c.rm))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(names(g), c.nodes) || !slices.Equal(g.Notes, c.notes) {
				t.Errorf("nodes %q notes %q; want %q, %q", names(g), g.Notes, c.nodes, c.notes)
			}
		})
	}
	// Merged names keep edges inside their graph, control marks included.
	g, _ := DecodeRunMetadata(marshal(t, &pb.RunMetadata{PartitionGraphs: []*pb.GraphDef{one("x", "y"), one("z")}}))
	if in := g.Nodes[1].Inputs; len(in) != 1 || in[0] != (Input{Name: "graph_1/x", Control: true}) {
		t.Errorf("merged input %+v, want ^graph_1/x", in)
	}
}

// edges writes a graph's nodes as "name <- input, input" lines.
func edges(g *Graph) []string {
	var out []string
	for _, n := range g.Nodes {
		var ins []string
		for _, in := range n.Inputs {
			ins = append(ins, in.String())
		}
		out = append(out, n.Name+" <- "+strings.Join(ins, ", "))
	}
	return out
}

func readTestdata(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeKeras(t *testing.T) {
	sequential := `{"class_name": "Sequential", "config": {"name": "sequential", "layers": [
		{"class_name": "Conv2D", "config": {"name": "conv2d", "batch_input_shape": [null, 32, 32, 3], "filters": 32,
			"kernel_size": [3, 3], "activation": "relu", "kernel_regularizer": null,
			"kernel_initializer": {"class_name": "GlorotUniform", "config": {"seed": null}},
			"dtype": {"class_name": "Policy", "config": {"name": "mixed_float16"}}}},
		{"class_name": "Flatten", "config": {"name": "flatten"}},
		{"class_name": "Dense", "config": {"name": "dense", "units": 10}}]}, "keras_version": "2.2.4-tf"}`
	// Keras 1 wrote a Sequential model's layers as its config.
	keras1 := `{"class_name": "Sequential", "config": [
		{"class_name": "Dense", "config": {"name": "d1", "output_dim": 4}},
		{"class_name": "Dense", "config": {"name": "d2", "output_dim": 1}}]}`
	// A Sequential model inside a Sequential model, written by Keras 3
	// with its InputLayer.
	nested := `{"class_name": "Sequential", "config": {"name": "outer", "layers": [
		{"class_name": "InputLayer", "config": {"batch_shape": [null, 5], "name": "in"}},
		{"class_name": "Sequential", "config": {"name": "inner", "layers": [
			{"class_name": "Dense", "config": {"name": "a"}},
			{"class_name": "Dense", "config": {"name": "b"}}]}},
		{"class_name": "Dense", "config": {"name": "c"}}]}}`
	// A Functional model inside a Sequential one takes the previous layer.
	functionalInSequential := `{"class_name": "Sequential", "config": {"name": "s", "layers": [
		{"class_name": "Dense", "config": {"name": "first"}},
		{"class_name": "Functional", "config": {"name": "f", "layers": [
			{"class_name": "InputLayer", "config": {"name": "f_in"}, "inbound_nodes": []},
			{"class_name": "Dense", "config": {"name": "f_out"}, "inbound_nodes": [[["f_in", 0, 0, {}]]]}],
			"input_layers": ["f_in", 0, 0], "output_layers": ["f_out", 0, 0]}},
		{"class_name": "Dense", "config": {"name": "last"}}]}}`
	for _, c := range []struct {
		name  string
		json  []byte
		edges []string
	}{
		{"Sequential: each layer fed by the previous", []byte(sequential), []string{
			"sequential/conv2d <- ", "sequential/flatten <- sequential/conv2d", "sequential/dense <- sequential/flatten"}},
		{"Keras 1 Sequential with its layers as config", []byte(keras1), []string{
			"sequential/d1 <- ", "sequential/d2 <- sequential/d1"}},
		{"Functional, Keras 2 nested-list inbound nodes, nested model", readTestdata(t, "keras2_functional.json"), []string{
			"outer/input_1 <- ",
			"outer/inner/inner_in <- outer/input_1",
			"outer/inner/inner_out <- outer/inner/inner_in",
			"outer/side <- outer/input_1",
			"outer/add <- outer/inner/inner_out, outer/side",
			"outer/head <- outer/add"}},
		// Checked against TensorBoard 2.21's keras_util.
		{"Functional, Keras 3 keras_history inbound nodes, nested Sequential", readTestdata(t, "keras3_functional.json"), []string{
			"functional/input_a <- ",
			"functional/input_b <- ",
			"functional/dense_a <- functional/input_a",
			"functional/block/block_input <- functional/input_b",
			"functional/block/block_dense1 <- functional/block/block_input",
			"functional/block/block_dense2 <- functional/block/block_dense1",
			"functional/concatenate <- functional/dense_a, functional/block/block_dense2",
			"functional/out <- functional/concatenate"}},
		{"Sequential inside Sequential", []byte(nested), []string{
			"outer/in <- ", "outer/inner/a <- outer/in", "outer/inner/b <- outer/inner/a", "outer/c <- outer/inner/b"}},
		{"Functional inside Sequential", []byte(functionalInSequential), []string{
			"s/first <- ", "s/f/f_in <- s/first", "s/f/f_out <- s/f/f_in", "s/last <- s/f/f_out"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, err := DecodeKeras(c.json)
			if err != nil {
				t.Fatal(err)
			}
			if got := edges(g); !slices.Equal(got, c.edges) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.edges, "\n"))
			}
		})
	}

	g, err := DecodeKeras([]byte(sequential))
	if err != nil {
		t.Fatal(err)
	}
	conv := g.Nodes[0]
	wantAttrs := []Attr{{Name: "activation", Value: "relu"}, {Name: "batch_input_shape", Value: "[null, 32, 32, 3]"},
		{Name: "dtype", Value: "Policy(name=mixed_float16)"}, {Name: "filters", Value: "32"}, {Name: "kernel_initializer", Value: "GlorotUniform"},
		{Name: "kernel_size", Value: "[3, 3]"}}
	if conv.Op != "Conv2D" || !reflect.DeepEqual(conv.Attrs, wantAttrs) || conv.OutputShapes != nil {
		t.Errorf("conv2d: %+v; want op Conv2D, attrs %v, no output shapes", conv, wantAttrs)
	}
	g, err = DecodeKeras(readTestdata(t, "keras3_functional.json"))
	if err != nil {
		t.Fatal(err)
	}
	if in := g.Nodes[1]; in.Op != "InputLayer" || !reflect.DeepEqual(in.OutputShapes, []Shape{{Dims: []int64{-1, 6}}}) {
		t.Errorf("input_b: %+v, want an InputLayer of shape [?,6]", in)
	}
	dense := g.Nodes[2]
	if i := slices.IndexFunc(dense.Attrs, func(a Attr) bool { return a.Name == "dtype" }); i < 0 || dense.Attrs[i].Value != "DTypePolicy(name=float32)" {
		t.Errorf("dense_a attrs %v, want dtype DTypePolicy(name=float32)", dense.Attrs)
	}

	// Models nested past maxModelDepth are left out, and said to be.
	deep := `{"class_name": "Dense", "config": {"name": "leaf"}}`
	for i := range 2 * maxModelDepth {
		deep = `{"class_name": "Sequential", "config": {"name": "m` + strconv.Itoa(i) + `", "layers": [` + deep + `]}}`
	}
	g, err = DecodeKeras([]byte(deep))
	if err != nil || len(g.Nodes) != 0 || len(g.Notes) != 1 || !strings.Contains(g.Notes[0], "nested deeper") {
		t.Errorf("deep model: %+v, %v; want no nodes and a note", g, err)
	}
}

func TestDecodeOneFlow(t *testing.T) {
	in := `[{"backend": "oneflow", "class_name": "Model", "config": {"name": "train_job", "input_layers": [], "output_layers": [], "layers": [
		{"class_name": "matmul", "name": "fc", "inbound_nodes": ["x", "w"], "config": {"name": "fc", "device_tag": "gpu",
			"scope_symbol_id": "42", "user_conf": {"op_type_name": "matmul",
			"attr": [{"key": "transpose_b", "value": {"at_bool": true}}, {"key": "alpha", "value": {"at_double": 1.5}}],
			"input": [{"key": "a", "value": {"s": ["x/out"]}}]}}},
		{"class_name": "variable", "name": "w", "inbound_nodes": [], "config": {"name": "w", "device_type": "kGPU", "shape": {"dim": ["10", "4"]}}},
		{"class_name": "input", "name": "x", "inbound_nodes": [], "config": {"name": "x"}}]}},
		{"backend": "oneflow", "class_name": "Model", "config": {"layers": []}}]`
	jobs, err := DecodeOneFlow([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []Job{
		{Name: "train_job", Graph: Graph{Nodes: []Node{
			{Name: "fc", Op: "matmul", Device: "gpu", Inputs: []Input{{Name: "x"}, {Name: "w"}},
				Attrs: []Attr{{Name: "alpha", Value: "1.5"}, {Name: "scope_symbol_id", Value: "42"}, {Name: "transpose_b", Value: "true"}}},
			{Name: "w", Op: "variable", Device: "kGPU", Attrs: []Attr{{Name: "shape", Value: "{dim: [10, 4]}"}}},
			{Name: "x", Op: "input"},
		}}},
		{Name: "job_1", Graph: Graph{Nodes: []Node{}}},
	}
	if !reflect.DeepEqual(jobs, want) {
		t.Errorf("got\n%+v\nwant\n%+v", jobs, want)
	}
}

// corpusDir is the shared corpus of real logs (see internal/testcorpus).
func corpusDir(t *testing.T) string { return testcorpus.Dir(t) }

// TestCorpusOneFlow reads the structure graph of TS-VIS's tests, whose
// directory holds no event file (so no run reads it); node counts are the
// lengths of each job's layers, counted with Python's json.
func TestCorpusOneFlow(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(corpusDir(t), "tsvis-oneflow-logs", "tests", "test_logs", "run1", "structure_graph.json"))
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := DecodeOneFlow(b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	edgeCount := 0
	for _, j := range jobs {
		got = append(got, j.Name+":"+strconv.Itoa(len(j.Nodes)))
		for _, n := range j.Nodes {
			edgeCount += len(n.Inputs)
		}
	}
	want := []string{"PbJob:3", "ImageJob:4", "HistogramJob2:4", "HistogramJob:4", "ScalarJob:4", "CreateWriter:1",
		"InferenceNet:451", "TrainNet:460"}
	if !slices.Equal(got, want) || edgeCount != 2+3+3+3+3+0+466+476 {
		t.Errorf("jobs %v with %d edges, want %v with 956", got, edgeCount, want)
	}
	// A user op's attr list becomes attributes.
	for _, n := range jobs[6].Nodes {
		if n.Name == "Resnet-fc1001_matmul" {
			if !slices.Contains(n.Attrs, Attr{Name: "transpose_b", Value: "true"}) || n.Device != "kGPU" {
				t.Errorf("%s: device %q attrs %v, want kGPU and transpose_b=true", n.Name, n.Device, n.Attrs)
			}
		}
	}
}
