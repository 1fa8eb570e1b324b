package render

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/internal/analysis/result"
)

// The runs a histograms or distributions page leaves out over its byte
// budget load on demand in the site, cutPage runs at a time: for each
// tag cut, a directory of scripts (cutDir), the k-th holding the k-th
// page of those runs, each with exactly the inline data its card would
// have held. They are script forms (see dataScript), which a page opened
// from file:// loads with a <script> element, where it could not fetch
// JSON. A page under its budget has none: its report is as before.

// cutPage is how many of the runs a tag leaves out one script holds, and
// so how many a click of the tag's "Show more runs" draws: a screenful or
// two of cards, one request.
const cutPage = 24

// cutDir is the directory, under data/, of the scripts of the runs the
// page of dir leaves out of tag, with its final slash. No run's directory
// starts with '_' (see slug).
func cutDir(dir, tag string) string {
	return dir + "/_cut/" + strings.TrimSuffix(dataStem(tag), ".json") + "/"
}

// cutFile is the k-th script of cutDir.
func cutFile(more string, k int) string { return more + strconv.Itoa(k) + ".js" }

// demandNote says what a tag's section of the site draws over the page's
// budget: the first shown of total runs, the others on demand.
func demandNote(shown, total, budget int, dir string) string {
	return fmt.Sprintf("This tag shows the first %s of %s runs within the page's budget of %s (--max-page-bytes): "+
		"the other %s load on demand with \u201cShow more runs\u201d. Their data is in data/%s/<run>/<tag>.json.",
		result.FormatCount(shown), result.FormatCount(total), fmtBytes(budget), result.FormatCount(total-shown), dir)
}

// cutScripts writes, when the site's page that build makes is over its
// budget, the scripts of the runs it leaves out, per tag cut. Each is
// [[run, steps label, note, card], ...]: card is what the run's inline
// card would hold (statChartJSON), null when it cannot be encoded (the
// note says why). The page is built again for it (only when there is a
// budget): the data files are written apart from the pages.
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
			for k := 0; k*cutPage < len(st.rest); k++ {
				name := cutFile(st.More, k)
				page := st.rest[k*cutPage : min((k+1)*cutPage, len(st.rest))]
				script := dataScript(name, 0, func(b []byte) []byte {
					b = append(b, '[')
					for i, c := range page {
						if i > 0 {
							b = append(b, ",\n"...)
						}
						head, _ := json.Marshal([]string{c.Run, c.Steps, c.Note}) // strings always encode
						b = append(b, head[:len(head)-1]...)
						// c.Data is our JSON, HTML-escaped (scriptJSON): a
						// JavaScript expression that cannot end the script.
						b = append(append(append(b, ','), c.Data...), ']')
					}
					return append(b, ']')
				})
				if err := emit(file{"data/" + name, script}); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
