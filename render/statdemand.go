package render

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// The runs a histograms or distributions page leaves out over its byte
// budget load on demand in the site: for each tag cut, a script lists
// them (cutListFile), and each run's chart has a script of its own
// (cardScriptFile) holding exactly the inline data its card would have
// held. Both are script forms (see dataScript), which a page opened from
// file:// loads with a <script> element, where it could not fetch JSON.
// A page under its budget has neither: its report is as before.

// cutListFile is the script, under data/, listing the runs the page of
// dir leaves out of tag. No run's directory starts with '_' (see slug).
func cutListFile(dir, tag string) string {
	return dir + "/_cut/" + strings.TrimSuffix(dataStem(tag), ".json") + ".js"
}

// cardScriptFile is the script, under data/, of the chart of run's tag
// on the page of dir, beside the run's data file of that tag.
func cardScriptFile(dir, run, tag string) string {
	return strings.TrimSuffix(dataFile(dir, run, tag), ".json") + ".card.js"
}

// demandNote says what a tag's section of the site draws over the page's
// budget: the first shown of total runs, the others on demand.
func demandNote(shown, total, budget int, dir string) string {
	return fmt.Sprintf("This tag shows the first %s of %s runs within the page's budget of %s (--max-page-bytes): "+
		"the other %s load on demand with \u201cShow more runs\u201d. Their data is in data/%s/<run>/<tag>.json.",
		fmtCount(shown), fmtCount(total), fmtBytes(budget), fmtCount(total-shown), dir)
}

// cutEntry is one run of a cut list: [run, card script (under data/),
// steps label, note], the script "" when the chart cannot be drawn (the
// note says why).
type cutEntry [4]string

// cutScripts writes, when the site's page that build makes is over its
// budget, the scripts of the runs it leaves out: per tag cut the list of
// them, and each one's chart. The page is built again for it (only when
// there is a budget): the data files are written apart from the pages.
func (r *Report) cutScripts(build func(*Report, bool) (*statisticPage, error), emit func(file) error) error {
	if r.maxPageBytes() == math.MaxInt {
		return nil
	}
	p, err := build(r, false)
	if err != nil {
		return err
	}
	for _, g := range p.Groups {
		for _, st := range g.Tags {
			if st.More == "" {
				continue
			}
			list := make([]cutEntry, len(st.rest))
			dir, _, _ := strings.Cut(st.More, "/")
			for i, c := range st.rest {
				list[i] = cutEntry{c.Run, "", c.Steps, c.Note}
				if c.Note != "" {
					continue
				}
				name := cardScriptFile(dir, c.Run, st.Tag)
				list[i][1] = name
				// c.Data is our JSON, HTML-escaped (scriptJSON): a
				// JavaScript expression that cannot end the script.
				script := dataScript(name, len(c.Data), func(b []byte) []byte { return append(b, c.Data...) })
				if err := emit(file{"data/" + name, script}); err != nil {
					return err
				}
			}
			body, err := json.Marshal(list)
			if err != nil {
				return fmt.Errorf("runs left out of %s: %w", st.Tag, err)
			}
			if err := emit(file{"data/" + st.More, dataScript(st.More, len(body), func(b []byte) []byte { return append(b, body...) })}); err != nil {
				return err
			}
		}
	}
	return nil
}
