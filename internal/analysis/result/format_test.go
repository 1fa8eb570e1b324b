package result

import "testing"

func TestCountsHaveThousandsSeparators(t *testing.T) {
	for _, c := range []struct {
		n         int
		count, of string
	}{
		{0, "0", "0 runs"},
		{1, "1", "1 run"},
		{999, "999", "999 runs"},
		{1000, "1,000", "1,000 runs"},
		{-1234567, "-1,234,567", "-1,234,567 runs"},
	} {
		if got := FormatCount(c.n); got != c.count {
			t.Errorf("FormatCount(%d) = %q, want %q", c.n, got, c.count)
		}
		if got := CountOf(c.n, "run", "runs"); got != c.of {
			t.Errorf("CountOf(%d) = %q, want %q", c.n, got, c.of)
		}
	}
}
