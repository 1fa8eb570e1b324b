// Package tfrecord reads and writes the record framing of TensorBoard event
// files (docs/FORMATS.md section 2):
//
//	uint64 length, uint32 masked_crc32c(length bytes), data[length], uint32 masked_crc32c(data)
//
// The Reader follows the shape of bufio.Scanner: call Next until it returns
// false, use Record for each record, and Err for why reading stopped. A record
// whose data fails its checksum, or that is larger than MaxRecord, is
// reported through Damage and skipped, and reading goes on; damage to the
// framing itself ends the file, keeping every record before it.
package tfrecord

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// MaskedCRC returns the masked CRC-32C of b, as stored in event files.
func MaskedCRC(b []byte) uint32 {
	c := crc32.Checksum(b, castagnoli)
	return ((c >> 15) | (c << 17)) + 0xa282ead8
}

// Problem classifies what went wrong at some offset of a file.
type Problem int

const (
	// Truncated means the file ends inside a record, as one still being
	// written does. Every record before it is kept.
	Truncated Problem = iota + 1
	// BadLengthCRC means the checksum of a length field does not match:
	// record boundaries are lost for the rest of the file.
	BadLengthCRC
	// BadDataCRC means one record's data does not match its checksum; the
	// record is skipped and reading goes on.
	BadDataCRC
	// LFSPointer means the file is a Git LFS pointer stub standing in for an
	// event file that was never fetched.
	LFSPointer
	// TooLarge means one record's header announces more than MaxRecord
	// bytes; the record is skipped unread and reading goes on.
	TooLarge
)

func (p Problem) String() string {
	switch p {
	case Truncated:
		return "truncated record"
	case BadLengthCRC:
		return "length checksum mismatch"
	case BadDataCRC:
		return "data checksum mismatch"
	case LFSPointer:
		return "Git LFS pointer"
	case TooLarge:
		return "record too large"
	}
	return fmt.Sprintf("Problem(%d)", int(p))
}

// Error describes damage found at a byte offset of a file.
type Error struct {
	File    string  // the name given to NewReader
	Offset  int64   // offset of the start of the damaged record
	Problem Problem // what is wrong
	Detail  string  // specifics, for people
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: offset %d: %s", e.File, e.Offset, e.Detail)
}

const (
	headerLen = 12 // length + length CRC
	footerLen = 4  // data CRC
)

// MaxRecord bounds the data of one record that is read into memory; a
// longer one is skipped (sought past, never read) with a TooLarge damage,
// and reading goes on at the next record. A record is one Event, and what
// writers put in one is at most a few MB: a GraphDef or RunMetadata of a
// big model, a batch of images, an audio clip (the largest record of the
// shared corpus and the writers' fixtures is 331 KB, a TF1 Estimator's
// graph). 64 MiB leaves a wide margin above those (a minute of 16-bit
// stereo audio at 44.1 kHz is 10 MB) while a header announcing more, valid
// CRC or not, can no longer make the reader hold hundreds of MB.
const MaxRecord = 64 << 20

var lfsPrefix = []byte("version https://git-lfs.github.com/spec/")

// Reader reads records from an event file.
//
// It reads the file into a window of its own and hands out records in
// place, so a record costs no copy besides the read itself; the window
// grows for big records only as their bytes arrive (see fill).
type Reader struct {
	src      io.Reader
	name     string
	win      []byte // win[pos:end] is read from src and not yet consumed
	pos, end int
	srcErr   error // what src returned at its end (io.EOF at a clean end)
	off      int64 // offset of win[pos] in the file
	recOff   int64 // offset of the current record
	rec      []byte
	damage   *Error
	err      error
	done     bool
}

// window is the initial size of the read window; bigger records grow it.
const window = 256 << 10

// NewReader returns a Reader over r, which holds the file called name (used
// in error messages only).
func NewReader(r io.Reader, name string) *Reader {
	return &Reader{src: r, name: name}
}

