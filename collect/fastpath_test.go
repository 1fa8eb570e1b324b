package collect

import (
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	pb "github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/tfrecord"
	"github.com/trainreport/trainreport/examples/demo/demolog"
)

// TestFastPathAgreesWithFullDecoder reads every directory of the shared
// corpus, the real writers' fixtures and the demo twice, with the wire-level fast path and with the generated
// decoder alone, and requires the same report.
func TestFastPathAgreesWithFullDecoder(t *testing.T) {
	root := sharedCorpus(t)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	demo := filepath.Join(t.TempDir(), "demo")
	if err := demolog.Write(demo); err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{"demo": demo}
	for _, w := range []string{"tensorboardx", "tf2", "keras", "keras_nested", "torch"} {
		dirs["writers/"+w] = filepath.Join("testdata", "writers", w)
	}
	for _, e := range entries {
		if e.IsDir() {
			dirs[e.Name()] = filepath.Join(root, e.Name())
		}
	}
	for name, dir := range dirs {
		lds := []model.Logdir{{Name: name, Path: dir}}
		// Both models hold payloads of the same open directory.
		src, err := logfs.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer src.Close()
		open := func(string) (*logfs.Dir, error) { return src, nil }
		fast, err := Collect(context.Background(), lds, Options{open: open})
		if err != nil {
			t.Fatal(err)
		}
		full, err := Collect(context.Background(), lds, Options{fullDecode: true, open: open})
		if err != nil {
			t.Fatal(err)
		}
		for i := range fast.Runs {
			a, b := *fast.Runs[i], *full.Runs[i]
			if len(a.Scalars) != len(b.Scalars) {
				t.Errorf("%s: run %q: %d scalar tags, full decoder %d", name, a.Name, len(a.Scalars), len(b.Scalars))
				continue
			}
			for j, sa := range a.Scalars {
				if !sameScalar(sa, b.Scalars[j]) {
					t.Errorf("%s: run %q scalar %q differs", name, a.Name, sa.Tag)
				}
			}
			// NaN != NaN: the points are compared above, bit for bit.
			a.Scalars, b.Scalars = nil, nil
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s: run %q differs between the fast path and the full decoder:\n%+v\n%+v", name, a.Name, a, b)
			}
		}
	}
}

func sameScalar(a, b *model.Scalar) bool {
	if a.Tag != b.Tag || a.Float32 != b.Float32 || a.Dropped != b.Dropped || len(a.Points) != len(b.Points) {
		return false
	}
	for i, p := range a.Points {
		q := b.Points[i]
		if p.Step != q.Step || p.WallTime != q.WallTime || math.Float64bits(p.Value) != math.Float64bits(q.Value) {
			return false
		}
	}
	return true
}

