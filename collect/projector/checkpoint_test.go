package projector

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// checkpointTestdata is where package checkpoint keeps the checkpoints
// TensorFlow wrote for its tests, and what TensorFlow read back from them.
const checkpointTestdata = "../checkpoint/testdata"

// tfValues returns the values TensorFlow read back of key in the
// checkpoint prefix of checkpointTestdata.
func tfValues(t *testing.T, prefix, key string) ([]int64, []float64) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(checkpointTestdata, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string][]struct {
		Key    string
		Shape  []int64
		Values []float64
	}
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	for _, e := range exp[prefix] {
		if e.Key == key {
			return e.Shape, e.Values
		}
	}
	t.Fatalf("TensorFlow read no %q in %s", key, prefix)
	return nil, nil
}

// copyTestdata copies the files of dir below checkpointTestdata into the
// log directory, below to.
func (l *logdir) copyTestdata(dir, to string) {
	l.t.Helper()
	src := filepath.Join(checkpointTestdata, dir)
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		l.write(filepath.ToSlash(filepath.Join(to, rel)), b)
		return nil
	})
	if err != nil {
		l.t.Fatal(err)
	}
}

// wantPoints checks that e's points load as the float32 values of want.
func wantPoints(t *testing.T, e *Embedding, shape []int64, want []float64) {
	t.Helper()
	if e.Points == nil {
		t.Fatalf("embedding %q has no points", e.Name)
	}
	if !slices.Equal(e.Shape, shape) {
		t.Errorf("embedding %q: shape %v, want %v", e.Name, e.Shape, shape)
	}
	got, err := e.Load(Decoders())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("embedding %q: %d values, want %d", e.Name, len(got), len(want))
	}
	for i := range got {
		if w := float32(want[i]); math.Float32bits(got[i]) != math.Float32bits(w) {
			t.Errorf("embedding %q [%d] = %v, TensorFlow read %v", e.Name, i, got[i], w)
		}
	}
}

func TestConfigReadsKerasEmbeddingsFromTheirCheckpoint(t *testing.T) {
	l := newLogdir(t)
	l.copyTestdata("keras", "")
	b, err := os.ReadFile(filepath.Join(l.dir, "projector_config.pbtxt"))
	if err != nil {
		t.Fatal(err)
	}
	res := ReadConfig(l.root, "projector_config.pbtxt")
	if len(res.Problems) > 0 || len(res.Embeddings) != 1 {
		t.Fatalf("%d embeddings of %s; problems:\n%s", len(res.Embeddings), b, messages(res))
	}
	e := res.Embeddings[0]
	const key = "layer_with_weights-0/embeddings/.ATTRIBUTES/VARIABLE_VALUE"
	if e.Name != key || e.Checkpoint != "train/keras_embedding.ckpt-0" {
		t.Errorf("name %q checkpoint %q", e.Name, e.Checkpoint)
	}
	shape, want := tfValues(t, "keras/train/keras_embedding.ckpt-0", key)
	wantPoints(t, e, shape, want)
	if e.Points.Path != "train/keras_embedding.ckpt-0.data-00000-of-00001" || e.Points.DType != "float32" {
		t.Errorf("points %+v", *e.Points)
	}
}

