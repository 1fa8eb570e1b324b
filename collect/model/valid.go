package model

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"reflect"
	"slices"
)

// CheckValid reports what a well-formed model must hold and this one does
// not: log directories of unique names; runs of unique names in natural
// order (CompareRunNames), each of a log directory of the report; a run's
// files in reading order, its tags sorted and unique, and its series
// sorted by tag, each described by its tag with the right kind, count and
// bounds; steps increasing within a series (after the restart rule, unless
// KeepAllRecords or TensorBoard's rule); the run's attempts agreeing with
// its series' points; entries of
// consistent shapes; payload references inside the run's log directory;
// and hyperparameter metrics naming runs of the report. Collect, Merge and
// Read make only models that pass; it returns the first problems found.
func (r *Report) CheckValid() error {
	v := validator{rep: r}
	v.check()
	return errors.Join(v.errs...)
}

// maxProblems bounds the problems CheckValid lists.
const maxProblems = 20

type validator struct {
	rep   *Report
	errs  []error
	where string // the run being checked
	// alone: a run checked on its own (CheckRun), its references to
	// other runs left to JoinHParamMetrics, which rewrites them.
	alone bool
}

// CheckRun checks run as CheckValid checks each run of r, r giving the
// log directories and the collection's rules (run need not be one of
// r.Runs): a run read alone (RunReader), checked before it is used. Its
// hyperparameter sessions' references to other runs are not checked:
// JoinHParamMetrics, which a merge runs over every run, rewrites them.
func (r *Report) CheckRun(run *Run) error {
	head := &Report{Logdirs: r.Logdirs, KeepAllRecords: r.KeepAllRecords, RestartRule: r.RestartRule}
	v := validator{rep: head, alone: true}
	v.check()
	if run == nil {
		v.fail("a nil run")
		return errors.Join(v.errs...)
	}
	if !slices.ContainsFunc(r.Logdirs, func(l Logdir) bool { return l.Name == run.Logdir }) {
		v.fail("run %q is of log directory %q, which the report does not list", run.Name, run.Logdir)
	}
	v.where = run.Name
	v.run(run, nil)
	return errors.Join(v.errs...)
}

