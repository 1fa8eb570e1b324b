package render

import (
	"bytes"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/gate"
	"github.com/trainreport/trainreport/internal/summary"
)

// halfBaseline is rep's own summary.json with every value halved: each
// loss of rep is then twice its baseline's, a regression.
func halfBaseline(t *testing.T, rep *model.Report) *analysis.Baseline {
	t.Helper()
	b, err := newReport(rep, Options{}).SummaryJSON()
	if err != nil {
		t.Fatal(err)
	}
	f, err := summary.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, tags := range f.Metrics {
		for tag, m := range tags {
			m.Last.Value /= 2
			if m.Min != nil {
				p := *m.Min
				p.Value /= 2
				m.Min = &p
			}
			tags[tag] = m
		}
	}
	return &analysis.Baseline{Source: "main/summary.json", Summary: f}
}

// gatedReport is a report of rep with a halved baseline and n gates, each
// holding for every run.
func gatedReport(t *testing.T, rep *model.Report, n int, form MarkdownForm) *Report {
	t.Helper()
	var gates []*gate.Gate
	for i := range n {
		g, err := gate.Parse(fmt.Sprintf(`"loss/%02d".last > baseline."loss/%02d".last`, i%50, i%50))
		if err != nil {
			t.Fatal(err)
		}
		gates = append(gates, g)
	}
	return newReport(rep, Options{Title: "gated", MarkdownForm: form}, analysis.Options{Baseline: halfBaseline(t, rep), Gates: gates})
}

// Gates and the comparison with the baseline come first in summary.md,
// and both forms stay within GitHub's limits however many gates fail and
// series regress: 300 runs x 50 tags (15,000 regressions), 200 failed
// gates each naming its runs, long names.
func TestSummaryMarkdownGatesAndBaselineWithinLimits(t *testing.T) {
	long := strings.Repeat("_*|@#😀", 100)
	reps := map[string]*model.Report{
		"300 runs x 50 tags": synthetic(grid(300, 50, 3, func(r int) string { return fmt.Sprintf("run-%03d", r) },
			func(g int) string { return fmt.Sprintf("loss/%02d", g) })),
		"40 runs x 50 tags, long run names": synthetic(grid(40, 50, 3, func(r int) string { return fmt.Sprint(r, long) },
			func(g int) string { return fmt.Sprintf("loss/%02d", g) })),
	}
	for name, rep := range reps {
		for _, form := range []MarkdownForm{MarkdownComment, MarkdownJob} {
			t.Run(name+"/"+form.String(), func(t *testing.T) {
				var b bytes.Buffer
				if err := gatedReport(t, rep, 200, form).WriteMarkdown(&b); err != nil {
					t.Fatal(err)
				}
				md := b.String()
				if form == MarkdownComment {
					if n := utf16Len(md); n > commentBudget {
						t.Errorf("comment summary.md is %d characters, past its budget of %d", n, commentBudget)
					}
				} else if len(md) > jobBudget {
					t.Errorf("job summary.md is %d bytes, past its budget of %d", len(md), jobBudget)
				}
				gates, baseline, headline := strings.Index(md, "## Gates: "), strings.Index(md, "## Against the baseline"), strings.Index(md, " runs · ")
				// The one-line headline, then the verdicts and the comparison.
				if headline < 0 || gates < headline || baseline < gates {
					t.Errorf("sections out of order: gates %d, baseline %d, headline %d\n%.3000s", gates, baseline, headline, md)
				}
				if !strings.Contains(md, "| ⚠️ | loss/") {
					t.Errorf("no regression row")
				}
				if !strings.Contains(md, "left out") || !strings.Contains(md, "rows of the baseline table") {
					t.Errorf("summary.md does not say what it left out: %s", md[max(0, len(md)-600):])
				}
				if !strings.Contains(md, "## Runs") {
					t.Errorf("the gates and the baseline starved the runs table")
				}
			})
		}
	}
}

// A gate's verdict names at most commentGateRuns runs in a comment, and
// how many more.
func TestSummaryMarkdownGateNamesFewRuns(t *testing.T) {
	rep := synthetic(grid(12, 2, 3, func(r int) string { return fmt.Sprintf("run-%02d", r) }, func(g int) string { return fmt.Sprintf("loss/%02d", g) }))
	var b bytes.Buffer
	if err := gatedReport(t, rep, 1, MarkdownComment).WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	md := strings.ReplaceAll(b.String(), "\u200d", "") // the joiners that keep names from autolinking
	if !strings.Contains(md, "holds for run **run-00**") || !strings.Contains(md, "and 9 more runs") || strings.Contains(md, "**run-03**") {
		t.Errorf("gate line:\n%.1500s", md)
	}
}

