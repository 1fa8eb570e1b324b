package histpb

import (
	"fmt"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"
)

// FromProto converts a HistogramProto as TensorBoard does: empty buckets at
// both ends are dropped, bucket_limit[i] is the right edge of bucket i, and
// the histogram's min and max are the outer edges. A histogram without a
// non-empty bucket has no rows.
func FromProto(h *eventpb.HistogramProto) ([]model.Bucket, error) {
	counts, limits := h.GetBucket(), h.GetBucketLimit()
	if len(counts) != len(limits) {
		return nil, fmt.Errorf("histogram has %d bucket counts but %d bucket limits", len(counts), len(limits))
	}
	start, end := 0, len(counts)-1
	for start < len(counts) && counts[start] <= 0 {
		start++
	}
	for end >= 0 && counts[end] <= 0 {
		end--
	}
	if start > end {
		return nil, nil
	}
	out := make([]model.Bucket, 0, end-start+1)
	for i := start; i <= end; i++ {
		b := model.Bucket{Left: h.GetMin(), Right: h.GetMax(), Count: counts[i]}
		if i > start {
			b.Left = limits[i-1]
		}
		if i < end {
			b.Right = limits[i]
		}
		out = append(out, b)
	}
	return out, nil
}
