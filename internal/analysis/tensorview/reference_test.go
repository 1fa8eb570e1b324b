package tensorview

import (
	"encoding/json"
	"github.com/trainreport/trainreport/internal/testsupport"
	"math"
	"os"
	"slices"
	"testing"
)

// num is a number of reference.json: a JSON number, "NaN", "Infinity",
// "-Infinity", or null (a padding cell).
type num struct {
	v   float64
	nul bool
}

func (n *num) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "null":
		n.v, n.nul = math.NaN(), true
		return nil
	case `"NaN"`:
		n.v = math.NaN()
		return nil
	case `"Infinity"`:
		n.v = math.Inf(1)
		return nil
	case `"-Infinity"`:
		n.v = math.Inf(-1)
		return nil
	}
	return json.Unmarshal(b, &n.v)
}

type refCase struct {
	Name        string  `json:"name"`
	Shape       []int   `json:"shape"`
	Values      []num   `json:"values"`
	Percentiles []num   `json:"percentiles"`
	Box         []num   `json:"box"`
	Outliers    []int   `json:"outliers"`
	HistEdges   []num   `json:"hist_edges"`
	HistCounts  []int   `json:"hist_counts"`
	Matrix      [][]num `json:"matrix"`
}

// TestAgreesWithNumPy compares every computation of the package with what
// numpy computes of the same tensors (testdata/reference.py): bit for bit.
func TestAgreesWithNumPy(t *testing.T) {
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []refCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 10 {
		t.Fatalf("%d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			vals := make([]float64, len(c.Values))
			for i, v := range c.Values {
				vals[i] = v.v
			}
			p, ok := Percentiles(vals)
			if !ok {
				t.Fatal("no finite value")
			}
			for i := range p {
				if !testsupport.Same(p[i], c.Percentiles[i].v) {
					t.Errorf("P%v = %v, numpy %v", Quantiles[i], p[i], c.Percentiles[i].v)
				}
			}
			box := BoxOf(p, 1.5)
			got := []float64{box.Down, box.Q1, box.Median, box.Q3, box.Up}
			for i := range got {
				if !testsupport.Same(got[i], c.Box[i].v) {
					t.Errorf("box[%d] = %v, numpy %v", i, got[i], c.Box[i].v)
				}
			}
			o := OutliersOf(vals, box, 1_000_000)
			if !slices.Equal(o.Indices, c.Outliers) || o.Total != len(c.Outliers) {
				t.Errorf("outliers at %v (%d), numpy %v", o.Indices, o.Total, c.Outliers)
			}
			h, ok := HistogramOf(vals)
			if !ok {
				t.Fatal("no histogram")
			}
			if !slices.Equal(h.Counts, c.HistCounts) {
				t.Errorf("histogram counts %v, numpy %v", h.Counts, c.HistCounts)
			}
			for i := range h.Edges {
				if h.Edges[i] != c.HistEdges[i].v {
					t.Errorf("edge %d = %v, numpy %v", i, h.Edges[i], c.HistEdges[i].v)
					break
				}
			}
			hm := HeatmapOf(vals, c.Shape, 1<<20)
			if hm.CellRows != len(c.Matrix) || hm.CellRows != hm.Rows || len(c.Matrix) > 0 && hm.CellCols != len(c.Matrix[0]) {
				t.Fatalf("heat map %dx%d (%dx%d cells), numpy %dx%d", hm.Rows, hm.Cols, hm.CellRows, hm.CellCols, len(c.Matrix), len(c.Matrix[0]))
			}
			for r, row := range c.Matrix {
				for col, want := range row {
					k := r*hm.CellCols + col
					if !testsupport.Same(hm.Cells[k], want.v) || hm.Pad[k] != want.nul {
						t.Fatalf("cell (%d, %d) = %v (pad %v), numpy %v (pad %v)", r, col, hm.Cells[k], hm.Pad[k], want.v, want.nul)
					}
				}
			}
		})
	}
}