// TestSummaryOfIsSummaryJSONReadBack: what the gates and a directory
// given as --baseline read of a report (analysis.SummaryOf, made from the
// model and the analysis) is what summary.Read makes of the summary.json
// render writes: runs, metrics (float32 series' values as their shortest
// decimal form reads back, NaN and infinities, a series with no finite
// value, one with no points), anomalies, regressions, warnings and damaged
// files.
func TestSummaryOfIsSummaryJSONReadBack(t *testing.T) {
	runs := map[string]map[string][]float64{
		"a":   {"loss": {0.1, 0.3, 0.7, 0.2, 0.1}, "accuracy": {0.5, 0.6, math.NaN(), 0.7}, "lr": {0.1, 0, 0, 0, 0}},
		"b/c": {"loss": {math.NaN(), math.Inf(1)}, "grad": {1e-7, 3e21, -0.0, 1.0 / 3}},
		"d":   {},
	}
	for _, name := range hostile[:3] {
		runs[name] = map[string][]float64{"loss": {2, 1, 0.5}}
	}
	rep := synthetic(runs)
	for _, run := range rep.Runs {
		if run.Name == "a" || run.Name == "b/c" {
			for _, s := range run.Scalars {
				s.Float32 = true
				for i := range s.Points {
					s.Points[i].Value = float64(float32(s.Points[i].Value))
				}
			}
		}
		if run.Name == "d" {
			run.Scalars = append(run.Scalars, &model.Scalar{Tag: "empty"})
			run.Files = append(run.Files, model.File{Rel: "d/events.2", Status: "truncated"}, model.File{Rel: "d/events.3", Status: "empty"})
			run.Warnings = append(run.Warnings, model.Warning{File: "d/events.2", Offset: 40, Msg: "truncated"})
		}
	}
	rep.Warnings = append(rep.Warnings, model.Warning{File: "x", Offset: -1, Msg: "unreadable"})
	r := newReport(rep, Options{}, analysis.Options{Baseline: halfBaseline(t, rep)})
	b, err := r.SummaryJSON()
	if err != nil {
		t.Fatal(err)
	}
	want, err := summary.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	got := analysis.SummaryOf(rep, r.an)
	if len(got.Anomalies) == 0 || len(got.Regressions) == 0 || got.Damaged != 1 || got.Warnings != 2 {
		t.Fatalf("the report does not exercise every part: %d anomalies, %d regressions, %d damaged, %d warnings",
			len(got.Anomalies), len(got.Regressions), got.Damaged, got.Warnings)
	}
	if g, w := summaryText(got), summaryText(want); g != w {
		t.Errorf("SummaryOf:\n%s\nsummary.json read back:\n%s", g, w)
	}
}

// summaryText prints f whole, pointers followed and floats exact, so that
// two files compare by their text (NaN equal to NaN).
func summaryText(f *summary.File) string {
	var b strings.Builder
	pt := func(p *summary.Point) string {
		if p == nil {
			return "nil"
		}
		return fmt.Sprintf("%d:%s", p.Step, strconv.FormatFloat(p.Value, 'g', -1, 64))
	}
	fmt.Fprintf(&b, "runs %q warnings %d damaged %d\n", f.Runs, f.Warnings, f.Damaged)
	for _, run := range slices.Sorted(maps.Keys(f.Metrics)) {
		for _, tag := range slices.Sorted(maps.Keys(f.Metrics[run])) {
			m := f.Metrics[run][tag]
			fmt.Fprintf(&b, "metric %q %q points %d nonfinite %d last %s min %s max %s better %q\n", run, tag, m.Points, m.NonFinite,
				pt(&m.Last), pt(m.Min), pt(m.Max), m.Better)
		}
	}
	for _, a := range f.Anomalies {
		step := "nil"
		if a.Step != nil {
			step = fmt.Sprint(*a.Step)
		}
		fmt.Fprintf(&b, "anomaly %q %q %q %s %q\n", a.Rule, a.Run, a.Tag, step, a.Message)
	}
	for _, g := range f.Regressions {
		fmt.Fprintf(&b, "regression %q %q %q\n", g.Run, g.Tag, g.Why)
	}
	return b.String()
}
