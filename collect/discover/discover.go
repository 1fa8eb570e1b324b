// Package discover finds the files of a log directory that collection
// reads and groups them into runs, by rules it is given: it knows no
// format. Each format's rules are part of its entry in collection's reader
// table (collect/readers.go), which passes them all as one Rules; the
// naming rules themselves are docs/FORMATS.md section 1.
package discover

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/logfs"
)

// Kind names what a discovered file is: the Kind of the rule that found
// it ("events", "projector-config", ...).
type Kind string

// File is one record file: a file of TFRecord-framed records, read in its
// run's one stream of records.
type File struct {
	Rel  string // slash-separated path relative to the log directory
	Size int64
	Kind Kind
}

// SideFile is a file of a run that is read whole, beside its record files.
type SideFile struct {
	Rel  string // slash-separated path relative to the log directory
	Size int64
	Kind Kind
}

// Run is a directory holding files collection reads, with its record files
// in the order they are read: by name, which orders a writer's files by
// their timestamp.
type Run struct {
	Path  string // slash-separated path relative to the log directory, "." for the directory itself
	Files []File
	// Side holds the files of the run that are read whole, sorted by Rel.
	// A run may have side files and no record file at all (PyTorch writes
	// projector_config.pbtxt at the log directory's root).
	Side []SideFile
}

// A Candidate is a file as the rules see it.
type Candidate struct {
	Rel  string // slash-separated path relative to the log directory
	Dir  string // path.Dir(Rel): "." at the log directory's root
	Name string // path.Base(Rel)
	// Size is the file's size in bytes, or -1 where it is not known
	// (IsInput).
	Size int64
	// Alone is set when the file is the log directory itself, given as one
	// file, and no rule took it by its name and first bytes (Single): a
	// rule for the format such a file is read as takes it then whatever
	// its name.
	Alone bool
}

// A Rule recognises the files of one kind.
type Rule struct {
	// Kind is what the rule's files are: their File.Kind or SideFile.Kind.
	Kind Kind
	// Side says the kind's files are read whole (Run.Side), not record
	// files (Run.Files).
	Side bool
	// Match reports whether the file is of the kind, by its path and
	// size, and the directory of the run it belongs to: its directory, one
	// above it, or (a file that is a run of its own) its path without
	// extension.
	Match func(c Candidate) (run string, ok bool)
	// Sniff, when not nil, tells the kind's files by their first bytes
	// too: up to SniffBytes of them, read only of the files Match took
	// that no record rule took by their name.
	Sniff      func(head []byte) bool
	SniffBytes int64
}

// Rules are the rules of every kind of file collection reads, tried in
// their order: the first side rule that takes a file by its name makes it
// a side file; the first record rule, a record file (a file may be both: a
// TS-VIS projector event file); a file no record rule took is offered to
// the rules that sniff, the first that takes it deciding.
type Rules struct {
	Rules []Rule
	// Beside are the paths, relative to a run's directory, of the files
	// read beside its files by their name alone (Lightning's
	// hparams.yaml), which no rule lists.
	Beside []string
}

// Discover walks the log directory dir and returns its runs sorted by
// path: the directories holding record files or side files. What is not
// a regular file or a directory (links, FIFOs, devices) and directories
// that cannot be read are skipped and reported through warn.
func (rs Rules) Discover(ctx context.Context, dir *logfs.Dir, warn func(name string, err error)) ([]Run, error) {
	side, records, sniffed := rs.split()
	runs := map[string]*Run{}
	err := dir.Walk(func(rel string, size int64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		c := Candidate{Rel: rel, Dir: path.Dir(rel), Name: path.Base(rel), Size: size}
		if r, run, ok := first(side, c); ok {
			add(runs, run, r, c)
		}
		if r, run, ok := first(records, c); ok {
			add(runs, run, r, c)
		} else if r, run, ok := sniff(dir, sniffed, c); ok {
			add(runs, run, r, c)
		}
		return nil
	}, warn)
	if err != nil {
		return nil, err
	}
	return sorted(runs), nil
}

