// Package outdir writes a report site into its output folder, which may
// hold anything: a folder shipped with the logs, links planted in it, an
// earlier report, another program's files.
//
// The site is written into a fresh folder beside the output folder, where
// no other program has put anything, with every file created exclusively
// (a second file of one name is an error, not an overwrite), and moved into
// place when whole. An existing output folder is replaced only when it is
// empty or holds the marker an earlier report left, so trainreport never
// deletes what it did not write; nothing is ever written through a link.
package outdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Marker is the file that marks a folder as a report trainreport wrote,
// which a later report may replace.
const Marker = ".trainreport"

// markerText is the marker's content: constant, so that two reports of the
// same logs stay byte-identical.
const markerText = "This folder is a report written by trainreport; the next report written here replaces it whole.\n"

// Site is a report being written. Files go into a temporary folder until
// Commit moves it into place.
type Site struct {
	out  string // the output folder, absolute
	tmp  string
	root *os.Root // tmp: no name written may leave it
	// held holds a lock on tmp while the site is written: a later run
	// into the same output that finds tmp unlocked knows its writer is
	// gone (see removeStale).
	held *os.File

	// folders are the site's folders opened last, the latest last: a
	// file created in one is one system call, where through root it is
	// one per folder of its path, and a folder is made once. A few are
	// kept open, not all: a sweep's site has a folder per run.
	mu      sync.Mutex
	folders []*folder
}

// folder is an open folder of the site and how many writes use it.
type folder struct {
	name  string
	root  *os.Root
	users int
	gone  bool // out of Site.folders: closed when its last user is done
}

// openFolders is how many folders a site keeps open.
const openFolders = 8

// Create starts a site for the output folder out, in a temporary folder
// created beside it (its parent folders are created when missing).
func Create(out string) (*Site, error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return nil, err
	}
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	removeStale(abs)
	tmp, err := createUnique(parent, tmpPrefix(abs), func(p string) error { return os.Mkdir(p, 0o777) })
	if err != nil {
		return nil, err
	}
	// Locked before the marker is written: a folder of ours is never
	// seen marked and unlocked while its writer lives. Where no lock can
	// be taken (a file system without flock), no other run can take one
	// either, and none takes the folder for a stale one.
	held, err := os.Open(tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	tryLock(held)
	root, err := os.OpenRoot(tmp)
	if err != nil {
		held.Close()
		os.RemoveAll(tmp)
		return nil, err
	}
	s := &Site{out: abs, tmp: tmp, root: root, held: held}
	if err := s.WriteFile(Marker, []byte(markerText)); err != nil {
		s.Abort()
		return nil, err
	}
	return s, nil
}

// WriteFile writes the file name (slash-separated, relative to the site),
// creating its folders. A name written twice is an error: two outputs
// must never share a path, the last silently winning.
func (s *Site) WriteFile(name string, data []byte) error {
	return s.WriteFileFunc(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFileFunc is WriteFile of what write writes, for a file made in
// pieces that need not be held together. Files of different names may be
// written concurrently. When write fails, the file is removed.
func (s *Site) WriteFileFunc(name string, write func(io.Writer) error) error {
	if !fs.ValidPath(name) || name == "." {
		return fmt.Errorf("output name %q is not a path inside the site", name)
	}
	dir, base := path.Split(name)
	root := s.root
	if dir != "" {
		d, err := s.folder(strings.TrimSuffix(dir, "/"))
		if err != nil {
			return err
		}
		defer s.release(d)
		root = d.root
	}
	f, err := root.OpenFile(base, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("two outputs share the path %s", name)
	}
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		root.Remove(base) // no half-written file: the name may be written again
		return err
	}
	return f.Close()
}

// folder returns the site's folder dir, made and opened when it is not
// among the open ones, for a write; release ends the write.
func (s *Site) folder(dir string) (*folder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, d := range s.folders {
		if d.name == dir {
			s.folders = append(append(s.folders[:i:i], s.folders[i+1:]...), d)
			d.users++
			return d, nil
		}
	}
	if err := s.root.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	r, err := s.root.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	d := &folder{name: dir, root: r, users: 1}
	s.folders = append(s.folders, d)
	if len(s.folders) > openFolders {
		old := s.folders[0]
		s.folders = s.folders[1:]
		old.gone = true
		if old.users == 0 {
			old.root.Close()
		}
	}
	return d, nil
}

func (s *Site) release(d *folder) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d.users--
	if d.gone && d.users == 0 {
		d.root.Close()
	}
}

