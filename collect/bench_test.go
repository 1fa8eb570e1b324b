package collect

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"google.golang.org/protobuf/proto"

	pb "github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/mindspore/mspb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

// benchLogdir writes runs x tags x steps scalar points, one event per step
// holding every tag, half of the runs TF1 simple_value and half TF2 tensors.
func benchLogdir(b *testing.B, runs, tags, steps int) (string, int64) {
	b.Helper()
	dir := b.TempDir()
	var total int64
	for r := range runs {
		var buf bytes.Buffer
		w := tfrecord.NewWriter(&buf)
		for s := range steps {
			var vals []*pb.SummaryValue
			for t := range tags {
				tag := fmt.Sprintf("group%d/metric%d", t%3, t)
				if r%2 == 0 {
					vals = append(vals, simple(tag, float32(s)*0.001))
				} else {
					vals = append(vals, tensor(tag, float32(s)*0.001, s == 0))
				}
			}
			data, err := proto.Marshal(summary(int64(s), vals...))
			if err != nil {
				b.Fatal(err)
			}
			w.Write(data)
		}
		p := filepath.Join(dir, fmt.Sprintf("run%d", r), "events.out.tfevents.1.bench")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		total += int64(buf.Len())
	}
	return dir, total
}

// BenchmarkCollect reads 200,000 scalar points (8 runs x 10 tags x 2,500
// steps); points/s is the figure to compare.
func BenchmarkCollect(b *testing.B) {
	const runs, tags, steps = 8, 10, 2500
	dir, size := benchLogdir(b, runs, tags, steps)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Collect(context.Background(), []model.Logdir{{Name: "bench", Path: dir}}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(runs*tags*steps)*float64(b.N)/b.Elapsed().Seconds(), "points/s")
}

// BenchmarkCollectMindSpore reads 200,000 MindSpore scalar points (8 runs x
// 10 tags x 2,500 steps, one summary per step), the MindSpore counterpart
// of BenchmarkCollect: MindSpore records go through the generated decoder,
// with no fast path.
func BenchmarkCollectMindSpore(b *testing.B) {
	const runs, tags, steps = 8, 10, 2500
	dir := b.TempDir()
	var size int64
	for r := range runs {
		var buf bytes.Buffer
		w := tfrecord.NewWriter(&buf)
		for s := range steps {
			sum := &mspb.Summary{}
			for t := range tags {
				sum.Value = append(sum.Value, &mspb.SummaryValue{Tag: fmt.Sprintf("group%d/metric%d", t%3, t),
					Value: &mspb.SummaryValue_Scalar{Scalar: float32(s) * 0.001}})
			}
			data, err := proto.Marshal(&mspb.Event{WallTime: 1.7e9 + float64(s), Step: int64(s), What: &mspb.Event_Summary{Summary: sum}})
			if err != nil {
				b.Fatal(err)
			}
			w.Write(data)
		}
		p := filepath.Join(dir, fmt.Sprintf("run%d", r), "events.out.events.summary.1.0.bench_MS")
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		size += int64(buf.Len())
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Collect(context.Background(), []model.Logdir{{Name: "bench", Path: dir}}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(runs*tags*steps)*float64(b.N)/b.Elapsed().Seconds(), "points/s")
}

// discoverTree writes a sweep's worth of run directories, each holding
// what trainers leave beside their event files: the files discovery
// passes over (and the JSON and logs it sniffs for Visdom's) outnumber
// those it takes.
func discoverTree(b *testing.B, runs int) string {
	b.Helper()
	dir := b.TempDir()
	files := map[string]string{
		"events.out.tfevents.1700000000.host.1.v2": "x",
		"hparams.yaml":         "lr: 0.1\n",
		"model.ckpt-100.index": "x",
		"metrics.json":         `{"loss": 0.1}`,
		"train.log":            "epoch 1\n",
		"plugins/profile/2023_01_01/host.trace.json.gz": "x",
	}
	for r := range runs {
		for name, content := range files {
			p := filepath.Join(dir, fmt.Sprintf("trial%04d", r), filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return dir
}

// BenchmarkDiscover walks 2,000 run directories of 6 files each; files/s
// is the figure to compare: detection runs over every file of a sweep.
func BenchmarkDiscover(b *testing.B) {
	const runs = 2000
	src, err := logfs.Open(discoverTree(b, runs))
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	b.ReportAllocs()
	for b.Loop() {
		found, err := Detection().Discover(context.Background(), src, func(string, error) {})
		if err != nil || len(found) != runs {
			b.Fatalf("%d runs, %v", len(found), err)
		}
	}
	b.ReportMetric(float64(runs*6)*float64(b.N)/b.Elapsed().Seconds(), "files/s")
}
