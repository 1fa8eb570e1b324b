package umap

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// bruteKNN returns each point's k nearest other points by Euclidean
// distance, nearest first (ties by index), in the row-major shape
// knn.Graph has: the tests' stand-in for collect/reduce/knn.
func bruteKNN(data []float32, n, d, k int) (index []int32, dist []float32) {
	index = make([]int32, n*k)
	dist = make([]float32, n*k)
	type cand struct {
		d float64
		j int32
	}
	less := func(x, y cand) bool { return x.d < y.d || x.d == y.d && x.j < y.j }
	best := make([]cand, 0, k+1) // the k nearest so far, nearest first
	for i := range n {
		best = best[:0]
		for j := range n {
			if j == i {
				continue
			}
			c := cand{euclid(data[i*d:i*d+d], data[j*d:j*d+d]), int32(j)}
			if len(best) == k && !less(c, best[k-1]) {
				continue
			}
			p := len(best)
			for p > 0 && less(c, best[p-1]) {
				p--
			}
			best = slices.Insert(best, p, c)
			if len(best) > k {
				best = best[:k]
			}
		}
		for c, b := range best {
			index[i*k+c] = b.j
			dist[i*k+c] = float32(b.d)
		}
	}
	return index, dist
}

func euclid(x, y []float32) float64 {
	s := 0.0
	for i, v := range x {
		t := float64(v) - float64(y[i])
		s += t * t
	}
	return math.Sqrt(s)
}

// trustworthiness is scikit-learn's sklearn.manifold.trustworthiness with
// the Euclidean metric: 1 − 2/(n·k·(2n − 3k − 1)) · Σ over each point's k
// nearest neighbours in the layout that are not among its k nearest in the
// data of (their rank in the data − k). 1 means the layout invents no
// neighbour.
func trustworthiness(data []float32, d int, layout []float32, dims, k int) float64 {
	n := len(data) / d
	rank := make([]int, n)
	order := make([]int, 0, n)
	dd := make([]float64, n)
	penalty := 0.0
	for i := range n {
		order = order[:0]
		for j := range n {
			dd[j] = euclid(data[i*d:i*d+d], data[j*d:j*d+d])
			if j != i {
				order = append(order, j)
			}
		}
		slices.SortStableFunc(order, func(x, y int) int { return cmpFloat(dd[x], dd[y]) })
		for r, j := range order {
			rank[j] = r + 1
		}
		order = order[:0]
		for j := range n {
			dd[j] = euclid(layout[i*dims:i*dims+dims], layout[j*dims:j*dims+dims])
			if j != i {
				order = append(order, j)
			}
		}
		slices.SortStableFunc(order, func(x, y int) int { return cmpFloat(dd[x], dd[y]) })
		for _, j := range order[:k] {
			if r := rank[j] - k; r > 0 {
				penalty += float64(r)
			}
		}
	}
	fn, fk := float64(n), float64(k)
	return 1 - penalty*2/(fn*fk*(2*fn-3*fk-1))
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// readRows reads a gzipped file of tab-separated float32 rows from testdata.
func readRows(t testing.TB, name string) (data []float32, n, d int) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if n == 0 {
			d = len(fields)
		} else if len(fields) != d {
			t.Fatalf("%s line %d: %d fields, want %d", name, n+1, len(fields), d)
		}
		for _, s := range fields {
			v, err := strconv.ParseFloat(s, 32)
			if err != nil {
				t.Fatalf("%s line %d: %v", name, n+1, err)
			}
			data = append(data, float32(v))
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return data, n, d
}

// reference is testdata/reference.json, written by testdata/reference.py.
type reference struct {
	UmapLearn string `json:"umap_learn"`
	K         int    `json:"k"`
	Datasets  []struct {
		Name, File     string
		N, D           int
		Trust2, Trust3 float64
	}
	Check struct {
		Data, Layout string
		Trust        float64
	}
	Curves []struct {
		MinDist float64 `json:"min_dist"`
		Spread  float64
		A, B    float64
	}
}

func readReference(t testing.TB) reference {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r reference
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("reference.json: %v", err)
	}
	if len(r.Datasets) == 0 || len(r.Curves) == 0 || r.K == 0 {
		t.Fatal(fmt.Errorf("reference.json: incomplete: %+v", r))
	}
	return r
}
