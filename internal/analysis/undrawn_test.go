package analysis

import (
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Undrawn lists, per run, what the model holds that no page draws: with
// every page, a tag of a kind none shows; without the graphs, custom
// scalars and embeddings pages, their data too, counted (a graph's own tag
// not counted twice); runs holding nothing undrawn are left out.
func TestUndrawnListsWhatNoPageDraws(t *testing.T) {
	rep := &model.Report{Runs: []*model.Run{{Name: "a"}, {Name: "b"}}}
	a := rep.Runs[0]
	a.Graphs = []*model.Graph{{Source: model.GraphSource("graph_def")}, {Source: model.GraphSource("graph_def"), Tag: "keras"}}
	a.Embeddings = []*model.Embedding{{Name: "embed0"}}
	a.Layout = &model.Layout{}
	a.Tags = []model.TagInfo{{Tag: "keras", Kind: model.KindGraph}, {Tag: "odd", Kind: model.KindOther}, {Tag: "loss", Kind: model.KindScalar}}
	got := Undrawn(rep)
	if len(got) != 1 || got[0].Run != "a" || got[0].String() != "1 tag of kind other" {
		t.Fatalf("Undrawn = %+v", got)
	}
	fewer := slices.DeleteFunc(DrawnKinds(), func(k model.Kind) bool {
		return k == model.KindGraph || k == model.KindCustomScalars || k == result.EmbeddingKind
	})
	if got := undrawn(rep, fewer); len(got) != 1 || got[0].String() != "2 graphs, 1 embedding, 1 custom-scalars layout, 1 tag of kind other" {
		t.Errorf("without those pages, Undrawn = %+v", got)
	}
}
