package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
)

// maxSkippedListed bounds the files the overview names among those skipped
// or read in part: a sweep of stubs could have thousands. The count is
// always whole.
const maxSkippedListed = 50

// skippedStatuses are the file statuses of files skipped or read in part,
// in the order the overview and the CLI count them; fileStatusHelp says
// why each is.
var skippedStatuses = []string{"empty", "profile-empty", "lfs-pointer", "truncated", "damaged"}

// notReadStatus is the status given to what discovery refused to open (a
// link, a FIFO, a device): a warning of the log directory rather than a
// file of a run.
const notReadStatus = "not read"

// skippedFile is one file skipped or read in part, with why.
type skippedFile struct {
	Path, Status, Why string
}

// skippedGroup is the skipped files of one run ("" for the log
// directories' own refusals) that the overview names.
type skippedGroup struct {
	Run   string
	Files []skippedFile
}

// skippedList lists the files of the report that were skipped or read only
// in part, per run, the first maxSkippedListed of them named.
type skippedList struct {
	Groups []skippedGroup
	// Total counts every such file; Counts splits it by status, in the
	// order of skippedStatuses, then the refusals.
	Total  int
	Counts []statusCount
	// More is how many of Total the groups leave out.
	More int
	// ByStatus is Counts as text: "3 empty, 1 truncated".
	ByStatus string
	// Bad is set when a file lost data or was not read (truncated,
	// damaged, an LFS stub, refused), beyond empty files and profiler
	// markers, which hold nothing to lose.
	Bad bool
}

// statusCount is how many files have a status.
type statusCount struct {
	Status string
	N      int
}

// byStatus says how many files were skipped, by status: "3 empty, 1
// truncated". It is "" when none were.
func (s skippedList) byStatus() string {
	var parts []string
	for _, c := range s.Counts {
		parts = append(parts, fmt.Sprintf("%d %s", c.N, c.Status))
	}
	return strings.Join(parts, ", ")
}

// skippedFiles returns the files of rep skipped or read in part: every file of
// a run (event file or side file) whose status is not "ok", and every entry the log directories
// refused to read (links, FIFOs, devices: warnings of the report that name
// a path below a log directory). It reads the model only, so the overview,
// summary.md and the CLI's closing message say the same.
func skippedFiles(rep *model.Report) skippedList {
	var s skippedList
	counts := map[string]int{}
	add := func(run string, f skippedFile) {
		s.Total++
		counts[f.Status]++
		s.Bad = s.Bad || f.Status != "empty" && f.Status != "profile-empty"
		if s.Total > maxSkippedListed {
			s.More++
			return
		}
		if n := len(s.Groups); n == 0 || s.Groups[n-1].Run != run {
			s.Groups = append(s.Groups, skippedGroup{Run: run})
		}
		g := &s.Groups[len(s.Groups)-1]
		g.Files = append(g.Files, f)
	}
	logdirs := map[string]bool{}
	for _, l := range rep.Logdirs {
		logdirs[l.Path] = true
	}
	for _, w := range rep.Warnings {
		// A warning of the report names a log directory (nothing found in
		// it) or an entry below one that discovery did not read.
		if !logdirs[w.File] {
			add("", skippedFile{Path: w.File, Status: notReadStatus, Why: w.Msg})
		}
	}
	for _, run := range rep.Runs {
		// The side files (projector configs and files) after the event
		// files: an empty or damaged one loses embeddings.
		for _, f := range slices.Concat(run.Files, run.SideFiles) {
			if f.Status == "ok" {
				continue
			}
			add(run.Name, skippedFile{Path: f.Rel, Status: f.Status, Why: fileWhy(run, f)})
		}
	}
	for _, st := range append(slices.Clone(skippedStatuses), notReadStatus) {
		if n := counts[st]; n > 0 {
			s.Counts = append(s.Counts, statusCount{st, n})
			delete(counts, st)
		}
	}
	for _, st := range slices.Sorted(maps.Keys(counts)) { // a status of a newer collect
		s.Counts = append(s.Counts, statusCount{st, counts[st]})
	}
	s.ByStatus = s.byStatus()
	return s
}

// fileWhy says why a file was skipped or read in part: its first warning,
// which says where and what, else what its status means.
func fileWhy(run *model.Run, f model.File) string {
	for _, w := range run.Warnings {
		if w.File == f.Rel {
			if w.Offset >= 0 {
				return fmt.Sprintf("offset %d: %s", w.Offset, w.Msg)
			}
			return w.Msg
		}
	}
	if h, ok := fileStatusHelp[f.Status]; ok {
		return h
	}
	return f.Status
}

// SkippedFiles returns how many files of the report were skipped or read
// only in part (empty, profiler markers, Git LFS stubs, truncated, damaged,
// refused by the log directory) and how many of each, as "3 empty, 1
// truncated"; the overview names them.
func (r *Report) SkippedFiles() (n int, byStatus string) {
	s := skippedFiles(r.rep)
	return s.Total, s.ByStatus
}
