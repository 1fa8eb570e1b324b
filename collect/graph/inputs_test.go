package graph

import (
	"strings"
	"testing"

	pb "github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/mindspore/mspb"
)

// edgeBytes is what a graph's inputs hold in names, counted once per
// input, as anything that spells the inputs out writes them.
func edgeBytes(g *Graph) (bytes, widest int) {
	for _, n := range g.Nodes {
		widest = max(widest, len(n.Inputs))
		for _, in := range n.Inputs {
			bytes += len(in.Name)
		}
	}
	return bytes, widest
}

// checkInputs checks the bounds on a graph decoded from a payload of n
// bytes: maxFanIn inputs a node, its input names within the budget.
func checkInputs(t *testing.T, g *Graph, n int) {
	t.Helper()
	b, widest := edgeBytes(g)
	if widest > maxFanIn || b > edgeBytesPerByte*n+edgeBytesBase {
		t.Fatalf("%d bytes decoded to a node of %d inputs and %d bytes of input names", n, widest, b)
	}
}

// fanIn is a MindSpore graph of a node named by a name of nameLen bytes
// and a node that takes it as each of its n inputs, by its id.
func fanIn(t testing.TB, nameLen, n int) []byte {
	ins := make([]*mspb.Input, n)
	for i := range ins {
		ins[i] = &mspb.Input{Name: "1"}
	}
	return marshal(t, &mspb.Graph{Node: []*mspb.Node{
		{Name: "1", OpType: "Add", FullName: "Default/" + strings.Repeat("n", nameLen)},
		{Name: "2", OpType: "MakeTuple", FullName: "Default/MakeTuple-op2", Input: ins},
		{Name: "3", OpType: "ReLU", FullName: "Default/ReLU-op3", Input: []*mspb.Input{{Name: "2"}}},
	}})
}

// MindSpore inputs name a node by its id, which stands for its full name:
// 100,000 inputs to a node of a 10 KB name (719 KB) were a gigabyte of
// names wherever the inputs were spelled out (the graph data: 1.9 GB, and
// out of memory under 4 GB). A node keeps at most maxFanIn inputs, and a
// graph's input names at most edgeBytesPerByte times its payload and
// edgeBytesBase; notes say what was left out, and the rest of the graph
// is decoded. Here 12,000 inputs to a node of a 1 KB name, 71 KB of
// payload, were 12 MB of names.
func TestMindSporeFanInIsBounded(t *testing.T) {
	b := fanIn(t, 1000, 12_000)
	g, err := DecodeMindSpore(b)
	if err != nil {
		t.Fatal(err)
	}
	checkInputs(t, g, len(b))
	// The node keeps the inputs its share of the budget holds; the next
	// node keeps its own.
	if len(g.Nodes) != 3 || len(g.Nodes[2].Inputs) != 1 || g.Nodes[2].Inputs[0].Name != "Default/MakeTuple-op2" {
		t.Fatalf("nodes %d, the last's inputs %v", len(g.Nodes), g.Nodes[len(g.Nodes)-1].Inputs)
	}
	if kept, want := len(g.Nodes[1].Inputs), edgeBytesBase/len("Default/"+strings.Repeat("n", 1000)); kept != want {
		t.Errorf("%d inputs kept, want the %d a node's share of the budget holds", kept, want)
	}
	if want := CutPrefix + "inputs past 10000 a node, or past 4194304 bytes of their names, left out (1 node)"; strings.Join(g.Notes, "\n") != want {
		t.Errorf("notes %q, want %q", g.Notes, want)
	}
	// Nodes that each keep their share pass the graph's budget: the
	// inputs past it are left out.
	b = fanIn(t, 1000, 3000)
	g, err = DecodeMindSpore(append(b, b...)) // the nodes twice over
	if err != nil {
		t.Fatal(err)
	}
	checkInputs(t, g, 2*len(b))
	if notes := strings.Join(g.Notes, "\n"); !strings.Contains(notes, CutPrefix) || !strings.Contains(notes, "inputs left out: the graph's input names, counted once per input, passed") {
		t.Errorf("notes %q", g.Notes)
	}
	// Below both bounds, nothing is left out.
	g, err = DecodeMindSpore(fanIn(t, 100, 5000))
	if err != nil || len(g.Nodes[1].Inputs) != 5000 || len(g.Notes) > 0 {
		t.Errorf("5,000 inputs of 100 bytes: %d kept, notes %q, %v", len(g.Nodes[1].Inputs), g.Notes, err)
	}
}

// A GraphDef spells each input out, but a RunMetadata's graphs gain a
// prefix per input and a node may take any number: the same bounds hold.
func TestGraphDefFanInIsBounded(t *testing.T) {
	ins := make([]string, 12_000)
	for i := range ins {
		ins[i] = "p"
	}
	gd := &pb.GraphDef{Node: []*pb.NodeDef{{Name: "p", Op: "Const"}, {Name: "c", Op: "AddN", Input: ins}}}
	b := marshal(t, gd)
	g, err := DecodeGraphDef(b)
	if err != nil {
		t.Fatal(err)
	}
	checkInputs(t, g, len(b))
	if len(g.Nodes) != 2 || len(g.Nodes[1].Inputs) != maxFanIn || !strings.Contains(strings.Join(g.Notes, "\n"), CutPrefix+"inputs past 10000 a node, or") {
		t.Errorf("%d inputs kept, notes %q", len(g.Nodes[1].Inputs), g.Notes)
	}
	rm := marshal(t, &pb.RunMetadata{PartitionGraphs: []*pb.GraphDef{gd, gd}})
	g, err = DecodeRunMetadata(rm)
	if err != nil {
		t.Fatal(err)
	}
	checkInputs(t, g, len(rm))
	if len(g.Nodes) != 4 || len(g.Nodes[3].Inputs) != maxFanIn || g.Nodes[3].Inputs[0].Name != "graph_2/p" {
		t.Errorf("%d nodes, %d inputs", len(g.Nodes), len(g.Nodes[3].Inputs))
	}
}
