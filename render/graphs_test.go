package render

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// hostileGraph is a graph whose names, ops, devices and attributes would
// end a script element or add an element if they were written raw.
func hostileGraph() *model.Graph {
	bad := `</script><img src=x onerror=alert(1)>`
	return &model.Graph{Source: model.SourceGraphDef, NodeGraph: model.NodeGraph{Nodes: []model.Node{
		{Name: "x/" + bad, Op: bad, Device: bad, Attrs: []model.NodeAttr{{Name: bad, Value: bad}}},
		{Name: "y\u2028", Op: "Identity", Inputs: []model.NodeInput{{Name: "x/" + bad}}},
	}}}
}

// Names from a graph reach the page and its data only escaped: no
// "</script>" ends an element early in the site's page, its data script
// or the single file, and the data reads back to the names.
func TestGraphNamesInert(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": {1}}})
	rep.Runs[0].Graphs = []*model.Graph{hostileGraph()}
	r := newReport(rep, Options{})
	files := filesByName(t, r)
	page := string(files["graphs.html"])
	if page == "" {
		t.Fatal("no graphs page")
	}
	var data, script []byte
	for name, b := range files {
		if strings.HasPrefix(name, "data/graphs/") && strings.HasSuffix(name, ".json") {
			data = b
		}
		if strings.HasPrefix(name, "data/graphs/") && strings.HasSuffix(name, ".js") {
			script = b
		}
	}
	var single bytes.Buffer
	if err := r.WriteSingleFile(&single); err != nil {
		t.Fatal(err)
	}
	for what, b := range map[string]string{"graphs.html": page, "data script": string(script), "single file": single.String()} {
		if strings.Contains(b, "<img src=x") || strings.Contains(strings.ToLower(b), "</script><img") || strings.Contains(b, "\u2028") {
			t.Errorf("%s holds a name unescaped", what)
		}
	}
	var j graphJSON
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	if n := j.CGraph.Net[0]; n.Name != "x/</script><img src=x onerror=alert(1)>" || n.Attrs[0][1] != "</script><img src=x onerror=alert(1)>" {
		t.Errorf("the data does not read back to the names: %+v", n)
	}
	if !strings.Contains(single.String(), `class="graph-inline"`) {
		t.Error("the single file does not inline the graph")
	}
}

// A graph's data wrote each input's producer name, and the shape and
// dtype of its output, once per input: a 719 KB MindSpore file of 100,000
// inputs to a node of a 10 KB name made 1.9 GB of graph data, and out of
// memory under 4 GB. An input now names its producer by its index in net,
// which holds the name, shapes and dtype once. Here 1,000 inputs of a
// node of a 10 KB name and a 1,000-dimension shape, which were 12 MB of
// data, are a few kilobytes more than the producer.
func TestGraphDataNamesProducersOnce(t *testing.T) {
	long := "p/" + strings.Repeat("n", 10_000)
	dims := make([]int64, 1000)
	for i := range dims {
		dims[i] = 1
	}
	fed := model.Node{Name: "c", Op: "AddN"}
	for i := range 1000 {
		in := model.NodeInput{Name: long}
		switch i {
		case 1:
			in.Name += ":0"
		case 2:
			in.Control = true
		}
		fed.Inputs = append(fed.Inputs, in)
	}
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": {1}}})
	rep.Runs[0].Graphs = []*model.Graph{{Source: model.SourceMindSpore, NodeGraph: model.NodeGraph{Nodes: []model.Node{
		{Name: long, Op: "Add", Attrs: []model.NodeAttr{{Name: "T", Value: "float32"}}, OutputShapes: []model.NodeShape{{Dims: dims}}},
		fed,
		{Name: "d", Op: "Identity", Inputs: []model.NodeInput{{Name: "q:3"}}},
	}}}}
	var data []byte
	for name, b := range filesByName(t, newReport(rep, Options{})) {
		if strings.HasPrefix(name, "data/graphs/") && strings.HasSuffix(name, ".json") {
			data = b
		}
	}
	if limit := 2*len(long) + 2*len(dims) + 64*1000 + 8<<10; len(data) > limit {
		t.Errorf("%d bytes of graph data, want at most %d", len(data), limit)
	}
	var j graphJSON
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	net := j.CGraph.Net
	if len(net) != 3 || net[0].DType != "float32" || len(net[1].Inputs) != 1000 {
		t.Fatalf("net %d nodes, producer's dtype %q, %d inputs", len(net), net[0].DType, len(net[1].Inputs))
	}
	for i, want := range []netInput{{Node: 0}, {Node: 0, Port: ":0"}, {Node: 0, Control: true}} {
		if got := net[1].Inputs[i]; got != want {
			t.Errorf("input %d: %+v, want %+v", i, got, want)
		}
	}
	if got, want := net[2].Inputs[0], (netInput{Node: -1, Name: "q:3"}); got != want {
		t.Errorf("dangling input: %+v, want %+v", got, want)
	}
}

