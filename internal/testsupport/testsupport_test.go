package testsupport

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

func TestSameAndIdentical(t *testing.T) {
	nan, negZero := math.NaN(), math.Copysign(0, -1)
	for _, c := range []struct {
		a, b            float64
		same, identical bool
	}{
		{1, 1, true, true},
		{1, 2, false, false},
		{nan, nan, true, true},
		{nan, math.Copysign(nan, -1), true, true},
		{nan, 1, false, false},
		{1, nan, false, false},
		{math.Inf(1), math.Inf(1), true, true},
		{math.Inf(1), math.Inf(-1), false, false},
		{0, negZero, true, false},
		{negZero, negZero, true, true},
	} {
		if got := Same(c.a, c.b); got != c.same {
			t.Errorf("Same(%v, %v) = %v, want %v", c.a, c.b, got, c.same)
		}
		if got := Identical(c.a, c.b); got != c.identical {
			t.Errorf("Identical(%v, %v) = %v, want %v", c.a, c.b, got, c.identical)
		}
	}
}

func TestOpenDirReadsTheFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := OpenDir(t, dir)
	var names []string
	if err := d.Walk(func(name string, size int64) error {
		names = append(names, name)
		return nil
	}, func(name string, err error) { t.Errorf("%s: %v", name, err) }); err != nil {
		t.Fatal(err)
	}
	if len(names) != 1 || names[0] != "f" {
		t.Errorf("walked %q, want [f]", names)
	}
}
