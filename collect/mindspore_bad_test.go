package collect

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/mindspore/mspb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

// The names of a MindSpore summary and lineage file in tests.
const (
	msSummary = "events.out.events.summary.100.0.host_MS"
	msLineage = "events.out.events.summary.100.0.host_lineage"
)

// msFile frames MindSpore events as a summary file.
func msFile(t testing.TB, evs ...proto.Message) []byte {
	t.Helper()
	var out []byte
	for _, ev := range evs {
		b, err := proto.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		out = tfrecord.AppendRecord(out, b)
	}
	return out
}

func msScalar(step int64, tag string, v float32) *mspb.Event {
	return &mspb.Event{WallTime: 1e9 + float64(step), Step: step, What: &mspb.Event_Summary{Summary: &mspb.Summary{
		Value: []*mspb.SummaryValue{{Tag: tag, Value: &mspb.SummaryValue_Scalar{Scalar: v}}}}}}
}

func msValue(step int64, v *mspb.SummaryValue) *mspb.Event {
	return &mspb.Event{WallTime: 1e9 + float64(step), Step: step, What: &mspb.Event_Summary{Summary: &mspb.Summary{
		Value: []*mspb.SummaryValue{v}}}}
}

// collectMSFiles collects a directory holding the given files.
func collectMSFiles(t *testing.T, files map[string][]byte) *model.Run {
	t.Helper()
	dir := t.TempDir()
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Collect(context.Background(), []model.Logdir{{Name: "ms", Path: dir}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rep.Close() })
	if len(rep.Runs) != 1 {
		t.Fatalf("%d runs", len(rep.Runs))
	}
	return rep.Runs[0]
}