// render writes the layouts the analysis made and lays nothing out: it
// depends on neither the grouping nor the layout nor Graphviz.
func TestRenderLaysNoGraphOut(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/trainreport/trainreport/internal/analysis/graph") ||
			strings.HasPrefix(dep, "github.com/trainreport/trainreport/internal/thirdparty/graphviz") {
			t.Errorf("render depends on %s", dep)
		}
	}
}

// The budgets the page and the data files state are those the analysis
// laid the graphs out within, and a view it did not lay out is written
// with its reason and without boxes.
func TestGraphBudgetsFromTheAnalysis(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": {1}}})
	rep.Runs[0].Graphs = []*model.Graph{{Source: model.SourceGraphDef, NodeGraph: model.NodeGraph{Nodes: []model.Node{
		{Name: "a", Op: "Placeholder"},
		{Name: "b", Op: "Relu", Inputs: []model.NodeInput{{Name: "a"}}},
		{Name: "c", Op: "Tanh", Inputs: []model.NodeInput{{Name: "a"}}},
	}}}}
	files := filesByName(t, newReport(rep, Options{}, analysis.Options{GraphViewBoxes: 2, GraphViewEdges: 7, GraphLayoutTime: 9 * time.Second}))
	if page := string(files["graphs.html"]); !strings.Contains(page, "at most 2 boxes and 7 edges a view") || !strings.Contains(page, "9 s of layout a graph") {
		t.Error("the page does not state the analysis' budgets")
	}
	var j graphJSON
	for name, b := range files {
		if strings.HasPrefix(name, "data/graphs/") && strings.HasSuffix(name, ".json") {
			if err := json.Unmarshal(b, &j); err != nil {
				t.Fatal(err)
			}
		}
	}
	if j.Budgets != (graphBudgets{ViewBoxes: 2, ViewEdges: 7, AttrBytes: graphAttrBytes, LayoutSeconds: 9}) {
		t.Errorf("the data states budgets %+v", j.Budgets)
	}
	if len(j.Groups) != 1 || !strings.Contains(j.Groups[0].Skipped, "3 boxes, above the budget of 2") {
		t.Fatalf("groups %+v", j.Groups)
	}
	for _, c := range j.Groups[0].Children {
		if c.Box != nil {
			t.Errorf("%s has a box in a view not laid out", c.Label)
		}
	}
}

// A graph the analysis has nothing of (an analysis of another report) is
// listed with a note and counted from the model, not a crash.
func TestGraphNotAnalysedIsNoted(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": {1}}})
	an, err := analysis.Build(context.Background(), rep, analysis.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep.Runs[0].Graphs = []*model.Graph{hostileGraph()}
	files := filesByName(t, New(rep, an, Options{}))
	if page := string(files["graphs.html"]); !strings.Contains(page, "the analysis has no layout of it") {
		t.Error("the page does not say the graph was not laid out")
	}
	if !strings.Contains(string(files["data/index.json"]), "the analysis has no layout of it") {
		t.Error("data/index.json does not say why the graph's data file is missing")
	}
	var s struct {
		Runs []struct{ Graphs []result.GraphCount }
	}
	if err := json.Unmarshal(files["summary.json"], &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Runs) != 1 || len(s.Runs[0].Graphs) != 1 || s.Runs[0].Graphs[0].Nodes != 2 {
		t.Errorf("summary.json's graphs %+v", s.Runs)
	}
}
