package collect

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/mindspore/mspb"
)

// FuzzReadMindSpore runs Collect on one MindSpore summary or lineage file
// of arbitrary content (framed as fuzzFile does when framed is set): it
// must not panic or fail, must report the file, keep each series in step
// order, warn within the file, every tensor, image and graph it keeps
// must read back, and a graph's inputs stay within their bounds (its
// output's size against the file's). Found inputs are kept under
// testdata/fuzz/FuzzReadMindSpore.
func FuzzReadMindSpore(f *testing.F) {
	for _, p := range []string{"records/*_MS", "train/*_MS", "train/*_lineage"} {
		ms, _ := filepath.Glob(filepath.Join("testdata", "mindspore", p))
		for _, m := range ms {
			if data, err := os.ReadFile(m); err == nil && len(data) < 16<<10 {
				f.Add(data, false, filepath.Ext(m) == "" && len(m) > 8 && m[len(m)-8:] == "_lineage")
			}
		}
	}
	chunk := func(evs ...proto.Message) []byte {
		var out []byte
		for _, ev := range evs {
			b, _ := proto.Marshal(ev)
			if len(b) > 255 {
				f.Fatalf("seed event of %d bytes", len(b))
			}
			out = append(append(out, byte(len(b))), b...)
		}
		return out
	}
	f.Add(chunk(msScalar(1, "a[:Scalar]", 1), msScalar(1, "a", 1), msScalar(0, "a", 2),
		msValue(2, &mspb.SummaryValue{Tag: "t", Value: &mspb.SummaryValue_Tensor{Tensor: &mspb.Tensor{
			Dims: []int64{2}, DataType: mspb.DataType_DT_INT32, RawData: []byte{1, 0, 0, 0, 2, 0, 0, 0}}}}),
		msValue(3, &mspb.SummaryValue{Tag: "h", Value: &mspb.SummaryValue_Histogram{Histogram: &mspb.Histogram{
			Buckets: []*mspb.Bucket{{Left: 0, Width: 1, Count: 2}}, NanCount: 1}}}),
		&mspb.Event{Step: 4, What: &mspb.Event_Graph{Graph: &mspb.Graph{Node: []*mspb.Node{{Name: "1", OpType: "Add",
			Input: []*mspb.Input{{Name: "x"}, {Name: "2", Type: mspb.Input_CONTROL_EDGE}}}}}}}), true, false)
	f.Add(chunk(&mspb.LineageEvent{What: &mspb.LineageEvent_EvaluationLineage{EvaluationLineage: &mspb.EvaluationLineage{Metric: `{"a": 1}`}}},
		&mspb.LineageEvent{What: &mspb.LineageEvent_TrainLineage{TrainLineage: &mspb.TrainLineage{
			HyperParameters: &mspb.TrainLineage_HyperParameters{Optimizer: "SGD", BatchSize: 3}}}}), true, true)

	f.Fuzz(func(t *testing.T, in []byte, framed, lineage bool) {
		data := fuzzFile(in, framed)
		name := msSummary
		if lineage {
			name = msLineage
		}
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := Collect(context.Background(), []model.Logdir{{Name: "f", Path: dir}}, Options{})
		if err != nil {
			t.Fatalf("Collect: %v", err)
		}
		defer rep.Close()
		if len(rep.Runs) != 1 || len(rep.Runs[0].Files) != 1 {
			t.Fatalf("runs %v", runNames(rep))
		}
		r := rep.Runs[0]
		if st := r.Files[0].Status; !slices.Contains([]string{"ok", "empty", "truncated", "damaged", "lfs-pointer"}, st) {
			t.Fatalf("Status %q", st)
		}
		if len(r.Warnings) > maxWarningsPerFile+2 { // and the lineage's own
			t.Fatalf("%d warnings", len(r.Warnings))
		}
		for _, w := range r.Warnings {
			if w.File != name && w.File != "." || w.Offset < -1 || w.Offset >= max(int64(len(data)), 1) {
				t.Fatalf("warning %q outside the file of %d bytes", w, len(data))
			}
		}
		for _, s := range r.Scalars {
			for j := 1; j < len(s.Points); j++ {
				if s.Points[j].Step <= s.Points[j-1].Step {
					t.Fatalf("tag %q: step %d after %d", s.Tag, s.Points[j].Step, s.Points[j-1].Step)
				}
			}
		}
		for _, ts := range r.Tensors {
			for _, e := range ts.Entries {
				vals, err := e.Load(Decoders())
				if err != nil {
					t.Fatalf("tensor %q step %d kept but not read back: %v", ts.Tag, e.Step, err)
				}
				n := int64(1)
				for _, d := range e.Shape {
					n *= d
				}
				if int64(len(vals)) != n {
					t.Fatalf("tensor %q of shape %v read back %d values", ts.Tag, e.Shape, len(vals))
				}
			}
		}
		for _, im := range r.Images {
			for _, e := range im.Entries {
				for _, it := range e.Images {
					if _, err := it.Data.Read(); err != nil {
						t.Fatalf("image %q: %v", im.Tag, err)
					}
				}
			}
		}
		// A graph's inputs stay within their bounds (collect/graph): a
		// node's inputs and the bytes of their names, counted once per
		// input, against the file's size.
		for _, g := range r.Graphs {
			names := 0
			for _, n := range g.Nodes {
				if len(n.Inputs) > 10_000 {
					t.Fatalf("graph: a node of %d inputs", len(n.Inputs))
				}
				for _, in := range n.Inputs {
					names += len(in.Name)
				}
			}
			if names > 4*len(data)+4<<20 {
				t.Fatalf("graph: %d bytes of input names from %d bytes", names, len(data))
			}
		}
		for _, h := range r.Histograms {
			for _, e := range h.Entries {
				if e.NaN < 0 || e.PosInf < 0 || e.NegInf < 0 {
					t.Fatalf("histogram %q: negative counts %+v", h.Tag, e)
				}
			}
		}
	})
}
