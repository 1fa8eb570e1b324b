package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"path/filepath"
	"runtime"
	"testing"
	"weak"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"
)

// TestPartWriterHoldsNoRunItWrote collects 64 runs of 4,000 points each
// (6 MB of points in memory) into a part's model.bin and, as each run is
// written, checks that no run written before it is still reachable (weak
// pointers, after a collection) and that the live heap does not grow with
// the runs written: at the last run it is within 1.5 MB of the most it
// was by the eighth (runs read one at a time: EmitAhead 1). The same probe, told to keep the runs it is handed
// (what the writer held before: the whole model), sees both, so the test
// can fail. The size and hash the writer counts are those of the bytes
// written.
func TestPartWriterHoldsNoRunItWrote(t *testing.T) {
	const runs, points = 64, 4000
	logs := filepath.Join(t.TempDir(), "logs")
	for r := range runs {
		events := make([]*eventpb.Event, points)
		for s := range events {
			events[s] = summaryEvent(int64(s), 1.7e9+float64(s), simpleValue("loss", float32(r*points+s)))
		}
		writeEventFile(t, filepath.Join(logs, fmt.Sprintf("run%03d", r), "events.out.tfevents.1700000000.host"), events)
	}
	probe := func(t *testing.T, keep bool) (alive int, early, late uint64, pm *partModelWriter, file *sink) {
		t.Helper()
		var written []weak.Pointer[model.Run]
		var kept []*model.Run
		var ms runtime.MemStats
		opt := collect.Options{EmitAhead: 1, Emit: func(run *model.Run) error {
			if keep {
				kept = append(kept, run)
			}
			runtime.GC()
			for _, w := range written {
				if w.Value() != nil {
					alive++
				}
			}
			written = append(written, weak.Make(run))
			runtime.ReadMemStats(&ms)
			switch n := len(written); {
			case n <= 8:
				early = max(early, ms.HeapAlloc)
			case n == runs:
				late = ms.HeapAlloc
			}
			return nil
		}}
		buf := &sink{hash: sha256.New()}
		pm, err := collectPartModel(context.Background(), []model.Logdir{{Name: "logs", Path: logs}}, opt, buf)
		if err != nil {
			t.Fatal(err)
		}
		if len(written) != runs || pm.runs != runs {
			t.Fatalf("%d runs handed over, %d written, want %d", len(written), pm.runs, runs)
		}
		runtime.KeepAlive(kept)
		return alive, early, late, pm, buf
	}
	const slack = 3 << 19 // 1.5 MB
	alive, early, late, pm, file := probe(t, false)
	t.Logf("streamed: %d written runs alive; live heap %d at run 8, %d at run %d", alive, early, late, runs)
	if alive > 0 {
		t.Errorf("%d runs already written were still reachable when later ones were", alive)
	}
	if late > early+slack {
		t.Errorf("the live heap grew from %d to %d bytes over %d runs written", early, late, runs)
	}
	if file.n != pm.size || hex.EncodeToString(file.hash.Sum(nil)) != hex.EncodeToString(pm.hash.Sum(nil)) {
		t.Errorf("model.bin of %d bytes, the writer counted %d (or another hash)", file.n, pm.size)
	}

	alive, early, late, _, _ = probe(t, true)
	t.Logf("held: %d written runs alive; live heap %d at run 8, %d at run %d", alive, early, late, runs)
	if alive == 0 || late <= early+slack {
		t.Errorf("a writer holding every run went unseen: %d alive, live heap %d then %d", alive, early, late)
	}
}

// sink is an io.Writer that counts and hashes what it is given, holding
// none of it.
type sink struct {
	n    int64
	hash hash.Hash
}

func (s *sink) Write(p []byte) (int, error) {
	s.n += int64(len(p))
	return s.hash.Write(p)
}

var _ io.Writer = (*sink)(nil)
