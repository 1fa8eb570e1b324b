package analysis

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/assets"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/graph/layout"
)

// The boxes are sized for what assets/graphs.js draws in them: the
// numbers graphBoxMetrics states are the script's, read from it here, so
// that a change to either side alone fails.
func TestGraphBoxMetricsMatchGraphsJS(t *testing.T) {
	b, err := assets.FS.ReadFile("graphs.js")
	if err != nil {
		t.Fatal(err)
	}
	js := string(b)
	number := func(re string) float64 {
		t.Helper()
		m := regexp.MustCompile(re).FindStringSubmatch(js)
		if m == nil {
			t.Fatalf("graphs.js has no match for %s", re)
		}
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	// var CHAR = 6.5, MAX_ANN = 3, ANN_CHARS = 16, ANN_LINE = 12;
	// var coreH = c.kind === 'op' ? Math.min(h, 24) : Math.min(h, 36);
	got := layout.Metrics{
		CharWidth:          number(`\bCHAR = ([0-9.]+)`),
		MaxAnnotations:     int(number(`\bMAX_ANN = ([0-9]+)`)),
		MaxAnnotationLabel: int(number(`\bANN_CHARS = ([0-9]+)`)),
		AnnotationLine:     number(`\bANN_LINE = ([0-9.]+)`),
		OpHeight:           number(`coreH = c\.kind === 'op' \? Math\.min\(h, ([0-9.]+)\)`),
		GroupHeight:        number(`coreH = c\.kind === 'op' \? Math\.min\(h, [0-9.]+\) : Math\.min\(h, ([0-9.]+)\)`),
	}
	if got != graphBoxMetrics {
		t.Errorf("graphs.js draws with %+v, the layout sizes boxes for %+v", got, graphBoxMetrics)
	}
}

// graphOf makes a graph from "name op input..." lines; "^x" is a control
// input.
func graphOf(src model.GraphSource, lines ...string) *model.Graph {
	g := &model.Graph{Source: src, Seen: 1}
	for _, l := range lines {
		f := strings.Fields(l)
		n := model.Node{Name: f[0], Op: f[1]}
		for _, in := range f[2:] {
			n.Inputs = append(n.Inputs, model.NodeInput{Name: strings.TrimPrefix(in, "^"), Control: strings.HasPrefix(in, "^")})
		}
		g.Nodes = append(g.Nodes, n)
	}
	return g
}

// diamond needs dot: a -> b, a -> c, b -> d, c -> d is not a chain.
func diamond() *model.Graph {
	return graphOf(model.SourceGraphDef, "a Placeholder", "k Const", "b Relu a", "c MatMul a k:0", "d AddV2 b c gone:1")
}

// Graphs of one shape in several runs (an Estimator's train and eval, a
// sweep) are laid out once and share the layout; each keeps its own
// counts; a graph of another shape has its own layout.
func TestGraphsOfOneShapeLaidOutOnce(t *testing.T) {
	train, eval, other := diamond(), diamond(), graphOf(model.SourceKeras, "x Placeholder", "y Relu x")
	eval.Step, eval.Seen = 7, 3
	rep := &model.Report{Runs: []*model.Run{{Name: "train", Graphs: []*model.Graph{train}}, {Name: "eval", Graphs: []*model.Graph{eval, other}}}}
	an, err := Build(context.Background(), rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	gt, ge, go_ := an.Graphs.Of[train], an.Graphs.Of[eval], an.Graphs.Of[other]
	if gt == nil || ge == nil || go_ == nil || len(an.Graphs.Of) != 3 {
		t.Fatalf("analysed %d graphs of 3", len(an.Graphs.Of))
	}
	if gt.Layout != ge.Layout || go_.Layout == gt.Layout {
		t.Error("graphs of one shape do not share their layout, or graphs of two shapes do")
	}
	if ge.Count.Step != 7 || ge.Count.Seen != 3 || gt.Count.Step != 0 || gt.Count.Nodes != 5 || gt.Count.Edges != 5 || go_.Count.Source != "keras" {
		t.Errorf("counts %+v, %+v, %+v", gt.Count, ge.Count, go_.Count)
	}
	if b := an.Graphs.Budgets; b.ViewBoxes != DefaultGraphViewBoxes || b.ViewEdges != DefaultGraphViewEdges || b.LayoutTime != DefaultGraphLayoutTime {
		t.Errorf("budgets %+v, want the defaults", b)
	}
}

// A layout holds what the page draws and nothing the page must work out:
// every box of a laid-out view (none for a constant drawn as an
// annotation), every edge's curve, every input resolved to its producer
// and output, dangling inputs counted.
func TestGraphLayoutHoldsTheViews(t *testing.T) {
	g := diamond()
	rep := &model.Report{Runs: []*model.Run{{Name: "r", Graphs: []*model.Graph{g}}}}
	an, err := Build(context.Background(), rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	lg := an.Graphs.Of[g].Layout
	if lg.Edges != 5 || lg.Dangling != 1 || lg.Duplicates != 0 || len(lg.Parent) != 5 || len(lg.Groups) != 1 {
		t.Fatalf("%d edges, %d dangling, %d duplicates, %d parents, %d groups", lg.Edges, lg.Dangling, lg.Duplicates, len(lg.Parent), len(lg.Groups))
	}
	root := lg.Groups[0]
	if root.Skipped != "" || root.Width <= 0 || root.Height <= 0 {
		t.Fatalf("root view: skipped %q, %v x %v", root.Skipped, root.Width, root.Height)
	}
	for _, c := range root.Children {
		switch {
		case c.Label == "k" && (!c.Annotated || c.Box != [4]float64{}):
			t.Errorf("the constant: annotated %v, box %v", c.Annotated, c.Box)
		case c.Label != "k" && (c.Box[2] <= 0 || c.Box[3] <= 0):
			t.Errorf("%s: box %v", c.Label, c.Box)
		}
	}
	for _, e := range root.Edges {
		if len(e.Path) < 8 || len(e.Path)%2 != 0 {
			t.Errorf("edge %d->%d: path %v", e.From, e.To, e.Path)
		}
	}
	want := []struct{ node, output int }{{0, 0}, {0, 0}, {1, 0}, {2, 0}, {3, 0}, {-1, 0}}
	if len(lg.Inputs) != len(want) {
		t.Fatalf("%d inputs, want %d", len(lg.Inputs), len(want))
	}
	for i, w := range want {
		if in := lg.Inputs[i]; in.Node != w.node || in.Output != w.output {
			t.Errorf("input %d: %+v, want %+v", i, in, w)
		}
	}
}

// The layout's budgets are the analysis' options, recorded in the result
// for the page to state: a view past them is not laid out, and says why.
func TestGraphBudgetsFromOptions(t *testing.T) {
	g := diamond()
	rep := &model.Report{Runs: []*model.Run{{Name: "r", Graphs: []*model.Graph{g}}}}
	an, err := Build(context.Background(), rep, Options{GraphViewBoxes: 2, GraphViewEdges: 9, GraphLayoutTime: 5e9})
	if err != nil {
		t.Fatal(err)
	}
	if b := an.Graphs.Budgets; b.ViewBoxes != 2 || b.ViewEdges != 9 || b.LayoutTime.Seconds() != 5 {
		t.Errorf("budgets %+v", b)
	}
	root := an.Graphs.Of[g].Layout.Groups[0]
	if !strings.Contains(root.Skipped, "above the budget of 2") {
		t.Errorf("a view of 4 boxes under a budget of 2: skipped %q", root.Skipped)
	}
	for _, c := range root.Children {
		if c.Box != [4]float64{} {
			t.Errorf("%s has a box in a view not laid out", c.Label)
		}
	}
	for _, e := range root.Edges {
		if e.Path != nil {
			t.Errorf("an edge has a path in a view not laid out")
		}
	}
}

// The analysis stops when its context is done, with the context's error,
// rather than handing on views it was told not to finish.
func TestGraphsStopWithTheContext(t *testing.T) {
	rep := &model.Report{Runs: []*model.Run{{Name: "r", Graphs: []*model.Graph{diamond()}}}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := graphs(ctx, rep, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("graphs with a cancelled context: %v", err)
	}
	if _, err := Build(ctx, rep, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Build with a cancelled context: %v", err)
	}
}

// What `trainreport inspect` counts without laying anything out is what
// the report says: names resolved to the last node of the name, an input
// naming its own node no edge.
func TestGraphCountsAgreeWithTheLayout(t *testing.T) {
	run := &model.Run{Name: "r", Graphs: []*model.Graph{
		diamond(),
		graphOf(model.SourceMindSpore, "a Op", "a Op a", "b Op a:0 ^a b missing"),
	}}
	an, err := Build(context.Background(), &model.Report{Runs: []*model.Run{run}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	counts := GraphCounts(run)
	for i, g := range run.Graphs {
		if counts[i] != an.Graphs.Of[g].Count {
			t.Errorf("graph %d: GraphCounts %+v, Build %+v", i, counts[i], an.Graphs.Of[g].Count)
		}
	}
	if counts[1].Edges != 2 {
		t.Errorf("%d edges, want 2 (a:0 and ^a into b; a into a and b into b are no edges)", counts[1].Edges)
	}
}

// A report that writes only summary.json (a --baseline's) counts its graphs
// as a full build does and lays none out.
func TestSummaryOnlyCountsGraphsWithoutLayingOut(t *testing.T) {
	run := &model.Run{Name: "r", Graphs: []*model.Graph{diamond(), graphOf(model.SourceMindSpore, "a Op", "b Op a:0 ^a b")}}
	rep := &model.Report{Runs: []*model.Run{run}}
	full, err := Build(context.Background(), rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := Build(context.Background(), rep, Options{SummaryOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range run.Graphs {
		if sum.Graphs.Of[g].Count != full.Graphs.Of[g].Count {
			t.Errorf("graph %d: summary-only count %+v, full build %+v", i, sum.Graphs.Of[g].Count, full.Graphs.Of[g].Count)
		}
		if sum.Graphs.Of[g].Layout != nil {
			t.Errorf("graph %d laid out for a summary-only build", i)
		}
		if full.Graphs.Of[g].Layout == nil {
			t.Errorf("graph %d not laid out by a full build", i)
		}
	}
}