func (v *validator) fail(format string, args ...any) {
	if len(v.errs) == maxProblems {
		v.errs = append(v.errs, errors.New("more problems not listed"))
	}
	if len(v.errs) > maxProblems {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if v.where != "" {
		msg = fmt.Sprintf("run %q: %s", v.where, msg)
	}
	v.errs = append(v.errs, errors.New(msg))
}

var fileStatuses = []string{"ok", "empty", "profile-empty", "truncated", "damaged", "lfs-pointer"}

var fileFormats = []string{"", FormatMindSpore, FormatMindSporeLineage}

var kinds = []Kind{KindScalar, KindHistogram, KindImage, KindAudio, KindText, KindPRCurve, KindHParams,
	KindCustomScalars, KindGraph, KindMesh, KindTensor, KindVisdom, KindOther}

func (v *validator) check() {
	if v.rep.KeepAllRecords && v.rep.RestartRule != "" || v.rep.RestartRule != "" && !slices.Contains(restartRules, v.rep.RestartRule) {
		v.fail("restart rule %q with KeepAllRecords %v", v.rep.RestartRule, v.rep.KeepAllRecords)
	}
	logdirs := map[string]bool{}
	for _, ld := range v.rep.Logdirs {
		if logdirs[ld.Name] {
			v.fail("two log directories named %q", ld.Name)
		}
		logdirs[ld.Name] = true
	}
	runs := map[string]bool{}
	for i, r := range v.rep.Runs {
		if r == nil {
			v.fail("run %d is nil", i)
			continue
		}
		if i > 0 && v.rep.Runs[i-1] != nil && CompareRunNames(v.rep.Runs[i-1].Name, r.Name) >= 0 {
			v.fail("runs %q and %q out of order or repeated", v.rep.Runs[i-1].Name, r.Name)
		}
		runs[r.Name] = true
		if !logdirs[r.Logdir] {
			v.fail("run %q is of log directory %q, which the report does not list", r.Name, r.Logdir)
		}
	}
	for _, r := range v.rep.Runs {
		if r != nil {
			v.where = r.Name
			v.run(r, runs)
			v.where = ""
		}
	}
}

func (v *validator) run(r *Run, runs map[string]bool) {
	if hasNil(v, "scalars", r.Scalars) || hasNil(v, "histograms", r.Histograms) || hasNil(v, "images", r.Images) ||
		hasNil(v, "audio", r.Audio) || hasNil(v, "texts", r.Texts) || hasNil(v, "PR curves", r.PRCurves) ||
		hasNil(v, "tensors", r.Tensors) || hasNil(v, "meshes", r.Meshes) || hasNil(v, "graphs", r.Graphs) ||
		hasNil(v, "embeddings", r.Embeddings) || hasNil(v, "exceptions", r.Exceptions) ||
		r.HParams != nil && hasNil(v, "hparams sessions", r.HParams.Sessions) {
		return // the rest of the checks read every element
	}
	if r.Path != "." && !fs.ValidPath(r.Path) {
		v.fail("path %q is not a slash-separated path inside its log directory", r.Path)
	}
	for i, f := range r.Files {
		if !slices.Contains(fileStatuses, f.Status) {
			v.fail("file %q has status %q", f.Rel, f.Status)
		}
		if !slices.Contains(fileFormats, f.Format) {
			v.fail("file %q has format %q", f.Rel, f.Format)
		}
		if i > 0 && path.Base(r.Files[i-1].Rel) > path.Base(f.Rel) {
			v.fail("files %q and %q out of reading order", r.Files[i-1].Rel, f.Rel)
		}
	}
	sortedBy(v, "side files", r.SideFiles, func(f File) string { return f.Rel })
	if r.HasEvents {
		if r.FirstStep > r.LastStep || r.Start > r.End {
			v.fail("bounds: steps %d..%d, wall time %v..%v", r.FirstStep, r.LastStep, r.Start, r.End)
		}
	} else if r.FirstStep != 0 || r.LastStep != 0 || r.Start != 0 || r.End != 0 {
		v.fail("bounds without events")
	}

	tags := map[string]TagInfo{}
	sortedBy(v, "tags", r.Tags, func(t TagInfo) string { return t.Tag })
	for _, t := range r.Tags {
		tags[t.Tag] = t
		if !slices.Contains(kinds, t.Kind) {
			v.fail("tag %q of kind %q", t.Tag, t.Kind)
		}
	}
	dropped := 0
	// series checks a series of n values (entries, of which written(i)
	// says who wrote each; nil for scalars, whose superseded points are
	// apart) against its tag: the line (the entries not superseded) is
	// what the tag counts and bounds, in increasing step order under the
	// rules that keep one, and no entry follows a superseded one of a
	// later step.
	series := func(kind Kind, tag string, n, d int, step func(i int) int64, wall func(i int) float64, written func(i int) Written) {
		dropped += d
		line := make([]int, 0, n)
		kept := 0
		for i := range n {
			if written == nil {
				line = append(line, i)
				continue
			}
			w := written(i)
			if w.Attempt < 0 || w.Attempt > max(1, len(r.Attempts)) {
				v.fail("%s series %q: entry %d of attempt %d (of %d)", kind, tag, i, w.Attempt, len(r.Attempts))
			}
			if !w.Superseded {
				line = append(line, i)
				continue
			}
			kept++
			if v.rep.stepOrdered() && i+1 < n && step(i+1) < step(i) {
				v.fail("%s series %q: step %d after superseded step %d", kind, tag, step(i+1), step(i))
			}
		}
		want := 0
		if v.rep.RestartRule == RestartsAttempts && !v.rep.KeepAllRecords {
			want = d
		}
		if written != nil && kept != want {
			v.fail("%s series %q: %d superseded entries kept, %d dropped, under rule %q", kind, tag, kept, d, v.rep.RestartRule)
		}
		t, ok := tags[tag]
		first, last := 0, 0
		if len(line) > 0 {
			first, last = line[0], line[len(line)-1]
		}
		switch {
		case !ok:
			v.fail("%s series %q has no tag", kind, tag)
			return
		case t.Kind != kind:
			v.fail("%s series %q of a tag of kind %s", kind, tag, t.Kind)
		case t.Count != len(line):
			v.fail("%s series %q: tag counts %d values, the series holds %d", kind, tag, t.Count, len(line))
		case t.Superseded != d:
			v.fail("%s series %q: tag counts %d superseded values, the series dropped %d", kind, tag, t.Superseded, d)
		case len(line) > 0 && (t.FirstStep != step(first) || t.LastStep != step(last) || !same(t.FirstWall, wall(first)) || !same(t.LastWall, wall(last))):
			v.fail("%s series %q: tag bounds are not those of its entries", kind, tag)
		}
		if v.rep.stepOrdered() {
			for k := 1; k < len(line); k++ {
				if step(line[k]) <= step(line[k-1]) {
					v.fail("%s series %q: step %d after step %d", kind, tag, step(line[k]), step(line[k-1]))
					break
				}
			}
		}
	}
	sortedBy(v, "scalars", r.Scalars, func(s *Scalar) string { return s.Tag })
	for _, s := range r.Scalars {
		series(KindScalar, s.Tag, len(s.Points), s.Dropped, func(i int) int64 { return s.Points[i].Step }, func(i int) float64 { return s.Points[i].WallTime }, nil)
	}
	sortedBy(v, "histograms", r.Histograms, func(s *Histogram) string { return s.Tag })
	for _, s := range r.Histograms {
		series(KindHistogram, s.Tag, len(s.Entries), s.Dropped, func(i int) int64 { return s.Entries[i].Step }, func(i int) float64 { return s.Entries[i].WallTime }, func(i int) Written { return s.Entries[i].Written })
		for _, e := range s.Entries {
			if e.NaN < 0 || e.PosInf < 0 || e.NegInf < 0 {
				v.fail("histogram %q at step %d: negative counts of values outside the buckets", s.Tag, e.Step)
			}
		}
	}
	sortedBy(v, "images", r.Images, func(s *Image) string { return s.Tag })
	for _, s := range r.Images {
		series(KindImage, s.Tag, len(s.Entries), s.Dropped, func(i int) int64 { return s.Entries[i].Step }, func(i int) float64 { return s.Entries[i].WallTime }, func(i int) Written { return s.Entries[i].Written })
	}
	sortedBy(v, "audio", r.Audio, func(s *Audio) string { return s.Tag })
	for _, s := range r.Audio {
		series(KindAudio, s.Tag, len(s.Entries), s.Dropped, func(i int) int64 { return s.Entries[i].Step }, func(i int) float64 { return s.Entries[i].WallTime }, func(i int) Written { return s.Entries[i].Written })
	}
	sortedBy(v, "texts", r.Texts, func(s *Text) string { return s.Tag })
	for _, s := range r.Texts {
		series(KindText, s.Tag, len(s.Entries), s.Dropped, func(i int) int64 { return s.Entries[i].Step }, func(i int) float64 { return s.Entries[i].WallTime }, func(i int) Written { return s.Entries[i].Written })
		for _, e := range s.Entries {
			if n, ok := elementsOf(e.Shape); !ok || n != int64(len(e.Values)) {
				v.fail("text %q at step %d: %d values for shape %v", s.Tag, e.Step, len(e.Values), e.Shape)
			}
		}
	}
	sortedBy(v, "PR curves", r.PRCurves, func(s *PRCurve) string { return s.Tag })
	for _, s := range r.PRCurves {
		series(KindPRCurve, s.Tag, len(s.Entries), s.Dropped, func(i int) int64 { return s.Entries[i].Step }, func(i int) float64 { return s.Entries[i].WallTime }, func(i int) Written { return s.Entries[i].Written })
		for _, e := range s.Entries {
			n := len(e.Thresholds)
			for _, col := range [][]float64{e.TP, e.FP, e.TN, e.FN, e.Precision, e.Recall} {
				if len(col) != n {
					v.fail("PR curve %q at step %d: %d thresholds but a column of %d", s.Tag, e.Step, n, len(col))
					break
				}
			}
		}
	}
	for _, ts := range []struct {
		kind Kind
		list []*Tensor
	}{{KindTensor, r.Tensors}, {KindMesh, r.Meshes}} {
		sortedBy(v, string(ts.kind)+" series", ts.list, func(s *Tensor) string { return s.Tag })
		for _, s := range ts.list {
			series(ts.kind, s.Tag, len(s.Entries), s.Dropped, func(i int) int64 { return s.Entries[i].Step }, func(i int) float64 { return s.Entries[i].WallTime }, func(i int) Written { return s.Entries[i].Written })
			for _, e := range s.Entries {
				if e.Encoding != "" && e.Encoding != EncodingMindSpore {
					v.fail("%s %q at step %d has encoding %q", ts.kind, s.Tag, e.Step, e.Encoding)
				}
			}
		}
	}
	sortedBy(v, "exceptions", r.Exceptions, func(s *Exception) string { return s.Tag })
	for _, s := range r.Exceptions {
		dropped += s.Dropped
		for i := 1; i < len(s.Entries) && v.rep.stepOrdered(); i++ {
			if s.Entries[i].Step <= s.Entries[i-1].Step {
				v.fail("exception %q: step %d after step %d", s.Tag, s.Entries[i].Step, s.Entries[i-1].Step)
				break
			}
		}
	}
	if dropped != r.Restarts {
		v.fail("restarts count %d, the series dropped %d", r.Restarts, dropped)
	}
	v.attempts(r)

	for i, g := range r.Graphs {
		if !slices.Contains(graphSources, g.Source) {
			v.fail("graph %q of source %q", g.Tag, g.Source)
		}
		if i > 0 {
			p := r.Graphs[i-1]
			if cmp.Or(cmp.Compare(slices.Index(graphSources, p.Source), slices.Index(graphSources, g.Source)), cmp.Compare(p.Tag, g.Tag)) >= 0 {
				v.fail("graphs %s %q and %s %q out of order or repeated", p.Source, p.Tag, g.Source, g.Tag)
			}
		}
	}
	for i := 1; i < len(r.Embeddings); i++ {
		a, b := r.Embeddings[i-1], r.Embeddings[i]
		if cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Step, b.Step)) > 0 {
			v.fail("embeddings %q and %q out of order", a.Name, b.Name)
		}
	}

	if hp := r.HParams; hp != nil {
		for _, s := range hp.Sessions {
			if !v.alone && s.ExperimentRun != "" && !runs[s.ExperimentRun] {
				v.fail("hparams session names experiment run %q, which the report does not hold", s.ExperimentRun)
			}
			for name, m := range s.Metrics {
				if !v.alone && m.Run != "" && !runs[m.Run] {
					v.fail("hparams metric %q of run %q, which the report does not hold", name, m.Run)
				}
			}
		}
	}

	refs(reflect.ValueOf(r).Elem(), func(b *BlobRef) {
		if b.Logdir != r.Logdir || !fs.ValidPath(b.Path) || b.Offset < 0 || b.Length < 0 {
			v.fail("payload %s:%s@%d+%d outside its run's log directory %q", b.Logdir, b.Path, b.Offset, b.Length, r.Logdir)
		}
	})
}

