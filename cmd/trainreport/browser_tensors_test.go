package main

// Browser tests of the tensors page on the demo: every card draws its
// statistics chart (and heat map), the index box slices the step's values
// as numpy does (cells checked against the values package collect reads),
// bad indexes give a message in the page instead of an exception, and the
// step slider changes the table; in the site and the single-file report.

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect"
)

func TestBrowserTensors(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	r := sharedDemo(t)
	logs := r.logdir
	att := demoTensor(t, logs, "layers/attention") // float32 [4, 8, 8]
	cm := demoTensor(t, logs, "eval/confusion_matrix")

	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "tensors.html"), "")},
		{"single-file", fileURL(r.single, "page=tensors")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			checkTensorCharts(t, tb)
			tb.screenshot(shots, "tensors-"+c.name)

			// The first index takes the leading element of all but the
			// last two dimensions.
			if got := eval[string](tb, `[...document.querySelectorAll('article.tensor-card')].find(c => c.dataset.tag === "layers/attention").querySelector("input[data-tensor-index]").value`); got != "[0, :, :]" {
				t.Errorf("layers/attention: first index %q, want [0, :, :]", got)
			}
			// The last step is shown first; slices of it match Go's values.
			last := att.Entries[len(att.Entries)-1]
			vals := loadTensor(t, last)
			at := func(h, q, k int) float64 { return vals[h*64+q*8+k] }
			tensorIndex(t, tb, "layers/attention", "[1, 2:5, ::3]", last.Step, 3, 3, func(r, c int) float64 { return at(1, 2+r, 3*c) })
			// One sliced dimension is a column, its indices down the side.
			tensorIndex(t, tb, "layers/attention", "[-1, 7, :]", last.Step, 8, 1, func(r, _ int) float64 { return at(3, 7, r) })
			// An ellipsis and a negative step: rows along dimension 0, columns 6, 4, 2.
			tensorIndex(t, tb, "layers/attention", "[..., 6:1:-2, 0]", last.Step, 4, 3, func(r, c int) float64 { return at(r, 6-2*c, 0) })
			tensorIndex(t, tb, "layers/attention", "[0, 0, 0]", last.Step, 1, 1, func(_, _ int) float64 { return at(0, 0, 0) })
			tensorIndex(t, tb, "layers/attention", "2", last.Step, 8, 8, func(r, c int) float64 { return at(2, r, c) })
			cml := cm.Entries[len(cm.Entries)-1]
			cmv := loadTensor(t, cml)
			tensorIndex(t, tb, "eval/confusion_matrix", "[:, :]", cml.Step, 10, 10, func(r, c int) float64 { return cmv[r*10+c] })

			for _, bad := range []struct{ index, want string }{
				{"[4, :, :]", "out of range"},
				{"[:, :, :]", "at most two"},
				{"[0, 1, 2, 3]", "too many indices"},
				{"[0, ::0]", "zero"},
				{"[a]", "not an integer"},
				{"[0, :", "unbalanced"},
				{"[..., 0, ...]", "one ellipsis"},
			} {
				msg := eval[tableRead](tb, pageJS("tensors.js", "setIndex", "layers/attention", bad.index))
				if !msg.Error || !strings.Contains(msg.Msg, bad.want) || len(msg.Cells) != 0 {
					t.Errorf("index %s: message %q (error %v, %d cells), want an error saying %q", bad.index, msg.Msg, msg.Error, len(msg.Cells), bad.want)
				}
			}

			// The step slider: step 3750 holds a NaN row and a +Inf.
			i := -1
			for j, e := range att.Entries {
				if e.Step == 3750 {
					i = j
				}
			}
			got := eval[tableRead](tb, pageJS("tensors.js", "setStep", "layers/attention", i, "[2, 3:5, :]"))
			if len(got.Cells) != 16 || got.Cells[0] != "NaN" || got.Cells[8+4] != "+Inf" || !strings.Contains(got.Msg, "step 3,750") {
				t.Errorf("step 3750, [2, 3:5, :]: %q cells %q, want a NaN row then +Inf at [4, 4]", got.Msg, got.Cells)
			}
			tb.screenshot(shots, "tensors-"+c.name+"-step3750")
		})
	}
}

