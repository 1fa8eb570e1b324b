package collect

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/internal/testcorpus"
)

// sharedCorpus returns the shared corpus (see internal/testcorpus).
func sharedCorpus(t testing.TB) string { return testcorpus.Dir(t) }

// TestScalarsMatchTensorBoard compares every scalar point we read from the
// shared corpus, keeping every record, with what TensorBoard's own reader
// (EventMultiplexer, no sampling, no purge) read from the same files; see
// testdata/tensorboard/dump_scalars.py. The restart rule is tested apart.
func TestScalarsMatchTensorBoard(t *testing.T) {
	corpus := sharedCorpus(t)
	raw, err := os.ReadFile("testdata/tensorboard/corpus_scalars.json")
	if err != nil {
		t.Fatal(err)
	}
	// entry -> run -> tag -> [[wall_time, step, value]]
	var want map[string]map[string]map[string][][3]any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for entry, runs := range want {
		t.Run(entry, func(t *testing.T) {
			rep, err := Collect(context.Background(), []model.Logdir{{Name: entry, Path: filepath.Join(corpus, entry)}}, Options{KeepAllRecords: true})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]map[string]*model.Scalar{}
			for _, r := range rep.Runs {
				for _, s := range r.Scalars {
					if got[r.Name] == nil {
						got[r.Name] = map[string]*model.Scalar{}
					}
					got[r.Name][s.Tag] = s
				}
			}
			for run, tags := range runs {
				for tag, pts := range tags {
					s := got[run][tag]
					if s == nil {
						t.Errorf("run %q tag %q: TensorBoard reads %d points, we read none", run, tag, len(pts))
						continue
					}
					if len(s.Points) != len(pts) {
						t.Errorf("run %q tag %q: %d points, TensorBoard reads %d", run, tag, len(s.Points), len(pts))
						continue
					}
					for i, p := range pts {
						g := s.Points[i]
						wall, step := p[0].(float64), int64(p[1].(float64))
						if g.WallTime != wall || g.Step != step || !sameValue(g.Value, p[2]) {
							t.Errorf("run %q tag %q point %d: got (%v, %d, %v), TensorBoard (%v, %d, %v)",
								run, tag, i, g.WallTime, g.Step, g.Value, wall, step, p[2])
							break
						}
					}
					delete(got[run], tag)
				}
			}
			// TensorBoard reads only files named *tfevents*; anything else
			// we read must come from other writers' names.
			for run, tags := range got {
				for tag, s := range tags {
					if _, seen := runs[run]; seen || hasTFEvents(rep, run) {
						t.Errorf("run %q tag %q: we read %d points TensorBoard does not", run, tag, len(s.Points))
					}
				}
			}
		})
	}
}

func hasTFEvents(rep *model.Report, run string) bool {
	for _, r := range rep.Runs {
		if r.Name != run {
			continue
		}
		for _, f := range r.Files {
			if strings.Contains(filepath.Base(f.Rel), "tfevents") {
				return true
			}
		}
	}
	return false
}

func sameValue(got float64, want any) bool {
	switch w := want.(type) {
	case float64:
		return got == w
	case string:
		switch w {
		case "NaN":
			return math.IsNaN(got)
		case "Infinity":
			return math.IsInf(got, 1)
		case "-Infinity":
			return math.IsInf(got, -1)
		}
	}
	return false
}
