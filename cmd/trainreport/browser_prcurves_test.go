package main

// Browser test of the PR curves page on the real writers' fixtures
// (tensorboardX, TF2, torch), from file:// with the network blocked, in
// the site and in the single-file report: every card draws its last step,
// the slider redraws the curve of the step it picks, the tooltip gives a
// point's threshold and counts, and the filters work.

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBrowserPRCurves(t *testing.T) {
	browser := startBrowser(t)
	shots := screenshotDir(t)
	writers := filepath.Join(repoRoot(t), "collect", "testdata", "writers")
	r := buildReport(t, filepath.Join(writers, "tf2"), filepath.Join(writers, "tensorboardx"), filepath.Join(writers, "torch"))
	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "pr_curves.html"), "")},
		{"single-file", fileURL(r.single, "page=pr_curves")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			const page = `document.querySelector('main.page[data-page="pr_curves"]')`
			waitFor(tb, page+` && !`+page+`.hidden`, 10*time.Second, "the page")
			// 5 series: tensorboardX and torch write one tag raw and one
			// computed (torch only the computed), TF2 both.
			if n := eval[int](tb, page+`.querySelectorAll('figure.pr-card').length`); n != 5 {
				t.Fatalf("%d PR cards, want 5", n)
			}
			// Scrolled through, every card draws its last step: one point
			// per threshold with finite precision and recall.
			type card struct {
				Run, Tag        string
				Drawn, Expected int
				Step            string
			}
			read := func() []card {
				t.Helper()
				js := `(async () => {
					const cards = [...` + page + `.querySelectorAll('figure.pr-card')];
					for (const c of cards) { c.scrollIntoView(); await new Promise(r => setTimeout(r, 150)); }
					return JSON.stringify(cards.map(c => {
						const data = JSON.parse(c.querySelector('script.stat-data').textContent);
						const i = Number(c.querySelector('input[data-pr-slider]').value);
						const cur = data.curves[i];
						const inst = echarts.getInstanceByDom(c.querySelector('.stat-chart'));
						const opt = inst ? inst.getOption() : null;
						return {Run: c.dataset.run, Tag: c.closest('[data-filter-tag]').dataset.filterTag,
							Drawn: opt ? opt.series[0].data.length : -1,
							Expected: cur.thresholds.filter((_, j) => Number.isFinite(Number(cur.recall[j])) && Number.isFinite(Number(cur.precision[j]))).length,
							Step: c.querySelector('.pr-step output').textContent};
					}));
				})()`
				var out []card
				if err := json.Unmarshal([]byte(eval[string](tb, js)), &out); err != nil {
					t.Fatal(err)
				}
				return out
			}
			for _, c := range read() {
				if c.Drawn <= 0 || c.Drawn != c.Expected {
					t.Errorf("%s %s: %d points drawn, want %d", c.Run, c.Tag, c.Drawn, c.Expected)
				}
			}
			// The slider picks the first step of the first card with more
			// than one; its curve is drawn, point for point.
			moved := eval[string](tb, `(() => {
				const c = [...`+page+`.querySelectorAll('figure.pr-card')].find(c => !c.querySelector('input[data-pr-slider]').disabled);
				if (!c) return "no card with several steps";
				const s = c.querySelector('input[data-pr-slider]');
				s.value = "0"; s.dispatchEvent(new Event("input"));
				const data = JSON.parse(c.querySelector('script.stat-data').textContent);
				const got = echarts.getInstanceByDom(c.querySelector('.stat-chart')).getOption().series[0].data;
				const cur = data.curves[0];
				for (let j = 0; j < got.length; j++) {
					const k = got[j][2];
					if (got[j][0] !== Number(cur.recall[k]) || got[j][1] !== Number(cur.precision[k])) return "point " + j + " is " + JSON.stringify(got[j]);
				}
				if (c.querySelector('.pr-step output').textContent !== String(data.steps[0])) return "label " + c.querySelector('.pr-step output').textContent;
				return "";
			})()`)
			if moved != "" {
				t.Errorf("after moving a slider to its first step: %s", moved)
			}
			tip := eval[string](tb, `(() => {
				const inst = echarts.getInstanceByDom(`+page+`.querySelector('figure.pr-card .stat-chart'));
				inst.dispatchAction({type: "showTip", seriesIndex: 0, dataIndex: 1});
				const el = document.querySelector(".trainreport-tooltip");
				return el ? el.textContent : "";
			})()`)
			for _, want := range []string{"threshold", "precision", "recall", "TP", "FP", "TN", "FN"} {
				if !strings.Contains(tip, want) {
					t.Errorf("tooltip %q lacks %q", tip, want)
				}
			}
			tb.screenshot(shots, "prcurves-"+c.name)
			checkPageFilters(t, tb, "pr_curves")
		})
	}
}
