package model

import (
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"reflect"
)

// Source reads the files of one log directory, by slash-separated names
// relative to it; collect's *logfs.Dir is one. It is the only way from
// the model to a log file: payloads stay in their files, so that memory
// holds only what a report keeps, and are read back through it.
type Source interface {
	// ReadAt reads n bytes of the regular file name from offset off.
	ReadAt(name string, off, n int64) ([]byte, error)
	// Stat describes the file name without following a symbolic link.
	Stat(name string) (fs.FileInfo, error)
}

// BlobRef locates a payload (an encoded image, a clip, a serialized
// tensor, a graph) inside a log file, by log directory and path, so that
// the model names it the same in every process; the bytes are read back
// on demand through the Source the reference was made with (NewBlobRef),
// or attached again by Read.
type BlobRef struct {
	Logdir string // the log directory's name in the report (Logdir.Name)
	Path   string // the file, slash-separated, relative to the log directory
	Offset int64
	Length int64
	// Encoding is "base64" when the bytes in the file are the payload's
	// standard base64 text (a Visdom image inside JSON), which Read
	// decodes; "" when they are the payload.
	Encoding string

	src Source
}

// NewBlobRef returns a reference to n bytes at offset off of the file path
// (slash-separated) of the log directory named logdir, read through src.
func NewBlobRef(src Source, logdir, path string, off, n int64) BlobRef {
	return BlobRef{Logdir: logdir, Path: path, Offset: off, Length: n, src: src}
}

// errNoSource is the error of a reference without a log directory to read
// from: one made without a source, or read from disk without one.
var errNoSource = errors.New("no log directory to read it from")

// errNotRegular has the words of logfs.ErrNotRegular, which the model
// cannot name without importing a reader.
var errNotRegular = errors.New("not a regular file")

// Sub returns a reference to the n bytes at offset off of what b refers
// to (a part of a payload: one image of a batch); off and n must lie
// within b.
func (b BlobRef) Sub(off, n int64) BlobRef {
	b.Offset += off
	b.Length = n
	return b
}

// Read returns the referenced bytes, read through the log directory that
// held them, which must still be open (see Report.Close).
func (b BlobRef) Read() ([]byte, error) {
	if b.src == nil {
		return nil, fmt.Errorf("%s: %w", b.Path, errNoSource)
	}
	data, err := b.src.ReadAt(b.Path, b.Offset, b.Length)
	if err != nil || b.Encoding == "" {
		return data, err
	}
	if b.Encoding != "base64" {
		return nil, fmt.Errorf("%s: offset %d: unknown encoding %q", b.Path, b.Offset, b.Encoding)
	}
	out := make([]byte, base64.StdEncoding.DecodedLen(len(data)))
	n, err := base64.StdEncoding.Decode(out, data)
	if err != nil {
		return nil, fmt.Errorf("%s: offset %d: %w", b.Path, b.Offset, err)
	}
	return out[:n], nil
}

// Check reports whether the referenced bytes can be read, without reading
// them: the file is still a regular file of its log directory and long
// enough. Pages that refer to a payload written elsewhere use it to say
// where it will not be.
func (b BlobRef) Check() error {
	if b.src == nil {
		return fmt.Errorf("%s: %w", b.Path, errNoSource)
	}
	fi, err := b.src.Stat(b.Path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w", b.Path, errNotRegular)
	}
	return b.within(fi.Size())
}

// within reports whether the referenced bytes lie inside a file of size
// bytes. It compares without adding: a forged offset and length may sum
// past the largest int64.
func (b BlobRef) within(size int64) error {
	if b.Offset < 0 || b.Length < 0 || b.Offset > size || b.Length > size-b.Offset {
		return fmt.Errorf("%s ends at byte %d, before its bytes do (%d bytes at offset %d)", b.Path, size, b.Length, b.Offset)
	}
	return nil
}