// hasNil reports, as a problem, whether list holds a nil.
func hasNil[T any](v *validator, what string, list []*T) bool {
	for i, x := range list {
		if x == nil {
			v.fail("%s: element %d is nil", what, i)
			return true
		}
	}
	return false
}

// sortedBy checks that list is sorted by key with no key repeated.
func sortedBy[T any](v *validator, what string, list []T, key func(T) string) {
	for i := 1; i < len(list); i++ {
		if a, b := key(list[i-1]), key(list[i]); a >= b {
			v.fail("%s %q and %q out of order or repeated", what, a, b)
			return
		}
	}
}

// same says whether two floats are the same value, NaN being the same as
// NaN.
func same(a, b float64) bool { return a == b || a != a && b != b }

// elementsOf returns the number of elements of a tensor shape (1 for a
// scalar), or false when a dimension is negative or the count overflows.
func elementsOf(shape []int64) (int64, bool) {
	n := int64(1)
	for _, d := range shape {
		if d < 0 || d > 0 && n > (1<<62)/d {
			return 0, false
		}
		n *= d
	}
	return n, true
}

// refs calls f with every BlobRef below v, which must be addressable.
func refs(v reflect.Value, f func(*BlobRef)) {
	t := v.Type()
	if t == blobRefType {
		f(v.Addr().Interface().(*BlobRef))
		return
	}
	if !blobHolders(t) {
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			refs(v.Elem(), f)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			refs(v.Index(i), f)
		}
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() {
				refs(v.Field(i), f)
			}
		}
	}
}

