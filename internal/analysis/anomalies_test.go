package analysis

import (
	"context"
	"errors"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/anomaly"
)

// lrReport is a run whose learning rate is zero for its last n points.
func lrReport(n int) *model.Report {
	s := &model.Scalar{Tag: "lr"}
	for i := range 10 {
		v := 0.1
		if i >= 10-n {
			v = 0
		}
		s.Points = append(s.Points, model.Point{WallTime: float64(i), Step: int64(i), Value: v})
	}
	return &model.Report{Runs: []*model.Run{{Name: "r", Logdir: "r", Path: ".", Scalars: []*model.Scalar{s}}}}
}

// TestBuildFindsAnomaliesWithTheThresholdsGiven: Build lists what the
// rules find, with the default thresholds when none are given and with
// those of the options when they are.
func TestBuildFindsAnomaliesWithTheThresholdsGiven(t *testing.T) {
	rep := lrReport(4)
	an, err := Build(context.Background(), rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(an.Anomalies) != 1 || an.Anomalies[0].Rule != "scalar.lr_zero" {
		t.Fatalf("default thresholds: anomalies %+v, want one scalar.lr_zero", an.Anomalies)
	}
	th := anomaly.DefaultThresholds
	th.LRZeroPoints = 5
	if an, err = Build(context.Background(), rep, Options{AnomalyThresholds: th}); err != nil {
		t.Fatal(err)
	}
	if len(an.Anomalies) != 0 {
		t.Errorf("LRZeroPoints 5, 4 zeros: anomalies %+v, want none", an.Anomalies)
	}
}

// TestAnomaliesOfACancelledAnalysisAreAnError: the rules stop when the
// context is done, and what they found by then is not handed on as the
// report's list.
func TestAnomaliesOfACancelledAnalysisAreAnError(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	as, err := anomalies(ctx, lrReport(4), nil, Options{})
	if !errors.Is(err, context.Canceled) || as != nil {
		t.Errorf("anomalies = %v, %v; want nil, context.Canceled", as, err)
	}
}
