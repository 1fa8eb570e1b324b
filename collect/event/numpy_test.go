package event

import (
	"encoding/binary"
	"slices"
	"testing"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	pb "github.com/trainreport/trainreport/collect/eventpb"
)

// tsvisTensor encodes a TS-VIS TensorProto: numpy's dtype name at field
// 1, the shape at field 2, the bytes at field 4.
func tsvisTensor(dtype string, shape []int64, content []byte) []byte {
	var dims []byte
	for _, d := range shape {
		dim := protowire.AppendTag(nil, 1, protowire.VarintType)
		dim = protowire.AppendVarint(dim, uint64(d))
		dims = protowire.AppendTag(dims, 2, protowire.BytesType)
		dims = protowire.AppendBytes(dims, dim)
	}
	b := protowire.AppendTag(nil, 1, protowire.BytesType)
	b = protowire.AppendString(b, dtype)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, dims)
	b = protowire.AppendTag(b, 4, protowire.BytesType)
	return protowire.AppendBytes(b, content)
}

func TestNumpyDTypeAndText(t *testing.T) {
	var tp pb.TensorProto
	content := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 0x3f800000), 0xc0000000)
	if err := proto.Unmarshal(tsvisTensor("float32", []int64{2}, content), &tp); err != nil {
		t.Fatal(err)
	}
	if !NumpyDType(&tp) || tp.GetDtype() != pb.DataType_DT_FLOAT {
		t.Fatalf("dtype %v", tp.GetDtype())
	}
	if v, err := Values(&tp); err != nil || !slices.Equal(v, []float64{1, -2}) {
		t.Errorf("values %v, %v", v, err)
	}
	// "<U3": 3 UTF-32 code points per element, NUL-padded.
	var u []byte
	for _, r := range "ab\x00日本語" {
		u = binary.LittleEndian.AppendUint32(u, uint32(r))
	}
	tp.Reset()
	if err := proto.Unmarshal(tsvisTensor("<U3", []int64{2}, u), &tp); err != nil {
		t.Fatal(err)
	}
	if NumpyDType(&tp) || !NumpyText(&tp, 10) || tp.GetDtype() != pb.DataType_DT_STRING {
		t.Fatalf("text tensor: dtype %v", tp.GetDtype())
	}
	if got := tp.GetStringVal(); len(got) != 2 || string(got[0]) != "ab" || string(got[1]) != "日本語" {
		t.Errorf("strings %q", got)
	}
	// A shape that does not match the bytes, a big-endian number and too
	// many elements are left alone.
	for _, c := range []struct {
		dtype string
		shape []int64
		max   int
	}{{"<U3", []int64{3}, 10}, {">f4", []int64{2}, 10}, {"<U3", []int64{2}, 1}} {
		tp.Reset()
		if err := proto.Unmarshal(tsvisTensor(c.dtype, c.shape, u), &tp); err != nil {
			t.Fatal(err)
		}
		if NumpyDType(&tp) || NumpyText(&tp, c.max) {
			t.Errorf("%s %v (max %d): read as %v", c.dtype, c.shape, c.max, tp.GetDtype())
		}
	}
}

// FuzzNumpyTensor checks that no TS-VIS tensor makes the numpy readers
// panic, and that text they read is valid UTF-8 of the shape's elements.
func FuzzNumpyTensor(f *testing.F) {
	f.Add("float32", int64(2), []byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0})
	f.Add("<U2", int64(1), []byte{'a', 0, 0, 0, 0, 0, 0, 0})
	f.Add("<U0", int64(0), []byte{})
	f.Fuzz(func(t *testing.T, dtype string, dim int64, content []byte) {
		var tp pb.TensorProto
		if err := proto.Unmarshal(tsvisTensor(dtype, []int64{dim}, content), &tp); err != nil {
			return
		}
		if NumpyDType(&tp) {
			_, _ = Values(&tp)
			return
		}
		if !NumpyText(&tp, 1000) {
			return
		}
		if int64(len(tp.GetStringVal())) != dim {
			t.Errorf("%d strings for a shape of %d", len(tp.GetStringVal()), dim)
		}
		for _, s := range tp.GetStringVal() {
			if !utf8.Valid(s) {
				t.Errorf("invalid UTF-8 %q", s)
			}
		}
	})
}

// FuzzTransformerItems checks that no transformer value makes decoding
// panic and that decoded items are bounded and numeric.
func FuzzTransformerItems(f *testing.F) {
	item := protowire.AppendTag(nil, 1, protowire.BytesType)
	item = protowire.AppendString(item, "all")
	item = protowire.AppendTag(item, 2, protowire.BytesType)
	item = protowire.AppendBytes(item, tsvisTensor("float64", []int64{1}, make([]byte, 8)))
	body := protowire.AppendTag(nil, 1, protowire.BytesType)
	body = protowire.AppendBytes(body, item)
	f.Add(body)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		b := protowire.AppendTag(nil, 1, protowire.BytesType)
		b = protowire.AppendString(b, "tag")
		b = protowire.AppendTag(b, FieldTransformer, protowire.BytesType)
		b = protowire.AppendBytes(b, body)
		var v pb.SummaryValue
		if err := proto.Unmarshal(b, &v); err != nil {
			return
		}
		items, ok, _ := TransformerItems(&v, 4)
		if !ok || len(items) > 4 {
			t.Errorf("ok %v, %d items", ok, len(items))
		}
		for _, it := range items {
			if !IsNumeric(it.Attn.GetDtype()) || !utf8.ValidString(it.Tag) {
				t.Errorf("item %q of dtype %v", it.Tag, it.Attn.GetDtype())
			}
		}
	})
}
