package graph

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// unmarshal drops the fields our messages do not declare instead of
// keeping a copy of them.
var unmarshal = proto.UnmarshalOptions{DiscardUnknown: true}

// outputShapesAttr is the attribute in which TensorFlow records the shapes
// of a node's outputs.
const outputShapesAttr = "_output_shapes"

// DecodeGraphDef decodes a serialized TensorFlow GraphDef (Event.graph_def).
func DecodeGraphDef(b []byte) (*Graph, error) {
	var gd eventpb.GraphDef
	if err := unmarshal.Unmarshal(b, &gd); err != nil {
		return nil, fmt.Errorf("not a GraphDef: %w", err)
	}
	return fromGraphDefs([]*eventpb.GraphDef{&gd}, newInputBudget(len(b))), nil
}

// DecodeMetaGraphDef decodes the graph of a serialized MetaGraphDef
// (Event.meta_graph_def); what else it holds is only named in the notes.
func DecodeMetaGraphDef(b []byte) (*Graph, error) {
	var m eventpb.MetaGraphDef
	if err := unmarshal.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("not a MetaGraphDef: %w", err)
	}
	var g *Graph
	if m.GraphDef != nil {
		g = fromGraphDefs([]*eventpb.GraphDef{m.GraphDef}, newInputBudget(len(b)))
	} else {
		g = &Graph{Notes: []string{"the MetaGraphDef holds no graph"}}
	}
	var skipped []string
	if n := len(m.CollectionDef); n > 0 {
		skipped = append(skipped, plural(n, "collection"))
	}
	if n := len(m.SignatureDef); n > 0 {
		skipped = append(skipped, plural(n, "signature"))
	}
	if n := len(m.AssetFileDef); n > 0 {
		skipped = append(skipped, plural(n, "asset file"))
	}
	if len(m.SaverDef) > 0 {
		skipped = append(skipped, "the saver")
	}
	if len(m.ObjectGraphDef) > 0 {
		skipped = append(skipped, "the object graph")
	}
	if len(skipped) > 0 {
		g.Notes = append(g.Notes, "MetaGraphDef: "+strings.Join(skipped, ", ")+" not read")
	}
	return g, nil
}

