package graph

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/mindspore"
	"github.com/trainreport/trainreport/collect/mindspore/mspb"
)

// DecodeMindSpore decodes the graph of a MindSpore summary file (an anf_ir
// GraphProto, docs/FORMATS.md section 21) into nodes: its parameters
// (op "Parameter", their shape and type), its constants (op "Const", their
// value) and its operators. An operator is named by its full name, the
// slash-separated scope MindSpore gives it and its op with its number
// ("Default/network-WithLossCell/_backbone-Net/fc1-Dense/MatMul-op0"), or,
// when the writer gave none, by its scope, op type and node id; its
// inputs, which the file names by node id, parameter or constant, are
// renamed alike, and control edges are marked. Attributes are summarised
// for reading; the node's output type is its "output_type" attribute and
// its shape its output shape.
func DecodeMindSpore(b []byte) (*Graph, error) {
	var gp mspb.Graph
	if err := proto.Unmarshal(b, &gp); err != nil {
		return nil, fmt.Errorf("not a MindSpore graph: %w", err)
	}
	g := &Graph{}
	if gp.GetName() != "" {
		g.Notes = append(g.Notes, "graph "+strconv.Quote(shorten(gp.GetName())))
	}
	names := make(map[string]string, len(gp.GetNode()))
	for _, n := range gp.GetNode() {
		names[n.GetName()] = msNodeName(n)
	}
	g.Nodes = make([]Node, 0, len(gp.GetParameters())+len(gp.GetConstVals())+len(gp.GetNode()))
	for _, p := range gp.GetParameters() {
		n := Node{Name: p.GetName(), Op: "Parameter"}
		typ, shape := msType(p.GetType(), 0)
		if typ != "" {
			n.Attrs = append(n.Attrs, Attr{Name: "type", Value: typ})
		}
		if shape != nil {
			n.OutputShapes = []Shape{*shape}
		}
		g.Nodes = append(g.Nodes, n)
	}
	for _, c := range gp.GetConstVals() {
		g.Nodes = append(g.Nodes, Node{Name: c.GetKey(), Op: "Const",
			Attrs: []Attr{{Name: "value", Value: msValue(c.GetValue(), 0)}}})
	}
	budget := newInputBudget(len(b))
	for _, np := range gp.GetNode() {
		n := Node{Name: names[np.GetName()], Op: np.GetOpType()}
		ins := np.GetInput()
		ins = ins[:budget.keep(len(ins))]
		for _, in := range ins {
			name := in.GetName()
			if full, ok := names[name]; ok {
				name = full // shared, not copied
			}
			if !budget.take(len(name)) {
				continue
			}
			if n.Inputs == nil {
				n.Inputs = make([]Input, 0, len(ins))
			}
			n.Inputs = append(n.Inputs, Input{Name: name, Control: in.GetType() == mspb.Input_CONTROL_EDGE})
		}
		for _, a := range np.GetAttribute() {
			n.Attrs = append(n.Attrs, Attr{Name: a.GetName(), Value: msValue(a.GetValue(), 0)})
		}
		if s := np.GetInstanceName(); s != "" {
			n.Attrs = append(n.Attrs, Attr{Name: "instance_name", Value: shorten(s)})
		}
		typ, shape := msType(np.GetOutputType(), 0)
		if typ != "" {
			n.Attrs = append(n.Attrs, Attr{Name: "output_type", Value: typ})
		}
		if shape != nil {
			n.OutputShapes = []Shape{*shape}
		}
		sortAttrs(n.Attrs)
		g.Nodes = append(g.Nodes, n)
	}
	outs := gp.GetOutputs()
	for _, o := range outs[:min(len(outs), maxOutputNotes)] {
		name := o.GetName()
		if full, ok := names[name]; ok {
			name = full
		}
		g.Notes = append(g.Notes, "output "+strconv.Quote(shorten(name)))
	}
	if len(outs) > maxOutputNotes {
		g.Notes = append(g.Notes, fmt.Sprintf("%d outputs more", len(outs)-maxOutputNotes))
	}
	g.Notes = append(g.Notes, budget.notes()...)
	return g, nil
}

// maxOutputNotes bounds the notes naming a graph's outputs (MindSpore
// writes one output): each names a node, up to maxValueLen bytes, from an
// entry of two bytes.
const maxOutputNotes = 16

// msNodeName is an operator's name in the graph: its full name, else its
// scope, op type and id as MindInsight makes them.
func msNodeName(n *mspb.Node) string {
	if n.GetFullName() != "" {
		return n.GetFullName()
	}
	name := n.GetOpType() + n.GetName()
	if s := strings.Trim(n.GetScope(), "/"); s != "" {
		return s + "/" + name
	}
	return name
}

