package collect

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/graph"
	"github.com/trainreport/trainreport/collect/model"
)

// graphSourceOrder is the order of a run's graphs by source: that of the
// GraphSource constants.
var graphSourceOrder = []model.GraphSource{model.SourceGraphDef, model.SourceMetaGraphDef, model.SourceRunMetadata, model.SourceKeras, model.SourceOneFlow, model.SourceMindSpore, model.SourceMindSporeDataset}

// addGraphValue reads a graph carried by a summary value: a Keras model
// (JSON) or a TF2 trace (RunMetadata), the first string of its tensor.
func (rr *runReader) addGraphValue(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState, tag string, at locator) error {
	src := model.SourceRunMetadata
	if ts.plugin == "graph_keras_model" {
		src = model.SourceKeras
	}
	if len(v.GetTensor().GetStringVal()) == 0 {
		return fmt.Errorf("%s graph: the tensor holds no string", src)
	}
	ref, ok := at(event.Step{Num: eventpb.FieldValueTensor}, event.Step{Num: eventpb.FieldTensorString})
	if !ok {
		return fmt.Errorf("%s graph: cannot locate the payload", src)
	}
	rr.keepGraph(src, tag, ev, ref)
	return nil
}

// addGraphEvent reads a graph_def, meta_graph_def or tagged_run_metadata
// event.
func (rr *runReader) addGraphEvent(ev *eventpb.Event, rec record, offset int64) {
	var src model.GraphSource
	var tag string
	var path []event.Step
	var size int
	switch w := ev.What.(type) {
	case *eventpb.Event_GraphDef:
		src, path, size = model.SourceGraphDef, []event.Step{{Num: eventpb.FieldEventGraphDef}}, len(w.GraphDef)
	case *eventpb.Event_MetaGraphDef:
		src, path, size = model.SourceMetaGraphDef, []event.Step{{Num: eventpb.FieldEventMetaGraphDef}}, len(w.MetaGraphDef)
	case *eventpb.Event_TaggedRunMetadata:
		src, tag = model.SourceRunMetadata, w.TaggedRunMetadata.GetTag()
		path = []event.Step{{Num: eventpb.FieldEventTaggedRunMetadata}, {Num: eventpb.FieldTaggedRunMetadataRunMetadata}}
		size = len(w.TaggedRunMetadata.GetRunMetadata())
	default:
		return
	}
	ref, ok := rec.blob(path...)
	if !ok {
		if size > 0 {
			rr.warn(offset, "%s at step %d: cannot locate the payload", src, ev.Step)
			return
		}
		ref = rec.ref(rec.base, 0) // an empty payload proto3 left out
	}
	rr.keepGraph(src, tag, ev, ref)
}

// keepGraph records the payload of a graph, replacing an earlier one of
// the same source and tag.
func (rr *runReader) keepGraph(src model.GraphSource, tag string, ev *eventpb.Event, ref model.BlobRef) {
	g := rr.findGraph(src, tag)
	if g == nil {
		g = &model.Graph{Source: src, Tag: tag}
		rr.run.Graphs = append(rr.run.Graphs, g)
	}
	g.Step, g.WallTime, g.File, g.Data = ev.Step, ev.WallTime, rr.file.Rel, ref
	g.Seen++
}

func (rr *runReader) findGraph(src model.GraphSource, tag string) *model.Graph {
	for _, g := range rr.run.Graphs {
		if g.Source == src && g.Tag == tag {
			return g
		}
	}
	return nil
}

// structureGraphFiles are where OneFlow writes its structure graph,
// relative to the run directory (docs/FORMATS.md sections 1 and 14).
var structureGraphFiles = []string{"structure_graph.json", "graph/structure_graph.json"}

// maxStructureGraph bounds the size of a structure graph file read whole.
const maxStructureGraph = 64 << 20

