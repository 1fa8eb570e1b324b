package event

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	pb "github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/internal/testsupport"
)

func shape(dims ...int64) *pb.TensorShapeProto {
	s := &pb.TensorShapeProto{}
	for _, d := range dims {
		s.Dim = append(s.Dim, &pb.TensorShapeProto_Dim{Size: d})
	}
	return s
}

func le16(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }
func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

func TestTensorScalar(t *testing.T) {
	const ref = 100 // the _REF variant of a dtype
	tests := []struct {
		name    string
		t       *pb.TensorProto
		want    float64
		float32 bool
	}{
		// tensor_content, little-endian, one case per dtype.
		{"content float", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorContent: le32(math.Float32bits(0.25))}, 0.25, true},
		{"content float keeps float32 rounding", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorContent: le32(math.Float32bits(0.1))}, float64(float32(0.1)), true},
		{"content double", &pb.TensorProto{Dtype: pb.DataType_DT_DOUBLE, TensorContent: le64(math.Float64bits(0.1))}, 0.1, false},
		{"content int32 negative", &pb.TensorProto{Dtype: pb.DataType_DT_INT32, TensorContent: le32(uint32(0xfffffffe))}, -2, false},
		{"content uint8", &pb.TensorProto{Dtype: pb.DataType_DT_UINT8, TensorContent: []byte{200}}, 200, false},
		{"content int16 negative", &pb.TensorProto{Dtype: pb.DataType_DT_INT16, TensorContent: le16(0x8000)}, -32768, false},
		{"content int8 negative", &pb.TensorProto{Dtype: pb.DataType_DT_INT8, TensorContent: []byte{0xff}}, -1, false},
		{"content int8 minimum", &pb.TensorProto{Dtype: pb.DataType_DT_INT8, TensorContent: []byte{0x80}}, -128, false},
		{"content int64 negative", &pb.TensorProto{Dtype: pb.DataType_DT_INT64, TensorContent: le64(uint64(1<<64 - 5))}, -5, false},
		{"content bool true", &pb.TensorProto{Dtype: pb.DataType_DT_BOOL, TensorContent: []byte{1}}, 1, false},
		{"content bool false", &pb.TensorProto{Dtype: pb.DataType_DT_BOOL, TensorContent: []byte{0}}, 0, false},
		{"content bfloat16", &pb.TensorProto{Dtype: pb.DataType_DT_BFLOAT16, TensorContent: le16(0xc049)}, -3.140625, true},
		{"content uint16", &pb.TensorProto{Dtype: pb.DataType_DT_UINT16, TensorContent: le16(0xffff)}, 65535, false},
		{"content half", &pb.TensorProto{Dtype: pb.DataType_DT_HALF, TensorContent: le16(0x3c00)}, 1, true},
		{"content half subnormal", &pb.TensorProto{Dtype: pb.DataType_DT_HALF, TensorContent: le16(0x0001)}, math.Ldexp(1, -24), true},
		{"content uint32", &pb.TensorProto{Dtype: pb.DataType_DT_UINT32, TensorContent: le32(math.MaxUint32)}, math.MaxUint32, false},
		{"content uint64", &pb.TensorProto{Dtype: pb.DataType_DT_UINT64, TensorContent: le64(math.MaxUint64)}, math.MaxUint64, false},
		{"content wins over typed field", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorContent: le32(math.Float32bits(2)), FloatVal: []float32{3}}, 2, true},

		// Typed *_val fields.
		{"float_val", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, FloatVal: []float32{1.5}}, 1.5, true},
		{"double_val", &pb.TensorProto{Dtype: pb.DataType_DT_DOUBLE, DoubleVal: []float64{math.Pi}}, math.Pi, false},
		{"int_val int32", &pb.TensorProto{Dtype: pb.DataType_DT_INT32, IntVal: []int32{math.MinInt32}}, math.MinInt32, false},
		{"int_val int16", &pb.TensorProto{Dtype: pb.DataType_DT_INT16, IntVal: []int32{-300}}, -300, false},
		{"int_val int8 negative", &pb.TensorProto{Dtype: pb.DataType_DT_INT8, IntVal: []int32{-7}}, -7, false},
		{"int_val uint8", &pb.TensorProto{Dtype: pb.DataType_DT_UINT8, IntVal: []int32{255}}, 255, false},
		{"int_val uint16", &pb.TensorProto{Dtype: pb.DataType_DT_UINT16, IntVal: []int32{65535}}, 65535, false},
		{"int64_val", &pb.TensorProto{Dtype: pb.DataType_DT_INT64, Int64Val: []int64{-1 << 40}}, -1 << 40, false},
		{"uint32_val", &pb.TensorProto{Dtype: pb.DataType_DT_UINT32, Uint32Val: []uint32{4000000000}}, 4000000000, false},
		{"uint64_val", &pb.TensorProto{Dtype: pb.DataType_DT_UINT64, Uint64Val: []uint64{1 << 63}}, 1 << 63, false},
		{"bool_val true", &pb.TensorProto{Dtype: pb.DataType_DT_BOOL, BoolVal: []bool{true}}, 1, false},
		{"bool_val false", &pb.TensorProto{Dtype: pb.DataType_DT_BOOL, BoolVal: []bool{false}}, 0, false},
		{"half_val half", &pb.TensorProto{Dtype: pb.DataType_DT_HALF, HalfVal: []int32{0xc000}}, -2, true},
		{"half_val half infinity", &pb.TensorProto{Dtype: pb.DataType_DT_HALF, HalfVal: []int32{0x7c00}}, math.Inf(1), true},
		{"half_val half negative infinity", &pb.TensorProto{Dtype: pb.DataType_DT_HALF, HalfVal: []int32{0xfc00}}, math.Inf(-1), true},
		{"half_val half nan", &pb.TensorProto{Dtype: pb.DataType_DT_HALF, HalfVal: []int32{0x7e00}}, math.NaN(), true},
		{"half_val half largest", &pb.TensorProto{Dtype: pb.DataType_DT_HALF, HalfVal: []int32{0x7bff}}, 65504, true},
		{"half_val half negative subnormal", &pb.TensorProto{Dtype: pb.DataType_DT_HALF, HalfVal: []int32{0x83ff}}, -1023 * math.Ldexp(1, -24), true},
		{"half_val half negative zero", &pb.TensorProto{Dtype: pb.DataType_DT_HALF, HalfVal: []int32{0x8000}}, math.Copysign(0, -1), true},
		{"half_val bfloat16", &pb.TensorProto{Dtype: pb.DataType_DT_BFLOAT16, HalfVal: []int32{0x3f80}}, 1, true},
		{"half_val bfloat16 infinity", &pb.TensorProto{Dtype: pb.DataType_DT_BFLOAT16, HalfVal: []int32{0xff80}}, math.Inf(-1), true},
		{"half_val bfloat16 nan", &pb.TensorProto{Dtype: pb.DataType_DT_BFLOAT16, HalfVal: []int32{0x7fc0}}, math.NaN(), true},
		{"single value in the typed field fills a [1] shape", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorShape: shape(1), FloatVal: []float32{4}}, 4, true},
		{"[1,1] shape is one element", &pb.TensorProto{Dtype: pb.DataType_DT_DOUBLE, TensorShape: shape(1, 1), TensorContent: le64(math.Float64bits(-8))}, -8, false},

		// _REF dtypes hold the same values.
		{"float ref content", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT + ref, TensorContent: le32(math.Float32bits(7))}, 7, true},
		{"double ref double_val", &pb.TensorProto{Dtype: pb.DataType_DT_DOUBLE + ref, DoubleVal: []float64{-0.5}}, -0.5, false},
		{"half ref half_val", &pb.TensorProto{Dtype: pb.DataType_DT_HALF + ref, HalfVal: []int32{0x3800}}, 0.5, true},
		{"int64 ref int64_val", &pb.TensorProto{Dtype: pb.DataType_DT_INT64 + ref, Int64Val: []int64{42}}, 42, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := TensorScalar(tc.t)
			if err != nil {
				t.Fatalf("TensorScalar: %v", err)
			}
			if !testsupport.Identical(got.Value, tc.want) || got.Float32 != tc.float32 {
				t.Errorf("TensorScalar = {%v, Float32: %v}, want {%v, Float32: %v}", got.Value, got.Float32, tc.want, tc.float32)
			}
			v := &pb.SummaryValue{Tag: "x", Value: &pb.SummaryValue_Tensor{Tensor: tc.t}}
			if s, err := ScalarOf(v); err != nil || !testsupport.Identical(s.Value, got.Value) || s.Float32 != got.Float32 {
				t.Errorf("ScalarOf = %v, %v; want TensorScalar's %v", s, err, got)
			}
		})
	}
}

