package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"slices"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
)

// A merge reads its parts twice, a run at a time, and never holds every
// point (issue 28): the first pass (scanParts) keeps each run without
// its scalar points (their last only, which the hyperparameters' join
// reads) and the shapes of its series (analysis.Shapes), from which the
// analysis makes its report-wide decisions; the second (partRuns) reads
// the parts again, merging their runs in report order, and hands each
// run, its points restored, to the stages that use them, write its data
// files and drop them. Each part is checked against its marker (size,
// SHA-256) at the end of each pass: nothing read in the first pass is
// used before the check; what the second reads is used as it comes, in
// the site's temporary folder, which a part that changed between the
// passes (or during the second) leaves unpublished.

// collectRules are the collection rules a part may have been collected
// under (model.Report's KeepAllRecords and RestartRule), collect's
// default first: the first pass checks each run read (model.Report.
// CheckRun) under the first that holds it, since the part names its rule
// only after its runs; a run no rule holds refuses the part, as does one
// the part's own rule was found not to hold.
var collectRules = []model.Report{
	{RestartRule: model.RestartsAttempts},
	{RestartRule: model.RestartsLatest},
	{RestartRule: model.RestartsTensorBoard},
	{KeepAllRecords: true},
	{},
}

// scanParts is the first pass over the parts (see above): the merged
// report, its scalar series cut to their last point, and their shapes.
func scanParts(ctx context.Context, parts []string, markers []*shardMarker, open func(logdir string) (model.Source, error)) (*model.Report, *analysis.Shapes, error) {
	shapes := analysis.NewShapes()
	reps := make([]*model.Report, 0, len(parts))
	closeAll := func() {
		for _, r := range reps {
			r.Close()
		}
	}
	for k, p := range parts {
		if err := ctx.Err(); err != nil {
			closeAll()
			return nil, nil, err
		}
		rep, err := scanPart(ctx, p, markers[k], open, shapes)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		reps = append(reps, rep)
	}
	rep, err := model.MergeRead(reps...)
	if err != nil {
		closeAll()
		return nil, nil, fmt.Errorf("merging %s: %w", plural(len(parts), "part"), err)
	}
	return rep, shapes, nil
}

// partStream is a part's model.bin as it is read: hashed and counted on
// the way, decoded a run at a time.
type partStream struct {
	name string // the part, as messages name it
	f    partFile
	dir  *logfs.Dir
	file io.ReadCloser
	h    hash.Hash
	cr   *countingReader
	rr   *model.RunReader // nil when the header was refused (err)
	err  error            // NewRunReader's
}

// openPartStream opens the model.bin of part dir, as its marker m lists
// it.
func openPartStream(ctx context.Context, dir string, m *shardMarker) (*partStream, error) {
	ps := &partStream{name: logfs.Redact(dir), f: m.Files[0]} // readMarker made sure it is model.bin
	d, err := openPart(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("part %s: %w", ps.name, err)
	}
	file, err := d.Open(ps.f.Name)
	if err != nil {
		d.Close()
		return nil, fmt.Errorf("part %s: %w", ps.name, err)
	}
	ps.dir, ps.file = d, file
	if fi, err := file.Stat(); err == nil && fi.Size() > ps.f.Size {
		ps.close()
		return nil, ps.tooLong()
	}
	ps.h = sha256.New()
	ps.cr = &countingReader{r: io.TeeReader(io.LimitReader(file, ps.f.Size+1), ps.h)} // a byte more than listed is enough to tell
	ps.rr, ps.err = model.NewRunReader(ps.cr)
	return ps, nil
}

func (ps *partStream) close() {
	ps.file.Close()
	ps.dir.Close()
}

func (ps *partStream) tooLong() error {
	return fmt.Errorf("part %s: %s is longer than the %d bytes its %s lists: changed after collect wrote it", ps.name, ps.f.Name, ps.f.Size, partMarker)
}

