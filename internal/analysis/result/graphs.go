package result

import (
	"time"

	"github.com/trainreport/trainreport/collect/model"
)

// Graphs is what the analysis derives from the report's model graphs:
// each one's counts, and the views the graphs page draws of it, laid out.
type Graphs struct {
	// Budgets are the bounds the layout kept to, which the page states.
	Budgets GraphBudgets
	// Of holds the analysis of every graph of the report's runs.
	Of map[*model.Graph]*Graph
}

// GraphBudgets bound the layout of a graph's views: a view past one is
// listed, not drawn.
type GraphBudgets struct {
	// ViewBoxes and ViewEdges bound the boxes and edges of one view.
	ViewBoxes, ViewEdges int
	// LayoutTime bounds the layout of one graph.
	LayoutTime time.Duration
}

// Graph is the analysis of one graph of a run.
type Graph struct {
	Count GraphCount
	// Layout is the graph's views; graphs of one shape (a sweep's runs,
	// an Estimator's train and eval) share one.
	Layout *GraphLayout
}

// GraphCount is what summary.json, the overview and `trainreport inspect`
// say of one graph of a run.
type GraphCount struct {
	Source string `json:"source"`
	Tag    string `json:"tag"`
	Step   int64  `json:"step"`
	Nodes  int    `json:"nodes"`
	// Edges counts the edges, data and control, between distinct nodes
	// of the graph, as TensorBoard's graph plugin counts them.
	Edges int `json:"edges"`
	// Seen counts the graphs of this source and tag the run wrote; the
	// report keeps the last.
	Seen int `json:"seen"`
}

// GraphLayout is a graph's nodes grouped by name scope and series, as
// TensorBoard's graph dashboard draws them, with each group's view laid
// out: its children as boxes and its edges as curves, in pixels, y down.
type GraphLayout struct {
	// Edges counts the edges between distinct nodes; Dangling the inputs
	// that name no node; Duplicates the nodes whose name an earlier node
	// had.
	Edges, Dangling, Duplicates int
	// Parent is, for each node of the graph, the index in Groups of the
	// group that holds it.
	Parent []int
	// Inputs are where every input of the graph comes from, node by node,
	// each node's inputs in order.
	Inputs []GraphInput
	// Groups are the scopes and series, the root (the whole graph) first.
	Groups []GraphGroup
}

// GraphInput is where an input of a node comes from.
type GraphInput struct {
	// Node is the index of the node the input names, -1 when it names
	// none.
	Node int
	// Output is the index of the producer's output the input takes (0
	// when its name gives none, -1 when it gives one that is not a
	// number).
	Output int
}

// GraphKind says what a child of a group is.
type GraphKind uint8

// The kinds of child.
const (
	GraphOp     GraphKind = iota // a node of the graph
	GraphScope                   // a name scope
	GraphSeries                  // numbered siblings collapsed into one group
)

func (k GraphKind) String() string {
	switch k {
	case GraphScope:
		return "scope"
	case GraphSeries:
		return "series"
	}
	return "op"
}

// GraphGroup is a scope or series and its view.
type GraphGroup struct {
	// Name is the full name ("" for the root), Label its last part.
	Name, Label string
	Kind        GraphKind // GraphScope or GraphSeries
	Parent      int       // -1 for the root
	// Ops counts the graph's nodes in the group, at every depth.
	Ops int
	// Width and Height are the view's size.
	Width, Height float64
	// Skipped says why the view was not laid out (a budget, dot failed);
	// "" when it was. A skipped view has no boxes or paths.
	Skipped  string
	Children []GraphChild
	Edges    []GraphEdge
}

// GraphChild is one child of a group: an op, or a scope or series of its
// own.
type GraphChild struct {
	Kind GraphKind
	// Ref is the node's index in the graph for an op, the group's in
	// Groups otherwise.
	Ref   int
	Label string
	// Annotated is set for a child drawn as annotations on its neighbours
	// rather than as a box; Side for one drawn in the view's side box.
	Annotated, Side bool
	// In and Out are the annotations drawn beside the child.
	In, Out []GraphAnnotation
	// ExtIn and ExtOut count the edges between the child and nodes
	// outside the group.
	ExtIn, ExtOut int
	// Box is the child's box, x, y, width and height, and InWidth and
	// OutWidth the parts of it its in and out annotations take; all zero
	// for an annotated child or in a skipped view.
	Box               [4]float64
	InWidth, OutWidth float64
}

// GraphAnnotation names a neighbour drawn beside a child instead of as a
// box.
type GraphAnnotation struct {
	// Child is the neighbour's index among the group's children.
	Child int
	// Why is "constant", "summary" or "side".
	Why string
}

// GraphEdge joins two children of a group: every edge of the graph
// between the nodes they hold.
type GraphEdge struct {
	From, To int // children's indexes
	// Data, Control and Ref count the graph's edges by kind.
	Data, Control, Ref int
	// Shape is the shape of the first data edge's tensor whose shape is
	// known, shortened; "" when none is. Size sums the elements of the data edges' tensors.
	Shape string
	Size  float64
	// Mixed is set when the data edges' tensors are not all of Shape.
	Mixed bool
	// Path is the edge's curve, the control points of a cubic Bézier
	// spline from the producer's box to the consumer's as x0, y0, x1, y1,
	// ...; nil in a skipped view.
	Path []float64
}