// Single returns the one run of a log directory given as one file, name,
// in the directory dir: a record file if a record rule takes it by its
// name, else what a rule that sniffs takes it for, else a record file of
// the first record rule that takes it alone (Candidate.Alone). Side rules
// by name do not apply: a file alone is not read beside anything.
func (rs Rules) Single(dir *logfs.Dir, name string) ([]Run, error) {
	fi, err := dir.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", name, logfs.ErrNotRegular)
	}
	_, records, sniffed := rs.split()
	c := Candidate{Rel: name, Dir: path.Dir(name), Name: path.Base(name), Size: fi.Size()}
	r, run, ok := first(records, c)
	if !ok {
		r, run, ok = sniff(dir, sniffed, c)
	}
	if !ok {
		c.Alone = true
		r, run, ok = first(records, c)
	}
	if !ok {
		return nil, fmt.Errorf("%s: not a file of any format read", name)
	}
	runs := map[string]*Run{}
	add(runs, run, r, c)
	return sorted(runs), nil
}

// IsInput reports whether the file rel (slash-separated, relative to a log
// directory) is one that collection reads by its name: a record file, a
// side file, or a file read beside them. Files told by their first bytes
// (Visdom's) are not, nor files that a projector config names, which are
// not known until it is read.
func (rs Rules) IsInput(rel string) bool {
	c := Candidate{Rel: rel, Dir: path.Dir(rel), Name: path.Base(rel), Size: -1}
	for _, r := range rs.Rules {
		if r.Sniff != nil {
			continue
		}
		if _, ok := r.Match(c); ok {
			return true
		}
	}
	for _, b := range rs.Beside {
		if path.Base(b) == c.Name {
			return true
		}
	}
	return false
}

// split returns the rules by how they take a file, each in their order.
func (rs Rules) split() (side, records, sniffed []Rule) {
	for _, r := range rs.Rules {
		switch {
		case r.Sniff != nil:
			sniffed = append(sniffed, r)
		case r.Side:
			side = append(side, r)
		default:
			records = append(records, r)
		}
	}
	return side, records, sniffed
}

// first returns the first of rules that takes c, and the run it puts c in.
func first(rules []Rule, c Candidate) (Rule, string, bool) {
	for _, r := range rules {
		if run, ok := r.Match(c); ok {
			return r, run, true
		}
	}
	return Rule{}, "", false
}

// sniff returns the first of rules that takes c by its name and its first
// bytes, which it reads once, at most the most any of them needs; a file
// that cannot be read is taken by none.
func sniff(dir *logfs.Dir, rules []Rule, c Candidate) (Rule, string, bool) {
	var head []byte
	read := false
	for _, r := range rules {
		run, ok := r.Match(c)
		if !ok {
			continue
		}
		if !read {
			var n int64
			for _, r := range rules {
				n = max(n, r.SniffBytes)
			}
			var err error
			if head, err = dir.ReadAt(c.Rel, 0, min(c.Size, n)); err != nil {
				return Rule{}, "", false
			}
			read = true
		}
		if r.Sniff(head[:min(int64(len(head)), r.SniffBytes)]) {
			return r, run, true
		}
	}
	return Rule{}, "", false
}

// add adds the file c, which the rule r took, to the run named run.
func add(runs map[string]*Run, run string, r Rule, c Candidate) {
	ru := runs[run]
	if ru == nil {
		ru = &Run{Path: run}
		runs[run] = ru
	}
	if r.Side {
		ru.Side = append(ru.Side, SideFile{Rel: c.Rel, Size: c.Size, Kind: r.Kind})
	} else {
		ru.Files = append(ru.Files, File{Rel: c.Rel, Size: c.Size, Kind: r.Kind})
	}
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
