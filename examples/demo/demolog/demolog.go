// Package demolog writes a small, deterministic TensorBoard log directory
// that looks like a real experiment, so that a report built from it shows
// what trainreport does. The program examples/demo wraps it, and tests
// import it to build reports from realistic logs:
//
//	if err := demolog.Write(dir); err != nil { ... }
//
// The log directory holds a learning-rate sweep of two jobs and a baseline:
//
//	lr=0.01/train        TF2 encoding (float32 tensor_content, plugin "scalars"
//	lr=0.01/validation   metadata on the first value of each tag in each file);
//	                     optim/learning_rate as a DT_DOUBLE double_val tensor.
//	                     The job crashes after step 3000 and resumes from the
//	                     checkpoint of step 2000 in a second process: a second
//	                     pair of files rewrites steps 2000..5000 (the train file
//	                     announces it with a SessionLog START at step 2000; the
//	                     validation file just repeats steps). One NaN grad_norm.
//	                     Each job's train run records its hparams session
//	                     (hparams.go) and, at the start of the first
//	                     process, the model graph (graph.go).
//	lr=0.003/train       TF1/PyTorch encoding (simple_value), 5000 steps.
//	lr=0.003/validation
//	lr=0.003/eval        text (configuration, sample predictions as a table),
//	                     PR curves of two classes, and numeric tensors no
//	                     plugin claims (confusion matrix, a bool mask,
//	                     attention weights with one NaN and +Inf step):
//	                     text.go, prcurves.go, tensors.go; and an
//	                     embedding projector of 100 test images with
//	                     metadata and a sprite (projector.go).
//	baseline             simple_value, 20,000 steps with metrics/loss at every
//	                     step (work for the drawing downsampler), a step-decay
//	                     learning rate, and one +Inf grad_norm; a
//	                     custom-scalars layout, as tensorboardX writes one
//	                     (graph.go).
//	samples              images (PNG, a batch, an animated GIF) and audio
//	                     clips with Markdown labels (media.go).
//
// Every run logs metrics/loss, metrics/accuracy and (train runs only)
// optim/learning_rate, optim/grad_norm and epoch, a tag without a group.
//
// baseline and lr=0.003/train also log weight and activation histograms
// (histograms.go).
//
// The output is the same bytes on every run: values come from math/rand/v2
// PCG sources with fixed seeds, and wall times are offsets from a fixed base
// time rather than the clock. Write never removes anything; files of the
// same names are overwritten.
package demolog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

const (
	// BaseWallTime is the wall time (seconds since the Unix epoch) every
	// event's time is an offset from: 2023-11-14 22:13:20 UTC.
	BaseWallTime = 1_700_000_000
	// hostname goes into event file names, as TensorBoard writers put it.
	hostname = "demo-host"
	// seed is the first word of every PCG seed; the second is a hash of the
	// job's name, so each job draws its own stream and editing one job
	// leaves the others' values alone.
	seed = 20231114
)

// Stats counts what Generate wrote.
type Stats struct {
	Runs   map[string]bool // the run directories, slash-separated
	Files  int             // event files
	Events int             // records, file_version and session_log included
	Points int             // scalar values
	Bytes  int64           // bytes of every event file
}

// Write writes the whole demo log directory into dir, creating it if
// needed.
func Write(dir string) error {
	_, err := Generate(dir)
	return err
}

// Generate is Write, and also says what it wrote.
func Generate(dir string) (*Stats, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	g := &generator{dir: dir, st: &Stats{Runs: map[string]bool{}}}
	if err := g.baseline(); err != nil {
		return nil, err
	}
	for _, j := range sweep() {
		if err := g.trainJob(j); err != nil {
			return nil, err
		}
	}
	if err := errors.Join(g.histograms(), g.media(), g.text(), g.tensors(), g.projector()); err != nil {
		return nil, err
	}
	return g.st, nil
}

// generator creates the event files of the log directory.
type generator struct {
	dir string
	st  *Stats
}