// check reads the rest of the file and checks its size and hash against
// the marker's; readErr, the decoder's error if any, is returned after
// those checks, so that a damaged file is named as one rather than by
// the decoder's complaint.
func (ps *partStream) check(readErr error) error {
	if _, err := io.Copy(io.Discard, ps.cr); err != nil {
		return fmt.Errorf("part %s: %s: %w", ps.name, ps.f.Name, err)
	}
	switch {
	case ps.cr.n > ps.f.Size:
		return ps.tooLong()
	case ps.cr.n < ps.f.Size:
		return fmt.Errorf("part %s: %s is cut short: %d bytes, its %s lists %d", ps.name, ps.f.Name, ps.cr.n, partMarker, ps.f.Size)
	case hex.EncodeToString(ps.h.Sum(nil)) != ps.f.SHA256:
		return fmt.Errorf("part %s: %s does not match the hash its %s holds: damaged or changed after collect wrote it", ps.name, ps.f.Name, partMarker)
	case readErr != nil:
		return fmt.Errorf("part %s: %s: %w", ps.name, ps.f.Name, readErr)
	}
	return nil
}

// scanPart reads the part dir a run at a time: each run is checked
// (collectRules), its shapes added to shapes and its scalar series cut
// to their last point; then the part is checked against its marker m
// (size and hash, before anything read is used: a damaged file is named
// as one rather than by the decoder's complaint), its runs and log
// directories against m's, and every payload reference against its log
// directory, before anything reads one.
func scanPart(ctx context.Context, dir string, m *shardMarker, open func(logdir string) (model.Source, error), shapes *analysis.Shapes) (*model.Report, error) {
	ps, err := openPartStream(ctx, dir, m)
	if err != nil {
		return nil, err
	}
	defer ps.close()
	heads := slices.Clone(collectRules)
	lds := make([]model.Logdir, len(m.Logdirs))
	for i, l := range m.Logdirs {
		lds[i] = model.Logdir{Name: l.Name, Path: l.Path}
	}
	for i := range heads {
		heads[i].Logdirs = lds
	}
	bad := make([]error, len(heads)) // the first problem of a run under each rule
	var runs []*model.Run
	var rep *model.Report
	readErr := ps.err
	for readErr == nil {
		if readErr = ctx.Err(); readErr != nil {
			break
		}
		var run *model.Run
		if run, readErr = ps.rr.Next(); readErr != nil || run == nil {
			break
		}
		// Under collect's default rule first, the others only when it
		// fails: the second pass checks each run again, under the rule
		// the part names, before its points are used; this pass needs
		// the run well formed for what it keeps of it.
		valid := false
		for i := range heads {
			if bad[i] != nil {
				continue
			}
			if err := heads[i].CheckRun(run); err != nil {
				bad[i] = fmt.Errorf("model file: %w", err)
			} else {
				valid = true
				break
			}
		}
		if !valid {
			// Under no rule: the part is refused once its bytes are
			// checked, whatever rule it names.
			readErr = bad[0]
			break
		}
		shapes.Add(run)
		for _, s := range run.Scalars {
			if len(s.Points) > 1 {
				s.Points = []model.Point{s.Points[len(s.Points)-1]}
			}
		}
		runs = append(runs, run)
	}
	if readErr == nil {
		rep, readErr = ps.rr.End()
	}
	if err := ps.check(readErr); err != nil {
		return nil, err
	}
	name := ps.name
	if err := rep.CheckValid(); err != nil { // the report but its runs
		return nil, fmt.Errorf("part %s: %s: model file: %w", name, partModel, err)
	}
	rule := slices.IndexFunc(heads, func(h model.Report) bool {
		return h.KeepAllRecords == rep.KeepAllRecords && h.RestartRule == rep.RestartRule
	})
	if rule < 0 {
		return nil, fmt.Errorf("part %s: %s: model file: restart rule %q with KeepAllRecords %v", name, partModel, rep.RestartRule, rep.KeepAllRecords)
	}
	if bad[rule] != nil {
		return nil, fmt.Errorf("part %s: %s: %w", name, partModel, bad[rule])
	}
	rep.Runs = runs
	rep.SetDecoders(collect.Decoders()) // the model's tensors decode with the readers'
	if len(rep.Runs) != m.Runs || !slices.EqualFunc(rep.Logdirs, m.Logdirs, func(a model.Logdir, b shardLogdir) bool { return a.Name == b.Name && a.Path == b.Path }) {
		return nil, fmt.Errorf("part %s: %s and %s disagree on its runs or log directories", name, partModel, partMarker)
	}
	srcs := map[string]model.Source{}
	for _, ld := range rep.Logdirs {
		if _, ok := srcs[ld.Name]; ok {
			continue
		}
		src, err := open(ld.Name)
		if err != nil {
			rep.Close()
			return nil, fmt.Errorf("part %s: %s: log directory %s: %w", name, partModel, ld.Name, err)
		}
		srcs[ld.Name] = src
		if src != nil {
			rep.Attach(src)
		}
	}
	for _, run := range rep.Runs {
		model.AttachRun(run, srcs)
	}
	if err := rep.CheckPayloads(); err != nil {
		rep.Close()
		return nil, fmt.Errorf("part %s: %s refers to bytes that are not in a regular file of its log directories (the logs changed since collect, or the part is forged): %w", name, partModel, err)
	}
	return rep, nil
}

