package graph

import (
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// Builders of a MindSpore DatasetGraph, field by field (see
// DecodeMindSporeDataset).
func msgField(num protowire.Number, b []byte) []byte {
	return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), b)
}

func strEntry(k, v string) []byte {
	return msgField(1, append(msgField(1, []byte(k)), msgField(2, []byte(v))...))
}

func intEntry(k string, v int64) []byte {
	e := msgField(1, []byte(k))
	e = protowire.AppendVarint(protowire.AppendTag(e, 2, protowire.VarintType), uint64(v))
	return msgField(4, e)
}

// datasetNode is a DatasetGraph of op type op, its parameters params
// (entries of OperationParameter) and children.
func datasetNode(op string, params []byte, children ...[]byte) []byte {
	var b []byte
	for _, c := range children {
		b = append(b, msgField(1, c)...)
	}
	return append(b, msgField(2, append(strEntry("op_type", op), params...))...)
}

// TestMindSporeDatasetGraphReadsThePipeline decodes what SummaryCollector
// writes of GeneratorDataset(...).batch(8): the Batch, fed by the
// GeneratorDataset, with its batch size.
func TestMindSporeDatasetGraphReadsThePipeline(t *testing.T) {
	gen := datasetNode("GeneratorDataset", intEntry("num_parallel_workers", 1))
	b := datasetNode("Batch", append(intEntry("batch_size", 8), strEntry("op_module", "mindspore.dataset")...), gen)
	g, err := DecodeMindSporeDataset(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != 2 {
		t.Fatalf("%d nodes, want 2: %+v", len(g.Nodes), g.Nodes)
	}
	batch, src := g.Nodes[0], g.Nodes[1]
	if batch.Name != "Batch" || batch.Op != "Batch" || len(batch.Inputs) != 1 || batch.Inputs[0].Name != "GeneratorDataset" {
		t.Errorf("root %+v, want Batch fed by GeneratorDataset", batch)
	}
	if !slices.Contains(batch.Attrs, Attr{Name: "batch_size", Value: "8"}) || slices.ContainsFunc(batch.Attrs, func(a Attr) bool { return a.Name == "op_module" }) {
		t.Errorf("Batch attributes %v, want batch_size 8 and no op_module", batch.Attrs)
	}
	if src.Name != "GeneratorDataset" || len(src.Inputs) != 0 {
		t.Errorf("source %+v", src)
	}
}

// TestMindSporeDatasetGraphIsBounded decodes a pipeline nested deeper than
// maxDatasetDepth and a message cut short: the first stops at the bound
// with a note, the second is an error, neither panics.
func TestMindSporeDatasetGraphIsBounded(t *testing.T) {
	b := datasetNode("Leaf", nil)
	for range maxDatasetDepth + 10 {
		b = datasetNode("Map", nil, b)
	}
	g, err := DecodeMindSporeDataset(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Nodes) != maxDatasetDepth || len(g.Notes) != 1 || !strings.Contains(g.Notes[0], "not read") {
		t.Errorf("%d nodes, notes %q; want %d and a note", len(g.Nodes), g.Notes, maxDatasetDepth)
	}
	if g.Nodes[1].Name != "Map_1" {
		t.Errorf("second node %q, want Map_1 (names stay unique)", g.Nodes[1].Name)
	}
	if _, err := DecodeMindSporeDataset(b[:len(b)-3]); err == nil {
		t.Error("a message cut short decodes")
	}
}

func FuzzMindSporeDatasetGraph(f *testing.F) {
	f.Add(datasetNode("Batch", intEntry("batch_size", 8), datasetNode("GeneratorDataset", nil)))
	f.Add(msgField(3, msgField(1, strEntry("tensor_op_name", "Decode"))))
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := DecodeMindSporeDataset(b)
		if err != nil {
			return
		}
		if len(g.Nodes) > maxDatasetNodes {
			t.Fatalf("%d nodes", len(g.Nodes))
		}
		names := map[string]bool{}
		for _, n := range g.Nodes {
			if names[n.Name] {
				t.Fatalf("node name %q twice", n.Name)
			}
			names[n.Name] = true
		}
	})
}

// TestMindSporeDatasetGraphNamesStayUnique gives two Maps and an
// operation whose type reads "Map_1" three names.
func TestMindSporeDatasetGraphNamesStayUnique(t *testing.T) {
	b := datasetNode("Map", nil, datasetNode("Map_1", nil, datasetNode("Map", nil)))
	g, err := DecodeMindSporeDataset(b)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range g.Nodes {
		names = append(names, n.Name)
	}
	if want := []string{"Map", "Map_1", "Map_2"}; !slices.Equal(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
}
