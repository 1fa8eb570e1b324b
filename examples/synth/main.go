// Command synth writes a large synthetic log directory for measuring
// trainreport: runs x tags x steps scalar points, half of the runs as TF1
// simple_value events and half as TF2 rank-0 float32 tensors with the
// scalars plugin, one event per step holding every tag, as Keras and
// PyTorch loops write them. The output is deterministic.
//
//	go run ./examples/synth -runs 8 -tags 10 -steps 12500 -o /tmp/big   # 1,000,000 points
package main

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

func main() {
	runs := flag.Int("runs", 8, "number of runs")
	tags := flag.Int("tags", 10, "scalar tags per run")
	steps := flag.Int("steps", 12500, "steps per tag")
	out := flag.String("o", "", "output `DIR` (must not exist)")
	flag.Parse()
	if *out == "" {
		log.Fatal("synth: -o DIR is required")
	}
	if _, err := os.Stat(*out); err == nil {
		log.Fatalf("synth: %s exists", *out)
	}
	var bytes int64
	for r := range *runs {
		n, err := writeRun(filepath.Join(*out, fmt.Sprintf("run%02d", r)), r, *tags, *steps)
		if err != nil {
			log.Fatalf("synth: %v", err)
		}
		bytes += n
	}
	fmt.Printf("wrote %d runs x %d tags x %d steps = %d points, %.1f MB\n",
		*runs, *tags, *steps, *runs**tags**steps, float64(bytes)/1e6)
}

func writeRun(dir string, run, tags, steps int) (int64, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("events.out.tfevents.%d.synth.%d.0.v2", 1_700_000_000+run, run)))
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	w := tfrecord.NewWriter(bw)
	rng := rand.New(rand.NewPCG(uint64(run), 42))
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
	names := make([]string, tags)
	for t := range names {
		names[t] = fmt.Sprintf("group%d/metric%02d", t%3, t)
	}
	for s := range steps {
		sum := &eventpb.Summary{}
		for t := range tags {
			v := float32(math.Exp(-float64(s)/float64(steps)*3)*(1+float64(t)) + rng.NormFloat64()*0.05)
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
		ev = &eventpb.Event{WallTime: 1_700_000_000 + float64(run) + float64(s)*0.1, Step: int64(s), What: &eventpb.Event_Summary{Summary: sum}}
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
