package demolog

import (
	"context"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/internal/analysis/tensorstat"
)

// TestEvalRun reads the evaluation run back with package collect: its text
// tags (rank 0 to 2, plugin "text") and its numeric tensors no plugin
// claims, with the NaN and +Inf of the attention weights at step 3750.
func TestEvalRun(t *testing.T) {
	dir := generateInto(t)
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "demo", Path: dir}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var run *model.Run
	for _, r := range rep.Runs {
		if r.Path == evalRun {
			run = r
		}
	}
	if run == nil {
		t.Fatalf("no run %s", evalRun)
	}
	var texts, tensors []string
	for _, x := range run.Texts {
		texts = append(texts, x.Tag)
		if x.Plugin != "text" {
			t.Errorf("text %s: plugin %q", x.Tag, x.Plugin)
		}
	}
	for _, x := range run.Tensors {
		tensors = append(tensors, x.Tag)
	}
	if want := []string{"eval/mistakes", "eval/predictions", "notes/config"}; !slices.Equal(texts, want) {
		t.Errorf("text tags %v, want %v", texts, want)
	}
	if want := []string{"eval/confusion_matrix", "eval/correct", "layers/attention"}; !slices.Equal(tensors, want) {
		t.Errorf("tensor tags %v, want %v", tensors, want)
	}
	// PR curves of two classes every 500 steps, counts adding up.
	for i, x := range run.PRCurves {
		if want := []string{"eval/pr/cat", "eval/pr/ship"}[i]; x.Tag != want || len(x.Entries) != 11 || x.NumThresholds != prThresholds {
			t.Errorf("PR curve %d: %s, %d steps, %d thresholds; want %s, 11, %d", i, x.Tag, len(x.Entries), x.NumThresholds, want, prThresholds)
			continue
		}
		for _, e := range x.Entries {
			if e.TP[0]+e.FN[0]+e.FP[0]+e.TN[0] != 200 || e.Recall[0] != 1 || !e.Float32 {
				t.Errorf("%s step %d: counts %v %v %v %v, recall %v", x.Tag, e.Step, e.TP[0], e.FP[0], e.TN[0], e.FN[0], e.Recall[0])
			}
		}
	}
	if len(run.PRCurves) != 2 {
		t.Errorf("%d PR curve tags, want 2", len(run.PRCurves))
	}
	if len(run.Scalars) != 0 || len(run.Meshes) != 3 {
		t.Errorf("%d scalar and %d mesh tags, want none and 3 (the reconstruction's vertices, faces and colours)", len(run.Scalars), len(run.Meshes))
	}
	pred := run.Texts[1].Entries
	if len(pred) != 51 || !slices.Equal(pred[0].Shape, []int64{6, 4}) || pred[0].Values[0] != "image" {
		t.Errorf("eval/predictions: %d steps, shape %v", len(pred), pred[0].Shape)
	}
	for _, x := range run.Tensors {
		for _, e := range x.Entries {
			v, err := e.Load(rep.Decoders())
			if err != nil {
				t.Fatal(err)
			}
			st := tensorstat.Of(v)
			switch {
			case x.Tag == "layers/attention" && e.Step == 3750:
				if st.NaN != 8 || st.PosInf != 1 || e.DType != "float32" {
					t.Errorf("attention at 3750: %+v", st)
				}
			case x.Tag == "layers/attention":
				if st.Finite != 256 || math.Abs(st.Mean-1.0/8) > 1e-6 {
					t.Errorf("attention at %d: %+v, want rows of softmax", e.Step, st)
				}
			case x.Tag == "eval/confusion_matrix":
				if st.Count != 100 || st.Mean != 10 || e.DType != "int32" {
					t.Errorf("confusion matrix at %d: %+v (%s), want 1000 samples", e.Step, st, e.DType)
				}
			case x.Tag == "eval/correct":
				if st.Count != 64 || st.Max > 1 || e.DType != "bool" {
					t.Errorf("correct at %d: %+v (%s)", e.Step, st, e.DType)
				}
			}
		}
	}
}

// TestHParams reads the sweep's sessions back with package collect: one per
// job, in its train run, with its learning rate, ended well, and every
// scalar of the run a metric (no experiment is declared).
func TestHParams(t *testing.T) {
	dir := generateInto(t)
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "demo", Path: dir}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lrs := map[string]float64{}
	for _, r := range rep.Runs {
		if r.HParams == nil {
			continue
		}
		if len(r.HParams.Sessions) != 1 {
			t.Fatalf("run %s: %d sessions, want 1", r.Path, len(r.HParams.Sessions))
		}
		s := r.HParams.Sessions[0]
		lrs[r.Path] = s.Start.HParams["learning_rate"].Number
		if s.End == nil || s.End.Status != "success" {
			t.Errorf("run %s: session end %+v, want success", r.Path, s.End)
		}
		if m, ok := s.Metrics["metrics/accuracy"]; !ok || m.Step != 5000 || !(m.Value > 0.5) {
			t.Errorf("run %s: metric metrics/accuracy %+v, want the last step's", r.Path, m)
		}
	}
	if want := map[string]float64{"lr=0.01/train": 0.01, "lr=0.003/train": 0.003}; !maps.Equal(lrs, want) {
		t.Errorf("sessions' learning rates %v, want %v", lrs, want)
	}
}