// newRNG returns the random source of one job: a PCG seeded from the fixed
// seed and the job's name.
func newRNG(name string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(name))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// ---------------------------------------------------------------------------
// Event files

// encoding is how a file stores scalar values (docs/FORMATS.md section 5).
type encoding int

const (
	// simpleValue is Summary.Value.simple_value, a float32, with no
	// metadata: TF1, PyTorch, tensorboardX.
	simpleValue encoding = iota
	// tensorContent is a rank-0 DT_FLOAT tensor holding 4 little-endian
	// bytes in tensor_content, with plugin "scalars" metadata on the first
	// value of each tag in the file only: TF2's tf.summary.scalar.
	tensorContent
)

// descriptions are the summary descriptions TF2 runs attach to a tag's
// first value, as tf.summary.scalar(..., description=...) does.
var descriptions = map[string]string{
	"metrics/loss":        "Cross-entropy loss, averaged over the batch (train) or the validation set.",
	"metrics/accuracy":    "Top-1 accuracy.",
	"optim/learning_rate": "Learning rate: linear warm-up over 250 steps, then cosine decay.",
	"optim/grad_norm":     "Global L2 norm of the gradients before clipping.",
}

// eventFile is one event file being written. Errors are sticky: the first
// one stops further writes and is returned by close.
type eventFile struct {
	path string
	f    *os.File
	bw   *bufio.Writer
	w    *tfrecord.Writer
	enc  encoding
	// doubles are tags written as rank-0 DT_DOUBLE tensors with the value in
	// double_val (in tensorContent files).
	doubles map[string]bool
	// described holds the tags whose metadata this file already carries.
	described map[string]bool
	buf       []byte
	st        *Stats
	err       error
}

// create starts an event file of run, named as TensorBoard's writers name
// them, with the file_version record every such file begins with. wall is
// the time the writer was created; n is the writer's number within its
// process.
func (g *generator) create(run string, wall float64, pid, n int, enc encoding) (*eventFile, error) {
	dir := filepath.Join(g.dir, filepath.FromSlash(run))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("events.out.tfevents.%d.%s.%d.%d.v2", int64(wall), hostname, pid, n)
	p := filepath.Join(dir, name)
	f, err := os.Create(p)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	ef := &eventFile{path: p, f: f, bw: bw, w: tfrecord.NewWriter(bw), enc: enc,
		doubles: map[string]bool{}, described: map[string]bool{}, st: g.st}
	g.st.Runs[run] = true
	g.st.Files++
	ef.write(&eventpb.Event{WallTime: wall, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}})
	return ef, ef.err
}

// marshal is deterministic so that the output is the same bytes every time.
var marshal = proto.MarshalOptions{Deterministic: true}

func (ef *eventFile) write(ev *eventpb.Event) {
	if ef.err != nil {
		return
	}
	ef.buf, ef.err = marshal.MarshalAppend(ef.buf[:0], ev)
	if ef.err == nil {
		ef.err = ef.w.Write(ef.buf)
	}
	ef.st.Events++
}

// sessionStart writes the SessionLog START a writer resumed from the
// checkpoint of step writes: readers drop every point of the run at or
// after that step.
func (ef *eventFile) sessionStart(step int64, wall float64, checkpoint string) {
	ef.write(&eventpb.Event{WallTime: wall, Step: step, What: &eventpb.Event_SessionLog{
		SessionLog: &eventpb.SessionLog{Status: eventpb.SessionLog_START, CheckpointPath: checkpoint},
	}})
}