// fill makes at least n unread bytes available in the window unless the
// file ends first, and returns how many are. A full window doubles (up to
// n): growth is geometric, so a record of m bytes costs O(m) copying in
// all, and the window is never more than twice the bytes that have
// arrived, so a corrupt length whose CRC happens to match cannot demand
// memory the file does not back. (It used to grow by 1 MiB at a time:
// a 256 MiB record cost 256 growths and 32 GB of copying.)
func (r *Reader) fill(n int) int {
	for r.end-r.pos < n && r.srcErr == nil {
		if r.pos > 0 && r.end-r.pos < len(r.win)/2 || r.end == len(r.win) && r.pos > 0 {
			r.end = copy(r.win, r.win[r.pos:r.end])
			r.pos = 0
		}
		if r.end == len(r.win) {
			size := max(window, min(r.pos+n, 2*len(r.win)))
			w := make([]byte, size)
			r.end = copy(w, r.win[r.pos:r.end])
			r.win, r.pos = w, 0
		}
		m, err := r.src.Read(r.win[r.end:])
		r.end += m
		if err != nil {
			r.srcErr = err
		}
	}
	return r.end - r.pos
}

// Next advances to the next record or to the next damaged record, and
// reports whether there is one. It returns false at the end of the file or
// when the rest of the file cannot be read; Err then says which.
func (r *Reader) Next() bool {
	if r.done {
		return false
	}
	r.rec, r.damage = nil, nil
	if r.off == 0 && r.pos == 0 {
		if have := r.fill(len(lfsPrefix)); have >= len(lfsPrefix) && bytes.Equal(r.win[:len(lfsPrefix)], lfsPrefix) {
			return r.stop(&Error{File: r.name, Problem: LFSPointer,
				Detail: "Git LFS pointer stub, not an event file (fetch it with `git lfs pull`)"})
		}
	}
	r.recOff = r.off
	if have := r.fill(headerLen); have < headerLen {
		if have == 0 {
			return r.stop(r.srcError())
		}
		if err := r.srcError(); err != nil {
			return r.stop(err)
		}
		return r.stop(r.truncated(int64(have), 0))
	}
	hdr := r.win[r.pos : r.pos+headerLen]
	length := binary.LittleEndian.Uint64(hdr[:8])
	if got, want := MaskedCRC(hdr[:8]), binary.LittleEndian.Uint32(hdr[8:]); got != want {
		return r.stop(r.errorf(BadLengthCRC, "length checksum mismatch (stored %#08x, computed %#08x); the rest of the file is unreadable", want, got))
	}
	total := headerLen + length + footerLen
	if total < length || total > math.MaxInt/2 { // an absurd length
		return r.stop(r.errorf(Truncated, "truncated record: its length header announces %d bytes, more than any file holds", length))
	}
	if length > MaxRecord {
		return r.skip(length, int64(total))
	}
	if have := r.fill(int(total)); have < int(total) {
		if err := r.srcError(); err != nil {
			return r.stop(err)
		}
		return r.stop(r.truncated(int64(have), length))
	}
	data := r.win[r.pos+headerLen : r.pos+headerLen+int(length)]
	stored := binary.LittleEndian.Uint32(r.win[r.pos+headerLen+int(length):])
	r.pos += int(total)
	r.off += int64(total)
	if got := MaskedCRC(data); got != stored {
		r.damage = r.errorf(BadDataCRC, "data checksum mismatch in a %d-byte record (stored %#08x, computed %#08x); record skipped", length, stored, got)
		return true
	}
	r.rec = data
	return true
}

// skip passes over the current record, whose header announces length data
// bytes (total with its framing), without reading it into memory: by
// seeking when the source can, else by reading it through a small buffer.
// It reports the record as TooLarge damage and reading goes on after it;
// a file that ends inside the record is truncated there, as for any other
// record. The data's checksum is not checked: that would mean reading it.
func (r *Reader) skip(length uint64, total int64) bool {
	if err := r.srcError(); err != nil {
		return r.stop(err)
	}
	buffered := int64(r.end - r.pos)
	rest := total - buffered // bytes of the record still in the file
	got, err := int64(0), error(nil)
	if rest > 0 && r.srcErr == nil {
		got, err = r.discard(rest)
	}
	r.pos += int(min(buffered, total))
	if err != nil {
		r.srcErr = err
		return r.stop(r.srcError())
	}
	if got < rest {
		return r.stop(r.truncated(buffered+got, length))
	}
	r.off += total
	r.damage = r.errorf(TooLarge, "record of %d bytes is larger than the %d MiB limit; skipped unread", length, MaxRecord>>20)
	return true
}

