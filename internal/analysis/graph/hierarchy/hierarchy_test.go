package hierarchy

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// graphOf makes a graph from "name op input..." lines.
func graphOf(nodes ...[]string) *model.NodeGraph {
	g := &model.NodeGraph{}
	for _, n := range nodes {
		nd := model.Node{Name: n[0], Op: n[1]}
		for _, in := range n[2:] {
			ctl := in[0] == '^'
			if ctl {
				in = in[1:]
			}
			nd.Inputs = append(nd.Inputs, model.NodeInput{Name: in, Control: ctl})
		}
		g.Nodes = append(g.Nodes, nd)
	}
	return g
}

// group returns the group named name.
func group(t *testing.T, h *Hierarchy, name string) *Group {
	t.Helper()
	for _, g := range h.Groups {
		if g.Name == name {
			return g
		}
	}
	t.Fatalf("no group %q", name)
	return nil
}

func labels(g *Group) []string {
	var ls []string
	for _, c := range g.Children {
		ls = append(ls, fmt.Sprintf("%s:%s", c.Kind, c.Label))
	}
	return ls
}

func TestScopesAndEdges(t *testing.T) {
	g := graphOf(
		[]string{"x", "Placeholder"},
		[]string{"dense", "Identity", "dense/BiasAdd"}, // a node named like a scope
		[]string{"dense/kernel", "VariableV2"},
		[]string{"dense/MatMul", "MatMul", "x", "dense/kernel:0"},
		[]string{"dense/BiasAdd", "BiasAdd", "dense/MatMul", "^x"},
		[]string{"dense/kernel/Assign", "Assign", "dense/kernel", "x"},
		[]string{"y", "Identity", "dense", "missing:0"},
	)
	h := Build(g)
	if h.Edges != 8 || h.Dangling != 1 {
		t.Errorf("edges %d dangling %d, want 8 and 1", h.Edges, h.Dangling)
	}
	root := group(t, h, "")
	if got := fmt.Sprint(labels(root)); got != "[op:x scope:dense op:y]" {
		t.Errorf("root children %s", got)
	}
	d := group(t, h, "dense")
	if got := fmt.Sprint(labels(d)); got != "[op:(dense) scope:kernel op:MatMul op:BiasAdd]" {
		t.Errorf("dense children %s", got)
	}
	if d.Ops != 5 || root.Ops != 7 {
		t.Errorf("ops: dense %d root %d", d.Ops, root.Ops)
	}
	// x feeds dense three times by data (MatMul, Assign) and once by
	// control (BiasAdd): one edge of the root's view.
	var xd, dy *Edge
	for i, e := range root.Edges {
		switch {
		case root.Children[e.From].Label == "x" && root.Children[e.To].Label == "dense":
			xd = &root.Edges[i]
		case root.Children[e.From].Label == "dense" && root.Children[e.To].Label == "y":
			dy = &root.Edges[i]
		}
	}
	if xd == nil || xd.Data != 2 || xd.Control != 1 {
		t.Errorf("x -> dense: %+v", xd)
	}
	if dy == nil || dy.Data != 1 {
		t.Errorf("dense -> y: %+v", dy)
	}
	// Inside dense, the edges from x come from outside.
	if c := d.Children[2]; c.ExtIn != 1 { // MatMul
		t.Errorf("MatMul ext in %d", c.ExtIn)
	}
	k := group(t, h, "dense/kernel")
	// kernel -> Assign is a reference edge, within dense/kernel's view:
	// "(kernel)" and "Assign".
	if len(k.Edges) != 1 || k.Edges[0].Ref != 1 {
		t.Errorf("kernel edges %+v", k.Edges)
	}
	var ref int
	for _, grp := range h.Groups {
		for _, e := range grp.Edges {
			ref += e.Ref
		}
	}
	if ref != 1 {
		t.Errorf("%d reference edges, want 1", ref)
	}
}

