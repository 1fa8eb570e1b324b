package demolog

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// evalRun is the run of the lr=0.003 job's evaluation writer: text and
// tensor summaries beside the scalars of its train and validation runs.
const evalRun = "lr=0.003/eval"

// evalStart is when the evaluation writer of the lr=0.003 job starts.
const evalStart = BaseWallTime + 3*3600 + 95 + 20

// classes are the demo's ten classes (CIFAR-10's).
var classes = []string{"airplane", "automobile", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"}

// text writes the evaluation run's text summaries, as tf.summary.text
// writes them (DT_STRING tensors, plugin "text"): the job's configuration
// as Markdown at step 0, and every 100 steps a table of sample predictions
// (a rank-2 string tensor whose first row is the header) and the list of
// the worst examples (rank 1); and every 500 steps the PR curves of two
// classes (prcurves.go).
func (g *generator) text() (err error) {
	f, err := g.create(evalRun, evalStart, 40112, 0, tensorContent)
	defer func() { err = errors.Join(err, f.close()) }()
	if err != nil {
		return err
	}
	rng, prRNG := newRNG(evalRun+"/text"), newRNG(evalRun+"/pr")
	f.text(0, evalStart+1, "notes/config", nil, []string{configMarkdown})
	for step := int64(0); step <= 5000; step += 100 {
		wall := round6(evalStart + 5 + float64(step)*0.33)
		// Accuracy of the samples rises as training goes on.
		skill := 0.1 + 0.8*(1-math.Exp(-float64(step)/1400))
		rows := []string{"image", "label", "prediction", "confidence"}
		var worst []string
		for i := range 5 {
			label := classes[rng.IntN(len(classes))]
			pred, conf := label, skill+(1-skill)*rng.Float64()
			if rng.Float64() > skill {
				pred = classes[rng.IntN(len(classes))]
				conf = 0.2 + 0.5*rng.Float64()
			}
			mark := "✓"
			if pred != label {
				mark = "**✗**"
				worst = append(worst, fmt.Sprintf("`test/%05d.png`: *%s* taken for **%s** (%.0f%%)", 1000+37*i+int(step/100), label, pred, 100*conf))
			}
			rows = append(rows, fmt.Sprintf("`test/%05d.png`", 1000+37*i+int(step/100)), label, pred+" "+mark, fmt.Sprintf("%.3f", conf))
		}
		f.text(step, wall, "eval/predictions", []int64{6, 4}, rows)
		if len(worst) == 0 {
			worst = []string{"_every sample right_"}
		}
		f.text(step, wall, "eval/mistakes", []int64{int64(len(worst))}, worst)
		if step%500 == 0 { // and the PR curves of two classes, ships the easier
			for i, class := range []string{"cat", "ship"} {
				scores, positive := prScores(prRNG, skill*(0.75+0.25*float64(i)))
				f.prCurve(step, wall, "eval/pr/"+class, scores, positive)
			}
		}
	}
	return nil
}

// configMarkdown is what a training script logs about its configuration.
var configMarkdown = strings.TrimSpace(`
## Configuration

| setting | value |
|---|---:|
| model | ResNet-20 |
| optimizer | SGD, momentum 0.9 |
| peak learning rate | 0.003 |
| batch size | 128 |
| steps | 5,000 |

Launched with:

` + "```sh\npython train.py --lr 0.003 --steps 5000 --logdir runs/lr=0.003\n```" + `

See the [ResNet paper](https://arxiv.org/abs/1512.03385) for the model.
`)

// text writes one string tensor of the given shape (nil for rank 0) with
// the text plugin's metadata, as tf.summary.text does.
func (ef *eventFile) text(step int64, wall float64, tag string, shape []int64, values []string) {
	ts := &eventpb.TensorShapeProto{}
	for _, d := range shape {
		ts.Dim = append(ts.Dim, &eventpb.TensorShapeProto_Dim{Size: d})
	}
	t := &eventpb.TensorProto{Dtype: eventpb.DataType_DT_STRING, TensorShape: ts}
	for _, v := range values {
		t.StringVal = append(t.StringVal, []byte(v))
	}
	ef.write(&eventpb.Event{WallTime: wall, Step: step, What: &eventpb.Event_Summary{Summary: &eventpb.Summary{
		Value: []*eventpb.SummaryValue{{Tag: tag, Value: &eventpb.SummaryValue_Tensor{Tensor: t},
			Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "text"},
				DataClass: eventpb.SummaryMetadata_DATA_CLASS_TENSOR}}},
	}}})
}
