package render

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/internal/gate"
	"github.com/trainreport/trainreport/internal/summary"
)

// halfBaseline is rep's own summary.json with every value halved: each
// loss of rep is then twice its baseline's, a regression.
func halfBaseline(t *testing.T, rep *model.Report) *Baseline {
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
	return &Baseline{Source: "main/summary.json", Summary: f}
}

// gatedReport is a report of rep with a halved baseline and n gates, each
// holding for every run.
func gatedReport(t *testing.T, rep *model.Report, n int, form MarkdownForm) *Report {
	t.Helper()
	r := newReport(rep, Options{Title: "gated", MarkdownForm: form, Baseline: halfBaseline(t, rep)})
	sb, err := r.SummaryJSON()
	if err != nil {
		t.Fatal(err)
	}
	cur, err := summary.Read(sb)
	if err != nil {
		t.Fatal(err)
	}
	var res []gate.Result
	for i := range n {
		g, err := gate.Parse(fmt.Sprintf(`"loss/%02d".last > baseline."loss/%02d".last`, i%50, i%50))
		if err != nil {
			t.Fatal(err)
		}
		res = append(res, g.Eval(cur, r.opt.Baseline.Summary))
	}
	r.SetGates(res)
	return r
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
