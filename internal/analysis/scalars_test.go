package analysis

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// kept is how many points of pts the data indices idx keep, nil for all.
func kept(idx []int, pts []model.Point) int {
	if idx == nil {
		return len(pts)
	}
	return len(idx)
}

// scalarReport is a report of the given runs, each with the tags given
// and n points per tag, a sine with a spike at n/3.
func scalarReport(runs int, tags []string, n int) *model.Report {
	rep := &model.Report{}
	for r := range runs {
		run := &model.Run{Name: fmt.Sprintf("run-%03d", r)}
		for _, tag := range tags {
			s := &model.Scalar{Tag: tag}
			for i := range n {
				v := math.Sin(float64(i+r) / 50)
				if i == n/3 {
					v = 1e6
				}
				s.Points = append(s.Points, model.Point{Step: int64(i), WallTime: float64(i), Value: v})
			}
			run.Scalars = append(run.Scalars, s)
		}
		rep.Runs = append(rep.Runs, run)
	}
	return rep
}

// The scalar views are indices into the model's points, which the writers
// read beside them: tags in order with their runs in report order, the
// drawn points within the page's budget (the spike kept), the data files'
// points only past their cap, and sparklines among the drawn points.
func TestScalarViewsIndexTheModelsPoints(t *testing.T) {
	rep := scalarReport(3, []string{"loss", "acc", "empty"}, 5000)
	rep.Runs[1].Scalars[2].Points = nil // a tag purged by a SessionLog START
	for _, run := range rep.Runs {
		if len(run.Scalars[2].Points) > 0 {
			run.Scalars[2].Points = run.Scalars[2].Points[:10]
		}
	}
	an, err := Build(context.Background(), rep, Options{MaxPoints: 1000, MaxPagePoints: 3000, MaxDataPoints: 2000})
	if err != nil {
		t.Fatal(err)
	}
	sc := an.Scalars
	var tags []string
	for _, st := range sc.Tags {
		tags = append(tags, st.Tag)
	}
	if !slices.Equal(tags, []string{"acc", "empty", "loss"}) || len(sc.Tags[1].Series) != 2 || sc.Drawn != 3 {
		t.Fatalf("tags %v, %d series of empty, %d drawn", tags, len(sc.Tags[1].Series), sc.Drawn)
	}
	// 6 long series and 2 of 10 points share 3000 points.
	if want := drawBudget([]int{5000, 5000, 10, 10, 5000, 5000, 5000, 5000}, 1000, 3000); sc.DrawCap != want || want >= 1000 {
		t.Errorf("draw cap %d, want %d (below 1000)", sc.DrawCap, want)
	}
	for _, st := range sc.Tags {
		for i, v := range st.Series {
			pts := v.Scalar.Points
			if st.Tag != "empty" && v.Run != rep.Runs[i] {
				t.Errorf("%s: series %d is run %s", st.Tag, i, v.Run.Name)
			}
			if v.Stats != v.Scalar.Stats() {
				t.Errorf("%s/%s: stats %+v", st.Tag, v.Run.Name, v.Stats)
			}
			if len(pts) <= 2000 && v.Data != nil || len(pts) > 2000 && (len(v.Data) > 2000+8 || !slices.Contains(v.Data, len(pts)/3)) {
				t.Errorf("%s/%s: %d data indices of %d points", st.Tag, v.Run.Name, len(v.Data), len(pts))
			}
			if len(pts) > sc.DrawCap && (len(v.Draw) > sc.DrawCap+8 || !slices.Contains(v.Draw, len(pts)/3) || len(v.Buckets) != sc.DrawCap/4) {
				t.Errorf("%s/%s: draws %d points in %d buckets, cap %d", st.Tag, v.Run.Name, len(v.Draw), len(v.Buckets), sc.DrawCap)
			}
			for k, budget := range result.SparkBudgets {
				sp := v.Spark[k]
				if len(v.Draw) <= budget {
					if sp.Len() != len(v.Draw) || sp.At(sp.Len()-1) != pts[v.Draw[len(v.Draw)-1]].Value {
						t.Errorf("%s/%s: a sparkline of %d of %d drawn points holds %d values", st.Tag, v.Run.Name, budget, len(v.Draw), sp.Len())
					}
					continue
				}
				if n := sp.Len(); n < budget/2 || n > budget+8 || sp.At(n-1) != pts[len(pts)-1].Value {
					t.Errorf("%s/%s: sparkline of %d points holds %d", st.Tag, v.Run.Name, budget, n)
				}
			}
		}
	}
}

