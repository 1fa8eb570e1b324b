package event

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// DTypeName returns numpy's name for a dtype ("float32", "int64", ...).
func DTypeName(dt eventpb.DataType) string {
	if dt > 100 {
		dt -= 100
	}
	if n, ok := dtypeNames[dt]; ok {
		return n
	}
	return fmt.Sprintf("dtype%d", int(dt))
}

var dtypeNames = map[eventpb.DataType]string{
	eventpb.DataType_DT_FLOAT: "float32", eventpb.DataType_DT_DOUBLE: "float64", eventpb.DataType_DT_INT32: "int32",
	eventpb.DataType_DT_UINT8: "uint8", eventpb.DataType_DT_INT16: "int16", eventpb.DataType_DT_INT8: "int8",
	eventpb.DataType_DT_STRING: "string", eventpb.DataType_DT_INT64: "int64", eventpb.DataType_DT_BOOL: "bool",
	eventpb.DataType_DT_BFLOAT16: "bfloat16", eventpb.DataType_DT_UINT16: "uint16", eventpb.DataType_DT_HALF: "float16",
	eventpb.DataType_DT_UINT32: "uint32", eventpb.DataType_DT_UINT64: "uint64",
}

// elemSize is the size in tensor_content of one element of a numeric dtype.
var elemSize = map[eventpb.DataType]int{
	eventpb.DataType_DT_FLOAT: 4, eventpb.DataType_DT_DOUBLE: 8, eventpb.DataType_DT_INT32: 4,
	eventpb.DataType_DT_UINT8: 1, eventpb.DataType_DT_INT16: 2, eventpb.DataType_DT_INT8: 1,
	eventpb.DataType_DT_INT64: 8, eventpb.DataType_DT_BOOL: 1, eventpb.DataType_DT_BFLOAT16: 2,
	eventpb.DataType_DT_UINT16: 2, eventpb.DataType_DT_HALF: 2, eventpb.DataType_DT_UINT32: 4,
	eventpb.DataType_DT_UINT64: 8,
}

// IsNumeric reports whether dt holds numbers.
func IsNumeric(dt eventpb.DataType) bool {
	if dt > 100 {
		dt -= 100
	}
	return elemSize[dt] > 0
}

// Shape returns the dimensions of a tensor; nil for rank 0.
func Shape(t *eventpb.TensorProto) []int64 {
	var s []int64
	for _, d := range t.GetTensorShape().GetDim() {
		s = append(s, d.GetSize())
	}
	return s
}

// maxElements bounds the elements a tensor may claim before anything is
// allocated for it: a shape is only a claim, the bytes are what is there.
const maxElements = 1 << 28

// maxFill bounds a tensor whose shape one stored value fills: nothing in
// the file backs the elements, so their number must be bounded on its own.
const maxFill = 1 << 20

