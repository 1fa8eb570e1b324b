package projector

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// Root is a log directory: the bound of every file a config names.
type Root struct {
	dir  string // absolute
	real string // absolute, symbolic links resolved
}

// NewRoot returns the Root of the log directory dir.
func NewRoot(dir string) (*Root, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	return &Root{dir: abs, real: real}, nil
}

// ErrOutside is the error of a path that leaves the log directory.
var ErrOutside = errors.New("leaves the log directory")

// Rel returns p relative to the log directory, slash-separated, or p
// itself when it is outside.
func (r *Root) Rel(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	for _, base := range []string{r.dir, r.real} {
		if rel, ok := within(base, abs); ok {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(p)
}

// within reports whether p lies inside base, and p relative to base.
func within(base, p string) (string, bool) {
	rel, err := filepath.Rel(base, p)
	if err != nil || filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// Resolve returns the file on disk that name, as written in a file of the
// directory dir, refers to. Backslashes count as separators (configs
// written on Windows). A name that leaves the log directory, lexically or
// through a symbolic link, is refused with an error wrapping ErrOutside,
// as is a name that does not exist (fs.ErrNotExist).
func (r *Root) Resolve(dir, name string) (string, error) {
	if name == "" {
		return "", errors.New("empty path")
	}
	slash := strings.ReplaceAll(name, `\`, "/")
	var p string
	if path.IsAbs(slash) || filepath.IsAbs(name) {
		p = filepath.Clean(filepath.FromSlash(slash))
	} else {
		p = filepath.Join(dir, filepath.FromSlash(slash))
	}
	p, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if _, ok := within(r.dir, p); !ok {
		if _, ok := within(r.real, p); !ok {
			return "", fmt.Errorf("path %q %w", name, ErrOutside)
		}
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s: %w", r.Rel(p), fs.ErrNotExist)
		}
		return "", err
	}
	if _, ok := within(r.real, real); !ok {
		return "", fmt.Errorf("path %q %w through a symbolic link", name, ErrOutside)
	}
	return real, nil
}
