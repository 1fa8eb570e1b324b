package mindspore

import (
	"encoding/binary"
	"fmt"
	"math"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/mindspore/mspb"
	"github.com/trainreport/trainreport/collect/model"
)

// Decoders returns this package's decoder of the MindSpore tensors the
// model keeps as references (TensorEntry.Load), which decodes them with
// Values: the model reads no protobuf itself.
func Decoders() model.Decoders { return model.Decoders{MindSporeTensor: loadEntry} }

// loadEntry reads a kept tensor back from its file and decodes its values.
func loadEntry(e model.TensorEntry) ([]float64, error) {
	b, err := e.Data.Read()
	if err != nil {
		return nil, err
	}
	var t mspb.Tensor
	if err := proto.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("%s: offset %d: %w", e.Data.Path, e.Data.Offset, err)
	}
	return Values(&t)
}

// dtypes names MindSpore's numeric types as numpy does, with the size of
// one element in raw_data.
var dtypes = map[mspb.DataType]struct {
	name string
	size int
}{
	mspb.DataType_DT_BOOL: {"bool", 1}, mspb.DataType_DT_INT8: {"int8", 1}, mspb.DataType_DT_INT16: {"int16", 2},
	mspb.DataType_DT_INT32: {"int32", 4}, mspb.DataType_DT_INT64: {"int64", 8}, mspb.DataType_DT_UINT8: {"uint8", 1},
	mspb.DataType_DT_UINT16: {"uint16", 2}, mspb.DataType_DT_UINT32: {"uint32", 4}, mspb.DataType_DT_UINT64: {"uint64", 8},
	mspb.DataType_DT_FLOAT16: {"float16", 2}, mspb.DataType_DT_FLOAT32: {"float32", 4}, mspb.DataType_DT_FLOAT64: {"float64", 8},
	mspb.DataType_DT_BFLOAT16: {"bfloat16", 2},
}

// DTypeName returns numpy's name for a MindSpore type ("float32"), or the
// type's own name for a type that holds no numbers ("DT_STRING").
func DTypeName(dt mspb.DataType) string {
	if d, ok := dtypes[dt]; ok {
		return d.name
	}
	return dt.String()
}

// IsNumeric reports whether dt is a type of numbers.
func IsNumeric(dt mspb.DataType) bool { _, ok := dtypes[dt]; return ok }

// maxElements bounds the elements a tensor's dimensions may claim before
// they are compared with the values it holds: dimensions are only a claim.
const maxElements = 1 << 28

// Shape returns a tensor's dimensions and the number of elements they
// claim, or an error for a negative dimension or a product past
// maxElements.
func Shape(t *mspb.Tensor) ([]int64, int64, error) {
	dims := t.GetDims()
	n := int64(1)
	for _, d := range dims {
		if d < 0 || d > maxElements || (d > 0 && n > maxElements/d) {
			return nil, 0, fmt.Errorf("tensor dimensions %v are invalid or too large", dims)
		}
		n *= d
	}
	if len(dims) == 0 {
		dims = nil
	}
	return dims, n, nil
}

// Check reports whether Values would decode t, without decoding it: a
// numeric type, dimensions within bounds, and as many values as they
// claim.
func Check(t *mspb.Tensor) error {
	dt := t.GetDataType()
	d, ok := dtypes[dt]
	if !ok {
		return fmt.Errorf("tensor of type %s is not numeric", DTypeName(dt))
	}
	dims, n, err := Shape(t)
	if err != nil {
		return err
	}
	if raw := t.GetRawData(); len(raw) > 0 {
		if int64(len(raw)) != n*int64(d.size) {
			return fmt.Errorf("tensor of shape %v and type %s has %d raw bytes, want %d", dims, d.name, len(raw), n*int64(d.size))
		}
		return nil
	}
	if got := storedValues(t); int64(got) != n {
		return fmt.Errorf("tensor of shape %v holds %d values, want %d", dims, got, n)
	}
	return nil
}

// storedValues counts the values of the typed list Values reads.
func storedValues(t *mspb.Tensor) int {
	for _, n := range []int{len(t.GetFloatData()), len(t.GetDoubleData()), len(t.GetInt32Data()), len(t.GetInt64Data()), len(t.GetUint64Data())} {
		if n > 0 {
			return n
		}
	}
	return 0
}

// Values decodes the elements of a numeric tensor, row-major, as float64.
// MindSpore's SummaryRecord writes every value into float_data whatever
// the tensor's type (so at single precision: a float64 tensor's 1e300 is
// read back as +Inf); raw_data and the other typed lists are read too.
// There is no filling: a tensor must hold as many values as its
// dimensions claim.
func Values(t *mspb.Tensor) ([]float64, error) {
	if err := Check(t); err != nil {
		return nil, err
	}
	dt := t.GetDataType()
	d := dtypes[dt]
	_, n, _ := Shape(t)
	var out []float64
	switch {
	case len(t.GetRawData()) > 0:
		raw := t.GetRawData()
		out = make([]float64, n)
		for i := range out {
			out[i] = rawElem(dt, raw[i*d.size:(i+1)*d.size])
		}
		return out, nil
	case len(t.GetFloatData()) > 0:
		out = conv(t.GetFloatData(), func(v float32) float64 { return float64(v) })
	case len(t.GetDoubleData()) > 0:
		out = t.GetDoubleData()
	case len(t.GetInt32Data()) > 0:
		out = conv(t.GetInt32Data(), func(v int32) float64 { return float64(v) })
	case len(t.GetInt64Data()) > 0:
		out = conv(t.GetInt64Data(), func(v int64) float64 { return float64(v) })
	case len(t.GetUint64Data()) > 0:
		out = conv(t.GetUint64Data(), func(v uint64) float64 { return float64(v) })
	default:
		out = []float64{} // n is 0: Check counted the values
	}
	return out, nil
}

func conv[T any](in []T, f func(T) float64) []float64 {
	out := make([]float64, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

// rawElem decodes one little-endian element of raw_data.
func rawElem(dt mspb.DataType, c []byte) float64 {
	le := binary.LittleEndian
	switch dt {
	case mspb.DataType_DT_BOOL:
		if c[0] != 0 {
			return 1
		}
		return 0
	case mspb.DataType_DT_INT8:
		return float64(int8(c[0]))
	case mspb.DataType_DT_UINT8:
		return float64(c[0])
	case mspb.DataType_DT_INT16:
		return float64(int16(le.Uint16(c)))
	case mspb.DataType_DT_UINT16:
		return float64(le.Uint16(c))
	case mspb.DataType_DT_INT32:
		return float64(int32(le.Uint32(c)))
	case mspb.DataType_DT_UINT32:
		return float64(le.Uint32(c))
	case mspb.DataType_DT_INT64:
		return float64(int64(le.Uint64(c)))
	case mspb.DataType_DT_UINT64:
		return float64(le.Uint64(c))
	case mspb.DataType_DT_FLOAT16:
		return float64(event.HalfToFloat32(le.Uint16(c)))
	case mspb.DataType_DT_BFLOAT16:
		return float64(event.BFloat16ToFloat32(le.Uint16(c)))
	case mspb.DataType_DT_FLOAT32:
		return float64(math.Float32frombits(le.Uint32(c)))
	default: // DT_FLOAT64
		return math.Float64frombits(le.Uint64(c))
	}
}
