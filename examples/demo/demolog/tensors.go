package demolog

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// tensors writes the evaluation run's numeric tensors, as tf.summary.write
// does with no plugin: every 500 steps the confusion matrix (int32
// [10, 10]) and which of 64 samples were right (bool [64]); every 250
// steps the attention weights of a layer (float32 [heads 4, query 8,
// key 8]), of which one head overflows at step 3750 (+Inf and NaN) and
// recovers; every 1,000 steps its 3-D reconstruction (mesh.go).
func (g *generator) tensors() (err error) {
	f, err := g.create(evalRun, evalStart, 40112, 1, tensorContent)
	defer func() { err = errors.Join(err, f.close()) }()
	if err != nil {
		return err
	}
	rng := newRNG(evalRun + "/tensors")
	recon := newReconstruction()
	for step := int64(0); step <= 5000; step += 250 {
		wall := round6(evalStart + 7 + float64(step)*0.33)
		skill := 0.1 + 0.8*(1-math.Exp(-float64(step)/1400))
		if step%500 == 0 {
			cm := make([]float64, 100)
			correct := make([]float64, 64)
			for i := range 1000 {
				label := i % 10
				pred := label
				if rng.Float64() > skill {
					pred = rng.IntN(10)
				}
				cm[label*10+pred]++
				if i < 64 && pred == label {
					correct[i] = 1
				}
			}
			f.tensor(step, wall, "eval/confusion_matrix", eventpb.DataType_DT_INT32, []int64{10, 10}, cm)
			f.tensor(step, wall, "eval/correct", eventpb.DataType_DT_BOOL, []int64{64}, correct)
		}
		// Attention sharpens along the diagonal as training goes on.
		att := make([]float64, 4*8*8)
		for h := range 4 {
			for q := range 8 {
				row := att[(h*8+q)*8 : (h*8+q+1)*8]
				sum := 0.0
				for k := range row {
					d := float64(q - k)
					row[k] = math.Exp(-d*d*skill*float64(h+1)/2 + 0.3*rng.NormFloat64())
					sum += row[k]
				}
				for k := range row {
					row[k] /= sum
				}
			}
		}
		if step == 3750 { // head 2 overflows: an infinite logit, then NaN after softmax
			for k := range 8 {
				att[(2*8+3)*8+k] = math.NaN()
			}
			att[(2*8+4)*8+4] = math.Inf(1)
		}
		f.tensor(step, wall, "layers/attention", eventpb.DataType_DT_FLOAT, []int64{4, 8, 8}, att)
		if step%1000 == 0 {
			recon.write(f, step, wall)
		}
	}
	return nil
}

// tensor writes one numeric tensor with no plugin metadata, as
// tf.summary.write(tag, tensor) does, its values in tensor_content.
func (ef *eventFile) tensor(step int64, wall float64, tag string, dt eventpb.DataType, shape []int64, values []float64) {
	ts := &eventpb.TensorShapeProto{}
	for _, d := range shape {
		ts.Dim = append(ts.Dim, &eventpb.TensorShapeProto_Dim{Size: d})
	}
	var c []byte
	for _, v := range values {
		switch dt {
		case eventpb.DataType_DT_FLOAT:
			c = binary.LittleEndian.AppendUint32(c, math.Float32bits(float32(v)))
		case eventpb.DataType_DT_INT32:
			c = binary.LittleEndian.AppendUint32(c, uint32(int32(v)))
		case eventpb.DataType_DT_BOOL:
			c = append(c, byte(v))
		}
	}
	ef.write(&eventpb.Event{WallTime: wall, Step: step, What: &eventpb.Event_Summary{Summary: &eventpb.Summary{
		Value: []*eventpb.SummaryValue{{Tag: tag, Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{
			Dtype: dt, TensorShape: ts, TensorContent: c}}}},
	}}})
}
