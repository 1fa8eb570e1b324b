package model

import (
	"strconv"
	"strings"
)

// GraphSource says where a graph of a run came from.
type GraphSource string

// The sources of graphs, in the order a run lists them.
const (
	// SourceGraphDef is an Event.graph_def (a GraphDef).
	SourceGraphDef GraphSource = "graph_def"
	// SourceMetaGraphDef is the graph of an Event.meta_graph_def.
	SourceMetaGraphDef GraphSource = "meta_graph_def"
	// SourceRunMetadata is the graph of a RunMetadata: an
	// Event.tagged_run_metadata, or a value of plugin graph_run_metadata
	// or graph_run_metadata_graph (TF2 traces).
	SourceRunMetadata GraphSource = "run_metadata"
	// SourceKeras is a Keras model's JSON, a value of plugin
	// graph_keras_model.
	SourceKeras GraphSource = "keras"
	// SourceOneFlow is a job of a OneFlow structure_graph.json beside the
	// run's event files.
	SourceOneFlow GraphSource = "oneflow"
	// SourceMindSpore is the graph of a MindSpore summary file's
	// Event.graph_def (an anf_ir GraphProto).
	SourceMindSpore GraphSource = "mindspore"
	// SourceMindSporeDataset is the dataset graph of a MindSpore lineage
	// file (LineageEvent.dataset_graph): the data pipeline's operations,
	// GeneratorDataset -> Batch.
	SourceMindSporeDataset GraphSource = "mindspore-dataset"
)

// graphSources are the sources of graphs in the order a run lists them.
var graphSources = []GraphSource{SourceGraphDef, SourceMetaGraphDef, SourceRunMetadata, SourceKeras, SourceOneFlow, SourceMindSpore, SourceMindSporeDataset}

// Graph is a model graph of a run, decoded to its nodes (docs/FORMATS.md
// section 14).
//
// A run keeps one graph per source and tag, the last one written: writers
// repeat graphs (a TF1 Estimator on every session, a TF2 trace on every
// step), and Seen counts them. While the files are read only the place of
// that last payload is kept (Data); each kept graph is decoded once, when
// the run is read, so memory holds the node model of a few graphs and
// never the payloads of the others.
type Graph struct {
	Source GraphSource
	// Tag is the summary tag (keras, run metadata values), the
	// TaggedRunMetadata tag, or the OneFlow job name; "" for graph_def and
	// meta_graph_def events.
	Tag      string
	Step     int64
	WallTime float64
	// File is the file the graph was read from, relative to the log
	// directory: an event file, or structure_graph.json.
	File string
	// Data locates the payload as written: a serialized GraphDef,
	// MetaGraphDef or RunMetadata, a Keras model's JSON, or the whole
	// structure_graph.json.
	Data BlobRef
	// Seen counts the graphs of this source and tag the run wrote; only
	// the last is kept.
	Seen int
	NodeGraph
}

// NodeGraph is a model graph decoded to its nodes, whatever wrote it:
// TensorFlow GraphDefs (alone, inside a MetaGraphDef or inside the
// RunMetadata of a traced step), Keras model JSON, or a OneFlow job.
type NodeGraph struct {
	// Nodes in the order the writer listed them. Names are slash-separated
	// scopes ("dense/MatMul", "Logistic/dense").
	Nodes []Node
	// Producer is the GraphDef version of the TensorFlow that wrote the
	// graph (VersionDef.producer); 0 when unknown or not TensorFlow.
	Producer int32
	// Functions names the functions of a GraphDef's library, sorted. Their
	// bodies are not decoded.
	Functions []string
	// Notes say, in words for the report, what the payload held that was
	// not decoded, or that it held no graph at all.
	Notes []string
	// Stats are a RunMetadata's per-node execution statistics (its step
	// stats), one per node name in the order first met; empty for other
	// graphs.
	Stats []NodeStats
}

// NodeStats is what a traced step measured of one node, as TensorBoard's
// graph dashboard colours nodes by it.
type NodeStats struct {
	Node   string
	Device string // the first device that ran it
	// Micros sums the node's compute time over its executions
	// (NodeExecStats.all_end_rel_micros).
	Micros int64
	// Bytes sums the memory the node allocated over its executions
	// (AllocatorMemoryUsed.total_bytes).
	Bytes int64
}

// Node is one operation or layer.
type Node struct {
	Name string
	// Op is the TensorFlow op ("MatMul"), the Keras layer class ("Dense")
	// or the OneFlow op type ("conv2d").
	Op     string
	Inputs []NodeInput
	Device string // "" when the writer placed nothing
	// Attrs are the node's attributes as readable strings, sorted by name;
	// TensorFlow's _output_shapes is in OutputShapes instead.
	Attrs []NodeAttr
	// OutputShapes are the shapes of the node's outputs when the writer
	// recorded them (TensorFlow's _output_shapes, a Keras InputLayer's
	// batch shape).
	OutputShapes []NodeShape
}

// NodeInput is an edge into a node.
type NodeInput struct {
	// Name is the producing output as written, without the control mark:
	// "node", "node:1", or "node:output:0" inside function bodies.
	Name string
	// Control marks a control edge (written "^node"): an ordering
	// constraint, not data.
	Control bool
}

// Node returns the name of the producing node.
func (in NodeInput) Node() string {
	name, _, _ := strings.Cut(in.Name, ":")
	return name
}

// String writes the input as TensorFlow does, "^node" for a control edge.
func (in NodeInput) String() string {
	if in.Control {
		return "^" + in.Name
	}
	return in.Name
}

// NodeAttr is one attribute of a node, its value summarised for reading:
// scalars as written, types by numpy's names, shapes as "[?,32,32,3]",
// tensors by dtype and shape, long lists and strings shortened.
type NodeAttr struct {
	Name  string
	Value string
}

// NodeShape is the shape of a node's output.
type NodeShape struct {
	// Dims are the sizes, -1 where unknown; empty for a scalar.
	Dims []int64
	// UnknownRank is set when not even the number of dimensions is known.
	UnknownRank bool
}

// String writes the shape as "[?,32,32,3]", a scalar as "[]", and a shape
// of unknown rank as "<unknown>".
func (s NodeShape) String() string { return s.Label(0) }

// Label is String cut after max bytes (0: never), the cut marked
// ("[1,2,…]") and the rest not written: a label stays small however many
// dimensions a log claims.
func (s NodeShape) Label(max int) string {
	if s.UnknownRank {
		return "<unknown>"
	}
	b := []byte{'['}
	for i, d := range s.Dims {
		if max > 0 && len(b) >= max {
			return string(b) + "…]"
		}
		if i > 0 {
			b = append(b, ',')
		}
		if d < 0 {
			b = append(b, '?')
		} else {
			b = strconv.AppendInt(b, d, 10)
		}
	}
	return string(append(b, ']'))
}
