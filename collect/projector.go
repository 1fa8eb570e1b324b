package collect

import (
	"cmp"
	"maps"
	"path"
	"slices"
	"strings"

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
		case kindProjectorConfig:
			res = projector.ReadConfig(root, sf.Rel)
		case kindOneFlowEmbeddings, kindOneFlowExceptions:
			res = projector.ReadOneFlow(root, sf.Rel, sf.Kind == kindOneFlowExceptions)
		case kindTSVISProjector:
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
		if sf.Kind == kindTSVISProjector {
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

// The kinds of the projector's files (docs/FORMATS.md sections 16 and 17),
// each read whole.
const (
	// kindProjectorConfig is a projector_config.pbtxt, in the run
	// directory or in its plugins/org_tensorflow_tensorboard_projector/
	// directory.
	kindProjectorConfig discover.Kind = "projector-config"
	// kindOneFlowEmbeddings is a OneFlow embedding projector file:
	// <run>/projector/projector.<sec>.log (older OneFlow:
	// <run>/projector.<time>.v2).
	kindOneFlowEmbeddings discover.Kind = "oneflow-embeddings"
	// kindOneFlowExceptions is a OneFlow exception projector file:
	// <run>/projector/projector.gradit.<sec>.log (older OneFlow:
	// <run>/projector.gradient.<time>.v2).
	kindOneFlowExceptions discover.Kind = "oneflow-exceptions"
	// kindTSVISProjector is a TS-VIS projector.events.out.* file. It is an
	// event file as well, a record file of the run too: the projector
	// reads its projector values, which Summary.Value field 7 holds.
	kindTSVISProjector discover.Kind = "tsvis-projector"
)

// projectorAssets is where TensorBoard's projector plugin also looks for
// projector_config.pbtxt, below the run directory.
const projectorAssets = "plugins/org_tensorflow_tensorboard_projector"

// projectorConfigFile takes a projector config into its run.
func projectorConfigFile(c discover.Candidate) (run string, ok bool) {
	if c.Name != "projector_config.pbtxt" {
		return "", false
	}
	if strings.HasSuffix("/"+c.Dir, "/"+projectorAssets) {
		return path.Clean(strings.TrimSuffix(c.Dir, projectorAssets)), true
	}
	return c.Dir, true
}

// tsvisProjectorFile takes a TS-VIS projector event file into its run.
func tsvisProjectorFile(c discover.Candidate) (run string, ok bool) {
	if !strings.HasPrefix(c.Name, "projector.events.out.") || !isEventFile(c.Dir, c.Name) {
		return "", false
	}
	return c.Dir, true
}

// oneFlowExceptionsFile takes a OneFlow exception projector file into its
// run.
func oneFlowExceptionsFile(c discover.Candidate) (run string, ok bool) {
	return oneFlowProjectorFile(c, "projector.gradit.", "projector.gradient.")
}

// oneFlowEmbeddingsFile takes a OneFlow embedding projector file into its
// run.
func oneFlowEmbeddingsFile(c discover.Candidate) (run string, ok bool) {
	return oneFlowProjectorFile(c, "projector.", "projector.")
}

// oneFlowProjectorFile takes a OneFlow projector file named prefix<sec>.log
// in a projector/ directory, into the run above it, or older OneFlow's
// v2prefix<time>.v2, into its directory's run.
func oneFlowProjectorFile(c discover.Candidate, prefix, v2prefix string) (run string, ok bool) {
	switch {
	case path.Base(c.Dir) == "projector" && oneFlowName(c.Name, prefix, ".log", false):
		return path.Dir(c.Dir), true
	case oneFlowName(c.Name, v2prefix, ".v2", true):
		return c.Dir, true
	}
	return "", false
}

// oneFlowName reports whether name is prefix, a time in seconds, and
// suffix; frac allows a fractional part (Python's time.time()).
func oneFlowName(name, prefix, suffix string, frac bool) bool {
	t, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return false
	}
	if t, ok = strings.CutSuffix(t, suffix); !ok {
		return false
	}
	if frac {
		if i, f, cut := strings.Cut(t, "."); cut {
			return digits(i) && digits(f)
		}
	}
	return digits(t)
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
