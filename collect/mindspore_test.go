package collect

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"
)

// msExpected is testdata/mindspore/expected.json: what generate.py wrote
// with MindSpore's SummaryRecord (records) and what MindSpore's own
// protobuf classes read back from what SummaryCollector wrote (train).
type msExpected struct {
	Records struct {
		Scalars map[string][][2]float64
		Tensors map[string][]struct {
			Step   int64
			DType  string
			Shape  []int64
			Values []float64
		}
		Histograms map[string][]struct {
			Step          int64
			Count, Finite int
			Min, Max, Sum float64
			NaN           int64 `json:"nan"`
			PosInf        int64 `json:"pos_inf"`
			NegInf        int64 `json:"neg_inf"`
		}
		Images map[string][]struct {
			Step          int64
			Width, Height int
		}
	}
	Train struct {
		Tags map[string]struct {
			Kind  string
			Steps []int64
		}
		Scalars    map[string][][2]float64
		GraphNodes int `json:"graph_nodes"`
		Lineage    struct {
			Train map[string]any
			Eval  struct {
				Metric           map[string]float64
				ValidDatasetSize int `json:"valid_dataset_size"`
			}
			User map[string]any
		}
	}
}

func loadMSExpected(t *testing.T) msExpected {
	t.Helper()
	b, err := os.ReadFile("testdata/mindspore/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var e msExpected
	if err := json.Unmarshal(b, &e); err != nil {
		t.Fatal(err)
	}
	return e
}

func collectMS(t *testing.T) map[string]*Run {
	t.Helper()
	rep, err := Collect(context.Background(), []Logdir{{Name: "mindspore", Path: "testdata/mindspore"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rep.Close() })
	runs := map[string]*Run{}
	for _, r := range rep.Runs {
		runs[r.Name] = r
		for _, w := range r.Warnings {
			t.Errorf("run %s: warning %s", r.Name, w)
		}
		if r.Restarts != 0 {
			t.Errorf("run %s: %d restarts", r.Name, r.Restarts)
		}
	}
	for _, w := range rep.Warnings {
		t.Errorf("warning %s", w)
	}
	return runs
}

// single is what a float32 field holds of v: MindSpore writes scalars and
// every tensor value at single precision.
func single(v float64) float64 { return float64(float32(v)) }

// sameFloat compares as equal two NaNs and two infinities of one sign.
func sameFloat(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// TestMindSporeWriterRecords checks every value SummaryRecord wrote
// (testdata/mindspore/generate.py) against what we read.
func TestMindSporeWriterRecords(t *testing.T) {
	want := loadMSExpected(t).Records
	run := collectMS(t)["records"]
	if run == nil {
		t.Fatal("no run records")
	}
	if len(run.Scalars) != len(want.Scalars) {
		t.Errorf("%d scalar tags, want %d", len(run.Scalars), len(want.Scalars))
	}
	for _, s := range run.Scalars {
		w, ok := want.Scalars[s.Tag]
		if !ok {
			t.Errorf("scalar tag %q not written", s.Tag)
			continue
		}
		if len(s.Points) != len(w) {
			t.Errorf("scalar %q: %d points, want %d", s.Tag, len(s.Points), len(w))
			continue
		}
		for i, p := range s.Points {
			if p.Step != int64(w[i][0]) || p.Value != w[i][1] {
				t.Errorf("scalar %q point %d: step %d value %v, want %v", s.Tag, i, p.Step, p.Value, w[i])
			}
		}
	}
	if len(run.Tensors) != len(want.Tensors) {
		t.Errorf("%d tensor tags, want %d", len(run.Tensors), len(want.Tensors))
	}
	for _, ts := range run.Tensors {
		w := want.Tensors[ts.Tag]
		if len(ts.Entries) != len(w) {
			t.Errorf("tensor %q: %d entries, want %d", ts.Tag, len(ts.Entries), len(w))
			continue
		}
		for i, e := range ts.Entries {
			we := w[i]
			if e.Step != we.Step || e.DType != we.DType || !slices.Equal(e.Shape, we.Shape) || e.Encoding != EncodingMindSpore {
				t.Errorf("tensor %q entry %d: step %d %s %v %q, want step %d %s %v", ts.Tag, i, e.Step, e.DType, e.Shape, e.Encoding, we.Step, we.DType, we.Shape)
			}
			vals, err := e.Load()
			if err != nil {
				t.Errorf("tensor %q step %d: %v", ts.Tag, e.Step, err)
				continue
			}
			wv := make([]float64, len(we.Values))
			for k, v := range we.Values {
				wv[k] = single(v) // 1e300 of a float64 tensor is +Inf in float_data
			}
			if !slices.EqualFunc(vals, wv, sameFloat) {
				t.Errorf("tensor %q step %d: %v, want %v", ts.Tag, e.Step, vals, wv)
			}
		}
	}
	if len(run.Histograms) != 1 {
		t.Fatalf("%d histogram tags, want 1", len(run.Histograms))
	}
	h := run.Histograms[0]
	w := want.Histograms[h.Tag]
	if len(h.Entries) != len(w) {
		t.Fatalf("histogram %q: %d entries, want %d", h.Tag, len(h.Entries), len(w))
	}
	for i, e := range h.Entries {
		we := w[i]
		var total float64
		for _, b := range e.Buckets {
			total += b.Count
		}
		// min and max are the writer's float32 ones; the sum is float64.
		if e.Step != we.Step || e.Count != float64(we.Finite) || total != e.Count || e.Min != single(we.Min) || e.Max != single(we.Max) ||
			math.Abs(e.Sum-we.Sum) > 1e-9*math.Abs(we.Sum) || e.NaN != we.NaN || e.PosInf != we.PosInf || e.NegInf != we.NegInf {
			t.Errorf("histogram step %d: count %v (buckets %v) min %v max %v sum %v nan %d +inf %d -inf %d, want %+v",
				e.Step, e.Count, total, e.Min, e.Max, e.Sum, e.NaN, e.PosInf, e.NegInf, we)
		}
		if n := len(e.Buckets); n == 0 || e.Buckets[0].Left != e.Min || math.Abs(e.Buckets[n-1].Right-e.Max) > 1e-6*math.Max(1, math.Abs(e.Max)) {
			t.Errorf("histogram step %d: buckets do not span [min, max]: %v", e.Step, e.Buckets)
		}
	}
	if len(run.Images) != 1 {
		t.Fatalf("%d image tags, want 1", len(run.Images))
	}
	im := run.Images[0]
	if wi := want.Images[im.Tag]; len(im.Entries) != len(wi) {
		t.Errorf("image %q: %d entries, want %d", im.Tag, len(im.Entries), len(wi))
	} else {
		for i, e := range im.Entries {
			if len(e.Images) != 1 || e.Step != wi[i].Step || e.Images[0].Format != "png" ||
				e.Images[0].Width != wi[i].Width || e.Images[0].Height != wi[i].Height {
				t.Errorf("image step %d: %+v, want %+v", e.Step, e.Images, wi[i])
				continue
			}
			if _, err := e.Images[0].Data.Read(); err != nil {
				t.Errorf("image step %d: %v", e.Step, err)
			}
		}
	}
}

// TestMindSporeSummaryCollector checks what SummaryCollector wrote in a
// real training (graph, loss, parameter histograms, in-graph summaries,
// lineage) against what MindSpore's own protobuf classes read back.
func TestMindSporeSummaryCollector(t *testing.T) {
	want := loadMSExpected(t).Train
	run := collectMS(t)["train"]
	if run == nil {
		t.Fatal("no run train")
	}
	kinds := map[string]Kind{"scalar_value": KindScalar, "histogram": KindHistogram}
	for _, ti := range run.Tags {
		w, ok := want.Tags[ti.Tag]
		if !ok {
			t.Errorf("tag %q not written", ti.Tag)
			continue
		}
		// SummaryCollector writes an epoch's last step twice: read once.
		steps := slices.Compact(slices.Clone(w.Steps))
		if ti.Kind != kinds[w.Kind] || ti.Count != len(steps) || ti.FirstStep != steps[0] || ti.LastStep != steps[len(steps)-1] {
			t.Errorf("tag %q: %s, %d values, steps %d..%d; want %s, steps %v", ti.Tag, ti.Kind, ti.Count, ti.FirstStep, ti.LastStep, w.Kind, steps)
		}
	}
	if len(run.Tags) != len(want.Tags) {
		t.Errorf("%d tags, want %d", len(run.Tags), len(want.Tags))
	}
	for _, s := range run.Scalars {
		w := slices.CompactFunc(slices.Clone(want.Scalars[s.Tag]), func(a, b [2]float64) bool { return a == b })
		got := make([][2]float64, len(s.Points))
		for i, p := range s.Points {
			got[i] = [2]float64{float64(p.Step), p.Value}
		}
		if !slices.Equal(got, w) {
			t.Errorf("scalar %q: %v, want %v", s.Tag, got, w)
		}
	}
	if len(run.Graphs) != 1 || run.Graphs[0].Source != SourceMindSpore {
		t.Fatalf("graphs %v, want one MindSpore graph", run.Graphs)
	}
	ops := 0
	byName := map[string]bool{}
	for _, n := range run.Graphs[0].Nodes {
		byName[n.Name] = true
		if n.Op != "Parameter" && n.Op != "Const" {
			ops++
		}
	}
	if ops != want.GraphNodes {
		t.Errorf("graph: %d operators, want %d", ops, want.GraphNodes)
	}
	for _, n := range run.Graphs[0].Nodes {
		for _, in := range n.Inputs {
			if !byName[in.Name] {
				t.Errorf("graph: node %q has input %q, which is no node", n.Name, in.Name)
			}
		}
	}
	if run.HParams == nil || len(run.HParams.Sessions) != 1 {
		t.Fatalf("hparams %+v, want one session", run.HParams)
	}
	s := run.HParams.Sessions[0]
	hp := s.Start.HParams
	for name, v := range want.Lineage.Train {
		key := map[string]string{"epoch": "epoch", "train_dataset_size": "train_dataset_count", "loss": "", "model_size": "model_size"}[name]
		if key == "" {
			if _, known := map[string]bool{"epoch": true, "train_dataset_size": true, "loss": true}[name]; !known {
				key = name
			}
		}
		if key == "" {
			continue
		}
		got, ok := hp[key]
		switch v := v.(type) {
		case string:
			if v == "" {
				if ok {
					t.Errorf("hparam %q: %v, want none for an empty string", key, got)
				}
			} else if !ok || got.Kind != StringValue || got.Str != v {
				t.Errorf("hparam %q: %+v, want %q", key, got, v)
			}
		case float64:
			if !ok || got.Kind != NumberValue || got.Number != v {
				t.Errorf("hparam %q: %+v, want %v", key, got, v)
			}
		}
	}
	if got := hp["user/note"]; got.Str != "fixture" {
		t.Errorf("user lineage note: %+v", got)
	}
	if got := hp["user/seed"]; got.Number != 1 {
		t.Errorf("user lineage seed: %+v", got)
	}
	if got := hp["valid_dataset_count"]; got.Number != float64(want.Lineage.Eval.ValidDatasetSize) {
		t.Errorf("valid_dataset_count: %+v", got)
	}
	for name, v := range want.Lineage.Eval.Metric {
		if got, ok := s.Metrics[name]; !ok || got.Value != v {
			t.Errorf("metric %q: %+v, want %v", name, got, v)
		}
	}
	if got := s.Metrics["loss/auto"].Value; got != want.Scalars["loss/auto"][len(want.Scalars["loss/auto"])-1][1] {
		t.Errorf("metric loss/auto: %v", got)
	}
}
