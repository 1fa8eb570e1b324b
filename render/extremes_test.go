package render

import (
	"bytes"
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect/histogram"
)

// Values whose differences overflow float64: 1e308 - -1e308 is +Inf.
const huge = 1e308

func TestFractionNeverOverflows(t *testing.T) {
	for _, c := range []struct{ v, lo, hi, want float64 }{
		{5, 0, 10, 0.5},
		{0, -huge, huge, 0.5},
		{huge, -huge, huge, 1},
		{-huge, -huge, huge, 0},
		{math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64, 1},
		{1, 1, 1, 0.5},          // empty range
		{math.NaN(), 0, 1, 0.5}, // no position
		{20, 0, 10, 1},          // clamped
	} {
		if got := fraction(c.v, c.lo, c.hi); got != c.want {
			t.Errorf("fraction(%g, %g, %g) = %g, want %g", c.v, c.lo, c.hi, got, c.want)
		}
	}
}

// TestSparklineOfExtremeValues checks that a series of 1e308 and -1e308,
// whose range overflows float64, draws both sparklines (summary.md's
// blocks and the overview's SVG) from the lowest to the highest level,
// and that the whole site is written: it used to panic with an index of
// int(NaN) in summary.md's sparkline.
func TestSparklineOfExtremeValues(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"run": {
		"extreme": {huge, -huge, huge, 0, -huge},
		"max":     {math.MaxFloat64, -math.MaxFloat64},
	}})
	r := newReport(rep, Options{})
	for _, sv := range r.tags[0].series {
		spark := sparkText(sv)
		if sv.scalar.Tag == "extreme" && spark != "█▁█▅▁" {
			t.Errorf("%s: sparkText = %q, want █▁█▅▁", sv.scalar.Tag, spark)
		}
		svg := string(sparkline(sv))
		if strings.Contains(svg, "NaN") || strings.Contains(svg, "Inf") || !strings.Contains(svg, ",1.0 ") || !strings.Contains(svg, ",19.0 ") {
			t.Errorf("%s: sparkline %s", sv.scalar.Tag, svg)
		}
	}
	if err := r.WriteSite(filepath.Join(t.TempDir(), "site")); err != nil {
		t.Fatal(err)
	}
	files := filesByName(t, r)
	if !bytes.Contains(files["summary.md"], []byte("█▁█▅▁")) {
		t.Errorf("summary.md lacks the sparkline:\n%s", files["summary.md"])
	}
}

// TestDurationOfExtremeWallTimes checks that wall times past any date (a
// writer's garbage) are shown as seconds: their difference overflows both
// float64 and time.Duration.
func TestDurationOfExtremeWallTimes(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"run": {"loss": {1, 2}}})
	rep.Runs[0].Start, rep.Runs[0].End = 1, huge
	rep.Runs[0].Scalars[0].Points[1].WallTime = huge
	p := newReport(rep, Options{}).overviewPage(false)
	row := p.Runs[0]
	if row.End != "1e+308 s" || row.Duration != "1e+308 s" || row.Start != "1970-01-01 00:00:01Z" {
		t.Errorf("end %q, duration %q, start %q", row.End, row.Duration, row.Start)
	}
	if got := fmtDuration(math.Inf(1)); got != "+Inf s" {
		t.Errorf("fmtDuration(+Inf) = %q", got)
	}
	if got := fmtTime(math.NaN()); got != "" {
		t.Errorf("fmtTime(NaN) = %q", got)
	}
	files := filesByName(t, newReport(rep, Options{}))
	var sum struct {
		Runs []struct {
			Duration any `json:"duration_seconds"`
		}
	}
	if err := json.Unmarshal(files["summary.json"], &sum); err != nil || sum.Runs[0].Duration != 1e308-1.0 {
		t.Errorf("summary.json: %v, duration %v", err, sum.Runs)
	}
}

// TestHistogramRebinOfExtremeEdges checks that histograms whose edges span
// -1e308 to 1e308 re-bin onto the page's 30 bins with every count kept
// (their range, and the middle bucket's width, overflow float64), and
// that the chart's data parses: it held "+Inf" and "NaN" counts, which no
// JSON reader takes, and the page was not written.
func TestHistogramRebinOfExtremeEdges(t *testing.T) {
	rows := [][]model.Bucket{
		{{Left: -huge, Right: 0, Count: 5}, {Left: 0, Right: huge, Count: 7}},
		{{Left: -huge, Right: huge, Count: 4}},
		{{Left: huge, Right: huge, Count: 2}},                                                      // one value at the top
		{{Left: 0, Right: 1, Count: math.MaxFloat64}, {Left: 0, Right: 1, Count: math.MaxFloat64}}, // counts past float64
	}
	h := &model.Histogram{Tag: "extreme"}
	for i, r := range rows {
		h.Entries = append(h.Entries, model.HistogramEntry{WallTime: 1e9, Step: int64(i), Summary: histogram.Summarize(r), Buckets: r})
	}
	rep := &model.Report{Runs: []*model.Run{{Name: "run", Path: "run", Histograms: []*model.Histogram{h}}}}
	files := filesByName(t, newReport(rep, Options{}))
	charts := chartData(t, files["histograms.html"])
	if len(charts) != 1 {
		t.Fatalf("%d charts", len(charts))
	}
	var draw struct {
		Lo, Hi float64
		Steps  [][2]json.RawMessage
	}
	if err := json.Unmarshal(charts[0].Draw, &draw); err != nil {
		t.Fatalf("chart draw data: %v: %s", err, charts[0].Draw)
	}
	if draw.Lo != -huge || draw.Hi != huge || len(draw.Steps) != len(rows) {
		t.Fatalf("range [%g, %g], %d steps", draw.Lo, draw.Hi, len(draw.Steps))
	}
	for k, want := range []float64{12, 4, 2, 1.797e308} {
		var counts []float64
		if err := json.Unmarshal(draw.Steps[k][1], &counts); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
		sum := 0.0
		for _, c := range counts {
			if math.IsNaN(c) || math.IsInf(c, 0) || c < 0 {
				t.Errorf("step %d: count %g", k, c)
			}
			sum += c
		}
		if k < 3 && math.Abs(sum-want) > 1e-3*want || k == 3 && sum != want {
			t.Errorf("step %d: counts %v sum to %g, want %g", k, counts, sum, want)
		}
	}
	// Step 0 puts half the range in the lower 15 bins, half in the upper.
	var counts []float64
	json.Unmarshal(draw.Steps[0][1], &counts)
	if math.Abs(counts[0]-5.0/15) > 1e-3 || math.Abs(counts[29]-7.0/15) > 1e-3 {
		t.Errorf("step 0 re-binned to %v", counts)
	}
	// One value at the very top: a range that reaches no infinity.
	if lo, hi := widen(math.MaxFloat64); !(lo < hi) || math.IsInf(hi, 0) {
		t.Errorf("widen(MaxFloat64) = [%g, %g]", lo, hi)
	}
}
