package main

// The HParams page's "Download CSV" writes the page's sessions as
// data/hparams.csv holds them: the same bytes, for a page that holds every
// session.

import (
	"os"
	"path/filepath"
	"testing"
)

func TestBrowserHParamsDownloadsTheCSV(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	for _, name := range []string{"tf2-hparams-keras", "lightning-tbx-sweep"} {
		t.Run(name, func(t *testing.T) {
			r := reportOf(t, filepath.Join(corpusRoot(t), name))
			want, err := os.ReadFile(filepath.Join(r.site, "data", "hparams.csv"))
			if err != nil {
				t.Fatal(err)
			}
			for _, url := range []string{fileURL(filepath.Join(r.site, "hparams.html"), ""), fileURL(r.single, "page=hparams")} {
				tb := openTab(t, browser, url)
				got := eval[string](tb, `new Promise(resolve => {
					window.trainreport.util.download = (blob, name) => blob.text().then(t => resolve(name + "\n" + t));
					document.querySelector('main.page[data-page="hparams"] .hparams-csv').click();
				})`)
				if got != "hparams.csv\n"+string(want) {
					t.Errorf("%s: the page's CSV differs from data/hparams.csv:\n%.600s\nwant\n%.600s", url, got, want)
				}
				tb.assertClean()
			}
		})
	}
}
