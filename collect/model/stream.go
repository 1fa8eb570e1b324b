package model

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"reflect"
)

// RunReader reads a model written by Write or Writer a run at a time, in
// the order they were written (the model's, CompareRunNames): a caller
// that uses each run and drops it holds one run, not the model, as
// Writer lets a writer do. Read is a RunReader whose runs are all kept.
//
// The runs come before what the model knows once they are read (its log
// directories, warnings, restart rule): End reads those, after the last
// run. A run is checked as it comes for what can be checked alone (its
// order after the one before); what needs the whole report (CheckValid)
// is the caller's, or Read's.
type RunReader struct {
	br   *bufio.Reader
	d    decoder
	n    int    // runs read
	last string // the name of the last run read
	done bool   // the 0 byte after the last run was read
	err  error  // the first error, which every later call returns
}

// NewRunReader reads and checks the header line of the model r holds.
func NewRunReader(r io.Reader) (*RunReader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if err := readHeader(br); err != nil {
		return nil, err
	}
	return &RunReader{br: br, d: decoder{r: br}}, nil
}

// Next returns the next run, or nil and no error after the last one. Its
// payload references have no source: AttachRun attaches one.
func (rr *RunReader) Next() (*Run, error) {
	if rr.err != nil || rr.done {
		return nil, rr.err
	}
	run, done, err := rr.d.run(rr.n)
	switch {
	case err != nil:
		rr.err = fmt.Errorf("model file: %w", err)
		return nil, rr.err
	case done:
		rr.done = true
		return nil, nil
	case rr.n > 0 && CompareRunNames(rr.last, run.Name) >= 0:
		rr.err = fmt.Errorf("model file: run %d: %q after %q: out of order or repeated", rr.n, run.Name, rr.last)
		return nil, rr.err
	}
	rr.n++
	rr.last = run.Name
	return run, nil
}

// End reads what follows the runs, once Next has returned nil: the
// report but its runs (Runs nil), and checks that nothing follows it.
func (rr *RunReader) End() (*Report, error) {
	if rr.err != nil {
		return nil, rr.err
	}
	if !rr.done {
		return nil, errors.New("model file: End before the last run was read")
	}
	rep := &Report{}
	if err := rr.d.rest(rep); err != nil {
		rr.err = fmt.Errorf("model file: %w", err)
		return nil, rr.err
	}
	if _, err := rr.br.ReadByte(); err != io.EOF {
		rr.err = errors.New("model file: bytes after the report")
		return nil, rr.err
	}
	return rep, nil
}

// AttachRun attaches to each payload reference of run the source of its
// log directory in srcs (by Logdir.Name), as Read does with the sources
// its open returns; a directory srcs does not hold leaves its references
// unread.
func AttachRun(run *Run, srcs map[string]Source) {
	attach(reflect.ValueOf(run).Elem(), srcs)
}

// RunMerger hands out the runs of several streams, each in the model's
// order (a part's RunReader), as one stream in the order Merge puts their
// union in: by CompareRunNames, a k-way merge that holds one run per
// stream, not the union. Run names are total in that order, so the order
// is Merge's whatever the streams; a name in two streams is refused, as
// Merge refuses it.
type RunMerger struct {
	next  []func() (*Run, error)
	head  []*Run // the next run of each stream, nil once it ended
	begun bool
	err   error
}

// NewRunMerger merges the streams next (each returning nil, nil after
// its last run).
func NewRunMerger(next ...func() (*Run, error)) *RunMerger {
	return &RunMerger{next: next, head: make([]*Run, len(next))}
}

// Next returns the next run in the merged order and the index of its
// stream, or nil after the last run of every stream. A stream's error is
// returned as it is, with the stream's index.
func (m *RunMerger) Next() (*Run, int, error) {
	if m.err != nil {
		return nil, -1, m.err
	}
	if !m.begun {
		m.begun = true
		for k := range m.next {
			if err := m.advance(k); err != nil {
				return nil, k, err
			}
		}
	}
	best := -1
	for k, r := range m.head {
		if r == nil {
			continue
		}
		if best >= 0 {
			c := CompareRunNames(r.Name, m.head[best].Name)
			if c == 0 {
				m.err = fmt.Errorf("merge: run %q is in two reports", r.Name)
				return nil, k, m.err
			}
			if c > 0 {
				continue
			}
		}
		best = k
	}
	if best < 0 {
		return nil, -1, nil
	}
	run := m.head[best]
	if err := m.advance(best); err != nil {
		return nil, best, err
	}
	return run, best, nil
}

// advance reads the next run of stream k into its head.
func (m *RunMerger) advance(k int) error {
	r, err := m.next[k]()
	if err != nil {
		m.err = err
		return err
	}
	m.head[k] = r
	return nil
}
