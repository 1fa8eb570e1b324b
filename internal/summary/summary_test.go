package summary

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// Read takes the strings summary.json writes for non-finite values,
// counts warnings and damaged files, and refuses what is no summary.json.
func TestRead(t *testing.T) {
	f, err := Read([]byte(`{"runs": [{"name": "a", "files": [{"status": "ok"}, {"status": "empty"}, {"status": "truncated"}, {"status": "lfs-pointer"}],
		"warnings": [{"message": "x"}]}],
		"metrics": {"a": {"loss": {"points": 3, "non_finite": 2, "better": "lower",
			"last": {"step": 2, "value": "NaN"}, "min": {"step": 0, "value": "-Infinity"}, "max": {"step": 1, "value": "Infinity"}}}},
		"warnings": [{"message": "y"}, {"message": "z"}],
		"anomalies": [{"rule": "scalar.nonfinite", "run": "a", "tag": "loss", "step": null, "value": "NaN", "message": "m"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m := f.Metrics["a"]["loss"]
	if !math.IsNaN(m.Last.Value) || !math.IsInf(m.Min.Value, -1) || !math.IsInf(m.Max.Value, 1) || m.Best() != m.Min || m.Last.Step != 2 {
		t.Errorf("metric %+v", m)
	}
	if f.Warnings != 3 || f.Damaged != 2 || len(f.Anomalies) != 1 || f.Anomalies[0].Step != nil || f.Runs[0] != "a" {
		t.Errorf("file %+v", f)
	}
	for _, bad := range []string{`[]`, `{}`, `{"metrics": {"a": {"loss": {}}}}`, `{"metrics": {"a": {"loss": {"last": {"value": "nan"}}}}}`} {
		if _, err := Read([]byte(bad)); err == nil {
			t.Errorf("Read(%s): no error", bad)
		}
	}
	if _, err := Read([]byte(strings.Repeat(" ", MaxSize+1))); err == nil {
		t.Error("Read of more than MaxSize: no error")
	}
}

// What render writes with the types of json.go reads back through the
// same types and writes again to the same bytes: NaN and the infinities as
// their strings, a float32 value in its shortest form (0.1, not
// 0.10000000149011612), null min and max, a run without events.
func TestJSONReadsBackToTheSameBytes(t *testing.T) {
	step, wall := int64(3), Float(1700000000.5)
	f32 := float64(float32(0.1))
	doc := JSON{Title: "t", Restarts: "attempts",
		Runs: []Run{{Name: "a", Files: []LogFile{{Path: "a/ev", Bytes: 10, Records: 2, Status: "ok"}}, FirstStep: &step, LastStep: &step,
			StartTime: &wall, EndTime: &wall, DurationSeconds: new(Float), Attempts: []Attempt{{Attempt: 1, Files: []string{"a/ev"}}},
			Warnings: []Warning{}}, {Name: "b", Files: []LogFile{}, Warnings: []Warning{{File: "b/ev", Message: "m"}}}},
		Metrics: map[string]map[string]Stat{"a": {
			"loss": {Points: 3, NonFinite: 1, Last: &StatPoint{Step: 2, WallTime: wall, Value: Scalar{V: math.NaN()}},
				Min: &StatPoint{Value: Scalar{V: f32, F32: true}}, Max: &StatPoint{Value: Scalar{V: math.Inf(1)}}, Better: "lower"},
			"inf": {Points: 1, Last: &StatPoint{Value: Scalar{V: math.Inf(-1)}}}}},
		Warnings: []Warning{},
		Gates:    []Gate{{Expr: "loss.last > 1", Failed: true, Held: []Held{{Run: "a", Values: []string{"NaN"}}}, Runs: 1, Text: "x"}},
		Baseline: &Comparison{Source: "s", Threshold: 0.02, Compared: 1, Regressions: 1, Metrics: map[string]map[string]Delta{"a": {"loss": {
			Last:      Change{Value: Scalar{V: f32, F32: true}, Baseline: Scalar{V: 0}, Change: Scalar{V: f32}, Relative: Scalar{V: math.Inf(1)}},
			Regressed: true, Why: []string{"worse"}}}}},
		Anomalies: []AnomalyEntry{{Rule: "scalar.nonfinite", Run: "a", Tag: "loss", Step: &step, Value: Float(math.NaN()), Message: "m"}}}
	b, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"value": 0.1,`) || !strings.Contains(string(b), `"value": "NaN"`) || !strings.Contains(string(b), `"min": null`) {
		t.Fatalf("written:\n%s", b)
	}
	var back JSON
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	again, err := json.MarshalIndent(back, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if string(again) != string(b) {
		t.Errorf("written:\n%s\nread back and written again:\n%s", b, again)
	}
	f, err := Read(b)
	if err != nil {
		t.Fatal(err)
	}
	if m := f.Metrics["a"]["loss"]; m.Min.Value != 0.1 || !math.IsNaN(m.Last.Value) || !math.IsInf(m.Max.Value, 1) || len(f.Regressions) != 1 || *f.Anomalies[0].Step != 3 {
		t.Errorf("Read: %+v", f)
	}
}