func TestTensorScalarErrors(t *testing.T) {
	tests := []struct {
		name    string
		t       *pb.TensorProto
		errWant string
	}{
		{"content too long for float", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorContent: make([]byte, 8)}, "content bytes"},
		{"content too short for double", &pb.TensorProto{Dtype: pb.DataType_DT_DOUBLE, TensorContent: make([]byte, 4)}, "content bytes"},
		{"content too long for int8", &pb.TensorProto{Dtype: pb.DataType_DT_INT8, TensorContent: make([]byte, 2)}, "content bytes"},
		{"two elements by shape", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorShape: shape(2), FloatVal: []float32{1, 2}}, "2 elements"},
		{"six elements by shape with content", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorShape: shape(2, 3), TensorContent: make([]byte, 24)}, "6 elements"},
		{"zero elements", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorShape: shape(0), FloatVal: []float32{1}}, "0 elements"},
		{"unknown dimension", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorShape: shape(-1), FloatVal: []float32{1}}, "elements"},
		{"string dtype", &pb.TensorProto{Dtype: pb.DataType_DT_STRING, StringVal: [][]byte{[]byte("1.0")}}, "unsupported dtype"},
		{"string dtype with content", &pb.TensorProto{Dtype: pb.DataType_DT_STRING, TensorContent: []byte("abcd")}, "unsupported dtype"},
		{"string ref dtype", &pb.TensorProto{Dtype: pb.DataType_DT_STRING + 100, StringVal: [][]byte{[]byte("x")}}, "unsupported dtype"},
		{"invalid dtype", &pb.TensorProto{Dtype: pb.DataType_DT_INVALID, FloatVal: []float32{1}}, "unsupported dtype"},
		{"no value at all", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT}, "holds no value"},
		{"value in the wrong typed field", &pb.TensorProto{Dtype: pb.DataType_DT_DOUBLE, FloatVal: []float32{1}}, "holds no value"},
		{"nil tensor", nil, "unsupported dtype"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := TensorScalar(tc.t)
			if err == nil {
				t.Fatalf("TensorScalar = %v, want an error", got)
			}
			if !strings.Contains(err.Error(), tc.errWant) {
				t.Errorf("error %q does not mention %q", err, tc.errWant)
			}
		})
	}
}

