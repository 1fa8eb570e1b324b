package graph

import "fmt"

// CutPrefix begins the notes that say what a bound of the decoder left
// out of a graph (as opposed to what the payload holds that the node
// model has no place for); collect makes each a warning at the payload.
const CutPrefix = "cut: "

// Bounds on a graph's inputs. An input names its producer, and anything
// that spells the inputs out (the model a part holds, a graph's data
// before it named producers by index) copies the name once per input.
// MindSpore's inputs name a node by a short id that stands for its full
// name, so 100,000 inputs to a node of a 10 KB name, in a 719 KB file,
// were a gigabyte of names; Keras' inputs gain the scopes of the models
// around them. The inputs a graph keeps are bounded before they are
// made: per node, and in bytes of names over the graph.
const (
	// maxFanIn bounds the inputs kept of one node. TensorFlow's widest
	// real nodes (a saver's, an init op's control edges) take one input
	// per variable; the logs at hand have at most 12.
	maxFanIn = 10_000
	// edgeBytesPerByte and edgeBytesBase bound the bytes of a graph's
	// input names, counted once per input, by its payload's size:
	// edgeBytesPerByte per byte of payload and edgeBytesBase. The graphs
	// at hand hold less than half their payload's size. One node's
	// inputs may take edgeBytesBase of them, so that a node past its
	// share leaves the rest of the graph its edges.
	edgeBytesPerByte = 4
	edgeBytesBase    = 4 << 20
)

// inputBudget bounds the inputs a decoder keeps of one graph.
type inputBudget struct {
	limit, left int // bytes of input names allowed and left, over the graph
	node        int // bytes of input names left to the node being read
	wide        int // nodes whose inputs past maxFanIn or edgeBytesBase were left out
	cutNode     bool
	dropped     int // inputs left out for the graph's budget
}

// newInputBudget is the budget of a graph decoded from a payload of
// payload bytes.
func newInputBudget(payload int) *inputBudget {
	n := edgeBytesPerByte*payload + edgeBytesBase
	return &inputBudget{limit: n, left: n}
}

// keep starts a node of n inputs and returns how many of them to read.
func (b *inputBudget) keep(n int) int {
	b.node, b.cutNode = edgeBytesBase, n > maxFanIn
	if b.cutNode {
		b.wide++
		return maxFanIn
	}
	return n
}

// take reports whether an input of the node, its name of name bytes, is
// kept, and charges it.
func (b *inputBudget) take(name int) bool {
	switch {
	case name > b.node:
		if !b.cutNode {
			b.cutNode = true
			b.wide++
		}
		return false
	case name > b.left:
		b.dropped++
		return false
	}
	b.node -= name
	b.left -= name
	return true
}

// notes say what the budget left out, each beginning with CutPrefix.
func (b *inputBudget) notes() []string {
	var out []string
	if b.wide > 0 {
		out = append(out, fmt.Sprintf("%sinputs past %d a node, or past %d bytes of their names, left out (%s)", CutPrefix, maxFanIn, edgeBytesBase, plural(b.wide, "node")))
	}
	if b.dropped > 0 {
		out = append(out, fmt.Sprintf("%s%s left out: the graph's input names, counted once per input, passed %d bytes (%d per byte of the payload, and %d)",
			CutPrefix, plural(b.dropped, "input"), b.limit, edgeBytesPerByte, edgeBytesBase))
	}
	return out
}
