package render

import (
	"slices"

	"github.com/trainreport/trainreport/internal/analysis/result"
)

// maxUndrawnListed bounds the runs the overview lists with data not drawn.
const maxUndrawnListed = 50

// notDrawn is the overview's list of data not drawn yet: the first runs,
// how many more, and the totals over every run ("2 graphs, 3 embeddings").
type notDrawn struct {
	Runs  []result.UndrawnRun
	More  int
	Total string
}

// notDrawnOf is the overview's list of what the runs hold that no page
// draws (the analysis found it: analysis.Undrawn).
func notDrawnOf(all []result.UndrawnRun) notDrawn {
	var nd notDrawn
	if len(all) == 0 {
		return nd
	}
	nd.Runs = all[:min(len(all), maxUndrawnListed)]
	nd.More = len(all) - len(nd.Runs)
	var total []result.UndrawnItem // in the order first met
	for _, u := range all {
		for _, it := range u.Items {
			if i := slices.IndexFunc(total, func(t result.UndrawnItem) bool { return t.What == it.What }); i >= 0 {
				total[i].N += it.N
			} else {
				total = append(total, it)
			}
		}
	}
	nd.Total = result.UndrawnRun{Items: total}.String()
	return nd
}
