package collect

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// TS-VIS's own kinds, as its writer writes them (testdata/tsvis, written by
// generate.py with the tsvis package's event writer and protos): feature
// maps, scores and labels (plugin featuremap), hidden states and their
// words (hiddenstate), attention values (transformer, Value field 10) and
// attention maps with their images (transformer) read with the values,
// dtypes and shapes the generator wrote; numpy text reads as text, an
// attention item's tokens too.
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
		Left   []string  `json:"left"`
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
		got, err := e.Load(Decoders())
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
	// Feature maps are images: per batch an image step of its images,
	// each referring to its pixel values in the log.
	for _, im := range run.Images {
		seen[im.Tag] = true
		w, ok := want[im.Tag]
		if !ok || len(w.Shape) != 4 || len(im.Entries) != 1 {
			t.Errorf("image %q: %d entries, not written as a batch of images", im.Tag, len(im.Entries))
			continue
		}
		items := im.Entries[0].Images
		n, h, wd, c := int(w.Shape[0]), int(w.Shape[1]), int(w.Shape[2]), int(w.Shape[3])
		if len(items) != n {
			t.Errorf("image %q: %d images, want %d", im.Tag, len(items), n)
			continue
		}
		for k, it := range items {
			if it.Width != wd || it.Height != h || it.Format != "png" || it.Pixels == nil || *it.Pixels != (model.Pixels{DType: w.DType, Channels: c}) {
				t.Errorf("image %q %d: %dx%d %q %+v", im.Tag, k, it.Width, it.Height, it.Format, it.Pixels)
				continue
			}
			b, err := it.Data.Read()
			if err != nil || len(b) != h*wd*c*8 {
				t.Errorf("image %q %d: %d bytes, %v", im.Tag, k, len(b), err)
				continue
			}
			for i := range h * wd * c {
				if v := math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:])); v != w.Values[k*h*wd*c+i] {
					t.Errorf("image %q %d: value %d is %v, want %v", im.Tag, k, i, v, w.Values[k*h*wd*c+i])
					break
				}
			}
		}
	}
	for _, tx := range run.Texts {
		seen[tx.Tag] = true
		w, ok := want[tx.Tag]
		if item, isTokens := strings.CutSuffix(tx.Tag, "/tokens"); isTokens {
			w, ok = want[item] // an attention item's tokens
			w.Text = w.Left
		}
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
		if ti.Kind == model.KindOther {
			t.Errorf("tag %q read as kind other", ti.Tag)
		}
	}
}
