package render

import (
	"bytes"
	"encoding/json"
	"html"
	"regexp"
	"strings"
	"testing"
)

// statCard finds each inline card of a histograms or distributions page:
// its run and its data.
var statCard = regexp.MustCompile(`<figure class="stat-card" data-filter-run="([^"]*)">[\s\S]*?<script type="application/json" class="stat-data">(.*)</script>`)

// statTagSection finds each tag's section of such a page: its tag and, when
// cut, its list of the runs left out.
var statTagSection = regexp.MustCompile(`<div class="stat-tag" data-filter-tag="([^"]*)"(?: data-more="([^"]*)")?>`)

// inlineCards returns the inline data of every card of page, by tag and
// run, and the runs of each tag in order, and each tag's data-more.
func inlineCards(page []byte) (data map[string]map[string]string, runs map[string][]string, more map[string]string) {
	data, runs, more = map[string]map[string]string{}, map[string][]string{}, map[string]string{}
	secs := statTagSection.FindAllSubmatchIndex(page, -1)
	for i, m := range secs {
		end := len(page)
		if i+1 < len(secs) {
			end = secs[i+1][0]
		}
		tag := html.UnescapeString(string(page[m[2]:m[3]]))
		if m[4] >= 0 {
			more[tag] = html.UnescapeString(string(page[m[4]:m[5]]))
		}
		data[tag] = map[string]string{}
		for _, c := range statCard.FindAllSubmatch(page[m[0]:end], -1) {
			run := html.UnescapeString(string(c[1]))
			data[tag][run] = string(c[2])
			runs[tag] = append(runs[tag], run)
		}
	}
	return data, runs, more
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

// TestCutRunsLoadOnDemand renders a sweep whose histograms and
// distributions pages pass a small budget, and checks that each tag cut
// names the list of the runs it leaves out, which are exactly the others
// in order, each with a script that holds what its inline card holds on
// the page without a budget; and that the single file names no script.
func TestCutRunsLoadOnDemand(t *testing.T) {
	rep := everyKindReport(t, 120)
	// A name to escape everywhere: in the page, the list and the scripts.
	rep.Runs[100].Name = `trial"<b>&'</script>`
	const budget = 60 << 10
	cut := filesByName(t, New(rep, Options{MaxPageBytes: budget}))
	full := filesByName(t, New(rep, Options{}))
	for _, page := range []string{"histograms", "distributions"} {
		t.Run(page, func(t *testing.T) {
			if n := len(cut[page+".html"]); n > budget {
				t.Fatalf("%s.html: %d bytes, over %d", page, n, budget)
			}
			wantData, wantRuns, fullMore := inlineCards(full[page+".html"])
			gotData, gotRuns, more := inlineCards(cut[page+".html"])
			if len(fullMore) != 0 {
				t.Errorf("the page without a budget names cut lists: %v", fullMore)
			}
			if len(wantRuns) != 2 || len(more) != 2 {
				t.Fatalf("%d tags, %d of them cut, want 2 and 2", len(wantRuns), len(more))
			}
			for tag, all := range wantRuns {
				shown := gotRuns[tag]
				if len(shown) == 0 || len(shown) >= len(all) {
					t.Fatalf("%s: shows %d of %d runs", tag, len(shown), len(all))
				}
				for _, run := range shown {
					if gotData[tag][run] != wantData[tag][run] {
						t.Errorf("%s of %s: inline %.100s, without a budget %.100s", tag, run, gotData[tag][run], wantData[tag][run])
					}
				}
				if more[tag] != cutListFile(page, tag) {
					t.Errorf("%s: data-more %q, want %q", tag, more[tag], cutListFile(page, tag))
				}
				var list []cutEntry
				if err := json.Unmarshal(scriptBody(t, cut, more[tag]), &list); err != nil {
					t.Fatalf("%s: %v", more[tag], err)
				}
				var listed []string
				for _, e := range list {
					listed = append(listed, e[0])
					if e[3] != "" || e[1] == "" {
						t.Errorf("%s of %s: script %q, note %q", tag, e[0], e[1], e[3])
						continue
					}
					if got := string(scriptBody(t, cut, e[1])); got != wantData[tag][e[0]] {
						t.Errorf("%s of %s: %s holds %.100s, the inline card %.100s", tag, e[0], e[1], got, wantData[tag][e[0]])
					}
					var card statChartJSON
					if err := json.Unmarshal(scriptBody(t, cut, e[1]), &card); err != nil || card.Run != e[0] {
						t.Errorf("%s: run %q, %v; want %q", e[1], card.Run, err, e[0])
					}
				}
				if want := all[len(shown):]; strings.Join(listed, "\n") != strings.Join(want, "\n") || strings.Join(shown, "\n") != strings.Join(all[:len(shown)], "\n") {
					t.Errorf("%s: shows %d runs and lists %d, want the first %d and the other %d in order", tag, len(shown), len(listed), len(shown), len(want))
				}
			}
		})
	}
	// Without a budget to pass, no script is written.
	for name := range full {
		if strings.Contains(name, "/_cut/") || strings.HasSuffix(name, ".card.js") {
			t.Errorf("%s written for a report under its budget", name)
		}
	}
	var single bytes.Buffer
	if err := New(rep, Options{MaxPageBytes: budget}).WriteSingleFile(&single); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(single.Bytes(), []byte("data-more=")) || !bytes.Contains(single.Bytes(), []byte("(not in a single-file report)")) {
		t.Error("the single file names cut lists, or its note does not say the data is not in it")
	}
}
