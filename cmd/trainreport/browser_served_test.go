package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBrowserPagesFromStaticServer opens every page of reports served by a
// plain static file server, as GitHub Pages or `python -m http.server`
// serve them, where the pages' data scripts come over HTTP instead of from
// file://: every page must become ready with no console error and no
// request leaving the server, and the data scripts a page loads on demand
// must come from it.
//
// The reports, and their pages, are tested side by side, each page in a
// browser context of its own opened when it runs (30 pages in a row took
// 65 s of one context's budget on the busy machine).
func TestBrowserPagesFromStaticServer(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, logdir string }{
		{"demo", sharedDemo(t).logdir},
		{"tsvis-oneflow-logs", sharedCorpus(t, "tsvis-oneflow-logs")},
		{"tf2-hparams-api-experiment", sharedCorpus(t, "tf2-hparams-api-experiment")},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := reportOf(t, c.logdir)
			srv := httptest.NewServer(http.FileServer(http.Dir(r.site)))
			t.Cleanup(srv.Close)
			pages, err := filepath.Glob(filepath.Join(r.site, "*.html"))
			if err != nil || len(pages) < 3 {
				t.Fatalf("the site holds pages %v (%v)", pages, err)
			}
			for _, p := range pages {
				name := filepath.Base(p)
				t.Run(strings.TrimSuffix(name, ".html"), func(t *testing.T) {
					t.Parallel()
					tb := openTabFrom(t, startBrowser(t), srv.URL+"/"+name, srv.URL, stepTimeout)
					if !evalWithin[bool](tb, `window.trainreport.ready().then(() => true)`, readyTimeout) {
						t.Fatalf("%s never became ready", name)
					}
					tb.mu.Lock()
					defer tb.mu.Unlock()
					if !slices.ContainsFunc(tb.local, func(u string) bool { return strings.HasPrefix(u, srv.URL+"/assets/") }) {
						t.Errorf("%s loaded none of its scripts from the server: %v", name, tb.local)
					}
				})
			}
			// What a page loads on demand (downloads, custom scalars, the
			// runs a page leaves out) comes through loadData: over HTTP it
			// must load a scalar data script listed in data/index.json, as
			// a script with nothing but a JSON parser reads the index.
			t.Run("load-data", func(t *testing.T) {
				t.Parallel()
				tb := openTabFrom(t, startBrowser(t), srv.URL+"/scalars.html", srv.URL, stepTimeout)
				n := evalWithin[int](tb, `fetch('data/index.json').then(r => r.json()).then(ix => {
					const run = Object.keys(ix.scalar)[0], tag = Object.keys(ix.scalar[run])[0];
					const f = ix.scalar[run][tag];
					return window.trainreport.loadData(f, f.replace(/\.json$/, '.js'));
				}).then(d => JSON.stringify(d).length)`, readyTimeout)
				if n < 10 {
					t.Errorf("the data script loaded over HTTP holds %d characters of JSON", n)
				}
			})
		})
	}
}
