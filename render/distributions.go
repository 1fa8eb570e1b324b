package render

import (
	"encoding/json"
	"math"
	"strconv"

	"github.com/trainreport/trainreport/collect/histogram"
	"github.com/trainreport/trainreport/collect/model"
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
// histogram.BasisPoints, drawn at float32 precision.
func (r *Report) distributionsPage(single bool) (*statisticPage, error) {
	tags := r.histTags()
	budget := stepBudget(tags, distributionSteps, distributionPageSteps, 1)
	return r.statisticPage(budget, "distributions", single, func(s histSeries, idx []int) json.RawMessage {
		b := []byte(`{"steps":[`)
		for k, i := range idx {
			e := s.series.Entries[i]
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			b = strconv.AppendInt(b, e.Step, 10)
			for _, v := range histogram.Compress(e.Buckets) {
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
// Over the page's budget it writes the scripts of the runs the page
// leaves out too (cutScripts).
func (r *Report) distributionsData(emit func(file) error) (*pageData, error) {
	d, err := r.statisticData("distribution", "distributions", appendDistribution, emit)
	if err != nil {
		return nil, err
	}
	return d, r.cutScripts((*Report).distributionsPage, emit)
}

// appendDistribution appends [wall_time, step, [[basis_point, value] x9]].
func appendDistribution(b []byte, e model.HistogramEntry) []byte {
	b = append(b, '[')
	b = appendWallTime(b, e.WallTime)
	b = append(b, ',')
	b = strconv.AppendInt(b, e.Step, 10)
	b = append(b, ",["...)
	for i, v := range histogram.Compress(e.Buckets) {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(histogram.BasisPoints[i]), 10)
		b = appendValue(append(b, ','), v, false)
		b = append(b, ']')
	}
	return append(b, "]]"...)
}
