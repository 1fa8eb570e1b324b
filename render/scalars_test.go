package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/summary"
)

// TestChartDataMatchesEncodingJSON checks that the hand-written encoder of
// a chart's data writes what encoding/json writes for chartJSON, byte for
// byte (hostile names, non-finite values and a downsampled series
// included), so that the page reads the same data as before.
func TestChartDataMatchesEncodingJSON(t *testing.T) {
	long := make([]float64, 5000)
	for i := range long {
		long[i] = math.Sin(float64(i))
	}
	long[17] = math.NaN()
	runs := map[string]map[string][]float64{"plain": {"loss": long}}
	for _, name := range hostile {
		runs[name] = map[string][]float64{"loss": {1, math.Inf(1), math.Inf(-1), math.NaN(), 1e308, -1e-300}}
	}
	r := newReport(synthetic(runs), Options{}, analysis.Options{MaxPoints: 400})
	for _, files := range []bool{false, true} {
		for _, tv := range r.tags {
			cj := chartJSON{Tag: tv.tag}
			for _, sv := range tv.series {
				pts := sv.scalar.Points
				cr := chartRun{Name: sv.run.Name, Points: appendDrawnPoints(nil, sv.scalar.Points, sv.draw, sv.scalar.Float32), Total: len(pts), Shown: len(sv.draw),
					Start: summary.Float(sv.run.Start), Envelope: [][6]summary.Float{}, Kept: keptLen(sv.data, sv.scalar.Points)}
				if files {
					cr.File, cr.Script = sv.file, sv.file
				}
				for _, b := range sv.buckets {
					if b.HasFinite {
						p0, p1 := pts[b.First], pts[b.Last]
						cr.Envelope = append(cr.Envelope, [6]summary.Float{summary.Float(p0.Step), summary.Float(p1.Step),
							summary.Float(p0.WallTime), summary.Float(p1.WallTime), summary.Float(b.Min), summary.Float(b.Max)})
					}
				}
				cj.Runs = append(cj.Runs, cr)
			}
			want, err := scriptJSON(cj)
			if err != nil {
				t.Fatal(err)
			}
			got, err := appendChartData(nil, tv, files)
			if err != nil || string(got) != string(want) {
				t.Errorf("tag %q, files %v: appendChartData = %.300s (%v), encoding/json = %.300s", tv.tag, files, got, err, want)
			}
		}
	}
}

// scalarTags is a report of one run with n scalar tags of a few points.
func scalarTags(n int) map[string]map[string][]float64 {
	tags := map[string][]float64{}
	for i := range n {
		tags[fmt.Sprintf("group%d/tag%06d", i%10, i)] = []float64{1, 2, 3}
	}
	return map[string]map[string][]float64{"run": tags}
}