// TestMindSporeBadInput checks that damaged and hostile MindSpore records
// give a warning naming the file and the record's offset, and that the
// rest of the file is read.
func TestMindSporeBadInput(t *testing.T) {
	version := &mspb.Event{WallTime: 1e9, What: &mspb.Event_Version{Version: "MindSpore.Event:1"}}
	good := func(step int64) *mspb.Event { return msScalar(step, "loss", float32(step)) }
	recordOffsets := func(b []byte) []int64 {
		var offs []int64
		r := tfrecord.NewReader(strings.NewReader(string(b)), "x")
		for r.Next() {
			offs = append(offs, r.Offset())
		}
		return offs
	}
	cases := []struct {
		name   string
		events []proto.Message
		spoil  func(b []byte) []byte
		status string
		warn   string // in the warning of record warnAt
		warnAt int    // index of the record warned about
		steps  []int64
	}{
		{name: "data CRC", events: []proto.Message{version, good(1), good(2), good(3)},
			spoil: func(b []byte) []byte {
				off := recordOffsets(b)[2]
				b[off+12] ^= 0xff // the first data byte of record 2
				return b
			}, status: "damaged", warn: "checksum mismatch", warnAt: 2, steps: []int64{1, 3}},
		{name: "truncated", events: []proto.Message{version, good(1), good(2)},
			spoil:  func(b []byte) []byte { return b[:len(b)-5] },
			status: "truncated", warn: "", warnAt: 2, steps: []int64{1}},
		{name: "not an event", events: []proto.Message{version, good(1), good(2), good(3)},
			spoil: func(b []byte) []byte {
				// Record 2 becomes a field 2 (the step, a varint) of
				// wire type 2 claiming 127 bytes that are not there, with
				// valid CRCs.
				offs := recordOffsets(b)
				out := slices.Clone(b[:offs[2]])
				out = tfrecord.AppendRecord(out, []byte{0x12, 0x7f, 1, 2, 3})
				return append(out, b[offs[3]:]...)
			}, status: "damaged", warn: "not a MindSpore Event", warnAt: 2, steps: []int64{1, 3}},
		{name: "dimensions claim too much", events: []proto.Message{version, good(1),
			msValue(2, &mspb.SummaryValue{Tag: "t", Value: &mspb.SummaryValue_Tensor{Tensor: &mspb.Tensor{
				Dims: []int64{1 << 20, 1 << 20}, DataType: mspb.DataType_DT_FLOAT32, FloatData: []float32{1, 2, 3}}}}), good(3)},
			status: "ok", warn: "invalid or too large", warnAt: 2, steps: []int64{1, 3}},
		{name: "values do not fill the dimensions", events: []proto.Message{version, good(1),
			msValue(2, &mspb.SummaryValue{Tag: "t", Value: &mspb.SummaryValue_Tensor{Tensor: &mspb.Tensor{
				Dims: []int64{4}, DataType: mspb.DataType_DT_FLOAT32, FloatData: []float32{1, 2, 3}}}}), good(3)},
			status: "ok", warn: "holds 3 values, want 4", warnAt: 2, steps: []int64{1, 3}},
		{name: "negative bucket count", events: []proto.Message{version, good(1),
			msValue(2, &mspb.SummaryValue{Tag: "h", Value: &mspb.SummaryValue_Histogram{Histogram: &mspb.Histogram{
				Buckets: []*mspb.Bucket{{Left: 0, Width: 1, Count: -5}}}}}), good(3)},
			status: "ok", warn: "count -5", warnAt: 2, steps: []int64{1, 3}},
		{name: "infinite bucket", events: []proto.Message{version, good(1),
			msValue(2, &mspb.SummaryValue{Tag: "h", Value: &mspb.SummaryValue_Histogram{Histogram: &mspb.Histogram{
				Buckets: []*mspb.Bucket{{Left: 0, Width: math.Inf(1), Count: 1}}}}}), good(3)},
			status: "ok", warn: "no finite extent", warnAt: 2, steps: []int64{1, 3}},
		{name: "kind changes", events: []proto.Message{version, good(1),
			msValue(2, &mspb.SummaryValue{Tag: "loss[:Histogram]", Value: &mspb.SummaryValue_Histogram{Histogram: &mspb.Histogram{}}}), good(3)},
			status: "ok", warn: `tag "loss" at step 2 holds a histogram after scalar values`, warnAt: 2, steps: []int64{1, 3}},
		{name: "other version", events: []proto.Message{&mspb.Event{What: &mspb.Event_Version{Version: "MindSpore.Event:9"}}, good(1)},
			status: "ok", warn: `version "MindSpore.Event:9"`, warnAt: 0, steps: []int64{1}},
		{name: "empty image", events: []proto.Message{version, good(1),
			msValue(2, &mspb.SummaryValue{Tag: "im", Value: &mspb.SummaryValue_Image{Image: &mspb.Image{Width: 3, Height: 3}}})},
			status: "ok", warn: "image holds no bytes", warnAt: 2, steps: []int64{1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := msFile(t, c.events...)
			offs := recordOffsets(b)
			if c.spoil != nil {
				b = c.spoil(slices.Clone(b))
			}
			run := collectMSFiles(t, map[string][]byte{msSummary: b})
			if c.status != "" && run.Files[0].Status != c.status {
				t.Errorf("status %q, want %q", run.Files[0].Status, c.status)
			}
			if c.warnAt >= 0 {
				found := false
				for _, w := range run.Warnings {
					if w.File == msSummary && w.Offset == offs[c.warnAt] && strings.Contains(w.Msg, c.warn) {
						found = true
					}
				}
				if !found {
					t.Errorf("no warning at offset %d saying %q: %v", offs[c.warnAt], c.warn, run.Warnings)
				}
			}
			var loss *model.Scalar
			for _, s := range run.Scalars {
				if s.Tag == "loss" {
					loss = s
				}
			}
			var steps []int64
			if loss != nil {
				for _, p := range loss.Points {
					steps = append(steps, p.Step)
				}
			}
			if !slices.Equal(steps, c.steps) {
				t.Errorf("loss at steps %v, want %v", steps, c.steps)
			}
		})
	}
}

// TestMindSporeLineageBounds checks that hostile lineage (metrics that are
// not numbers, a JSON bomb of metrics, nested user dictionaries) is
// bounded, and that names are kept as written (rendered inert by the page).
func TestMindSporeLineageBounds(t *testing.T) {
	nested := &mspb.UserDefinedInfo{MapStr: map[string]string{"<b>x</b>": "<script>alert(1)</script>"}}
	for range 10 {
		nested = &mspb.UserDefinedInfo{MapDict: map[string]*mspb.UserDefinedInfo{"d": nested}}
	}
	lineage := msFile(t,
		&mspb.LineageEvent{What: &mspb.LineageEvent_EvaluationLineage{EvaluationLineage: &mspb.EvaluationLineage{
			Metric: `{"acc": 0.5, "name": "x", "list": [1, 2]}`}}},
		&mspb.LineageEvent{What: &mspb.LineageEvent_EvaluationLineage{EvaluationLineage: &mspb.EvaluationLineage{Metric: "not json"}}},
		&mspb.LineageEvent{What: &mspb.LineageEvent_UserDefinedInfo{UserDefinedInfo: &mspb.UserDefinedInfo{
			UserInfo: []*mspb.UserDefinedInfo{{MapStr: map[string]string{"<b>x</b>": "<script>alert(1)</script>"}}, nested}}}},
	)
	run := collectMSFiles(t, map[string][]byte{msLineage: lineage})
	if run.HParams == nil || len(run.HParams.Sessions) != 1 {
		t.Fatalf("hparams %+v", run.HParams)
	}
	s := run.HParams.Sessions[0]
	if s.Start.Metrics["acc"].Number != 0.5 || len(s.Start.Metrics) != 1 {
		t.Errorf("metrics %v, want acc only", s.Start.Metrics)
	}
	if got := s.Start.HParams["user/<b>x</b>"]; got.Str != "<script>alert(1)</script>" {
		t.Errorf("user entry %+v", got)
	}
	for name := range s.Start.HParams {
		if strings.Count(name, "d/") > maxUserLineageDepth {
			t.Errorf("user entry %q nests deeper than %d", name, maxUserLineageDepth)
		}
	}
	var msgs []string
	for _, w := range run.Warnings {
		msgs = append(msgs, w.Msg)
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"metrics list, name are not numbers", "metrics are not a JSON object"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no warning saying %q: %q", want, msgs)
		}
	}
}

