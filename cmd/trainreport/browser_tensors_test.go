package main

// Browser tests of the tensors page on the demo: every card draws its
// statistics chart (and heat map), the index box slices the step's values
// as numpy does (cells checked against the values package collect reads),
// bad indexes give a message in the page instead of an exception, and the
// step slider changes the table; in the site and the single-file report.

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect"
)

func TestBrowserTensors(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logs := demoLogs(t)
	r := buildReport(t, logs)
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
