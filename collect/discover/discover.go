// Package discover finds the event files under a log directory and groups
// them into runs, by the naming rules of docs/FORMATS.md section 1, together with
// the side files read beside them (projector configs, OneFlow projector
// files).
package discover

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/visdom"
)

// Kind says what a discovered file is.
type Kind int

const (
	// Events is an event file to read.
	Events Kind = iota
	// Empty is a zero-byte event file: a run file nothing was written to.
	Empty
	// ProfileEmpty is the marker a profiler run leaves; it holds no summaries.
	ProfileEmpty
	// MindSpore is a MindSpore summary file (docs/FORMATS.md section 21):
	// the same record framing, MindSpore's own Event messages. A MindSpore
	// file of zero bytes keeps its kind, so that its format is known.
	MindSpore
	// MindSporeLineage is the lineage file a MindSpore SummaryCollector
	// writes beside its summary file: LineageEvent messages.
	MindSporeLineage
)

func (k Kind) String() string {
	switch k {
	case Events:
		return "events"
	case Empty:
		return "empty"
	case ProfileEmpty:
		return "profile-empty"
	case MindSpore:
		return "mindspore"
	case MindSporeLineage:
		return "mindspore-lineage"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// File is one event file.
type File struct {
	Rel  string // slash-separated path relative to the log directory
	Size int64
	Kind Kind
}

// Run is a directory holding event files, with its files in the order they
// are read: by name, which orders a writer's files by their timestamp.
type Run struct {
	Path  string // slash-separated path relative to the log directory, "." for the directory itself
	Files []File
	// Side holds the files of the run that are read beside its event files,
	// sorted by Rel. A run may have side files and no event file at all
	// (PyTorch writes projector_config.pbtxt at the log directory's root).
	Side []SideFile
}

// SideKind says what a side file is.
type SideKind int

const (
	// ProjectorConfig is a projector_config.pbtxt, in the run directory or
	// in its plugins/org_tensorflow_tensorboard_projector/ directory.
	ProjectorConfig SideKind = iota + 1
	// OneFlowEmbeddings is a OneFlow embedding projector file:
	// <run>/projector/projector.<sec>.log (older OneFlow:
	// <run>/projector.<time>.v2).
	OneFlowEmbeddings
	// OneFlowExceptions is a OneFlow exception projector file:
	// <run>/projector/projector.gradit.<sec>.log (older OneFlow:
	// <run>/projector.gradient.<time>.v2).
	OneFlowExceptions
	// TSVISProjector is a TS-VIS projector.events.out.* file. It is an
	// event file as well, and is listed in the run's Files too: the side
	// reader takes its projector values, which Summary.Value field 7 holds.
	TSVISProjector
	// VisdomEnv is a saved Visdom environment, <env>.json, told from
	// other JSON by its first key (docs/FORMATS.md section 21). It is a
	// run of its own: <dir>/<env>.
	VisdomEnv
	// VisdomLog is a Visdom client replay log (log_to_filename), told by
	// its first line; a run of its own, named by the file without ".log".
	VisdomLog
)

func (k SideKind) String() string {
	switch k {
	case ProjectorConfig:
		return "projector-config"
	case OneFlowEmbeddings:
		return "oneflow-embeddings"
	case OneFlowExceptions:
		return "oneflow-exceptions"
	case TSVISProjector:
		return "tsvis-projector"
	case VisdomEnv:
		return "visdom-env"
	case VisdomLog:
		return "visdom-log"
	}
	return fmt.Sprintf("SideKind(%d)", int(k))
}

// SideFile is a file of a run that is not an event file, or not only one.
type SideFile struct {
	Rel  string // slash-separated path relative to the log directory
	Size int64
	Kind SideKind
}

// projectorAssets is where TensorBoard's projector plugin also looks for
// projector_config.pbtxt, below the run directory.
const projectorAssets = "plugins/org_tensorflow_tensorboard_projector"

// SideFileOf reports whether a file named name in dir (slash-separated,
// relative to the log directory) is a side file, of which kind, and the
// directory of the run it belongs to.
func SideFileOf(dir, name string) (kind SideKind, run string, ok bool) {
	switch {
	case name == "projector_config.pbtxt":
		if strings.HasSuffix("/"+dir, "/"+projectorAssets) {
			return ProjectorConfig, path.Clean(strings.TrimSuffix(dir, projectorAssets)), true
		}
		return ProjectorConfig, dir, true
	case strings.HasPrefix(name, "projector.events.out."):
		if IsEventFile(dir, name) {
			return TSVISProjector, dir, true
		}
	case path.Base(dir) == "projector" && oneFlowName(name, "projector.gradit.", ".log", false):
		return OneFlowExceptions, path.Dir(dir), true
	case path.Base(dir) == "projector" && oneFlowName(name, "projector.", ".log", false):
		return OneFlowEmbeddings, path.Dir(dir), true
	case oneFlowName(name, "projector.gradient.", ".v2", true):
		return OneFlowExceptions, dir, true
	case oneFlowName(name, "projector.", ".v2", true):
		return OneFlowEmbeddings, dir, true
	}
	return 0, "", false
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

// IsEventFile reports whether a file's base name marks it as an event file:
// TensorBoard's "tfevents" infix, the TS-VIS names ("events.out.<time>.<host>",
// with "hparams." or "projector." in front), or a OneFlow "event.<sec>.log"
// inside an "event" directory.
func IsEventFile(dir, name string) bool {
	switch {
	case strings.Contains(name, "tfevents"):
		return true
	case strings.HasPrefix(name, "events.out."), strings.Contains(name, ".events.out."):
		return !strings.Contains(name, ".summary.") // MindSpore streams are another format
	case path.Base(dir) == "event" && strings.HasPrefix(name, "event.") && strings.HasSuffix(name, ".log"):
		return true
	}
	return false
}

// runDir returns the run directory of an event file in dir: OneFlow keeps
// its later files in "<run>/event/".
func runDir(dir, name string) string {
	if path.Base(dir) == "event" && strings.HasPrefix(name, "event.") {
		return path.Dir(dir)
	}
	return dir
}

// Discover walks the log directory dir and returns its runs sorted by
// path: the directories holding event files or side files. What is not a
// regular file or a directory (links, FIFOs, devices) and directories that
// cannot be read are skipped and reported through warn.
func Discover(ctx context.Context, dir *logfs.Dir, warn func(name string, err error)) ([]Run, error) {
	runs := map[string]*Run{}
	err := dir.Walk(func(rel string, size int64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		d, name := path.Dir(rel), path.Base(rel)
		if kind, run, ok := SideFileOf(d, name); ok {
			runOf(runs, run).Side = append(runOf(runs, run).Side, SideFile{Rel: rel, Size: size, Kind: kind})
		}
		if IsEventFile(d, name) || isMindSpore(name) {
			addEvents(runs, rel, size)
		} else if kind, ok := visdomFile(dir, rel, size); ok {
			addVisdom(runs, rel, size, kind)
		}
		return nil
	}, warn)
	if err != nil {
		return nil, err
	}
	return sorted(runs), nil
}

// Single returns the one run of a log directory given as one event file,
// name, in the directory dir.
func Single(dir *logfs.Dir, name string) ([]Run, error) {
	fi, err := dir.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", name, logfs.ErrNotRegular)
	}
	runs := map[string]*Run{}
	if kind, ok := visdomFile(dir, name, fi.Size()); ok && !IsEventFile(path.Dir(name), path.Base(name)) {
		addVisdom(runs, name, fi.Size(), kind)
	} else {
		addEvents(runs, name, fi.Size())
	}
	return sorted(runs), nil
}

// visdomFile reports whether the file rel is a Visdom file, by its name
// (".json" or ".log") and its first bytes, and of which kind.
func visdomFile(dir *logfs.Dir, rel string, size int64) (SideKind, bool) {
	ext := path.Ext(rel)
	if ext != ".json" && ext != ".log" || size == 0 {
		return 0, false
	}
	head, err := dir.ReadAt(rel, 0, min(size, visdom.SniffBytes))
	if err != nil {
		return 0, false
	}
	switch k := visdom.Sniff(head); {
	case k == visdom.EnvFile && ext == ".json":
		return VisdomEnv, true
	case k == visdom.LogFile:
		return VisdomLog, true
	}
	return 0, false
}

// addVisdom adds the Visdom file rel as a run of its own, named by the
// file without its extension.
func addVisdom(runs map[string]*Run, rel string, size int64, kind SideKind) {
	name := strings.TrimSuffix(rel, path.Ext(rel))
	if path.Base(rel) == path.Ext(rel) { // ".json": no name without it
		name = rel
	}
	r := runOf(runs, name)
	r.Side = append(r.Side, SideFile{Rel: rel, Size: size, Kind: kind})
}

func runOf(runs map[string]*Run, dir string) *Run {
	r := runs[dir]
	if r == nil {
		r = &Run{Path: dir}
		runs[dir] = r
	}
	return r
}

// addEvents adds the event file rel to its run.
func addEvents(runs map[string]*Run, rel string, size int64) {
	dir, name := path.Dir(rel), path.Base(rel)
	f := File{Rel: rel, Size: size, Kind: Events}
	switch {
	case isMindSpore(name):
		f.Kind = MindSpore
		if strings.HasSuffix(name, mindSporeLineage) {
			f.Kind = MindSporeLineage
		}
	case strings.HasSuffix(name, ".profile-empty"):
		f.Kind = ProfileEmpty
	case size == 0:
		f.Kind = Empty
	}
	r := runOf(runs, runDir(dir, name))
	r.Files = append(r.Files, f)
}

// sorted returns the runs by path, each with its files in reading order.
func sorted(byDir map[string]*Run) []Run {
	runs := make([]Run, 0, len(byDir))
	for _, r := range byDir {
		slices.SortFunc(r.Files, func(a, b File) int { return strings.Compare(path.Base(a.Rel), path.Base(b.Rel)) })
		slices.SortFunc(r.Side, func(a, b SideFile) int { return strings.Compare(a.Rel, b.Rel) })
		runs = append(runs, *r)
	}
	slices.SortFunc(runs, func(a, b Run) int { return strings.Compare(a.Path, b.Path) })
	return runs
}

// readBeside are the files collection reads beside a run's event files by
// their name alone (Lightning's hyperparameters, OneFlow's structure
// graph), besides the side files SideFileOf names.
var readBeside = []string{"hparams.yaml", "structure_graph.json"}

// IsInput reports whether the file rel (slash-separated, relative to a log
// directory) is one that collection reads by its name: an event file, a
// side file, or a file read beside them. Files that a projector config
// names are not known until it is read.
func IsInput(rel string) bool {
	dir, name := path.Dir(rel), path.Base(rel)
	if _, _, ok := SideFileOf(dir, name); ok {
		return true
	}
	return IsEventFile(dir, name) || isMindSpore(name) || slices.Contains(readBeside, name)
}

// The markers of MindSpore's file names: SummaryRecord names its files
// <prefix>.out.events.summary.<seconds>[.<device>].<host><suffix>, the
// suffix "_MS" by default, "_lineage" for the lineage stream and
// "_explain" for the explainer's, which we do not read.
const (
	mindSporeMark    = ".summary."
	mindSporeLineage = "_lineage"
	mindSporeExplain = "_explain"
)

// isMindSpore reports whether a file's base name is that of a MindSpore
// summary or lineage file: MindInsight's rule, "summary." and the digits
// of a timestamp, behind the "events" of SummaryRecord's names (so that
// a user's summary.1.csv is not taken for one). Explainer files are not.
func isMindSpore(name string) bool {
	i := strings.Index(name, ".events"+mindSporeMark)
	if i < 0 || strings.HasSuffix(name, mindSporeExplain) {
		return false
	}
	rest := name[i+len(".events"+mindSporeMark):]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return n > 0 && n < len(rest) && rest[n] == '.'
}