// MaxCharts bounds the tags whose series share the page's points: the
// others are neither drawn nor summarised for a sweep.
func TestMaxChartsBoundsTheDrawnTags(t *testing.T) {
	rep := scalarReport(2, []string{"a", "b", "c", "d"}, 3000)
	an, err := Build(context.Background(), rep, Options{MaxCharts: 2, MaxPagePoints: 4000})
	if err != nil {
		t.Fatal(err)
	}
	if sc := an.Scalars; sc.Drawn != 2 || len(sc.Sweep) != 2 || sc.DrawCap != 1000 {
		t.Errorf("%d drawn, %d summarised, draw cap %d; want 2, 2, 1000", sc.Drawn, len(sc.Sweep), sc.DrawCap)
	}
	an, err = Build(context.Background(), rep, Options{MaxCharts: -1, MaxPagePoints: -1})
	if err != nil {
		t.Fatal(err)
	}
	if sc := an.Scalars; sc.Drawn != 4 || sc.DrawCap != DefaultMaxPoints {
		t.Errorf("no bounds: %d drawn, draw cap %d", sc.Drawn, sc.DrawCap)
	}
}

// A cancelled analysis stops with the context's error, not a result.
func TestBuildStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if an, err := Build(ctx, scalarReport(2, []string{"loss"}, 100), Options{}); !errors.Is(err, context.Canceled) || an != nil {
		t.Errorf("cancelled: %v, %v", an, err)
	}
	var calls atomic.Int64
	ctx, cancel = context.WithCancel(context.Background())
	err := parallelEach(ctx, 1000, func(i int) {
		calls.Add(1)
		if i == 0 {
			cancel()
		}
	})
	// Each worker may have taken one item before the cancel.
	if n := calls.Load(); !errors.Is(err, context.Canceled) || n > int64(runtime.GOMAXPROCS(0)) {
		t.Errorf("cancelled after the first item: %d calls, %v", n, err)
	}
}

// However many attempts a series has, its superseded points draw about a
// line's budget, each attempt at least its extremes.
func TestSupersededPointsDrawWithinALinesBudget(t *testing.T) {
	s := &model.Scalar{Tag: "loss"}
	for a := 1; a <= 1000; a++ {
		var pts []model.Point
		for st := range 100 {
			pts = append(pts, model.Point{Step: int64(st), Value: float64(a*st%7 - 3)})
		}
		s.Superseded = append(s.Superseded, model.Superseded{Attempt: a, Points: pts})
	}
	drawn := 0
	for _, fv := range fadedViews(s, 2000, 0) {
		drawn += len(fv.Draw)
		if len(fv.Draw) < 2 || kept(fv.Data, fv.Superseded.Points) != 100 {
			t.Fatalf("attempt %d draws %d points and keeps %d in the data", fv.Superseded.Attempt, len(fv.Draw), kept(fv.Data, fv.Superseded.Points))
		}
	}
	if drawn > 8000 {
		t.Errorf("1,000 attempts of 100 points draw %d points, want at most 4 each", drawn)
	}
}

// TestDrawBudget checks the page's shared budget of drawn points: short
// series keep theirs, long ones share the rest, never below the floor.
func TestDrawBudget(t *testing.T) {
	for _, c := range []struct {
		name               string
		lengths            []int
		perSeries, perPage int
		want               int
	}{
		{"fits", []int{5000, 5000}, 2000, 10000, 2000},
		{"no page bound", []int{5000, 5000, 5000}, 2000, -1, 2000},
		{"equal shares", []int{5000, 5000, 5000, 5000}, 2000, 4000, 1000},
		// Short series keep every point and leave the rest to long ones.
		{"short series keep theirs", []int{100, 100, 5000, 5000}, 2000, 2200, 1000},
		{"short series, uneven", []int{300, 5000, 5000}, 2000, 3000, 1350},
		{"floor", []int{5000, 5000, 5000}, 2000, 10, minPagePoints},
		{"per-series budget below the floor", []int{5000, 5000}, 50, 10, 50},
		{"no series", nil, 2000, 10, 2000},
	} {
		got := drawBudget(c.lengths, c.perSeries, c.perPage)
		if got != c.want {
			t.Errorf("%s: drawBudget(%v, %d, %d) = %d, want %d", c.name, c.lengths, c.perSeries, c.perPage, got, c.want)
		}
		// The cap is the largest that fits, unless the floor wins.
		drawn := func(limit int) (n int) {
			for _, l := range c.lengths {
				n += min(l, limit)
			}
			return n
		}
		if c.perPage >= 0 && got > minPagePoints && got < c.perSeries && (drawn(got) > c.perPage || drawn(got+1) <= c.perPage) {
			t.Errorf("%s: cap %d draws %d, %d with one more; page budget %d", c.name, got, drawn(got), drawn(got+1), c.perPage)
		}
	}
}