// closeFolders closes the open folders, once no write uses the site.
func (s *Site) closeFolders() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, d := range s.folders {
		d.root.Close()
	}
	s.folders = nil
}

// Abort removes the temporary folder; the output folder is left as it was.
func (s *Site) Abort() {
	s.closeFolders()
	s.root.Close()
	os.RemoveAll(s.tmp)
	s.held.Close()
}

// Commit moves the site into place, replacing the output folder when it
// is empty or an earlier report, and refusing otherwise. Concurrent
// commits into one folder take turns, so each leaves a whole report.
func (s *Site) Commit() (err error) {
	defer func() {
		if err != nil {
			s.Abort()
		} else {
			s.held.Close()
		}
	}()
	s.closeFolders()
	if err := s.root.Close(); err != nil {
		return err
	}
	unlock, err := lock(filepath.Dir(s.out))
	if err != nil {
		return err
	}
	defer unlock()
	replaceable, err := checkReplaceable(s.out)
	if err != nil {
		return err
	}
	if !replaceable {
		return os.Rename(s.tmp, s.out)
	}
	// Move the old report aside, not delete it first, so that the output
	// folder is never missing a whole report for longer than two renames.
	old, err := os.MkdirTemp(filepath.Dir(s.out), oldPrefix(s.out))
	if err != nil {
		return err
	}
	aside := filepath.Join(old, "report")
	if err := os.Rename(s.out, aside); err != nil {
		os.Remove(old)
		return err
	}
	if err := os.Rename(s.tmp, s.out); err != nil {
		os.Rename(aside, s.out) // put it back
		os.Remove(old)
		return err
	}
	// RemoveAll removes links, never what they point to.
	return os.RemoveAll(old)
}

// tmpPrefix and oldPrefix begin the names of the folders a site of the
// output folder out is written in and an earlier report is moved aside
// to, beside out; a number ends them.
func tmpPrefix(out string) string { return "." + filepath.Base(out) + ".tmp-" }
func oldPrefix(out string) string { return "." + filepath.Base(out) + ".old-" }

// removeStale removes what reports into the output folder out left beside
// it when they were killed (SIGKILL, a crash, the machine stopping), which
// no deferred clean-up could remove: each temporary folder of out's name
// that holds the marker and that no process holds locked (its writer is
// gone: the lock goes with the process), and each earlier report moved
// aside whose commit did not finish (checked under the lock commits take,
// so none is in progress). Anything else is left alone, as is whatever
// cannot be removed: this is tidying, not a condition of the report.
func removeStale(out string) {
	parent := filepath.Dir(out)
	names, err := readNames(parent)
	if err != nil {
		return
	}
	var old []string
	for _, n := range names {
		switch {
		case numbered(n, tmpPrefix(out)):
			removeUnlocked(filepath.Join(parent, n))
		case numbered(n, oldPrefix(out)):
			old = append(old, filepath.Join(parent, n))
		}
	}
	if len(old) == 0 {
		return
	}
	unlock, err := lock(parent)
	if err != nil {
		return
	}
	defer unlock()
	for _, p := range old {
		// What Commit leaves there: the folder, holding the old report
		// alone, marked.
		if ns, err := readNames(p); err == nil && len(ns) == 1 && ns[0] == "report" && isMarked(filepath.Join(p, "report")) {
			os.RemoveAll(p)
		}
	}
}

