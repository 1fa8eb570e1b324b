package render

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

func TestPRStepBudget(t *testing.T) {
	series := func(cards, steps, thresholds int) []prSeries {
		var out []prSeries
		for range cards {
			p := &model.PRCurve{}
			for range steps {
				p.Entries = append(p.Entries, model.PRCurveEntry{Thresholds: make([]float64, thresholds)})
			}
			out = append(out, prSeries{series: p})
		}
		return out
	}
	for _, c := range []struct {
		name                 string
		cards, steps, thresh int
		perPage, want        int
	}{
		{"fits", 4, 100, 127, 1_000_000, 50},
		// Series shorter than the budget shrink only once their own
		// length no longer fits: 4 x 3 steps x 889 numbers pass 10,000.
		{"short series", 4, 3, 127, 10_000, 2},
		{"shrinks", 100, 100, 127, 3_000_000, 33},
		{"at least one", 10_000, 100, 127, 1000, 1},
	} {
		got := prStepBudget(series(c.cards, c.steps, c.thresh), 50, c.perPage)
		if got != c.want {
			t.Errorf("%s: %d steps per card, want %d", c.name, got, c.want)
		}
		if n := c.cards * 7 * c.thresh * min(got, c.steps); got > 1 && n > c.perPage {
			t.Errorf("%s: %d steps per card inline %d numbers, over %d", c.name, got, n, c.perPage)
		}
	}
}

// TestPRCurveEndsAtLastPrediction checks that a card draws a curve up to
// its last threshold with TP + FP > 0, not to the thresholds no prediction
// reaches (which the writers store as precision 0 or 1 and recall 0, a
// false line to the axis), and that the data files keep every threshold.
func TestPRCurveEndsAtLastPrediction(t *testing.T) {
	nan := math.NaN()
	entry := func(tp, fp []float64) model.PRCurveEntry {
		n := len(tp)
		z := make([]float64, n)
		return model.PRCurveEntry{Step: 1, Thresholds: make([]float64, n), TP: tp, FP: fp, TN: z, FN: z, Precision: z, Recall: z}
	}
	cases := []struct {
		tag    string
		e      model.PRCurveEntry
		drawn  int
		reason string
	}{
		{"trailing", entry([]float64{5, 3, 1, 0, 0}, []float64{5, 2, 0, 0, 0}), 3, "the last two thresholds hold no prediction"},
		{"full", entry([]float64{5, 3, 1}, []float64{5, 2, 1}), 3, "every threshold holds a prediction"},
		{"fp only", entry([]float64{5, 0, 0}, []float64{5, 2, 0}), 2, "FP alone is a prediction"},
		{"none", entry([]float64{0, 0}, []float64{0, 0}), 0, "no prediction at all"},
		{"nan", entry([]float64{5, nan, 0}, []float64{5, 0, 0}), 2, "a NaN count is not a zero"},
	}
	run := &model.Run{Name: "r", Path: "r"}
	for _, c := range cases {
		run.PRCurves = append(run.PRCurves, &model.PRCurve{Tag: c.tag, Entries: []model.PRCurveEntry{c.e}})
	}
	r := newReport(&model.Report{Runs: []*model.Run{run}}, Options{})
	page, err := r.prCurvesPage(false)
	if err != nil {
		t.Fatal(err)
	}
	drawn := map[string]int{}
	for _, pt := range page.Tags {
		var j struct {
			Curves []struct {
				Thresholds []float64 `json:"thresholds"`
				Drawn      *int      `json:"drawn"`
			} `json:"curves"`
		}
		if err := json.Unmarshal([]byte(pt.Cards[0].Data), &j); err != nil {
			t.Fatalf("%s: %v", pt.Tag, err)
		}
		if len(j.Curves) != 1 || j.Curves[0].Drawn == nil {
			t.Fatalf("%s: card data %s says not how much of the curve to draw", pt.Tag, pt.Cards[0].Data)
		}
		drawn[pt.Tag] = *j.Curves[0].Drawn
	}
	files := map[string]int{}
	if _, err := r.prCurvesData(func(f file) error {
		var d map[string][]struct {
			Thresholds []float64 `json:"thresholds"`
		}
		if err := json.Unmarshal(f.data, &d); err != nil {
			return err
		}
		for tag, es := range d {
			files[tag] = len(es[0].Thresholds)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if drawn[c.tag] != c.drawn {
			t.Errorf("%s: %d thresholds drawn, want %d: %s", c.tag, drawn[c.tag], c.drawn, c.reason)
		}
		if files[c.tag] != len(c.e.TP) {
			t.Errorf("%s: the data file keeps %d thresholds of %d", c.tag, files[c.tag], len(c.e.TP))
		}
	}
}
