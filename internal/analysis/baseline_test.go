package analysis

import (
	"context"
	"fmt"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

func runOf(name string, points int, tags ...string) *model.Run {
	run := &model.Run{Name: name}
	for _, tag := range tags {
		s := &model.Scalar{Tag: tag}
		for i := range points {
			s.Points = append(s.Points, model.Point{Step: int64(i), Value: float64(i % 7), WallTime: 1.7e9 + float64(i)})
		}
		run.Scalars = append(run.Scalars, s)
	}
	return run
}

// A baseline log directory of many long runs reaches the charts bounded:
// at most result.MaxBaselineRuns runs per tag, each at about the drawing
// budget, and only for the tags this report has.
func TestBaselineSeriesAreBoundedAndOfTheReportsTags(t *testing.T) {
	rep := &model.Report{Runs: []*model.Run{runOf("a", 10, "loss")}}
	var base []*model.Run
	for i := range 40 {
		base = append(base, runOf(fmt.Sprint("b", i), 50_000, "loss", "other"))
	}
	an, err := Build(context.Background(), rep, Options{Baseline: &Baseline{Source: "base", Runs: base}})
	if err != nil {
		t.Fatal(err)
	}
	b := an.Baseline
	if len(b.Series) != 1 || len(b.Series["loss"]) != result.MaxBaselineRuns {
		t.Fatalf("series by tag: %d tags, %d loss runs; want 1 and %d", len(b.Series), len(b.Series["loss"]), result.MaxBaselineRuns)
	}
	for _, s := range b.Series["loss"] {
		if s.Total != 50_000 || len(s.Points) > an.Scalars.DrawCap+8 || len(s.Points) < an.Scalars.DrawCap/2 {
			t.Errorf("%s: %d of %d points drawn, budget %d", s.Run, len(s.Points), s.Total, an.Scalars.DrawCap)
		}
	}
	if b.Series["loss"][0].Run != "b0" || b.Refs != nil {
		t.Errorf("first run %q, refs %v", b.Series["loss"][0].Run, b.Refs)
	}
}

// A baseline summary.json gives each run's last and best values of the
// report's tags as reference lines, the best by the tag's direction.
func TestBaselineRefsAreTheSummarysLastAndBest(t *testing.T) {
	rep := &model.Report{Runs: []*model.Run{runOf("a", 10, "loss", "accuracy")}}
	sum := &summary.File{Metrics: map[string]map[string]summary.Metric{
		"x": {
			"loss":     {Last: summary.Point{Step: 9, Value: 0.5}, Min: &summary.Point{Value: 0.25}, Max: &summary.Point{Value: 2}, Better: "lower"},
			"accuracy": {Last: summary.Point{Step: 9, Value: 0.75}, Min: &summary.Point{Value: 0.125}, Max: &summary.Point{Value: 0.875}, Better: "higher"},
			"unknown":  {Last: summary.Point{Value: 1}},
		},
	}}
	an, err := Build(context.Background(), rep, Options{Baseline: &Baseline{Source: "summary.json", Summary: sum}})
	if err != nil {
		t.Fatal(err)
	}
	refs := an.Baseline.Refs
	want := map[string]result.BaselineRef{
		"loss":     {Run: "x", Last: 0.5, Best: 0.25, HasBest: true},
		"accuracy": {Run: "x", Last: 0.75, Best: 0.875, HasBest: true},
	}
	if len(refs) != len(want) {
		t.Fatalf("refs %v, want %v", refs, want)
	}
	for tag, w := range want {
		if len(refs[tag]) != 1 || refs[tag][0] != w {
			t.Errorf("%s: %v, want %v", tag, refs[tag], w)
		}
	}
	if an.Baseline.Series != nil {
		t.Errorf("series from a summary.json: %v", an.Baseline.Series)
	}
}

// What a baseline log directory keeps for the charts is bounded before
// the report is read: per tag result.MaxBaselineRuns runs, each series at
// maxPoints, copied off the collected series.
func TestBaselineRunsKeepWhatTheChartsDraw(t *testing.T) {
	var runs []*model.Run
	for i := range 40 {
		runs = append(runs, runOf(fmt.Sprint("b", i), 20_000, "loss"))
	}
	kept := BaselineRuns(runs, 100)
	if len(kept) != result.MaxBaselineRuns {
		t.Fatalf("%d runs kept, want %d", len(kept), result.MaxBaselineRuns)
	}
	for i, run := range kept {
		s := run.Scalars[0]
		if run.Name != fmt.Sprint("b", i) || len(s.Points) > 108 || len(s.Points) < 50 {
			t.Errorf("%s: %d points kept of 20,000, budget 100", run.Name, len(s.Points))
		}
		if &s.Points[0] == &runs[i].Scalars[0].Points[0] {
			t.Errorf("%s: the collected series is kept, not a copy", run.Name)
		}
	}
}
