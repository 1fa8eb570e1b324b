// Command synth writes a large synthetic log directory for measuring
// trainreport: runs x tags x steps scalar points, half of the runs as TF1
// simple_value events and half as TF2 rank-0 float32 tensors with the
// scalars plugin, one event per step holding every tag, as Keras and
// PyTorch loops write them. With -histogram-tags and -image-tags each run
// also gets TF1 HistogramProto histograms (30 buckets) every
// -histogram-every steps and small TF1 Summary.Image PNGs every
// -image-every steps and at the last step (a final sample, as training
// scripts log one, and the step cmd/benchpeers watches to see that
// TensorBoard has loaded a run), in the same event as that step's scalars,
// after them.
// With -sweep the runs are the trials of a hyperparameter sweep, as
// Keras' HParams dashboard example writes them: each trial directory
// (trial00000, ...) holds its session start (learning rate, batch size,
// optimizer, dropout, drawn per trial) and end (its status), its curves
// depend on its hyperparameters, about one trial in twenty diverges and one
// in twenty fails part-way (status FAILURE, fewer steps), and the root holds
// the experiment declaring the hyperparameters and the tags as metrics.
// The output is deterministic: the same flags give byte-identical files.
//
//	go run ./examples/synth -runs 8 -tags 10 -steps 12500 -o /tmp/big   # 1,000,000 points
//	go run ./examples/synth -sweep -runs 2000 -tags 5 -steps 1000 -o /tmp/sweep
//
// The benchmark log directory of `make bench` (cmd/benchpeers) is
//
//	go run ./examples/synth -runs 8 -tags 10 -steps 250000 -histogram-tags 2 -image-tags 1 -o DIR
//
// 20,000,000 scalar points, 40,000 histograms and 2,008 images in about
// 640 MB; `make bench BENCH_STEPS=25000` uses a tenth of it.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

// histBuckets is the number of buckets of every histogram.
const histBuckets = 30

type config struct {
	tags, steps       int
	histTags, imgTags int
	histEvery         int
	imgEvery          int
	imgSize           int
	sweep             bool
	runs              int
}

func main() {
	runs := flag.Int("runs", 8, "number of runs")
	tags := flag.Int("tags", 10, "scalar tags per run")
	steps := flag.Int("steps", 12500, "steps per tag")
	histTags := flag.Int("histogram-tags", 0, "histogram tags per run (TF1 HistogramProto, 30 buckets)")
	histEvery := flag.Int("histogram-every", 100, "write the histograms every `N` steps")
	imgTags := flag.Int("image-tags", 0, "image tags per run (TF1 Summary.Image, PNG)")
	imgEvery := flag.Int("image-every", 1000, "write the images every `N` steps and at the last step")
	imgSize := flag.Int("image-size", 16, "images are `N` x N pixels")
	sweep := flag.Bool("sweep", false, "write the runs as the trials of a hyperparameter sweep (hparams sessions, curves that depend on them)")
	out := flag.String("o", "", "output `DIR` (must not exist)")
	flag.Parse()
	if *out == "" {
		log.Fatal("synth: -o DIR is required")
	}
	if *runs < 0 || *tags < 0 || *steps < 0 || *histTags < 0 || *imgTags < 0 ||
		*histEvery < 1 || *imgEvery < 1 || *imgSize < 1 || *imgSize > 4096 {
		log.Fatal("synth: counts must be >= 0, intervals and -image-size >= 1 (and the size at most 4096)")
	}
	if _, err := os.Stat(*out); err == nil {
		log.Fatalf("synth: %s exists", *out)
	}
	cfg := config{tags: *tags, steps: *steps, histTags: *histTags, imgTags: *imgTags,
		histEvery: *histEvery, imgEvery: *imgEvery, imgSize: *imgSize, sweep: *sweep, runs: *runs}
	var bytes int64
	if cfg.sweep {
		n, err := writeExperiment(*out, cfg)
		if err != nil {
			log.Fatalf("synth: %v", err)
		}
		bytes += n
	}
	for r := range *runs {
		n, err := writeRun(filepath.Join(*out, runName(r, cfg)), r, cfg)
		if err != nil {
			log.Fatalf("synth: %v", err)
		}
		bytes += n
	}
	points := 0
	for r := range *runs {
		points += cfg.tags * trialOf(r, cfg).steps
	}
	fmt.Printf("wrote %d runs x %d tags x %d steps = %d points", *runs, *tags, *steps, points)
	if *histTags > 0 {
		fmt.Printf(", %d histograms", *runs**histTags*everyCount(*steps, *histEvery))
	}
	if *imgTags > 0 {
		fmt.Printf(", %d images", *runs**imgTags*imageCount(*steps, *imgEvery))
	}
	fmt.Printf(", %.1f MB\n", float64(bytes)/1e6)
}

// everyCount is how many of the steps 0..steps-1 are multiples of every.
func everyCount(steps, every int) int {
	if steps <= 0 {
		return 0
	}
	return (steps-1)/every + 1
}

// imageCount is how many steps get images: the multiples of every and the
// last step.
func imageCount(steps, every int) int {
	n := everyCount(steps, every)
	if steps > 0 && (steps-1)%every != 0 {
		n++
	}
	return n
}

