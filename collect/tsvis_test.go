package collect

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
)

// TS-VIS's own kinds, as its writer writes them (testdata/tsvis, written by
// generate.py with the tsvis package's event writer and protos): feature
// maps, scores and labels (plugin featuremap), hidden states and their
// words (hiddenstate), attention values (transformer, Value field 10) and
// attention maps with their images (transformer) read with the values,
// dtypes and shapes the generator wrote; numpy text reads as text.
func TestTSVisKinds(t *testing.T) {
	raw, err := os.ReadFile("testdata/tsvis/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]struct {
		DType  string    `json:"dtype"`
		Shape  []int64   `json:"shape"`
		Values []float64 `json:"values"`
		Text   []string  `json:"text"`
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	rep := collectDir(t, "testdata/tsvis", Options{})
	defer rep.Close()
	run := findRun(rep, "run")
	if run == nil {
		t.Fatalf("no run %q in %v", "run", rep.Runs)
	}
	seen := map[string]bool{}
	for _, ts := range run.Tensors {
		seen[ts.Tag] = true
		w, ok := want[ts.Tag]
		if !ok || w.Text != nil {
			t.Errorf("tensor %q: not written as one", ts.Tag)
			continue
		}
		if len(ts.Entries) != 1 {
			t.Errorf("tensor %q: %d entries, want 1", ts.Tag, len(ts.Entries))
			continue
		}
		e := ts.Entries[0]
		if e.DType != w.DType || !slices.Equal(e.Shape, w.Shape) {
			t.Errorf("tensor %q: %s %v, want %s %v", ts.Tag, e.DType, e.Shape, w.DType, w.Shape)
		}
		got, err := e.Load()
		if err != nil {
			t.Errorf("tensor %q: %v", ts.Tag, err)
			continue
		}
		if len(got) != len(w.Values) {
			t.Errorf("tensor %q: %d values, want %d", ts.Tag, len(got), len(w.Values))
			continue
		}
		for i := range got {
			if got[i] != w.Values[i] && !(w.DType == "float32" && float32(got[i]) == float32(w.Values[i])) {
				t.Errorf("tensor %q: value %d is %v, want %v", ts.Tag, i, got[i], w.Values[i])
				break
			}
		}
	}
	for _, tx := range run.Texts {
		seen[tx.Tag] = true
		w, ok := want[tx.Tag]
		if !ok || w.Text == nil || len(tx.Entries) != 1 || !slices.Equal(tx.Entries[0].Values, w.Text) {
			t.Errorf("text %q: %+v, want %q", tx.Tag, tx.Entries, w.Text)
		}
	}
	for tag := range want {
		if !seen[tag] {
			t.Errorf("%q was written but not read", tag)
		}
	}
	for _, ti := range run.Tags {
		if ti.Kind == KindOther {
			t.Errorf("tag %q read as kind other", ti.Tag)
		}
	}
}
