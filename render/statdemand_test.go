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
// cut, the directory of the scripts of the runs left out.
var statTagSection = regexp.MustCompile(`<div class="stat-tag" data-filter-tag="([^"]*)"(?: data-more="([^"]*)" data-more-files="\d+" data-more-runs="\d+")?>`)

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
// names the directory of the scripts of the runs it leaves out, which
// hold exactly the others in order, cutPage runs a script, each run with what its inline
// card holds on the page without a budget; and that the single file
// names no script.
func TestCutRunsLoadOnDemand(t *testing.T) {
	rep := everyKindReport(t, 120)
	// A name to escape everywhere: in the page, the list and the scripts.
	rep.Runs[100].Name = `trial"<b>&'</script>`
	const budget = 60 << 10
	cut := filesByName(t, newReport(rep, Options{MaxPageBytes: budget}))
	full := filesByName(t, newReport(rep, Options{}))
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
				if more[tag] != cutDir(page, tag) {
					t.Errorf("%s: data-more %q, want %q", tag, more[tag], cutDir(page, tag))
				}
				var listed []string
				for k := 0; ; k++ {
					name := cutFile(more[tag], k)
					if _, ok := cut["data/"+name]; !ok {
						if want := (len(all) - len(shown) + cutPage - 1) / cutPage; k != want {
							t.Errorf("%s: %d scripts, want %d", tag, k, want)
						}
						break
					}
					var list []json.RawMessage
					if err := json.Unmarshal(scriptBody(t, cut, name), &list); err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if len(list) == 0 || len(list) > cutPage {
						t.Errorf("%s: %d runs, want 1 to %d", name, len(list), cutPage)
					}
					for _, raw := range list {
						// [run, steps label, note, card]: the card as the
						// page without a budget inlines it, byte for byte.
						var e []json.RawMessage
						var run, steps, note string
						if err := json.Unmarshal(raw, &e); err != nil || len(e) != 4 ||
							json.Unmarshal(e[0], &run) != nil || json.Unmarshal(e[1], &steps) != nil || json.Unmarshal(e[2], &note) != nil {
							t.Fatalf("%s: entry %.200s: %v", name, raw, err)
						}
						listed = append(listed, run)
						if note != "" || steps == "" {
							t.Errorf("%s of %s: steps %q, note %q", tag, run, steps, note)
						}
						if got := string(e[3]); got != wantData[tag][run] {
							t.Errorf("%s of %s: %s holds %.100s, the inline card %.100s", tag, run, name, got, wantData[tag][run])
						}
						var card statChartJSON
						if err := json.Unmarshal(e[3], &card); err != nil || card.Run != run {
							t.Errorf("%s: run %q, %v; want %q", name, card.Run, err, run)
						}
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
		if strings.Contains(name, "/_cut/") {
			t.Errorf("%s written for a report under its budget", name)
		}
	}
	var single bytes.Buffer
	if err := newReport(rep, Options{MaxPageBytes: budget}).WriteSingleFile(&single); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(single.Bytes(), []byte("data-more=")) || !bytes.Contains(single.Bytes(), []byte("(not in a single-file report)")) {
		t.Error("the single file names cut lists, or its note does not say the data is not in it")
	}
}