// finishGraphs decodes the graph kept for each source and tag, adds the
// jobs of a OneFlow structure graph beside the run's files, and sorts the
// run's graphs by source and tag. A graph that does not decode is dropped
// with a warning at its payload.
func (rr *runReader) finishGraphs() {
	run := rr.run
	kept := run.Graphs[:0]
	for _, g := range run.Graphs {
		if err := decodeGraph(g); err != nil {
			run.Warnings = append(run.Warnings, model.Warning{File: g.File, Offset: g.Data.Offset,
				Msg: fmt.Sprintf("%s graph %q at step %d: %v; graph dropped", g.Source, g.Tag, g.Step, err)})
			continue
		}
		// What a graph held past the decoder's bounds (a Keras model's
		// names, scopes and nesting; any graph's inputs) is left out: say
		// so where it was.
		for _, note := range g.Notes {
			if g.Source == model.SourceKeras || strings.HasPrefix(note, graph.CutPrefix) {
				run.Warnings = append(run.Warnings, model.Warning{File: g.File, Offset: g.Data.Offset,
					Msg: fmt.Sprintf("%s graph %q at step %d: %s", g.Source, g.Tag, g.Step, note)})
			}
		}
		kept = append(kept, g)
	}
	clear(run.Graphs[len(kept):])
	run.Graphs = kept
	for _, name := range structureGraphFiles {
		rr.readStructureGraph(name)
	}
	slices.SortStableFunc(run.Graphs, func(a, b *model.Graph) int {
		return cmp.Or(cmp.Compare(slices.Index(graphSourceOrder, a.Source), slices.Index(graphSourceOrder, b.Source)),
			cmp.Compare(a.Tag, b.Tag))
	})
}

// decodeGraph reads back a kept payload and decodes it.
func decodeGraph(g *model.Graph) error {
	var b []byte
	if g.Data.Length > 0 {
		var err error
		if b, err = g.Data.Read(); err != nil {
			return err
		}
	}
	var dec *graph.Graph
	var err error
	switch g.Source {
	case model.SourceGraphDef:
		dec, err = graph.DecodeGraphDef(b)
	case model.SourceMetaGraphDef:
		dec, err = graph.DecodeMetaGraphDef(b)
	case model.SourceRunMetadata:
		dec, err = graph.DecodeRunMetadata(b)
	case model.SourceKeras:
		dec, err = graph.DecodeKeras(b)
	case model.SourceMindSpore:
		dec, err = graph.DecodeMindSpore(b)
	case model.SourceMindSporeDataset:
		dec, err = graph.DecodeMindSporeDataset(b)
	default:
		return fmt.Errorf("unknown source")
	}
	if err != nil {
		return err
	}
	g.NodeGraph = *dec
	return nil
}

// readStructureGraph adds the jobs of a OneFlow structure graph at name
// (slash-separated, relative to the run directory) when there is one.
func (rr *runReader) readStructureGraph(name string) {
	run := rr.run
	rel := path.Join(run.Path, name)
	warn := func(format string, args ...any) {
		run.Warnings = append(run.Warnings, model.Warning{File: rel, Offset: -1, Msg: fmt.Sprintf(format, args...)})
	}
	if fi, err := rr.src.Stat(rel); errors.Is(err, fs.ErrNotExist) || err == nil && !fi.Mode().IsRegular() {
		return // discovery warns of what is not a regular file
	}
	b, err := rr.src.ReadFile(rel, maxStructureGraph)
	if err != nil {
		warn("structure graph not read: %v", err)
		return
	}
	jobs, err := graph.DecodeOneFlow(b)
	if err != nil {
		warn("%v", err)
		return
	}
	for _, j := range jobs {
		for _, note := range j.Notes {
			if strings.HasPrefix(note, graph.CutPrefix) {
				warn("job %q: %s", j.Name, note)
			}
		}
		g := rr.findGraph(model.SourceOneFlow, j.Name)
		if g == nil {
			g = &model.Graph{Source: model.SourceOneFlow, Tag: j.Name}
			run.Graphs = append(run.Graphs, g)
		}
		g.File, g.Data, g.NodeGraph = rel, model.NewBlobRef(rr.src, run.Logdir, rel, 0, int64(len(b))), j.Graph
		g.Seen++
	}
}
