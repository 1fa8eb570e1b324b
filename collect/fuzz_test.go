package collect

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"google.golang.org/protobuf/proto"

	pb "github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
	"github.com/trainreport/trainreport/internal/testcorpus"
)

// fuzzFile turns a fuzz input into an event file. Raw inputs are the file
// itself. Framed inputs are events: a sequence of chunks, each a length
// byte and that many bytes, each chunk framed as one record with valid
// checksums, so that the fuzzer reaches event decoding.
func fuzzFile(in []byte, framed bool) []byte {
	if !framed {
		return in
	}
	var out []byte
	for len(in) > 0 {
		n := min(int(in[0]), len(in)-1)
		out = tfrecord.AppendRecord(out, in[1:1+n])
		in = in[1+n:]
	}
	return out
}

// chunks is the inverse of fuzzFile for framed inputs.
func chunks(t testing.TB, evs ...*pb.Event) []byte {
	var out []byte
	for _, ev := range evs {
		b, err := proto.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > math.MaxUint8 {
			t.Fatalf("seed event of %d bytes", len(b))
		}
		out = append(append(out, byte(len(b))), b...)
	}
	return out
}

// FuzzReadEvents runs Collect on one event file of arbitrary content: it
// must not panic or fail, must report the file, and must keep each series
// in increasing step order.
func FuzzReadEvents(f *testing.F) {
	seeds := [][]*pb.Event{
		cat([]*pb.Event{fileVersion()}, losses(1, 2, 3, 2)),
		{fileVersion(), summary(1, tensor("acc", 0.5, true)), summary(2, tensor("acc", 0.25, false))},
		cat(losses(1, 2, 3), []*pb.Event{sessionStart(2)}, losses(2)),
		{summary(1, withPlugin(tensor("h", 1, false), "histograms"), simple("x", float32(math.NaN())))},
		{summary(1, &pb.SummaryValue{NodeName: "n", Value: &pb.SummaryValue_SimpleValue{SimpleValue: 1}})},
	}
	for _, evs := range seeds {
		f.Add(eventFile(f, evs...), false)
		f.Add(chunks(f, evs...), true)
	}
	b := eventFile(f, losses(1, 2, 3)...)
	f.Add(b[:len(b)-3], false)
	f.Add([]byte{}, false)
	f.Add([]byte("version https://git-lfs.github.com/spec/v1\noid sha256:00\nsize 1\n"), false)
	f.Add([]byte{3, 0xff, 0xff, 0xff}, true)
	// Small real files, when the corpus is there.
	{
		corpus := testcorpus.Path()
		for _, p := range []string{
			"lightning-hparams-only/lightning_logs/version_0",
			"tf2-hparams-api-experiment/logs/hparam_tuning/run-0",
		} {
			ms, _ := filepath.Glob(filepath.Join(corpus, p, "*tfevents*"))
			for _, m := range ms {
				if data, err := os.ReadFile(m); err == nil && len(data) < 4<<10 {
					f.Add(data, false)
				}
			}
		}
	}

	f.Fuzz(func(t *testing.T, in []byte, framed bool) {
		data := fuzzFile(in, framed)
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, ev100), data, 0o644); err != nil {
			t.Fatal(err)
		}
		var reports [2]string
		for i, keepAll := range []bool{false, true} {
			rep, err := Collect(context.Background(), []model.Logdir{{Name: "f", Path: dir}}, Options{KeepAllRecords: keepAll})
			if err != nil {
				t.Fatalf("Collect: %v", err)
			}
			if len(rep.Runs) != 1 || len(rep.Runs[0].Files) != 1 {
				t.Fatalf("runs %v", runNames(rep))
			}
			r := rep.Runs[0]
			if st := r.Files[0].Status; !slices.Contains([]string{"ok", "empty", "truncated", "damaged", "lfs-pointer"}, st) {
				t.Fatalf("Status %q", st)
			}
			if len(r.Warnings) > maxWarningsPerFile+1 {
				t.Fatalf("%d warnings", len(r.Warnings))
			}
			for _, w := range r.Warnings {
				if w.File != ev100 || w.Offset < -1 || w.Offset >= max(int64(len(data)), 1) {
					t.Fatalf("warning %q outside the file of %d bytes", w, len(data))
				}
			}
			for _, s := range r.Scalars {
				for j := 1; !keepAll && j < len(s.Points); j++ {
					if s.Points[j].Step <= s.Points[j-1].Step {
						t.Fatalf("tag %q: step %d after %d under the restart rule", s.Tag, s.Points[j].Step, s.Points[j-1].Step)
					}
				}
			}
			reports[i] = dump(r)
		}
		// The wire-level fast path reads what the generated decoder reads
		// from every record the decoder takes whole. (A summary that breaks
		// off part way is reported by both, differently: the fast path has
		// read its values before the break.)
		full, err := Collect(context.Background(), []model.Logdir{{Name: "f", Path: dir}}, Options{fullDecode: true})
		if err != nil || len(full.Runs[0].Warnings) == 0 && dump(full.Runs[0]) != reports[0] {
			t.Fatalf("the fast path and the full decoder differ (%v):\n%s\n%s", err, reports[0], dump(full.Runs[0]))
		}
		// Reading again gives the same report.
		rep, err := Collect(context.Background(), []model.Logdir{{Name: "f", Path: dir}}, Options{})
		if err != nil || dump(rep.Runs[0]) != reports[0] {
			t.Fatalf("second read differs: %v", err)
		}
	})
}