// scalar writes one value of tag as an event of its own, as TF2 and
// PyTorch do, in the file's encoding.
func (ef *eventFile) scalar(step int64, wall float64, tag string, v float64) {
	sv := &eventpb.SummaryValue{Tag: tag}
	switch {
	case ef.enc == simpleValue:
		sv.Value = &eventpb.SummaryValue_SimpleValue{SimpleValue: float32(v)}
	case ef.doubles[tag]:
		sv.Value = &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{
			Dtype:       eventpb.DataType_DT_DOUBLE,
			TensorShape: &eventpb.TensorShapeProto{}, // rank 0
			DoubleVal:   []float64{v},
		}}
	default:
		sv.Value = &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{
			Dtype:         eventpb.DataType_DT_FLOAT,
			TensorShape:   &eventpb.TensorShapeProto{}, // rank 0
			TensorContent: binary.LittleEndian.AppendUint32(nil, math.Float32bits(float32(v))),
		}}
	}
	if ef.enc == tensorContent && !ef.described[tag] {
		// Only the first value of a tag in a file carries its metadata;
		// readers remember it for the rest (docs/FORMATS.md section 3).
		ef.described[tag] = true
		sv.Metadata = &eventpb.SummaryMetadata{
			PluginData:         &eventpb.PluginData{PluginName: "scalars"},
			SummaryDescription: descriptions[tag],
			DataClass:          eventpb.SummaryMetadata_DATA_CLASS_SCALAR,
		}
	}
	ef.st.Points++
	ef.write(&eventpb.Event{WallTime: wall, Step: step,
		What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: []*eventpb.SummaryValue{sv}}}})
}

func (ef *eventFile) close() error {
	if ef == nil {
		return nil
	}
	err := ef.err
	if e := ef.bw.Flush(); err == nil {
		err = e
	}
	if e := ef.f.Close(); err == nil {
		err = e
	}
	if info, e := os.Stat(ef.path); e == nil {
		ef.st.Bytes += info.Size()
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", ef.path, err)
	}
	return nil
}

// ---------------------------------------------------------------------------
// The learning-rate sweep

// job is one training job of the sweep: a process writing a train run and a
// validation run side by side, and a second process when it crashes and
// resumes from a checkpoint.
type job struct {
	prefix     string  // run directory prefix, such as "lr=0.01"
	peakLR     float64 // learning rate after warm-up
	enc        encoding
	doubleLR   bool    // optim/learning_rate as a DT_DOUBLE tensor
	start      float64 // wall time the first process starts
	pid        int
	steps      int64   // last training step
	secPerStep float64 // mean seconds per training step
	nanStep    int64   // step whose grad_norm is NaN, or -1

	// Crash and restart: the first process dies after step crashAfter, and
	// after downtime seconds a process restartPID resumes from the
	// checkpoint of step resumeFrom. crashAfter 0 means no crash.
	crashAfter, resumeFrom int64
	restartPID             int
	downtime               float64

	c curve
}

// curve shapes a job's metrics.
type curve struct {
	lossFloor, lossTau float64 // train loss decays from ln(10) to lossFloor
	accMax             float64 // train accuracy rises from 0.1 towards accMax
	overfit            float64 // validation loss gained by the last step
	noise              float64 // relative batch-to-batch noise of the train loss
	grad               float64 // typical gradient norm early in training
	spikes             float64 // probability of a gradient spike at a logged step
}

const (
	trainEvery = 10  // train metrics every 10 steps
	valEvery   = 100 // validation every 100 steps
	epochSteps = 500 // steps per epoch
	warmup     = 250 // warm-up steps of the learning-rate schedule
)

// sweep returns the two jobs of the learning-rate sweep.
func sweep() []job {
	return []job{
		{
			prefix: "lr=0.01", peakLR: 0.01, enc: tensorContent, doubleLR: true,
			start: BaseWallTime + 3*3600, pid: 31337, steps: 5000, secPerStep: 0.31,
			nanStep:    3710, // a blow-up the high learning rate survives
			crashAfter: 3000, resumeFrom: 2000, restartPID: 31502, downtime: 7 * 60,
			c: curve{lossFloor: 0.34, lossTau: 550, accMax: 0.905, overfit: 0.22,
				noise: 0.09, grad: 4.0, spikes: 0.02},
		},
		{
			prefix: "lr=0.003", peakLR: 0.003, enc: simpleValue,
			start: BaseWallTime + 3*3600 + 95, pid: 40112, steps: 5000, secPerStep: 0.33,
			nanStep: -1,
			c: curve{lossFloor: 0.27, lossTau: 1400, accMax: 0.93, overfit: 0.05,
				noise: 0.06, grad: 2.5, spikes: 0.008},
		},
	}
}

