package model

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// runBytes is a run's encoding, to compare runs field for field, NaN
// payloads and -0 included.
func runBytes(t *testing.T, run *Run) []byte {
	t.Helper()
	var b bytes.Buffer
	mw := NewWriter(&b)
	if err := mw.WriteRun(run); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(&Report{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRunReaderYieldsWhatReadReads(t *testing.T) {
	rep := sample(memSource{})
	second := sample(memSource{}).Runs[0]
	second.Name, second.Path = "run_10", "run_10"
	second.HParams.Sessions[0].Metrics["loss"] = MetricValue{Run: "run_10"}
	rep.Runs = append(rep.Runs, second)
	var b bytes.Buffer
	if err := Write(&b, rep); err != nil {
		t.Fatal(err)
	}
	whole, err := Read(bytes.NewReader(b.Bytes()), nil)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := NewRunReader(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		run, err := rr.Next()
		if err != nil {
			t.Fatal(err)
		}
		if run == nil {
			if i != len(whole.Runs) {
				t.Fatalf("the reader gave %d runs, Read %d", i, len(whole.Runs))
			}
			break
		}
		if i >= len(whole.Runs) || !bytes.Equal(runBytes(t, run), runBytes(t, whole.Runs[i])) {
			t.Fatalf("run %d (%q) is not Read's", i, run.Name)
		}
	}
	end, err := rr.End()
	if err != nil {
		t.Fatal(err)
	}
	end.Runs = whole.Runs
	var again bytes.Buffer
	if err := Write(&again, end); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), b.Bytes()) {
		t.Error("the runs and what follows them, written again, are not the model read")
	}
}

func TestRunReaderRefusesRunsOutOfOrderAndTrailingBytes(t *testing.T) {
	a, z := sample(memSource{}).Runs[0], sample(memSource{}).Runs[0]
	a.Name, z.Name = "a", "z"
	var b bytes.Buffer
	mw := NewWriter(&b)
	if err := mw.WriteRun(z); err != nil {
		t.Fatal(err)
	}
	mw.started = false // a forger's writer: no order kept
	if err := mw.WriteRun(a); err != nil {
		t.Fatal(err)
	}
	if err := mw.Close(&Report{}); err != nil {
		t.Fatal(err)
	}
	rr, err := NewRunReader(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rr.Next(); err != nil {
		t.Fatal(err)
	}
	if _, err := rr.Next(); err == nil || !strings.Contains(err.Error(), `"a" after "z": out of order`) {
		t.Errorf("a run out of order: %v", err)
	}
	if _, err := rr.Next(); err == nil {
		t.Error("the reader went on after an error")
	}

	b.Reset()
	if err := Write(&b, &Report{}); err != nil {
		t.Fatal(err)
	}
	b.WriteByte(7)
	rr, err = NewRunReader(&b)
	if err != nil {
		t.Fatal(err)
	}
	if run, err := rr.Next(); run != nil || err != nil {
		t.Fatalf("an empty model's first run: %v, %v", run, err)
	}
	if _, err := rr.End(); err == nil || !strings.Contains(err.Error(), "bytes after the report") {
		t.Errorf("a byte after the report: %v", err)
	}
}

// stream hands out runs one at a time, counting how many it gave.
func stream(runs []*Run, given *int) func() (*Run, error) {
	return func() (*Run, error) {
		if len(runs) == 0 {
			return nil, nil
		}
		r := runs[0]
		runs = runs[1:]
		*given++
		return r, nil
	}
}

func TestRunMergerGivesMergesOrderHoldingARunPerStream(t *testing.T) {
	// Names whose natural order is not their byte order, spread over
	// shards at random as a shard's hash spreads them.
	var names []string
	for i := range 60 {
		names = append(names, fmt.Sprintf("sweep/trial_%d", i), fmt.Sprintf("sweep/trial_%d/eval", i), fmt.Sprintf("a%03d", i))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, k := range []int{1, 3, 8, 200} {
		shards := make([]*Report, k)
		for i := range shards {
			shards[i] = &Report{Logdirs: []Logdir{{Name: "logs", Path: "/logs"}}}
		}
		for _, n := range names {
			s := shards[rng.IntN(k)]
			s.Runs = append(s.Runs, &Run{Name: n, Logdir: "logs", Path: n})
		}
		next := make([]func() (*Run, error), k)
		given := make([]int, k)
		for i, s := range shards {
			slices.SortFunc(s.Runs, func(a, b *Run) int { return CompareRunNames(a.Name, b.Name) })
			next[i] = stream(slices.Clone(s.Runs), &given[i])
		}
		m := NewRunMerger(next...)
		var got []string
		for {
			run, from, err := m.Next()
			if err != nil {
				t.Fatal(err)
			}
			if run == nil {
				break
			}
			if !slices.Contains(shards[from].Runs, run) {
				t.Fatalf("%d shards: run %q said to come from shard %d", k, run.Name, from)
			}
			// At most one run read ahead per stream: the one in its head.
			taken := len(got) + 1
			sum := 0
			for _, g := range given {
				sum += g
			}
			if sum > taken+k {
				t.Fatalf("%d shards: %d runs read for %d given", k, sum, taken)
			}
			got = append(got, run.Name)
		}
		merged, err := Merge(shards...)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, r := range merged.Runs {
			want = append(want, r.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d shards: merged order\n%v\nwant Merge's\n%v", k, got, want)
		}
	}
}

func TestRunMergerRefusesARunOfTwoStreams(t *testing.T) {
	var g1, g2 int
	m := NewRunMerger(stream([]*Run{{Name: "a"}, {Name: "b"}}, &g1), stream([]*Run{{Name: "b"}}, &g2))
	if run, _, err := m.Next(); err != nil || run.Name != "a" {
		t.Fatalf("first run: %v, %v", run, err)
	}
	if _, _, err := m.Next(); err == nil || !strings.Contains(err.Error(), `run "b" is in two reports`) {
		t.Errorf("a run of two streams: %v", err)
	}
}
