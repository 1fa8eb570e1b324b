package model

import (
	"slices"
	"testing"
)

func TestCompareRunNamesOrdersNumbersByValue(t *testing.T) {
	want := []string{
		"", "0", "00", "01", "1", "2", "10", "a", "a01", "a1", "a2", "a10",
		"lightning_logs/version_2", "lightning_logs/version_10",
		"lr=0.003", "lr=0.01", "lr=0.010", "lr=0.1", "lr=0.25", "lr=0.5", "lr=1", "lr=1.5", "lr=10", "lr=10.05",
		"run_seed0", "run_seed1", "run_seed9", "run_seed10",
		"x99999999999999999999999", "x100000000000000000000000", "xa", "\xff",
	}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortStableFunc(got, CompareRunNames)
	if !slices.Equal(got, want) {
		t.Errorf("sorted:\n got %q\nwant %q", got, want)
	}
	for i, a := range want {
		for j, b := range want {
			c := CompareRunNames(a, b)
			if (i < j && c >= 0) || (i > j && c <= 0) || (i == j && c != 0) {
				t.Errorf("CompareRunNames(%q, %q) = %d", a, b, c)
			}
		}
	}
}
