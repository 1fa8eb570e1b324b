package collect

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/event"
	pb "github.com/trainreport/trainreport/collect/eventpb"
)

// Graph events and values for building log files.

func graphDefOf(t testing.TB, nodes ...string) []byte {
	t.Helper()
	gd := &pb.GraphDef{Versions: &pb.VersionDef{Producer: 27}}
	for _, n := range nodes {
		gd.Node = append(gd.Node, &pb.NodeDef{Name: n, Op: "NoOp"})
	}
	b, err := proto.Marshal(gd)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func graphDefEvent(step int64, gd []byte) *pb.Event {
	return &pb.Event{WallTime: 1000 + float64(step), Step: step, What: &pb.Event_GraphDef{GraphDef: gd}}
}

func metaGraphEvent(t testing.TB, step int64, gd []byte) *pb.Event {
	t.Helper()
	var g pb.GraphDef
	if err := proto.Unmarshal(gd, &g); err != nil {
		t.Fatal(err)
	}
	b, err := proto.Marshal(&pb.MetaGraphDef{GraphDef: &g})
	if err != nil {
		t.Fatal(err)
	}
	return &pb.Event{WallTime: 1000 + float64(step), Step: step, What: &pb.Event_MetaGraphDef{MetaGraphDef: b}}
}

// traced is a serialized RunMetadata holding one function graph, as TF2's
// trace_export writes it.
func traced(t testing.TB, nodes ...string) []byte {
	t.Helper()
	var g pb.GraphDef
	if err := proto.Unmarshal(graphDefOf(t, nodes...), &g); err != nil {
		t.Fatal(err)
	}
	b, err := proto.Marshal(&pb.RunMetadata{FunctionGraphs: []*pb.RunMetadata_FunctionGraphs{{PreOptimizationGraph: &g}}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func runMetadataEvent(step int64, tag string, rm []byte) *pb.Event {
	return &pb.Event{WallTime: 1000 + float64(step), Step: step,
		What: &pb.Event_TaggedRunMetadata{TaggedRunMetadata: &pb.TaggedRunMetadata{Tag: tag, RunMetadata: rm}}}
}

// stringValue is a value whose tensor holds strings, with a plugin's
// metadata.
func stringValue(tag, plugin string, s ...[]byte) *pb.SummaryValue {
	return withPlugin(&pb.SummaryValue{Tag: tag, Value: &pb.SummaryValue_Tensor{Tensor: &pb.TensorProto{
		Dtype: pb.DataType_DT_STRING, TensorShape: &pb.TensorShapeProto{}, StringVal: s}}}, plugin)
}

const kerasSequential = `{"class_name": "Sequential", "config": {"name": "sequential", "layers": [
	{"class_name": "Dense", "config": {"name": "dense", "units": 4}},
	{"class_name": "Dense", "config": {"name": "dense_1", "units": 1}}]}}`

const structureGraph = `[{"backend": "oneflow", "class_name": "Model", "config": {"name": "train", "layers": [
	{"name": "x", "class_name": "input", "inbound_nodes": [], "config": {"name": "x"}},
	{"name": "y", "class_name": "relu", "inbound_nodes": ["x"], "config": {"name": "y", "device_tag": "gpu"}}]}},
	{"backend": "oneflow", "class_name": "Model", "config": {"name": "eval", "layers": [
	{"name": "x", "class_name": "input", "inbound_nodes": [], "config": {"name": "x"}}]}}]`

// graphLine describes a graph for comparison.
func graphLine(g *model.Graph) string {
	var names []string
	for _, n := range g.Nodes {
		names = append(names, n.Name)
	}
	return fmt.Sprintf("%s %q step %d seen %d in %s: %s", g.Source, g.Tag, g.Step, g.Seen, g.File, strings.Join(names, ","))
}

func graphLines(r *model.Run) []string {
	var out []string
	for _, g := range r.Graphs {
		out = append(out, graphLine(g))
	}
	return out
}

func TestGraphs(t *testing.T) {
	dir := t.TempDir()
	old, last := graphDefOf(t, "old"), graphDefOf(t, "a", "b")
	writeFiles(t, dir, []file{
		{"run/" + ev100, eventFile(t, fileVersion(),
			graphDefEvent(0, old),
			summary(0, stringValue("keras", "graph_keras_model", []byte(kerasSequential))),
			metaGraphEvent(t, 0, old),
			summary(1, stringValue("trace", "graph_run_metadata_graph", traced(t, "first"))),
		)},
		{"run/" + ev200, eventFile(t,
			graphDefEvent(5, last),
			metaGraphEvent(t, 5, last),
			summary(2, stringValue("trace", "graph_run_metadata_graph", traced(t, "f", "g"))),
			runMetadataEvent(7, "step_7", traced(t, "h")),
			runMetadataEvent(8, "empty", nil),
		)},
		{"run/structure_graph.json", []byte(structureGraph)},
		{"run/graph/structure_graph.json", []byte(`[{"config": {"name": "predict", "layers": []}}]`)},
	})
	r := findRun(collectDir(t, dir, Options{}), "run")
	if r == nil {
		t.Fatal("no run")
	}
	for _, w := range r.Warnings {
		t.Errorf("warning: %v", w)
	}
	want := []string{
		`graph_def "" step 5 seen 2 in run/` + ev200 + `: a,b`,
		`meta_graph_def "" step 5 seen 2 in run/` + ev200 + `: a,b`,
		`run_metadata "empty" step 8 seen 1 in run/` + ev200 + `: `,
		`run_metadata "step_7" step 7 seen 1 in run/` + ev200 + `: h`,
		`run_metadata "trace" step 2 seen 2 in run/` + ev200 + `: f,g`,
		`keras "keras" step 0 seen 1 in run/` + ev100 + `: sequential/dense,sequential/dense_1`,
		`oneflow "eval" step 0 seen 1 in run/structure_graph.json: x`,
		`oneflow "predict" step 0 seen 1 in run/graph/structure_graph.json: `,
		`oneflow "train" step 0 seen 1 in run/structure_graph.json: x,y`,
	}
	if got := graphLines(r); !slices.Equal(got, want) {
		t.Errorf("graphs\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(r.Graphs) != len(want) {
		return
	}
	// The kept reference reads back the payload as written.
	if b, err := r.Graphs[0].Data.Read(); err != nil || string(b) != string(last) {
		t.Errorf("graph_def payload: %d bytes, %v; want the last GraphDef written", len(b), err)
	}
	if b, err := r.Graphs[5].Data.Read(); err != nil || string(b) != kerasSequential {
		t.Errorf("keras payload %q, %v", b, err)
	}
	if g := r.Graphs[0]; g.Producer != 27 || g.WallTime != 1005 {
		t.Errorf("graph_def: producer %d, wall time %v; want 27, 1005", g.Producer, g.WallTime)
	}
	if g := r.Graphs[2]; !slices.Equal(g.Notes, []string{"the RunMetadata holds no graph"}) {
		t.Errorf("empty run metadata notes %q", g.Notes)
	}
	if n := r.Graphs[8].Nodes[1]; n.Device != "gpu" || len(n.Inputs) != 1 || n.Inputs[0].Name != "x" {
		t.Errorf("oneflow node %+v, want y on gpu fed by x", n)
	}
	// Graph values are tags of kind graph like any other.
	i := slices.IndexFunc(r.Tags, func(ti model.TagInfo) bool { return ti.Tag == "trace" })
	if i < 0 || r.Tags[i].Kind != model.KindGraph || r.Tags[i].Count != 2 {
		t.Errorf("tags %+v, want trace of kind graph seen twice", r.Tags)
	}
}

// payloadOffset is the file offset of the bytes at path inside the event
// at record offset rec.
func payloadOffset(t *testing.T, ev *pb.Event, rec int64, path ...event.Step) int64 {
	t.Helper()
	b, err := proto.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	s, _, ok := event.Locate(b, path...)
	if !ok {
		t.Fatalf("cannot locate %v", path)
	}
	return rec + 12 + int64(s)
}

func TestGraphWarnings(t *testing.T) {
	badGraph := graphDefEvent(3, []byte{0x0a, 0x05, 0x0a}) // a node cut short
	badKeras := summary(4, stringValue("keras", "graph_keras_model", []byte(`{"class_name": "Model"`)))
	noString := summary(5, stringValue("trace", "graph_run_metadata_graph"))
	badMeta := &pb.Event{WallTime: 1006, Step: 6, What: &pb.Event_MetaGraphDef{MetaGraphDef: []byte("graph_def")}}
	data, offs := records(t, fileVersion(), badGraph, badKeras, noString, badMeta, summary(7, simple("loss", 1)))
	dir := t.TempDir()
	writeFiles(t, dir, []file{
		{"run/" + ev100, data},
		{"run/structure_graph.json", []byte(`{"config": {"name": "j", "layers": "none"}}`)},
	})
	r := findRun(collectDir(t, dir, Options{}), "run")
	if r == nil {
		t.Fatal("no run")
	}
	rel := "run/" + ev100
	want := []wantWarning{
		{rel, offs[3], `tag "trace" at step 5: run_metadata graph: the tensor holds no string`},
		{rel, payloadOffset(t, badGraph, offs[1], event.Step{Num: eventpb.FieldEventGraphDef}), `graph_def graph "" at step 3: not a GraphDef`},
		{rel, payloadOffset(t, badKeras, offs[2], event.Step{Num: eventpb.FieldEventSummary}, event.Step{Num: eventpb.FieldSummaryValue}, event.Step{Num: eventpb.FieldValueTensor}, event.Step{Num: eventpb.FieldTensorString}),
			`keras graph "keras" at step 4: not Keras model JSON`},
		{rel, payloadOffset(t, badMeta, offs[4], event.Step{Num: eventpb.FieldEventMetaGraphDef}), `meta_graph_def graph "" at step 6: not a MetaGraphDef`},
		{"run/structure_graph.json", -1, "job 0: layers is a string, want a list"},
	}
	if len(r.Warnings) != len(want) {
		t.Fatalf("warnings\n%v\nwant %d", r.Warnings, len(want))
	}
	for i, w := range want {
		got := r.Warnings[i]
		if got.File != w.file || got.Offset != w.offset || !strings.Contains(got.Msg, w.msg) {
			t.Errorf("warning %d: %v; want %s: offset %d: …%s…", i, got, w.file, w.offset, w.msg)
		}
	}
	if len(r.Graphs) != 0 {
		t.Errorf("graphs %q, want none: each failed to decode", graphLines(r))
	}
	if s := findScalar(r, "loss"); s == nil || len(s.Points) != 1 {
		t.Errorf("the rest of the file is not read")
	}
}

// TestCorpusGraphs reads the graphs of the shared corpus. Node counts of
// TensorFlow graphs were counted with TensorBoard's own protos
// (tensorboard.compat.proto graph_pb2, meta_graph_pb2, config_pb2), those
// of Keras models with TensorBoard's keras_util, those of OneFlow jobs
// with Python's json.
func TestCorpusGraphs(t *testing.T) {
	corpus := corpusDir(t)
	for _, c := range []struct {
		entry string
		// run: graphs as "source tag step seen nodes"
		want map[string][]string
	}{
		{"keras-tf21-standard-profile", map[string][]string{
			"logs/standard/20200326-221129/train": {
				`graph_def "" 0 1 80`,
				`run_metadata "batch_2" 2 1 0`, // TF 2.1's profile: an empty RunMetadata
				`keras "keras" 0 1 3`,          // Functional, Keras 2 inbound nodes
			}}},
		{"keras-tf22-images", map[string][]string{
			"logs/image/20200409-142247/train": {`graph_def "" 0 1 101`, `keras "keras" 0 1 8`}, // Sequential
		}},
		{"tf1-estimator-truncated", map[string][]string{
			// Three files, each with two graph_defs and one or two
			// meta_graph_defs: the last file is cut inside its second
			// meta_graph_def, so the last one kept is its first, smaller one.
			"model_dir":           {`graph_def "" 0 6 1474`, `meta_graph_def "" 0 4 1365`},
			"tmp/alaki/tile":      {`graph_def "" 0 2 1474`, `meta_graph_def "" 0 2 1474`},
			"tmp/alaki/tile/eval": {`graph_def "" 0 1 1419`, `meta_graph_def "" 0 1 1419`},
		}},
		{"tbx12-2018-no-file-version", map[string][]string{ // tensorboardX 1.2's graphs from ONNX
			"runs/May18_11-27-36_NIGSA774680alexnet":          {`graph_def "" 0 1 38`},
			"runs/May18_11-29-51_NIGSA774680resnet18":         {`graph_def "" 0 1 172`},
			"runs/May18_11-30-16_NIGSA774680basicblock_error": {`graph_def "" 0 1 0`},
		}},
		{"tf2-custom-loop-tensors", map[string][]string{
			// trace_export at every step, each an empty RunMetadata.
			"logs/custom/20200328-162351": {`run_metadata "logitic_graph" 49 50 0`},
		}},
		{"tsvis-oneflow-logs", map[string][]string{
			"tests/test_logs": {`graph_def "" 0 1 44`, `run_metadata "profiler" 0 1 0`},
			"tsvis/test/log":  {`oneflow "eval_job" 0 1 24`, `oneflow "train_job" 0 1 28`},
		}},
	} {
		t.Run(c.entry, func(t *testing.T) {
			rep := collectDir(t, filepath.Join(corpus, c.entry), Options{})
			got := map[string][]string{}
			for _, r := range rep.Runs {
				for _, g := range r.Graphs {
					got[r.Name] = append(got[r.Name], fmt.Sprintf("%s %q %d %d %d", g.Source, g.Tag, g.Step, g.Seen, len(g.Nodes)))
				}
			}
			for run, want := range c.want {
				if !slices.Equal(got[run], want) {
					t.Errorf("run %s: graphs %q, want %q", run, got[run], want)
				}
			}
			for run, g := range got {
				if c.want[run] == nil {
					t.Errorf("run %s: graphs %q, want none", run, g)
				}
			}
		})
	}

	// The graph of the truncated run comes from its last file.
	rep := collectDir(t, filepath.Join(corpus, "tf1-estimator-truncated"), Options{})
	if r := findRun(rep, "model_dir"); r == nil || len(r.Graphs) == 0 || r.Graphs[0].File != "model_dir/events.out.tfevents.1560537424.C02TJ0GKGTDY" {
		t.Errorf("model_dir graphs %v", r.Graphs)
	} else if g := r.Graphs[0]; len(g.Functions) != 3 || g.Producer != 27 {
		t.Errorf("model_dir graph_def: functions %q, producer %d; want 3 functions, producer 27", g.Functions, g.Producer)
	}
	rep = collectDir(t, filepath.Join(corpus, "tsvis-oneflow-logs"), Options{})
	if r := findRun(rep, "tests/test_logs"); r != nil && len(r.Graphs) == 2 {
		if notes := r.Graphs[1].Notes; !slices.Equal(notes, []string{"the RunMetadata holds no graph"}) {
			t.Errorf("TS-VIS profiler run metadata notes %q", notes)
		}
		// Its step stats measure the 16 nodes of its PyTorch graph, 42 us
		// each (as TensorBoard's config_pb2 reads them).
		if st := r.Graphs[1].Stats; len(st) != 16 || st[0].Node != "Input/input.1" || st[0].Micros != 42 || st[0].Bytes != 3136 || st[0].Device != "/device:CPU:0" {
			t.Errorf("TS-VIS profiler step stats: %d nodes, first %+v", len(st), st)
		}
	}
}

// TestWriterGraphs reads the graphs the real writers wrote into
// testdata/writers (see its EXPECTED.md, from TensorBoard's own reader).
// Node counts: TensorBoard's Graph for graph_defs; the two function
// graphs of TF2's trace_export counted with config_pb2 (4 and 8 nodes
// before optimization); the Keras 3 model with TensorBoard's keras_util.
func TestWriterGraphs(t *testing.T) {
	root := filepath.Join("testdata", "writers")
	for _, c := range []struct {
		writer string
		want   map[string][]string // run: "source tag step seen nodes"
	}{
		{"tensorboardx", map[string][]string{".": {`graph_def "" 0 1 9`, `run_metadata "profiler" 0 1 0`}}},
		{"torch", map[string][]string{".": {`graph_def "" 0 1 9`, `run_metadata "step1" 0 1 0`}}},
		{"tf2", map[string][]string{"trace": {`graph_def "" 0 1 7`, `run_metadata "affine_trace" 0 1 12`}}},
		{"keras", map[string][]string{"train": {`keras "keras" 0 1 3`}}},
		// Nested sub-models: TensorBoard's keras_util makes 10 nodes and
		// 10 edges of it.
		{"keras_nested", map[string][]string{"train": {`keras "keras" 0 1 10`}}},
	} {
		t.Run(c.writer, func(t *testing.T) {
			dir := filepath.Join(root, c.writer)
			if _, err := os.Stat(dir); err != nil {
				t.Skipf("no writer logs: %v", err)
			}
			got := map[string][]string{}
			for _, r := range collectDir(t, dir, Options{}).Runs {
				for _, g := range r.Graphs {
					got[r.Name] = append(got[r.Name], fmt.Sprintf("%s %q %d %d %d", g.Source, g.Tag, g.Step, g.Seen, len(g.Nodes)))
				}
				switch {
				case c.writer == "tf2" && r.Name == "trace":
					// Two function graphs, merged apart.
					if g := r.Graphs[1]; len(g.Nodes) == 12 && (!strings.HasPrefix(g.Nodes[0].Name, "graph_1/") || !strings.HasPrefix(g.Nodes[11].Name, "graph_2/")) {
						t.Errorf("trace nodes %q…%q, want graph_1/… to graph_2/…", g.Nodes[0].Name, g.Nodes[11].Name)
					}
				case c.writer == "keras" && r.Name == "train" && len(r.Graphs) == 1:
					want := []string{"tiny/input_layer <- ", "tiny/hidden <- tiny/input_layer", "tiny/out <- tiny/hidden"}
					var edges []string
					for _, n := range r.Graphs[0].Nodes {
						var ins []string
						for _, in := range n.Inputs {
							ins = append(ins, in.String())
						}
						edges = append(edges, n.Name+" <- "+strings.Join(ins, ", "))
					}
					if !slices.Equal(edges, want) {
						t.Errorf("keras edges %q, want %q", edges, want)
					}
				case c.writer == "keras_nested" && r.Name == "train" && len(r.Graphs) == 1:
					// TensorBoard's keras_util.keras_model_to_graph_def on
					// the same JSON, node for node.
					want := []string{
						"nested/features <- ",
						"nested/encoder/input_layer <- nested/features",
						"nested/encoder/enc_dense <- nested/encoder/input_layer",
						"nested/encoder/enc_out <- nested/encoder/enc_dense",
						"nested/residual <- nested/encoder/enc_out, nested/features",
						"nested/head/head_in <- nested/residual",
						"nested/head/head_dense <- nested/head/head_in",
						"nested/head/inner/input_layer_1 <- nested/head/head_dense",
						"nested/head/inner/inner_dense <- nested/head/inner/input_layer_1",
						"nested/head/head_out <- nested/head/inner/inner_dense",
					}
					var edges []string
					for _, n := range r.Graphs[0].Nodes {
						var ins []string
						for _, in := range n.Inputs {
							ins = append(ins, in.String())
						}
						edges = append(edges, n.Name+" <- "+strings.Join(ins, ", "))
					}
					slices.Sort(edges)
					slices.Sort(want)
					if !slices.Equal(edges, want) {
						t.Errorf("nested keras edges\n%q\nwant\n%q", edges, want)
					}
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("graphs %q, want %q", got, c.want)
			}
		})
	}
}
