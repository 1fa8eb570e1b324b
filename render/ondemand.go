package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/internal/analysis/result"
)

// The runs a card page (histograms, distributions, images, audio, text,
// tensors, PR curves, exceptions) leaves out over its byte budget load on
// demand in the site, cutPage runs at a time: for each tag cut, a
// directory of scripts (cutDir), the k-th holding the k-th page of those
// runs, each with exactly the card the page would have held, and one
// script listing the runs of each (runs.js), which the page loads when
// its Runs filter is set. They are script forms (see dataScript), which
// a page opened from file:// loads with a <script> element, where it
// could not fetch JSON. A page under its budget has none: its report is
// as before. The scripts are written right after their page, from what
// built it: the page is built once.

// cutPage is how many of the runs a tag leaves out one script holds, and
// so how many a click of the tag's "Show more runs" draws: a screenful or
// two of cards, one request.
const cutPage = 24

// cutIndex is the name, in a tag's cutDir, of the script listing the runs
// of each of the others.
const cutIndex = "runs.js"

// cutSection is what a tag's section of a card page says of the runs it
// leaves out over the page's budget; the zero value for a tag that shows
// every run. Every card page's tag embeds it.
type cutSection struct {
	// Cut is the note saying which runs the tag leaves out.
	Cut string
	// More is, in the site, the directory (under data/) of the scripts
	// from which the page draws the runs the tag leaves out, on demand,
	// MoreFiles scripts of cutPage runs each, MoreRuns runs in all; ""
	// when the tag shows every run or in the single file.
	More                string
	MoreFiles, MoreRuns int
	// rest are the cards the tag leaves out, for the scripts.
	rest []cutCard
}

// cutCard is a card a tag leaves out: its run and what the page's card
// template draws (or, on a media page, the run's inline data).
type cutCard struct {
	run  string
	card any
}

// cardPage is a page body whose tags may leave runs out (cutSections).
type cardPage interface {
	// cutSections returns the tags of the page, and the name of the
	// template that draws one card from a cutCard's card: "" when the
	// card is JSON data the page's script draws (images, audio).
	cutSections() (cardTemplate string, tags []*cutSection)
}

// cutDir is the directory, under data/, of the scripts of the runs the
// page of dir leaves out of tag, with its final slash. No run's directory
// starts with '_' (see slug).
func cutDir(dir, tag string) string {
	return dir + "/_cut/" + strings.TrimSuffix(dataStem(tag), ".json") + "/"
}

// cutFile is the k-th script of cutDir.
func cutFile(more string, k int) string { return more + strconv.Itoa(k) + ".js" }

// cutNote says what a tag's section leaves out over the page's budget: it
// shows shown of total runs. In the site the others load on demand; the
// single file, which has no data files, says the site has them.
func (r *Report) cutNote(shown, total int, dir string, single bool) string {
	if !single {
		return fmt.Sprintf("This tag shows the first %s of %s runs within the page's budget of %s (--max-page-bytes): "+
			"the other %s load on demand with \u201cShow more runs\u201d. Their data is in data/%s/<run>/<tag>.json.",
			result.FormatCount(shown), result.FormatCount(total), fmtBytes(r.maxPageBytes()), result.FormatCount(total-shown), dir)
	}
	return fmt.Sprintf("This tag shows the first %s of %s runs: the other %s would pass the page's budget of %s (--max-page-bytes). "+
		"Their data is in the site's data/%s/<run>/<tag>.json (not in a single-file report).",
		result.FormatCount(shown), result.FormatCount(total), result.FormatCount(total-shown), fmtBytes(r.maxPageBytes()), dir)
}

// cutCards cuts each tag's cards to the first keep, setting its note and,
// in the site (single unset), what it offers on demand: tag t of n has
// the cards cards(t), section sec(t) and name tagOf(t); run names a
// card's run; dir names the page's data files.
func cutCards[C any](r *Report, n, keep int, dir string, single bool,
	tagOf func(t int) string, cards func(t int) *[]C, sec func(t int) *cutSection, run func(C) string) {
	for t := range n {
		cs := cards(t)
		if len(*cs) <= keep {
			continue
		}
		s := sec(t)
		s.Cut = r.cutNote(keep, len(*cs), dir, single)
		if !single {
			for _, c := range (*cs)[keep:] {
				s.rest = append(s.rest, cutCard{run(c), c})
			}
			s.More = cutDir(dir, tagOf(t))
			s.MoreRuns = len(s.rest)
			s.MoreFiles = (len(s.rest) + cutPage - 1) / cutPage
		}
		*cs = (*cs)[:keep]
	}
}

// writeCutScripts writes, through stream, the scripts of the runs the
// page body data leaves out (see cardPage), if any: per tag cut, its
// cutPage-run scripts, each [[run, card], ...] with card the HTML of the
// card the page's template t would have drawn, as a JSON string (or, on
// a media page, the run's inline data), and its runs.js, [[run, ...], ...]
// the runs of each.
func (r *Report) writeCutScripts(t *template.Template, data any, stream func(name string, write func(io.Writer) error) error) error {
	cp, ok := data.(cardPage)
	if !ok || r.maxPageBytes() == math.MaxInt {
		return nil
	}
	name, secs := cp.cutSections()
	var html bytes.Buffer
	for _, s := range secs {
		if s.More == "" {
			continue
		}
		var index [][]string
		for k := 0; k*cutPage < len(s.rest); k++ {
			file := cutFile(s.More, k)
			page := s.rest[k*cutPage : min((k+1)*cutPage, len(s.rest))]
			var runs []string
			b := []byte{'['}
			for i, c := range page {
				if i > 0 {
					b = append(b, ",\n"...)
				}
				runs = append(runs, c.run)
				var card []byte
				var err error
				if name == "" {
					var js template.JS
					js, err = scriptJSON(c.card)
					card = []byte(js)
				} else {
					html.Reset()
					if err = t.ExecuteTemplate(&html, name, c.card); err == nil {
						card, err = jsString(html.String())
					}
				}
				if err != nil {
					// No card of ours fails to encode (their data is
					// already on the page's form): a last resort.
					card, _ = json.Marshal("")
				}
				head, _ := json.Marshal([]string{c.run}) // strings always encode
				b = append(append(append(append(b, head[:len(head)-1]...), ','), card...), ']')
			}
			b = append(b, ']')
			index = append(index, runs)
			if err := streamScript(stream, file, b); err != nil {
				return err
			}
		}
		list, _ := json.Marshal(index) // strings always encode
		if err := streamScript(stream, s.More+cutIndex, list); err != nil {
			return err
		}
	}
	return nil
}

// streamScript writes data/<name> through stream: the script form (see
// dataScript) of the JSON body.
func streamScript(stream func(name string, write func(io.Writer) error) error, name string, body []byte) error {
	script := dataScript(name, 0, func(b []byte) []byte { return append(b, body...) })
	return stream("data/"+name, func(w io.Writer) error {
		_, err := w.Write(script)
		return err
	})
}

// jsString encodes s as a JSON string for a script file of its own: not
// HTML-escaped (a script file is no HTML: "<" as \u003c would take six
// bytes, and a card's markup is full of them), U+2028 and U+2029 escaped
// still (encoding/json always does), which older JavaScript refused in a
// string.
func jsString(s string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}
