package collect

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect/mindspore"
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

func collectMS(t *testing.T) map[string]*model.Run {
	t.Helper()
	rep, err := Collect(context.Background(), []model.Logdir{{Name: "mindspore", Path: "testdata/mindspore"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rep.Close() })
	runs := map[string]*model.Run{}
	for _, r := range rep.Runs {
		runs[r.Name] = r
		for _, w := range r.Warnings {
			t.Errorf("run %s: warning %s", r.Name, w)
		}
		// SummaryCollector's second write of an epoch's last step is a
		// rewrite within the one attempt, not a restart.
		if len(r.Attempts) > 1 {
			t.Errorf("run %s: %d attempts", r.Name, len(r.Attempts))
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
			if e.Step != we.Step || e.DType != we.DType || !slices.Equal(e.Shape, we.Shape) || e.Encoding != model.EncodingMindSpore {
				t.Errorf("tensor %q entry %d: step %d %s %v %q, want step %d %s %v", ts.Tag, i, e.Step, e.DType, e.Shape, e.Encoding, we.Step, we.DType, we.Shape)
			}
			vals, err := e.Load(Decoders())
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
	kinds := map[string]model.Kind{"scalar_value": model.KindScalar, "histogram": model.KindHistogram}
	for _, ti := range run.Tags {
		w, ok := want.Tags[ti.Tag]
		if !ok {
			t.Errorf("tag %q not written", ti.Tag)
			continue
		}
		// SummaryCollector writes an epoch's last step twice: both are
		// kept, the first superseded by the second.
		steps := slices.Compact(slices.Clone(w.Steps))
		if ti.Kind != kinds[w.Kind] || ti.Count != len(steps) || ti.Superseded != len(w.Steps)-len(steps) || ti.FirstStep != steps[0] || ti.LastStep != steps[len(steps)-1] {
			t.Errorf("tag %q: %s, %d values, %d superseded, steps %d..%d; want %s, steps %v", ti.Tag, ti.Kind, ti.Count, ti.Superseded, ti.FirstStep, ti.LastStep, w.Kind, w.Steps)
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
	// The summary's graph, then the lineage's dataset graph
	// (TestMindSporeLineageDatasetGraph).
	if len(run.Graphs) != 2 || run.Graphs[0].Source != model.SourceMindSpore || run.Graphs[1].Source != model.SourceMindSporeDataset {
		t.Fatalf("graphs %v, want the MindSpore graph and the dataset graph", run.Graphs)
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
	// The train lineage's fields as the writer's classes read them, by
	// the hyperparameter each becomes.
	for name, key := range map[string]string{"optimizer": "optimizer", "learning_rate": "learning_rate",
		"loss_function": "loss_function", "epoch": "epoch", "batch_size": "batch_size", "device_num": "device_num",
		"parallel_mode": "parallel_mode", "train_dataset_size": "train_dataset_count", "network": "network",
		"model_size": "model_size", "train_dataset_path": "train_dataset_path"} {
		got, ok := hp[key]
		switch v := want.Lineage.Train[name].(type) {
		case string:
			if v == "" && ok {
				t.Errorf("hparam %q: %+v, want none for an empty string", key, got)
			} else if v != "" && (got.Kind != model.StringValue || got.Str != v) {
				t.Errorf("hparam %q: %+v, want %q", key, got, v)
			}
		case float64:
			if got.Kind != model.NumberValue || got.Number != v {
				t.Errorf("hparam %q: %+v, want %v", key, got, v)
			}
		default:
			t.Errorf("lineage field %q: %v not in expected.json", name, v)
		}
	}
	if got := hp["user/note"]; got.Str != "fixture" {
		t.Errorf("user lineage note: %+v", got)
	}
	if got := hp["user/seed"]; got.Number != 1 {
		t.Errorf("user lineage seed: %+v", got)
	}
	if got := hp["test_dataset_count"]; got.Number != float64(want.Lineage.Eval.ValidDatasetSize) {
		t.Errorf("test_dataset_count: %+v", got)
	}
	if got := s.Metrics["train_loss"].Value; got != want.Lineage.Train["loss"] {
		t.Errorf("metric train_loss: %v, want %v", got, want.Lineage.Train["loss"])
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

// miNumber is a number of mindinsight.json, where NaN and the infinities
// are strings.
type miNumber float64

func (n *miNumber) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		f, err := strconv.ParseFloat(s, 64)
		*n = miNumber(f)
		return err
	}
	var f float64
	err := json.Unmarshal(b, &f)
	*n = miNumber(f)
	return err
}

// miRun is what MindInsight's loader read of a run
// (testdata/mindspore/dump_mindinsight.py): plugin -> "<tag>/<plugin>" ->
// values.
type miRun struct {
	Scalar map[string][]struct {
		Step  int64
		Value miNumber
	}
	Histogram map[string][]struct {
		Step     int64
		Count    int
		Min, Max miNumber
		Original [][3]miNumber // as written, sorted by left edge
	}
	Tensor map[string][]struct {
		Step   int64
		Dims   []int64
		Values []miNumber
	}
	Image map[string][]struct {
		Step          int64
		Width, Height int
	}
}

// TestAgreesWithMindInsight compares what we read of the fixtures with
// what MindInsight 2.3.1's own loaders read (testdata/mindspore/
// mindinsight.json): every scalar, histogram bucket, tensor value and
// image size, and the lineage table. MindInsight 2.3.1 keeps a "[:Scalar]"
// suffix in the tag it shows; we strip it (MindSpore 2.x strips it before
// writing).
func TestAgreesWithMindInsight(t *testing.T) {
	b, err := os.ReadFile("testdata/mindspore/mindinsight.json")
	if err != nil {
		t.Fatal(err)
	}
	var mi struct {
		Records, Train miRun
		Lineage        map[string][]any
	}
	if err := json.Unmarshal(b, &mi); err != nil {
		t.Fatal(err)
	}
	runs := collectMS(t)
	tagOf := func(miTag, plugin string) string {
		return mindspore.StripTag(strings.TrimSuffix(miTag, "/"+plugin))
	}
	compared := 0
	for name, m := range map[string]miRun{"records": mi.Records, "train": mi.Train} {
		run := runs[name]
		scalars := map[string]*model.Scalar{}
		for _, s := range run.Scalars {
			scalars[s.Tag] = s
		}
		for tag, want := range m.Scalar {
			s := scalars[tagOf(tag, "scalar")]
			if s == nil || len(s.Points) != len(want) {
				t.Errorf("%s: scalar %q: %v, MindInsight has %d points", name, tag, s, len(want))
				continue
			}
			for i, p := range s.Points {
				if p.Step != want[i].Step || !sameFloat(p.Value, float64(want[i].Value)) {
					t.Errorf("%s: scalar %q point %d: step %d %v, MindInsight step %d %v", name, tag, i, p.Step, p.Value, want[i].Step, want[i].Value)
				}
				compared++
			}
		}
		hists := map[string]*model.Histogram{}
		for _, h := range run.Histograms {
			hists[h.Tag] = h
		}
		for tag, want := range m.Histogram {
			h := hists[tagOf(tag, "histogram")]
			if h == nil {
				t.Errorf("%s: histogram %q missing", name, tag)
				continue
			}
			// MindInsight shows a step written twice once: the line.
			line := slices.DeleteFunc(slices.Clone(h.Entries), func(e model.HistogramEntry) bool { return e.Superseded })
			if len(line) != len(want) {
				t.Errorf("%s: histogram %q: %d entries on the line, MindInsight has %d", name, tag, len(line), len(want))
				continue
			}
			for i, e := range line {
				w := want[i]
				if e.Step != w.Step || e.Count != float64(w.Count) || e.Min != float64(w.Min) || e.Max != float64(w.Max) || len(e.Buckets) != len(w.Original) {
					t.Errorf("%s: histogram %q step %d: count %v min %v max %v %d buckets; MindInsight %+v", name, tag, e.Step, e.Count, e.Min, e.Max, len(e.Buckets), w)
					continue
				}
				for k, bk := range e.Buckets {
					wb := w.Original[k]
					if bk.Left != float64(wb[0]) || bk.Right != float64(wb[0])+float64(wb[1]) || bk.Count != float64(wb[2]) {
						t.Errorf("%s: histogram %q step %d bucket %d: %+v, MindInsight %v", name, tag, e.Step, k, bk, wb)
					}
					compared++
				}
			}
		}
		tensors := map[string]*model.Tensor{}
		for _, ts := range run.Tensors {
			tensors[ts.Tag] = ts
		}
		for tag, want := range m.Tensor {
			ts := tensors[tagOf(tag, "tensor")]
			if ts == nil || len(ts.Entries) != len(want) {
				t.Errorf("%s: tensor %q: %v, MindInsight has %d", name, tag, ts, len(want))
				continue
			}
			for i, e := range ts.Entries {
				vals, err := e.Load(Decoders())
				if err != nil {
					t.Fatal(err)
				}
				w := want[i]
				wv := make([]float64, len(w.Values))
				for k, v := range w.Values {
					wv[k] = float64(v)
				}
				if e.Step != w.Step || !slices.Equal(e.Shape, w.Dims) || !slices.EqualFunc(vals, wv, sameFloat) {
					t.Errorf("%s: tensor %q step %d: %v %v, MindInsight %v %v", name, tag, e.Step, e.Shape, vals, w.Dims, wv)
				}
				compared += len(vals)
			}
		}
		images := map[string]*model.Image{}
		for _, im := range run.Images {
			images[im.Tag] = im
		}
		for tag, want := range m.Image {
			im := images[tagOf(tag, "image")]
			if im == nil || len(im.Entries) != len(want) {
				t.Errorf("%s: image %q: %v, MindInsight has %d", name, tag, im, len(want))
				continue
			}
			for i, e := range im.Entries {
				if e.Step != want[i].Step || e.Images[0].Width != want[i].Width || e.Images[0].Height != want[i].Height {
					t.Errorf("%s: image %q step %d: %+v, MindInsight %+v", name, tag, e.Step, e.Images[0], want[i])
				}
				compared++
			}
		}
	}
	// The lineage table: one row, the train run's.
	s := runs["train"].HParams.Sessions[0]
	for col, vals := range mi.Lineage {
		if len(vals) != 1 {
			t.Fatalf("lineage column %q: %v, want one row", col, vals)
		}
		v := vals[0]
		var got any
		switch {
		case col == "train_id" || col == "dataset_mark":
			continue // MindInsight's own: the run's path, and its grouping of datasets
		case strings.HasPrefix(col, "[M]"):
			got = s.Metrics[strings.TrimPrefix(col, "[M]")].Value
		case strings.HasPrefix(col, "[U]"):
			got = s.Start.HParams["user/"+strings.TrimPrefix(col, "[U]")]
		case col == "loss":
			got = s.Metrics["train_loss"].Value
		default:
			got = s.Start.HParams[col]
		}
		if hv, ok := got.(model.HParamValue); ok {
			switch hv.Kind {
			case model.NumberValue:
				got = hv.Number
			case model.StringValue:
				got = hv.Str
			default:
				got = nil
			}
		}
		// MindInsight rounds float32 fields to 7 digits (0.05 for 0.05000000074505806).
		if g, ok := got.(float64); ok {
			if w, ok := v.(float64); ok && math.Abs(g-w) <= 1e-7*math.Max(1, math.Abs(w)) {
				compared++
				continue
			}
		}
		if got != v {
			t.Errorf("lineage %q: %v (%T), MindInsight %v (%T)", col, got, got, v, v)
		}
		compared++
	}
	if compared < 450 { // 492 in the committed fixture
		t.Errorf("only %d values compared", compared)
	}
	t.Logf("%d values compared", compared)
}

// TestMindSporeKeepsEveryWriteOfAStep checks that SummaryCollector's two
// writes of an epoch's last step are both read: every record with
// --keep-all-records, the line and a superseded entry by default.
func TestMindSporeKeepsEveryWriteOfAStep(t *testing.T) {
	want := loadMSExpected(t).Train
	rep, err := Collect(context.Background(), []model.Logdir{{Name: "mindspore", Path: "testdata/mindspore"}}, Options{KeepAllRecords: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Close()
	var run *model.Run
	for _, r := range rep.Runs {
		if r.Name == "train" {
			run = r
		}
	}
	if run == nil {
		t.Fatal("no run train")
	}
	twice := 0
	for _, ti := range run.Tags {
		w, ok := want.Tags[ti.Tag]
		if !ok {
			continue
		}
		if ti.Count != len(w.Steps) || ti.Superseded != 0 {
			t.Errorf("keep-all: tag %q: %d values, %d superseded; want %d (steps %v)", ti.Tag, ti.Count, ti.Superseded, len(w.Steps), w.Steps)
		}
		if len(slices.Compact(slices.Clone(w.Steps))) < len(w.Steps) {
			twice++
		}
	}
	if twice == 0 {
		t.Fatal("the fixture writes no step twice: the test proves nothing")
	}
	for _, h := range run.Histograms {
		if n := len(h.Entries); n != len(want.Tags[h.Tag].Steps) {
			t.Errorf("keep-all: histogram %q: %d entries, want %d", h.Tag, n, len(want.Tags[h.Tag].Steps))
		}
	}
}

// TestMindSporeLineageDatasetGraph reads the dataset graph SummaryCollector
// wrote into the lineage (testdata/mindspore/generate.py: a
// GeneratorDataset batched by 8) as a graph of the run.
func TestMindSporeLineageDatasetGraph(t *testing.T) {
	run := collectMS(t)["train"]
	var g *model.Graph
	for _, gr := range run.Graphs {
		if gr.Source == model.SourceMindSporeDataset {
			g = gr
		}
	}
	if g == nil {
		t.Fatalf("no dataset graph among %d graphs", len(run.Graphs))
	}
	if len(g.Nodes) != 2 || g.Nodes[0].Op != "Batch" || len(g.Nodes[0].Inputs) != 1 || g.Nodes[0].Inputs[0].Name != "GeneratorDataset" || g.Nodes[1].Op != "GeneratorDataset" {
		t.Fatalf("dataset graph %+v, want GeneratorDataset -> Batch", g.Nodes)
	}
	if !slices.Contains(g.Nodes[0].Attrs, model.NodeAttr{Name: "batch_size", Value: "8"}) {
		t.Errorf("Batch attributes %v, want batch_size 8", g.Nodes[0].Attrs)
	}
	if !strings.HasSuffix(g.File, "_lineage") {
		t.Errorf("dataset graph read from %q, want the lineage file", g.File)
	}
}