func TestConfigReadsCheckpointTensorsOfEveryFloatType(t *testing.T) {
	l := newLogdir(t)
	l.copyTestdata("dtypes", "run/ckpts")
	res := l.config("run/projector_config.pbtxt", `model_checkpoint_path: "ckpts/ckpt"
embeddings { tensor_name: "emb32/.ATTRIBUTES/VARIABLE_VALUE" }
embeddings { tensor_name: "emb64/.ATTRIBUTES/VARIABLE_VALUE:0" tensor_shape: [3, 2] }
embeddings { tensor_name: "emb16/.ATTRIBUTES/VARIABLE_VALUE" tensor_shape: [2, 3] }
embeddings { tensor_name: "embbf/.ATTRIBUTES/VARIABLE_VALUE" }
embeddings { tensor_name: "steps/.ATTRIBUTES/VARIABLE_VALUE" }
embeddings { tensor_name: "name/.ATTRIBUTES/VARIABLE_VALUE" }
embeddings { tensor_name: "missing" }`)
	if len(res.Embeddings) != 7 {
		t.Fatalf("%d embeddings", len(res.Embeddings))
	}
	for _, e := range res.Embeddings[:4] {
		key := strings.TrimSuffix(e.Name, ":0")
		shape, want := tfValues(t, "dtypes/ckpt", key)
		wantPoints(t, e, shape, want)
		if e.Checkpoint != "run/ckpts/ckpt" {
			t.Errorf("%s: checkpoint %q", e.Name, e.Checkpoint)
		}
	}
	// tensor_shape is what the config says; the checkpoint's shape wins.
	wantProblem(t, res, `embedding "emb16/.ATTRIBUTES/VARIABLE_VALUE": tensor_shape [2 3], but checkpoint "run/ckpts/ckpt" holds [3 2]`)
	for _, e := range res.Embeddings[4:] {
		if e.Points != nil {
			t.Errorf("%s: points %+v", e.Name, *e.Points)
		}
	}
	wantProblem(t, res, `tensor "steps/.ATTRIBUTES/VARIABLE_VALUE" of checkpoint "run/ckpts/ckpt" has shape [3], not [points, dims]`)
	wantProblem(t, res, `tensor "name/.ATTRIBUTES/VARIABLE_VALUE" holds string values, which are not read`)
	wantProblem(t, res, `no tensor "missing" in checkpoint run/ckpts/ckpt`)
}

func TestConfigRefusesACheckpointTensorWhoseBytesAreDamaged(t *testing.T) {
	l := newLogdir(t)
	l.copyTestdata("keras", "")
	data := filepath.Join(l.dir, "train", "keras_embedding.ckpt-0.data-00000-of-00001")
	b, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	for i := range b {
		b[i] ^= 0x10
	}
	if err := os.WriteFile(data, b, 0o644); err != nil {
		t.Fatal(err)
	}
	res := ReadConfig(l.root, "projector_config.pbtxt")
	if e := res.Embeddings[0]; e.Points != nil {
		t.Errorf("damaged points kept: %+v", *e.Points)
	}
	wantProblem(t, res, "has no points")
	wantProblem(t, res, "damaged")
}

// TF1's Saver writes absolute paths into the checkpoint state file; logs
// read on another machine find the checkpoint beside the state file.
func TestConfigFindsAMovedCheckpointBesideItsStateFile(t *testing.T) {
	for _, abs := range []string{"/home/someone/logs/train/ckpt", `C:\Users\someone\logs\train\ckpt`} {
		l := newLogdir(t)
		l.copyTestdata("dtypes", "run")
		l.write("run/checkpoint", []byte("model_checkpoint_path: "+strconv.Quote(abs)+"\n"))
		res := l.config("run/projector_config.pbtxt", `embeddings { tensor_name: "emb32/.ATTRIBUTES/VARIABLE_VALUE" }`)
		e := res.Embeddings[0]
		if e.Checkpoint != "run/ckpt" || len(res.Problems) > 0 {
			t.Errorf("%s: checkpoint %q; problems:\n%s", abs, e.Checkpoint, messages(res))
		}
		shape, want := tfValues(t, "dtypes/ckpt", "emb32/.ATTRIBUTES/VARIABLE_VALUE")
		wantPoints(t, e, shape, want)
	}
	// Not when it is not there: the path is named as written.
	l := newLogdir(t)
	l.write("checkpoint", []byte(`model_checkpoint_path: "/elsewhere/model.ckpt-1"`))
	res := l.config("projector_config.pbtxt", `embeddings { tensor_name: "x" }`)
	if got := res.Embeddings[0].Checkpoint; got != "/elsewhere/model.ckpt-1" {
		t.Errorf("checkpoint %q", got)
	}
	wantProblem(t, res, "leaves the log directory")
}