// CheckPayloads reports the payload references of the report that cannot
// be read whole through their log directory's source: the file is
// missing, is not a regular file of the directory (a symbolic link, a
// FIFO, a folder), or ends before the reference does, or the reference
// has no source. Each file is described once, however many references
// it holds; the first problems are listed, each naming the reference.
// A model read from another process (Read) is checked so before anything
// reads its payloads: the references are then claims, not facts.
func (r *Report) CheckPayloads() error {
	type file struct{ logdir, path string }
	type stat struct {
		size int64
		err  error
		told bool // err was reported, with the first reference to the file
	}
	stats := map[file]*stat{}
	var errs []error
	refs(reflect.ValueOf(r).Elem(), func(b *BlobRef) {
		if len(errs) > maxProblems {
			return
		}
		f := file{b.Logdir, b.Path}
		st, ok := stats[f]
		if !ok {
			st = &stat{}
			var fi fs.FileInfo
			switch {
			case b.src == nil:
				st.err = fmt.Errorf("%s: %w", b.Path, errNoSource)
			default:
				if fi, st.err = b.src.Stat(b.Path); st.err == nil && !fi.Mode().IsRegular() {
					st.err = fmt.Errorf("%s: %w", b.Path, errNotRegular)
				}
			}
			if st.err == nil {
				st.size = fi.Size()
			}
			stats[f] = st
		}
		err := st.err
		switch {
		case err != nil && st.told:
			return // the file's problem, named with its first reference
		case err != nil:
			st.told = true
		default:
			if err = b.within(st.size); err == nil {
				return
			}
		}
		if len(errs) == maxProblems {
			errs = append(errs, errors.New("more problems not listed"))
			return
		}
		errs = append(errs, fmt.Errorf("payload %s:%s@%d+%d: %w", b.Logdir, b.Path, b.Offset, b.Length, err))
	})
	return errors.Join(errs...)
}

// readChunk is what one Read of a BlobRef's Reader asks of its source:
// each ReadAt opens the file anew (a Source holds nothing open), so
// chunks are large enough for that to cost little next to decoding.
const readChunk = 1 << 20

// Reader returns a reader of the referenced bytes, for payloads decoded as
// a stream (a projector's TSV tensor). It reads through the source in
// chunks and holds no file open.
func (b BlobRef) Reader() io.Reader {
	if b.Encoding == "base64" {
		return base64.NewDecoder(base64.StdEncoding, &blobReader{ref: b})
	}
	return &blobReader{ref: b}
}

type blobReader struct {
	ref  BlobRef
	done int64
}

func (r *blobReader) Read(p []byte) (int, error) {
	left := r.ref.Length - r.done
	if left <= 0 {
		return 0, io.EOF
	}
	if r.ref.src == nil {
		return 0, fmt.Errorf("%s: %w", r.ref.Path, errNoSource)
	}
	n := min(int64(len(p)), left, readChunk)
	b, err := r.ref.src.ReadAt(r.ref.Path, r.ref.Offset+r.done, n)
	if err != nil {
		return 0, err
	}
	r.done += int64(len(b))
	return copy(p, b), nil
}

// Decoders decode the payloads whose format only a reader knows. The
// model reads no log format itself, so that whoever holds a model (a page
// writer, a process that read one from disk) need not depend on protobuf
// or on the readers. The decoders are a value handed from the readers to
// whoever loads a payload, never a registry filled in by init functions:
// package collect builds them from its readers (collect.Decoders) and sets
// them on every report it collects (Report.SetDecoders), and a process
// that reads a model from disk sets them itself, so that the dependency
// on the readers shows in its imports. A nil field is a format whose
// payloads cannot be loaded: Load says so.
type Decoders struct {
	// Tensor decodes the serialized TensorProto of a tensor entry
	// (docs/FORMATS.md section 4): TensorEntry.Load.
	Tensor func(TensorEntry) ([]float64, error)
	// MindSporeTensor decodes the serialized MindSpore TensorProto of a
	// tensor entry of EncodingMindSpore (docs/FORMATS.md section 21).
	MindSporeTensor func(TensorEntry) ([]float64, error)
	// TensorFile decodes a projector tensor (docs/FORMATS.md sections 16
	// and 17), row-major: TensorRef.Load and ExceptionEntry.Load.
	TensorFile func(TensorRef) ([]float64, error)
	// Points decodes an embedding's points as float32, as the projector
	// uses them: Embedding.Load.
	Points func(TensorRef) ([]float32, error)
	// Raw reads a raw projector tensor's bytes within the reader's bounds:
	// TensorRef.Read.
	Raw func(TensorRef) ([]byte, error)
}

// errNoDecoder is the error of a payload whose decoder was not handed
// over.
var errNoDecoder = errors.New("no decoder (set the readers' decoders on the report: collect.Decoders)")

// Or returns d with each of its nil fields taken from e.
func (d Decoders) Or(e Decoders) Decoders {
	if d.Tensor == nil {
		d.Tensor = e.Tensor
	}
	if d.MindSporeTensor == nil {
		d.MindSporeTensor = e.MindSporeTensor
	}
	if d.TensorFile == nil {
		d.TensorFile = e.TensorFile
	}
	if d.Points == nil {
		d.Points = e.Points
	}
	if d.Raw == nil {
		d.Raw = e.Raw
	}
	return d
}
