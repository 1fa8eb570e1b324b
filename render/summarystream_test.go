package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/summary"
)

// wholeSummaryJSON is the whole summary.JSON as encoding/json writes it
// compact: what WriteSummaryJSON writes a run at a time, in the line
// form, but for whitespace.
func wholeSummaryJSON(t *testing.T, r *Report) []byte {
	t.Helper()
	s := summary.JSON{Title: r.opt.Title, Restarts: restartRuleName(r.rep), Runs: []summary.Run{}, Metrics: map[string]map[string]summary.Stat{},
		Warnings: summary.Warnings(r.rep.Warnings), Anomalies: r.anomaliesJSON()}
	for _, run := range r.rep.Runs {
		s.Runs = append(s.Runs, r.summaryRun(run))
		if len(runScalars(run)) > 0 {
			s.Metrics[run.Name] = r.summaryMetrics(run)
		}
	}
	s.Gates, s.Baseline = r.gatesJSON(), r.baselineJSON()
	var b bytes.Buffer
	if err := json.NewEncoder(&b).Encode(s); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// summary.json, written a run at a time in the line form, is the bytes of
// the whole summary encoded at once but for whitespace: with gates, a baseline, anomalies, warnings,
// names to escape, two runs of one name, a run without scalars; with no
// run at all; and a corpus folder's.
func TestSummaryJSONStreamedIsTheWholeEncoding(t *testing.T) {
	runs := map[string]map[string][]float64{
		"<a>&\u2028": {"loss/00": {0.1, 0.3, 0.7, 0.2, 0.1}, "accuracy": {0.5, math.NaN(), 0.7}},
		"b/c":        {"loss/00": {math.NaN(), math.Inf(1)}, "loss/01": {1e-7, 3e21}},
		"d":          {},
	}
	for r := range 30 {
		runs[fmt.Sprintf("run-%02d", r)] = map[string][]float64{"loss/00": {2, 1, float64(r)}}
	}
	gated := synthetic(runs)
	gated.Warnings = append(gated.Warnings, model.Warning{File: "x", Offset: -1, Msg: "unreadable <b>"})
	twice := synthetic(map[string]map[string][]float64{"x": {"loss": {1, 2}}, "y": {"loss": {3}}})
	twice.Runs[1].Name = "x"
	reports := map[string]*Report{
		"gated":      gatedReport(t, gated, 2, MarkdownComment),
		"no run":     newReport(&model.Report{}, Options{Title: "empty"}),
		"same names": newReport(twice, Options{}),
		"corpus":     newReport(collectDir(t, "tbreducer-torch-runs", filepath.Join(corpus(t), "tbreducer-torch-runs")), Options{}),
	}
	for name, r := range reports {
		want := wholeSummaryJSON(t, r)
		lines, err := r.SummaryJSON()
		if err != nil {
			t.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, lines); err != nil {
			t.Fatalf("%s: summary.json is not JSON: %v", name, err)
		}
		got := append(compact.Bytes(), '\n')
		if !bytes.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: streamed summary.json differs at byte %d of %d (want %d):\n%q\nwant\n%q", name, i, len(got), len(want),
				got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
		}
		if name == "gated" && (!bytes.Contains(got, []byte(`"gates":[`)) || !bytes.Contains(got, []byte(`"baseline":{`))) {
			t.Errorf("gated: no gates or no baseline:\n%.600s", got)
		}
	}
}

// wholeDataIndex is the whole dataIndex of pages as encoding/json writes
// it compact: what its line form, written a run at a time, holds but for
// whitespace.
func wholeDataIndex(t *testing.T, r *Report, pages []*pageData) []byte {
	t.Helper()
	b, err := json.Marshal(r.dataIndex(pages))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// pagesData is the pages' data as the site's data/index.json is made of
// (eachFile), their files dropped.
func pagesData(t *testing.T, r *Report) []*pageData {
	t.Helper()
	var out []*pageData
	for _, p := range r.pages() {
		if p.data == nil {
			continue
		}
		d, err := p.data(r, func(file) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}

// data/index.json, written a run at a time in the line form, is the bytes
// of the whole index encoded at once but for whitespace: scalars downsampled and superseded (a sweep with
// restarts under a small data cap), images and histograms (corpus
// folders), two runs of one name, a note of a page's error, no run.
func TestDataIndexStreamedIsTheWholeEncoding(t *testing.T) {
	twice := synthetic(map[string]map[string][]float64{"x": {"loss": {1, 2}}, "y": {"loss": {3}}})
	twice.Runs[1].Name = "x"
	reports := map[string]*Report{
		"same names": newReport(twice, Options{}),
		"no run":     newReport(&model.Report{}, Options{}),
		"sweep":      newReport(collectDir(t, "sweep", syntheticSweepOf(t, 30, 200)), Options{}, analysis.Options{MaxDataPoints: 50}),
	}
	for _, name := range []string{"keras-tf22-images", "tf2-custom-loop-tensors", "lightning-tbx-sweep"} {
		reports[name] = newReport(collectDir(t, name, filepath.Join(corpus(t), name)), Options{})
	}
	for name, r := range reports {
		pages := pagesData(t, r)
		if name == "same names" {
			pages[0].note("x", "loss", errors.New("a <note>"))
		}
		want := wholeDataIndex(t, r, pages)
		var lines, b bytes.Buffer
		if err := r.dataIndex(pages).write(&lines); err != nil {
			t.Fatal(err)
		}
		if err := json.Compact(&b, lines.Bytes()); err != nil {
			t.Fatalf("%s: data/index.json is not JSON: %v", name, err)
		}
		got := b.Bytes()
		if !bytes.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: streamed data/index.json differs at byte %d of %d (want %d):\n%q\nwant\n%q", name, i, len(got), len(want),
				got[max(0, i-80):min(len(got), i+80)], want[max(0, i-80):min(len(want), i+80)])
		}
		if name == "sweep" && (!bytes.Contains(got, []byte(`"superseded_scalar":{`)) || !bytes.Contains(got, []byte(`"downsampled":[`))) {
			t.Errorf("sweep: no superseded points or none downsampled:\n%.600s", got)
		}
		if name == "keras-tf22-images" && !bytes.Contains(got, []byte(`"categories":{`)) {
			t.Errorf("%s: no other category:\n%.600s", name, got)
		}
	}
}