func TestScalarOf(t *testing.T) {
	tests := []struct {
		name    string
		v       *pb.SummaryValue
		want    float64
		wantErr bool
	}{
		{"simple_value is float32", &pb.SummaryValue{Value: &pb.SummaryValue_SimpleValue{SimpleValue: 0.1}}, float64(float32(0.1)), false},
		{"simple_value NaN", &pb.SummaryValue{Value: &pb.SummaryValue_SimpleValue{SimpleValue: float32(math.NaN())}}, math.NaN(), false},
		{"simple_value infinity", &pb.SummaryValue{Value: &pb.SummaryValue_SimpleValue{SimpleValue: float32(math.Inf(-1))}}, math.Inf(-1), false},
		{"histo holds no scalar", &pb.SummaryValue{Tag: "h", Value: &pb.SummaryValue_Histo{Histo: &pb.HistogramProto{}}}, 0, true},
		{"empty value holds no scalar", &pb.SummaryValue{Tag: "e"}, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ScalarOf(tc.v)
			if tc.wantErr {
				if err == nil {
					t.Errorf("ScalarOf = %v, want an error", got)
				}
				return
			}
			if err != nil || !testsupport.Identical(got.Value, tc.want) || !got.Float32 {
				t.Errorf("ScalarOf = %v, %v; want {%v, Float32: true}", got, err, tc.want)
			}
		})
	}
}

