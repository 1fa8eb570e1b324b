package render

import (
	"context"
	"net/url"
	"regexp"

	"github.com/trainreport/trainreport/collect/anomaly"
)

// anomalies returns what the rules of collect/anomaly find in the report,
// found once: the overview, summary.json and summary.md list the same.
func (r *Report) anomalies() []anomaly.Anomaly {
	r.anomaliesOnce.Do(func() {
		r.anoms = anomaly.Find(context.Background(), r.rep, anomaly.DefaultThresholds)
	})
	return r.anoms
}

// anomalyPage names the page that draws what an anomaly of kind k is
// about.
func anomalyPage(k anomaly.Kind) string {
	switch k {
	case anomaly.KindScalar:
		return "scalars"
	case anomaly.KindHistogram:
		return "histograms"
	case anomaly.KindTensor:
		return "tensors"
	case anomaly.KindException:
		return "exceptions"
	}
	return "index"
}

// anomalyHash is the URL hash that shows the series of a: the Runs and
// Tags filters set to its run and tag exactly (app.js reads them from the
// hash), without "#".
func anomalyHash(a anomaly.Anomaly) string {
	v := "runs=" + url.QueryEscape("^"+regexp.QuoteMeta(a.Run)+"$")
	if a.Tag != "" {
		v += "&tags=" + url.QueryEscape("^"+regexp.QuoteMeta(a.Tag)+"$")
	}
	return v
}

// anomalyHref links to where a is drawn: the page's file with the hash in
// the site, the page key of the hash in the single file.
func (r *Report) anomalyHref(a anomaly.Anomaly, single bool) string {
	page := anomalyPage(a.Kind)
	if !r.hasPage(page) {
		page = "index"
	}
	if single {
		return "#page=" + page + "&" + anomalyHash(a)
	}
	return page + ".html#" + anomalyHash(a)
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

// summaryAnomaly is an anomaly as summary.json lists it.
type summaryAnomaly struct {
	Rule     string    `json:"rule"`
	Severity string    `json:"severity"`
	Kind     string    `json:"kind"`
	Run      string    `json:"run"`
	Tag      string    `json:"tag"`
	Step     *int64    `json:"step"`
	Value    jsonFloat `json:"value"`
	Count    int       `json:"count"`
	Message  string    `json:"message"`
	Page     string    `json:"page"`
	Href     string    `json:"href"`
}

func (r *Report) anomaliesJSON() []summaryAnomaly {
	out := []summaryAnomaly{}
	for _, a := range r.anomalies() {
		sa := summaryAnomaly{Rule: a.Rule, Severity: string(a.Severity), Kind: string(a.Kind), Run: a.Run, Tag: a.Tag,
			Value: jsonFloat(a.Value), Count: a.Count, Message: a.Message, Page: anomalyPage(a.Kind), Href: r.anomalyHref(a, false)}
		if a.HasStep {
			step := a.Step
			sa.Step = &step
		}
		out = append(out, sa)
	}
	return out
}
