package render

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
)

// Kinds of data that are not tags, for holdings and for the kinds of the
// page that draws them (page.kinds): the embeddings page lists
// kindEmbedding, so the overview does not list embeddings as not drawn.
const (
	kindEmbedding  model.Kind = "embedding"
	kindException  model.Kind = "exception"
	kindLogMessage model.Kind = "log_message"
)

// holding is a kind of data that the model holds outside the tags'
// series, and how much of it a run holds.
type holding struct {
	kind         model.Kind
	unit, plural string
	count        func(*model.Run) int
	// detail, when set, says which the run holds: the embeddings by name
	// and shape.
	detail func(*model.Run) string
	// coversTagsOf is set when the run's tags of kind are this data, not
	// to be counted again as tags no page shows.
	coversTagsOf bool
}

// holdings lists the data of a run that a page may draw besides the
// series of its tags' kinds. The list says what the model holds, not what
// is drawn: undrawn compares it with pageTable.
var holdings = []holding{
	{kind: model.KindGraph, unit: "graph", plural: "graphs", count: func(r *model.Run) int { return len(r.Graphs) }, coversTagsOf: true},
	{kind: kindEmbedding, unit: "embedding", plural: "embeddings", count: func(r *model.Run) int { return len(r.Embeddings) }, detail: embeddingsDetail},
	{kind: kindException, unit: "exception series", plural: "exception series", count: func(r *model.Run) int { return len(r.Exceptions) }},
	{kind: model.KindCustomScalars, unit: "custom-scalars layout", plural: "custom-scalars layouts", coversTagsOf: true,
		count: func(r *model.Run) int {
			if r.Layout != nil {
				return 1
			}
			return 0
		}},
	{kind: model.KindMesh, unit: "mesh", plural: "meshes", count: func(r *model.Run) int { return len(r.Meshes) }, coversTagsOf: true},
	{kind: kindLogMessage, unit: "log message", plural: "log messages", count: func(r *model.Run) int { return len(r.LogMessages) }},
}

// UndrawnItem is a kind of data a run holds that no page draws yet, and
// how much of it.
type UndrawnItem struct {
	// What is the kind, in the singular: "graph", "embedding", "tag of
	// kind other".
	What string
	N    int
	// Detail says which, when the kind says more than a count: the
	// embeddings' names and shapes ("embed0:0: 10000×16").
	Detail string
	// plural is What for N other than 1.
	plural string
}

// String is "2 graphs", "1 embedding (embed0:0: 10000×16)".
func (it UndrawnItem) String() string {
	s := fmt.Sprintf("%d %s", it.N, it.plural)
	if it.N == 1 {
		s = fmt.Sprintf("1 %s", it.What)
	}
	if it.Detail != "" {
		s += " (" + it.Detail + ")"
	}
	return s
}

// Bounds on the embeddings the overview names in a run's line: names are
// untrusted, and a run may hold thousands.
const (
	maxEmbeddingsNamed = 5
	maxEmbeddingName   = 60 // runes
)

// embeddingsDetail names a run's first embeddings with their shapes
// ("embed0:0: 10000×16; x: no points; and 3 more"), so that the overview
// says what a future embeddings page would draw.
func embeddingsDetail(r *model.Run) string {
	var parts []string
	for _, e := range r.Embeddings[:min(len(r.Embeddings), maxEmbeddingsNamed)] {
		name := e.Name
		if rs := []rune(name); len(rs) > maxEmbeddingName {
			name = string(rs[:maxEmbeddingName-1]) + "…"
		}
		var what []string
		if len(e.Shape) > 0 {
			dims := make([]string, len(e.Shape))
			for i, d := range e.Shape {
				dims[i] = fmt.Sprint(d)
			}
			what = append(what, strings.Join(dims, "×"))
		}
		if e.Points == nil {
			what = append(what, "no points")
		}
		parts = append(parts, name+": "+strings.Join(what, ", "))
	}
	if n := len(r.Embeddings) - maxEmbeddingsNamed; n > 0 {
		parts = append(parts, fmt.Sprintf("and %d more", n))
	}
	return strings.Join(parts, "; ")
}

// UndrawnRun is what one run holds that no page draws yet.
type UndrawnRun struct {
	Run   string
	Items []UndrawnItem
}

// String is "2 graphs, 1 embedding".
func (u UndrawnRun) String() string {
	parts := make([]string, len(u.Items))
	for i, it := range u.Items {
		parts[i] = it.String()
	}
	return strings.Join(parts, ", ")
}

// Undrawn lists, per run in report order, the data the model holds that no
// page of the report draws yet: graphs, embeddings, exception series,
// custom-scalars layouts, meshes, log messages, and tags of any kind no
// page shows. It compares what the model holds with the kinds of pageTable,
// so a new page that lists a kind removes its line. Runs holding nothing
// undrawn are left out.
func Undrawn(rep *model.Report) []UndrawnRun {
	drawn := map[model.Kind]bool{}
	for _, pg := range pageTable {
		for _, k := range pg.kinds {
			drawn[k] = true
		}
	}
	covered := map[model.Kind]bool{}
	for _, h := range holdings {
		if h.coversTagsOf {
			covered[h.kind] = true
		}
	}
	var out []UndrawnRun
	for _, run := range rep.Runs {
		u := UndrawnRun{Run: run.Name}
		for _, h := range holdings {
			if n := h.count(run); n > 0 && !drawn[h.kind] {
				it := UndrawnItem{What: h.unit, N: n, plural: h.plural}
				if h.detail != nil {
					it.Detail = h.detail(run)
				}
				u.Items = append(u.Items, it)
			}
		}
		// Tags of a kind no page shows and no holding stands for (other
		// plugins' data, a kind a newer collect knows).
		tags := map[model.Kind]int{}
		for _, ti := range run.Tags {
			if !drawn[ti.Kind] && !covered[ti.Kind] {
				tags[ti.Kind]++
			}
		}
		kinds := make([]model.Kind, 0, len(tags))
		for k := range tags {
			kinds = append(kinds, k)
		}
		slices.Sort(kinds)
		for _, k := range kinds {
			u.Items = append(u.Items, UndrawnItem{What: fmt.Sprintf("tag of kind %s", k), N: tags[k], plural: fmt.Sprintf("tags of kind %s", k)})
		}
		if len(u.Items) > 0 {
			out = append(out, u)
		}
	}
	return out
}

// maxUndrawnListed bounds the runs the overview lists with data not drawn.
const maxUndrawnListed = 50

// notDrawn is the overview's list of data not drawn yet: the first runs,
// how many more, and the totals over every run ("2 graphs, 3 embeddings").
type notDrawn struct {
	Runs  []UndrawnRun
	More  int
	Total string
}

func notDrawnOf(rep *model.Report) notDrawn {
	all := Undrawn(rep)
	var nd notDrawn
	if len(all) == 0 {
		return nd
	}
	nd.Runs = all[:min(len(all), maxUndrawnListed)]
	nd.More = len(all) - len(nd.Runs)
	var total []UndrawnItem // in the order first met
	for _, u := range all {
		for _, it := range u.Items {
			if i := slices.IndexFunc(total, func(t UndrawnItem) bool { return t.What == it.What }); i >= 0 {
				total[i].N += it.N
			} else {
				it.Detail = "" // the totals count; each run's line names
				total = append(total, it)
			}
		}
	}
	nd.Total = UndrawnRun{Items: total}.String()
	return nd
}