// lr is the sweep's schedule: linear warm-up, then cosine decay to 1% of the
// peak at the last step.
func (j *job) lr(step int64) float64 {
	if step < warmup {
		return j.peakLR * float64(step+1) / warmup
	}
	t := float64(step-warmup) / float64(j.steps-warmup)
	return j.peakLR * (0.01 + 0.99*0.5*(1+math.Cos(math.Pi*t)))
}

// trainLoss is the expected train loss at step (10 classes: it starts at
// ln 10).
func (c *curve) trainLoss(step int64) float64 {
	return c.lossFloor + (math.Ln10-c.lossFloor)*math.Exp(-float64(step)/c.lossTau)
}

// trainAcc is the expected train accuracy at step.
func (c *curve) trainAcc(step int64) float64 {
	return 0.1 + (c.accMax-0.1)*(1-math.Exp(-float64(step)/(1.2*c.lossTau)))
}

// overfitAt is how far validation loss has drifted above train loss: it
// grows after step 2500.
func (c *curve) overfitAt(step int64) float64 {
	return c.overfit * math.Max(0, float64(step-2500)/2500)
}

// segment is the part of a job one process runs.
type segment struct {
	pid      int
	from, to int64 // first and last step
	resumed  bool  // resumed from the checkpoint of step from
}

// trainJob writes the train and validation runs of j.
func (g *generator) trainJob(j job) error {
	rng := newRNG(j.prefix)
	segs := []segment{{pid: j.pid, from: 0, to: j.steps}}
	if j.crashAfter > 0 {
		segs[0].to = j.crashAfter
		segs = append(segs, segment{pid: j.restartPID, from: j.resumeFrom, to: j.steps, resumed: true})
	}
	wall := j.start
	for i, s := range segs {
		if i > 0 {
			// The process dies a little after its last logged step; the
			// scheduler restarts it after the downtime.
			wall += 23.7 + j.downtime
		}
		if err := g.segment(&j, s, rng, &wall); err != nil {
			return err
		}
	}
	return nil
}

// segment writes what one process of job j logs, advancing *wall.
func (g *generator) segment(j *job, s segment, rng *rand.Rand, wall *float64) (err error) {
	train, err := g.create(j.prefix+"/train", *wall, s.pid, 0, j.enc)
	defer func() { err = errors.Join(err, train.close()) }()
	if err != nil {
		return err
	}
	if j.doubleLR {
		train.doubles["optim/learning_rate"] = true
	}
	if s.resumed {
		train.sessionStart(s.from, *wall+1.5, fmt.Sprintf("checkpoints/%s/ckpt-%d", j.prefix, s.from))
	} else {
		train.hparamsStart(j, round6(*wall+1))
		train.graph(round6(*wall + 2))
	}
	var val *eventFile // created at the first validation, as Keras does
	defer func() { err = errors.Join(err, val.close()) }()

	*wall += 12 + 6*rng.Float64() // start-up: building the model, loading data
	c := &j.c
	for step := s.from; step <= s.to; step++ {
		*wall += j.secPerStep * (0.85 + 0.3*rng.Float64())
		if step%trainEvery == 0 {
			t := round6(*wall)
			loss := c.trainLoss(step) * math.Exp(c.noise*rng.NormFloat64())
			acc := clamp(c.trainAcc(step)+0.02*rng.NormFloat64(), 0, 1)
			grad := c.grad * (0.25 + 0.75*math.Exp(-float64(step)/1500)) * math.Exp(0.3*rng.NormFloat64())
			if rng.Float64() < c.spikes {
				grad *= 3 + 8*rng.Float64()
			}
			if step == j.nanStep {
				grad = math.NaN()
			}
			train.scalar(step, t, "metrics/loss", loss)
			train.scalar(step, t, "metrics/accuracy", acc)
			train.scalar(step, t, "optim/learning_rate", j.lr(step))
			train.scalar(step, t, "optim/grad_norm", grad)
		}
		if step > 0 && step%epochSteps == 0 {
			train.scalar(step, round6(*wall), "epoch", float64(step/epochSteps))
		}
		if step > 0 && step%valEvery == 0 {
			*wall += 9 + 2*rng.Float64() // a pass over the validation set
			if val == nil {
				if val, err = g.create(j.prefix+"/validation", *wall, s.pid, 1, j.enc); err != nil {
					return err
				}
			}
			t := round6(*wall)
			loss := (c.trainLoss(step) + 0.04 + c.overfitAt(step)) * math.Exp(0.015*rng.NormFloat64())
			acc := clamp(c.trainAcc(step)-0.015-0.25*c.overfitAt(step)+0.004*rng.NormFloat64(), 0, 1)
			val.scalar(step, t, "metrics/loss", loss)
			val.scalar(step, t, "metrics/accuracy", acc)
		}
	}
	if s.to == j.steps {
		train.hparamsEnd(round6(*wall + 2))
	}
	return nil
}