// TestMindSporeRankLayout reads MindInsight's multi-device layout,
// summary/rank_<n>/, each rank a run, and an empty file of a rank that
// wrote nothing: listed as empty, with its format.
func TestMindSporeRankLayout(t *testing.T) {
	dir := t.TempDir()
	for rank, b := range map[string][]byte{
		"rank_0": msFile(t, &mspb.Event{What: &mspb.Event_Version{Version: "MindSpore.Event:1"}}, msScalar(1, "loss", 0.5)),
		"rank_1": nil,
	} {
		p := filepath.Join(dir, "summary", rank)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "events.out.events.summary.100."+rank[5:]+".host_MS"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Collect(context.Background(), []model.Logdir{{Name: "ms", Path: dir}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Close()
	if len(rep.Runs) != 2 || rep.Runs[0].Name != "summary/rank_0" || rep.Runs[1].Name != "summary/rank_1" {
		t.Fatalf("runs %v", runNames(rep))
	}
	if r := rep.Runs[0]; len(r.Scalars) != 1 || r.Files[0].Status != "ok" || r.Files[0].Format != model.FormatMindSpore {
		t.Errorf("rank 0: %+v, scalars %v", r.Files, r.Scalars)
	}
	if f := rep.Runs[1].Files[0]; f.Status != "empty" || f.Format != model.FormatMindSpore || len(rep.Runs[1].Warnings) != 0 {
		t.Errorf("rank 1: %+v, warnings %v", f, rep.Runs[1].Warnings)
	}
}

// MindSpore inputs name a node by its id: 100,000 inputs to a node of a
// 10 KB name (a 719 KB file) were a gigabyte of names in the model and
// the graph's data, and out of memory under 4 GB. The graph keeps a
// bounded fan-in and bytes of input names (collect/graph), with a
// warning at the graph's record naming the file; the rest of the graph
// and of the file is read. Here 12,000 inputs to a node of a 1 KB name.
func TestMindSporeGraphFanInIsBounded(t *testing.T) {
	ins := make([]*mspb.Input, 12_000)
	for i := range ins {
		ins[i] = &mspb.Input{Name: "1"}
	}
	g := &mspb.Graph{Node: []*mspb.Node{
		{Name: "1", OpType: "Add", FullName: "Default/" + strings.Repeat("n", 1000)},
		{Name: "2", OpType: "MakeTuple", FullName: "Default/MakeTuple-op2", Input: ins},
		{Name: "3", OpType: "ReLU", FullName: "Default/ReLU-op3", Input: []*mspb.Input{{Name: "2"}}},
	}}
	run := collectMSFiles(t, map[string][]byte{msSummary: msFile(t, &mspb.Event{Step: 1, What: &mspb.Event_Graph{Graph: g}}, msScalar(2, "loss", 0.5))})
	if len(run.Graphs) != 1 || len(run.Graphs[0].Nodes) != 3 || len(run.Scalars) != 1 {
		t.Fatalf("%d graphs, %d scalars", len(run.Graphs), len(run.Scalars))
	}
	nodes := run.Graphs[0].Nodes
	names := 0
	for _, in := range nodes[1].Inputs {
		names += len(in.Name)
	}
	if len(nodes[1].Inputs) > 10_000 || names > 4<<20 || len(nodes[2].Inputs) != 1 {
		t.Errorf("%d inputs kept, %d bytes of their names; the next node's inputs %v", len(nodes[1].Inputs), names, nodes[2].Inputs)
	}
	var msgs []string
	for _, w := range run.Warnings {
		msgs = append(msgs, w.String())
	}
	if len(msgs) != 1 || !strings.Contains(msgs[0], msSummary) || !strings.Contains(msgs[0], "cut: inputs past 10000 a node, or past 4194304 bytes of their names, left out (1 node)") {
		t.Errorf("warnings %q", msgs)
	}
}