func writeRun(dir string, run int, cfg config) (int64, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("events.out.tfevents.%d.synth.%d.0.v2", 1_700_000_000+run, run)))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	bw := bufio.NewWriterSize(f, 1<<20)
	w := tfrecord.NewWriter(bw)
	rng := rand.New(rand.NewPCG(uint64(run), 42))
	// The histograms and images draw from their own generator, so that the
	// scalar values do not depend on -histogram-tags and -image-tags.
	extra := rand.New(rand.NewPCG(uint64(run), 43))
	tf2 := run%2 == 1
	ev := &eventpb.Event{WallTime: 1_700_000_000 + float64(run), What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}}
	var buf []byte
	write := func() error {
		buf, err = proto.MarshalOptions{Deterministic: true}.MarshalAppend(buf[:0], ev)
		if err != nil {
			return err
		}
		return w.Write(buf)
	}
	if err := write(); err != nil {
		return 0, err
	}
	names := tagNames(cfg.tags)
	tr := trialOf(run, cfg)
	if cfg.sweep {
		ev = &eventpb.Event{WallTime: 1_700_000_000 + float64(run), What: &eventpb.Event_Summary{Summary: &eventpb.Summary{
			Value: []*eventpb.SummaryValue{hparamsValue("_hparams_/session_start_info", &eventpb.HParamsPluginData{
				Data: &eventpb.HParamsPluginData_SessionStartInfo{SessionStartInfo: &eventpb.SessionStartInfo{
					Hparams: tr.hparams(), StartTimeSecs: 1_700_000_000 + float64(run)}}})}}}}
		if err := write(); err != nil {
			return 0, err
		}
	}
	histNames := make([]string, cfg.histTags)
	for h := range histNames {
		histNames[h] = fmt.Sprintf("weights/layer%d", h)
	}
	imgNames := make([]string, cfg.imgTags)
	for i := range imgNames {
		imgNames[i] = fmt.Sprintf("samples/image%d", i)
	}
	steps := cfg.steps
	for s := range tr.steps {
		sum := &eventpb.Summary{}
		for t := range cfg.tags {
			v := float32(tr.value(t, s, steps, rng))
			val := &eventpb.SummaryValue{Tag: names[t]}
			if tf2 {
				var b [4]byte
				binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
				val.Value = &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_FLOAT,
					TensorShape: &eventpb.TensorShapeProto{}, TensorContent: b[:]}}
				if s == 0 {
					val.Metadata = &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "scalars"}}
				}
			} else {
				val.Value = &eventpb.SummaryValue_SimpleValue{SimpleValue: v}
			}
			sum.Value = append(sum.Value, val)
		}
		if s%cfg.histEvery == 0 {
			for h, name := range histNames {
				sum.Value = append(sum.Value, &eventpb.SummaryValue{Tag: name,
					Value: &eventpb.SummaryValue_Histo{Histo: histogram(extra, h, float64(s)/float64(max(steps, 1)))}})
			}
		}
		if s%cfg.imgEvery == 0 || s == steps-1 {
			for i, name := range imgNames {
				img, err := pngImage(cfg.imgSize, run, i, s)
				if err != nil {
					return 0, err
				}
				sum.Value = append(sum.Value, &eventpb.SummaryValue{Tag: name, Value: &eventpb.SummaryValue_Image{Image: img}})
			}
		}
		ev = &eventpb.Event{WallTime: 1_700_000_000 + float64(run) + float64(s)*0.1, Step: int64(s), What: &eventpb.Event_Summary{Summary: sum}}
		if err := write(); err != nil {
			return 0, err
		}
	}
	if cfg.sweep {
		end := 1_700_000_000 + float64(run) + float64(tr.steps)*0.1
		ev = &eventpb.Event{WallTime: end, Step: int64(max(tr.steps-1, 0)), What: &eventpb.Event_Summary{Summary: &eventpb.Summary{
			Value: []*eventpb.SummaryValue{hparamsValue("_hparams_/session_end_info", &eventpb.HParamsPluginData{
				Data: &eventpb.HParamsPluginData_SessionEndInfo{SessionEndInfo: &eventpb.SessionEndInfo{
					Status: tr.status, EndTimeSecs: end}}})}}}}
		if err := write(); err != nil {
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

// histogram returns a TF1 histogram of 1000 draws from a normal
// distribution whose spread narrows as training progresses (progress in
// [0, 1]), binned as tf.summary.histogram does: bucket_limit holds each
// bucket's right edge, the last one DBL_MAX.
func histogram(rng *rand.Rand, tag int, progress float64) *eventpb.HistogramProto {
	const n = 1000
	mean := 0.1 * float64(tag)
	sd := 1.0 - 0.7*progress
	h := &eventpb.HistogramProto{Min: math.Inf(1), Max: math.Inf(-1), Num: n,
		BucketLimit: make([]float64, histBuckets), Bucket: make([]float64, histBuckets)}
	lo, width := -3.0, 6.0/float64(histBuckets-1)
	for b := range histBuckets - 1 {
		h.BucketLimit[b] = lo + width*float64(b+1)
	}
	h.BucketLimit[histBuckets-1] = math.MaxFloat64
	for range n {
		x := mean + sd*rng.NormFloat64()
		h.Min, h.Max = min(h.Min, x), max(h.Max, x)
		h.Sum += x
		h.SumSquares += x * x
		b := 0
		for b < histBuckets-1 && x >= h.BucketLimit[b] {
			b++
		}
		h.Bucket[b]++
	}
	return h
}

// pngImage draws a size x size RGB gradient that changes with the run, the
// tag and the step.
func pngImage(size, run, tag, step int) (*eventpb.Image, error) {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			img.Set(x, y, color.RGBA{uint8(x*255/size + step/1000), uint8(y*255/size + 40*run), uint8(60 * tag), 255})
		}
	}
	var b bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&b, img); err != nil {
		return nil, err
	}
	return &eventpb.Image{Height: int32(size), Width: int32(size), Colorspace: 3, EncodedImageString: b.Bytes()}, nil
}