// refHalf computes a half-precision value from its definition.
func refHalf(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	case 0:
		return sign * math.Ldexp(frac, -24)
	}
	return sign * math.Ldexp(1+frac/1024, exp-15)
}

func TestHalfToFloat32AllValues(t *testing.T) {
	for h := range 1 << 16 {
		got := HalfToFloat32(uint16(h))
		if want := refHalf(uint16(h)); !testsupport.Identical(float64(got), want) {
			t.Errorf("HalfToFloat32(%#04x) = %v, want %v", h, got, want)
		}
		// Every half is exactly a float32, and NaN payloads survive.
		if math.IsNaN(float64(got)) && math.Float32bits(got)>>13&0x3ff != uint32(h)&0x3ff {
			t.Errorf("HalfToFloat32(%#04x) lost the NaN payload: %#08x", h, math.Float32bits(got))
		}
	}
}

func TestBFloat16ToFloat32(t *testing.T) {
	tests := []struct {
		name string
		b    uint16
		want float64
	}{
		{"one", 0x3f80, 1},
		{"minus two", 0xc000, -2},
		{"pi rounded", 0x4049, 3.140625},
		{"negative zero", 0x8000, math.Copysign(0, -1)},
		{"infinity", 0x7f80, math.Inf(1)},
		{"nan", 0x7fc1, math.NaN()},
		{"smallest subnormal", 0x0001, math.Ldexp(1, -133)},
		{"largest", 0x7f7f, math.Ldexp(255, 127-7)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := BFloat16ToFloat32(tc.b); !testsupport.Identical(float64(got), tc.want) {
				t.Errorf("BFloat16ToFloat32(%#04x) = %v, want %v", tc.b, got, tc.want)
			}
		})
	}
}

// FuzzTensorScalar checks that no tensor makes decoding panic, and that a
// decoded value agrees with the dtype's precision flag.
func FuzzTensorScalar(f *testing.F) {
	f.Add(int32(1), []byte{0, 0, 0x80, 0x3f}, int64(1), false)
	f.Add(int32(19), []byte{0, 0x3c}, int64(-1), true)
	f.Add(int32(123), []byte{1, 2, 3, 4, 5, 6, 7, 8}, int64(1), true)
	f.Fuzz(func(t *testing.T, dtype int32, content []byte, dim int64, withShape bool) {
		tp := &pb.TensorProto{Dtype: pb.DataType(dtype), TensorContent: content}
		if withShape {
			tp.TensorShape = shape(dim)
		}
		s, err := TensorScalar(tp)
		if err != nil {
			return
		}
		dt := pb.DataType(dtype)
		if dt > 100 {
			dt -= 100
		}
		wantF32 := dt == pb.DataType_DT_FLOAT || dt == pb.DataType_DT_HALF || dt == pb.DataType_DT_BFLOAT16
		if s.Float32 != wantF32 {
			t.Errorf("dtype %v: Float32 = %v", dt, s.Float32)
		}
		if s.Float32 && !math.IsNaN(s.Value) && float64(float32(s.Value)) != s.Value {
			t.Errorf("dtype %v: Float32 set on %v, which is no float32", dt, s.Value)
		}
	})
}
