package render

import (
	"fmt"
	"net/url"
	"regexp"

	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// anomalies returns what the anomaly rules found in the report (the
// analysis found them once): the overview, summary.json and summary.md
// list the same.
func (r *Report) anomalies() []result.Anomaly {
	return r.an.Anomalies
}

// anomalyPage names the page that draws what an anomaly of kind k is
// about.
func anomalyPage(k result.Kind) string {
	switch k {
	case result.KindScalar:
		return "scalars"
	case result.KindHistogram:
		return "histograms"
	case result.KindTensor:
		return "tensors"
	case result.KindException:
		return "exceptions"
	}
	return "index"
}

// anomalyHash is the URL hash that shows the series of a: the Runs and
// Tags filters set to its run and tag exactly (app.js reads them from the
// hash), without "#".
func anomalyHash(a result.Anomaly) string {
	v := "runs=" + url.QueryEscape("^"+regexp.QuoteMeta(a.Run)+"$")
	if a.Tag != "" {
		v += "&tags=" + url.QueryEscape("^"+regexp.QuoteMeta(a.Tag)+"$")
	}
	return v
}

// anomalyHref links to where a is drawn: the page's file with the hash in
// the site, the page key of the hash in the single file.
func (r *Report) anomalyHref(a result.Anomaly, single bool) string {
	page := anomalyPage(a.Kind)
	if page == "index" || !r.hasPage(page) {
		// A run's finding is shown by a section of the overview: in the
		// site its anchor (the overview keeps no state in the hash).
		if single {
			return "#page=index"
		}
		return "index.html#" + runSection(a.Rule)
	}
	if single {
		return "#page=" + page + "&" + anomalyHash(a)
	}
	return page + ".html#" + anomalyHash(a)
}

// runSection names the overview's section that shows what a rule on a
// run found.
func runSection(rule string) string {
	switch rule {
	case "run.restarted":
		return "restarts"
	case "run.damaged_files":
		return "skipped"
	}
	return "runs"
}

// hasPage reports whether the report has the page called name.
func (r *Report) hasPage(name string) bool {
	for _, p := range r.pages() {
		if p.name == name {
			return true
		}
	}
	return false
}

// anomaliesJSON are summary.json's anomalies, all of them, an empty list
// (never null) for none.
func (r *Report) anomaliesJSON() []summary.AnomalyEntry {
	out := []summary.AnomalyEntry{}
	for _, a := range r.anomalies() {
		sa := summary.AnomalyEntry{Rule: a.Rule, Severity: string(a.Severity), Kind: string(a.Kind), Run: a.Run, Tag: a.Tag,
			Value: summary.Float(a.Value), Count: a.Count, Detail: a.Detail, Message: a.Message, Page: anomalyPage(a.Kind), Href: r.anomalyHref(a, false)}
		if a.HasStep {
			step := a.Step
			sa.Step = &step
		}
		out = append(out, sa)
	}
	return out
}

// overviewAnomalyRows bounds the overview's list of anomalies; summary.json
// holds them all.
const overviewAnomalyRows = 500

// anomalyRow is one anomaly in the overview's list.
type anomalyRow struct {
	// Message says what was found; the row's cells name run and tag.
	Severity, Rule, Run, Tag, Step, Message string
	// Href links to the page and series that draw it.
	Href string
}

// anomalyRows lists the first limit anomalies for the overview, errors
// first.
func (r *Report) anomalyRows(single bool, limit int) []anomalyRow {
	var rows []anomalyRow
	for _, sev := range []result.Severity{result.Error, result.Warning} {
		for _, a := range r.anomalies() {
			if a.Severity != sev || len(rows) == limit {
				continue
			}
			row := anomalyRow{Severity: string(a.Severity), Rule: a.Rule, Run: a.Run, Tag: a.Tag, Message: a.Detail,
				Href: r.anomalyHref(a, single)}
			if a.HasStep {
				row.Step = fmt.Sprint(a.Step)
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// commentAnomalies bounds the anomalies summary.md lists in a comment; the
// job summary lists every one that fits.
const commentAnomalies = 50

// mdAnomalies writes summary.md's list of anomalies, errors first, each
// linked to the page that draws it.
func (r *Report) mdAnomalies(md *mdWriter, limit int) {
	var rows []string
	for _, sev := range []result.Severity{result.Error, result.Warning} {
		for _, a := range r.anomalies() {
			if a.Severity != sev {
				continue
			}
			step := ""
			if a.HasStep {
				step = fmt.Sprint(a.Step)
			}
			rows = append(rows, fmt.Sprintf("| %s | `%s` | %s | %s | %s | %s |\n",
				a.Severity, a.Rule, md.name(a.Run), md.name(a.Tag), step, mdText(a.Detail)))
		}
	}
	total := len(rows)
	if limit > 0 && len(rows) > limit {
		md.leave(len(rows)-limit, "anomalies (summary.json and the overview list them all)")
		rows = rows[:limit]
	}
	md.table(fmt.Sprintf("## Anomalies\n\n%s found by the build's checks (docs/ANOMALIES.md), errors first; the overview links each to its chart.\n\n| Severity | Rule | Run | Tag | Step | Finding |\n|---|---|---|---|---:|---|\n",
		result.CountOf(total, "anomaly", "anomalies")), rows, 0, "anomalies")
}
