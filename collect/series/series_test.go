package series

import (
	"slices"
	"testing"
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
				s.Add(Point{WallTime: float64(i), Step: st, Value: float64(i)}, 1, tc.keepAll)
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
		s.Add(Point{Step: st}, 1, false)
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
