package render

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"html/template"
	"slices"
	"time"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/graph/hierarchy"
	graphlayout "github.com/trainreport/trainreport/internal/analysis/graph/layout"
)

// Budgets of the graphs page, stated on the page.
const (
	// graphViewBoxes bounds the boxes one view (a scope's children) lays
	// out; a larger scope is listed, not drawn.
	graphViewBoxes = graphlayout.DefaultMaxBoxes
	// graphViewEdges bounds the edges one view lays out: dot's time grows
	// fast with them, and one call cannot be interrupted.
	graphViewEdges = graphlayout.DefaultMaxEdges
	// graphAttrBytes bounds the bytes of attribute names and values a
	// node's details keep (each value is already shortened by collect).
	graphAttrBytes = 2048
	// graphLayoutTime bounds the layout of one graph: the views not laid
	// out by then are listed, not drawn.
	graphLayoutTime = 60 * time.Second
	// graphSingleBytes bounds the graph data the single file inlines; the
	// site loads each graph's data file when it is chosen.
	graphSingleBytes = 16 << 20
)

// graphView is one graph of a run with its hierarchy, views and encoded
// data file.
type graphView struct {
	run   *model.Run
	graph *model.Graph
	h     *hierarchy.Hierarchy
	// file is the data file's path relative to data/; data its bytes.
	file string
	data []byte
	err  error // the data could not be encoded
}

// graphKey names a graph of a run: its source, and its tag when it has one.
func graphKey(g *model.Graph) string {
	if g.Tag == "" {
		return string(g.Source)
	}
	return string(g.Source) + "/" + g.Tag
}

// graphLabel is what the page's selector says of a graph.
func graphLabel(g *model.Graph) string {
	what := map[model.GraphSource]string{
		model.SourceGraphDef:     "op graph",
		model.SourceMetaGraphDef: "op graph (meta graph)",
		model.SourceRunMetadata:  "run metadata",
		model.SourceKeras:        "conceptual graph (Keras)",
		model.SourceOneFlow:      "structure graph (OneFlow)",
	}[g.Source]
	if what == "" {
		what = string(g.Source)
	}
	if g.Tag != "" {
		what += ": " + g.Tag
	}
	return what
}

// graphViews lays out every graph of the report, once.
func (r *Report) graphViews() []*graphView {
	r.graphsOnce.Do(func() {
		// Runs often hold the same graph (an Estimator's train and eval
		// directories, a sweep): each distinct one is laid out once.
		laidOut := map[[32]byte]*laidOutGraph{}
		for _, run := range r.rep.Runs {
			for _, g := range run.Graphs {
				k := graphShape(&g.NodeGraph)
				lg := laidOut[k]
				if lg == nil {
					lg = layOutGraph(&g.NodeGraph)
					laidOut[k] = lg
				}
				r.graphs = append(r.graphs, buildGraphView(run, g, lg))
			}
		}
	})
	return r.graphs
}

// laidOutGraph is a graph's hierarchy and views, which depend only on
// what graphShape hashes.
type laidOutGraph struct {
	h     *hierarchy.Hierarchy
	views []graphlayout.View
}

func layOutGraph(g *model.NodeGraph) *laidOutGraph {
	lg := &laidOutGraph{h: hierarchy.Build(g)}
	ctx, cancel := context.WithTimeout(context.Background(), graphLayoutTime)
	defer cancel()
	// dot's compiled code is kept in the user's private cache, checked
	// before use (docs/TRUST.md), so that the next report need not compile it.
	opt := graphlayout.Options{MaxBoxes: graphViewBoxes, MaxEdges: graphViewEdges, CacheDir: graphlayout.UserCacheDir()}
	lg.views = graphlayout.Views(ctx, lg.h, g, opt)
	return lg
}

// graphShape hashes what a graph's hierarchy and layout depend on: each
// node's name, op, inputs and output shapes.
func graphShape(g *model.NodeGraph) [32]byte {
	d := sha256.New()
	var buf []byte // reused: no copy of a name per input
	tagged := func(tag byte, s string) {
		buf = binary.LittleEndian.AppendUint64(append(buf[:0], tag), uint64(len(s)))
		buf = append(buf, s...)
		d.Write(buf)
	}
	str := func(s string) { tagged(0, s) }
	for _, nd := range g.Nodes {
		str(nd.Name)
		str(nd.Op)
		for _, in := range nd.Inputs {
			if in.Control {
				tagged(1, in.Name)
			} else {
				str(in.Name)
			}
		}
		tagged(2, "") // the end of the inputs
		for _, s := range nd.OutputShapes {
			str(s.String())
		}
		tagged(2, "")
	}
	var sum [32]byte
	d.Sum(sum[:0])
	return sum
}