// dump prints a run with its series, NaN included, for comparison.
func dump(r *model.Run) string {
	s := fmt.Sprintf("%+v %+v %v %d %d %v %v %d\n", r.Files, r.Warnings, r.HasEvents, r.FirstStep, r.LastStep, r.Start, r.End, r.Restarts)
	for _, sc := range r.Scalars {
		s += fmt.Sprintf("%+v\n", *sc)
	}
	return s
}

// hparamsBytes is what hyperparameters print to in a report: each name and
// its value's String.
func hparamsBytes(hps map[string]model.HParamValue) int {
	n := 0
	for name, v := range hps {
		n += len(name) + len(v.String())
	}
	return n
}

// maxYAMLOutput bounds what an hparams.yaml of n bytes flattens to
// (hparamsBytes). Aliases let a few bytes reach the whole budget, so the
// bound is the budget first: every byte of names and values is spent from
// maxYAMLBytes before it is produced, and prints in at most 4 (strconv.Quote
// escapes); each node adds at most 32 of its own (punctuation, a number
// printed in full, null); and each byte of the file in at most 4 more.
func maxYAMLOutput(n int) int { return 4*maxYAMLBytes + 32*maxYAMLNodes + 4*n }

// FuzzHParamsYAMLOutput parses arbitrary hparams.yaml files, aliases
// included, and checks the amplification property: what a file flattens
// to stays within maxYAMLOutput, however its aliases nest (a 10 KB billion
// laughs made 95 MB of names before the byte budget). Found inputs are
// kept under testdata/fuzz/FuzzHParamsYAMLOutput.
func FuzzHParamsYAMLOutput(f *testing.F) {
	f.Add(billionLaughs(50, 4, 3))
	f.Add(billionLaughs(2000, 10, 2))
	f.Add(billionLaughs(9500, 10, 4)) // 95 MB of names before the byte budget
	f.Add([]byte("base: &b {lr: 0.1, net: {depth: 3}}\nrun1: {<<: *b, seed: 1}\nrun2: *b\n? [*b, *b]\n: x\n"))
	f.Add([]byte("a: &a [1, 2, 3]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nd: [*c, *c, *c, {k: *c}]\n"))
	f.Add([]byte("s: &s !!python/tuple [\"\\x00\\x01\", 1e300]\nt: {x: *s, y: *s, ? *s : *s}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		hps, err := parseHParamsYAML(data)
		if err != nil {
			return
		}
		if len(hps) > maxYAMLEntries {
			t.Fatalf("%d hyperparameters", len(hps))
		}
		if n := hparamsBytes(hps); n > maxYAMLOutput(len(data)) {
			t.Fatalf("%d bytes flatten to %d (limit %d)", len(data), n, maxYAMLOutput(len(data)))
		}
	})
}
