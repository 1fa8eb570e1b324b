package main

// Browser test of smoothing over every point: a line drawn downsampled
// (more points than --max-points) is smoothed over every point of its
// data file, not over the bucket extremes it draws, and drawn at the
// drawn points; the single-file report, which has no data files, smooths
// the drawn points and says so on the figure.

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// smoothRuns are the runs of the test, per run its steps and values: a
// noisy level near 0.115 with a spike every 97th step, which every
// bucket's max keeps (the drawn points' average leans on them); a run
// logged every other step with NaN and +Inf among its values; and a
// short run, drawn whole.
var smoothRuns = map[string]func() ([]int64, []float64){
	"noisy": func() ([]int64, []float64) {
		steps, vals := make([]int64, 6000), make([]float64, 6000)
		x := uint32(12345)
		for i := range steps {
			x = x*1664525 + 1013904223
			steps[i] = int64(i)
			vals[i] = 0.115 + 0.04*(float64(x>>8)/(1<<24)-0.5)
			if i%97 == 0 {
				vals[i] += 0.5
			}
		}
		return steps, vals
	},
	"gaps": func() ([]int64, []float64) {
		steps, vals := make([]int64, 4000), make([]float64, 4000)
		for i := range steps {
			steps[i] = int64(2 * i)
			vals[i] = 2 + math.Sin(float64(i)/40) + float64(i%13)/10
			switch {
			case i%500 == 250:
				vals[i] = math.NaN()
			case i == 1234:
				vals[i] = math.Inf(1)
			}
		}
		return steps, vals
	},
	"short": func() ([]int64, []float64) {
		steps, vals := make([]int64, 150), make([]float64, 150)
		for i := range steps {
			steps[i], vals[i] = int64(i), float64(i%7)+0.5
		}
		return steps, vals
	},
}

// smoothTruth is each run's steps and values as the report reads them
// (float32, widened).
func smoothTruth() map[string]struct {
	steps []int64
	vals  []float64
} {
	out := map[string]struct {
		steps []int64
		vals  []float64
	}{}
	for run, gen := range smoothRuns {
		steps, vals := gen()
		for i, v := range vals {
			vals[i] = float64(float32(v))
		}
		out[run] = struct {
			steps []int64
			vals  []float64
		}{steps, vals}
	}
	return out
}

