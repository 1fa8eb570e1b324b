package analysis

import (
	"context"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/anomaly"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// tensorFixtures collects the writers' fixtures with numeric tensors of
// TensorFlow and MindSpore, and OneFlow's exceptions.
func tensorFixtures(t *testing.T) *model.Report {
	t.Helper()
	td := filepath.Join("..", "..", "collect", "testdata")
	rep, err := collect.Collect(context.Background(), []model.Logdir{
		{Name: "tf2", Path: filepath.Join(td, "writers", "tf2")},
		{Name: "ms", Path: filepath.Join(td, "mindspore", "records")},
		{Name: "exc", Path: filepath.Join(td, "oneflow-exceptions", "logs")},
	}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rep.Close() })
	return rep
}

// Build decodes each tensor and exception entry once, for both pages and
// the anomaly rules, and each mesh entry once, through the decoders the
// report carries.
func TestBuildDecodesEachTensorOnce(t *testing.T) {
	rep := tensorFixtures(t)
	var mu sync.Mutex
	loads := map[string]int{}
	count := func(ref model.BlobRef) {
		mu.Lock()
		defer mu.Unlock()
		loads[fmt.Sprintf("%s:%s@%d", ref.Logdir, ref.Path, ref.Offset)]++
	}
	dec := rep.Decoders()
	rep.SetDecoders(model.Decoders{
		Tensor:          func(e model.TensorEntry) ([]float64, error) { count(e.Data); return dec.Tensor(e) },
		MindSporeTensor: func(e model.TensorEntry) ([]float64, error) { count(e.Data); return dec.MindSporeTensor(e) },
		TensorFile:      func(r model.TensorRef) ([]float64, error) { count(r.BlobRef); return dec.TensorFile(r) },
	})
	an, err := Build(context.Background(), rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	entries := 0
	for _, run := range rep.Runs {
		for _, ts := range run.Tensors {
			entries += len(ts.Entries)
		}
		for _, x := range run.Exceptions {
			entries += len(x.Entries)
		}
		for _, m := range run.Meshes { // the Meshes page's, each once too
			entries += len(m.Entries)
		}
	}
	if entries == 0 || len(an.Tensors.Series) == 0 || len(an.Exceptions.Series) == 0 || len(an.Exceptions.Tensors) == 0 {
		t.Fatalf("fixtures hold %d entries, %d tensor series, %d exception series, %d tensors drawn as exceptions: want some of each",
			entries, len(an.Tensors.Series), len(an.Exceptions.Series), len(an.Exceptions.Tensors))
	}
	if len(loads) != entries {
		t.Errorf("%d payloads decoded, want the %d entries", len(loads), entries)
	}
	for ref, n := range loads {
		if n != 1 {
			t.Errorf("%s decoded %d times, want once", ref, n)
		}
	}
	for tensor, s := range an.Tensors.Series {
		if s.F32 && len(s.Values) > 0 {
			t.Errorf("tensor %q is single precision and keeps %d steps' values as float64, want float32", tensor.Tag, len(s.Values))
		}
		for _, i := range s.DataValues {
			if v := s.ValuesOf(i); len(v) != s.Stats[i].Count {
				t.Errorf("tensor %q step %d: %d values kept for the data file, want its %d", tensor.Tag, i, len(v), s.Stats[i].Count)
			}
		}
	}
}

// The anomaly rules find the same with the statistics Build decoded as
// when they decode the tensors themselves.
func TestAnomaliesFromDecodedTensorsAreTheSame(t *testing.T) {
	rep := tensorFixtures(t)
	_, _, decoded, err := tensorsAndExceptions(context.Background(), rep)
	if err != nil {
		t.Fatal(err)
	}
	own := anomaly.Find(context.Background(), rep, anomaly.DefaultThresholds)
	shared := anomaly.FindDecoded(context.Background(), rep, anomaly.DefaultThresholds, decoded)
	onTensors := 0
	for _, a := range own {
		if a.Kind == result.KindTensor || a.Kind == result.KindException {
			onTensors++
		}
	}
	if onTensors == 0 {
		t.Fatalf("no anomaly on a tensor or exception series in the fixtures: the test proves nothing")
	}
	if !reflect.DeepEqual(fmt.Sprint(own), fmt.Sprint(shared)) {
		t.Errorf("anomalies from decoded statistics:\n%v\nwant, as the rules decode them:\n%v", shared, own)
	}
}

// A report without decoders loads no tensor: every step is unreadable and
// says why, and nothing panics.
func TestTensorsWithoutDecodersAreUnreadable(t *testing.T) {
	rep := tensorFixtures(t)
	rep.SetDecoders(model.Decoders{})
	an, err := Build(context.Background(), rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for tensor, s := range an.Tensors.Series {
		if len(s.Errs) != len(tensor.Entries) || len(s.Charted) != 0 {
			t.Errorf("tensor %q: %d of %d steps unreadable, %d charted", tensor.Tag, len(s.Errs), len(tensor.Entries), len(s.Charted))
		}
	}
}
