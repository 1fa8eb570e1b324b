package render

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/logfs"
)

// tensorFile writes serialized float32 TensorProtos into one file and
// returns an entry per tensor referring to it, as collect does.
func tensorFile(t *testing.T, shape []int64, steps [][]float32) []model.TensorEntry {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "tensors")
	src := openLogdir(t, dir)
	var buf []byte
	var es []model.TensorEntry
	ts := &eventpb.TensorShapeProto{}
	for _, d := range shape {
		ts.Dim = append(ts.Dim, &eventpb.TensorShapeProto_Dim{Size: d})
	}
	for i, vals := range steps {
		var c []byte
		for _, v := range vals {
			c = binary.LittleEndian.AppendUint32(c, math.Float32bits(v))
		}
		b, err := proto.Marshal(&eventpb.TensorProto{Dtype: eventpb.DataType_DT_FLOAT, TensorShape: ts, TensorContent: c})
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, model.TensorEntry{WallTime: 100 + float64(i), Step: int64(10 * i), DType: "float32", Shape: shape,
			Data: model.NewBlobRef(src, "", "tensors", int64(len(buf)), int64(len(b)))})
		buf = append(buf, b...)
	}
	if err := os.WriteFile(p, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	return es
}

func TestTensorsPageAndData(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	es := tensorFile(t, []int64{2, 2}, [][]float32{{0, 1, 2, 3}, {nan, inf, 0.1, -2}, {nan, nan, nan, nan}})
	// A step whose bytes cannot be read.
	es = append(es, model.TensorEntry{WallTime: 200, Step: 40, DType: "float32", Shape: []int64{2, 2},
		Data: model.NewBlobRef(openLogdir(t, t.TempDir()), "", "missing", 0, 4)})
	run := &model.Run{Name: "<script>alert('run')</script>", Tensors: []*model.Tensor{{Tag: `<img src=x onerror=alert(1)>`, Entries: es}}}
	r := newReport(&model.Report{Runs: []*model.Run{run}}, Options{})
	files := filesByName(t, r)

	page := string(files["tensors.html"])
	main := page[strings.Index(page, `<main class="page" data-page="tensors">`):strings.Index(page, "</main>")]
	inert(t, "tensors page", main)
	for _, want := range []string{"3 of 4 steps", "1 unreadable", "values of 3 of 3 steps (0, 10, 20)", "(2, 2)", "float32"} {
		if !strings.Contains(main, want) {
			t.Errorf("the card does not say %q", want)
		}
	}

	var name string
	for n := range files {
		if strings.HasPrefix(n, "data/tensors/") {
			name = n
		}
	}
	var data map[string][]map[string]any
	if err := json.Unmarshal(files[name], &data); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got := data[`<img src=x onerror=alert(1)>`]
	if len(got) != 4 {
		t.Fatalf("data file holds %d steps, want 4", len(got))
	}
	s1 := got[1]
	if s1["nan"] != 1.0 || s1["pos_inf"] != 1.0 || s1["finite"] != 2.0 || s1["min"] != -2.0 || s1["max"] != 0.1 || s1["mean"] != (float64(float32(0.1))-2)/2 {
		t.Errorf("step 10 statistics %v", s1)
	}
	if vals, _ := s1["values"].([]any); len(vals) != 4 || vals[0] != "NaN" || vals[1] != "Infinity" || vals[2] != 0.1 {
		t.Errorf("step 10 values %v, want NaN, Infinity, 0.1 (float32's shortest form), -2", s1["values"])
	}
	if got[2]["min"] != nil || got[2]["mean"] != nil || got[2]["nan"] != 4.0 {
		t.Errorf("all-NaN step: %v, want null min and mean", got[2])
	}
	if e, _ := got[3]["error"].(string); e == "" {
		t.Errorf("unreadable step: %v, want an error", got[3])
	}
	var idx struct {
		Categories map[string]map[string]map[string]string `json:"categories"`
	}
	if err := json.Unmarshal(files["data/index.json"], &idx); err != nil {
		t.Fatal(err)
	}
	if p := idx.Categories["tensor"][run.Name][run.Tensors[0].Tag]; "data/"+p != name {
		t.Errorf("index.json points at %q, want %q", p, name)
	}
}

// TestTensorsValueBudget checks that the page inlines the values of only
// as many steps as the budget holds, evenly spread with the last kept.
func TestTensorsValueBudget(t *testing.T) {
	budget := newReport(&model.Report{}, Options{}).an.Tensors.PageValues
	big := make([]float32, budget/3+1) // two steps fit, not three
	var steps [][]float32
	for range 7 {
		steps = append(steps, big)
	}
	run := &model.Run{Name: "r", Tensors: []*model.Tensor{{Tag: "t", Entries: tensorFile(t, []int64{int64(len(big))}, steps)}}}
	r := newReport(&model.Report{Runs: []*model.Run{run}}, Options{})
	p, err := r.tensorsPage(false)
	if err != nil {
		t.Fatal(err)
	}
	c := p.Tags[0].Cards[0]
	if c.Values != "values of 2 of 7 steps (0, 60)" {
		t.Errorf("card holds %q", c.Values)
	}
	var j struct {
		Steps  []int64
		Hist   [][]int
		Values []struct{ Step int64 }
	}
	if err := json.Unmarshal([]byte(c.Data), &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Steps) != 7 || len(j.Hist) != 7 || len(j.Values) != 2 || j.Values[1].Step != 60 {
		t.Errorf("page data: %d steps, %d histograms, %d with values", len(j.Steps), len(j.Hist), len(j.Values))
	}
}

// openLogdir opens dir as a log directory, as collect does, for payloads
// the test writes there.
func openLogdir(t *testing.T, dir string) *logfs.Dir {
	t.Helper()
	src, err := logfs.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}
