package result

import (
	"slices"
	"testing"
)

func TestEvenSteps(t *testing.T) {
	for _, c := range []struct {
		name      string
		n, budget int
		want      []int
	}{
		{"under budget keeps all", 3, 5, []int{0, 1, 2}},
		{"budget one keeps the last", 10, 1, []int{9}},
		{"no budget keeps none", 10, 0, nil},
		{"thinned evenly with first and last", 10, 4, []int{0, 3, 6, 9}},
		{"uneven", 7, 3, []int{0, 3, 6}},
		{"one less than all", 5, 4, []int{0, 1, 2, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := EvenSteps(c.n, c.budget); !slices.Equal(got, c.want) {
				t.Errorf("EvenSteps(%d, %d) = %v, want %v", c.n, c.budget, got, c.want)
			}
		})
	}
	for n := 1; n < 300; n++ {
		for _, budget := range []int{1, 2, 50, 100} {
			got := EvenSteps(n, budget)
			if len(got) != min(n, budget) || got[len(got)-1] != n-1 || budget > 1 && got[0] != 0 {
				t.Fatalf("EvenSteps(%d, %d) = %v: wrong length, or first or last not kept", n, budget, got)
			}
			for i := 1; i < len(got); i++ {
				if got[i] <= got[i-1] {
					t.Fatalf("EvenSteps(%d, %d) = %v: not increasing", n, budget, got)
				}
			}
		}
	}
}
