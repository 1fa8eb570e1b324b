package series

import (
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

func steps(s *Scalars) []int64 {
	var out []int64
	for _, p := range s.Points {
		out = append(out, p.Step)
	}
	return out
}

func TestRestartRule(t *testing.T) {
	tests := []struct {
		name    string
		in      []int64
		keepAll bool
		want    []int64
		dropped int
	}{
		{"increasing steps are all kept", []int64{1, 2, 3}, false, []int64{1, 2, 3}, 0},
		{"restart drops later steps", []int64{1, 2, 3, 4, 5, 3, 4}, false, []int64{1, 2, 3, 4}, 3},
		{"repeated step replaces the last", []int64{1, 2, 2}, false, []int64{1, 2}, 1},
		{"restart from zero drops everything", []int64{5, 6, 0}, false, []int64{0}, 2},
		{"two restarts", []int64{1, 2, 3, 2, 3, 1}, false, []int64{1}, 5},
		{"keep all keeps every record", []int64{1, 2, 3, 2, 3}, true, []int64{1, 2, 3, 2, 3}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var s Scalars
			for i, st := range tc.in {
				s.Add(model.Point{WallTime: float64(i), Step: st, Value: float64(i)}, 1, tc.keepAll)
			}
			if got := steps(&s); !slices.Equal(got, tc.want) {
				t.Errorf("steps = %v, want %v", got, tc.want)
			}
			if s.Dropped != tc.dropped {
				t.Errorf("Dropped = %d, want %d", s.Dropped, tc.dropped)
			}
			// The point that caused the restart is the one kept.
			if last := s.Points[len(s.Points)-1]; last.Value != float64(len(tc.in)-1) {
				t.Errorf("last kept value = %v, want the last record's", last.Value)
			}
		})
	}
}

func TestPurge(t *testing.T) {
	var s Scalars
	for _, st := range []int64{10, 20, 30, 40} {
		s.Add(model.Point{Step: st}, 1, false)
	}
	s.Purge(25)
	if got := steps(&s); !slices.Equal(got, []int64{10, 20}) {
		t.Errorf("after Purge(25): %v", got)
	}
	s.Purge(100)
	if got := steps(&s); !slices.Equal(got, []int64{10, 20}) {
		t.Errorf("Purge past the end changed points: %v", got)
	}
	if s.Dropped != 2 {
		t.Errorf("Dropped = %d, want 2", s.Dropped)
	}
}

func TestListRestartRule(t *testing.T) {
	var l List[string]
	for i, st := range []int64{1, 2, 3, 4, 2, 3} {
		l.Add(st, string(rune('a'+i)), false)
	}
	if !slices.Equal(l.Steps, []int64{1, 2, 3}) || !slices.Equal(l.Items, []string{"a", "e", "f"}) || l.Dropped != 3 {
		t.Errorf("after restart: steps %v items %v dropped %d", l.Steps, l.Items, l.Dropped)
	}
	l.Purge(3)
	if !slices.Equal(l.Steps, []int64{1, 2}) || l.Dropped != 4 {
		t.Errorf("after Purge(3): steps %v dropped %d", l.Steps, l.Dropped)
	}
	var all List[int]
	for _, st := range []int64{1, 2, 1} {
		all.Add(st, int(st), true)
	}
	if len(all.Items) != 3 {
		t.Errorf("keepAll kept %d items", len(all.Items))
	}
}

