package render

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Drawing budgets of the distributions page: per chart at most
// distributionSteps steps spread evenly (the last always kept), fewer when
// the page would inline more than distributionPageSteps steps in all.
// The data files hold every step.
const (
	distributionSteps     = 500
	distributionPageSteps = 30_000
)

// distributionsPage is what templates/distributions.html draws. A chart
// draws {steps} with steps [step, v0, ..., v8]: the values at
// result.BasisPoints (result.Histograms.Compressed), drawn at float32
// precision.
func (r *Report) distributionsPage(single bool) (*statisticPage, error) {
	tags := r.histTags()
	budget := stepBudget(tags, distributionSteps, distributionPageSteps, 1)
	return r.statisticPage(budget, "distributions", single, func(s histSeries, idx []int) json.RawMessage {
		comp := r.an.Histograms.Compressed[s.series]
		b := []byte(`{"steps":[`)
		k := 0
		for _, i := range idx {
			e := s.series.Entries[i]
			if e.Superseded {
				// The bands are the line's: the histograms page draws
				// the superseded writes apart.
				continue
			}
			if k++; k > 1 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, e.Step, 10)
			for _, v := range comp[i] {
				// float32 precision is plenty to draw, where it has the range.
				b = appendValue(append(b, ','), v, math.Abs(v) <= math.MaxFloat32)
			}
			b = append(b, ']')
		}
		return append(b, "]}"...)
	})
}

// distributionsData returns data/distributions/<run>/<tag>.json for every
// series: {tag: [[wall_time, step, [[basis_point, value] x9]], ...]}, the
// compression of every step.
func (r *Report) distributionsData(emit func(file) error) (*pageData, error) {
	return r.statisticData("distribution", "distributions", func(b []byte, _ *model.Run, h *model.Histogram, i int) []byte {
		return appendDistribution(b, h.Entries[i], &r.an.Histograms.Compressed[h][i])
	}, emit)
}

// appendDistribution appends [wall_time, step, [[basis_point, value] x9]]
// of entry e, whose values at the basis points are comp.
func appendDistribution(b []byte, e model.HistogramEntry, comp *[len(result.BasisPoints)]float64) []byte {
	b = append(b, '[')
	b = appendWallTime(b, e.WallTime)
	b = append(b, ',')
	b = strconv.AppendInt(b, e.Step, 10)
	b = append(b, ",["...)
	for i, v := range comp {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(result.BasisPoints[i]), 10)
		b = appendValue(append(b, ','), v, false)
		b = append(b, ']')
	}
	return append(b, "]]"...)
}
