package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// siteRecorder records the files eachFile hands out, by name, from any
// goroutine; hold, when set, is called before a file is written, and
// fail returns an error for a file to fail with.
type siteRecorder struct {
	mu    sync.Mutex
	files map[string][]byte
	order []string
	hold  func(name string)
	fail  func(name string) error
	// begun counts the files begun, failed or not.
	begun atomic.Int64
}

func (s *siteRecorder) write(name string, write func(io.Writer) error) error {
	s.begun.Add(1)
	if s.hold != nil {
		s.hold(name)
	}
	if s.fail != nil {
		if err := s.fail(name); err != nil {
			return err
		}
	}
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string][]byte{}
	}
	if _, dup := s.files[name]; dup {
		return fmt.Errorf("%s written twice", name)
	}
	s.files[name] = b.Bytes()
	s.order = append(s.order, name)
	return nil
}

func (s *siteRecorder) eachFile(r *Report) error {
	return r.eachFile(func(f file) error {
		return s.write(f.name, func(w io.Writer) error { _, err := w.Write(f.data); return err })
	}, s.write)
}

// waitFor holds a channel per file name, closed once the file is
// written: a file held until another is written makes the order in
// which they finish the test's.
type waitFor struct {
	mu   sync.Mutex
	done map[string]chan struct{}
}

// of returns the channel of name.
func (w *waitFor) of(name string) chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done == nil {
		w.done = map[string]chan struct{}{}
	}
	c, ok := w.done[name]
	if !ok {
		c = make(chan struct{})
		w.done[name] = c
	}
	return c
}

// TestSiteFilesAreTheSameWhateverOrderTheyFinish checks that the pages,
// built beside the other files, give the same files and bytes whichever
// finishes first: the scalars page held until the overview, the other
// pages and data/index.json are written (so that they are made while it
// is), or the overview held until the scalars page is; each against the
// files of siteFiles.
func TestSiteFilesAreTheSameWhateverOrderTheyFinish(t *testing.T) {
	rep := collectDir(t, "keras-tf22-images", filepath.Join(corpus(t), "keras-tf22-images"))
	want := filesByName(t, newReport(rep, Options{}))
	for _, c := range []struct {
		name        string
		held, until []string
	}{
		{"scalars page last", []string{"scalars.html"}, []string{"index.html", "data/index.json", "images.html", "assets/app.js"}},
		{"overview after the scalars page", []string{"index.html"}, []string{"scalars.html"}},
		{"data index after every page", []string{"data/index.json"}, []string{"index.html", "scalars.html", "images.html", "histograms.html"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, name := range slices.Concat(c.held, c.until) {
				if want[name] == nil {
					t.Fatalf("the report has no %s", name)
				}
			}
			var w waitFor
			s := &siteRecorder{}
			s.hold = func(name string) {
				if !slices.Contains(c.held, name) {
					return
				}
				for _, u := range c.until {
					select {
					case <-w.of(u):
					case <-time.After(time.Minute): // a guard, not a wait: the files are written in milliseconds
						panic(fmt.Sprintf("%s held for %s, which is not written beside it", name, u))
					}
				}
			}
			base := s.write
			var closeOnce sync.Map
			wrapped := func(name string, write func(io.Writer) error) error {
				err := base(name, write)
				if _, loaded := closeOnce.LoadOrStore(name, true); !loaded && err == nil {
					close(w.of(name))
				}
				return err
			}
			r := newReport(rep, Options{})
			err := r.eachFile(func(f file) error {
				return wrapped(f.name, func(w io.Writer) error { _, err := w.Write(f.data); return err })
			}, wrapped)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(slices.Sorted(maps.Keys(s.files)), slices.Sorted(maps.Keys(want))) {
				t.Fatalf("files %v, want %v", slices.Sorted(maps.Keys(s.files)), slices.Sorted(maps.Keys(want)))
			}
			for name, b := range want {
				if !bytes.Equal(s.files[name], b) {
					t.Errorf("%s differs from siteFiles'", name)
				}
			}
			for _, h := range c.held {
				at := slices.Index(s.order, h)
				for _, u := range c.until {
					if slices.Index(s.order, u) > at {
						t.Errorf("%s finished before %s, which it was held for", h, u)
					}
				}
			}
		})
	}
}

// TestSiteFileErrorStopsTheRestAndNamesIt checks that a file failing,
// a page or one of the other files, ends eachFile with that error, naming
// the file, and that at most two files are begun after it (by the other
// goroutine, in the moment before the failure is recorded): a report of
// many pages and files does not make them all first.
func TestSiteFileErrorStopsTheRestAndNamesIt(t *testing.T) {
	rep := collectDir(t, "keras-tf22-images", filepath.Join(corpus(t), "keras-tf22-images"))
	all := len(filesByName(t, newReport(rep, Options{})))
	for _, c := range []struct {
		file, named string
	}{
		{"scalars.html", "scalars.html"},
		{"index.html", "index.html"},
		{"summary.json", "summary.json"},
		{"assets/app.js", "assets/app.js"},
		{"data/index.json", "data/index.json"},
	} {
		t.Run(c.file, func(t *testing.T) {
			cause := errors.New("disk full")
			var failed atomic.Bool
			var after atomic.Int64 // files begun after the failure
			s := &siteRecorder{}
			s.hold = func(name string) {
				if failed.Load() {
					after.Add(1)
				}
			}
			s.fail = func(name string) error {
				if name != c.file {
					return nil
				}
				failed.Store(true)
				return fmt.Errorf("writing %s: %w", name, cause)
			}
			err := s.eachFile(newReport(rep, Options{}))
			if !errors.Is(err, cause) {
				t.Fatalf("eachFile returned %v, want the file's error", err)
			}
			if !strings.Contains(err.Error(), c.named) {
				t.Errorf("the error %q does not name %s", err, c.named)
			}
			if n := after.Load(); n > 2 { // the file in progress as it failed, and one begun before the failure was recorded
				t.Errorf("%d files begun after %s failed (%d of %d in all)", n, c.file, s.begun.Load(), all)
			}
		})
	}
}
