package quality

import (
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestTrustworthinessMatchesScikitLearn measures scikit-learn's own t-SNE
// layout of the blobs (internal/analysis/reduce/testdata/reference.py) and compares
// with what sklearn.manifold.trustworthiness said of it.
func TestTrustworthinessMatchesScikitLearn(t *testing.T) {
	f, err := os.Open("../testdata/tsne-blobs.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		D                        int
		Data, Embedding          []float32
		EmbeddingTrustworthiness float64 `json:"embedding_trustworthiness"`
	}
	if err := json.NewDecoder(zr).Decode(&ref); err != nil {
		t.Fatal(err)
	}
	got, err := Trustworthiness(ref.Data, ref.D, ref.Embedding, 2, 10)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got-ref.EmbeddingTrustworthiness) > 1e-9 {
		t.Errorf("trustworthiness %v, scikit-learn's %v", got, ref.EmbeddingTrustworthiness)
	}
}

func TestTrustworthinessOfAnIdenticalLayoutIsOne(t *testing.T) {
	x := []float32{0, 1, 3, 6, 10, 15, 21, 28, 36, 45}
	got, err := Trustworthiness(x, 1, x, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got != 1 {
		t.Errorf("trustworthiness %v, want 1", got)
	}
}

func TestTrustworthinessPenalisesFalseNeighbours(t *testing.T) {
	// Points 0 and 9 of a line swap places in the layout. With k = 1: 0's
	// layout neighbour is 8, 8th in its original ranking (penalty 7); 9's
	// is 1 (penalty 7); 8's are 7 and 0 at equal distance, 0 first by index,
	// 9th from 8 (penalty 8); 1's are 9 and 2, 2 first, which is 2nd from 1
	// after 0 (penalty 1). Ties go by index in both rankings.
	// T = 1 − 2·23/(n·k·(2n − 3k − 1)) = 1 − 46/160.
	high := []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	low := []float32{9, 1, 2, 3, 4, 5, 6, 7, 8, 0}
	got, err := Trustworthiness(high, 1, low, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 - 46.0/160; math.Abs(got-want) > 1e-12 {
		t.Errorf("trustworthiness %v, want %v", got, want)
	}
}
