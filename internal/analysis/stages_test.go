package analysis

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// stage runs every run of rep through Run and Compact, with reads as
// the outputs' (nil: none given), and returns the analysis.
func stage(t *testing.T, rep *model.Report, opt Options, reads func(*result.ScalarView) result.Reads) *Staged {
	t.Helper()
	st, err := Plan(context.Background(), rep, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	if reads != nil {
		st.SetReads(reads)
	}
	for _, run := range rep.Runs {
		st.Run(run)
		st.Compact(run)
	}
	return st
}

// twoPlans returns two analyses of rep planned alike: one to stage as
// Run does (want), one the way under test (got).
func twoPlans(t *testing.T, rep *model.Report, opt Options) (want, got *Staged) {
	t.Helper()
	want, err := Plan(context.Background(), rep, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	got, err = Plan(context.Background(), rep, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	return want, got
}

// finishBoth returns Finish of want and of got.
func finishBoth(t *testing.T, want, got *Staged) (wa, ga *result.Analysis) {
	t.Helper()
	wa, err := want.Finish(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ga, err = got.Finish(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return wa, ga
}

// A series no output draws inline keeps its last point and no drawn
// points once compacted, whatever its length; its statistics, final
// value and the sparklines read stay; a sweep's extremes keep every
// point.
func TestCompactKeepsTheLastPointOfASeriesNoPageDraws(t *testing.T) {
	rep := scalarReport(30, []string{"loss"}, 700)
	inline := rep.Runs[0].Scalars[0]
	st := stage(t, rep, Options{MaxPoints: 300}, func(v *result.ScalarView) result.Reads {
		rd := result.Reads{Points: v.Scalar == inline}
		rd.Spark[1] = true
		return rd
	})
	held, extremes, others := 0, 0, 0
	for _, v := range st.Scalars().Tags[0].Series {
		s := v.Scalar
		if v.Total != 700 || v.Stats.Count != 700 || v.Stats.Last.Value != s.Points[len(s.Points)-1].Value || st.Final(s) != v.Stats.Last.Value {
			t.Errorf("%s: total %d, stats %+v, final %v", v.Run.Name, v.Total, v.Stats, st.Final(s))
		}
		if !v.Spark[1].Held() || v.Spark[0].Held() || v.Spark[2].Held() {
			t.Errorf("%s: sparklines held %v %v %v, want the second only", v.Run.Name, v.Spark[0].Held(), v.Spark[1].Held(), v.Spark[2].Held())
		}
		switch {
		case st.slots[s].extreme:
			extremes++
			if len(s.Points) != 700 {
				t.Errorf("%s: an extreme holds %d points of 700", v.Run.Name, len(s.Points))
			}
		case s == inline:
			if len(s.Points) >= 700 || len(s.Points) < len(v.Draw) || v.Draw == nil || v.Buckets == nil {
				t.Errorf("%s: drawn inline, holds %d points, draws %d in %d buckets", v.Run.Name, len(s.Points), len(v.Draw), len(v.Buckets))
			}
		default:
			held += len(s.Points)
			others++
			if len(s.Points) != 1 || v.Draw != nil || v.Buckets != nil {
				t.Errorf("%s: drawn nowhere, holds %d points, draws %d in %d buckets", v.Run.Name, len(s.Points), len(v.Draw), len(v.Buckets))
			}
		}
	}
	if extremes == 0 || others < 10 || held != others {
		t.Errorf("%d extremes, %d points held by the %d other series", extremes, held, others)
	}
}

// A series whose every point is drawn keeps its points as they are: no
// copy (the same array), its drawn indices shared.
func TestCompactKeepsADrawnSeriesWhole(t *testing.T) {
	rep := scalarReport(12, []string{"loss"}, 150)
	arrays := map[*model.Scalar]*model.Point{}
	for _, run := range rep.Runs {
		arrays[run.Scalars[0]] = &run.Scalars[0].Points[0]
	}
	st := stage(t, rep, Options{}, nil)
	var draw *int
	for _, v := range st.Scalars().Tags[0].Series {
		s := v.Scalar
		if len(s.Points) != 150 || &s.Points[0] != arrays[s] || len(v.Draw) != 150 || v.Draw[149] != 149 {
			t.Fatalf("%s: %d points (copied: %v), %d drawn", v.Run.Name, len(s.Points), &s.Points[0] != arrays[s], len(v.Draw))
		}
		if st.slots[s].extreme {
			continue
		}
		if draw != nil && &v.Draw[0] != draw {
			t.Errorf("%s: its drawn indices are its own", v.Run.Name)
		}
		draw = &v.Draw[0]
	}
}

// stageView is what Run derives of a scalar view, for comparing.
type stageView struct {
	Total   int
	Stats   model.Stats
	Data    []int
	Draw    []int
	Buckets []result.Bucket
	Faded   []result.FadedView
	Spark   [len(result.SparkBudgets)]result.Values
}

func stageViews(st *Staged) map[*model.Scalar]stageView {
	out := map[*model.Scalar]stageView{}
	for _, t := range st.Scalars().Tags {
		for _, v := range t.Series {
			out[v.Scalar] = stageView{v.Total, v.Stats, v.Data, v.Draw, v.Buckets, v.Faded, v.Spark}
		}
	}
	return out
}

// A run staged a series at a time (Begin, Through each view's series in
// order, End) derives what Run derives, rules' findings included and in
// the same order; Through hands each series' values and wall times
// while every value is finite, in its points' order, and nothing for a
// series with a NaN or one already walked; Begin refuses a run with a
// series past the data cap, whose data indices need its points thinned.
func TestRunStageDerivesWhatRunDerives(t *testing.T) {
	rep := scalarReport(4, []string{"acc", "loss", "lr", "nan"}, 3000)
	for _, run := range rep.Runs {
		nan := run.Scalars[3]
		nan.Points[100].Value = math.NaN()
		loss := run.Scalars[1]
		loss.Superseded = []model.Superseded{{Attempt: 0, Points: slices.Clone(loss.Points[:700])}}
		run.Scalars[2].Points = run.Scalars[2].Points[:5] // shorter than the spike rule's windows
	}
	rep.Runs[2].Scalars[0].Points = nil // no view
	opt := Options{MaxPoints: 400, MaxDataPoints: 5000}
	want, got := twoPlans(t, rep, opt)
	handed := 0
	for r, run := range rep.Runs {
		want.Run(run)
		rs, ok := got.Begin(run)
		if !ok {
			t.Fatalf("%s: Begin refused a run within the data cap", run.Name)
		}
		views := got.Views(run)
		if r == 3 {
			slices.Reverse(views) // out of the run's order: walked on the way to the first
		}
		for i, v := range views {
			vals, walls := rs.Through(v.Scalar)
			switch finite := !slices.ContainsFunc(v.Scalar.Points, func(p model.Point) bool { return math.IsNaN(p.Value) }); {
			case r == 3 && i > 0:
				if vals != nil || walls != nil {
					t.Errorf("%s %s: values or wall times handed for a series walked already", run.Name, v.Scalar.Tag)
				}
			case !finite:
				if vals != nil || walls != nil {
					t.Errorf("%s %s: values or wall times handed for a series with a NaN", run.Name, v.Scalar.Tag)
				}
			default:
				if len(vals) != len(v.Scalar.Points) || len(walls) != len(v.Scalar.Points) {
					t.Fatalf("%s %s: %d values and %d wall times handed for %d points", run.Name, v.Scalar.Tag, len(vals), len(walls), len(v.Scalar.Points))
				}
				for k, p := range v.Scalar.Points {
					if math.Float64bits(vals[k]) != math.Float64bits(p.Value) {
						t.Fatalf("%s %s: value %d handed as %v, the point's is %v", run.Name, v.Scalar.Tag, k, vals[k], p.Value)
					}
					if math.Float64bits(walls[k]) != math.Float64bits(p.WallTime) {
						t.Fatalf("%s %s: wall time %d handed as %v, the point's is %v", run.Name, v.Scalar.Tag, k, walls[k], p.WallTime)
					}
				}
				handed++
			}
		}
		rs.End()
	}
	if handed < 8 {
		t.Errorf("values handed for %d series", handed)
	}
	// Printed, not reflect.DeepEqual: NaN is a value as any other here.
	wv, gv := stageViews(want), stageViews(got)
	for s, w := range wv {
		if g := gv[s]; fmt.Sprintf("%#v", g) != fmt.Sprintf("%#v", w) {
			t.Errorf("series %s: staged a series at a time\n%#v\nwant\n%#v", s.Tag, g, w)
		}
	}
	wa, ga := finishBoth(t, want, got)
	if len(wa.Anomalies) == 0 || fmt.Sprintf("%#v", ga.Anomalies) != fmt.Sprintf("%#v", wa.Anomalies) || fmt.Sprintf("%#v", ga.Scalars.Sweep) != fmt.Sprintf("%#v", wa.Scalars.Sweep) {
		t.Errorf("anomalies\n%+v\nwant\n%+v", ga.Anomalies, wa.Anomalies)
	}

	// Every run's last series is judged (End): its NaN found.
	nonFinite := 0
	for _, a := range ga.Anomalies {
		if a.Rule == "scalar.nonfinite" && a.Tag == "nan" {
			nonFinite++
		}
	}
	if nonFinite != len(rep.Runs) {
		t.Errorf("%d series with a NaN found, want %d", nonFinite, len(rep.Runs))
	}

	capped, err := Plan(context.Background(), rep, nil, Options{MaxPoints: 400, MaxDataPoints: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := capped.Begin(rep.Runs[0]); ok {
		t.Error("Begin took a run whose series pass the data cap")
	}
}

// A run shared by several goroutines (Begin, Shared, a SeriesStage each
// walking the series it takes, in any order, End) derives what Run
// derives: the views, the rules' findings joined in the run's order and
// the run's last step, the largest of its series' (which the rules on a
// run that stopped early read), for a run of one series too; each series
// is walked once, its values handed to the stage that took it while they
// are all finite; End walks the series no stage took.
func TestSharedRunDerivesWhatRunDerives(t *testing.T) {
	rep := scalarReport(4, []string{"acc", "loss", "lr", "nan", "wd"}, 3000)
	for r, run := range rep.Runs {
		run.Scalars[3].Points[100].Value = math.NaN()
		loss := run.Scalars[1]
		loss.Superseded = []model.Superseded{{Attempt: 0, Points: slices.Clone(loss.Points[:700])}}
		run.Scalars[2].Points = run.Scalars[2].Points[:5] // shorter than the spike rule's windows
		// The last step of the run is not its last series': the one
		// series of a run that went furthest.
		for i := range run.Scalars[r%len(run.Scalars)].Points {
			run.Scalars[r%len(run.Scalars)].Points[i].Step += 5000
		}
	}
	rep.Runs[2].Scalars[0].Points = nil // no view
	rep.Runs = append(rep.Runs, scalarReport(1, []string{"only"}, 2000).Runs[0])
	rep.Runs[4].Name = "alone"
	opt := Options{MaxPoints: 400, MaxDataPoints: 5000}
	want, got := twoPlans(t, rep, opt)
	walks := 0
	for _, run := range rep.Runs {
		want.Run(run)
		rs, ok := got.Begin(run)
		if !ok {
			t.Fatalf("%s: Begin refused a run within the data cap", run.Name)
		}
		sr := rs.Shared()
		// Two stages at once, one from each end of the run; "lr" is left
		// to End.
		order := slices.Clone(run.Scalars)
		walked := make([]map[*model.Scalar]bool, 2)
		done := make(chan struct{})
		for k := range 2 {
			walked[k] = map[*model.Scalar]bool{}
			if k == 1 {
				slices.Reverse(order)
			}
			go func(order []*model.Scalar) {
				defer func() { done <- struct{}{} }()
				ss := sr.Stage()
				defer ss.Done()
				for _, s := range order {
					if s.Tag == "lr" {
						continue
					}
					vals, walls := ss.Walk(s)
					if vals == nil {
						continue
					}
					walked[k][s] = true
					if len(vals) != len(s.Points) || (len(vals) > 0 && math.Float64bits(vals[len(vals)-1]) != math.Float64bits(s.Points[len(s.Points)-1].Value)) {
						t.Errorf("%s %s: %d values handed for %d points", run.Name, s.Tag, len(vals), len(s.Points))
					}
					if len(walls) != len(s.Points) || (len(walls) > 0 && math.Float64bits(walls[len(walls)-1]) != math.Float64bits(s.Points[len(s.Points)-1].WallTime)) {
						t.Errorf("%s %s: %d wall times handed for %d points", run.Name, s.Tag, len(walls), len(s.Points))
					}
				}
			}(slices.Clone(order))
		}
		<-done
		<-done
		sr.End()
		for _, s := range run.Scalars {
			both := walked[0][s] && walked[1][s]
			if both {
				t.Errorf("%s %s: walked by both stages", run.Name, s.Tag)
			}
			if walked[0][s] || walked[1][s] {
				walks++
			}
		}
	}
	if walks < 10 {
		t.Errorf("values handed for %d series", walks)
	}
	wv, gv := stageViews(want), stageViews(got)
	for s, w := range wv {
		if g := gv[s]; fmt.Sprintf("%#v", g) != fmt.Sprintf("%#v", w) {
			t.Errorf("series %s: staged shared\n%#v\nwant\n%#v", s.Tag, g, w)
		}
	}
	for _, run := range rep.Runs {
		w, g := want.runs[run], got.runs[run]
		if len(w.Findings) == 0 || fmt.Sprintf("%#v", g) != fmt.Sprintf("%#v", w) {
			t.Errorf("%s: rules found, shared\n%+v\nwant\n%+v", run.Name, g, w)
		}
	}
	wa, ga := finishBoth(t, want, got)
	if fmt.Sprintf("%#v", ga.Anomalies) != fmt.Sprintf("%#v", wa.Anomalies) || fmt.Sprintf("%#v", ga.Scalars.Sweep) != fmt.Sprintf("%#v", wa.Scalars.Sweep) {
		t.Errorf("anomalies\n%+v\nwant\n%+v", ga.Anomalies, wa.Anomalies)
	}
}

// A run Begin refuses (a series past the data cap) shared by several
// goroutines (Staged.Shared) derives what Run derives: each series' data
// indices thinned as it is walked, its superseded points, the findings
// in the run's order.
func TestSharedRunPastTheDataCapDerivesWhatRunDerives(t *testing.T) {
	rep := scalarReport(2, []string{"acc", "loss", "nan", "short"}, 3000)
	for _, run := range rep.Runs {
		run.Scalars[2].Points[100].Value = math.NaN()
		loss := run.Scalars[1]
		loss.Superseded = []model.Superseded{{Attempt: 0, Points: slices.Clone(loss.Points[:1500])}}
		run.Scalars[3].Points = run.Scalars[3].Points[:800] // within the cap
	}
	opt := Options{MaxPoints: 400, MaxDataPoints: 1000}
	want, got := twoPlans(t, rep, opt)
	for _, run := range rep.Runs {
		want.Run(run)
		if _, ok := got.Begin(run); ok {
			t.Fatalf("%s: Begin took a run past the data cap", run.Name)
		}
		sr := got.Shared(run)
		done := make(chan struct{})
		for k := range 2 {
			go func() {
				defer func() { done <- struct{}{} }()
				ss := sr.Stage()
				defer ss.Done()
				for i := range run.Scalars {
					// Written whole from its points after: no wall times
					// copied for a writer.
					if _, walls := ss.Walk(run.Scalars[(i+2*k)%len(run.Scalars)]); walls != nil {
						t.Errorf("%s: wall times handed for a run Begin refused", run.Name)
					}
				}
			}()
		}
		<-done
		<-done
		sr.End()
	}
	wv, gv := stageViews(want), stageViews(got)
	thinned := 0
	for s, w := range wv {
		if g := gv[s]; fmt.Sprintf("%#v", g) != fmt.Sprintf("%#v", w) {
			t.Errorf("series %s: shared\n%#v\nwant\n%#v", s.Tag, g, w)
		}
		if w.Data != nil {
			thinned++
		}
	}
	if thinned == 0 {
		t.Error("no series thinned in its data files")
	}
	for _, run := range rep.Runs {
		if w, g := want.runs[run], got.runs[run]; len(w.Findings) == 0 || fmt.Sprintf("%#v", g) != fmt.Sprintf("%#v", w) {
			t.Errorf("%s: rules found, shared\n%+v\nwant\n%+v", run.Name, g, w)
		}
	}
}
