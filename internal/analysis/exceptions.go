package analysis

import (
	"math"
	"slices"

	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/analysis/tensorstat"
	"github.com/trainreport/trainreport/internal/analysis/tensorview"
)

// Budgets of the Exceptions page's details.
const (
	// exceptionDetailSteps bounds the steps of one series with a heat
	// map, histogram and outliers (the step slider's stops), fewer when
	// the page holds many series (exceptionPageCells).
	exceptionDetailSteps = 20
	// exceptionHeatSide bounds a heat map's cells each way: a bigger
	// matrix is shrunk by blocks.
	exceptionHeatSide = 64
	// exceptionPageCells bounds the heat-map cells of the whole page.
	exceptionPageCells = 2_000_000
	// exceptionOutliers bounds the outliers listed per step, the furthest
	// from the median kept.
	exceptionOutliers = 200
	// exceptionOutlierK is the whisker factor the listed outliers are
	// found with: the smallest the page's k control offers, so that any k
	// it offers filters the same list.
	exceptionOutlierK = 1.0
	// exceptionK is the whisker factor of the boxes in the data files,
	// and the page's default.
	exceptionK = 1.5
)

// exceptionSteps gathers the exception view of a series as its steps are
// decoded, one at a time: every step's percentiles, and the details of
// the steps that may be picked (spread evenly with the last kept, and the
// first step holding a NaN or infinity), so that no step is decoded twice.
type exceptionSteps struct {
	s         *result.ExceptionSeries
	perSeries int
	even      []int
	first     int // the first step holding a NaN or infinity, -1 before it
	details   map[int]result.ExceptionDetail
}

func newExceptionSteps(n, perSeries int) *exceptionSteps {
	return &exceptionSteps{s: &result.ExceptionSeries{Percentiles: make([][9]float64, n), OK: make([]bool, n), Boxes: make([]result.Box, n), NonFinite: make([]int, n)},
		perSeries: perSeries, even: result.EvenSteps(n, perSeries), first: -1, details: map[int]result.ExceptionDetail{}}
}

// add takes the values of step i, of the given shape and statistics.
func (x *exceptionSteps) add(i int, vals []float64, shape []int64, st tensorstat.Stats) {
	s := x.s
	s.Percentiles[i], s.OK[i] = tensorview.Percentiles(vals)
	s.Boxes[i] = result.Box(tensorview.BoxOf(s.Percentiles[i], exceptionK))
	s.NonFinite[i] = st.NaN + st.PosInf + st.NegInf
	detail := slices.Contains(x.even, i)
	if x.first < 0 && s.NonFinite[i] > 0 {
		x.first, detail = i, true
	}
	if detail {
		x.details[i] = exceptionDetail(i, vals, shape, s.Percentiles[i], s.OK[i])
	}
}

// series returns the view, with the details of the steps picked: spread
// evenly with the last kept, and the first step holding a NaN or infinity
// among them. errs are the steps that could not be read.
func (x *exceptionSteps) series(errs map[int]error) *result.ExceptionSeries {
	s := x.s
	s.Errs = errs
	pick := slices.Clone(x.even)
	if first := x.first; first >= 0 && !slices.Contains(pick, first) {
		pick = append(pick, first)
		slices.Sort(pick)
		if len(pick) > x.perSeries && len(pick) > 2 { // make room: drop the neighbour before it
			at := slices.Index(pick, first)
			pick = slices.Delete(pick, max(at-1, 0), max(at-1, 0)+1)
		}
	}
	for _, i := range pick {
		if d, ok := x.details[i]; ok { // not when the step could not be read
			s.Details = append(s.Details, d)
		}
	}
	return s
}

// exceptionDetail computes what the page draws of step i beyond its box.
func exceptionDetail(i int, vals []float64, shape []int64, pcts [9]float64, ok bool) result.ExceptionDetail {
	d := result.ExceptionDetail{Index: i, Shape: shape, Stats: [3]float64{math.NaN(), math.NaN(), math.NaN()}}
	box := tensorview.BoxOf(pcts, exceptionOutlierK)
	if !ok { // no finite value: every value is an outlier
		box = tensorview.Box{Down: math.Inf(1), Up: math.Inf(-1)}
	}
	d.Outliers = result.Outliers(tensorview.OutliersOf(vals, box, exceptionOutliers))
	dims := make([]int, len(shape))
	for k, v := range shape {
		dims[k] = int(v)
	}
	if elements(shape) == int64(len(vals)) {
		d.Heat = result.Heatmap(tensorview.HeatmapOf(vals, dims, exceptionHeatSide))
	} else {
		d.Heat = result.Heatmap(tensorview.HeatmapOf(vals, []int{len(vals)}, exceptionHeatSide))
	}
	hist, hasHist := tensorview.HistogramOf(vals)
	d.Hist, d.HasHist = result.Histogram(hist), hasHist
	sum, cnt := 0.0, 0
	for _, v := range vals {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			sum, cnt = sum+v, cnt+1
		}
	}
	if cnt > 0 {
		d.Stats = [3]float64{hist.Min, hist.Max, sum / float64(cnt)}
	}
	return d
}
