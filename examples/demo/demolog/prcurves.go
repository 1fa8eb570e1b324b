package demolog

import (
	"encoding/binary"
	"math"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// prThresholds is how many thresholds the evaluation's PR curves have, as
// tf.summary's pr_curves and tensorboardX's add_pr_curve default to 127;
// fewer here keep the demo small.
const prThresholds = 21

// prCurve writes the precision-recall curve of one class at a step, as
// TensorBoard's pr_curves summary stores it: a float32 tensor of shape
// [6, thresholds] holding TP, FP, TN, FN, precision and recall per
// threshold i/(n-1), an example counting as positive at threshold i when
// floor(score*(n-1)) >= i; plugin "pr_curves" with num_thresholds in its
// content. scores and positive are the examples' scores and labels.
func (ef *eventFile) prCurve(step int64, wall float64, tag string, scores []float64, positive []bool) {
	const n = prThresholds
	var tp, fp [n]float64
	var pos, neg float64
	for i, s := range scores {
		bucket := int(math.Floor(s * (n - 1)))
		if positive[i] {
			pos++
		} else {
			neg++
		}
		for j := 0; j <= bucket && j < n; j++ {
			if positive[i] {
				tp[j]++
			} else {
				fp[j]++
			}
		}
	}
	var rows [6][n]float32
	for j := range n {
		rows[0][j], rows[1][j] = float32(tp[j]), float32(fp[j])
		rows[2][j], rows[3][j] = float32(neg-fp[j]), float32(pos-tp[j])
		rows[4][j] = float32(tp[j] / math.Max(1e-7, tp[j]+fp[j]))
		rows[5][j] = float32(tp[j] / math.Max(1e-7, pos))
	}
	var content []byte
	for _, row := range rows {
		for _, v := range row {
			content = binary.LittleEndian.AppendUint32(content, math.Float32bits(v))
		}
	}
	t := &eventpb.TensorProto{Dtype: eventpb.DataType_DT_FLOAT, TensorContent: content,
		TensorShape: &eventpb.TensorShapeProto{Dim: []*eventpb.TensorShapeProto_Dim{{Size: 6}, {Size: n}}}}
	plugin := protowire.AppendVarint(protowire.AppendTag(nil, 2, protowire.VarintType), n) // num_thresholds
	ef.write(&eventpb.Event{WallTime: wall, Step: step, What: &eventpb.Event_Summary{Summary: &eventpb.Summary{
		Value: []*eventpb.SummaryValue{{Tag: tag, Value: &eventpb.SummaryValue_Tensor{Tensor: t},
			Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "pr_curves", Content: plugin},
				DataClass: eventpb.SummaryMetadata_DATA_CLASS_TENSOR}}},
	}}})
}

// prScores draws the scores of 200 test examples of a class with the
// given skill (0: chance, 1: perfect): positives score higher as skill
// grows.
func prScores(rng interface{ Float64() float64 }, skill float64) (scores []float64, positive []bool) {
	for range 200 {
		p := rng.Float64() < 0.3
		s := rng.Float64()
		if p {
			s = math.Min(1, s*(1-skill)+skill*(0.5+0.5*rng.Float64()))
		} else {
			s *= 1 - 0.6*skill
		}
		scores, positive = append(scores, s), append(positive, p)
	}
	return scores, positive
}