// removeUnlocked removes the temporary folder dir of a site when it is a
// folder (not a link), holds the marker, and its lock is free.
func removeUnlocked(dir string) {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() || !isMarked(dir) {
		return
	}
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	defer f.Close()
	if ok, err := tryLock(f); err == nil && ok {
		os.RemoveAll(dir)
	}
}

// isMarked reports whether the folder dir holds the marker as a file.
func isMarked(dir string) bool {
	m, err := os.Lstat(filepath.Join(dir, Marker))
	return err == nil && m.Mode().IsRegular()
}

// numbered reports whether name is prefix followed by decimal digits
// only: the names createUnique and os.MkdirTemp give.
func numbered(name, prefix string) bool {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok || rest == "" {
		return false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// readNames returns the names in the folder dir.
func readNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// Check refuses, before anything is read, an output folder that the
// report must not replace: the file system's root, the home folder, a log
// directory or a folder holding one, a link, a file, or a folder holding
// files trainreport did not write. logdirs are the log directories.
func Check(out string, logdirs []string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	if abs == filepath.Dir(abs) {
		return fmt.Errorf("-o %s is the root of the file system", out)
	}
	if home, err := os.UserHomeDir(); err == nil && sameFile(abs, home) {
		return fmt.Errorf("-o %s is the home folder", out)
	}
	// The site is written beside out, its missing folders made.
	if err := checkFolder(filepath.Dir(abs), true); err != nil {
		return fmt.Errorf("-o %s: %w", out, err)
	}
	for _, l := range logdirs {
		if within(abs, l) {
			return fmt.Errorf("-o %s would replace the log directory %s", out, l)
		}
		if link := linkInside(l, abs); link != "" {
			return fmt.Errorf("-o %s passes through the symbolic link %s inside the log directory %s, which the logs' author may point anywhere", out, link, l)
		}
	}
	_, err = checkReplaceable(abs)
	return err
}

// linkInside returns the first symbolic link on the way from the log
// directory l down to p, when p lies below l: a log folder may ship
// reports -> /somewhere, and -o logs/reports/today would write there.
func linkInside(l, p string) string {
	la, err := filepath.Abs(l)
	if err != nil {
		return ""
	}
	rel, err := filepath.Rel(la, p)
	if err != nil || !filepath.IsLocal(rel) {
		return ""
	}
	cur := la
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil {
			return "" // what does not exist yet is created, not followed
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return cur
		}
	}
	return ""
}

// SamePath reports whether two output paths, as given, are one: the same
// name in the same folder once the folders' links are resolved. (An
// output replaces a link at its own name, so the link's target does not
// count.)
func SamePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 != nil || err2 != nil {
		return a == b
	}
	return filepath.Base(aa) == filepath.Base(bb) && resolve(filepath.Dir(aa)) == resolve(filepath.Dir(bb))
}

// checkReplaceable reports whether out exists and may be replaced, and
// refuses what must not be: a link, a file, or a folder that is neither
// empty nor a report trainreport wrote.
func checkReplaceable(out string) (bool, error) {
	fi, err := os.Lstat(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return false, fmt.Errorf("-o %s is a symbolic link; give the folder itself", out)
	case !fi.IsDir():
		return false, fmt.Errorf("-o %s exists and is not a folder", out)
	}
	if m, err := os.Lstat(filepath.Join(out, Marker)); err == nil && m.Mode().IsRegular() {
		return true, nil
	}
	f, err := os.Open(out)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if _, err := f.Readdirnames(1); err == io.EOF {
		return true, nil
	}
	return false, fmt.Errorf("-o %s holds files that trainreport did not write (it has no %s); empty it, remove it or choose another folder", out, Marker)
}

