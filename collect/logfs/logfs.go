// Package logfs is the one door through which collection reads a log
// directory. Logs come from other people (a tarball, a cloned repository,
// a shared folder), so every name in them is untrusted: a Dir opens only
// regular files, only below its root, follows no symbolic link inside it
// (the directory itself may be one), never blocks on a FIFO or a device,
// and reads a side file only up to a size its caller bounds.
//
// Payloads read back after collection (images, clips, tensors, graphs) go
// through the same Dir, so nothing later in the flow opens a path itself.
//
// A Dir is a folder (Open) or a prefix of a bucket in object storage
// (OpenURL, bucket.go): the same names, the same refusals, the same bounds.
package logfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
)

// ErrNotRegular is the error of a name that is not a regular file, or is
// reached through something that is not a directory: a FIFO, a device, a
// socket, a directory or a symbolic link.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error of a file over the size its reader allows.
var ErrTooLarge = errors.New("too large")

// Dir is an open log directory. Its methods take slash-separated names
// relative to it and are safe for concurrent use.
type Dir struct {
	root *os.Root
	bkt  *bucket // instead of root, for a log directory in a bucket
	path string  // as given, for messages
	abs  string  // absolute, for names that configs write as absolute paths
	real string  // abs with symbolic links resolved

	mu     sync.Mutex
	opened map[string]fs.FileInfo // every file opened, by name, so outputs can refuse to name one
}

// Open opens the directory at p as a log directory.
func Open(p string) (*Dir, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(p)
	if err != nil {
		return nil, err
	}
	return &Dir{root: root, path: p, abs: abs, real: real}, nil
}

// OpenIn opens the directory name below root as a log directory, for a
// caller that is given the root and only a claim about what lies below
// it (a part read by merge names its log directories so). name is
// slash-separated and relative: a clean path that leaves nothing
// (fs.ValidPath: no "..", no leading "/", no empty or "." element; "."
// is root itself). The way to it may pass through symbolic links, but
// os.Root keeps it inside root whatever they point at; inside the
// directory, the rules of Open hold.
func OpenIn(root *os.Root, name string) (*Dir, error) {
	if !fs.ValidPath(name) {
		return nil, fmt.Errorf("%q is not a clean relative path below %s", name, root.Name())
	}
	sub, err := root.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	p := filepath.Join(root.Name(), filepath.FromSlash(name))
	abs, err := filepath.Abs(p)
	if err != nil {
		sub.Close()
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		real = abs // for Rel only: the directory is open, whatever its name now
	}
	return &Dir{root: sub, path: p, abs: abs, real: real}, nil
}

// Close releases the directory. Payloads cannot be read from it afterwards.
func (d *Dir) Close() error {
	if d.bkt != nil {
		return d.bkt.b.Close()
	}
	return d.root.Close()
}

// Path returns the directory's path as it was given to Open, or its URL
// without query or user information (Redact) for a bucket.
func (d *Dir) Path() string { return d.path }

// File is an open regular file of a log directory: an *os.File in a
// folder, an object read by range requests in a bucket.
type File interface {
	io.Reader
	io.ReaderAt
	io.Seeker
	io.Closer
	Stat() (fs.FileInfo, error)
}

// Open opens the regular file name for reading. A name that leaves the
// directory (by "..", an absolute path or a symbolic link), that passes
// through a symbolic link, or that is not a regular file is refused.
func (d *Dir) Open(name string) (File, error) {
	fi, err := d.Stat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", name, ErrNotRegular, describe(fi.Mode()))
	}
	if d.bkt != nil {
		return d.bkt.open(path.Clean(name), fi), nil
	}
	// Open without blocking and without following a link: the name may
	// have changed since the checks above, and opening a FIFO for reading
	// waits for a writer, which a hostile log would never provide.
	f, err := d.root.OpenFile(path.Clean(name), os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	// The name may have been swapped between the two calls.
	if fi, err = f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%s: %w (%s)", name, ErrNotRegular, describe(fi.Mode()))
		}
		return nil, err
	}
	d.mu.Lock()
	if d.opened == nil {
		d.opened = map[string]fs.FileInfo{}
	}
	d.opened[path.Clean(name)] = fi // no link is followed: one name per file
	d.mu.Unlock()
	return f, nil
}

