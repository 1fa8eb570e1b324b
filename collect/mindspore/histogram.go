package mindspore

import (
	"fmt"
	"math"

	"github.com/trainreport/trainreport/collect/mindspore/mspb"
	"github.com/trainreport/trainreport/collect/model"
)

// maxBuckets bounds the buckets of one histogram. MindSpore's writer makes
// at most a few hundred (numpy's bin rules); each costs 3 numbers in
// memory and in the data files.
const maxBuckets = 1 << 14

// Histogram converts a MindSpore histogram to the model's: each bucket
// [left, left+width) with its count, the writer's min, max and sum, and the
// NaN and infinite values counted apart. The entry's Count is that of the
// finite values, the buckets' total; MindSpore's own count holds the
// others too. Negative counts, too many buckets and non-finite edges are
// errors.
func Histogram(h *mspb.Histogram) (model.HistogramEntry, error) {
	var e model.HistogramEntry
	bs := h.GetBuckets()
	if len(bs) > maxBuckets {
		return e, fmt.Errorf("histogram of %d buckets, more than %d", len(bs), maxBuckets)
	}
	if h.GetNanCount() < 0 || h.GetPosInfCount() < 0 || h.GetNegInfCount() < 0 || h.GetCount() < 0 {
		return e, fmt.Errorf("histogram with a negative count")
	}
	e.Buckets = make([]model.Bucket, 0, len(bs))
	var total float64
	for i, b := range bs {
		left, right := b.GetLeft(), b.GetLeft()+b.GetWidth()
		if math.IsNaN(left) || math.IsInf(left, 0) || math.IsNaN(right) || math.IsInf(right, 0) || right < left {
			return e, fmt.Errorf("histogram bucket %d of left %g and width %g has no finite extent", i, b.GetLeft(), b.GetWidth())
		}
		if b.GetCount() < 0 {
			return e, fmt.Errorf("histogram bucket %d has count %d", i, b.GetCount())
		}
		e.Buckets = append(e.Buckets, model.Bucket{Left: left, Right: right, Count: float64(b.GetCount())})
		total += float64(b.GetCount())
	}
	e.Summary = model.Summary{Min: h.GetMin(), Max: h.GetMax(), Count: total, Sum: h.GetSum()}
	e.NaN, e.PosInf, e.NegInf = h.GetNanCount(), h.GetPosInfCount(), h.GetNegInfCount()
	return e, nil
}
