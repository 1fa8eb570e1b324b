package demolog

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// histograms writes weight and activation histograms, each run in a second
// writer of its own process, as Keras's TensorBoard callback does:
//
//	baseline        TF1 HistogramProto over TF's default exponential
//	                buckets, every 400 steps (51 histograms per tag)
//	lr=0.003/train  TF2 [30, 3] float64 tensors of [left, right, count],
//	                plugin "histograms", every 100 steps
//
// The weights spread out as training goes on; the ReLU activations keep a
// spike at zero.
func (g *generator) histograms() error {
	var errs []error
	for _, w := range []struct {
		run        string
		wall, secs float64
		pid        int
		every      int64
		tf2        bool
	}{
		{"baseline", BaseWallTime, 0.045, 27182, 400, false},
		{"lr=0.003/train", BaseWallTime + 3*3600 + 95, 0.33, 40112, 100, true},
	} {
		f, err := g.create(w.run, w.wall, w.pid, 2, simpleValue)
		if err != nil {
			return errors.Join(err, f.close())
		}
		rng := newRNG(w.run + "/histograms")
		for k := int64(0); k <= 50; k++ {
			step := k * w.every
			progress := float64(k) / 50
			wall := round6(w.wall + 8.2 + float64(step)*w.secs)
			weights := make([]float64, 2000)
			for i := range weights {
				weights[i] = 0.05 * (1 + 2*progress) * rng.NormFloat64()
			}
			acts := make([]float64, 4000)
			for i := range acts {
				acts[i] = max(0, 0.5+(0.3+progress)*rng.NormFloat64())
			}
			for _, tv := range []struct {
				tag    string
				values []float64
			}{{"weights/dense_1", weights}, {"activations/relu_1", acts}} {
				sv := &eventpb.SummaryValue{Tag: tv.tag}
				if w.tf2 {
					sv.Value = &eventpb.SummaryValue_Tensor{Tensor: tf2Histogram(tv.values, 30)}
					if k == 0 {
						sv.Metadata = &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "histograms"}}
					}
				} else {
					sv.Value = &eventpb.SummaryValue_Histo{Histo: tf1Histogram(tv.values)}
				}
				f.write(&eventpb.Event{WallTime: wall, Step: step,
					What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: []*eventpb.SummaryValue{sv}}}})
			}
		}
		errs = append(errs, f.close())
	}
	return errors.Join(errs...)
}

// tf1Limits are TensorFlow's default histogram bucket limits: ±1e-12 times
// powers of 1.1 up to 1e20, zero, and ±DBL_MAX at the ends.
var tf1Limits = func() []float64 {
	var pos []float64
	for v := 1e-12; v < 1e20; v *= 1.1 {
		pos = append(pos, v)
	}
	pos = append(pos, math.MaxFloat64)
	limits := make([]float64, 0, 2*len(pos)+1)
	for i := len(pos) - 1; i >= 0; i-- {
		limits = append(limits, -pos[i])
	}
	limits = append(limits, 0)
	return append(limits, pos...)
}()

// tf1Histogram bins values as tf.summary.histogram (TF1) does: over
// tf1Limits, keeping of each run of empty buckets only the last, so that
// every kept bucket starts where the one before it ends.
func tf1Histogram(values []float64) *eventpb.HistogramProto {
	h := &eventpb.HistogramProto{Min: math.Inf(1), Max: math.Inf(-1), Num: float64(len(values))}
	counts := make([]float64, len(tf1Limits))
	for _, v := range values {
		h.Min, h.Max = min(h.Min, v), max(h.Max, v)
		h.Sum += v
		h.SumSquares += v * v
		i := 0
		for i < len(tf1Limits)-1 && v >= tf1Limits[i] {
			i++
		}
		counts[i]++
	}
	for i, c := range counts {
		if c == 0 && i+1 < len(counts) && counts[i+1] == 0 {
			continue
		}
		h.BucketLimit = append(h.BucketLimit, tf1Limits[i])
		h.Bucket = append(h.Bucket, c)
	}
	return h
}

// tf2Histogram bins values as tf.summary.histogram (TF2) does: n equal
// buckets from the least to the greatest value, the last one closed, as a
// [n, 3] DT_DOUBLE tensor of [left, right, count].
func tf2Histogram(values []float64, n int) *eventpb.TensorProto {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		lo, hi = min(lo, v), max(hi, v)
	}
	counts := make([]float64, n)
	for _, v := range values {
		i := n - 1
		if hi > lo {
			i = min(n-1, int((v-lo)/(hi-lo)*float64(n)))
		}
		counts[i]++
	}
	var b []byte
	for i := range n {
		left := lo + (hi-lo)*float64(i)/float64(n)
		right := lo + (hi-lo)*float64(i+1)/float64(n)
		for _, x := range []float64{left, right, counts[i]} {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
	}
	return &eventpb.TensorProto{
		Dtype: eventpb.DataType_DT_DOUBLE,
		TensorShape: &eventpb.TensorShapeProto{Dim: []*eventpb.TensorShapeProto_Dim{
			{Size: int64(n)}, {Size: 3}}},
		TensorContent: b,
	}
}