func TestSeries(t *testing.T) {
	var nodes [][]string
	prev := "in"
	nodes = append(nodes, []string{"in", "Placeholder"})
	for i := 1; i <= 12; i++ {
		name := fmt.Sprintf("layer_%d/Relu", i)
		nodes = append(nodes, []string{name, "Relu", prev})
		prev = name
	}
	for i := 1; i <= 4; i++ { // too few for a series
		nodes = append(nodes, []string{fmt.Sprintf("head%d", i), "MatMul", prev})
	}
	for i := 1; i <= 5; i++ { // alike by name, not by op
		op := "Add"
		if i == 3 {
			op = "Sub"
		}
		nodes = append(nodes, []string{fmt.Sprintf("op_%d", i), op, prev})
	}
	h := Build(graphOf(nodes...))
	root := group(t, h, "")
	want := "[op:in series:layer_[1-12] op:head1 op:head2 op:head3 op:head4 op:op_1 op:op_2 op:op_3 op:op_4 op:op_5]"
	if got := fmt.Sprint(labels(root)); got != want {
		t.Errorf("root children\n%s, want\n%s", got, want)
	}
	s := group(t, h, "layer_[1-12]")
	if s.Kind != Series || len(s.Children) != 12 || s.Children[1].Label != "layer_2" || s.Ops != 12 {
		t.Errorf("series %+v", s)
	}
	// The chain layer_1 -> ... -> layer_12 runs inside the series.
	if len(s.Edges) != 11 {
		t.Errorf("series edges %d, want 11", len(s.Edges))
	}
	if group(t, h, "layer_7").Parent != h.Groups[0].Children[1].Ref {
		t.Errorf("layer_7 not inside the series")
	}
}

func TestAnnotationsAndSideBox(t *testing.T) {
	nodes := [][]string{
		{"x", "Placeholder"},
		{"c", "Const"},
		{"mul", "Mul", "x", "c"},
		{"loss", "Mean", "mul"},
		{"loss_summary", "ScalarSummary", "loss"},
		{"step", "VariableV2"},
	}
	prev := "loss"
	for i := range 12 { // a chain every node of which depends on step
		name := fmt.Sprintf("n%c", 'a'+i)
		nodes = append(nodes, []string{name, "Identity", prev, "^step"})
		prev = name
	}
	h := Build(graphOf(nodes...))
	root := h.Groups[0]
	byLabel := map[string]Child{}
	for _, c := range root.Children {
		byLabel[c.Label] = c
	}
	if !byLabel["c"].Annotated || len(byLabel["mul"].In) != 1 || byLabel["mul"].In[0].Why != "constant" {
		t.Errorf("constant: c %+v mul %+v", byLabel["c"], byLabel["mul"])
	}
	if !byLabel["loss_summary"].Annotated || len(byLabel["loss"].Out) != 1 || byLabel["loss"].Out[0].Why != "summary" {
		t.Errorf("summary: %+v loss %+v", byLabel["loss_summary"], byLabel["loss"])
	}
	if !byLabel["step"].Side || byLabel["na"].Side {
		t.Errorf("side box: step %+v na %+v", byLabel["step"], byLabel["na"])
	}
	if in := byLabel["nc"].In; len(in) != 1 || in[0].Why != "side" || root.Children[in[0].Child].Label != "step" {
		t.Errorf("nc annotations %+v", in)
	}
	for _, e := range root.Edges {
		for _, end := range []int{e.From, e.To} {
			if c := root.Children[end]; c.Annotated || c.Side {
				t.Errorf("edge %+v drawn to %q", e, c.Label)
			}
		}
	}
}

// A name of many slashes nests at most maxScopeDepth scopes: the rest
// stays in its label, so the scopes' names cost at most maxScopeDepth
// times the name.
func TestScopeDepthBounded(t *testing.T) {
	name := strings.Repeat("a/", 5000) + "op"
	h := Build(graphOf([]string{name, "NoOp"}, []string{"b", "NoOp", name}))
	if len(h.Groups) != maxScopeDepth+1 {
		t.Errorf("%d groups, want %d", len(h.Groups), maxScopeDepth+1)
	}
	deepest := h.Groups[h.Parent[0]]
	if deepest.Depth != maxScopeDepth || deepest.Children[0].Label != strings.Repeat("a/", 5000-maxScopeDepth)+"op" {
		t.Errorf("deepest group %q at depth %d holds %q", deepest.Name, deepest.Depth, deepest.Children[0].Label)
	}
	if h.Edges != 1 {
		t.Errorf("%d edges, want 1", h.Edges)
	}
}

