package event

import "google.golang.org/protobuf/encoding/protowire"

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
