package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"slices"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Budgets of the graphs page's writing, stated on the page; those of the
// layout are the analysis' (result.GraphBudgets).
const (
	// graphAttrBytes bounds the bytes of attribute names and values a
	// node's details keep (each value is already shortened by collect).
	graphAttrBytes = 2048
	// graphSingleBytes bounds the graph data the single file inlines; the
	// site loads each graph's data file when it is chosen.
	graphSingleBytes = 16 << 20
)

// graphView is one graph of a run with its analysis and encoded data
// file.
type graphView struct {
	run   *model.Run
	graph *model.Graph
	an    *result.Graph
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
		model.SourceGraphDef:         "op graph",
		model.SourceMetaGraphDef:     "op graph (meta graph)",
		model.SourceRunMetadata:      "run metadata",
		model.SourceKeras:            "conceptual graph (Keras)",
		model.SourceOneFlow:          "structure graph (OneFlow)",
		model.SourceMindSporeDataset: "dataset graph (MindSpore lineage)",
	}[g.Source]
	if what == "" {
		what = string(g.Source)
	}
	if g.Tag != "" {
		what += ": " + g.Tag
	}
	return what
}

// graphViews encodes the data of every graph of the report, in report
// order, calling each with its view. The data is encoded where it is
// written, not kept: the page (for the single file's inline data, and to
// know which data cannot be encoded) and the data files each encode it.
func (r *Report) graphViews(each func(*graphView) error) error {
	for _, run := range r.rep.Runs {
		for _, g := range run.Graphs {
			gv := &graphView{run: run, graph: g, an: r.an.Graphs.Of[g], file: dataFile("graphs", run.Name, graphKey(g))}
			if gv.an == nil {
				gv.err = errors.New("the analysis has no layout of it")
			} else {
				gv.data, gv.err = json.Marshal(graphData(run, g, gv.an.Layout, r.an.Graphs.Budgets))
			}
			if err := each(gv); err != nil {
				return err
			}
		}
	}
	return nil
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
	b := r.an.Graphs.Budgets
	p := &graphsPage{ViewBoxes: result.FormatCount(b.ViewBoxes), ViewEdges: result.FormatCount(b.ViewEdges), AttrBytes: result.FormatCount(graphAttrBytes),
		PageSize: fmtBytes(graphSingleBytes), LayoutTime: fmt.Sprintf("%d s", int(b.LayoutTime.Seconds()))}
	inlined := 0
	err := r.graphViews(func(gv *graphView) error {
		e := graphEntry{ID: gv.file, Run: gv.run.Name, Source: string(gv.graph.Source), Tag: gv.graph.Tag,
			Label: graphLabel(gv.graph), Nodes: len(gv.graph.Nodes)}
		if gv.an != nil {
			e.Edges = gv.an.Count.Edges
		}
		switch {
		case gv.an == nil:
			e.Note = "not drawn: " + gv.err.Error()
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
		return nil
	})
	if err != nil {
		return nil, err
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
	err := r.graphViews(func(gv *graphView) error {
		key := graphKey(gv.graph)
		if gv.err != nil {
			d.note(gv.run.Name, key, fmt.Errorf("data file not written: %w", gv.err))
			return nil
		}
		if err := emit(file{"data/" + gv.file, append(slices.Clip(gv.data), '\n')}); err != nil {
			return err
		}
		script := dataScript(gv.file, len(gv.data), func(b []byte) []byte { return append(b, gv.data...) })
		if err := emit(file{"data/" + dataScriptFile(gv.file), script}); err != nil {
			return err
		}
		d.add(gv.run.Name, key, gv.file)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}
