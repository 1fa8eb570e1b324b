package main

// Browser tests of the Runs and Tags filters on the pages drawn per tag and
// run (histograms, distributions, images, audio, text, tensors, PR curves),
// in the site and in the single-file report: typing an expression hides
// the tags and runs it does not match, a filter that leaves nothing says
// so, a bad expression is marked and filters nothing, and the URL keeps
// the filters.

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestBrowserPageFilters(t *testing.T) {
	t.Parallel()
	shots := screenshotDir(t)
	r := sharedDemo(t)
	// Each page waits for its URL about 400 ms after each of its six
	// filters: the pages run side by side, each in its own tab, so the
	// waits overlap (54 s in a row on the busy 2-core machine). Each
	// opens its own browser context when it runs, so that its budget
	// (browserBudget) does not run while it waits for its turn.
	for _, page := range []string{"histograms", "distributions", "images", "audio", "text", "tensors", "pr_curves"} {
		t.Run(page, func(t *testing.T) {
			t.Parallel()
			tb := openTab(t, startBrowser(t), fileURL(filepath.Join(r.site, page+".html"), ""))
			checkPageFilters(t, tb, page)
			// Left filtered to the last run, for a look.
			last := eval[string](tb, pageJS("filters.js", "lastRun"))
			waitFor(tb, hashHas("runs", last), stepTimeout, "the last run's filter")
			tb.screenshot(shots, "filters-"+page)
		})
		// The single file runs the same filter code over pages it builds in
		// place: one page drawn by charts and one of media cells show it
		// there, rather than loading the whole file again for each page.
		if page != "histograms" && page != "images" {
			continue
		}
		t.Run(page+"-single-file", func(t *testing.T) {
			t.Parallel()
			checkPageFilters(t, openTab(t, startBrowser(t), fileURL(r.single, "page="+page)), page)
		})
	}
}

// filterView is what a page shows: per tag container, whether it is shown
// and its runs, each with whether it is shown.
type filterView struct {
	Tags                []filterTag
	Groups, GroupsShown int
	Empty               bool // the "nothing matches" message is shown
	Hash                string
}

type filterTag struct {
	Tag   string
	Shown bool
	Runs  []filterRun
}

type filterRun struct {
	Run   string
	Shown bool
}

func checkPageFilters(t *testing.T, tb *tab, page string) {
	t.Helper()
	// The media pages add their runs' cells when shown.
	waitFor(tb, pageJS("filters.js", "ready", page), 10*time.Second, "the page's runs")
	view := func() filterView {
		t.Helper()
		var v filterView
		if err := json.Unmarshal([]byte(eval[string](tb, pageJS("filters.js", "view", page))), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	// set types an expression into the page's own filter input and waits
	// for the page to apply it.
	set := func(name, value string) {
		t.Helper()
		eval[bool](tb, pageJS("filters.js", "set", page, name, value))
		// The filter applies after 150 ms, the URL follows after 400 ms:
		// wait for the URL, however loaded the machine.
		want := fmt.Sprintf(`decodeURIComponent(location.hash).includes(%q)`, name+"="+value)
		if value == "" {
			want = fmt.Sprintf(`!decodeURIComponent(location.hash).includes(%q)`, name+"=")
		}
		waitFor(tb, want, 10*time.Second, "the URL holds "+name+"="+value)
	}

	all := view()
	if len(all.Tags) == 0 || all.Empty {
		t.Fatalf("unfiltered page: %+v", all)
	}
	for _, tg := range all.Tags {
		if !tg.Shown || len(tg.Runs) == 0 {
			t.Errorf("unfiltered page: tag %q shown %v with %d runs", tg.Tag, tg.Shown, len(tg.Runs))
		}
		for _, r := range tg.Runs {
			if !r.Shown {
				t.Errorf("unfiltered page: run %q of tag %q hidden", r.Run, tg.Tag)
			}
		}
	}

	// Tags: one tag by its exact name.
	tag := all.Tags[len(all.Tags)-1].Tag
	set("tags", "^"+regexp.QuoteMeta(tag)+"$")
	v := view()
	for _, tg := range v.Tags {
		if tg.Shown != (tg.Tag == tag) {
			t.Errorf("tags filter %q: tag %q shown %v", tag, tg.Tag, tg.Shown)
		}
	}
	if v.Empty || v.Groups > 0 && v.GroupsShown != 1 {
		t.Errorf("tags filter %q: empty message %v, %d of %d groups shown", tag, v.Empty, v.GroupsShown, v.Groups)
	}
	if want := "tags=^" + regexp.QuoteMeta(tag) + "$"; !containsPair(v.Hash, want) {
		t.Errorf("URL fragment %q lacks %q", v.Hash, want)
	}
	set("tags", "")

	// Runs: the first run by its exact name; tags without it are hidden.
	run := all.Tags[0].Runs[0].Run
	set("runs", "^"+regexp.QuoteMeta(run)+"$")
	v = view()
	for _, tg := range v.Tags {
		has := slices.ContainsFunc(tg.Runs, func(r filterRun) bool { return r.Run == run })
		if tg.Shown != has {
			t.Errorf("runs filter %q: tag %q shown %v, holds the run %v", run, tg.Tag, tg.Shown, has)
		}
		for _, r := range tg.Runs {
			if r.Shown != (r.Run == run) && tg.Shown {
				t.Errorf("runs filter %q: run %q of tag %q shown %v", run, r.Run, tg.Tag, r.Shown)
			}
		}
	}

	// Nothing matches: everything hidden, and the page says so.
	set("runs", "no such run")
	v = view()
	if !v.Empty || v.GroupsShown != 0 || slices.ContainsFunc(v.Tags, func(tg filterTag) bool { return tg.Shown }) {
		t.Errorf("a filter matching no run: %+v", v)
	}

	// A bad expression is marked and filters nothing.
	set("runs", "(")
	if !eval[bool](tb, pageJS("filters.js", "invalid", page)) {
		t.Error(`the expression "(" is not marked invalid`)
	}
	if v := view(); v.Empty || len(v.Tags) != len(all.Tags) || !v.Tags[0].Shown {
		t.Errorf("a bad expression filtered: %+v", v)
	}
	set("runs", "")
	if v := view(); v.Empty || v.GroupsShown != v.Groups {
		t.Errorf("cleared filters: %+v", v)
	}
}

// containsPair reports whether the decoded URL fragment frag holds pair
// as one of its &-separated parts.
func containsPair(frag, pair string) bool {
	return slices.Contains(strings.Split(strings.TrimPrefix(frag, "#"), "&"), pair)
}
