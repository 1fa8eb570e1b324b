package mindspore

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/mindspore/mspb"
)

func TestStripTag(t *testing.T) {
	for in, want := range map[string]string{
		"loss[:Scalar]": "loss", "w[:Tensor]": "w", "img[:Image]": "img", "h[:Histogram]": "h",
		"loss": "loss", "a[:Scalar][:Scalar]": "a[:Scalar]", "x[:Other]": "x[:Other]", "[:Scalar]": "",
	} {
		if got := StripTag(in); got != want {
			t.Errorf("StripTag(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValues(t *testing.T) {
	le := binary.LittleEndian
	f16one := []byte{0x00, 0x3c}  // 1.0 in float16
	bf16two := []byte{0x00, 0x40} // 2.0 in bfloat16
	nan32 := le.AppendUint32(nil, math.Float32bits(float32(math.NaN())))
	for _, c := range []struct {
		name string
		t    *mspb.Tensor
		want []float64
		err  string
	}{
		{"float_data of a float64 tensor, at single precision", &mspb.Tensor{Dims: []int64{3}, DataType: mspb.DataType_DT_FLOAT64,
			FloatData: []float32{1.5, float32(math.Inf(1)), -2}}, []float64{1.5, math.Inf(1), -2}, ""},
		{"raw int32", &mspb.Tensor{Dims: []int64{2}, DataType: mspb.DataType_DT_INT32,
			RawData: le.AppendUint32(le.AppendUint32(nil, 7), uint32(0xffffffff))}, []float64{7, -1}, ""},
		{"raw int8", &mspb.Tensor{Dims: []int64{1, 3}, DataType: mspb.DataType_DT_INT8, RawData: []byte{0xff, 1, 0x80}}, []float64{-1, 1, -128}, ""},
		{"raw uint8", &mspb.Tensor{Dims: []int64{2}, DataType: mspb.DataType_DT_UINT8, RawData: []byte{0xff, 1}}, []float64{255, 1}, ""},
		{"raw bool", &mspb.Tensor{Dims: []int64{2}, DataType: mspb.DataType_DT_BOOL, RawData: []byte{2, 0}}, []float64{1, 0}, ""},
		{"raw float16", &mspb.Tensor{Dims: []int64{1}, DataType: mspb.DataType_DT_FLOAT16, RawData: f16one}, []float64{1}, ""},
		{"raw bfloat16", &mspb.Tensor{Dims: []int64{1}, DataType: mspb.DataType_DT_BFLOAT16, RawData: bf16two}, []float64{2}, ""},
		{"raw float32 NaN", &mspb.Tensor{Dims: []int64{1}, DataType: mspb.DataType_DT_FLOAT32, RawData: nan32}, []float64{math.NaN()}, ""},
		{"raw float64", &mspb.Tensor{Dims: []int64{1}, DataType: mspb.DataType_DT_FLOAT64, RawData: le.AppendUint64(nil, math.Float64bits(1e300))}, []float64{1e300}, ""},
		{"raw uint64", &mspb.Tensor{Dims: []int64{1}, DataType: mspb.DataType_DT_UINT64, RawData: le.AppendUint64(nil, 1<<63)}, []float64{1 << 63}, ""},
		{"int64_data", &mspb.Tensor{Dims: []int64{2}, DataType: mspb.DataType_DT_INT64, Int64Data: []int64{-3, 4}}, []float64{-3, 4}, ""},
		{"double_data", &mspb.Tensor{Dims: []int64{1}, DataType: mspb.DataType_DT_FLOAT64, DoubleData: []float64{0.1}}, []float64{0.1}, ""},
		{"empty", &mspb.Tensor{Dims: []int64{0, 5}, DataType: mspb.DataType_DT_FLOAT32}, []float64{}, ""},
		{"a scalar holds one value", &mspb.Tensor{DataType: mspb.DataType_DT_FLOAT32, FloatData: []float32{3}}, []float64{3}, ""},
		{"no filling", &mspb.Tensor{Dims: []int64{4}, DataType: mspb.DataType_DT_FLOAT32, FloatData: []float32{3}}, nil, "holds 1 values, want 4"},
		{"raw of the wrong size", &mspb.Tensor{Dims: []int64{2}, DataType: mspb.DataType_DT_INT32, RawData: []byte{1, 2, 3}}, nil, "3 raw bytes, want 8"},
		{"negative dimension", &mspb.Tensor{Dims: []int64{-1}, DataType: mspb.DataType_DT_FLOAT32}, nil, "invalid or too large"},
		{"dimensions past the bound", &mspb.Tensor{Dims: []int64{1 << 20, 1 << 20}, DataType: mspb.DataType_DT_FLOAT32, FloatData: []float32{1}}, nil, "invalid or too large"},
		{"dimensions that overflow", &mspb.Tensor{Dims: []int64{1 << 40, 1 << 40, 0}, DataType: mspb.DataType_DT_FLOAT32}, nil, "invalid or too large"},
		{"not numbers", &mspb.Tensor{Dims: []int64{1}, DataType: mspb.DataType_DT_STRING}, nil, "not numeric"},
	} {
		got, err := Values(c.t)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: %v, %v; want an error saying %q", c.name, got, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case !slices.EqualFunc(got, c.want, func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }):
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

func TestHistogram(t *testing.T) {
	h := &mspb.Histogram{Buckets: []*mspb.Bucket{{Left: -1, Width: 0.5, Count: 2}, {Left: -0.5, Width: 0.5, Count: 0}, {Left: 0, Width: 1, Count: 5}},
		NanCount: 1, PosInfCount: 2, NegInfCount: 3, Min: -1, Max: 1, Sum: 2.5, Count: 13}
	e, err := Histogram(h)
	if err != nil {
		t.Fatal(err)
	}
	if e.Count != 7 || e.Min != -1 || e.Max != 1 || e.Sum != 2.5 || e.NaN != 1 || e.PosInf != 2 || e.NegInf != 3 {
		t.Errorf("entry %+v", e)
	}
	if len(e.Buckets) != 3 || e.Buckets[0].Right != -0.5 || e.Buckets[2].Left != 0 || e.Buckets[2].Right != 1 || e.Buckets[2].Count != 5 {
		t.Errorf("buckets %+v", e.Buckets)
	}
	for _, c := range []struct {
		name string
		h    *mspb.Histogram
		want string
	}{
		{"negative count", &mspb.Histogram{Buckets: []*mspb.Bucket{{Width: 1, Count: -1}}}, "count -1"},
		{"negative NaN count", &mspb.Histogram{NanCount: -1}, "negative count"},
		{"NaN edge", &mspb.Histogram{Buckets: []*mspb.Bucket{{Left: math.NaN(), Width: 1}}}, "no finite extent"},
		{"negative width", &mspb.Histogram{Buckets: []*mspb.Bucket{{Left: 0, Width: -1}}}, "no finite extent"},
		{"edge past float64", &mspb.Histogram{Buckets: []*mspb.Bucket{{Left: math.MaxFloat64, Width: math.MaxFloat64}}}, "no finite extent"},
		{"too many buckets", &mspb.Histogram{Buckets: make([]*mspb.Bucket, maxBuckets+1)}, "more than"},
	} {
		if _, err := Histogram(c.h); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

func TestDTypeName(t *testing.T) {
	for dt, want := range map[mspb.DataType]string{mspb.DataType_DT_FLOAT32: "float32", mspb.DataType_DT_BFLOAT16: "bfloat16",
		mspb.DataType_DT_UINT64: "uint64", mspb.DataType_DT_STRING: "DT_STRING", mspb.DataType(999): "999"} {
		if got := DTypeName(dt); got != want {
			t.Errorf("DTypeName(%d) = %q, want %q", dt, got, want)
		}
	}
}