// partRuns is the second pass over the parts (see above): the runs of
// rep, the merged report of the first, in its order, each with its
// scalar points read again.
type partRuns struct {
	ctx     context.Context
	parts   []string
	markers []*shardMarker
	rep     *model.Report
	shapes  *analysis.Shapes
	streams []*partStream
	merger  *model.RunMerger
	i       int // runs given
	err     error
}

func (p *partRuns) Shapes() *analysis.Shapes { return p.shapes }

// changed is the error of part k read differently the second time.
func (p *partRuns) changed(k int, what string) error {
	return fmt.Errorf("part %s: %s changed while merge read it (%s): merge it again", logfs.Redact(p.parts[k]), partModel, what)
}

func (p *partRuns) Next() (*model.Run, error) {
	if p.err != nil {
		return nil, p.err
	}
	run, err := p.next()
	p.err = err
	return run, err
}

func (p *partRuns) next() (*model.Run, error) {
	if p.merger == nil {
		next := make([]func() (*model.Run, error), len(p.parts))
		for k, dir := range p.parts {
			ps, err := openPartStream(p.ctx, dir, p.markers[k])
			if err != nil {
				return nil, err
			}
			p.streams = append(p.streams, ps)
			if ps.err != nil {
				return nil, p.changed(k, ps.err.Error())
			}
			next[k] = ps.rr.Next
		}
		p.merger = model.NewRunMerger(next...)
	}
	run, k, err := p.merger.Next()
	if err != nil {
		if k < 0 {
			return nil, err
		}
		return nil, p.changed(k, err.Error())
	}
	if run == nil {
		if p.i != len(p.rep.Runs) {
			return nil, p.changed(0, fmt.Sprintf("%d runs, %d the first time", p.i, len(p.rep.Runs)))
		}
		return nil, nil
	}
	if p.i == len(p.rep.Runs) {
		return nil, p.changed(k, "more runs than the first time")
	}
	kept := p.rep.Runs[p.i]
	p.i++
	if kept.Name != run.Name || len(kept.Scalars) != len(run.Scalars) {
		return nil, p.changed(k, fmt.Sprintf("run %q where %q was", run.Name, kept.Name))
	}
	// Checked again, points and all, under the rule the part names (the
	// first pass may have checked it under another): its bytes are
	// checked against the marker only at the end of the pass.
	if err := p.rep.CheckRun(run); err != nil {
		return nil, fmt.Errorf("part %s: %s: model file: %w", logfs.Redact(p.parts[k]), partModel, err)
	}
	for j, s := range kept.Scalars {
		t := run.Scalars[j]
		if t.Tag != s.Tag || p.shapes.Points(s) != len(t.Points) {
			return nil, p.changed(k, fmt.Sprintf("scalar %q of run %q", t.Tag, run.Name))
		}
		s.Points = t.Points
	}
	return kept, nil
}

// Close checks every part read, to its end, against its marker, and
// closes them.
func (p *partRuns) Close() error {
	var errs []error
	for k, ps := range p.streams {
		if p.err == nil {
			_, err := ps.rr.End()
			if err := ps.check(err); err != nil {
				errs = append(errs, p.changed(k, err.Error()))
			}
		}
		ps.close()
	}
	p.streams = nil
	return errors.Join(errs...)
}
