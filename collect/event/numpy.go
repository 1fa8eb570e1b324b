package event

import (
	"encoding/binary"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// numpyDTypes maps the numpy dtype names TS-VIS writes in a TensorProto
// (str(array.dtype), and the little-endian array-protocol forms) to
// TensorFlow's enum, for the numeric dtypes.
var numpyDTypes = map[string]eventpb.DataType{
	"float16": eventpb.DataType_DT_HALF, "float32": eventpb.DataType_DT_FLOAT, "float64": eventpb.DataType_DT_DOUBLE,
	"int8": eventpb.DataType_DT_INT8, "int16": eventpb.DataType_DT_INT16, "int32": eventpb.DataType_DT_INT32,
	"int64": eventpb.DataType_DT_INT64, "uint8": eventpb.DataType_DT_UINT8, "uint16": eventpb.DataType_DT_UINT16,
	"uint32": eventpb.DataType_DT_UINT32, "uint64": eventpb.DataType_DT_UINT64, "bool": eventpb.DataType_DT_BOOL,
	"<f2": eventpb.DataType_DT_HALF, "<f4": eventpb.DataType_DT_FLOAT, "<f8": eventpb.DataType_DT_DOUBLE,
	"|i1": eventpb.DataType_DT_INT8, "<i2": eventpb.DataType_DT_INT16, "<i4": eventpb.DataType_DT_INT32,
	"<i8": eventpb.DataType_DT_INT64, "|u1": eventpb.DataType_DT_UINT8, "<u2": eventpb.DataType_DT_UINT16,
	"<u4": eventpb.DataType_DT_UINT32, "<u8": eventpb.DataType_DT_UINT64, "|b1": eventpb.DataType_DT_BOOL,
}

// NumpyDType gives t the dtype TS-VIS names in its place: TS-VIS's
// TensorProto has a string at field 1, numpy's name of the array's dtype
// ("float32"), where TensorFlow's has an enum (docs/FORMATS.md section
// 17), so the generated decoder keeps it as an unknown field and t reads
// as having no dtype. TS-VIS writes the array's bytes (tobytes(): C order,
// the machine's byte order, little-endian on the machines it runs on) as
// tensor_content, field 4 in both. NumpyDType reports whether it set a
// numeric dtype; a tensor with a dtype, with none, or with a numpy dtype
// that is not a little-endian number (text, "<U5") is left as it is.
func NumpyDType(t *eventpb.TensorProto) bool {
	if t == nil || t.GetDtype() != eventpb.DataType_DT_INVALID {
		return false
	}
	name, ok := numpyName(t)
	if !ok {
		return false
	}
	dt, ok := numpyDTypes[name]
	if ok {
		t.Dtype = dt
	}
	return ok
}

// NumpyText turns a TS-VIS tensor of numpy text (dtype "<U<n>": n UTF-32
// code points per element, NUL-padded, little-endian), which TS-VIS
// writes for the words of hidden states and the sentences and tokens of
// attention, into a string tensor (DT_STRING, its strings in string_val),
// as TensorFlow writes text. It reports whether it did; it leaves any
// other tensor, and one of more than max elements, as it is.
func NumpyText(t *eventpb.TensorProto, max int) bool {
	if t == nil || t.GetDtype() != eventpb.DataType_DT_INVALID {
		return false
	}
	name, ok := numpyName(t)
	if !ok || len(name) < 3 || name[0] != '<' || name[1] != 'U' {
		return false
	}
	width := 0
	for _, c := range name[2:] {
		if c < '0' || c > '9' || width > maxTextWidth {
			return false
		}
		width = width*10 + int(c-'0')
	}
	c := t.GetTensorContent()
	size := 4 * width
	if size == 0 || len(c)%size != 0 || len(c)/size > max || int64(len(c)/size) != numElements(t.GetTensorShape()) {
		return false
	}
	strs := make([][]byte, 0, len(c)/size)
	for i := 0; i < len(c); i += size {
		rs := make([]rune, 0, width)
		for j := i; j < i+size; j += 4 {
			r := rune(binary.LittleEndian.Uint32(c[j:]))
			if r == 0 {
				break
			}
			rs = append(rs, r) // an invalid code point becomes U+FFFD
		}
		strs = append(strs, []byte(string(rs)))
	}
	t.Dtype, t.StringVal, t.TensorContent = eventpb.DataType_DT_STRING, strs, nil
	return true
}

// maxTextWidth bounds the characters of one numpy text element.
const maxTextWidth = 1 << 16

// numpyName returns the string at field 1 of t, TS-VIS's dtype.
func numpyName(t *eventpb.TensorProto) (string, bool) {
	b := t.ProtoReflect().GetUnknown()
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return "", false
		}
		b = b[n:]
		if num == 1 && typ == protowire.BytesType {
			name, m := protowire.ConsumeBytes(b)
			return string(name), m >= 0
		}
		m := protowire.ConsumeFieldValue(num, typ, b)
		if m < 0 {
			return "", false
		}
		b = b[m:]
	}
	return "", false
}