// Values decodes the elements of a numeric tensor, row-major, as float64:
// from tensor_content when it is set, else from the typed value fields,
// where a single value fills the whole shape.
func Values(t *eventpb.TensorProto) ([]float64, error) {
	dt := t.GetDtype()
	if dt > 100 {
		dt -= 100
	}
	size := elemSize[dt]
	if size == 0 {
		return nil, fmt.Errorf("tensor of dtype %s is not numeric", DTypeName(dt))
	}
	n := numElements(t.GetTensorShape())
	if n < 0 || n > maxElements {
		return nil, fmt.Errorf("tensor shape %v is invalid or too large", Shape(t))
	}
	if c := t.GetTensorContent(); len(c) > 0 {
		if int64(len(c)) != n*int64(size) {
			return nil, fmt.Errorf("tensor of shape %v and dtype %s has %d content bytes, want %d", Shape(t), DTypeName(dt), len(c), n*int64(size))
		}
		out := make([]float64, n)
		for i := range out {
			out[i] = elemFromContent(dt, c[i*size:(i+1)*size])
		}
		return out, nil
	}
	var typed []float64
	switch dt {
	case eventpb.DataType_DT_FLOAT:
		typed = conv(t.GetFloatVal(), func(v float32) float64 { return float64(v) })
	case eventpb.DataType_DT_DOUBLE:
		typed = t.GetDoubleVal()
	case eventpb.DataType_DT_INT32, eventpb.DataType_DT_INT16, eventpb.DataType_DT_INT8,
		eventpb.DataType_DT_UINT8, eventpb.DataType_DT_UINT16:
		typed = conv(t.GetIntVal(), func(v int32) float64 { return float64(v) })
	case eventpb.DataType_DT_INT64:
		typed = conv(t.GetInt64Val(), func(v int64) float64 { return float64(v) })
	case eventpb.DataType_DT_UINT32:
		typed = conv(t.GetUint32Val(), func(v uint32) float64 { return float64(v) })
	case eventpb.DataType_DT_UINT64:
		typed = conv(t.GetUint64Val(), func(v uint64) float64 { return float64(v) })
	case eventpb.DataType_DT_BOOL:
		typed = conv(t.GetBoolVal(), b2f)
	case eventpb.DataType_DT_HALF:
		typed = conv(t.GetHalfVal(), func(v int32) float64 { return float64(HalfToFloat32(uint16(v))) })
	case eventpb.DataType_DT_BFLOAT16:
		typed = conv(t.GetHalfVal(), func(v int32) float64 { return float64(BFloat16ToFloat32(uint16(v))) })
	}
	switch {
	case int64(len(typed)) == n:
		return typed, nil
	case len(typed) == 1 && n <= maxFill:
		out := make([]float64, n)
		for i := range out {
			out[i] = typed[0]
		}
		return out, nil
	case n == 0:
		return []float64{}, nil
	}
	return nil, fmt.Errorf("tensor of shape %v holds %d values", Shape(t), len(typed))
}

func conv[T any](in []T, f func(T) float64) []float64 {
	if in == nil {
		return nil
	}
	out := make([]float64, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

func elemFromContent(dt eventpb.DataType, c []byte) float64 {
	le := binary.LittleEndian
	switch dt {
	case eventpb.DataType_DT_FLOAT:
		return float64(math.Float32frombits(le.Uint32(c)))
	case eventpb.DataType_DT_DOUBLE:
		return math.Float64frombits(le.Uint64(c))
	case eventpb.DataType_DT_INT32:
		return float64(int32(le.Uint32(c)))
	case eventpb.DataType_DT_UINT8:
		return float64(c[0])
	case eventpb.DataType_DT_INT16:
		return float64(int16(le.Uint16(c)))
	case eventpb.DataType_DT_INT8:
		return float64(int8(c[0]))
	case eventpb.DataType_DT_INT64:
		return float64(int64(le.Uint64(c)))
	case eventpb.DataType_DT_BOOL:
		return b2f(c[0] != 0)
	case eventpb.DataType_DT_BFLOAT16:
		return float64(BFloat16ToFloat32(le.Uint16(c)))
	case eventpb.DataType_DT_UINT16:
		return float64(le.Uint16(c))
	case eventpb.DataType_DT_HALF:
		return float64(HalfToFloat32(le.Uint16(c)))
	case eventpb.DataType_DT_UINT32:
		return float64(le.Uint32(c))
	default: // DT_UINT64
		return float64(le.Uint64(c))
	}
}

// Strings returns the elements of a string tensor, row-major.
func Strings(t *eventpb.TensorProto) ([][]byte, error) {
	if dt := t.GetDtype(); dt != eventpb.DataType_DT_STRING && dt != eventpb.DataType_DT_STRING+100 {
		return nil, fmt.Errorf("tensor of dtype %s is not a string tensor", DTypeName(dt))
	}
	n := numElements(t.GetTensorShape())
	s := t.GetStringVal()
	switch {
	case int64(len(s)) == n:
		return s, nil
	case len(s) == 1 && n > 0 && n <= maxFill:
		out := make([][]byte, n)
		for i := range out {
			out[i] = s[0]
		}
		return out, nil
	}
	return nil, fmt.Errorf("string tensor of shape %v holds %d values", Shape(t), len(s))
}
