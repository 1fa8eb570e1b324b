package projector

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/trainreport/trainreport/collect/event"
)

// dtype is a numpy dtype as OneFlow and TS-VIS name it: str(array.dtype),
// which is a name ("float32", "int64", "bool") for numbers and an
// array-protocol string ("<U5", "|S8") for text; array-protocol strings of
// numbers ("<f4", ">i8") are accepted too. "bfloat16" (ml_dtypes' name,
// which TensorFlow's numpy arrays use) is for checkpoint tensors.
type dtype struct {
	kind byte // 'f' float, 'B' bfloat16, 'i' signed, 'u' unsigned, 'b' bool, 'U' UTF-32 text, 'S' bytes
	size int  // bytes per element
	big  bool // big-endian
}

var dtypeNames = map[string]dtype{
	"float16": {kind: 'f', size: 2}, "bfloat16": {kind: 'B', size: 2}, "float32": {kind: 'f', size: 4}, "float64": {kind: 'f', size: 8},
	"int8": {kind: 'i', size: 1}, "int16": {kind: 'i', size: 2}, "int32": {kind: 'i', size: 4}, "int64": {kind: 'i', size: 8},
	"uint8": {kind: 'u', size: 1}, "uint16": {kind: 'u', size: 2}, "uint32": {kind: 'u', size: 4}, "uint64": {kind: 'u', size: 8},
	"bool": {kind: 'b', size: 1},
}

// maxStringWidth bounds the characters of one text element.
const maxStringWidth = 1 << 16

func parseDType(s string) (dtype, error) {
	if d, ok := dtypeNames[s]; ok {
		return d, nil
	}
	bad := fmt.Errorf("unsupported dtype %q", s)
	if len(s) < 2 {
		return dtype{}, bad
	}
	var d dtype
	switch s[0] {
	case '<', '|', '=':
		s = s[1:]
	case '>':
		d.big, s = true, s[1:]
	}
	if len(s) < 2 {
		return dtype{}, bad
	}
	d.kind = s[0]
	n, err := strconv.Atoi(s[1:])
	if err != nil || n <= 0 || n > maxStringWidth {
		return dtype{}, bad
	}
	switch d.kind {
	case 'U':
		d.size = 4 * n
	case 'S':
		d.size = n
	case 'f':
		if n != 2 && n != 4 && n != 8 {
			return dtype{}, bad
		}
		d.size = n
	case 'i', 'u':
		if n != 1 && n != 2 && n != 4 && n != 8 {
			return dtype{}, bad
		}
		d.size = n
	case 'b':
		if n != 1 {
			return dtype{}, bad
		}
		d.size = n
	default:
		return dtype{}, bad
	}
	return d, nil
}

func (d dtype) numeric() bool { return d.kind != 'U' && d.kind != 'S' }

func (d dtype) order() binary.ByteOrder {
	if d.big {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// value decodes the numeric element b (d.size bytes).
func (d dtype) value(b []byte) float64 {
	o := d.order()
	switch d.kind {
	case 'f':
		switch d.size {
		case 2:
			return float64(event.HalfToFloat32(o.Uint16(b)))
		case 4:
			return float64(math.Float32frombits(o.Uint32(b)))
		default:
			return math.Float64frombits(o.Uint64(b))
		}
	case 'B':
		return float64(event.BFloat16ToFloat32(o.Uint16(b)))
	case 'i':
		switch d.size {
		case 1:
			return float64(int8(b[0]))
		case 2:
			return float64(int16(o.Uint16(b)))
		case 4:
			return float64(int32(o.Uint32(b)))
		default:
			return float64(int64(o.Uint64(b)))
		}
	case 'u':
		switch d.size {
		case 1:
			return float64(b[0])
		case 2:
			return float64(o.Uint16(b))
		case 4:
			return float64(o.Uint32(b))
		default:
			return float64(o.Uint64(b))
		}
	case 'b':
		if b[0] != 0 {
			return 1
		}
	}
	return 0
}

// text decodes element b as numpy prints it: text elements lose their
// NUL padding, integers and booleans print exactly, floats in the shortest
// form that reads back.
func (d dtype) text(b []byte) string {
	switch d.kind {
	case 'U':
		var sb strings.Builder
		for i := 0; i+4 <= len(b); i += 4 {
			r := rune(d.order().Uint32(b[i:]))
			if r == 0 {
				break
			}
			if !utf8.ValidRune(r) {
				r = utf8.RuneError
			}
			sb.WriteRune(r)
		}
		return sb.String()
	case 'S':
		if i := strings.IndexByte(string(b), 0); i >= 0 {
			b = b[:i]
		}
		return strings.ToValidUTF8(string(b), "\uFFFD")
	case 'b':
		if b[0] != 0 {
			return "True"
		}
		return "False"
	case 'f', 'B':
		bits := 64
		if d.size < 8 {
			bits = 32
		}
		return strconv.FormatFloat(d.value(b), 'g', -1, bits)
	case 'u':
		o := d.order()
		switch d.size {
		case 1:
			return strconv.FormatUint(uint64(b[0]), 10)
		case 2:
			return strconv.FormatUint(uint64(o.Uint16(b)), 10)
		case 4:
			return strconv.FormatUint(uint64(o.Uint32(b)), 10)
		}
		return strconv.FormatUint(o.Uint64(b), 10)
	}
	if d.size == 8 {
		return strconv.FormatInt(int64(d.order().Uint64(b)), 10)
	}
	return strconv.FormatInt(int64(d.value(b)), 10)
}

// elements returns the element count of shape, or an error when a
// dimension is negative or the count exceeds limit.
func elements(shape []int64, limit int64) (int64, error) {
	n := int64(1)
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("shape %v has a negative dimension", shape)
		}
		if d != 0 && n > limit/d {
			return 0, fmt.Errorf("shape %v holds more than %d values", shape, limit)
		}
		n *= d
	}
	if n > limit {
		return 0, fmt.Errorf("shape %v holds more than %d values", shape, limit)
	}
	return n, nil
}
