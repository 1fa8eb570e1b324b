// Package discover finds the event files under a log directory and groups
// them into runs, by the naming rules of FORMATS.md section 2, together with
// the side files read beside them (projector configs, OneFlow projector
// files).
package discover

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
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
)

func (k Kind) String() string {
	switch k {
	case Events:
		return "events"
	case Empty:
		return "empty"
	case ProfileEmpty:
		return "profile-empty"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// File is one event file.
type File struct {
	Path string // path on disk
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
	}
	return fmt.Sprintf("SideKind(%d)", int(k))
}

// SideFile is a file of a run that is not an event file, or not only one.
type SideFile struct {
	Path string // path on disk
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

// Discover walks root and returns its runs sorted by path: the directories
// holding event files or side files. A root that is itself an event file is
// one run of that file. Directories that cannot be read are skipped and
// reported through warn.
func Discover(ctx context.Context, root string, warn func(path string, err error)) ([]Run, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	byDir := map[string]*Run{}
	runOf := func(dir string) *Run {
		r := byDir[dir]
		if r == nil {
			r = &Run{Path: dir}
			byDir[dir] = r
		}
		return r
	}
	add := func(rel string, d fs.DirEntry, p string) error {
		info, err := d.Info()
		if err != nil {
			warn(p, err)
			return nil
		}
		dir, name := path.Split(rel)
		dir = path.Clean("./" + dir)
		f := File{Path: p, Rel: rel, Size: info.Size(), Kind: Events}
		switch {
		case strings.HasSuffix(name, ".profile-empty"):
			f.Kind = ProfileEmpty
		case info.Size() == 0:
			f.Kind = Empty
		}
		r := runOf(runDir(dir, name))
		r.Files = append(r.Files, f)
		return nil
	}
	addSide := func(rel string, d fs.DirEntry, p string, kind SideKind, run string) {
		info, err := d.Info()
		if err != nil {
			warn(p, err)
			return
		}
		r := runOf(run)
		r.Side = append(r.Side, SideFile{Path: p, Rel: rel, Size: info.Size(), Kind: kind})
	}
	if !info.IsDir() {
		if err := add(filepath.Base(root), fs.FileInfoToDirEntry(info), root); err != nil {
			return nil, err
		}
	} else {
		err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == root {
					return err
				}
				warn(p, err)
				return nil
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if !d.Type().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			dir, name := path.Dir(rel), path.Base(rel)
			if kind, run, ok := SideFileOf(dir, name); ok {
				addSide(rel, d, p, kind, run)
			}
			if !IsEventFile(dir, name) {
				return nil
			}
			return add(rel, d, p)
		})
		if err != nil {
			return nil, err
		}
	}
	runs := make([]Run, 0, len(byDir))
	for _, r := range byDir {
		slices.SortFunc(r.Files, func(a, b File) int { return strings.Compare(path.Base(a.Rel), path.Base(b.Rel)) })
		slices.SortFunc(r.Side, func(a, b SideFile) int { return strings.Compare(a.Rel, b.Rel) })
		runs = append(runs, *r)
	}
	slices.SortFunc(runs, func(a, b Run) int { return strings.Compare(a.Path, b.Path) })
	return runs, nil
}
