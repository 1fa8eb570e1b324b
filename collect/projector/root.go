package projector

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/model"
)

// Root is a log directory: the bound of every file a config names, and
// the only way to read one.
type Root struct {
	src    *logfs.Dir
	logdir string // its name in the report, for the model's references
}

// NewRoot returns the Root of an open log directory, named logdir in the
// report.
func NewRoot(src *logfs.Dir, logdir string) *Root { return &Root{src: src, logdir: logdir} }

// ErrOutside is the error of a path that leaves the log directory.
var ErrOutside = errors.New("leaves the log directory")

// Resolve returns the name inside the log directory of the file that name,
// as written in a file of the directory dir (slash-separated, relative to
// the log directory), refers to; see logfs.Dir.Rel for absolute names and
// backslashes. A name that leaves the log directory, lexically or through
// a symbolic link, is refused with an error wrapping ErrOutside, as is a
// name that does not exist (fs.ErrNotExist).
func (r *Root) Resolve(dir, name string) (string, error) {
	rel, err := r.src.Rel(dir, name)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrOutside, err)
	}
	if _, err := r.src.Stat(rel); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s: %w", rel, fs.ErrNotExist)
		}
		// os.Root refuses a link that points out of the directory.
		return "", fmt.Errorf("path %q %w through a symbolic link (%v)", name, ErrOutside, err)
	}
	return rel, nil
}

// open opens the regular file name of the log directory.
func (r *Root) open(name string) (logfs.File, error) { return r.src.Open(name) }

// location is a file of a log directory, where the tensors found in it
// stay until they are loaded.
type location struct {
	src    *logfs.Dir
	logdir string // the log directory's name in the report
	path   string // slash-separated, relative to src
}

// at returns the location of the file name (slash-separated, relative to
// the log directory) of r.
func (r *Root) at(name string) location { return location{r.src, r.logdir, name} }

// ref returns a reference to n bytes at offset off of the file.
func (p location) ref(off, n int64) model.BlobRef {
	var src model.Source
	if p.src != nil { // no typed nil: a reference without a source says so when read
		src = p.src
	}
	return model.NewBlobRef(src, p.logdir, p.path, off, n)
}
