package render

import (
	"bytes"
	"encoding/json"
	"math"
	"net/url"
	"strings"
	"testing"
)

// An anomaly is listed in summary.json, summary.md and on the overview,
// linked to the page and series that draw it, with the names from the logs
// inert everywhere.
func TestAnomaliesListed(t *testing.T) {
	tag := "loss<script>alert(1)</script>|[x](http://e.test)"
	run := "run*1*"
	vals := []float64{1, 0.9, math.NaN(), 0.8}
	r := newReport(synthetic(map[string]map[string][]float64{run: {tag: vals}, "ok": {"acc": {0.1, 0.2}}}), Options{})
	files := filesByName(t, r)

	var sum struct {
		Anomalies []map[string]any `json:"anomalies"`
	}
	if err := json.Unmarshal(files["summary.json"], &sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Anomalies) != 1 {
		t.Fatalf("summary.json: %d anomalies, want 1: %v", len(sum.Anomalies), sum.Anomalies)
	}
	a := sum.Anomalies[0]
	if a["rule"] != "scalar.nonfinite" || a["run"] != run || a["tag"] != tag || a["step"] != 2.0 || a["value"] != "NaN" || a["page"] != "scalars" {
		t.Errorf("summary.json anomaly %v", a)
	}
	href, _ := a["href"].(string)
	page, hash, _ := strings.Cut(href, "#")
	q, err := url.ParseQuery(hash)
	if page != "scalars.html" || err != nil || q.Get("runs") != `^run\*1\*$` || q.Get("tags") != `^loss<script>alert\(1\)</script>\|\[x\]\(http://e\.test\)$` {
		t.Errorf("href %q: page %q, runs %q, tags %q", href, page, q.Get("runs"), q.Get("tags"))
	}

	md := string(files["summary.md"])
	if !strings.Contains(md, "## Anomalies") || !strings.Contains(md, "`scalar.nonfinite`") {
		t.Errorf("summary.md has no anomaly:\n%s", md)
	}
	if strings.Contains(md, "<script>") || strings.Contains(md, "[x](http://e.test)") {
		t.Errorf("summary.md lets a tag's markup through:\n%s", md)
	}

	index := files["index.html"]
	if bytes.Contains(index, []byte("<script>alert")) || !bytes.Contains(index, []byte(`id="anomalies"`)) {
		t.Error("index.html: no anomalies section, or the tag's markup let through")
	}
	if !bytes.Contains(index, []byte(`href="scalars.html#runs=`)) {
		t.Error("index.html: the anomaly does not link to the scalars page")
	}
	var single bytes.Buffer
	if err := r.WriteSingleFile(&single); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(single.Bytes(), []byte(`href="#page=scalars&amp;runs=`)) {
		t.Error("single file: the anomaly does not link to the scalars page's section")
	}
}
