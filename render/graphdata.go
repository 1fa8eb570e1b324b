package render

import (
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// graphJSON is a graph's data file, data/graphs/<run>/<key>.json: the
// Tianshu graph shape ({net, operator} under c_graph for op graphs,
// s_graph for structure graphs), whose net entries are also the node
// details, then the hierarchy with each group's laid-out view.
type graphJSON struct {
	Run        string        `json:"run"`
	Source     string        `json:"source"`
	Tag        string        `json:"tag"`
	Step       int64         `json:"step"`
	WallTime   summary.Float `json:"wall_time"`
	Seen       int           `json:"seen"`
	Nodes      int           `json:"nodes"`
	Edges      int           `json:"edges"`
	Dangling   int           `json:"dangling_inputs"`
	Duplicates int           `json:"duplicate_names"`
	Functions  []string      `json:"functions"`
	Notes      []string      `json:"notes"`
	Budgets    graphBudgets  `json:"budgets"`
	// StatsFrom names the graph whose step stats give the nodes' compute
	// time and memory (this one, or the run's first run metadata with
	// stats for an op graph, as TensorBoard joins them by node name); ""
	// when none.
	StatsFrom string         `json:"stats_from"`
	CGraph    *tianshuGraph  `json:"c_graph,omitempty"`
	SGraph    *tianshuGraph  `json:"s_graph,omitempty"`
	Groups    []graphGroupJS `json:"groups"`
}

type graphBudgets struct {
	ViewBoxes     int `json:"view_boxes"`
	ViewEdges     int `json:"view_edges"`
	AttrBytes     int `json:"attr_bytes"`
	LayoutSeconds int `json:"layout_seconds"`
}

// tianshuGraph is Tianshu's graph shape: the nodes (net) and the kinds of
// operator with how many nodes each has.
type tianshuGraph struct {
	Net      []netNode       `json:"net"`
	Operator []operatorCount `json:"operator"`
}

type netNode struct {
	Name   string `json:"name"`
	Op     string `json:"op"`
	Device string `json:"device,omitempty"`
	// DType is the element type of the node's outputs as its attributes
	// name it, which its consumers' data inputs carry.
	DType string `json:"dtype,omitempty"`
	// Group is the index in groups of the group that holds the node.
	Group   int        `json:"group"`
	Inputs  []netInput `json:"inputs"`
	Outputs []string   `json:"output_shapes"`
	// Attrs are [name, value] pairs, as many as graphAttrBytes allows;
	// AttrsCut counts the rest.
	Attrs    [][2]string `json:"attrs"`
	AttrsCut int         `json:"attrs_cut,omitempty"`
	// ComputeMicros and MemoryBytes are the node's step stats, when
	// stats_from names a graph that has them for it.
	ComputeMicros *int64 `json:"compute_micros,omitempty"`
	MemoryBytes   *int64 `json:"memory_bytes,omitempty"`
}

// netInput is an input of a node. One that names a node of the graph
// refers to it by its index in net, so that its name, the shape of its
// output and its dtype are written once, by the producer, however many
// inputs it feeds (a node's name written once per input made a 719 KB
// MindSpore file, 100,000 inputs to a node of a 10 KB name, 1.9 GB of
// graph data). Only an input that names no node spells its name out.
type netInput struct {
	// Node is the producer's index in net, -1 when the input names no
	// node of the graph.
	Node int `json:"node"`
	// Port is what the input's name adds to the producer's (":1",
	// ":output:0"); Output the index in the producer's output_shapes of
	// the output it takes (0 when the name gives none, -1 when it gives
	// one that is not a number).
	Port   string `json:"port,omitempty"`
	Output int    `json:"output,omitempty"`
	// Name is the name of an input that names no node.
	Name    string `json:"name,omitempty"`
	Control bool   `json:"control,omitempty"`
}

type operatorCount struct {
	Op    string `json:"op"`
	Count int    `json:"count"`
}

// graphGroupJS is a group (scope or series) and its view: boxes in
// pixels, y down, edges as cubic Bézier control points.
type graphGroupJS struct {
	Name   string  `json:"name"`
	Label  string  `json:"label"`
	Kind   string  `json:"kind"`
	Parent int     `json:"parent"`
	Ops    int     `json:"ops"`
	Width  float64 `json:"width"`
	Height float64 `json:"height"`
	// Skipped says why the view was not laid out; the page lists the
	// children instead.
	Skipped  string           `json:"skipped,omitempty"`
	Children []graphChildJSON `json:"children"`
	Edges    []graphEdgeJSON  `json:"edges"`
}

type graphChildJSON struct {
	Kind string `json:"kind"`
	// Ref is the node's index in net, or the group's in groups.
	Ref       int       `json:"ref"`
	Label     string    `json:"label"`
	Box       []float64 `json:"box,omitempty"` // x, y, width, height
	InWidth   float64   `json:"in_width,omitempty"`
	OutWidth  float64   `json:"out_width,omitempty"`
	Annotated bool      `json:"annotated,omitempty"`
	Side      bool      `json:"side,omitempty"`
	// In and Out are the annotations: [child index, why].
	In     [][2]any `json:"in,omitempty"`
	Out    [][2]any `json:"out,omitempty"`
	ExtIn  int      `json:"ext_in,omitempty"`
	ExtOut int      `json:"ext_out,omitempty"`
}

type graphEdgeJSON struct {
	From    int       `json:"from"`
	To      int       `json:"to"`
	Data    int       `json:"data,omitempty"`
	Control int       `json:"control,omitempty"`
	Ref     int       `json:"ref,omitempty"`
	Shape   string    `json:"shape,omitempty"`
	Mixed   bool      `json:"mixed,omitempty"` // the data edges' shapes are not all Shape
	Size    float64   `json:"size,omitempty"`
	Path    []float64 `json:"path,omitempty"` // x0, y0, x1, y1, ...
}

// structureSources are the sources whose graphs are structure graphs
// (Tianshu's s_graph) rather than computation graphs (c_graph).
var structureSources = []model.GraphSource{model.SourceKeras, model.SourceOneFlow, model.SourceMindSporeDataset}

// graphData is g's data file, from its layout (the analysis').
func graphData(run *model.Run, g *model.Graph, lg *result.GraphLayout, b result.GraphBudgets) *graphJSON {
	j := &graphJSON{Run: run.Name, Source: string(g.Source), Tag: g.Tag, Step: g.Step, WallTime: summary.Float(g.WallTime),
		Seen: g.Seen, Nodes: len(g.Nodes), Edges: lg.Edges, Dangling: lg.Dangling, Duplicates: lg.Duplicates,
		Functions: nonNil(g.Functions), Notes: nonNil(g.Notes),
		Budgets: graphBudgets{ViewBoxes: b.ViewBoxes, ViewEdges: b.ViewEdges, AttrBytes: graphAttrBytes, LayoutSeconds: int(b.LayoutTime.Seconds())}}
	tg := &tianshuGraph{Net: make([]netNode, len(g.Nodes)), Operator: []operatorCount{}}
	if slices.Contains(structureSources, g.Source) {
		j.SGraph = tg
	} else {
		j.CGraph = tg
	}
	stats, from := statsFor(run, g)
	j.StatsFrom = from
	ops := map[string]int{}
	inputs := lg.Inputs
	for i := range g.Nodes {
		n := &g.Nodes[i]
		ops[n.Op]++
		tg.Net[i] = netNodeOf(n, lg.Parent[i], inputs[:len(n.Inputs)])
		inputs = inputs[len(n.Inputs):]
		if s, ok := stats[n.Name]; ok {
			tg.Net[i].ComputeMicros, tg.Net[i].MemoryBytes = &s.Micros, &s.Bytes
		}
	}
	for op, c := range ops {
		tg.Operator = append(tg.Operator, operatorCount{op, c})
	}
	slices.SortFunc(tg.Operator, func(a, b operatorCount) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return strings.Compare(a.Op, b.Op)
	})
	j.Groups = make([]graphGroupJS, len(lg.Groups))
	for gi := range lg.Groups {
		j.Groups[gi] = groupJSON(&lg.Groups[gi])
	}
	return j
}

