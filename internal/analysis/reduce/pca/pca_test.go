package pca

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestProjectMatchesNumpySVD compares with numpy's SVD of the same centred
// data (internal/analysis/reduce/testdata/reference.py): coordinates equal up to the
// sign of each component, explained variance ratios equal.
func TestProjectMatchesNumpySVD(t *testing.T) {
	ref := readReference(t)
	checkAgainst(t, ref, 1)
}

// TestProjectOverManyBlocksMatchesNumpySVD repeats the reference data past
// several row blocks: same mean and components, the covariance scaled, so
// the same coordinates, repeated.
func TestProjectOverManyBlocksMatchesNumpySVD(t *testing.T) {
	ref := readReference(t)
	copies := 2*rowBlock/ref.N + 3
	checkAgainst(t, ref, copies)
}

type numpyReference struct {
	N, D, K   int
	Data      []float32
	Coords    []float64
	Explained []float64
}

func readReference(t *testing.T) numpyReference {
	t.Helper()
	b, err := os.ReadFile("../testdata/pca.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref numpyReference
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	return ref
}

// checkAgainst projects the reference data repeated copies times and
// compares with numpy's SVD (internal/analysis/reduce/testdata/reference.py):
// coordinates equal up to the sign of each component, explained variance
// ratios equal.
func checkAgainst(t *testing.T, ref numpyReference, copies int) {
	t.Helper()
	var data []float32
	for range copies {
		data = append(data, ref.Data...)
	}
	got, err := Project(data, copies*ref.N, ref.D, ref.K)
	if err != nil {
		t.Fatal(err)
	}
	for c := range ref.K {
		sign := 1.0
		if float64(got.Coords[c])*ref.Coords[c] < 0 {
			sign = -1
		}
		for i := range copies * ref.N {
			g, w := sign*float64(got.Coords[i*ref.K+c]), ref.Coords[(i%ref.N)*ref.K+c]
			if math.Abs(g-w) > 1e-4*(1+math.Abs(w)) {
				t.Fatalf("point %d component %d: %v, want ±%v", i, c, g, w)
			}
		}
		if math.Abs(got.Explained[c]-ref.Explained[c]) > 1e-9 {
			t.Errorf("component %d explains %v, want %v", c, got.Explained[c], ref.Explained[c])
		}
	}
}

func TestProjectSignMakesLargestLoadingPositive(t *testing.T) {
	// Points along (1, -3): the component's loadings are ±(0.32, -0.95), so
	// the sign makes the second loading positive and the point at (1, -3)
	// negative.
	data := []float32{1, -3, -1, 3, 2, -6, -2, 6}
	for _, flip := range []float32{1, -1} {
		in := make([]float32, len(data))
		for i, v := range data {
			in[i] = flip * v // the same line, points mirrored
		}
		got, err := Project(in, 4, 2, 1)
		if err != nil {
			t.Fatal(err)
		}
		want := float64(flip) * -math.Sqrt(10)
		if math.Abs(float64(got.Coords[0])-want) > 1e-5 {
			t.Errorf("flip %v: first point at %v, want %v", flip, got.Coords[0], want)
		}
		if math.Abs(got.Explained[0]-1) > 1e-12 {
			t.Errorf("flip %v: explained %v, want 1", flip, got.Explained[0])
		}
	}
}

func TestProjectOfIdenticalPointsExplainsNothing(t *testing.T) {
	got, err := Project([]float32{1, 2, 1, 2, 1, 2}, 3, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	for c, e := range got.Explained {
		if e != 0 {
			t.Errorf("component %d explains %v, want 0", c, e)
		}
	}
	for i, v := range got.Coords {
		if v != 0 {
			t.Errorf("coordinate %d: %v, want 0", i, v)
		}
	}
}

func TestProjectRefuses(t *testing.T) {
	for _, tc := range []struct {
		name    string
		data    []float32
		n, d, k int
	}{
		{"more components than dimensions", []float32{0, 1}, 2, 1, 2},
		{"no component", []float32{0, 1}, 2, 1, 0},
		{"length not n*d", []float32{0, 1, 2}, 2, 1, 1},
		{"NaN", []float32{0, float32(math.NaN())}, 2, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Project(tc.data, tc.n, tc.d, tc.k); err == nil {
				t.Error("no error")
			}
		})
	}
}

func gaussian(n, d int) []float32 {
	r := rand.New(rand.NewPCG(1, 1))
	x := make([]float32, n*d)
	for i := range x {
		x[i] = float32(r.NormFloat64())
	}
	return x
}

// BenchmarkProject is the size: 10,000 points × 128 to 3
// components.
func BenchmarkProject(b *testing.B) {
	const n, d = 10000, 128
	data := gaussian(n, d)
	for b.Loop() {
		if _, err := Project(data, n, d, 3); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSVD is the alternative Project was measured against: the thin
// SVD of the centred 10,000 × 128 data.
func BenchmarkSVD(b *testing.B) {
	const n, d = 10000, 128
	data := gaussian(n, d)
	x := mat.NewDense(n, d, nil)
	for i, v := range data {
		x.RawMatrix().Data[i] = float64(v)
	}
	for b.Loop() {
		var svd mat.SVD
		if !svd.Factorize(x, mat.SVDThin) {
			b.Fatal("no SVD")
		}
	}
}

// BenchmarkProjectCap is the PCA cap: 50,000 points × 1,024.
func BenchmarkProjectCap(b *testing.B) {
	const n, d = 50000, 1024
	data := gaussian(n, d)
	for b.Loop() {
		if _, err := Project(data, n, d, 3); err != nil {
			b.Fatal(err)
		}
	}
}
