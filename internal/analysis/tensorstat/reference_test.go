package tensorstat

import (
	"encoding/json"
	"math"
	"os"
	"slices"
	"testing"
)

// refValue is a number in testdata/reference.json, non-finite values as
// strings.
type refValue float64

func (v *refValue) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"NaN"`:
		*v = refValue(math.NaN())
	case `"Infinity"`:
		*v = refValue(math.Inf(1))
	case `"-Infinity"`:
		*v = refValue(math.Inf(-1))
	default:
		var f float64
		if err := json.Unmarshal(b, &f); err != nil {
			return err
		}
		*v = refValue(f)
	}
	return nil
}

// TestAgreesWithNumPy compares the statistics and the shared-grid
// histograms with numpy's (testdata/reference.py writes the reference).
func TestAgreesWithNumPy(t *testing.T) {
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref []struct {
		Name   string
		Bins   int
		Lo, Hi float64
		Steps  []struct {
			Values                   []refValue
			Count, Finite, NaN, Zero int
			PosInf                   int `json:"pos_inf"`
			NegInf                   int `json:"neg_inf"`
			Min, Max, Mean           *refValue
			Hist                     []int
		}
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	for _, s := range ref {
		t.Run(s.Name, func(t *testing.T) {
			var stats []Stats
			var values [][]float64
			for i, r := range s.Steps {
				vals := make([]float64, len(r.Values))
				for j, v := range r.Values {
					vals[j] = float64(v)
				}
				values = append(values, vals)
				st := Of(vals)
				stats = append(stats, st)
				if st.Count != r.Count || st.Finite != r.Finite || st.NaN != r.NaN || st.PosInf != r.PosInf || st.NegInf != r.NegInf || st.Zero != r.Zero {
					t.Errorf("step %d: counts %+v, numpy count %d finite %d NaN %d +Inf %d -Inf %d zero %d", i, st, r.Count, r.Finite, r.NaN, r.PosInf, r.NegInf, r.Zero)
				}
				if (r.Min == nil) != !st.HasFinite() {
					t.Fatalf("step %d: HasFinite %v, numpy min %v", i, st.HasFinite(), r.Min)
				}
				if r.Min == nil {
					continue
				}
				if st.Min != float64(*r.Min) || st.Max != float64(*r.Max) {
					t.Errorf("step %d: min %v max %v, numpy %v %v", i, st.Min, st.Max, *r.Min, *r.Max)
				}
				// numpy sums pairwise, we with compensation: both within
				// an ulp or so of the exact mean.
				if m := float64(*r.Mean); math.Abs(st.Mean-m) > 1e-14*math.Max(1, math.Abs(m)) {
					t.Errorf("step %d: mean %v, numpy %v", i, st.Mean, m)
				}
			}
			g, ok := GridOf(stats, s.Bins, false)
			if !ok || g.Lo != s.Lo || g.Hi != s.Hi {
				t.Fatalf("grid %+v, numpy's range [%v, %v]", g, s.Lo, s.Hi)
			}
			for i, vals := range values {
				if got := g.Counts(vals); !slices.Equal(got, s.Steps[i].Hist) {
					t.Errorf("step %d: counts %v, np.histogram %v", i, got, s.Steps[i].Hist)
				}
			}
		})
	}
}