// TestScalarsPageDrawsAtMostMaxCharts checks the page's budget of charts:
// beyond it, tags are listed by name and not drawn, the page says so, the
// data files still hold every series, and no ECharts option is written,
// per chart (100,000 tags made a 147 MB page) or per page: the page
// script builds them (assets/app.js).
func TestScalarsPageDrawsAtMostMaxCharts(t *testing.T) {
	const tags = 2600
	files := filesByName(t, newReport(synthetic(scalarTags(tags)), Options{}))
	page := files["scalars.html"]
	if n := bytes.Count(page, []byte(`<figure class="chart-card"`)); n != analysis.DefaultMaxCharts {
		t.Errorf("%d charts, want %d", n, analysis.DefaultMaxCharts)
	}
	if n := bytes.Count(page, []byte("<li>group")); n != tags-analysis.DefaultMaxCharts {
		t.Errorf("%d tags listed, want %d", n, tags-analysis.DefaultMaxCharts)
	}
	if !bytes.Contains(page, []byte("This page draws at most 2,000 charts")) || !bytes.Contains(page, []byte("600 tags not drawn")) {
		t.Error("the page does not say it left tags undrawn")
	}
	if n := bytes.Count(page, []byte(`class="chart-option"`)); n != 0 || bytes.Contains(page, []byte(`"option":`)) {
		t.Errorf("%d page options; a chart holds its own option: %v", n, bytes.Contains(page, []byte(`"option":`)))
	}
	var bundles []string
	for name := range files {
		if strings.HasPrefix(name, "data/scalars/") {
			bundles = append(bundles, name)
		}
	}
	if len(bundles) != 1 {
		t.Fatalf("scalar data files %v, want the run's bundle", bundles)
	}
	if doc := readRunBundle(t, strings.TrimPrefix(bundles[0], "data/"), files[bundles[0]], "run"); len(doc.Scalars) != tags {
		t.Errorf("the bundle holds %d series, want %d", len(doc.Scalars), tags)
	}
	// Per chart: its data and markup, about 600 bytes here; the list, a
	// tag's name.
	t.Logf("scalars.html: %s for %d tags", fmtBytes(len(page)), tags)
	if len(page) > analysis.DefaultMaxCharts*1000+tags*40+100<<10 {
		t.Errorf("scalars.html is %s", fmtBytes(len(page)))
	}

	// No bound: every tag drawn.
	page = filesByName(t, newReport(synthetic(scalarTags(tags)), Options{}, analysis.Options{MaxCharts: -1}))["scalars.html"]
	if n := bytes.Count(page, []byte(`<figure class="chart-card"`)); n != tags || bytes.Contains(page, []byte("not drawn")) {
		t.Errorf("MaxCharts -1: %d charts, want %d", n, tags)
	}
}

// TestScalarsPageBudgetCountsDrawnSeriesOnly checks that the page's
// budget of points is shared by the series of the tags it draws, not by
// those it only lists.
func TestScalarsPageBudgetCountsDrawnSeriesOnly(t *testing.T) {
	vals := make([]float64, 2000)
	runs := map[string]map[string][]float64{"run": {}}
	for i := range 400 {
		runs["run"][fmt.Sprintf("tag%03d", i)] = vals
	}
	// 400 series of 2,000 points: 800,000, twice the page's budget; the
	// first 100 tags drawn: 200,000, within it.
	if r := newReport(synthetic(runs), Options{}, analysis.Options{MaxCharts: 100}); r.an.Scalars.DrawCap != analysis.DefaultMaxPoints {
		t.Errorf("draw cap %d, want %d", r.an.Scalars.DrawCap, analysis.DefaultMaxPoints)
	}
	if r := newReport(synthetic(runs), Options{}); r.an.Scalars.DrawCap != 1000 {
		t.Errorf("draw cap %d with every tag drawn, want 1000", r.an.Scalars.DrawCap)
	}
	page := filesByName(t, newReport(synthetic(runs), Options{}, analysis.Options{MaxCharts: 100}))["scalars.html"]
	if regexp.MustCompile(`each draws at most`).Match(page) {
		t.Error("the page says its series draw fewer points")
	}
}

// BenchmarkScalarsPage100kTags builds the scalars page of 100,000 tags of
// a run (the first 2,000 drawn). go test ./render -run '^$' -bench ScalarsPage
func BenchmarkScalarsPage100kTags(b *testing.B) {
	r := newReport(synthetic(scalarTags(100_000)), Options{})
	b.ReportAllocs()
	for b.Loop() {
		var buf bytes.Buffer
		r.bodies = map[bodyKey]any{} // build the page's data anew each time
		if err := r.writePage(&buf, r.pages()[1], nil); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(buf.Len()), "page-bytes")
	}
}

