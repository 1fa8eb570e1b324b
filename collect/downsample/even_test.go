package downsample

import (
	"slices"
	"testing"
)

func TestEven(t *testing.T) {
	for _, c := range []struct {
		n, budget int
		want      []int
	}{
		{0, 100, []int{}},
		{3, 100, []int{0, 1, 2}},
		{3, 0, []int{0, 1, 2}},
		{10, 4, []int{0, 3, 6, 9}},
		{188, 100, nil}, // checked below
		{5, 1, []int{4}},
	} {
		got := Even(c.n, c.budget)
		if c.want != nil && !slices.Equal(got, c.want) {
			t.Errorf("Even(%d, %d) = %v, want %v", c.n, c.budget, got, c.want)
		}
		wantLen := c.n
		if c.budget > 0 {
			wantLen = min(c.n, c.budget)
		}
		if len(got) != wantLen || c.n > 0 && got[len(got)-1] != c.n-1 {
			t.Errorf("Even(%d, %d) = %v: wrong length or last not kept", c.n, c.budget, got)
		}
		for i := 1; i < len(got); i++ {
			if got[i] <= got[i-1] {
				t.Fatalf("Even(%d, %d) = %v: not increasing", c.n, c.budget, got)
			}
		}
	}
}
