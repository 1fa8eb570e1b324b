package umap

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/internal/analysis/reduce/knn"
	"github.com/trainreport/trainreport/internal/analysis/reduce/quality"
)

// neighbours is the k-nearest-neighbour graph of data that Embed takes,
// from package knn as the report computes it.
func neighbours(tb testing.TB, data []float32, n, d, k int) (index []int32, dist []float32) {
	tb.Helper()
	g, err := knn.Search(context.Background(), data, n, d, k, knn.Euclidean)
	if err != nil {
		tb.Fatal(err)
	}
	return g.Index, g.Dist
}

// trustworthiness is scikit-learn's measure of how few neighbours a layout
// invents (package quality), k neighbours, Euclidean.
func trustworthiness(tb testing.TB, data []float32, d int, layout []float32, dims, k int) float64 {
	tb.Helper()
	v, err := quality.Trustworthiness(data, d, layout, dims, k)
	if err != nil {
		tb.Fatal(err)
	}
	return v
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
	Datasets  []dataset
	Check     struct {
		Data, Layout string
		Trust        float64
	}
	Curves []struct {
		MinDist float64 `json:"min_dist"`
		Spread  float64
		A, B    float64
	}
}

// dataset is one of reference.json's datasets: its file, its size and
// the trustworthiness of umap-learn's 2-D and 3-D layouts of it.
type dataset struct {
	Name, File     string
	N, D           int
	Trust2, Trust3 float64
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
