package analysis

import (
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/downsample"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Defaults of Options.
const (
	DefaultMaxPoints     = 2000
	DefaultMaxPagePoints = 400_000
	DefaultMaxDataPoints = 100_000
	DefaultMaxCharts     = 2000
)

// withDefaults returns opt with its zero budgets set to their defaults.
func (opt Options) withDefaults() Options {
	if opt.MaxPoints == 0 {
		opt.MaxPoints = DefaultMaxPoints
	}
	if opt.MaxPagePoints == 0 {
		opt.MaxPagePoints = DefaultMaxPagePoints
	}
	if opt.MaxDataPoints == 0 {
		opt.MaxDataPoints = DefaultMaxDataPoints
	}
	if opt.MaxCharts == 0 {
		opt.MaxCharts = DefaultMaxCharts
	}
	return opt
}

// rethin is downsample.Rethin with the buckets as the results hold them:
// result.Scalars.Thin.
func rethin(pts []model.Point, budget int, keep []int, buckets []result.Bucket) ([]int, []result.Bucket) {
	bks := make([]downsample.Bucket, len(buckets))
	for i, b := range buckets {
		bks[i] = downsample.Bucket(b)
	}
	return resultBuckets(downsample.Rethin(pts, keep, bks, budget))
}

// resultBuckets is keep and bks, what downsample returns, with the
// buckets as the results hold them.
func resultBuckets(keep []int, bks []downsample.Bucket) ([]int, []result.Bucket) {
	if bks == nil {
		return keep, nil
	}
	out := make([]result.Bucket, len(bks))
	for i, b := range bks {
		out[i] = result.Bucket(b)
	}
	return keep, out
}

// sparks returns, per budget of result.SparkBudgets that want holds,
// the values of the drawn points of pts a sparkline of about that many
// points shows (all of them, when they are no more): the drawn points
// keep every bucket's extremes already, so a sparkline need not go over
// every point again. f32 is the series' Float32.
func sparks(pts []model.Point, draw []int, want [len(result.SparkBudgets)]bool, f32 bool) (out [len(result.SparkBudgets)]result.Values) {
	var drawn []model.Point
	for k, budget := range result.SparkBudgets {
		if !want[k] {
			continue
		}
		if drawn == nil {
			drawn = make([]model.Point, len(draw))
			for i, j := range draw {
				drawn[i] = pts[j]
			}
		}
		var vals []float64
		if len(drawn) <= budget {
			vals = make([]float64, len(drawn))
			for i, p := range drawn {
				vals[i] = p.Value
			}
		} else {
			keep, _ := downsample.Points(drawn, budget)
			vals = make([]float64, len(keep))
			for i, j := range keep {
				vals[i] = drawn[j].Value
			}
		}
		out[k] = result.ValuesOf(vals, f32)
	}
	return out
}

// minPagePoints is the fewest points a series draws however many series
// share the page: below it a line says little about its series.
const minPagePoints = 200

// drawBudget returns how many points each series, of the given lengths,
// may draw: perSeries, unless drawing that many (or all of a shorter
// series) would put more than perPage points on the page; then the
// largest cap that fits, so that short series keep every point and long
// ones share the rest equally, though never below minPagePoints. A
// negative perPage means no page bound.
func drawBudget(lengths []int, perSeries, perPage int) int {
	drawn := func(limit int) int {
		n := 0
		for _, l := range lengths {
			n += min(l, limit)
		}
		return n
	}
	if perPage < 0 || perSeries <= minPagePoints || drawn(perSeries) <= perPage {
		return perSeries
	}
	// drawn grows with the cap: find the largest that fits.
	lo, hi := minPagePoints, perSeries // drawn(lo) may not fit: the floor wins
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if drawn(mid) <= perPage {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// keptIndices returns the indices of the points of pts a data file keeps
// under limit (downsampled keeping extremes), or nil when it keeps every
// point (limit <= 0: no limit): the common case, which then costs no
// index per point (8 bytes each, a third of the points' own size).
func keptIndices(pts []model.Point, limit int) []int {
	if limit <= 0 || len(pts) <= limit {
		return nil
	}
	keep, _ := downsample.Points(pts, limit)
	return keep
}

// fadedViews prepares the superseded points of a series under the budgets
// of a line: together they draw about drawCap points (each attempt its
// share, at least minFadedPoints, so that a thousand attempts cost a few
// thousand points, not a thousand lines' budgets), and each keeps at most
// dataCap (0: all) in the data, downsampled keeping extremes.
func fadedViews(s *model.Scalar, drawCap, dataCap int) []result.FadedView {
	total := 0
	for _, sp := range s.Superseded {
		total += len(sp.Points)
	}
	var out []result.FadedView
	for i := range s.Superseded {
		sp := &s.Superseded[i]
		budget := drawCap
		if drawCap > 0 && total > drawCap {
			budget = max(minFadedPoints, int(int64(drawCap)*int64(len(sp.Points))/int64(total)))
		}
		draw, _ := downsample.Points(sp.Points, budget)
		out = append(out, result.FadedView{Superseded: sp, Draw: draw, Data: keptIndices(sp.Points, dataCap)})
	}
	return out
}

// minFadedPoints is the fewest points an attempt's superseded points draw:
// one bucket of downsample.Points, its first, last, minimum and maximum.
const minFadedPoints = 4

// drawCapOf is the points each series of the drawn tags (their shapes,
// a tag's after another) may draw under opt's budgets (drawBudget): a
// series counts its points, and its superseded points count as one more
// series of their total, drawn faded behind it.
func drawCapOf(drawn [][]seriesShape, opt Options) int {
	var lengths []int
	for _, tag := range drawn {
		for _, sh := range tag {
			lengths = append(lengths, sh.points)
			if sh.superseded > 0 {
				lengths = append(lengths, sh.superseded)
			}
		}
	}
	return drawBudget(lengths, opt.MaxPoints, opt.MaxPagePoints)
}