func TestBrowserSmoothingOverEveryPoint(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logs := filepath.Join(t.TempDir(), "logs")
	for run, gen := range smoothRuns {
		steps, vals := gen()
		events := make([]*eventpb.Event, len(steps))
		for i, s := range steps {
			events[i] = summaryEvent(s, 0, simpleValue("loss", float32(vals[i])))
		}
		writeEventFile(t, filepath.Join(logs, run, "events.out.tfevents.1700000000.host"), events)
	}
	r := buildReport(t, logs, "--max-points", "200")
	truth := smoothTruth()

	type series struct {
		ID, Name string
		Data     [][]*float64 // [x, y], y nil for a gap
	}
	type view struct {
		Over   string
		Series []series
	}
	read := func(t *testing.T, tb *tab, over string) view {
		t.Helper()
		var v view
		if err := json.Unmarshal([]byte(eval[string](tb, pageJS("smoothing.js", "series", over))), &v); err != nil {
			t.Fatal(err)
		}
		if v.Over != over {
			t.Errorf("figure data-smoothed=%q, want %q", v.Over, over)
		}
		return v
	}
	// check compares every run's smoothed line with the average over
	// every point (all) or over the drawn points alone, at each drawn
	// point, 1e-6 relative, and its raw line with the values. It returns
	// the largest relative distance, per run, between the two averages at
	// the drawn points.
	check := func(t *testing.T, v view, weight float64, all bool) map[string]float64 {
		t.Helper()
		byID := map[string]series{}
		for _, s := range v.Series {
			byID[s.ID] = s
		}
		apart := map[string]float64{}
		lines := 0
		for _, s := range v.Series {
			if len(s.ID) < 4 || s.ID[:4] != "run:" {
				continue
			}
			lines++
			tr, ok := truth[s.Name]
			if !ok {
				t.Fatalf("series %s is named %q, not a run of the test", s.ID, s.Name)
			}
			raw, ok := byID["raw:"+s.ID[4:]]
			if !ok || len(raw.Data) != len(s.Data) {
				t.Fatalf("run %q: no raw line beside the smoothed one, or of another length (%d, %d points)", s.Name, len(raw.Data), len(s.Data))
			}
			at := map[int64]int{}
			for i, st := range tr.steps {
				at[st] = i
			}
			idx := make([]int, len(s.Data))
			drawnVals := make([]float64, len(s.Data))
			for j, p := range s.Data {
				i, ok := at[int64(*p[0])]
				if !ok {
					t.Fatalf("run %q: drawn point %d at x %v, a step the run does not have", s.Name, j, *p[0])
				}
				idx[j], drawnVals[j] = i, tr.vals[i]
			}
			every := tensorBoardSmooth(tr.vals, weight)
			drawn := tensorBoardSmooth(drawnVals, weight)
			downsampled := len(s.Data) < len(tr.vals)
			bad := 0
			for j, p := range s.Data {
				want := drawn[j]
				if all || !downsampled {
					want = every[idx[j]]
				}
				if !relNear(p[1], want) && bad < 5 {
					bad++
					t.Errorf("run %q, step %d: smoothed line at %v, want %v (the average over %s)", s.Name, tr.steps[idx[j]], deref(p[1]), want,
						map[bool]string{true: "every point", false: "the drawn points"}[all || !downsampled])
				}
				if r := raw.Data[j][1]; !relNear(r, drawnVals[j]) && bad < 5 {
					bad++
					t.Errorf("run %q, step %d: raw line at %v, want the value %v", s.Name, tr.steps[idx[j]], deref(r), drawnVals[j])
				}
				if d := math.Abs(every[idx[j]]-drawn[j]) / math.Abs(every[idx[j]]); d > apart[s.Name] {
					apart[s.Name] = d
				}
			}
		}
		if lines != len(truth) {
			t.Errorf("%d run lines, want %d", lines, len(truth))
		}
		return apart
	}

	t.Run("site", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), "smoothing=0.6"))
		apart := check(t, read(t, tb, "every"), 0.6, true)
		// The drawn points' average is far from the right one: the test
		// tells them apart.
		if apart["noisy"] < 0.01 || apart["gaps"] < 1e-4 {
			t.Errorf("the average over the drawn points is within %v of the right one: the test could not fail", apart)
		}
		tb.screenshot(shots, "smoothing-every-point")
		// A new weight smooths every point again, at once (the bundles
		// are loaded).
		eval[bool](tb, pageJS("groups.js", "set", "smoothing", "0.95"))
		waitFor(tb, `location.hash.includes("smoothing=0.95")`, stepTimeout, "smoothing in the URL")
		check(t, read(t, tb, "every"), 0.95, true)
		tip := eval[string](tb, pageJS("smoothing.js", "tip", "run:0", 10))
		if tip == "" || strings.Contains(tip, "\u2026") || strings.Contains(tip, "NaN") {
			t.Errorf("tooltip %q, want the smoothed value", tip)
		}
		tb.assertClean()
	})
	t.Run("single-file", func(t *testing.T) {
		// No data files: the drawn points are smoothed, and the figure
		// says so.
		tb := openTab(t, browser, fileURL(r.single, "page=scalars&smoothing=0.6"))
		check(t, read(t, tb, "drawn"), 0.6, false)
		tb.assertClean()
	})
}

// relNear reports whether got is want within 1e-6 relative, or both are
// gaps (nil, a non-finite want).
func relNear(got *float64, want float64) bool {
	if math.IsNaN(want) || math.IsInf(want, 0) {
		return got == nil
	}
	return got != nil && math.Abs(*got-want) <= 1e-6*math.Abs(want)
}

func deref(p *float64) string {
	if p == nil {
		return "a gap"
	}
	return fmt.Sprint(*p)
}
