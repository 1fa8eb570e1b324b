package hierarchy

import (
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
)

// edges resolves every input of every node to its producer and adds the
// edge to the lowest group holding both ends, between the children of
// that group holding them; on the way up each child passed counts an edge
// to or from outside its group.
func (b *builder) edges() {
	h := b.h
	type key struct{ g, from, to int }
	at := map[key]int{}
	// The label and size of each producer's output, made once: a producer
	// of a long shape may feed any number of edges.
	type output struct{ node, index int }
	type sized struct {
		label string
		size  float64
	}
	outputs := map[output]sized{}
	inputs := 0
	for _, n := range b.g.Nodes {
		inputs += len(n.Inputs)
	}
	h.Inputs = make([]Input, 0, inputs)
	for c, n := range b.g.Nodes {
		dataIndex := 0
		for _, in := range n.Inputs {
			p, ok := b.byName[in.Node()]
			if !in.Control {
				dataIndex++
			}
			if !ok {
				h.Inputs = append(h.Inputs, Input{Node: -1})
				h.Dangling++
				continue
			}
			h.Inputs = append(h.Inputs, Input{Node: p, Output: OutputIndex(in.Name)})
			if p == c {
				continue
			}
			h.Edges++
			gp, sp, gc, sc := h.Parent[p], b.slot[p], h.Parent[c], b.slot[c]
			for gp != gc {
				if h.Groups[gp].Depth >= h.Groups[gc].Depth {
					h.Groups[gp].Children[sp].ExtOut++
					sp, gp = b.groupSlot[gp], h.Groups[gp].Parent
				} else {
					h.Groups[gc].Children[sc].ExtIn++
					sc, gc = b.groupSlot[gc], h.Groups[gc].Parent
				}
			}
			grp := h.Groups[gp]
			k := key{gp, sp, sc}
			ei, ok := at[k]
			if !ok {
				ei = len(grp.Edges)
				grp.Edges = append(grp.Edges, Edge{From: sp, To: sc})
				at[k] = ei
			}
			e := &grp.Edges[ei]
			if in.Control {
				e.Control++
				continue
			}
			e.Data++
			prod := &b.g.Nodes[p]
			if dataIndex == 1 && isVariable(prod.Op) && takesRef(n.Op) {
				e.Ref++
			}
			label := ""
			if k := OutputIndex(in.Name); k >= 0 && k < len(prod.OutputShapes) {
				o, ok := outputs[output{p, k}]
				if !ok {
					s := prod.OutputShapes[k]
					o = sized{shapeLabel(s), elements(s)}
					outputs[output{p, k}] = o
				}
				label = o.label
				e.Size += o.size
			}
			// The first data edge of a known shape names the shape; an edge
			// of another shape, or of none known beside one known, makes
			// the bundle mixed.
			if e.Data > 1 && label != e.Shape {
				e.Mixed = true
			}
			if e.Shape == "" {
				e.Shape = label
			}
		}
	}
}

// Counts are what a graph's counts need of its names resolved, and
// nothing of its grouping.
type Counts struct {
	// Edges, Dangling and Duplicates are Hierarchy's.
	Edges, Dangling, Duplicates int
}

// Count counts g's edges, dangling inputs and duplicate names as Build
// does (an input names the last node of its name; a node's input naming
// itself is no edge), without grouping the nodes: for the outputs that
// print a graph's counts but do not draw it.
func Count(g *model.NodeGraph) Counts {
	var c Counts
	byName := make(map[string]int, len(g.Nodes))
	for i, n := range g.Nodes {
		if _, dup := byName[n.Name]; dup {
			c.Duplicates++
		}
		byName[n.Name] = i
	}
	for i, n := range g.Nodes {
		for _, in := range n.Inputs {
			switch p, ok := byName[in.Node()]; {
			case !ok:
				c.Dangling++
			case p != i:
				c.Edges++
			}
		}
	}
	return c
}

// OutputShape is the recorded shape of the output input names ("node:1").
func OutputShape(n *model.Node, input string) (model.NodeShape, bool) {
	k := OutputIndex(input)
	if k < 0 || k >= len(n.OutputShapes) {
		return model.NodeShape{}, false
	}
	return n.OutputShapes[k], true
}

// OutputIndex is the index of the output an input names ("node:1" is 1,
// "node" 0), -1 when its name gives one that is not a number.
func OutputIndex(input string) int {
	_, out, ok := strings.Cut(input, ":")
	if !ok {
		return 0
	}
	// "node:output:0" inside function bodies names outputs by arg.
	out = out[strings.LastIndexByte(out, ':')+1:]
	k, err := strconv.Atoi(out)
	if err != nil || k < 0 {
		return -1
	}
	return k
}

// maxShapeLabel bounds an edge's label: a shape of many dimensions, each
// edge it feeds labelled with it whole, made a 914 KB GraphDef (a
// producer of 200,000 dimensions feeding 5,000 scopes) ask for more than
// 2 GB.
const maxShapeLabel = 64

// shapeLabel is s as String writes it ("[?,32]"), cut after
// maxShapeLabel bytes, the cut marked, without writing the rest.
func shapeLabel(s model.NodeShape) string { return s.Label(maxShapeLabel) }

// elements counts a tensor's elements, unknown dimensions as 1, as
// TensorBoard sizes its edges.
func elements(s model.NodeShape) float64 {
	if s.UnknownRank {
		return 1
	}
	size := 1.0
	for _, d := range s.Dims {
		if d > 0 {
			size *= float64(d)
		}
	}
	return size
}

// isVariable reports whether op is a TF1 reference variable, whose output
// is a reference.
func isVariable(op string) bool {
	return op == "Variable" || op == "VariableV2" || op == "TemporaryVariable"
}

// takesRef reports whether op's first input is a reference it writes
// through: assignments, scatters and the optimisers' Apply* kernels.
func takesRef(op string) bool {
	switch op {
	case "Assign", "AssignAdd", "AssignSub", "CountUpTo":
		return true
	}
	return strings.HasPrefix(op, "Apply") || strings.HasPrefix(op, "SparseApply") || strings.HasPrefix(op, "Scatter")
}