// statsFor returns the step stats that colour g's nodes, by node name, and
// the key of the graph they come from: g's own, or, for an op graph, the
// first run metadata of the run that has any.
func statsFor(run *model.Run, g *model.Graph) (map[string]model.NodeStats, string) {
	src := g
	if len(g.Stats) == 0 {
		if g.Source != model.SourceGraphDef && g.Source != model.SourceMetaGraphDef {
			return nil, ""
		}
		i := slices.IndexFunc(run.Graphs, func(o *model.Graph) bool { return o.Source == model.SourceRunMetadata && len(o.Stats) > 0 })
		if i < 0 {
			return nil, ""
		}
		src = run.Graphs[i]
	}
	m := make(map[string]model.NodeStats, len(src.Stats))
	for _, s := range src.Stats {
		m[s.Node] = s
	}
	return m, graphKey(src)
}

// netNodeOf is a node's entry in net: its inputs by reference to their
// producers (from, resolved by the analysis), its attributes up to the
// budget.
func netNodeOf(n *model.Node, group int, from []result.GraphInput) netNode {
	nn := netNode{Name: n.Name, Op: n.Op, Device: n.Device, DType: dtypeOf(n), Group: group,
		Inputs: make([]netInput, len(n.Inputs)), Outputs: make([]string, len(n.OutputShapes)), Attrs: [][2]string{}}
	for k, in := range n.Inputs {
		ni := netInput{Node: -1, Control: in.Control}
		if f := from[k]; f.Node >= 0 {
			ni.Node, ni.Port, ni.Output = f.Node, in.Name[len(in.Node()):], f.Output
		} else {
			ni.Name = in.Name
		}
		nn.Inputs[k] = ni
	}
	for k, s := range n.OutputShapes {
		nn.Outputs[k] = s.String()
	}
	used := 0
	for k, a := range n.Attrs {
		used += len(a.Name) + len(a.Value)
		if used > graphAttrBytes {
			nn.AttrsCut = len(n.Attrs) - k
			break
		}
		nn.Attrs = append(nn.Attrs, [2]string{a.Name, a.Value})
	}
	return nn
}