// Opened reports whether fi is a file that was opened through d: an
// output must never replace one. No local file is one of a bucket's.
func (d *Dir) Opened(fi fs.FileInfo) bool {
	if d.bkt != nil {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, o := range d.opened {
		if os.SameFile(o, fi) {
			return true
		}
	}
	return false
}

// ReadFile reads the whole regular file name, refusing one of more than
// limit bytes with an error wrapping ErrTooLarge. The limit holds however
// the file grows while it is read.
func (d *Dir) ReadFile(name string, limit int64) ([]byte, error) {
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > limit {
		return nil, fmt.Errorf("%s: %w: %d bytes, over the %d read", name, ErrTooLarge, fi.Size(), limit)
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: %w: over the %d bytes read", name, ErrTooLarge, limit)
	}
	return b, nil
}

// ReadAt reads n bytes of the regular file name from offset off.
func (d *Dir) ReadAt(name string, off, n int64) ([]byte, error) {
	if off < 0 || n < 0 {
		return nil, fmt.Errorf("%s: bad range %d+%d", name, off, n)
	}
	f, err := d.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The range comes from an earlier read of the same file; a file that
	// shrank since must not make us allocate what it claims.
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if off > fi.Size() || n > fi.Size()-off {
		return nil, fmt.Errorf("%s: offset %d: %d bytes wanted, the file holds %d", name, off, n, fi.Size())
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, off); err != nil && !(errors.Is(err, io.EOF) && n == 0) {
		return nil, fmt.Errorf("%s: offset %d: %w", name, off, err)
	}
	return buf, nil
}

// Stat describes the file name. Like Open, it refuses a name that leaves
// the directory or passes through a symbolic link; the last element of
// name may be one, and is then described as a link.
func (d *Dir) Stat(name string) (fs.FileInfo, error) {
	name = path.Clean(name)
	if d.bkt != nil {
		// A key is refused as a listed one is: what could not be listed
		// cannot be named.
		if name != "." && (!fs.ValidPath(name) || !validName(name)) {
			return nil, fmt.Errorf("path %q is not a plain name in the log directory", name)
		}
		return d.bkt.stat(name)
	}
	if name == "." {
		return d.root.Stat(name)
	}
	if !fs.ValidPath(name) {
		return nil, fmt.Errorf("path %q leaves the log directory", name)
	}
	// os.Root keeps every name inside the directory; refusing links inside
	// it too keeps one rule for what is read, whatever discovery or a
	// config names: what the log directory holds as files, nothing else.
	parts := strings.Split(name, "/")
	for i := range parts {
		p := strings.Join(parts[:i+1], "/")
		fi, err := d.root.Lstat(p)
		if err != nil {
			return nil, err
		}
		if i == len(parts)-1 {
			return fi, nil
		}
		if !fi.IsDir() {
			return nil, fmt.Errorf("%s: %w (%s)", p, ErrNotRegular, describe(fi.Mode()))
		}
	}
	panic("unreachable")
}

// Walk calls fn for every regular file below the directory, in lexical
// order, with its slash-separated name and size. Everything else that is
// not a directory (symbolic links, FIFOs, devices, sockets) and every
// directory that cannot be read is passed to refused with the reason;
// symbolic links are not followed, so a link to a directory outside is
// never entered. Walk stops at the first error fn returns.
//
// In a bucket, the listing is paged and its directories listed
// concurrently; a key that is not a plain name is refused under its
// quoted form.
func (d *Dir) Walk(fn func(name string, size int64) error, refused func(name string, err error)) error {
	if d.bkt != nil {
		return d.bkt.walk(fn, refused)
	}
	return fs.WalkDir(d.root.FS(), ".", func(name string, e fs.DirEntry, err error) error {
		if err != nil {
			if name == "." {
				return err
			}
			refused(name, err)
			return nil
		}
		switch t := e.Type(); {
		case t.IsDir():
			return nil
		case !t.IsRegular():
			refused(name, fmt.Errorf("%w (%s): not read", ErrNotRegular, describe(t)))
			return nil
		}
		info, err := e.Info()
		if err != nil {
			refused(name, err)
			return nil
		}
		return fn(name, info.Size())
	})
}

// Rel returns the name inside the directory of p, a path as a log file
// writes it: relative to dir (a slash-separated name inside the log
// directory), or absolute, which must lie below the log directory as it
// is now (configs record the absolute paths of their files, which hold
// when the log directory has not moved). Backslashes count as separators
// (files written on Windows). A name that leaves the directory lexically
// is refused; one that passes through a symbolic link is refused when it
// is opened.
func (d *Dir) Rel(dir, p string) (string, error) {
	if p == "" {
		return "", errors.New("empty path")
	}
	slash := strings.ReplaceAll(p, `\`, "/")
	if path.IsAbs(slash) || filepath.IsAbs(p) {
		abs := filepath.Clean(filepath.FromSlash(slash))
		for _, base := range []string{d.abs, d.real} {
			if rel, err := filepath.Rel(base, abs); err == nil && filepath.IsLocal(rel) {
				return filepath.ToSlash(rel), nil
			} else if err == nil && rel == "." {
				return ".", nil
			}
		}
		return "", fmt.Errorf("path %q leaves the log directory", p)
	}
	name := path.Join(dir, slash)
	if name != "." && !fs.ValidPath(name) {
		return "", fmt.Errorf("path %q leaves the log directory", p)
	}
	return name, nil
}

// describe names a file mode's type for messages.
func describe(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m.IsDir():
		return "directory"
	}
	return "irregular file"
}
