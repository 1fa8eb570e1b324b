package main

// Browser tests of what the graphs page shows of a graph (issue 26, item
// 5), each on the log that showed the defect or one written to show it:
// a graph whose main network is one scope opens on that scope's view
// (MindSpore's Default, a Keras graph's training), a bundled edge of
// mixed shapes says so, the search prefers the exact name, switching to
// an empty graph leaves nothing of the previous one and the overview
// does not link it, and Fit keeps a large view's labels readable and
// attached to their boxes (TestBrowserGraphs measures the 1,474-node
// graph at Fit).

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// graphNode is a NodeDef of one output of the given shape.
func graphNode(name, op string, dims []int64, inputs ...string) *eventpb.NodeDef {
	s := &eventpb.TensorShapeProto{}
	for _, d := range dims {
		s.Dim = append(s.Dim, &eventpb.TensorShapeProto_Dim{Size: d})
	}
	return &eventpb.NodeDef{Name: name, Op: op, Input: inputs, Attr: map[string]*eventpb.AttrValue{
		"_output_shapes": {Value: &eventpb.AttrValue_List{List: &eventpb.AttrValue_ListValue{Shape: []*eventpb.TensorShapeProto{s}}}},
	}}
}

// trainingScopeLog writes a log whose op graph is shaped as the Keras
// graph of the issue: 12 parameters and a conv2d_1 layer at the top level
// beside one scope, training, of 728 ops (8 scopes of 91 chained ops),
// every parameter feeding it. The resource of conv2d_1/Conv2D is written
// before conv2d_1/Conv2D itself, so that a search for the op's name finds
// the resource first in the graph's order. Six data edges join
// training/step_a to training/step_b: the first of shape [1], one of
// [4,1,28,28].
func trainingScopeLog(t *testing.T) string {
	t.Helper()
	one := []int64{1}
	var nodes []*eventpb.NodeDef
	var params []string
	for i := range 12 {
		p := fmt.Sprintf("param_%c", 'a'+i) // letters: no series
		params = append(params, p)
		nodes = append(nodes, graphNode(p, "VarHandleOp", one))
	}
	nodes = append(nodes,
		graphNode("x", "Placeholder", []int64{4, 1, 28, 28}),
		graphNode("conv2d_1/Conv2D/ReadVariableOp/resource", "Placeholder", nil),
		graphNode("conv2d_1/Conv2D/ReadVariableOp", "ReadVariableOp", []int64{3, 3, 1, 8}, "conv2d_1/Conv2D/ReadVariableOp/resource"),
		graphNode("conv2d_1/Conv2D", "Conv2D", []int64{4, 8, 26, 26}, "x", "conv2d_1/Conv2D/ReadVariableOp"),
	)
	prev := "conv2d_1/Conv2D"
	var firstOps [8][]string
	for s := range 8 {
		scope := fmt.Sprintf("training/step_%c", 'a'+s)
		for i := range 91 {
			name := fmt.Sprintf("%s/op_%c%c", scope, 'a'+i/26, 'a'+i%26)
			dims := one
			if s == 0 && i == 3 {
				dims = []int64{4, 1, 28, 28}
			}
			inputs := []string{prev}
			if i == 0 {
				inputs = append(inputs, params[s])
			}
			if s == 1 && i >= 1 && i <= 5 {
				// Five more data edges from step_a: its ops 0 to 4, op
				// 3's of shape [4,1,28,28].
				inputs = append(inputs, firstOps[0][i-1])
			}
			nodes = append(nodes, graphNode(name, "AddV2", dims, inputs...))
			firstOps[s] = append(firstOps[s], name)
			prev = name
		}
	}
	for _, p := range params[8:] {
		nodes = append(nodes, graphNode("training/apply_"+p, "AssignAddVariableOp", nil, p, prev))
	}
	b, err := proto.Marshal(&eventpb.GraphDef{Node: nodes})
	if err != nil {
		t.Fatal(err)
	}
	logdir := filepath.Join(t.TempDir(), "logs")
	writeEventFile(t, filepath.Join(logdir, "train", "events.out.tfevents.1.host"), []*eventpb.Event{
		{WallTime: 1.7e9, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}},
		{WallTime: 1.7e9, What: &eventpb.Event_GraphDef{GraphDef: b}},
		summaryEvent(1, 0, simpleValue("loss", 1)),
	})
	return logdir
}

