package anomaly

import (
	"context"
	"maps"
	"path/filepath"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/internal/testcorpus"
)

// corpusWant is, per folder of the shared corpus, how many findings each
// rule makes there. The clean folders make none: a rule that fires there
// is a false alarm. The others hold what the rules are for: Git LFS
// pointers instead of event files, truncated files, runs written by two
// processes (tbreducer's duplicate_steps fixtures on purpose; the PyTorch
// run at the repository's root and two tensorboardX runs of 2018 by a
// rerun into the same directory, which the restart rule of
// docs/FORMATS.md section 18 finds too).
var corpusWant = map[string]map[string]int{
	"hf-whisper-lfs-pointers":     {"run.damaged_files": 10},
	"keras-tf21-standard-profile": {},
	"keras-tf22-images":           {},
	"lightning-hparams-only":      {},
	"lightning-scalars-hparams":   {},
	"lightning-tbx-sweep":         {},
	"pytorch-events-at-repo-root": {"run.restarted": 1},
	"tbreducer-torch-runs":        {"run.restarted": 3},
	"tbx12-2018-no-file-version":  {"run.restarted": 2},
	"tf1-estimator-truncated":     {"run.damaged_files": 1},
	"tf2-custom-loop-tensors":     {},
	"tf2-hparams-api-experiment":  {},
	"tf2-hparams-keras":           {},
	"tf2-projector-ckpt":          {},
	"tsvis-oneflow-logs":          {},
}

// TestCorpusCounts runs every rule on every folder of the shared corpus
// and compares the count per rule with corpusWant.
func TestCorpusCounts(t *testing.T) {
	root := testcorpus.Dir(t)
	for _, name := range slices.Sorted(maps.Keys(corpusWant)) {
		t.Run(name, func(t *testing.T) {
			rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: name, Path: filepath.Join(root, name)}}, collect.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer rep.Close()
			got := map[string]int{}
			var lines []string
			for _, a := range Find(context.Background(), rep, DefaultThresholds) {
				got[a.Rule]++
				lines = append(lines, a.Message)
			}
			var kinds [4]int
			for _, run := range rep.Runs {
				kinds[0] += len(run.Scalars)
				kinds[1] += len(run.Histograms)
				kinds[2] += len(run.Tensors)
				kinds[3] += len(run.Exceptions)
			}
			t.Logf("%s: %v (scalar, histogram, tensor, exception series: %v)", name, got, kinds)
			for _, l := range lines {
				t.Log("  " + l)
			}
			if want := corpusWant[name]; !maps.Equal(got, want) {
				t.Errorf("counts per rule = %v, want %v", got, want)
			}
		})
	}
}
