package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestBrowserScenario opens the outputs of issue 15's scenario in
// Chromium: the overview, whose gates and baseline sections come first;
// and the email's HTML body as a mail client shows it, scripts disabled,
// each cid: image replaced by its part's bytes (a data: URL): every image
// must be drawn. Screenshots go to $TRAINREPORT_SCREENSHOTS.
func TestBrowserScenario(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	sc := buildScenario(t, t.TempDir())

	t.Run("overview", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(sc.site, "index.html"), ""))
		waitFor(tb, "window.trainreport && window.trainreport.ready && true", stepTimeout, "the runtime")
		got := eval[map[string]any](tb, `(() => {
			const ids = Array.from(document.querySelectorAll('h2')).map(h => h.id);
			const rows = Array.from(document.querySelectorAll('table.baseline tbody tr'));
			return {ids: ids.join(','), gates: document.querySelectorAll('ul.gates li').length,
				failed: document.querySelectorAll('ul.gates .badge.bad').length,
				regressed: rows.filter(r => r.classList.contains('regressed')).map(r => r.cells[1].textContent).join(','),
				first: rows.length ? rows[0].cells[2].textContent : ''};
		})()`)
		if ids := got["ids"].(string); !strings.HasPrefix(ids, "gates,baseline,anomalies,runs") {
			t.Errorf("overview sections %s: want gates, baseline and anomalies first", ids)
		}
		if got["gates"] != 3.0 || got["failed"] != 2.0 {
			t.Errorf("overview gates: %v", got)
		}
		if r := got["regressed"].(string); !strings.Contains(r, nanRun) || !strings.Contains(r, worseRun) {
			t.Errorf("overview regressions: %q", r)
		}
		tb.screenshot(shots, "scenario-overview")
	})

	t.Run("email", func(t *testing.T) {
		_, body, images := emailParts(t, sc.eml)
		for id, png := range images {
			body = bytes.ReplaceAll(body, []byte(`"cid:`+id+`"`), []byte(`"data:image/png;base64,`+base64.StdEncoding.EncodeToString(png)+`"`))
		}
		page := filepath.Join(t.TempDir(), "mail.html")
		if err := os.WriteFile(page, body, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := chromedp.NewContext(browser)
		defer cancel()
		ctx, cancelT := context.WithTimeout(ctx, stepTimeout)
		defer cancelT()
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatalf("disabling scripts: %v", err)
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(fileURL(page, ""))); err != nil {
			t.Fatal(err)
		}
		widths, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`Array.from(document.images).map(i => i.complete ? i.naturalWidth : -1)`))
		if err != nil {
			t.Fatal(err)
		}
		scripts, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.scripts.length`))
		if err != nil {
			t.Fatal(err)
		}
		if len(widths) != len(images) || len(widths) == 0 {
			t.Errorf("%d images drawn, %d parts", len(widths), len(images))
		}
		for i, w := range widths {
			if w <= 0 {
				t.Errorf("image %d not drawn (width %d)", i, w)
			}
		}
		if scripts != 0 {
			t.Errorf("%d scripts in the email body", scripts)
		}
		if shots != "" {
			buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(shots, "scenario-email.png"), buf, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})
}