func buildGraphView(run *model.Run, g *model.Graph, lg *laidOutGraph) *graphView {
	gv := &graphView{run: run, graph: g, h: lg.h, file: dataFile("graphs", run.Name, graphKey(g))}
	gv.data, gv.err = json.Marshal(graphData(run, g, lg.h, lg.views))
	return gv
}

func runGraphs(run *model.Run) []*model.Graph { return run.Graphs }

// graphsPage is what templates/graphs.html draws.
type graphsPage struct {
	Graphs []graphEntry
	// List is Graphs for assets/graphs.js.
	List template.JS
	// Inline holds, in the single file, each graph's data by id.
	Inline                                    []graphInline
	ViewBoxes, ViewEdges, AttrBytes, PageSize string
	LayoutTime                                string
}

// graphEntry is one graph of the selector.
type graphEntry struct {
	ID     string `json:"id"` // the data file's path, unique
	Run    string `json:"run"`
	Source string `json:"source"`
	Tag    string `json:"tag"`
	Label  string `json:"label"`
	Nodes  int    `json:"nodes"`
	Edges  int    `json:"edges"`
	// Script is the data file's script form, relative to data/; "" in the
	// single file, where the data is inline or left out (Note).
	Script string `json:"script,omitempty"`
	Note   string `json:"note,omitempty"`
}

type graphInline struct {
	ID   string
	Data template.JS
}

func (r *Report) graphsPage(single bool) (*graphsPage, error) {
	p := &graphsPage{ViewBoxes: fmtCount(graphViewBoxes), ViewEdges: fmtCount(graphViewEdges), AttrBytes: fmtCount(graphAttrBytes),
		PageSize: fmtBytes(graphSingleBytes), LayoutTime: fmt.Sprintf("%d s", int(graphLayoutTime.Seconds()))}
	inlined := 0
	for _, gv := range r.graphViews() {
		e := graphEntry{ID: gv.file, Run: gv.run.Name, Source: string(gv.graph.Source), Tag: gv.graph.Tag,
			Label: graphLabel(gv.graph), Nodes: len(gv.graph.Nodes), Edges: gv.h.Edges}
		switch {
		case gv.err != nil:
			e.Note = "the graph's data could not be encoded: " + gv.err.Error()
		case !single:
			e.Script = dataScriptFile(gv.file)
		case inlined+len(gv.data) > graphSingleBytes:
			e.Note = fmt.Sprintf("not in the single file: its data (%s) would pass the page budget of %s; the site's graphs page draws it", fmtBytes(len(gv.data)), fmtBytes(graphSingleBytes))
		default:
			inlined += len(gv.data)
			// json.Marshal escapes <, > and &: no "</script>" can end the
			// element early.
			p.Inline = append(p.Inline, graphInline{ID: gv.file, Data: template.JS(gv.data)})
		}
		p.Graphs = append(p.Graphs, e)
	}
	list, err := scriptJSON(p.Graphs)
	if err != nil {
		return nil, err
	}
	p.List = list
	return p, nil
}

// graphsData writes each graph's data file and its script form.
func (r *Report) graphsData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: "graph", index: map[string]map[string]string{}}
	for _, gv := range r.graphViews() {
		key := graphKey(gv.graph)
		if gv.err != nil {
			d.note(gv.run.Name, key, fmt.Errorf("data file not written: %w", gv.err))
			continue
		}
		if err := emit(file{"data/" + gv.file, append(slices.Clip(gv.data), '\n')}); err != nil {
			return nil, err
		}
		script := dataScript(gv.file, len(gv.data), func(b []byte) []byte { return append(b, gv.data...) })
		if err := emit(file{"data/" + dataScriptFile(gv.file), script}); err != nil {
			return nil, err
		}
		d.add(gv.run.Name, key, gv.file)
	}
	return d, nil
}
