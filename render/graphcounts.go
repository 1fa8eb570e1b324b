package render

import (
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// graphCounts are the analysis' counts of each graph of run, in the run's
// order (nil when it has none): what summary.json and the overview say.
// A graph the analysis did not see (an analysis of another report) is
// counted from the model alone, with no edges.
func (r *Report) graphCounts(run *model.Run) []result.GraphCount {
	var out []result.GraphCount
	for _, g := range run.Graphs {
		c := result.GraphCount{Source: string(g.Source), Tag: g.Tag, Step: g.Step, Nodes: len(g.Nodes), Seen: g.Seen}
		if ga := r.an.Graphs.Of[g]; ga != nil {
			c = ga.Count
		}
		out = append(out, c)
	}
	return out
}