// DecodeRunMetadata decodes the graphs of a serialized RunMetadata
// (Event.tagged_run_metadata, plugins graph_run_metadata and
// graph_run_metadata_graph): the pre-optimization graphs of its function
// graphs when there are any, else its partition graphs, else the
// post-optimization graphs. Several graphs are merged into one, each
// node's name behind "graph_<i>/". Step stats are read to per-node compute
// time and memory (DecodeStepStats); cost graphs are only named in the
// notes.
func DecodeRunMetadata(b []byte) (*Graph, error) {
	var rm eventpb.RunMetadata
	if err := unmarshal.Unmarshal(b, &rm); err != nil {
		return nil, fmt.Errorf("not a RunMetadata: %w", err)
	}
	var pre, part, post []*eventpb.GraphDef
	part = append(part, rm.PartitionGraphs...)
	for _, fg := range rm.FunctionGraphs {
		if fg.PreOptimizationGraph != nil {
			pre = append(pre, fg.PreOptimizationGraph)
		}
		part = append(part, fg.PartitionGraphs...)
		if fg.PostOptimizationGraph != nil {
			post = append(post, fg.PostOptimizationGraph)
		}
	}
	var notes []string
	var g *Graph
	switch {
	case len(pre) > 0:
		g = fromGraphDefs(pre, newInputBudget(len(b)))
		if n := len(part) + len(post); n > 0 {
			notes = append(notes, plural(n, "partition or optimized graph")+" not read: the graph is the traced one, before optimization")
		}
	case len(part) > 0:
		g = fromGraphDefs(part, newInputBudget(len(b)))
		if len(post) > 0 {
			notes = append(notes, plural(len(post), "optimized function graph")+" not read")
		}
	case len(post) > 0:
		g = fromGraphDefs(post, newInputBudget(len(b)))
	default:
		g = &Graph{}
		notes = append(notes, "the RunMetadata holds no graph")
	}
	if n := len(rm.StepStats); n > 0 {
		stats, err := DecodeStepStats(rm.StepStats)
		if err != nil {
			notes = append(notes, fmt.Sprintf("step stats (%d bytes) not read: %v", n, err))
		}
		g.Stats = stats
	}
	if n := len(rm.CostGraph); n > 0 {
		notes = append(notes, fmt.Sprintf("cost graph (%d bytes) not read", n))
	}
	g.Notes = append(g.Notes, notes...)
	return g, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// fromGraphDefs converts graphs to nodes, merging several under
// "graph_<i>/" so that their names stay apart, their inputs within budget.
func fromGraphDefs(gds []*eventpb.GraphDef, budget *inputBudget) *Graph {
	g := &Graph{}
	n := 0
	for _, gd := range gds {
		n += len(gd.Node)
	}
	g.Nodes = make([]Node, 0, n)
	funcs := map[string]bool{}
	for i, gd := range gds {
		prefix := ""
		if len(gds) > 1 {
			prefix = "graph_" + strconv.Itoa(i+1) + "/"
		}
		for _, nd := range gd.Node {
			g.Nodes = append(g.Nodes, nodeOf(nd, prefix, budget))
		}
		if p := gd.GetVersions().GetProducer(); p != 0 {
			g.Producer = p
		} else if g.Producer == 0 {
			g.Producer = gd.Version
		}
		for _, f := range gd.GetLibrary().GetFunction() {
			funcs[f.GetSignature().GetName()] = true
		}
	}
	if len(funcs) > 0 {
		g.Functions = slices.Sorted(maps.Keys(funcs))
		g.Notes = append(g.Notes, fmt.Sprintf("function library: %s, bodies not decoded", plural(len(funcs), "function")))
	}
	g.Notes = append(g.Notes, budget.notes()...)
	return g
}

func nodeOf(nd *eventpb.NodeDef, prefix string, budget *inputBudget) Node {
	n := Node{Name: prefix + nd.Name, Op: nd.Op, Device: nd.Device}
	ins := nd.Input[:budget.keep(len(nd.Input))]
	for _, in := range ins {
		name, control := strings.CutPrefix(in, "^")
		if !budget.take(len(prefix) + len(name)) {
			continue
		}
		if n.Inputs == nil {
			n.Inputs = make([]Input, 0, len(ins))
		}
		n.Inputs = append(n.Inputs, Input{Name: prefix + name, Control: control})
	}
	for _, k := range slices.Sorted(maps.Keys(nd.Attr)) {
		v := nd.Attr[k]
		if k == outputShapesAttr {
			for _, s := range v.GetList().GetShape() {
				n.OutputShapes = append(n.OutputShapes, shapeOf(s))
			}
			continue
		}
		n.Attrs = append(n.Attrs, Attr{Name: k, Value: attrString(v)})
	}
	return n
}

func shapeOf(s *eventpb.TensorShapeProto) Shape {
	if s.GetUnknownRank() {
		return Shape{UnknownRank: true}
	}
	sh := Shape{Dims: make([]int64, len(s.GetDim()))}
	for i, d := range s.GetDim() {
		sh.Dims[i] = d.GetSize()
	}
	return sh
}

// attrString summarises an attribute value the way TensorFlow's own
// summaries do, shortened.
func attrString(v *eventpb.AttrValue) string {
	switch x := v.GetValue().(type) {
	case *eventpb.AttrValue_S:
		return bytesString(x.S)
	case *eventpb.AttrValue_I:
		return strconv.FormatInt(x.I, 10)
	case *eventpb.AttrValue_F:
		return floatString(x.F)
	case *eventpb.AttrValue_B:
		return strconv.FormatBool(x.B)
	case *eventpb.AttrValue_Type:
		return dtypeName(x.Type)
	case *eventpb.AttrValue_Shape:
		return shapeOf(x.Shape).String()
	case *eventpb.AttrValue_Tensor:
		return tensorString(x.Tensor)
	case *eventpb.AttrValue_Placeholder:
		return shorten("$" + x.Placeholder)
	case *eventpb.AttrValue_Func:
		return funcString(x.Func, 0)
	case *eventpb.AttrValue_List:
		return listValueString(x.List)
	}
	return ""
}

// listValueString writes a list attribute. TensorFlow fills one of the
// repeated fields; should a writer fill several, all are shown in order.
func listValueString(l *eventpb.AttrValue_ListValue) string {
	var items []func() string
	for _, s := range l.S {
		items = append(items, func() string { return bytesString(s) })
	}
	for _, i := range l.I {
		items = append(items, func() string { return strconv.FormatInt(i, 10) })
	}
	for _, f := range l.F {
		items = append(items, func() string { return floatString(f) })
	}
	for _, b := range l.B {
		items = append(items, func() string { return strconv.FormatBool(b) })
	}
	for _, t := range l.Type {
		items = append(items, func() string { return dtypeName(t) })
	}
	for _, s := range l.Shape {
		items = append(items, func() string { return shapeOf(s).String() })
	}
	for _, t := range l.Tensor {
		items = append(items, func() string { return tensorString(t) })
	}
	for _, f := range l.Func {
		items = append(items, func() string { return funcString(f, 1) })
	}
	return listString(len(items), func(i int) string { return items[i]() })
}

// bytesString quotes a string attribute, shortened; bytes that are not
// text are only counted.
func bytesString(b []byte) string {
	if !utf8.Valid(b) {
		return fmt.Sprintf("<%d bytes>", len(b))
	}
	if len(b) > maxValueLen {
		return shorten(strconv.Quote(string(b[:maxValueLen])))
	}
	return shorten(strconv.Quote(string(b)))
}

func floatString(f float32) string {
	return strconv.FormatFloat(float64(f), 'g', -1, 32)
}

// tensorString summarises a tensor by its dtype and shape.
func tensorString(t *eventpb.TensorProto) string {
	return dtypeName(t.GetDtype()) + " " + shapeOf(t.GetTensorShape()).String()
}

// funcString writes a function reference as "name[key=value, ...]".
func funcString(f *eventpb.NameAttrList, depth int) string {
	if len(f.GetAttr()) == 0 {
		return shorten(f.GetName())
	}
	if depth >= maxDepth {
		return shorten(f.GetName() + "[…]")
	}
	keys := slices.Sorted(maps.Keys(f.GetAttr()))
	var sb strings.Builder
	sb.WriteString(f.GetName())
	sb.WriteByte('[')
	for i, k := range keys {
		if i > 0 {
			sb.WriteString(", ")
		}
		v := f.GetAttr()[k]
		s := ""
		if fn, ok := v.GetValue().(*eventpb.AttrValue_Func); ok {
			s = funcString(fn.Func, depth+1)
		} else {
			s = attrString(v)
		}
		sb.WriteString(k + "=" + s)
		if sb.Len() > maxValueLen {
			break
		}
	}
	sb.WriteByte(']')
	return shorten(sb.String())
}

// dtypeName names a TensorFlow dtype as numpy does ("float32"), with
// "_ref" for reference types, and "dtype<n>" for a number it does not know.
func dtypeName(dt eventpb.DataType) string {
	n := int(dt)
	ref := ""
	if n > 100 {
		n, ref = n-100, "_ref"
	}
	if n >= 0 && n < len(dtypeNames) && dtypeNames[n] != "" {
		return dtypeNames[n] + ref
	}
	return "dtype" + strconv.Itoa(int(dt))
}

// dtypeNames are TensorFlow's DataType values by number.
var dtypeNames = [...]string{
	1: "float32", 2: "float64", 3: "int32", 4: "uint8", 5: "int16", 6: "int8", 7: "string",
	8: "complex64", 9: "int64", 10: "bool", 11: "qint8", 12: "quint8", 13: "qint32",
	14: "bfloat16", 15: "qint16", 16: "quint16", 17: "uint16", 18: "complex128", 19: "float16",
	20: "resource", 21: "variant", 22: "uint32", 23: "uint64", 24: "float8_e5m2",
	25: "float8_e4m3fn", 26: "float8_e4m3fnuz", 27: "float8_e4m3b11fnuz", 28: "float8_e5m2fnuz",
	29: "int4", 30: "uint4",
}
