package projector

import (
	"errors"
	"fmt"
	"io"

	"github.com/trainreport/trainreport/collect/eventpb"
	"google.golang.org/protobuf/encoding/protowire"
)

// wire walks the fields of a serialized message in a file (or a record in
// memory) without reading it whole: bytes fields are returned as spans,
// so a tensor's content stays in its file and only what is asked for is
// read. Every length is checked against the enclosing message before it is
// trusted.
type wire struct {
	r        io.ReaderAt
	off, end int64 // the unread part of the message
	err      error
}

// field is one field of a message: its number and wire type, the value of
// a scalar, or the span of a bytes field.
type field struct {
	num protowire.Number
	typ protowire.Type
	v   uint64
	off int64 // bytes fields: offset of the value
	n   int64 // bytes fields: length of the value
}

var errMalformed = errors.New("malformed protobuf")

func (w *wire) fail(format string, args ...any) bool {
	if w.err == nil {
		w.err = fmt.Errorf("%w at offset %d: %s", errMalformed, w.off, fmt.Sprintf(format, args...))
	}
	return false
}

// next reads the next field into f; it returns false at the end of the
// message or on malformed input, which w.err then holds.
func (w *wire) next(f *field) bool {
	if w.err != nil || w.off >= w.end {
		return false
	}
	tag, ok := w.varint()
	if !ok {
		return false
	}
	num, typ := protowire.DecodeTag(tag)
	if !num.IsValid() {
		return w.fail("invalid field number %d", num)
	}
	*f = field{num: num, typ: typ}
	switch typ {
	case protowire.VarintType:
		f.v, ok = w.varint()
		return ok
	case protowire.Fixed32Type:
		b, ok := w.fixed(4)
		f.v = uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24
		return ok
	case protowire.Fixed64Type:
		b, ok := w.fixed(8)
		for i := 7; i >= 0; i-- {
			f.v = f.v<<8 | uint64(b[i])
		}
		return ok
	case protowire.BytesType:
		n, ok := w.varint()
		if !ok {
			return false
		}
		if n > uint64(w.end-w.off) {
			return w.fail("field %d claims %d bytes, the message has %d left", num, n, w.end-w.off)
		}
		f.off, f.n = w.off, int64(n)
		w.off += int64(n)
		return true
	}
	return w.fail("unsupported wire type %d in field %d", typ, num)
}

func (w *wire) varint() (uint64, bool) {
	var buf [maxVarintLen]byte
	n := min(int64(len(buf)), w.end-w.off)
	m, err := w.r.ReadAt(buf[:n], w.off)
	if m < int(n) && err != nil && err != io.EOF {
		w.err = fmt.Errorf("offset %d: %w", w.off, err)
		return 0, false
	}
	v, l := protowire.ConsumeVarint(buf[:m])
	if l < 0 {
		return 0, w.fail("bad varint")
	}
	w.off += int64(l)
	return v, true
}

const maxVarintLen = 10 // bytes of the longest varint

func (w *wire) fixed(n int64) ([8]byte, bool) {
	var buf [8]byte
	if w.end-w.off < n {
		return buf, w.fail("message ends inside a fixed-size field")
	}
	if m, err := w.r.ReadAt(buf[:n], w.off); m < int(n) {
		w.err = fmt.Errorf("offset %d: %w", w.off, err)
		return buf, false
	}
	w.off += n
	return buf, true
}

// sub returns a walker over the message held by bytes field f.
func (w *wire) sub(f field) *wire {
	return &wire{r: w.r, off: f.off, end: f.off + f.n}
}

// bytes reads bytes field f, refusing more than limit bytes.
func (w *wire) bytes(f field, limit int64) ([]byte, error) {
	if f.typ != protowire.BytesType {
		return nil, fmt.Errorf("%w: field %d is not length-delimited", errMalformed, f.num)
	}
	if f.n > limit {
		return nil, fmt.Errorf("field %d holds %d bytes, more than the %d accepted", f.num, f.n, limit)
	}
	b := make([]byte, f.n)
	if m, err := w.r.ReadAt(b, f.off); m < len(b) {
		return nil, fmt.Errorf("offset %d: %w", f.off, err)
	}
	return b, nil
}

// str reads a short string field; longer ones are cut to limit bytes.
func (w *wire) str(f field, limit int64) string {
	g := f
	g.n = min(f.n, limit)
	b, err := w.bytes(g, limit)
	if err != nil {
		return ""
	}
	return string(b)
}

// npTensor is a NumpyTensor found by the walker: its dtype and shape read,
// its content left in place.
type npTensor struct {
	dtype      string
	shape      []int64
	off, n     int64 // span of the content
	hasContent bool
}

// maxRank bounds the dimensions of a tensor (numpy's own limit is 64).
const maxRank = 64

// readTensor reads a NumpyTensor message (dtype=1, shape=2 {dim=1 {size=1}},
// content=3).
func readTensor(w *wire) (npTensor, error) {
	var t npTensor
	var f field
	for w.next(&f) {
		if f.typ != protowire.BytesType {
			continue
		}
		switch f.num {
		case eventpb.FieldNumpyDtype:
			t.dtype = w.str(f, 64)
		case eventpb.FieldNumpyShape:
			s := w.sub(f)
			var d field
			for s.next(&d) {
				if d.num != eventpb.FieldNumpyDim || d.typ != protowire.BytesType {
					continue
				}
				if len(t.shape) == maxRank {
					return t, fmt.Errorf("tensor has more than %d dimensions", maxRank)
				}
				dim := w.sub(d)
				var size int64
				var g field
				for dim.next(&g) {
					if g.num == eventpb.FieldNumpyDimSize && g.typ == protowire.VarintType {
						size = int64(g.v)
					}
				}
				if dim.err != nil {
					return t, dim.err
				}
				t.shape = append(t.shape, size)
			}
			if s.err != nil {
				return t, s.err
			}
		case eventpb.FieldNumpyContent:
			t.off, t.n, t.hasContent = f.off, f.n, true
		}
	}
	return t, w.err
}
