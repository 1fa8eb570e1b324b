package main

// The images page of many runs: the first thumbnails load with the page,
// the others only as they near the viewport, so that a sweep's page does
// not wait for thousands of images before it is usable; every one of
// them still loads, at its size, when scrolled to.

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/eventpb"
)

func TestBrowserImagesLoadLazilyPastTheFirst(t *testing.T) {
	t.Parallel()
	const runs = 240
	dir := t.TempDir()
	for r := range runs {
		img := &eventpb.SummaryValue{Tag: "samples", Value: &eventpb.SummaryValue_Image{Image: &eventpb.Image{
			Width: 24, Height: 16, Colorspace: 3, EncodedImageString: testPNG(t, 24, 16, uint8(r))}}}
		writeEventFile(t, filepath.Join(dir, fmt.Sprintf("trial%03d", r), "events.out.tfevents.1700000000.host"),
			[]*eventpb.Event{summaryEvent(1, 0, img)})
	}
	r := buildReport(t, dir)
	browser := startBrowser(t)
	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "images.html"), ""))
	type state struct{ Images, Lazy, Loaded, LoadedLazy int }
	count := `(() => {
		const imgs = [...document.querySelectorAll('main.page[data-page="images"] .media-grid img')];
		const ok = i => i.complete && i.naturalWidth === 24 && i.naturalHeight === 16;
		return {images: imgs.length, lazy: imgs.filter(i => i.loading === 'lazy').length,
			loaded: imgs.filter(ok).length, loadedLazy: imgs.filter(i => i.loading === 'lazy' && ok(i)).length};
	})()`
	waitFor(tb, `document.querySelectorAll('main.page[data-page="images"] .media-grid img').length === `+fmt.Sprint(runs), 10*time.Second, "every thumbnail in the grid")
	got := eval[state](tb, count)
	if got.Images != runs || got.Lazy != runs-100 {
		t.Fatalf("%+v: want %d images, the last %d lazy", got, runs, runs-100)
	}
	if got.LoadedLazy == got.Lazy {
		t.Errorf("%+v: every lazy image loaded with the page, none waited for the viewport", got)
	}
	// Scrolled through, every image loads, at its natural size.
	waitFor(tb, `(() => { window.scrollBy(0, 600); const imgs = [...document.querySelectorAll('main.page[data-page="images"] .media-grid img')];
		return imgs.every(i => i.complete && i.naturalWidth === 24); })()`, 20*time.Second, "every image loaded once scrolled to")
	if s := tb.problemSummary(); s != "" {
		t.Errorf("problems:%s", s)
	}
}