// A line whose steps go back (kept so under TensorBoard's rule) is purged
// wherever its points are, and the attempts of what was taken off are
// counted.
func TestPurgeOfALineWhoseStepsGoBack(t *testing.T) {
	s := Scalars{KeepSuperseded: true}
	for _, p := range []struct {
		step    int64
		attempt int
	}{{10, 1}, {20, 1}, {5, 2}, {30, 2}, {15, 2}} {
		s.Add(model.Point{Step: p.step, Value: float64(p.step)}, p.attempt, true)
	}
	s.Purge(12)
	if got := steps(&s); !slices.Equal(got, []int64{10, 5}) {
		t.Fatalf("after Purge(12): %v, want [10 5]", got)
	}
	var dropped []int64
	s.EachDropped(func(attempt, n int, first, last int64, pts []model.Point) {
		dropped = append(dropped, int64(attempt), int64(n))
	})
	if !slices.Equal(dropped, []int64{1, 1, 2, 2}) || s.Dropped != 3 || len(s.Superseded) != 3 {
		t.Errorf("dropped by attempt %v, Dropped %d, %d superseded", dropped, s.Dropped, len(s.Superseded))
	}
	var line []int64
	s.EachLine(func(attempt int, pts []model.Point) { line = append(line, int64(attempt), int64(len(pts))) })
	if !slices.Equal(line, []int64{1, 1, 2, 1}) {
		t.Errorf("line by attempt %v, want attempt 1: 1 point, attempt 2: 1 point", line)
	}

	var l List[int64]
	for _, st := range []int64{10, 20, 5, 30, 15} {
		l.Add(st, st, true)
	}
	l.Purge(12)
	if !slices.Equal(l.Steps, []int64{10, 5}) || !slices.Equal(l.Items, []int64{10, 5}) || l.Dropped != 3 {
		t.Errorf("list after Purge(12): steps %v items %v dropped %d", l.Steps, l.Items, l.Dropped)
	}
}

// TestListKeepsSupersededInStepOrder checks that a list keeping what
// restarts replace merges it back with the line by step, each step's
// writes in the order written, the line's last.
func TestListKeepsSupersededInStepOrder(t *testing.T) {
	l := List[string]{KeepSuperseded: true}
	for _, w := range []struct {
		step int64
		item string
	}{{0, "a0"}, {1, "a1"}, {2, "a2"}, {3, "a3"}, {2, "b2"}, {3, "b3"}, {1, "c1"}} {
		l.Add(w.step, w.item, false)
	}
	var sup []string
	got := l.Merged(func(s *string) { sup = append(sup, *s); *s += "*" })
	want := []string{"a0", "a1*", "c1", "a2*", "b2*", "a3*", "b3*"}
	if !slices.Equal(got, want) || l.Dropped != 5 {
		t.Errorf("merged %v (dropped %d), want %v (5)", got, l.Dropped, want)
	}
	// Without KeepSuperseded, the line alone.
	l2 := List[string]{}
	l2.Add(0, "a", false)
	l2.Add(0, "b", false)
	if got := l2.Merged(nil); !slices.Equal(got, []string{"b"}) || l2.Dropped != 1 {
		t.Errorf("line %v, dropped %d; want [b], 1", got, l2.Dropped)
	}
}

// TestGrowKeepsPointsAndMakesRoom checks that Grow keeps the line's
// points and makes room for n more: appending them allocates nothing, and
// a Grow within the room left allocates nothing either.
func TestGrowKeepsPointsAndMakesRoom(t *testing.T) {
	var s Scalars
	for i := range 5 {
		s.Add(model.Point{Step: int64(i), Value: float64(i)}, 1, false)
	}
	s.Grow(2000) // AllocsPerRun runs the function twice: once to warm up
	if want := []int64{0, 1, 2, 3, 4}; !slices.Equal(steps(&s), want) {
		t.Fatalf("steps after Grow %v, want %v", steps(&s), want)
	}
	next := int64(5)
	allocs := testing.AllocsPerRun(1, func() {
		s.Grow(500) // room enough already
		for range 1000 {
			if !s.Append(model.Point{Step: next, Value: float64(next)}, 1) {
				t.Fatalf("step %d not appended", next)
			}
			next++
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations appending within the room Grow made, want 0", allocs)
	}
	for i, p := range s.Points {
		if p.Step != int64(i) || p.Value != float64(i) {
			t.Fatalf("point %d is %+v", i, p)
		}
	}
}
