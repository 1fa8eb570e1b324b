package analysis

import (
	"context"
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
