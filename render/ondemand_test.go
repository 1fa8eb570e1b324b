package render

import (
	"bytes"
	"encoding/json"
	"html"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// cutTagSection finds each tag's section of a card page: its tag and,
// when cut, the directory of the scripts of the runs left out and their
// count.
var cutTagSection = regexp.MustCompile(`<(?:div|section) class="(?:stat|text|tensor|exc|media)-tag" data-filter-tag="([^"]*)"(?: data-more="([^"]*)" data-more-files="(\d+)" data-more-runs="(\d+)")?>`)

// cardStart finds the start of each card of a card page's section, and
// its run.
var cardStart = regexp.MustCompile(`<(?:figure|article) class="(?:stat-card|stat-card pr-card|text-card|tensor-card|exc-card)"[^>]*? data-filter-run="([^"]*)"`)

// mediaTagData finds a media page's tag data.
var mediaTagData = regexp.MustCompile(`<script type="application/json" class="media-data">(.*)</script>`)

type cutTag struct {
	runs  []string // shown, in order
	cards map[string]string
	more  string
}

// cardSections returns the sections of a card page by tag: the runs each
// shows, each card's markup (or the run's data on a media page), and its data-more.
func cardSections(t *testing.T, page []byte) map[string]*cutTag {
	t.Helper()
	out := map[string]*cutTag{}
	secs := cutTagSection.FindAllSubmatchIndex(page, -1)
	for i, m := range secs {
		end := len(page)
		if i+1 < len(secs) {
			end = secs[i+1][0]
		}
		body := page[m[1]:end]
		ct := &cutTag{cards: map[string]string{}}
		if m[4] >= 0 {
			ct.more = html.UnescapeString(string(page[m[4]:m[5]]))
		}
		out[html.UnescapeString(string(page[m[2]:m[3]]))] = ct
		if d := mediaTagData.FindSubmatch(body); d != nil {
			var tag struct{ Runs []json.RawMessage }
			if err := json.Unmarshal(d[1], &tag); err != nil {
				t.Fatalf("media data: %v", err)
			}
			for _, raw := range tag.Runs {
				var run struct{ Name string }
				if err := json.Unmarshal(raw, &run); err != nil {
					t.Fatal(err)
				}
				ct.runs = append(ct.runs, run.Name)
				ct.cards[run.Name] = string(raw)
			}
			continue
		}
		for _, c := range cardStart.FindAllSubmatchIndex(body, -1) {
			// A card ends at its element's end tag: no card holds another
			// figure or article.
			cend := len(body)
			for _, endTag := range []string{"</figure>\n", "</article>\n"} {
				if k := bytes.Index(body[c[0]:], []byte(endTag)); k >= 0 {
					cend = min(cend, c[0]+k+len(endTag))
				}
			}
			run := html.UnescapeString(string(body[c[2]:c[3]]))
			ct.runs = append(ct.runs, run)
			ct.cards[run] = string(body[c[0]:cend])
		}
	}
	return out
}

// scriptBody returns what the script form of name, one of files, hands
// to dataLoaded, or fails.
func scriptBody(t *testing.T, files map[string][]byte, name string) []byte {
	t.Helper()
	b, ok := files["data/"+name]
	if !ok {
		t.Fatalf("data/%s: not written", name)
	}
	q, _ := json.Marshal(name)
	head := "window.trainreport&&window.trainreport.dataLoaded(" + string(q) + ","
	if !bytes.HasPrefix(b, []byte(head)) || !bytes.HasSuffix(b, []byte(");\n")) {
		t.Fatalf("data/%s: not a script form of itself: %.200s", name, b)
	}
	return b[len(head) : len(b)-3]
}

// sameJSON reports whether a and b encode the same value.
func sameJSON(a, b string) bool {
	var x, y any
	return json.Unmarshal([]byte(a), &x) == nil && json.Unmarshal([]byte(b), &y) == nil && reflect.DeepEqual(x, y)
}

// TestEveryCardPageLoadsTheRunsItLeavesOut renders a sweep whose card
// pages (histograms, distributions, images, audio, text, tensors, PR
// curves, exceptions) pass a small budget, and checks that each tag cut
// names the directory of the scripts of the runs it leaves out, which
// hold exactly the others in order, cutPage runs a script, each with the
// card the page without a budget draws, byte for byte (a media page: the
// run's data), and a list of the runs of each script; and that the
// single file names no script, and the site under its budget writes none.
func TestEveryCardPageLoadsTheRunsItLeavesOut(t *testing.T) {
	rep := everyKindReport(t, 120)
	// A name to escape everywhere: in the page, the list and the scripts.
	rep.Runs[100].Name = `trial"<b>&'</script>`
	// The media pages' cards are small: at 60 KiB they fit whole.
	const budget, mediaBudget = 60 << 10, 20 << 10
	cuts := map[int]map[string][]byte{}
	for _, b := range []int{budget, mediaBudget} {
		cuts[b] = filesByName(t, newReport(rep, Options{MaxPageBytes: b}))
	}
	full := filesByName(t, newReport(rep, Options{}))
	for name, card := range cutPages {
		page := strings.TrimSuffix(name, ".html")
		budget := budget
		if card == "" {
			budget = mediaBudget
		}
		cut := cuts[budget]
		t.Run(page, func(t *testing.T) {
			if n := len(cut[name]); n > budget {
				t.Fatalf("%s: %d bytes, over %d", name, n, budget)
			}
			want, got := cardSections(t, full[name]), cardSections(t, cut[name])
			if len(want) == 0 || len(got) != len(want) {
				t.Fatalf("%d tags over the budget, %d without", len(got), len(want))
			}
			for tag, w := range want {
				g := got[tag]
				if w.more != "" {
					t.Errorf("%s: the page without a budget offers %q on demand", tag, w.more)
				}
				if g == nil || len(g.runs) == 0 || len(g.runs) >= len(w.runs) {
					t.Fatalf("%s: shows %d of %d runs", tag, len(g.runs), len(w.runs))
				}
				if strings.Join(g.runs, "\n") != strings.Join(w.runs[:len(g.runs)], "\n") {
					t.Errorf("%s: shows %q, want the first %d of %q", tag, g.runs, len(g.runs), w.runs)
				}
				for _, run := range g.runs {
					if g.cards[run] != w.cards[run] {
						t.Errorf("%s of %s: card %.200s, without a budget %.200s", tag, run, g.cards[run], w.cards[run])
					}
				}
				if g.more != cutDir(page, tag) {
					t.Fatalf("%s: data-more %q, want %q", tag, g.more, cutDir(page, tag))
				}
				var index [][]string
				if err := json.Unmarshal(scriptBody(t, cut, g.more+cutIndex), &index); err != nil {
					t.Fatalf("%s: %v", cutIndex, err)
				}
				var listed []string
				for k := 0; ; k++ {
					name := cutFile(g.more, k)
					if _, ok := cut["data/"+name]; !ok {
						if want := (len(w.runs) - len(g.runs) + cutPage - 1) / cutPage; k != want || len(index) != want {
							t.Errorf("%s: %d scripts, %d in %s, want %d", tag, k, len(index), cutIndex, want)
						}
						break
					}
					var list [][]json.RawMessage
					if err := json.Unmarshal(scriptBody(t, cut, name), &list); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if len(list) == 0 || len(list) > cutPage {
						t.Errorf("%s: %d runs, want 1 to %d", name, len(list), cutPage)
					}
					var runs []string
					for _, e := range list {
						var run, card string
						if len(e) != 2 || json.Unmarshal(e[0], &run) != nil {
							t.Fatalf("%s: entry %.200s", name, e)
						}
						runs = append(runs, run)
						if w.cards[run] == "" {
							t.Errorf("%s: %q is no run of %s", name, run, tag)
						} else if json.Unmarshal(e[1], &card) == nil {
							// The card as the page without a budget draws
							// it, byte for byte.
							if card != w.cards[run] {
								t.Errorf("%s of %s: %s holds %.300s,\nthe page without a budget %.300s", tag, run, name, card, w.cards[run])
							}
						} else if !sameJSON(string(e[1]), w.cards[run]) {
							t.Errorf("%s of %s: %s holds %.300s,\nthe page without a budget %.300s", tag, run, name, e[1], w.cards[run])
						}
					}
					if k < len(index) && strings.Join(index[k], "\n") != strings.Join(runs, "\n") {
						t.Errorf("%s: %s lists %q for script %d, which holds %q", tag, cutIndex, index[k], k, runs)
					}
					listed = append(listed, runs...)
				}
				if rest := w.runs[len(g.runs):]; strings.Join(listed, "\n") != strings.Join(rest, "\n") {
					t.Errorf("%s: the scripts hold %d runs, want the other %d in order", tag, len(listed), len(rest))
				}
			}
		})
	}
	// Without a budget to pass, no script is written.
	for name := range full {
		if strings.Contains(name, "/_cut/") {
			t.Errorf("%s written for a report under its budget", name)
		}
	}
	var single bytes.Buffer
	if err := newReport(rep, Options{MaxPageBytes: mediaBudget}).WriteSingleFile(&single); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(single.Bytes(), []byte("data-more=")) || !bytes.Contains(single.Bytes(), []byte("(not in a single-file report)")) {
		t.Error("the single file names cut lists, or its note does not say the data is not in it")
	}
}
