package render

import (
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/graph/hierarchy"
)

// GraphCount is what summary.json, the overview and `trainreport
// inspect` say of one graph of a run.
type GraphCount struct {
	Source string `json:"source"`
	Tag    string `json:"tag"`
	Step   int64  `json:"step"`
	Nodes  int    `json:"nodes"`
	// Edges counts the edges, data and control, between distinct nodes
	// of the graph, as TensorBoard's graph plugin counts them.
	Edges int `json:"edges"`
	// Seen counts the graphs of this source and tag the run wrote; the
	// report keeps the last.
	Seen int `json:"seen"`
}

// GraphCounts counts the nodes and edges of each graph of run, in the
// run's order.
func GraphCounts(run *model.Run) []GraphCount {
	var out []GraphCount
	for _, g := range run.Graphs {
		out = append(out, GraphCount{Source: string(g.Source), Tag: g.Tag, Step: g.Step, Nodes: len(g.Nodes),
			Edges: hierarchy.Build(&g.NodeGraph).Edges, Seen: g.Seen})
	}
	return out
}