// TestOverviewMetricRowsBounded checks that the overview's key-metrics
// table shows at most overviewMetricRows series and says how many it
// leaves out, while its counts and summary.json cover every series.
func TestOverviewMetricRowsBounded(t *testing.T) {
	const tags = overviewMetricRows + 700
	r := newReport(synthetic(scalarTags(tags)), Options{})
	p := r.overviewPage(false)
	if len(p.Metrics) != overviewMetricRows || p.NumPoints != 3*tags || p.NumTags != tags {
		t.Errorf("%d rows, %d points, %d tags", len(p.Metrics), p.NumPoints, p.NumTags)
	}
	if want := "This table shows the first 5,000 of 5,700 series"; !strings.HasPrefix(p.MetricsCut, want) {
		t.Errorf("note %q, want %q...", p.MetricsCut, want)
	}
	files := filesByName(t, r)
	if !bytes.Contains(files["index.html"], []byte("summary.json holds the key metrics of all of them")) {
		t.Error("index.html does not say what it leaves out")
	}
	if n := bytes.Count(files["summary.json"], []byte(`"non_finite"`)); n != tags {
		t.Errorf("summary.json holds %d series, want %d", n, tags)
	}
}

// TestBundlesAreScriptsNoNameBreaks checks every run's bundle under
// hostile run and tag names: a script of three lines whose second is the
// JSON (readBundle), holding every tag of the run under its own name, and
// which no name can end or break (a page adds it as a <script> element).
func TestBundlesAreScriptsNoNameBreaks(t *testing.T) {
	runs := map[string]map[string][]float64{}
	for _, name := range hostile {
		runs[name] = map[string][]float64{"loss": {1, math.NaN(), 2}, name: {3, math.Inf(-1)}, "__proto__": {4}}
	}
	r := newReport(synthetic(runs), Options{})
	files := filesByName(t, r)
	n := 0
	for name, data := range files {
		if !strings.HasPrefix(name, "data/scalars/") {
			continue
		}
		for run, doc := range readBundle(t, strings.TrimPrefix(name, "data/"), data).Runs {
			n++
			tags := runs[run]
			if tags == nil || len(doc.Scalars) != len(tags) {
				t.Errorf("%s: run %q with %d tags, want %d", name, run, len(doc.Scalars), len(tags))
			}
			for tag, vals := range tags {
				if c, ok := doc.Scalars[tag]; !ok || c.Count != len(vals) {
					t.Errorf("%s: tag %q: %+v", name, tag, c)
				}
			}
		}
		for _, bad := range []string{"</", "<!--", "\u2028", "\u2029"} {
			if strings.Contains(string(data), bad) {
				t.Errorf("%s holds %q", name, bad)
			}
		}
	}
	if n != len(runs) {
		t.Fatalf("bundles of %d runs, want %d", n, len(runs))
	}
}

// chartJSON is the shape appendChartData writes by hand: the chart-data
// block the page script draws from (see
// assets/scalarchart.js): per run, its drawn points and what the page needs
// to draw them. No ECharts option is written, for the page or per chart:
// assets/scalarchart.js builds them (the rule is in assets/app.js's header).
type chartJSON struct {
	Tag  string     `json:"tag"`
	Runs []chartRun `json:"runs"`
}

type chartRun struct {
	Name string `json:"name"`
	// Points are the drawn points, [step, value, wall_time] each, with
	// non-finite values as strings.
	Points json.RawMessage `json:"points"`
	Total  int             `json:"total"`
	Shown  int             `json:"shown"`
	Start  summary.Float   `json:"start"`
	// Envelope holds [step0, step1, wall0, wall1, min, max] per bucket of
	// a downsampled series: the range its drawn points stand for.
	Envelope [][6]summary.Float `json:"envelope"`
	// Kept is how many points the series' data file holds (fewer than
	// Total when --max-data-points capped it).
	Kept int `json:"kept"`
	// File is the run's scalar bundle, relative to the data directory,
	// and Script the same (a bundle is a script, which registers itself
	// under its name); both empty in the single-file report, which has no
	// data files.
	File   string `json:"file,omitempty"`
	Script string `json:"script,omitempty"`
	// SupersededFile and SupersededScript name the same bundle when the
	// series has superseded points (attempts.go).
	SupersededFile   string `json:"superseded_file,omitempty"`
	SupersededScript string `json:"superseded_script,omitempty"`
}