// stepOrdered reports whether the rule that made the report's lines keeps
// their steps increasing.
func (r *Report) stepOrdered() bool {
	return !r.KeepAllRecords && r.RestartRule != RestartsTensorBoard
}

var restartRules = []RestartRule{RestartsAttempts, RestartsLatest, RestartsTensorBoard}

// attempts checks the run's attempts against its scalar series: every
// point on a line or superseded counted in one attempt, superseded points
// kept exactly under RestartsAttempts.
func (v *validator) attempts(r *Run) {
	files := map[string]bool{}
	for _, f := range r.Files {
		files[f.Rel] = true
	}
	points, superseded := 0, 0
	for k, a := range r.Attempts {
		points += a.Points
		superseded += a.Superseded
		if a.Points < 0 || a.Superseded < 0 || a.FirstStep > a.LastStep {
			v.fail("attempt %d: %d points, %d superseded, steps %d..%d", k+1, a.Points, a.Superseded, a.FirstStep, a.LastStep)
		}
		for _, f := range a.Files {
			if !files[f] {
				v.fail("attempt %d: file %q is not one of the run's", k+1, f)
			}
		}
	}
	linePoints, dropped := 0, 0
	for _, s := range r.Scalars {
		linePoints += len(s.Points)
		dropped += s.Dropped
		kept := 0
		for i, sp := range s.Superseded {
			kept += len(sp.Points)
			if sp.Attempt < 1 || sp.Attempt > len(r.Attempts) || i > 0 && s.Superseded[i-1].Attempt >= sp.Attempt || len(sp.Points) == 0 {
				v.fail("scalar %q: superseded points of attempt %d (of %d), %d points", s.Tag, sp.Attempt, len(r.Attempts), len(sp.Points))
				break
			}
			if !slices.IsSortedFunc(sp.Points, func(a, b Point) int { return cmp.Compare(a.Step, b.Step) }) {
				v.fail("scalar %q: superseded points of attempt %d out of step order", s.Tag, sp.Attempt)
			}
		}
		want := 0
		if v.rep.RestartRule == RestartsAttempts {
			want = s.Dropped
		}
		if kept != want {
			v.fail("scalar %q: %d superseded points kept, %d dropped, under rule %q", s.Tag, kept, s.Dropped, v.rep.RestartRule)
		}
	}
	if r.Attempts != nil && (points != linePoints || superseded != dropped) {
		v.fail("attempts count %d points and %d superseded, the scalars hold %d and dropped %d", points, superseded, linePoints, dropped)
	}
}
