package collect

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// A collected report carries the readers' decoders; the same model
// written and read back carries none until its reader sets them: nothing
// is registered behind the callers' backs.
func TestDecodersTravelWithTheReportNotTheProcess(t *testing.T) {
	dir := filepath.Join("testdata", "writers", "tf2")
	rep, err := Collect(context.Background(), []model.Logdir{{Name: "tf2", Path: dir}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Close()
	var entry *model.TensorEntry
	for _, run := range rep.Runs {
		for _, ts := range run.Tensors {
			if len(ts.Entries) > 0 && entry == nil {
				entry = &ts.Entries[0]
			}
		}
	}
	if entry == nil {
		t.Fatal("the fixture holds no numeric tensor")
	}
	if _, err := entry.Load(rep.Decoders()); err != nil {
		t.Fatalf("a collected tensor does not load with the report's decoders: %v", err)
	}

	var buf bytes.Buffer
	if err := model.Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	src := rep.Sources()[0]
	back, err := model.Read(&buf, func(string) (model.Source, error) { return src, nil })
	if err != nil {
		t.Fatal(err)
	}
	var again model.TensorEntry
	for _, run := range back.Runs {
		for _, ts := range run.Tensors {
			if len(ts.Entries) > 0 && again.Data.Path == "" {
				again = ts.Entries[0]
			}
		}
	}
	if _, err := again.Load(back.Decoders()); err == nil || !strings.Contains(err.Error(), "no decoder") {
		t.Errorf("a model read from disk loads a tensor before its decoders are set (err %v)", err)
	}
	back.SetDecoders(Decoders())
	if _, err := again.Load(back.Decoders()); err != nil {
		t.Errorf("with collect.Decoders set: %v", err)
	}
}