type graphPanel struct {
	Details, Crumbs, Legend, Msg, Canvas, Loaded, Drawn string
}

func readGraphPanel(t *testing.T, tb *tab) graphPanel {
	t.Helper()
	var p graphPanel
	if err := json.Unmarshal([]byte(eval[string](tb, pageJS("graphs.js", "panel"))), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func jsonStrings(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// A graph whose main network is one scope beside its parameters opens on
// that scope's view, its nodes laid out; the top level, one step up,
// draws the scope as a box with the parameters' edges into it, not in
// the side box.
func TestBrowserGraphsMainScopeLaidOut(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	for _, c := range []struct {
		name, logdir, scope string
		children            []string // some of the scope's boxes
	}{
		{"mindspore", filepath.Join(repoRoot(t), "collect", "testdata", "mindspore"), "Default", []string{"network-WithLossCell", "optimizer-Momentum"}},
		{"keras-training", trainingScopeLog(t), "training", []string{"step_a", "step_b"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := buildReport(t, c.logdir)
			tb := openTab(t, browser, fileURL(filepath.Join(r.site, "graphs.html"), ""))
			waitFor(tb, pageJS("graphs.js", "drawn"), 20*time.Second, "the graph drawn")
			v := readGraphView(t, tb)
			if v.Group != c.scope || len(v.Crumbs) != 2 {
				t.Fatalf("first view %q (crumbs %q), want the main scope %q", v.Group, v.Crumbs, c.scope)
			}
			checkGraphView(t, v)
			drawn := jsonStrings(t, eval[string](tb, pageJS("graphs.js", "childLabels")))
			for _, want := range c.children {
				if !slices.Contains(drawn, want) {
					t.Errorf("the first view draws %q, not %s's %q", drawn, c.scope, want)
				}
			}
			if p := readGraphPanel(t, tb); !strings.Contains(p.Details, "main scope") {
				t.Errorf("the details panel %q does not say the view is the graph's main scope", p.Details)
			}
			tb.screenshot(shots, "graphs-main-"+c.name)

			eval[bool](tb, pageJS("graphs.js", "crumb", 0))
			top := readGraphView(t, tb)
			if top.Group != "" {
				t.Fatalf("the first breadcrumb leads to %q", top.Group)
			}
			checkGraphView(t, top)
			labels := jsonStrings(t, eval[string](tb, pageJS("graphs.js", "childLabels")))
			if !slices.Contains(labels, c.scope) {
				t.Errorf("the top level draws %q: %s is not among its boxes (in the side box?)", labels, c.scope)
			}
			if top.Edges < 2 {
				t.Errorf("the top level draws %d edges: the parameters' edges into %s are not drawn", top.Edges, c.scope)
			}
			tb.screenshot(shots, "graphs-main-top-"+c.name)
		})
	}
}

// An edge bundling data edges of different shapes is labelled mixed, not
// with the first edge's shape multiplied; one of a single shape keeps
// "N×shape". The search for an op's exact name selects that op, though a
// longer name containing it comes first in the graph.
func TestBrowserGraphsMixedEdgeAndExactSearch(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	r := buildReport(t, trainingScopeLog(t))
	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "graphs.html"), ""))
	waitFor(tb, pageJS("graphs.js", "drawn"), 20*time.Second, "the graph drawn")
	labels := jsonStrings(t, eval[string](tb, pageJS("graphs.js", "edgeLabels")))
	var ab string
	for _, l := range labels {
		if strings.HasPrefix(l, "step_a > step_b: ") {
			ab = strings.TrimPrefix(l, "step_a > step_b: ")
		}
	}
	if ab != "6× mixed shapes" {
		t.Errorf("the bundle of 6 edges from step_a to step_b ([1] first, one [4,1,28,28]) is labelled %q, want %q (labels %q)", ab, "6× mixed shapes", labels)
	}
	if !slices.Contains(labels, "step_b > step_c: [1]") {
		t.Errorf("the one edge of [1] from step_b to step_c is not labelled [1]: %q", labels)
	}
	tb.screenshot(shots, "graphs-mixed-edge")

	for _, q := range []string{"conv2d_1/Conv2D", "CONV2D_1/conv2d"} {
		eval[bool](tb, pageJS("graphs.js", "find", q))
		var d struct{ Name, Op string }
		if err := json.Unmarshal([]byte(eval[string](tb, pageJS("graphs.js", "details"))), &d); err != nil {
			t.Fatal(err)
		}
		if d.Name != "conv2d_1/Conv2D" || d.Op != "Conv2D" {
			t.Errorf("Enter on %q selects %q (%s), want conv2d_1/Conv2D (Conv2D)", q, d.Name, d.Op)
		}
		res := jsonStrings(t, eval[string](tb, pageJS("graphs.js", "results")))
		if len(res) == 0 || res[0] != "conv2d_1/Conv2D (Conv2D)" {
			t.Errorf("search %q lists %q: want the exact name first", q, res)
		}
	}
	// A prefix before a name that only contains the text.
	eval[bool](tb, pageJS("graphs.js", "find", "op_aa"))
	if res := jsonStrings(t, eval[string](tb, pageJS("graphs.js", "results"))); len(res) == 0 || !strings.HasPrefix(res[0], "training/step_a/op_aa") {
		t.Errorf("search op_aa lists %q", res)
	}
	eval[bool](tb, pageJS("graphs.js", "find", "conv2d_1/Conv"))
	if res := jsonStrings(t, eval[string](tb, pageJS("graphs.js", "results"))); len(res) < 3 || !strings.HasPrefix(res[0], "conv2d_1/Conv2D/ReadVariableOp/resource") {
		t.Errorf("search conv2d_1/Conv (a prefix of three names) lists %q: want them in the graph's order", res)
	}
	tb.screenshot(shots, "graphs-find-exact")
}