// within reports whether the path p lies inside the folder dir or is it,
// comparing both as given (made absolute) and with links resolved.
func within(dir, p string) bool {
	for _, pair := range [][2]string{{dir, p}, {resolve(dir), resolve(p)}} {
		a, err := filepath.Abs(pair[1])
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(pair[0], a); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return true
		}
	}
	return false
}

// resolve returns p made absolute with its links resolved, as far as they
// exist: an output folder still to be created resolves through its parent.
func resolve(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return p
		}
		rest = append([]string{filepath.Base(abs)}, rest...)
		abs = parent
	}
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// CheckFile refuses, before anything is read, an output file (--single-file,
// --markdown) that names an input: a log directory given as a file, or a
// file inside a log directory that the report reads (inputs says which, by
// its name inside its log directory), or a path inside the output folder,
// which the report replaces, or a path in a folder that is missing (and
// not one of those writing the output folder makes), not a folder, or
// not writable.
func CheckFile(name, out string, logdirs []string, isInput func(rel string) bool) error {
	abs, err := filepath.Abs(name)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(abs); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a folder", name)
	}
	if within(out, abs) {
		return fmt.Errorf("%s is inside the output folder %s, which the report replaces", name, out)
	}
	for _, l := range logdirs {
		if fi, err := os.Stat(l); err == nil && !fi.IsDir() && sameFile(l, abs) {
			return fmt.Errorf("%s is the log file %s", name, l)
		}
		for _, pair := range [][2]string{{l, abs}, {resolve(l), resolve(abs)}} {
			la, err := filepath.Abs(pair[0])
			if err != nil {
				continue
			}
			if rel, err := filepath.Rel(la, pair[1]); err == nil && filepath.IsLocal(rel) && isInput(filepath.ToSlash(rel)) {
				return fmt.Errorf("%s is an input of the log directory %s", name, l)
			}
		}
	}
	// The file is written into a temporary file beside it, in a folder
	// that must be there, found now, not once the whole site is written;
	// or one the site's folders will be made in (-o new/site with
	// --single-file new/site.html), as the site is written first.
	outAbs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	dir := filepath.Dir(abs)
	if err := checkFolder(dir, within(dir, filepath.Dir(outAbs))); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// checkFolder refuses dir as the folder an output is created in when it is
// not a folder this process may create files in. With mayCreate, a
// missing dir is made when the output is written: its nearest existing
// ancestor is checked instead.
func checkFolder(dir string, mayCreate bool) error {
	// Up from dir to the first path that exists, naming a file on the way
	// as what it is.
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		switch {
		case err == nil && !fi.IsDir():
			return fmt.Errorf("%s is not a folder", d)
		case err == nil && d != dir && !mayCreate:
			return fmt.Errorf("the folder %s does not exist", dir)
		case err == nil:
			if err := writable(d); err != nil {
				return fmt.Errorf("cannot create files in %s: %w", d, err)
			}
			return nil
		case (errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)) && filepath.Dir(d) != d:
			continue
		default:
			return err
		}
	}
}

// WriteFileAtomic writes the file name through fn: into a temporary file
// beside it, renamed over name when whole, so that a link at name is
// replaced rather than written through, and a reader never sees half.
func WriteFileAtomic(name string, fn func(io.Writer) error) (err error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return err
	}
	var f *os.File
	_, err = createUnique(filepath.Dir(abs), "."+filepath.Base(abs)+".tmp-", func(p string) error {
		f, err = os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		return err
	})
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err := fn(f); err != nil {
		return fmt.Errorf("writing %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), abs)
}

// createUnique creates a new file or folder in dir, named prefix and a
// number, with create, which must fail when the name exists: a name
// someone planted is passed over, never reused. Unlike os.MkdirTemp and
// os.CreateTemp, create chooses the permissions, so the umask applies.
func createUnique(dir, prefix string, create func(string) error) (string, error) {
	var err error
	for range 10000 {
		p := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10))
		if err = create(p); !errors.Is(err, fs.ErrExist) {
			return p, err
		}
	}
	return "", err
}
