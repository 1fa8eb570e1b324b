package demolog

import (
	"fmt"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// graph writes the model graph into a train file, as Keras's TensorBoard
// callback does at the start of fit(): a GraphDef of the small CNN the
// sweep trains (two conv blocks, a dense head, the loss and Adam), with
// TF2's names (sequential/<layer>/<op>), its variables read through
// ReadVariableOp, and each node's output shape in _output_shapes (-1 the
// batch), so the Graphs page has scopes to open and shapes on its edges.
func (ef *eventFile) graph(wall float64) {
	b := &graphBuilder{}
	b.add("input_1", "Placeholder", shape(-1, 32, 32, 3))
	x := "input_1"
	x = b.conv("conv2d", x, 3, 32, 32)
	x = b.pool("max_pooling2d", x, 16, 32)
	x = b.conv("conv2d_1", x, 32, 64, 16)
	x = b.pool("max_pooling2d_1", x, 8, 64)
	b.add("sequential/flatten/Const", "Const", shape(2))
	b.add("sequential/flatten/Reshape", "Reshape", shape(-1, 4096), x, "sequential/flatten/Const")
	x = b.dense("dense", "sequential/flatten/Reshape", 4096, 128, "Relu")
	b.add("sequential/dropout/Identity", "Identity", shape(-1, 128), x)
	x = b.dense("dense_1", "sequential/dropout/Identity", 128, 10, "")
	b.add("sequential/dense_1/Softmax", "Softmax", shape(-1, 10), x)
	// The loss on the logits and the labels, and Adam's update of each
	// variable from its gradient.
	b.add("labels", "Placeholder", shape(-1))
	loss := "sparse_categorical_crossentropy/"
	b.add(loss+"SparseSoftmaxCrossEntropyWithLogits", "SparseSoftmaxCrossEntropyWithLogits", shape(-1), x, "labels")
	b.add(loss+"Const", "Const", shape(1))
	b.add(loss+"Mean", "Mean", shape(), loss+"SparseSoftmaxCrossEntropyWithLogits", loss+"Const")
	b.add("Adam/learning_rate", "Placeholder", shape())
	for _, v := range b.vars {
		grad := "gradient_tape/" + v.layer + "/" + v.what + "Grad"
		b.add(grad, v.gradOp, v.shape, loss+"Mean", v.read)
		b.add("Adam/update_"+v.layer+"_"+v.what+"/ResourceApplyAdam", "ResourceApplyAdam", nil,
			v.resource, "Adam/learning_rate", grad)
	}
	ef.write(&eventpb.Event{WallTime: wall, What: &eventpb.Event_GraphDef{GraphDef: b.bytes(ef)}})
}

// graphBuilder collects the nodes of a GraphDef.
type graphBuilder struct {
	nodes []*eventpb.NodeDef
	vars  []graphVar
}

// graphVar is a trained variable: where it is read, and how its gradient
// is named and shaped.
type graphVar struct {
	layer, what, resource, read, gradOp string
	shape                               *eventpb.TensorShapeProto
}

func shape(dims ...int64) *eventpb.TensorShapeProto {
	s := &eventpb.TensorShapeProto{}
	for _, d := range dims {
		s.Dim = append(s.Dim, &eventpb.TensorShapeProto_Dim{Size: d})
	}
	return s
}

// add appends a node on the CPU of the demo host; out is its one output's
// shape (nil: no output).
func (b *graphBuilder) add(name, op string, out *eventpb.TensorShapeProto, inputs ...string) {
	n := &eventpb.NodeDef{Name: name, Op: op, Input: inputs, Device: "/job:localhost/replica:0/task:0/device:CPU:0",
		Attr: map[string]*eventpb.AttrValue{"T": {Value: &eventpb.AttrValue_Type{Type: eventpb.DataType_DT_FLOAT}}}}
	if out != nil {
		n.Attr["_output_shapes"] = &eventpb.AttrValue{Value: &eventpb.AttrValue_List{List: &eventpb.AttrValue_ListValue{Shape: []*eventpb.TensorShapeProto{out}}}}
	}
	b.nodes = append(b.nodes, n)
}

// variable adds the resource handle of a layer's variable and its read,
// returning the read's name.
func (b *graphBuilder) variable(layer, op, what, gradOp string, s *eventpb.TensorShapeProto) string {
	scope := "sequential/" + layer + "/" + op + "/ReadVariableOp"
	b.add(scope+"/resource", "Placeholder", shape())
	b.add(scope, "ReadVariableOp", s, scope+"/resource")
	b.vars = append(b.vars, graphVar{layer: layer, what: what, resource: scope + "/resource", read: scope, gradOp: gradOp, shape: s})
	return scope
}

// conv adds a 3x3 convolution with bias and ReLU, returning its output.
func (b *graphBuilder) conv(layer, in string, cin, cout, side int64) string {
	p := "sequential/" + layer + "/"
	k := b.variable(layer, "Conv2D", "kernel", "Conv2DBackpropFilter", shape(3, 3, cin, cout))
	bias := b.variable(layer, "BiasAdd", "bias", "BiasAddGrad", shape(cout))
	out := shape(-1, side, side, cout)
	b.add(p+"Conv2D", "Conv2D", out, in, k)
	b.add(p+"BiasAdd", "BiasAdd", out, p+"Conv2D", bias)
	b.add(p+"Relu", "Relu", out, p+"BiasAdd")
	return p + "Relu"
}

// pool adds a 2x2 max pooling, returning its output.
func (b *graphBuilder) pool(layer, in string, side, c int64) string {
	name := "sequential/" + layer + "/MaxPool"
	b.add(name, "MaxPool", shape(-1, side, side, c), in)
	return name
}

// dense adds a fully connected layer (act "" for none), returning its
// output.
func (b *graphBuilder) dense(layer, in string, din, dout int64, act string) string {
	p := "sequential/" + layer + "/"
	w := b.variable(layer, "MatMul", "kernel", "MatMulGrad", shape(din, dout))
	bias := b.variable(layer, "BiasAdd", "bias", "BiasAddGrad", shape(dout))
	out := shape(-1, dout)
	b.add(p+"MatMul", "MatMul", out, in, w)
	b.add(p+"BiasAdd", "BiasAdd", out, p+"MatMul", bias)
	if act == "" {
		return p + "BiasAdd"
	}
	b.add(p+act, act, out, p+"BiasAdd")
	return p + act
}

// bytes serialises the graph; an error is kept in ef, as write keeps its.
func (b *graphBuilder) bytes(ef *eventFile) []byte {
	out, err := marshal.Marshal(&eventpb.GraphDef{Node: b.nodes, Versions: &eventpb.VersionDef{Producer: 1645}})
	if err != nil && ef.err == nil {
		ef.err = fmt.Errorf("encoding the model graph: %w", err)
	}
	return out
}

// layout writes a custom-scalars layout, as tensorboardX's
// add_custom_scalars does: charts that draw several tags of every run
// together, so that the report has a Custom Scalars page of its own
// beside the charts a user pins.
func (ef *eventFile) layout(wall float64) {
	multiline := func(title string, tags ...string) *eventpb.Chart {
		return &eventpb.Chart{Title: title, Content: &eventpb.Chart_Multiline{Multiline: &eventpb.MultilineChartContent{Tag: tags}}}
	}
	l := &eventpb.Layout{Category: []*eventpb.Category{
		{Title: "Training", Chart: []*eventpb.Chart{
			multiline("Loss and accuracy", `metrics/(loss|accuracy)`),
			multiline("Learning rate", `optim/learning_rate`),
		}},
		{Title: "Health", Closed: true, Chart: []*eventpb.Chart{multiline("Gradient norm", `optim/grad_norm`)}},
	}}
	b, err := marshal.Marshal(l)
	if err != nil {
		if ef.err == nil {
			ef.err = fmt.Errorf("encoding the custom-scalars layout: %w", err)
		}
		return
	}
	ef.write(&eventpb.Event{WallTime: wall, What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: []*eventpb.SummaryValue{{
		Tag:      "custom_scalars__config__",
		Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "custom_scalars"}},
		Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_STRING,
			TensorShape: &eventpb.TensorShapeProto{}, StringVal: [][]byte{b}}},
	}}}}})
}