// TestRepeatedLayouts changes what each position of a summary holds from
// step to step, in the ways that must defeat the layout learnt for that
// position (see runReader.learn): other tags, the same tag in another
// encoding or width, fields in another order or after the number, a value
// that is not a scalar, metadata arriving late. The fast path must read
// exactly what the generated decoder reads.
func TestRepeatedLayouts(t *testing.T) {
	dbl := func(tag string, v float64) *pb.SummaryValue {
		return &pb.SummaryValue{Tag: tag, Value: &pb.SummaryValue_Tensor{Tensor: &pb.TensorProto{
			Dtype: pb.DataType_DT_DOUBLE, TensorShape: &pb.TensorShapeProto{},
			TensorContent: binary.LittleEndian.AppendUint64(nil, math.Float64bits(v))}}}
	}
	floatVal := func(tag string, v float32) *pb.SummaryValue {
		return &pb.SummaryValue{Tag: tag, Value: &pb.SummaryValue_Tensor{Tensor: &pb.TensorProto{
			Dtype: pb.DataType_DT_FLOAT, TensorShape: &pb.TensorShapeProto{}, FloatVal: []float32{v}}}}
	}
	retagged := func(v float32) *pb.SummaryValue {
		sv := simple("a", v)
		sv.ProtoReflect().SetUnknown(protowire.AppendString(protowire.AppendTag(nil, 1, protowire.BytesType), "e"))
		return sv
	}
	withNode := func(v *pb.SummaryValue) *pb.SummaryValue { v.NodeName = "n"; return v }
	histo := &pb.SummaryValue{Tag: "h", Value: &pb.SummaryValue_Histo{Histo: &pb.HistogramProto{
		Min: 0, Max: 1, Num: 1, Sum: 0.5, BucketLimit: []float64{1}, Bucket: []float64{1}}}}
	evs := []*pb.Event{fileVersion(), summary(0, simple("a", 0), tensor("b", 0, true), withPlugin(dbl("c", 0), "scalars"))}
	for s := int64(1); s <= 40; s++ {
		v := float32(s) / 8
		var vals []*pb.SummaryValue
		switch s % 8 {
		case 0: // the usual layout, which the next steps depart from
			vals = []*pb.SummaryValue{simple("a", v), tensor("b", v, false), dbl("c", float64(v)/3)}
		case 1: // other tags of the same lengths where a, b and c were
			vals = []*pb.SummaryValue{simple("e", v), tensor("f", v, false), dbl("g", float64(v))}
		case 2: // the usual tags, swapped
			vals = []*pb.SummaryValue{tensor("b", v, false), simple("a", v), dbl("c", float64(v)/3)}
		case 3: // the same tags in other encodings and widths
			vals = []*pb.SummaryValue{floatVal("a", v), dbl("b", float64(v)), tensor("c", v, false)}
		case 4: // a field after the number, a histogram where a scalar was,
			// a second tag after the number (the last counts)
			vals = []*pb.SummaryValue{withNode(simple("a", v)), histo, floatVal("c", v), retagged(v)}
		case 5: // metadata on a known tag; an unnamed value named by a node
			// name that follows its number (Go's encoder puts oneofs last)
			named := simple("", v)
			named.ProtoReflect().SetUnknown(protowire.AppendString(protowire.AppendTag(nil, 7, protowire.BytesType), "node"))
			vals = []*pb.SummaryValue{tensor("a", v, true), named, simple("b", v), retagged(v)}
		case 6: // the unnamed value without its node name, a value of
			// another kind under a scalar tag
			vals = []*pb.SummaryValue{simple("a", v), simple("", v), withPlugin(tensor("b", v, false), "text"), dbl("c", 0)}
		case 7: // a second number after the first: the last counts
			twice := simple("a", float32(math.NaN()))
			twice.ProtoReflect().SetUnknown(protowire.AppendFixed32(protowire.AppendTag(nil, 2, protowire.Fixed32Type), math.Float32bits(-v)))
			vals = []*pb.SummaryValue{twice}
		}
		evs = append(evs, summary(s, vals...))
	}
	// Then many steps of one layout, broken once mid-way by a restart.
	for s := int64(41); s <= 300; s++ {
		evs = append(evs, summary(s, simple("a", float32(s)), tensor("b", float32(s), false), dbl("c", float64(s))))
		if s == 200 {
			evs = append(evs, sessionStart(150))
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ev100), eventFile(t, evs...), 0o644); err != nil {
		t.Fatal(err)
	}
	fast := collectDir(t, dir, Options{})
	full := collectDir(t, dir, Options{fullDecode: true})
	a, b := fast.Runs[0], full.Runs[0]
	if got, want := dump(a), dump(b); got != want {
		t.Errorf("fast path:\n%s\nfull decoder:\n%s", got, want)
	}
	if !reflect.DeepEqual(a.Tags, b.Tags) || !reflect.DeepEqual(a.Warnings, b.Warnings) {
		t.Errorf("tags or warnings differ:\n%+v\n%+v\n%+v\n%+v", a.Tags, b.Tags, a.Warnings, b.Warnings)
	}
	// A summary cut short inside a value laid out as learnt is reported,
	// with the values before it read.
	sum, err := proto.Marshal(&pb.Summary{Value: []*pb.SummaryValue{simple("a", 1), tensor("b", 2, false)}})
	if err != nil {
		t.Fatal(err)
	}
	cut := protowire.AppendTag(nil, 2, protowire.VarintType)
	cut = protowire.AppendVarint(cut, 400)
	cut = protowire.AppendTag(cut, 5, protowire.BytesType)
	cut = protowire.AppendBytes(cut, sum[:len(sum)-2])
	file := tfrecord.AppendRecord(eventFile(t, evs...), cut)
	if err := os.WriteFile(filepath.Join(dir, ev100), file, 0o644); err != nil {
		t.Fatal(err)
	}
	r := collectDir(t, dir, Options{}).Runs[0]
	if w := r.Warnings[len(r.Warnings)-1]; !strings.Contains(w.Msg, "summary does not parse") || w.Offset != int64(len(file)-len(cut)-16) {
		t.Errorf("last warning %q, want the cut summary at offset %d", w, len(file)-len(cut)-16)
	}
	if i := slices.IndexFunc(r.Scalars, func(s *model.Scalar) bool { return s.Tag == "a" }); i < 0 || r.Scalars[i].Points[len(r.Scalars[i].Points)-1].Step != 400 {
		t.Errorf("tag a does not end with the cut summary's step 400: %s", dump(r))
	}
	for _, tag := range []string{"a", "b", "c"} {
		if i := slices.IndexFunc(a.Scalars, func(s *model.Scalar) bool { return s.Tag == tag }); i < 0 || len(a.Scalars[i].Points) < 200 {
			t.Fatalf("tag %q did not read as a long scalar series: %s", tag, dump(a))
		}
	}
}