// demoTensor returns a tensor series of the demo's lr=0.003/eval run.
func demoTensor(t *testing.T, logs, tag string) *model.Tensor {
	t.Helper()
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "logs", Path: logs}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, run := range rep.Runs {
		for _, ts := range run.Tensors {
			if ts.Tag == tag {
				return ts
			}
		}
	}
	t.Fatalf("the demo has no tensor %s", tag)
	return nil
}

func loadTensor(t *testing.T, e model.TensorEntry) []float64 {
	t.Helper()
	v, err := e.Load(collect.Decoders())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// tableRead is the table of a card after setting its index.
type tableRead struct {
	Msg   string     `json:"msg"`
	Error bool       `json:"error"`
	Cells []string   `json:"cells"`
	Rows  int        `json:"rows"`
	Cols  int        `json:"cols"`
	Heads [][]string `json:"heads"`
	Label string     `json:"label"`
}

// tensorIndex sets the index of the tag's card and checks the table:
// rows x cols cells, each equal to want(r, c) read back at the tensor's
// precision.
func tensorIndex(t *testing.T, tb *tab, tag, index string, step int64, rows, cols int, want func(r, c int) float64) {
	t.Helper()
	got := eval[tableRead](tb, pageJS("tensors.js", "setIndex", tag, index))
	if got.Error {
		t.Errorf("%s %s: error %q", tag, index, got.Msg)
		return
	}
	if !strings.Contains(got.Msg, "step "+fmtThousands(step)) {
		t.Errorf("%s %s: message %q does not name step %d", tag, index, got.Msg, step)
	}
	if got.Rows != rows || got.Cols != cols {
		t.Errorf("%s %s: %d x %d cells, want %d x %d", tag, index, got.Rows, got.Cols, rows, cols)
		return
	}
	for r := range rows {
		for c := range cols {
			cell := got.Cells[r*cols+c]
			v, err := strconv.ParseFloat(cell, 64)
			w := want(r, c)
			if err != nil || float32(v) != float32(w) || (math.Abs(w) > 1<<24 && v != w) {
				t.Errorf("%s %s: cell [%d, %d] = %q, want %v", tag, index, r, c, cell, w)
			}
		}
	}
}

func fmtThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// tensorChart is what one card drew.
type tensorChart struct {
	Tag      string `json:"tag"`
	Stats    int    `json:"stats"`  // series of the statistics chart
	Points   int    `json:"points"` // points of its first series
	Steps    int    `json:"steps"`  // steps in the card's data
	Heat     int    `json:"heat"`   // cells of the heat map, -1 without one
	HeatShow bool   `json:"heatShow"`
	Width    int    `json:"width"`
}

// checkTensorCharts scrolls to every card and checks its charts are drawn
// at a size, with a point per step.
func checkTensorCharts(t *testing.T, tb *tab) {
	t.Helper()
	n := eval[int](tb, pageJS("tensors.js", "cards"))
	if n == 0 {
		t.Fatal("no tensor card")
	}
	for i := range n {
		eval[bool](tb, fmt.Sprintf(`(() => { document.querySelectorAll('article.tensor-card')[%d].scrollIntoView(); return true; })()`, i))
		waitFor(tb, fmt.Sprintf(`!!echarts.getInstanceByDom(document.querySelectorAll('article.tensor-card')[%d].querySelector("[data-tensor-stats]"))`, i),
			5*time.Second, fmt.Sprintf("card %d draws its statistics", i))
	}
	charts := eval[[]tensorChart](tb, pageJS("tensors.js", "charts"))
	for _, c := range charts {
		if c.Stats < 3 || c.Points != c.Steps || c.Steps == 0 || c.Width < 200 {
			t.Errorf("%s: statistics chart with %d series of %d points (%d steps), %dpx wide", c.Tag, c.Stats, c.Points, c.Steps, c.Width)
		}
		if c.Heat <= 0 || !c.HeatShow {
			t.Errorf("%s: heat map with %d cells, shown %v", c.Tag, c.Heat, c.HeatShow)
		}
	}
}

// TestBrowserTensorStatsFollowTheCurrentWrite checks the statistics chart
// of a run that restarted: its lines go through each step's current write
// once (no zigzag where the first process's write of a step is followed by
// the second's), and the superseded writes are drawn faded beside them,
// each at its step and mean; the heat map names their columns.
func TestBrowserTensorStatsFollowTheCurrentWrite(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logs := filepath.Join(t.TempDir(), "logs")
	// The first process writes steps 0..5, the second resumes at 3 and
	// writes 3..8: step s holds [b+s, b+s+1, b+s+2], mean b+s+1.
	for _, f := range []struct {
		name     string
		from, to int64
		base     float32
	}{{"events.out.tfevents.1700000000.host", 0, 5, 0}, {"events.out.tfevents.1700000100.host", 3, 8, 100}} {
		var events []*eventpb.Event
		for s := f.from; s <= f.to; s++ {
			var c []byte
			for k := range 3 {
				c = binary.LittleEndian.AppendUint32(c, math.Float32bits(f.base+float32(s)+float32(k)))
			}
			events = append(events, summaryEvent(s, 0, &eventpb.SummaryValue{Tag: "weights", Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{
				Dtype: eventpb.DataType_DT_FLOAT, TensorShape: &eventpb.TensorShapeProto{Dim: []*eventpb.TensorShapeProto_Dim{{Size: 3}}}, TensorContent: c}}}))
		}
		writeEventFile(t, filepath.Join(logs, "resumed", f.name), events)
	}
	var wantMean, wantFaded [][]float64
	for s := range 9 {
		m := float64(s + 1)
		if s >= 3 {
			m += 100
		}
		wantMean = append(wantMean, []float64{float64(s), m})
	}
	for s := 3; s <= 5; s++ {
		wantFaded = append(wantFaded, []float64{float64(s), float64(s + 1)})
	}
	r := buildReport(t, logs)
	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "tensors.html"), "")},
		{"single-file", fileURL(r.single, "page=tensors")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			if n := eval[int](tb, pageJS("tensors.js", "cards")); n != 1 {
				t.Fatalf("%d cards, want 1", n)
			}
			waitFor(tb, `!!echarts.getInstanceByDom(document.querySelector("article.tensor-card [data-tensor-stats]"))`, 5*time.Second, "the statistics chart")
			var got struct {
				Series map[string][][]float64
				Heat   []string
			}
			if err := json.Unmarshal([]byte(eval[string](tb, pageJS("tensors.js", "statsSeries", "weights"))), &got); err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got.Series["mean"], wantMean, slices.Equal) {
				t.Errorf("mean line %v, want the current write of each step once %v", got.Series["mean"], wantMean)
			}
			if !slices.EqualFunc(got.Series["superseded mean"], wantFaded, slices.Equal) {
				t.Errorf("superseded means %v, want %v", got.Series["superseded mean"], wantFaded)
			}
			if n := len(got.Series["max"]); n != 9 {
				t.Errorf("max line of %d points, want 9", n)
			}
			var marked []string
			for _, h := range got.Heat {
				if strings.HasSuffix(h, "(superseded)") {
					marked = append(marked, h)
				}
			}
			if h := eval[string](tb, `document.querySelector("article.tensor-card").textContent`); !strings.Contains(h, "12 steps (3 superseded)") {
				t.Errorf("card head %q does not count the 3 superseded writes", firstLine(h))
			}
			if want := []string{"3 (superseded)", "4 (superseded)", "5 (superseded)"}; !slices.Equal(marked, want) {
				t.Errorf("heat map columns marked %v, want %v (all: %v)", marked, want, got.Heat)
			}
			tb.screenshot(shots, "tensors-restart-"+c.name)
			tb.assertClean()
		})
	}
}
