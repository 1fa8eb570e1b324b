// Package hierarchy groups a model graph's nodes the way TensorBoard's
// graph dashboard draws them: nested by name scope, numbered siblings
// collapsed into series, constants and summaries turned into annotations
// on their neighbours, and nodes of unusually high degree moved to a side
// box. It computes and draws nothing; package layout places each group's
// view.
package hierarchy

// Kind says what a child of a group is.
type Kind uint8

// The kinds of child.
const (
	// Op is one node of the graph.
	Op Kind = iota
	// Scope is a name scope, a group of its own.
	Scope
	// Series is five or more numbered siblings ("layer_1" ... "layer_12")
	// collapsed into one group.
	Series
)

func (k Kind) String() string {
	switch k {
	case Scope:
		return "scope"
	case Series:
		return "series"
	}
	return "op"
}

// Hierarchy is a graph's nodes nested in groups. Groups[0] is the root,
// the graph as a whole; a group's children are ops, scopes and series, and
// its edges join its children.
type Hierarchy struct {
	Groups []*Group
	// Parent is, for each node of the graph, the group that holds it.
	Parent []int
	// Edges counts the graph's edges between distinct nodes (data and
	// control) whose producer is a node of the graph.
	Edges int
	// Dangling counts inputs that name no node of the graph (a node left
	// out of a function body, a truncated graph).
	Dangling int
	// Duplicates counts nodes whose name an earlier node already had:
	// inputs naming it refer to the last.
	Duplicates int
	// Inputs are where every input of the graph comes from, node by
	// node, each node's inputs in order.
	Inputs []Input
}

// Input is where an input of a node comes from.
type Input struct {
	// Node is the index of the node the input names (the last of that
	// name), -1 when it names none (a dangling input).
	Node int
	// Output is the index of the producer's output the input takes, as
	// OutputIndex reads it from the input's name; 0 for a dangling input.
	Output int
}

// Group is a name scope or a series, and its own view: the children that
// are drawn in it and the edges between them.
type Group struct {
	// Name is the full name: the scope's ("dense/BiasAdd" is in
	// "dense"), a series' with its range ("layers/layer_[1-12]"); "" for
	// the root.
	Name string
	// Label is the last part of Name.
	Label  string
	Kind   Kind // Scope or Series
	Parent int  // -1 for the root
	// Children in the order the graph first named them (series in
	// numeric order).
	Children []Child
	Edges    []Edge
	// Ops counts the graph's nodes in the group, at every depth.
	Ops int
	// Depth is 0 for the root.
	Depth int
}

// Child is one box of a group's view.
type Child struct {
	Kind Kind
	// Ref is the node's index in the graph for an op, the group's index
	// in Hierarchy.Groups otherwise.
	Ref   int
	Label string
	// Annotated is set for a child drawn as annotations on its neighbours
	// (a constant input, a summary output) rather than as a box.
	Annotated bool
	// Side is set for a child of unusually high degree, drawn in the
	// view's side box with its edges shown as annotations.
	Side bool
	// In and Out are the annotations drawn beside the child: constants
	// and side-box neighbours feeding it, summaries and side-box
	// neighbours it feeds.
	In, Out []Annotation
	// ExtIn and ExtOut count edges between the child and nodes outside
	// the group (drawn as stubs at the view's edges).
	ExtIn, ExtOut int
}

// Annotation names a neighbour drawn beside a child instead of as a box.
type Annotation struct {
	// Child is the neighbour's index among the group's children.
	Child int
	// Why is "constant", "summary" or "side".
	Why string
}

// Edge joins two children of a group: every edge of the graph from a node
// in From to a node in To.
type Edge struct {
	From, To int // children's indexes
	// Data, Control and Ref count the graph's edges by kind; a reference
	// edge (a variable into Assign) is a data edge too.
	Data, Control, Ref int
	// Shape is the shape of the first data edge's tensor whose shape is
	// known ("[?,32]"), cut after 64 bytes ("[1,1,…]"), or "" when none
	// is.
	Shape string
	// Mixed is set when the data edges' tensors are not all of Shape (a
	// shape differs, or one is unknown): Shape then speaks for one edge
	// only, and a label must not multiply it.
	Mixed bool
	// Size sums the elements of the data edges' tensors (unknown
	// dimensions count 1); 0 when no shape is known.
	Size float64
}