// msType summarises a type ("float32", "tuple[float32, int32]") and
// returns a tensor type's shape; nesting is cut at maxDepth.
func msType(t *mspb.Type, depth int) (string, *Shape) {
	if t == nil {
		return "", nil
	}
	if depth >= maxDepth {
		return "…", nil
	}
	switch v := t.GetValue().(type) {
	case *mspb.Type_TensorType:
		var s *Shape
		if sh := v.TensorType.GetShape(); sh != nil {
			s = &Shape{}
			for _, d := range sh.GetDim() {
				s.Dims = append(s.Dims, d.GetSize())
			}
		}
		return mindspore.DTypeName(v.TensorType.GetElemType()), s
	case *mspb.Type_SequenceType:
		elems := v.SequenceType.GetElemTypes()
		return shorten("tuple" + listString(len(elems), func(i int) string {
			s, _ := msType(elems[i], depth+1)
			return s
		})), nil
	}
	if t.GetDataType() == mspb.DataType_DT_UNDEFINED {
		return "", nil
	}
	return mindspore.DTypeName(t.GetDataType()), nil
}

// msValue summarises a constant for reading: a scalar as written, a
// string quoted, a tensor by type and shape, lists and dictionaries
// shortened, nesting cut at maxDepth.
func msValue(v *mspb.IRValue, depth int) string {
	if v == nil {
		return ""
	}
	if depth >= maxDepth {
		return "…"
	}
	switch v.GetDtype() {
	case mspb.DataType_DT_BOOL:
		return strconv.FormatBool(v.GetBoolVal())
	case mspb.DataType_DT_INT8, mspb.DataType_DT_INT16, mspb.DataType_DT_INT32, mspb.DataType_DT_INT64:
		return strconv.FormatInt(v.GetIntVal(), 10)
	case mspb.DataType_DT_UINT8, mspb.DataType_DT_UINT16, mspb.DataType_DT_UINT32, mspb.DataType_DT_UINT64:
		return strconv.FormatUint(v.GetUintVal(), 10)
	case mspb.DataType_DT_FLOAT16, mspb.DataType_DT_FLOAT32:
		return strconv.FormatFloat(float64(v.GetFloatVal()), 'g', -1, 32)
	case mspb.DataType_DT_FLOAT64:
		return strconv.FormatFloat(v.GetDoubleVal(), 'g', -1, 64)
	case mspb.DataType_DT_STRING:
		return shorten(strconv.Quote(v.GetStrVal()))
	case mspb.DataType_DT_TENSOR:
		t := v.GetTensorVal()
		return shorten(mindspore.DTypeName(t.GetDataType()) + (Shape{Dims: t.GetDims()}).String())
	case mspb.DataType_DT_TYPE:
		s, _ := msType(v.GetTypeVal(), depth+1)
		return s
	case mspb.DataType_DT_NONE:
		return "None"
	case mspb.DataType_DT_GRAPH:
		return "graph " + strconv.Quote(shorten(v.GetGraph().GetName()))
	case mspb.DataType_DT_DICT:
		d := v.GetDictVal()
		return shorten("{" + strings.Trim(listString(len(d), func(i int) string {
			return strconv.Quote(d[i].GetKey()) + ": " + msValue(d[i].GetValue(), depth+1)
		}), "[]") + "}")
	}
	// Lists: whichever repeated field holds the items.
	switch {
	case len(v.GetValues()) > 0:
		vs := v.GetValues()
		return shorten(listString(len(vs), func(i int) string { return msValue(vs[i], depth+1) }))
	case len(v.GetIntVals()) > 0:
		vs := v.GetIntVals()
		return listString(len(vs), func(i int) string { return strconv.FormatInt(vs[i], 10) })
	case len(v.GetUintVals()) > 0:
		vs := v.GetUintVals()
		return listString(len(vs), func(i int) string { return strconv.FormatUint(vs[i], 10) })
	case len(v.GetFloatVals()) > 0:
		vs := v.GetFloatVals()
		return listString(len(vs), func(i int) string { return strconv.FormatFloat(float64(vs[i]), 'g', -1, 32) })
	case len(v.GetDoubleVals()) > 0:
		vs := v.GetDoubleVals()
		return listString(len(vs), func(i int) string { return strconv.FormatFloat(vs[i], 'g', -1, 64) })
	case len(v.GetBoolVals()) > 0:
		vs := v.GetBoolVals()
		return listString(len(vs), func(i int) string { return strconv.FormatBool(vs[i]) })
	case len(v.GetStrVals()) > 0:
		vs := v.GetStrVals()
		return shorten(listString(len(vs), func(i int) string { return shorten(strconv.Quote(vs[i])) }))
	case len(v.GetTensorVals()) > 0:
		vs := v.GetTensorVals()
		return shorten(listString(len(vs), func(i int) string {
			return shorten(mindspore.DTypeName(vs[i].GetDataType()) + (Shape{Dims: vs[i].GetDims()}).String())
		}))
	}
	return strings.TrimPrefix(v.GetDtype().String(), "DT_")
}

// sortAttrs sorts a node's attributes by name, as the model keeps them.
func sortAttrs(as []Attr) {
	slices.SortStableFunc(as, func(a, b Attr) int { return cmp.Compare(a.Name, b.Name) })
}
