package histpb

import (
	"encoding/binary"
	"math"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"
	"google.golang.org/protobuf/encoding/protowire"
)

// ParseProto converts a serialized HistogramProto as FromProto does, read
// straight from the wire without building the message: histograms are the
// bulk of a log after scalars, and each would otherwise cost two slices of
// float64 besides its rows. It reports false for anything but the form
// writers use (packed buckets, equal lengths, each field once), which the
// caller then decodes with the generated code to get its full answer or
// error.
func ParseProto(b []byte) (rows []model.Bucket, s model.Summary, ok bool) {
	var limits, counts []byte
	var seen uint8
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num < eventpb.FieldHistogramMin || num > eventpb.FieldHistogramBucket || seen&(1<<num) != 0 {
			return nil, model.Summary{}, false
		}
		seen |= 1 << num
		b = b[n:]
		switch {
		case num <= eventpb.FieldHistogramSumSquares && typ == protowire.Fixed64Type:
			v, n := protowire.ConsumeFixed64(b)
			if n < 0 {
				return nil, model.Summary{}, false
			}
			b = b[n:]
			f := math.Float64frombits(v)
			switch num {
			case eventpb.FieldHistogramMin:
				s.Min = f
			case eventpb.FieldHistogramMax:
				s.Max = f
			case eventpb.FieldHistogramNum:
				s.Count = f
			case eventpb.FieldHistogramSum:
				s.Sum = f
			}
		case num >= eventpb.FieldHistogramBucketLimit && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 || len(v)%8 != 0 {
				return nil, model.Summary{}, false
			}
			b = b[n:]
			if num == eventpb.FieldHistogramBucketLimit {
				limits = v
			} else {
				counts = v
			}
		default:
			return nil, model.Summary{}, false
		}
	}
	if len(limits) != len(counts) {
		return nil, model.Summary{}, false
	}
	count := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(counts[8*i:])) }
	limit := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(limits[8*i:])) }
	start, end := 0, len(counts)/8-1
	for start <= end && count(start) <= 0 {
		start++
	}
	for end >= start && count(end) <= 0 {
		end--
	}
	if start > end {
		return nil, s, true
	}
	rows = make([]model.Bucket, 0, end-start+1)
	for i := start; i <= end; i++ {
		r := model.Bucket{Left: s.Min, Right: s.Max, Count: count(i)}
		if i > start {
			r.Left = limit(i - 1)
		}
		if i < end {
			r.Right = limit(i)
		}
		rows = append(rows, r)
	}
	return rows, s, true
}