// Each edge was labelled with its producer's whole shape, and sized by
// walking it: a producer of 200,000 dimensions feeding 5,000 scopes (a
// 914 KB GraphDef) asked for more than 2 GB. Labels are cut at
// maxShapeLabel bytes and each output's label and size are made once.
// Here a producer of 20,000 dimensions feeds 300 scopes, which was 12 MB
// of labels.
func TestShapeLabelsAreBounded(t *testing.T) {
	dims := make([]int64, 20_000)
	for i := range dims {
		dims[i] = 1
	}
	g := &model.NodeGraph{Nodes: []model.Node{{Name: "p", Op: "Relu", OutputShapes: []model.NodeShape{{Dims: dims}}}}}
	for i := range 300 {
		scope := strings.Repeat(string(rune('a'+i%26)), 1+i/26) // no digits: no series
		g.Nodes = append(g.Nodes, model.Node{Name: scope + "/c", Op: "Identity", Inputs: []model.NodeInput{{Name: "p:0"}}})
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	h := Build(g)
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 2<<20 {
		t.Errorf("Build allocated %d bytes", n)
	}
	if h.Edges != 300 {
		t.Fatalf("%d edges, want 300", h.Edges)
	}
	for _, grp := range h.Groups { // the producer's edges go to a side box: few are left
		for _, e := range grp.Edges {
			if len(e.Shape) > maxShapeLabel+len("…]") {
				t.Fatalf("edge %+v", e)
			}
		}
	}
	if got := shapeLabel(g.Nodes[0].OutputShapes[0]); len(got) > maxShapeLabel+len("…]") || !strings.HasPrefix(got, "[1,1,") || !strings.HasSuffix(got, "…]") {
		t.Errorf("label %q", got)
	}
	if got := shapeLabel(model.NodeShape{Dims: []int64{-1, 32}}); got != "[?,32]" {
		t.Errorf("label %q, want [?,32]", got)
	}
}

// Every input is resolved once, where the edges are counted: to the last
// node of its name, with the output its name gives, or to none (-1); a
// node's input naming itself is resolved but is no edge. Count, which
// the outputs that do not draw the graph use, agrees.
func TestInputsResolvedWithTheCounts(t *testing.T) {
	g := graphOf(
		[]string{"a", "Const"},
		[]string{"a", "Placeholder"}, // a duplicate: inputs naming "a" take this one
		[]string{"b", "Split", "a:1", "^a", "b"},
		[]string{"c", "AddN", "b:output:2", "b:x", "gone:3"},
	)
	h := Build(g)
	want := []Input{{Node: 1, Output: 1}, {Node: 1}, {Node: 2}, {Node: 2, Output: 2}, {Node: 2, Output: -1}, {Node: -1}}
	if !reflect.DeepEqual(h.Inputs, want) {
		t.Errorf("inputs %+v, want %+v", h.Inputs, want)
	}
	if h.Edges != 4 || h.Dangling != 1 || h.Duplicates != 1 {
		t.Errorf("%d edges, %d dangling, %d duplicates; want 4, 1, 1", h.Edges, h.Dangling, h.Duplicates)
	}
	if c := Count(g); c != (Counts{Edges: 4, Dangling: 1, Duplicates: 1}) {
		t.Errorf("Count %+v", c)
	}
}

// mindsporeLike is a graph shaped as MindSpore writes one: parameters at
// the top level, every one of them feeding the network's scope
// ("Default"), which holds most of the ops, beside a small "Gradients"
// scope.
func mindsporeLike() *model.NodeGraph {
	var nodes [][]string
	var params []string
	for i := range 12 {
		p := fmt.Sprintf("param_%c", 'a'+i) // not numbered: no series
		params = append(params, p)
		nodes = append(nodes, []string{p, "Parameter"})
	}
	prev := params[0]
	for i := range 20 { // a chain of the network's ops, each fed a parameter
		name := fmt.Sprintf("Default/net/op_%c", 'a'+i)
		nodes = append(nodes, []string{name, "MatMul", prev, params[i%len(params)]})
		prev = name
	}
	nodes = append(nodes, []string{"Gradients/Default/grad", "MatMulGrad", prev, params[1]})
	nodes = append(nodes, []string{"Gradients/Default/grad2", "MatMulGrad", "Gradients/Default/grad", params[2]})
	return graphOf(nodes...)
}

// The scope holding most of a view's ops is its body, not a hub: it is
// never moved to the side box, though every parameter feeds it (its
// degree far above Q3 + IQR), and the edges into it stay drawn.
func TestMainScopeStaysOutOfSideBox(t *testing.T) {
	h := Build(mindsporeLike())
	root := h.Groups[0]
	var main Child
	drawn := 0
	for _, c := range root.Children {
		if c.Label == "Default" {
			main = c
		}
		if !c.Annotated && !c.Side {
			drawn++
		}
	}
	if main.Label == "" || main.Side {
		t.Fatalf("Default %+v: want it drawn in the view, not in the side box", main)
	}
	into := 0
	for _, e := range root.Edges {
		if root.Children[e.To].Label == "Default" {
			into++
		}
	}
	if into != 12 {
		t.Errorf("%d edges into Default drawn, want one from each of the 12 parameters", into)
	}
	// The rule still moves a hub that is not the body: a parameter
	// feeding every op of a chain in one view.
	h = Build(graphOf(append([][]string{{"step", "VariableV2"}}, chainOn("step", 14)...)...))
	for _, c := range h.Groups[0].Children {
		if c.Label == "step" && !c.Side {
			t.Errorf("step, feeding all 14 ops of the chain, is not in the side box")
		}
	}
}

// chainOn is n ops in a chain, each also taking a control input from hub.
func chainOn(hub string, n int) [][]string {
	var nodes [][]string
	prev := hub
	for i := range n {
		name := fmt.Sprintf("n%c", 'a'+i) // not numbered: no series
		nodes = append(nodes, []string{name, "Identity", prev, "^" + hub})
		prev = name
	}
	return nodes
}

// An edge bundling data edges of several shapes says it is mixed: its
// shape is the first known one's only. One bundling edges of one shape is
// not; one of an unknown shape beside a known one is.
func TestBundledEdgeOfMixedShapesSaysSo(t *testing.T) {
	shaped := func(name, op string, dims []int64, inputs ...string) model.Node {
		n := model.Node{Name: name, Op: op, OutputShapes: []model.NodeShape{{Dims: dims}}}
		for _, in := range inputs {
			n.Inputs = append(n.Inputs, model.NodeInput{Name: in})
		}
		return n
	}
	g := &model.NodeGraph{Nodes: []model.Node{
		shaped("a/w", "Const", []int64{1}),
		shaped("a/b", "Const", []int64{1}),
		shaped("a/x", "Placeholder", []int64{4, 1, 28, 28}),
		shaped("a/y", "Placeholder", []int64{1}),
		shaped("b/op", "AddN", []int64{1}, "a/w", "a/b", "a/x"), // [1], [1], [4,1,28,28]
		shaped("b/op2", "AddN", []int64{1}, "a/y", "a/w"),       // [1], [1]
		shaped("c/op", "AddN", []int64{1}, "a/y", "a/b"),        // [1], [1]
		{Name: "a/u", Op: "Placeholder"},                        // no shape recorded
		shaped("d/op", "AddN", []int64{1}, "a/u", "a/y"),        // unknown, [1]
	}}
	h := Build(g)
	got := map[string]Edge{}
	root := h.Groups[0]
	for _, e := range root.Edges {
		got[root.Children[e.From].Label+">"+root.Children[e.To].Label] = e
	}
	if e := got["a>b"]; e.Data != 5 || e.Shape != "[1]" || !e.Mixed {
		t.Errorf("a>b %+v: want 5 data edges, the first [1], mixed", e)
	}
	if e := got["a>c"]; e.Data != 2 || e.Shape != "[1]" || e.Mixed {
		t.Errorf("a>c %+v: want 2 data edges of [1], not mixed", e)
	}
	if e := got["a>d"]; e.Data != 2 || e.Shape != "[1]" || !e.Mixed {
		t.Errorf("a>d %+v: want 2 data edges, one of unknown shape, the known [1], mixed", e)
	}
}