// ---------------------------------------------------------------------------
// The baseline

// baseline writes the baseline run: a PyTorch-style job (simple_value, one
// event per value) of 20,000 steps that logs the batch loss at every step,
// with a step-decay learning rate and one +Inf gradient norm.
func (g *generator) baseline() (err error) {
	const (
		steps   = 20_000
		infStep = 13_370 // an overflowing gradient
	)
	rng := newRNG("baseline")
	wall := float64(BaseWallTime)
	f, err := g.create("baseline", wall, 27182, 0, simpleValue)
	defer func() { err = errors.Join(err, f.close()) }()
	if err != nil {
		return err
	}
	f.layout(wall)
	lr := func(step int64) float64 { // ×0.1 at steps 10,000 and 15,000
		switch {
		case step < 10_000:
			return 1e-3
		case step < 15_000:
			return 1e-4
		}
		return 1e-5
	}
	// Each decay of the learning rate buys a quick further drop of the loss.
	sigmoid := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	lossAt := func(step int64) float64 {
		s := float64(step)
		return 0.62 + 1.68*math.Exp(-s/2600) -
			0.11*sigmoid((s-10_150)/120) - 0.04*sigmoid((s-15_150)/120)
	}
	wall += 8.2
	for step := int64(0); step <= steps; step++ {
		wall += 0.045 * (0.8 + 0.4*rng.Float64())
		t := round6(wall)
		// The loss of a single batch: noisy, less so once the learning rate
		// has dropped.
		noise := 0.14
		if step >= 10_000 {
			noise = 0.10
		}
		f.scalar(step, t, "metrics/loss", lossAt(step)*math.Exp(noise*rng.NormFloat64()))
		if step%10 == 0 {
			grad := 1.8 * (0.3 + 0.7*math.Exp(-float64(step)/4000)) * math.Exp(0.35*rng.NormFloat64())
			if rng.Float64() < 0.01 {
				grad *= 4 + 10*rng.Float64()
			}
			if step == infStep {
				grad = math.Inf(1)
			}
			f.scalar(step, t, "optim/grad_norm", grad)
		}
		if step%50 == 0 {
			s := float64(step)
			acc := 0.1 + 0.72*(1-math.Exp(-s/3000)) +
				0.05*sigmoid((s-10_150)/120) + 0.02*sigmoid((s-15_150)/120)
			f.scalar(step, t, "metrics/accuracy", clamp(acc+0.025*rng.NormFloat64(), 0, 1))
			f.scalar(step, t, "optim/learning_rate", lr(step))
		}
		if step > 0 && step%1000 == 0 {
			f.scalar(step, t, "epoch", float64(step/1000))
		}
	}
	return nil
}

// ---------------------------------------------------------------------------

func clamp(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// round6 rounds a wall time to microseconds, as time.time() reports it.
func round6(t float64) float64 { return math.Round(t*1e6) / 1e6 }