// dtypeOf is the element type of a node's outputs as its attributes name
// it ("dtype" of constants and variables, "T" of most ops), or "".
func dtypeOf(n *model.Node) string {
	for _, name := range []string{"dtype", "T", "DstT", "out_type"} {
		for _, a := range n.Attrs {
			if a.Name == name {
				return a.Value
			}
		}
	}
	return ""
}

func groupJSON(grp *result.GraphGroup) graphGroupJS {
	j := graphGroupJS{Name: grp.Name, Label: grp.Label, Kind: grp.Kind.String(), Parent: grp.Parent, Ops: grp.Ops,
		Width: grp.Width, Height: grp.Height, Skipped: grp.Skipped,
		Children: make([]graphChildJSON, len(grp.Children)), Edges: make([]graphEdgeJSON, len(grp.Edges))}
	for ci, c := range grp.Children {
		cj := graphChildJSON{Kind: c.Kind.String(), Ref: c.Ref, Label: c.Label, Annotated: c.Annotated, Side: c.Side,
			ExtIn: c.ExtIn, ExtOut: c.ExtOut, In: annotationsJSON(c.In), Out: annotationsJSON(c.Out)}
		if grp.Skipped == "" && !c.Annotated {
			cj.Box = c.Box[:]
			cj.InWidth, cj.OutWidth = c.InWidth, c.OutWidth
		}
		j.Children[ci] = cj
	}
	for ei, e := range grp.Edges {
		j.Edges[ei] = graphEdgeJSON{From: e.From, To: e.To, Data: e.Data, Control: e.Control, Ref: e.Ref, Shape: e.Shape, Mixed: e.Mixed, Size: e.Size, Path: e.Path}
	}
	return j
}

func annotationsJSON(as []result.GraphAnnotation) [][2]any {
	if len(as) == 0 {
		return nil
	}
	out := make([][2]any, len(as))
	for i, a := range as {
		out[i] = [2]any{a.Child, a.Why}
	}
	return out
}