// discard passes over the next n bytes of the source and returns how many
// it passed before the source ended: by seeking when the source can, else
// by reading them through a small buffer.
func (r *Reader) discard(n int64) (int64, error) {
	if s, ok := r.src.(io.Seeker); ok {
		if cur, err := s.Seek(0, io.SeekCurrent); err == nil {
			end, err := s.Seek(0, io.SeekEnd)
			if err != nil {
				return 0, err
			}
			to := cur + min(n, max(0, end-cur))
			if _, err := s.Seek(to, io.SeekStart); err != nil {
				return 0, err
			}
			return to - cur, nil
		}
		// Not seekable after all (a pipe): read through.
	}
	got, err := io.CopyN(io.Discard, r.src, n)
	if err == io.EOF {
		err = nil
	}
	return got, err
}

// srcError is the error that ended the file early, or nil at a clean end.
func (r *Reader) srcError() error {
	if r.srcErr == nil || r.srcErr == io.EOF {
		return nil
	}
	return fmt.Errorf("%s: offset %d: %w", r.name, r.off+int64(r.end-r.pos), r.srcErr)
}

// truncated is the Truncated error of a record of which the file holds
// only the first have bytes, its header announcing length data bytes
// (read only when have covers the header): it says in which part of the
// record the file ends and how much of that part is there: "header
// announces 338754 data bytes, file ends after 336433" left the reader to
// work out what was missing.
func (r *Reader) truncated(have int64, length uint64) *Error {
	switch data := have - headerLen; {
	case have < headerLen:
		return r.errorf(Truncated, "truncated record: the file ends in the record's length header (%d of %d bytes)", have, headerLen)
	case uint64(data) < length:
		return r.errorf(Truncated, "truncated record: the file ends in the record's data (%d of %d bytes)", data, length)
	default: // the data is whole: only (part of) its checksum is missing
		return r.errorf(Truncated, "truncated record: the file ends in the record's checksum (%d of %d bytes; its %d data bytes are whole)",
			uint64(data)-length, footerLen, length)
	}
}

func (r *Reader) errorf(p Problem, format string, args ...any) *Error {
	return &Error{File: r.name, Offset: r.recOff, Problem: p, Detail: fmt.Sprintf(format, args...)}
}

func (r *Reader) stop(err error) bool {
	r.done, r.err, r.rec, r.damage = true, err, nil, nil
	return false
}

// Record returns the data of the current record, or nil when the current
// record is damaged. It is valid until the next call to Next; callers copy
// what they keep.
func (r *Reader) Record() []byte { return r.rec }

// Damage returns the *Error describing the current record when its data
// failed the checksum or it was too large to read (TooLarge), or nil.
func (r *Reader) Damage() *Error { return r.damage }

// Offset returns the byte offset of the current record.
func (r *Reader) Offset() int64 { return r.recOff }

// Err returns why reading stopped: nil at a clean end of file, an *Error
// for damage that ends the file, or an I/O error.
func (r *Reader) Err() error { return r.err }

// AsError reports whether err is an *Error and returns it.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

// Writer writes records to an event file.
type Writer struct {
	w   io.Writer
	buf []byte
}

// NewWriter returns a Writer that frames records onto w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes data as one record.
func (w *Writer) Write(data []byte) error {
	w.buf = AppendRecord(w.buf[:0], data)
	_, err := w.w.Write(w.buf)
	return err
}

// AppendRecord appends data, framed as one record, to dst.
func AppendRecord(dst, data []byte) []byte {
	var hdr [headerLen]byte
	binary.LittleEndian.PutUint64(hdr[:8], uint64(len(data)))
	binary.LittleEndian.PutUint32(hdr[8:], MaskedCRC(hdr[:8]))
	dst = append(dst, hdr[:]...)
	dst = append(dst, data...)
	return binary.LittleEndian.AppendUint32(dst, MaskedCRC(data))
}

// DataOffset returns the byte offset of the current record's data.
func (r *Reader) DataOffset() int64 { return r.recOff + headerLen }
