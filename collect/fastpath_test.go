package collect

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/trainreport/trainreport/examples/demo/demolog"
)

// TestFastPathAgreesWithFullDecoder reads every directory of the shared
// corpus, the real writers' fixtures and the demo twice, with the wire-level fast path and with the generated
// decoder alone, and requires the same report.
func TestFastPathAgreesWithFullDecoder(t *testing.T) {
	root := sharedCorpus(t)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	demo := filepath.Join(t.TempDir(), "demo")
	if err := demolog.Write(demo); err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{"demo": demo}
	for _, w := range []string{"tensorboardx", "tf2", "keras", "torch"} {
		dirs["writers/"+w] = filepath.Join("testdata", "writers", w)
	}
	for _, e := range entries {
		if e.IsDir() {
			dirs[e.Name()] = filepath.Join(root, e.Name())
		}
	}
	for name, dir := range dirs {
		lds := []Logdir{{Name: name, Path: dir}}
		fast, err := Collect(context.Background(), lds, Options{})
		if err != nil {
			t.Fatal(err)
		}
		full, err := Collect(context.Background(), lds, Options{fullDecode: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := range fast.Runs {
			a, b := *fast.Runs[i], *full.Runs[i]
			if len(a.Scalars) != len(b.Scalars) {
				t.Errorf("%s: run %q: %d scalar tags, full decoder %d", name, a.Name, len(a.Scalars), len(b.Scalars))
				continue
			}
			for j, sa := range a.Scalars {
				if !sameScalar(sa, b.Scalars[j]) {
					t.Errorf("%s: run %q scalar %q differs", name, a.Name, sa.Tag)
				}
			}
			// NaN != NaN: the points are compared above, bit for bit.
			a.Scalars, b.Scalars = nil, nil
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%s: run %q differs between the fast path and the full decoder:\n%+v\n%+v", name, a.Name, a, b)
			}
		}
	}
}

func sameScalar(a, b *Scalar) bool {
	if a.Tag != b.Tag || a.Float32 != b.Float32 || a.Dropped != b.Dropped || len(a.Points) != len(b.Points) {
		return false
	}
	for i, p := range a.Points {
		q := b.Points[i]
		if p.Step != q.Step || p.WallTime != q.WallTime || math.Float64bits(p.Value) != math.Float64bits(q.Value) {
			return false
		}
	}
	return true
}
