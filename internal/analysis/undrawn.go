package analysis

import (
	"fmt"
	"slices"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// DrawnKinds are the kinds of data some page of the report draws: the
// kinds of render's pageTable (a test there checks that they agree, so a
// new page that draws a kind adds it here and removes its "not drawn"
// line from the overview and from inspect).
func DrawnKinds() []model.Kind {
	return []model.Kind{model.KindScalar, model.KindCustomScalars, model.KindHistogram, model.KindImage, model.KindAudio,
		model.KindText, model.KindTensor, result.ExceptionKind, model.KindHParams, model.KindPRCurve, model.KindGraph,
		model.KindVisdom, result.EmbeddingKind, model.KindMesh}
}

// holding is a kind of data that the model holds outside the tags'
// series, and how much of it a run holds.
type holding struct {
	kind         model.Kind
	unit, plural string
	count        func(*model.Run) int
	// coversTagsOf is set when the run's tags of kind are this data, not
	// to be counted again as tags no page shows.
	coversTagsOf bool
}

// holdings lists the data of a run that a page may draw besides the
// series of its tags' kinds. The list says what the model holds, not what
// is drawn: Undrawn compares it with DrawnKinds.
var holdings = []holding{
	{kind: model.KindGraph, unit: "graph", plural: "graphs", count: func(r *model.Run) int { return len(r.Graphs) }, coversTagsOf: true},
	{kind: result.EmbeddingKind, unit: "embedding", plural: "embeddings", count: func(r *model.Run) int { return len(r.Embeddings) }},
	{kind: result.ExceptionKind, unit: "exception series", plural: "exception series", count: func(r *model.Run) int { return len(r.Exceptions) }},
	{kind: model.KindCustomScalars, unit: "custom-scalars layout", plural: "custom-scalars layouts", coversTagsOf: true,
		count: func(r *model.Run) int {
			if r.Layout != nil {
				return 1
			}
			return 0
		}},
	{kind: model.KindMesh, unit: "mesh", plural: "meshes", count: func(r *model.Run) int { return len(r.Meshes) }, coversTagsOf: true},
	{kind: result.LogMessageKind, unit: "log message", plural: "log messages", count: func(r *model.Run) int { return len(r.LogMessages) }},
}

// Undrawn lists, per run in report order, the data the model holds that no
// page of the report draws: log messages, and tags of any kind no page
// shows (and graphs, embeddings, exception series, custom-scalars layouts,
// meshes, were their pages gone). Runs holding nothing undrawn are left
// out. It reads counts only: `inspect` calls it without the rest of the
// analysis.
func Undrawn(rep *model.Report) []result.UndrawnRun {
	return undrawn(rep, DrawnKinds())
}

// undrawn is Undrawn with the pages drawing the kinds drawnKinds.
func undrawn(rep *model.Report, drawnKinds []model.Kind) []result.UndrawnRun {
	drawn := map[model.Kind]bool{}
	for _, k := range drawnKinds {
		drawn[k] = true
	}
	covered := map[model.Kind]bool{}
	for _, h := range holdings {
		if h.coversTagsOf {
			covered[h.kind] = true
		}
	}
	var out []result.UndrawnRun
	for _, run := range rep.Runs {
		u := result.UndrawnRun{Run: run.Name}
		for _, h := range holdings {
			if n := h.count(run); n > 0 && !drawn[h.kind] {
				u.Items = append(u.Items, result.UndrawnItem{What: h.unit, Plural: h.plural, N: n})
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
			u.Items = append(u.Items, result.UndrawnItem{What: fmt.Sprintf("tag of kind %s", k), Plural: fmt.Sprintf("tags of kind %s", k), N: tags[k]})
		}
		if len(u.Items) > 0 {
			out = append(out, u)
		}
	}
	return out
}
