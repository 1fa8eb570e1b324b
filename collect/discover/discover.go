// Package discover finds the event files under a log directory and groups
// them into runs, by the naming rules of FORMATS.md section 2.
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

// Discover walks root and returns its runs sorted by path. A root that is
// itself an event file is one run of that file. Directories that cannot be
// read are skipped and reported through warn.
func Discover(ctx context.Context, root string, warn func(path string, err error)) ([]Run, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	byDir := map[string]*Run{}
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
		rd := runDir(dir, name)
		r := byDir[rd]
		if r == nil {
			r = &Run{Path: rd}
			byDir[rd] = r
		}
		r.Files = append(r.Files, f)
		return nil
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
			if !IsEventFile(path.Dir(rel), path.Base(rel)) {
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
		runs = append(runs, *r)
	}
	slices.SortFunc(runs, func(a, b Run) int { return strings.Compare(a.Path, b.Path) })
	return runs, nil
}
