package main

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

// trial is what a run's hyperparameters make of it. Outside a sweep every
// run is the plain trial: the same decay, every step, no session.
type trial struct {
	lr        float64
	batch     int
	optimizer string
	dropout   float64

	rate     float64 // decay of the curves over the steps
	floor    float64 // where they settle
	noise    float64 // spread of the steps around the curve
	diverges bool    // the curves turn upwards half-way
	steps    int     // steps written: fewer for a failed trial
	status   eventpb.SessionEndInfo_Status
}

var (
	batchSizes = []int{32, 64, 128, 256}
	optimizers = []string{"adam", "sgd", "rmsprop"}
)

// trialOf draws run's hyperparameters (from their own generator, so the
// values of a run do not depend on how many runs there are) and what they
// make of its curves.
func trialOf(run int, cfg config) trial {
	if !cfg.sweep {
		return trial{rate: 3, noise: 0.05, steps: cfg.steps}
	}
	rng := rand.New(rand.NewPCG(uint64(run), 44))
	t := trial{
		lr:        math.Pow(10, -4+3*rng.Float64()),
		batch:     batchSizes[rng.IntN(len(batchSizes))],
		optimizer: optimizers[rng.IntN(len(optimizers))],
		dropout:   math.Round(rng.Float64()*50) / 100,
		steps:     cfg.steps,
		status:    eventpb.SessionEndInfo_STATUS_SUCCESS,
	}
	// Best near a learning rate of 10^-2.5; Adam settles lower, dropout
	// makes the steps noisier.
	closeness := 1 - math.Abs(math.Log10(t.lr)+2.5)/1.5
	t.rate = 1 + 4*closeness
	t.floor = 0.05 + 0.3*(1-closeness) + map[string]float64{"adam": 0, "rmsprop": 0.05, "sgd": 0.1}[t.optimizer]
	t.noise = 0.02 + 0.1*t.dropout
	switch u := rng.Float64(); {
	case u < 0.05:
		t.diverges = true
	case u < 0.10:
		t.steps = max(1, int(float64(cfg.steps)*(0.1+0.8*rng.Float64())))
		t.status = eventpb.SessionEndInfo_STATUS_FAILURE
	}
	return t
}

// value is tag t's value at step s of steps.
func (t trial) value(tag, s, steps int, rng *rand.Rand) float64 {
	x := float64(s) / float64(max(steps, 1))
	v := t.floor + math.Exp(-x*t.rate)*(1+float64(tag)) + rng.NormFloat64()*t.noise
	if t.diverges && x > 0.5 {
		v += math.Expm1((x - 0.5) * 8)
	}
	return v
}

// hparams is the trial's session start, as hp.hparams writes it.
func (t trial) hparams() map[string]*structpb.Value {
	return map[string]*structpb.Value{
		"learning_rate": structpb.NewNumberValue(t.lr),
		"batch_size":    structpb.NewNumberValue(float64(t.batch)),
		"optimizer":     structpb.NewStringValue(t.optimizer),
		"dropout":       structpb.NewNumberValue(t.dropout),
	}
}

// runName names run r: trials are numbered to the width of the sweep so
// that they sort in order.
func runName(r int, cfg config) string {
	if !cfg.sweep {
		return fmt.Sprintf("run%02d", r)
	}
	return fmt.Sprintf("trial%0*d", len(strconv.Itoa(max(cfg.runs-1, 0))), r)
}

// tagNames are the scalar tags of every run.
func tagNames(n int) []string {
	names := make([]string, n)
	for t := range names {
		names[t] = fmt.Sprintf("group%d/metric%02d", t%3, t)
	}
	return names
}

// hparamsValue is a summary value of the hparams plugin holding data.
func hparamsValue(tag string, data *eventpb.HParamsPluginData) *eventpb.SummaryValue {
	content, err := proto.MarshalOptions{Deterministic: true}.Marshal(data)
	if err != nil {
		panic(err) // a message built above always marshals
	}
	return &eventpb.SummaryValue{Tag: tag, Metadata: &eventpb.SummaryMetadata{
		PluginData: &eventpb.PluginData{PluginName: "hparams", Content: content}},
		Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_FLOAT,
			TensorShape: &eventpb.TensorShapeProto{}, FloatVal: []float32{0}}}}
}

// writeExperiment writes the experiment of a sweep into an event file at
// the root of dir, as hp.hparams_config does: the four hyperparameters with
// their domains and every scalar tag as a metric.
func writeExperiment(dir string, cfg config) (int64, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	disc := func(vs ...*structpb.Value) *eventpb.HParamInfo_DomainDiscrete {
		return &eventpb.HParamInfo_DomainDiscrete{DomainDiscrete: &structpb.ListValue{Values: vs}}
	}
	var batches, opts []*structpb.Value
	for _, b := range batchSizes {
		batches = append(batches, structpb.NewNumberValue(float64(b)))
	}
	for _, o := range optimizers {
		opts = append(opts, structpb.NewStringValue(o))
	}
	exp := &eventpb.Experiment{
		HparamInfos: []*eventpb.HParamInfo{
			{Name: "learning_rate", Type: eventpb.HParamInfo_TYPE_FLOAT64, Domain: &eventpb.HParamInfo_DomainInterval{DomainInterval: &eventpb.Interval{MinValue: 1e-4, MaxValue: 1e-1}}},
			{Name: "batch_size", Type: eventpb.HParamInfo_TYPE_FLOAT64, Domain: disc(batches...)},
			{Name: "optimizer", Type: eventpb.HParamInfo_TYPE_STRING, Domain: disc(opts...)},
			{Name: "dropout", Type: eventpb.HParamInfo_TYPE_FLOAT64, Domain: &eventpb.HParamInfo_DomainInterval{DomainInterval: &eventpb.Interval{MinValue: 0, MaxValue: 0.5}}},
		},
		TimeCreatedSecs: 1_700_000_000,
	}
	for _, name := range tagNames(cfg.tags) {
		exp.MetricInfos = append(exp.MetricInfos, &eventpb.MetricInfo{Name: &eventpb.MetricName{Tag: name}})
	}
	f, err := os.Create(filepath.Join(dir, "events.out.tfevents.1700000000.synth.experiment.v2"))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	w := tfrecord.NewWriter(bw)
	for _, ev := range []*eventpb.Event{
		{WallTime: 1_700_000_000, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}},
		{WallTime: 1_700_000_000, What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: []*eventpb.SummaryValue{
			hparamsValue("_hparams_/experiment", &eventpb.HParamsPluginData{Data: &eventpb.HParamsPluginData_Experiment{Experiment: exp}})}}}},
	} {
		b, err := proto.MarshalOptions{Deterministic: true}.Marshal(ev)
		if err != nil {
			return 0, err
		}
		if err := w.Write(b); err != nil {
			return 0, err
		}
	}
	if err := bw.Flush(); err != nil {
		return 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), f.Close()
}
