package event

import (
	"encoding/binary"
	"fmt"
	"math"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"
)

// Decoders returns this package's decoder of the tensors the model keeps
// as references (TensorEntry.Load), which decodes them with Values: the
// model reads no protobuf itself.
func Decoders() model.Decoders { return model.Decoders{Tensor: loadEntry} }

// loadEntry reads a kept tensor back from its file and decodes its values,
// row-major.
func loadEntry(e model.TensorEntry) ([]float64, error) {
	b, err := e.Data.Read()
	if err != nil {
		return nil, err
	}
	var t eventpb.TensorProto
	if err := proto.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: offset %d: %w", e.Data.Path, e.Data.Offset, err)
	}
	NumpyDType(&t)
	return Values(&t)
}

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

// ElemSize is the size in tensor_content of one element of dt, 0 when it
// is not a number.
func ElemSize(dt eventpb.DataType) int {
	if dt > 100 {
		dt -= 100
	}
	return elemSize[dt]
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

// Filling. A tensor that stores one value where its shape claims more
// elements is filled with that value (TensorFlow's rule, which repeats the
// last stored value): a few bytes on disk can claim millions of elements,
// so what filling may produce is tied to the bytes that back it.
//
// Real writers hardly ever fill: TensorFlow's summary ops write
// tensor_content or every string, and Python's make_tensor_proto fills
// only when a scalar is broadcast to a shape. A filled tensor from a
// writer is small (a PR curve of 200 thresholds is 1,200 elements, a
// histogram of 30 buckets 90), which FillFloor covers whatever the tensor's
// size; past it FillPerByte elements per byte bound a fill to 128 bytes of
// float64 in memory (and 16 numbers in a data file) per byte of log.
const (
	// FillFloor is the fill any tensor, however small, may have.
	FillFloor = 1 << 12
	// FillPerByte is the fill a tensor may have per byte of it on disk.
	FillPerByte = 16
)

// FillLimit returns the most elements a tensor, or a record, of n bytes on
// disk may fill: max(FillFloor, FillPerByte x n).
func FillLimit(n int) int64 { return max(FillFloor, FillPerByte*int64(n)) }

// FillCost returns what decoding t costs beyond the values it stores, in
// elements: 0 when it stores every element its shape claims (or cannot be
// decoded at all, which decoding reports), else every element its shape
// claims, a string element counting one more per 8 bytes of its value,
// since each carries the whole value into what is written out.
func FillCost(t *eventpb.TensorProto) int64 {
	n := numElements(t.GetTensorShape())
	if n <= 1 {
		return 0
	}
	dt := t.GetDtype()
	if dt > 100 {
		dt -= 100
	}
	if dt == eventpb.DataType_DT_STRING {
		if s := t.GetStringVal(); len(s) == 1 {
			per := 1 + int64(len(s[0]))/8
			if n > math.MaxInt64/per {
				return math.MaxInt64
			}
			return n * per
		}
		return 0
	}
	if len(t.GetTensorContent()) > 0 || storedValues(t, dt) != 1 {
		return 0
	}
	return n
}

// FillError is the error of a tensor whose fill costs more than its bytes
// allow (see FillLimit).
type FillError struct {
	Shape       []int64
	Cost, Limit int64
}

func (e *FillError) Error() string {
	return fmt.Sprintf("tensor of shape %v stores one value; filling its shape would cost %d elements, over the %d its bytes allow", e.Shape, e.Cost, e.Limit)
}

// checkFill returns a *FillError when t's fill costs more than its size
// allows.
func checkFill(t *eventpb.TensorProto) error {
	if cost := FillCost(t); cost > FillFloor {
		if limit := FillLimit(proto.Size(t)); cost > limit {
			return &FillError{Shape: Shape(t), Cost: cost, Limit: limit}
		}
	}
	return nil
}

// storedValues returns how many values of dtype dt (not a _REF) t stores
// in its typed field.
func storedValues(t *eventpb.TensorProto, dt eventpb.DataType) int {
	switch dt {
	case eventpb.DataType_DT_FLOAT:
		return len(t.GetFloatVal())
	case eventpb.DataType_DT_DOUBLE:
		return len(t.GetDoubleVal())
	case eventpb.DataType_DT_INT32, eventpb.DataType_DT_INT16, eventpb.DataType_DT_INT8,
		eventpb.DataType_DT_UINT8, eventpb.DataType_DT_UINT16:
		return len(t.GetIntVal())
	case eventpb.DataType_DT_INT64:
		return len(t.GetInt64Val())
	case eventpb.DataType_DT_UINT32:
		return len(t.GetUint32Val())
	case eventpb.DataType_DT_UINT64:
		return len(t.GetUint64Val())
	case eventpb.DataType_DT_BOOL:
		return len(t.GetBoolVal())
	case eventpb.DataType_DT_HALF, eventpb.DataType_DT_BFLOAT16:
		return len(t.GetHalfVal())
	}
	return 0
}

// Values decodes the elements of a numeric tensor, row-major, as float64:
// from tensor_content when it is set, else from the typed value fields,
// where a single value fills the whole shape, within FillLimit of the
// tensor's size (a *FillError otherwise).
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
	if err := checkFill(t); err != nil {
		return nil, err
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
	case len(typed) == 1:
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

// Strings returns the elements of a string tensor, row-major. A single
// value fills the whole shape, within FillLimit of the tensor's size (a
// *FillError otherwise); every element is then the same slice.
func Strings(t *eventpb.TensorProto) ([][]byte, error) {
	if dt := t.GetDtype(); dt != eventpb.DataType_DT_STRING && dt != eventpb.DataType_DT_STRING+100 {
		return nil, fmt.Errorf("tensor of dtype %s is not a string tensor", DTypeName(dt))
	}
	n := numElements(t.GetTensorShape())
	s := t.GetStringVal()
	if err := checkFill(t); err != nil {
		return nil, err
	}
	switch {
	case int64(len(s)) == n:
		return s, nil
	case len(s) == 1 && n > 0 && n <= maxElements:
		out := make([][]byte, n)
		for i := range out {
			out[i] = s[0]
		}
		return out, nil
	}
	return nil, fmt.Errorf("string tensor of shape %v holds %d values", Shape(t), len(s))
}
