package collect

import (
	"cmp"
	"maps"
	"slices"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect/discover"
	"github.com/trainreport/trainreport/collect/projector"
	"github.com/trainreport/trainreport/collect/series"
)

// readProjector reads the run's projector files: projector configs and
// the files they name, OneFlow projector files, and the projector values
// of TS-VIS projector event files (whose other records the event reader
// has read).
func (rr *runReader) readProjector(side []discover.SideFile) {
	run := rr.run
	if len(side) == 0 {
		return
	}
	root := projector.NewRoot(rr.src, run.Logdir)
	exceptions := map[string]*series.List[model.ExceptionEntry]{}
	source := map[string]string{}
	for _, sf := range side {
		var res projector.Result
		switch sf.Kind {
		case discover.ProjectorConfig:
			res = projector.ReadConfig(root, sf.Rel)
		case discover.OneFlowEmbeddings, discover.OneFlowExceptions:
			res = projector.ReadOneFlow(root, sf.Rel, sf.Kind == discover.OneFlowExceptions)
		case discover.TSVISProjector:
			res = projector.ReadTSVIS(root, sf.Rel)
		default:
			continue
		}
		for _, p := range res.Problems {
			run.Warnings = append(run.Warnings, model.Warning{File: p.File, Offset: p.Offset, Msg: p.Msg})
		}
		run.Embeddings = append(run.Embeddings, res.Embeddings...)
		records := len(res.Embeddings)
		for _, ex := range res.Exceptions {
			l := exceptions[ex.Tag]
			if l == nil {
				l = &series.List[model.ExceptionEntry]{}
				exceptions[ex.Tag], source[ex.Tag] = l, ex.Source
			}
			for _, e := range ex.Entries {
				l.Add(e.Step, e, rr.noRule)
			}
			records += len(ex.Entries)
		}
		if sf.Kind == discover.TSVISProjector {
			continue // listed in Files, with the event reader's status
		}
		f := model.File{Rel: sf.Rel, Size: sf.Size, Records: records, Status: "ok"}
		switch {
		case sf.Size == 0:
			f.Status = "empty"
		case res.Damaged:
			f.Status = "damaged"
		}
		run.SideFiles = append(run.SideFiles, f)
	}
	slices.SortStableFunc(run.Embeddings, func(a, b *model.Embedding) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Step, b.Step))
	})
	for _, tag := range slices.Sorted(maps.Keys(exceptions)) {
		l := exceptions[tag]
		run.Exceptions = append(run.Exceptions, &model.Exception{Tag: tag, Source: source[tag], Entries: l.Items, Dropped: l.Dropped})
		run.Restarts += l.Dropped
	}
}