// Switching from a drawn graph to one of no node leaves nothing of the
// first: no counts in the details panel, no path, no legend; and the
// overview lists the empty graph without a link to it (on the real Keras
// log, whose run metadata batch_2 holds no graph).
func TestBrowserGraphsEmptyGraphShowsNothingOfThePrevious(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	r := reportOf(t, sharedCorpus(t, "keras-tf21-standard-profile"))
	for _, c := range []struct{ name, url, index string }{
		{"site", fileURL(filepath.Join(r.site, "graphs.html"), ""), fileURL(filepath.Join(r.site, "index.html"), "")},
		{"single-file", fileURL(r.single, "page=graphs"), fileURL(r.single, "page=index")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			waitFor(tb, pageJS("graphs.js", "drawn"), 20*time.Second, "the graph drawn")
			before := readGraphPanel(t, tb)
			if !strings.Contains(before.Details, "ops") || before.Crumbs == "" {
				t.Fatalf("the first graph's panel %+v", before)
			}
			if !eval[bool](tb, pageJS("graphs.js", "choose", "batch_2")) {
				t.Fatal("no graph batch_2 in the selector")
			}
			waitFor(tb, `document.querySelector('main.page[data-page="graphs"]').getAttribute('data-graph-loaded').includes('batch_2')`, 20*time.Second, "the empty graph loaded")
			p := readGraphPanel(t, tb)
			if strings.Contains(p.Details, "ops") || strings.Contains(p.Details, "boxes") || !strings.Contains(p.Details, "no node") {
				t.Errorf("details after switching to the empty graph: %q, want that it holds no node and no count", p.Details)
			}
			if p.Crumbs != "" || p.Legend != "" || !strings.Contains(p.Canvas, "holds no node") {
				t.Errorf("after switching to the empty graph: crumbs %q legend %q canvas %q", p.Crumbs, p.Legend, p.Canvas)
			}
			tb.screenshot(shots, "graphs-empty-"+c.name)

			ov := openTab(t, browser, c.index)
			got := eval[overviewLists](ov, pageJS("overview.js", "lists"))
			var empty, linked int
			for _, g := range got.Graphs {
				row, href, _ := strings.Cut(g, " -> ")
				switch {
				case strings.Contains(row, "batch_2"):
					empty++
					if href != "" || !strings.Contains(row, "| 0 | 0") {
						t.Errorf("the empty graph's row %q links to %q", row, href)
					}
				case href == "":
					t.Errorf("the graph %q is not linked", row)
				default:
					linked++
				}
			}
			if empty != 1 || linked == 0 {
				t.Errorf("overview graphs %q: want the empty batch_2 unlinked and the others linked", got.Graphs)
			}
			ov.screenshot(shots, "overview-graphs-"+c.name)
		})
	}
}
