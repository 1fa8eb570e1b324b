package summary

import (
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
