package event

import (
	"github.com/trainreport/trainreport/collect/eventpb"
	"google.golang.org/protobuf/encoding/protowire"
)

// Step names one length-delimited field on a path into a message: the N-th
// (0-based) occurrence of field Num.
type Step struct {
	Num protowire.Number
	N   int
}

// Locate returns the byte range [start, end) of the length-delimited field
// reached by path from msg, so that large payloads (images, audio, tensors)
// can be kept as a reference into the file and read back only when needed.
func Locate(msg []byte, path ...Step) (start, end int, ok bool) {
	base := 0
	for _, st := range path {
		s, e, found := field(msg, st.Num, st.N)
		if !found {
			return 0, 0, false
		}
		base += s
		msg = msg[s:e]
	}
	return base, base + len(msg), true
}

// field finds the n-th occurrence of length-delimited field num in msg.
func field(msg []byte, num protowire.Number, n int) (start, end int, ok bool) {
	off := 0
	for off < len(msg) {
		f, typ, tl := protowire.ConsumeTag(msg[off:])
		if tl < 0 {
			return 0, 0, false
		}
		if typ == protowire.BytesType {
			v, vl := protowire.ConsumeBytes(msg[off+tl:])
			if vl < 0 {
				return 0, 0, false
			}
			if f == num {
				if n == 0 {
					s := off + tl + vl - len(v)
					return s, s + len(v), true
				}
				n--
			}
			off += tl + vl
			continue
		}
		vl := protowire.ConsumeFieldValue(f, typ, msg[off+tl:])
		if vl < 0 {
			return 0, 0, false
		}
		off += tl + vl
	}
	return 0, 0, false
}

// wireField is one field of a message: its number and type, where its
// encoding (tag included) lies in the message, and the body of a
// length-delimited one.
type wireField struct {
	num        protowire.Number
	typ        protowire.Type
	start, end int
	body       []byte // for protowire.BytesType
	bodyStart  int
}

// fields calls yield for each field of msg in order until yield returns
// false, and reports whether msg parsed to its end (false when a field is
// cut or malformed; the fields before it have been yielded).
func fields(msg []byte, yield func(wireField) bool) bool {
	for off := 0; off < len(msg); {
		num, typ, tl := protowire.ConsumeTag(msg[off:])
		if tl < 0 {
			return false
		}
		vl := protowire.ConsumeFieldValue(num, typ, msg[off+tl:])
		if vl < 0 {
			return false
		}
		f := wireField{num: num, typ: typ, start: off, end: off + tl + vl}
		if typ == protowire.BytesType {
			f.body, _ = protowire.ConsumeBytes(msg[off+tl:])
			f.bodyStart = f.end - len(f.body)
		}
		if !yield(f) {
			return true
		}
		off = f.end
	}
	return true
}

// TensorStrings returns how many strings the tensor of a serialized
// Summary.Value holds, from the wire and without decoding them, so that a
// caller can refuse a tensor before the decoder spends some 60 bytes on
// each (a string of 2 bytes on disk decodes to a 24-byte slice header in
// a slice that grows to hold them all).
func TensorStrings(value []byte) int {
	n := 0
	fields(value, func(f wireField) bool {
		if f.num == eventpb.FieldValueTensor && f.typ == protowire.BytesType {
			n += count(f.body, eventpb.FieldTensorString)
		}
		return true
	})
	return n
}

// count returns how many times the length-delimited field num occurs in
// msg, up to where msg stops parsing.
func count(msg []byte, num protowire.Number) int {
	n := 0
	fields(msg, func(f wireField) bool {
		if f.num == num && f.typ == protowire.BytesType {
			n++
		}
		return true
	})
	return n
}

// WithoutTensor returns a copy of a serialized Summary.Value without its
// tensor, so that its tag and metadata can be read when the tensor is not.
func WithoutTensor(value []byte) []byte {
	out := make([]byte, 0, len(value))
	fields(value, func(f wireField) bool {
		if f.num != eventpb.FieldValueTensor {
			out = append(out, value[f.start:f.end]...)
		}
		return true
	})
	return out
}

// LocateAll returns the byte ranges [start, end) of every occurrence of
// the length-delimited field num in msg, in order, in one pass: Locate
// per occurrence would walk msg once for each, quadratic in their number.
func LocateAll(msg []byte, num protowire.Number) (ranges [][2]int, ok bool) {
	ok = fields(msg, func(f wireField) bool {
		if f.num == num && f.typ == protowire.BytesType {
			ranges = append(ranges, [2]int{f.bodyStart, f.end})
		}
		return true
	})
	if !ok {
		return nil, false
	}
	return ranges, true
}
