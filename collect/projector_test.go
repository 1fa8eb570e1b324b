package collect

import (
	"encoding/binary"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"google.golang.org/protobuf/proto"

	pb "github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/projector"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

func warningsOf(r *model.Run) string {
	var s []string
	for _, w := range r.Warnings {
		s = append(s, w.String())
	}
	return strings.Join(s, "\n")
}

// The PyTorch/tensorboardX layout: projector_config.pbtxt at the run's root
// naming 00000/default/{tensors.tsv,metadata.tsv,sprite.png}, in a run
// directory without an event file of its own.
func TestProjectorCorpusTensorboardX(t *testing.T) {
	rep := collectDir(t, filepath.Join(sharedCorpus(t), "tbx12-2018-no-file-version"), Options{})
	run := findRun(rep, "runs/May18_10-24-39_NIGSA774680")
	if run == nil {
		t.Fatal("the run holding only projector_config.pbtxt is missing")
	}
	if len(run.Files) != 0 || len(run.Warnings) != 0 {
		t.Errorf("files %v, warnings:\n%s", run.Files, warningsOf(run))
	}
	if want := []model.File{{Rel: "runs/May18_10-24-39_NIGSA774680/projector_config.pbtxt", Size: 231, Records: 1, Status: "ok"}}; !slices.Equal(run.SideFiles, want) {
		t.Errorf("side files = %+v, want %+v", run.SideFiles, want)
	}
	if len(run.Embeddings) != 1 {
		t.Fatalf("%d embeddings", len(run.Embeddings))
	}
	e := run.Embeddings[0]
	if e.Name != "default:00000" || e.Step != 0 || e.Source != projector.SourceConfig || !slices.Equal(e.Shape, []int64{100, 784}) {
		t.Errorf("embedding %q step %d source %s shape %v", e.Name, e.Step, e.Source, e.Shape)
	}
	vals, err := e.Load(Decoders())
	if err != nil || len(vals) != 100*784 {
		t.Fatalf("Load: %d values, %v", len(vals), err)
	}
	for _, v := range vals {
		if v < 0 || v > 255 || v != float32(int(v)) {
			t.Fatalf("pixel value %v is not a byte", v)
		}
	}
	md := e.Metadata
	if md == nil || !slices.Equal(md.Columns, []string{"label"}) || len(md.Rows) != 100 || md.Rows[0][0] != "tensor(7)" {
		t.Errorf("metadata = %+v", md)
	}
	s := e.Sprite
	if s == nil || s.Format != "png" || s.Width != 280 || s.Height != 280 || s.SingleImageDim != [2]int{28, 28} ||
		s.File != "runs/May18_10-24-39_NIGSA774680/00000/default/sprite.png" {
		t.Errorf("sprite = %+v", s)
	}
}

// TensorFlow 2 with the tensors in a checkpoint: three embeddings sharing
// word.tsv, their points read from the checkpoint's data file (the values
// TensorFlow's reader returns), and a warning each that word.tsv holds more
// rows than they have points.
func TestProjectorCorpusCheckpoint(t *testing.T) {
	rep := collectDir(t, filepath.Join(sharedCorpus(t), "tf2-projector-ckpt"), Options{})
	run := findRun(rep, "logs")
	if run == nil {
		t.Fatal("no run logs")
	}
	var names []string
	for i, e := range run.Embeddings {
		names = append(names, e.Name)
		if p := e.Points; p == nil || e.Checkpoint != "logs/embed.ckpt-4" || !slices.Equal(e.Shape, []int64{10000, 16}) ||
			p.Path != "logs/embed.ckpt-4.data-00000-of-00001" || p.Offset != int64(i)*640000 || p.Length != 640000 || p.DType != "float32" {
			t.Errorf("%s: points %+v, shape %v, checkpoint %q", e.Name, e.Points, e.Shape, e.Checkpoint)
		}
		if e.Metadata == nil || len(e.Metadata.Rows) != 88588 || e.Metadata.Rows[0][0] != "<PAD>" || e.Metadata.File != "logs/word.tsv" {
			t.Fatalf("%s: metadata not read", e.Name)
		}
		if e.Metadata != run.Embeddings[0].Metadata {
			t.Errorf("%s: word.tsv read again instead of shared", e.Name)
		}
	}
	if !slices.Equal(names, []string{"embed0:0", "embed1:0", "embed2:0"}) {
		t.Fatalf("embeddings %q", names)
	}
	// What TensorFlow 2.21's tf.train.load_checkpoint read of embed1.
	v, err := run.Embeddings[1].Load(Decoders())
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, x := range v {
		sum += float64(x)
	}
	if !slices.Equal(v[:4], []float32{-0.01821226254105568, 0.059651438146829605, 0.10651610046625137, 0.08426158875226974}) ||
		v[len(v)-1] != -0.013804996386170387 || sum != 459.9028813802727 {
		t.Errorf("embed1 = %v ... %v, sum %v", v[:4], v[len(v)-1], sum)
	}
	if len(run.Warnings) != 3 {
		t.Errorf("warnings:\n%s", warningsOf(run))
	}
	for _, w := range run.Warnings {
		if !strings.Contains(w.Msg, corpusMetadataMismatch) {
			t.Errorf("warning %s", w)
		}
	}
	if len(run.Scalars) == 0 {
		t.Errorf("the run's event file was not read")
	}
}

func f32(vals ...float32) []byte {
	b := make([]byte, 4*len(vals))
	for i, v := range vals {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

func numpyTensor(dt string, shape []int64, content []byte) *pb.NumpyTensor {
	t := &pb.NumpyTensor{Dtype: dt, Shape: &pb.NumpyShape{}, Content: content}
	for _, d := range shape {
		t.Shape.Dim = append(t.Shape.Dim, &pb.NumpyShape_Dim{Size: d})
	}
	return t
}

func mustMarshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Side files make runs of their own, join the runs of event files, and are
// read into embeddings and exception series.
func TestProjectorSideFiles(t *testing.T) {
	dir := t.TempDir()
	grad := func(step int64, v float32) []byte {
		return mustMarshal(t, &pb.OneFlowSummaryProjector{
			Metadata:  &pb.OneFlowMetaData{Type: pb.OneFlowMetaData_EXCEPTION},
			Projector: []*pb.OneFlowProjector{{Tag: "fc/grad", Step: step, WallTime: float64(step), Value: numpyTensor("float32", []int64{2}, f32(v, v))}}})
	}
	emb := mustMarshal(t, &pb.OneFlowSummaryProjector{Projector: []*pb.OneFlowProjector{{
		Tag: "feat", Step: 9, Value: numpyTensor("float32", []int64{2, 2}, f32(1, 2, 3, 4)), Label: numpyTensor("int64", []int64{2}, make([]byte, 16))}}})
	var tsvis []byte
	tsvis = tfrecord.AppendRecord(tsvis, mustMarshal(t, &pb.TsvisEvent{WallTime: 5, Step: 2, Summary: &pb.TsvisSummary{Value: []*pb.TsvisValue{{
		Tag: "z", Metadata: &pb.SummaryMetadata{PluginData: &pb.PluginData{PluginName: "embeddings"}},
		Projector: &pb.TsvisProjector{Content: &pb.TsvisProjector_Embedding{Embedding: &pb.TsvisEmbedding{
			Value: numpyTensor("float32", []int64{1, 2}, f32(7, 8))}}}}}}}))
	writeFiles(t, dir, []file{
		// PyTorch: a config at the root, no event file there.
		{"projector_config.pbtxt", []byte(`embeddings { tensor_name: "t:00002" tensor_path: "00002/t/tensors.tsv" metadata_path: "00002/t/metadata.tsv" }`)},
		{"00002/t/tensors.tsv", []byte("1\t2\n3\t4\n")},
		{"00002/t/metadata.tsv", []byte("a\nb\n")},
		// OneFlow: events in of/event/, projector files in of/projector/.
		{"of/event/event.100.log", eventFile(t, losses(1)...)},
		{"of/projector/projector.100.log", emb},
		{"of/projector/projector.gradit.100.log", grad(5, 1)},
		{"of/projector/projector.gradit.200.log", grad(3, 2)}, // a restart from step 3
		{"of/projector/projector.gradit.300.log", grad(4, 3)},
		// TS-VIS: a projector event file beside the main one.
		{"ts/events.out.201130-120000.h", eventFile(t, losses(1)...)},
		{"ts/projector.events.out.201130-120000.h", tsvis},
		// A config in the plugin assets directory that tries to escape.
		{"esc/plugins/org_tensorflow_tensorboard_projector/projector_config.pbtxt", []byte(`embeddings { tensor_name: "x" tensor_path: "../../../../secret.tsv" }`)},
	})
	writeFiles(t, filepath.Dir(dir), []file{{"secret.tsv", []byte("1\t2\n")}})
	rep := collectDir(t, dir, Options{})
	var names []string
	for _, r := range rep.Runs {
		names = append(names, r.Name)
	}
	if want := []string{".", "esc", "of", "ts"}; !slices.Equal(names, want) {
		t.Fatalf("runs %q, want %q", names, want)
	}

	root := findRun(rep, ".")
	if len(root.Embeddings) != 1 || root.Embeddings[0].Step != 2 || root.Embeddings[0].NumPoints() != 2 || len(root.Warnings) != 0 {
		t.Errorf("root run: %+v\n%s", root.Embeddings, warningsOf(root))
	}

	of := findRun(rep, "of")
	if len(of.Scalars) != 1 || len(of.Embeddings) != 1 || of.Embeddings[0].Name != "feat" || of.Embeddings[0].Step != 9 {
		t.Errorf("of: %d scalars, embeddings %+v", len(of.Scalars), of.Embeddings)
	}
	if len(of.Exceptions) != 1 {
		t.Fatalf("of: %d exception series", len(of.Exceptions))
	}
	ex := of.Exceptions[0]
	var steps []int64
	for _, e := range ex.Entries {
		steps = append(steps, e.Step)
	}
	if ex.Tag != "fc/grad" || ex.Source != projector.SourceOneFlow || !slices.Equal(steps, []int64{3, 4}) || ex.Dropped != 1 {
		t.Errorf("exceptions %s from %s: steps %v, dropped %d", ex.Tag, ex.Source, steps, ex.Dropped)
	}
	if vals, err := ex.Entries[1].Load(Decoders()); err != nil || !slices.Equal(vals, []float64{3, 3}) {
		t.Errorf("Load = %v, %v", vals, err)
	}
	var side []string
	for _, f := range of.SideFiles {
		side = append(side, f.Rel+" "+f.Status)
	}
	if want := []string{"of/projector/projector.100.log ok", "of/projector/projector.gradit.100.log ok",
		"of/projector/projector.gradit.200.log ok", "of/projector/projector.gradit.300.log ok"}; !slices.Equal(side, want) {
		t.Errorf("side files %q", side)
	}

	ts := findRun(rep, "ts")
	if len(ts.Embeddings) != 1 || ts.Embeddings[0].Source != projector.SourceTSVIS || ts.Embeddings[0].Step != 2 {
		t.Errorf("ts embeddings: %+v", ts.Embeddings)
	} else if vals, err := ts.Embeddings[0].Load(Decoders()); err != nil || !slices.Equal(vals, []float32{7, 8}) {
		t.Errorf("ts Load = %v, %v", vals, err)
	}
	if len(ts.SideFiles) != 0 || len(ts.Files) != 2 {
		t.Errorf("ts: side files %v, files %v (the projector event file stays an event file)", ts.SideFiles, ts.Files)
	}

	esc := findRun(rep, "esc")
	if len(esc.Embeddings) != 1 || esc.Embeddings[0].Points != nil || !strings.Contains(warningsOf(esc), "leaves the log directory") {
		t.Errorf("escape not refused: %+v\n%s", esc.Embeddings, warningsOf(esc))
	}
}

// The projector files the real writers wrote (testdata/writers): PyTorch
// and tensorboardX put projector_config.pbtxt at the log directory's root
// with 00000/points/; TensorFlow 2 a config naming a TSV and a checkpoint
// tensor, whose points are read from the checkpoint.
func TestProjectorWriterFixtures(t *testing.T) {
	for _, writer := range []string{"torch", "tensorboardx", "tf2"} {
		t.Run(writer, func(t *testing.T) {
			rep := collectDir(t, filepath.Join("testdata", "writers", writer), Options{})
			var embs []*model.Embedding
			var warnings []string
			for _, r := range rep.Runs {
				embs = append(embs, r.Embeddings...)
				for _, w := range r.Warnings {
					warnings = append(warnings, w.String())
				}
			}
			wantName := "points:00000"
			if writer == "tf2" {
				wantName = "embedding/.ATTRIBUTES/VARIABLE_VALUE" // sorted before "points"
				if len(embs) != 2 || embs[0].Name != wantName || embs[0].Checkpoint != "projector/embedding.ckpt-1" || embs[0].Points == nil ||
					!slices.Equal(embs[0].Shape, []int64{20, 5}) || embs[0].Points.Path != "projector/embedding.ckpt-1.data-00000-of-00001" {
					t.Fatalf("embeddings %+v", embs)
				}
				if len(warnings) != 0 {
					t.Errorf("warnings %q", warnings)
				}
				embs = embs[1:]
				wantName = "points"
			} else if len(warnings) > 0 {
				t.Errorf("warnings %q", warnings)
			}
			if len(embs) != 1 {
				t.Fatalf("%d embeddings", len(embs))
			}
			e := embs[0]
			if e.Name != wantName || !slices.Equal(e.Shape, []int64{20, 5}) || e.Step != 0 {
				t.Errorf("embedding %q shape %v step %d", e.Name, e.Shape, e.Step)
			}
			if vals, err := e.Load(Decoders()); err != nil || len(vals) != 100 {
				t.Errorf("Load: %d values, %v", len(vals), err)
			}
			md := e.Metadata
			if md == nil || !slices.Equal(md.Columns, []string{"name", "cluster"}) || len(md.Rows) != 20 || !slices.Equal(md.Rows[1], []string{"p01", "cluster1"}) {
				t.Errorf("metadata %+v", md)
			}
			if s := e.Sprite; s == nil || s.Width != 40 || s.Height != 40 || s.SingleImageDim != [2]int{8, 8} {
				t.Errorf("sprite %+v", s)
			}
		})
	}
}
