package main

// The PR curves page overlays each tag's runs on one chart (TensorBoard's
// view): every shown run's curve at the step its card's slider shows,
// equal to what the card draws, the Runs filter applied.

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"
)

func TestBrowserPRCurvesOverlay(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	writers := filepath.Join("..", "..", "collect", "testdata", "writers")
	site := filepath.Join(t.TempDir(), "site")
	var stderr bytes.Buffer
	// tensorboardX's and PyTorch's writers both write the tag pr/curve.
	if code := run(context.Background(), []string{"-quiet", "-o", site,
		filepath.Join(writers, "tensorboardx"), filepath.Join(writers, "torch")}, io.Discard, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	tb := openTab(t, browser, fileURL(filepath.Join(site, "pr_curves.html"), ""))
	const sec = `document.querySelector('section.stat-tag[data-filter-tag="pr/curve"]')`
	const overlay = sec + `.querySelector('figure.pr-overlay')`
	waitFor(tb, `!!echarts.getInstanceByDom(`+overlay+`.querySelector('.stat-chart'))`, 20*time.Second, "the overlay drawn")
	waitFor(tb, sec+`.querySelectorAll('figure.pr-card').length === 2 && [...`+sec+`.querySelectorAll('figure.pr-card .stat-chart')].every(d => !!echarts.getInstanceByDom(d))`,
		20*time.Second, "both runs' cards drawn")
	// The overlay's series, by name, against each card's one series.
	same := `(() => {
		const o = echarts.getInstanceByDom(` + overlay + `.querySelector('.stat-chart')).getOption().series;
		const cards = [...` + sec + `.querySelectorAll('figure.pr-card')];
		return o.length === cards.length && cards.every(c => {
			const mine = echarts.getInstanceByDom(c.querySelector('.stat-chart')).getOption().series[0].data;
			const run = c.dataset.run, step = c.querySelector('.pr-step output').textContent;
			const s = o.find(s => s.name === run + ' @ ' + step);
			return !!s && JSON.stringify(s.data) === JSON.stringify(mine) && mine.length > 0;
		});
	})()`
	waitFor(tb, same, 10*time.Second, "the overlay draws each card's curve at its step")

	// A card's slider moves its run's curve on the overlay.
	eval[bool](tb, `(() => { const s = `+sec+`.querySelector('figure.pr-card[data-run="torch"] input[data-pr-slider]'); s.value = "0"; s.dispatchEvent(new Event('input')); return true; })()`)
	waitFor(tb, same+` && echarts.getInstanceByDom(`+overlay+`.querySelector('.stat-chart')).getOption().series.some(s => s.name.startsWith("torch @ 0"))`,
		10*time.Second, "the overlay follows the torch card's slider to step 0")

	// The Runs filter keeps torch alone.
	eval[bool](tb, `(() => { const i = document.querySelector('main.page[data-page="pr_curves"] input[name="runs"]'); i.value = "^torch$"; i.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`)
	waitFor(tb, overlay+`.dataset.prOverlayRuns === "1" && echarts.getInstanceByDom(`+overlay+`.querySelector('.stat-chart')).getOption().series.length === 1`,
		10*time.Second, "the overlay draws the filtered run alone")
	tb.screenshot(shots, "prcurves-overlay")
	tb.assertClean()
}
