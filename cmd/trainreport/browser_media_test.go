package main

// The media browser test opens the Images and Audio pages of real reports
// (the writers' fixtures, keras-tf22-images from the shared corpus, and a
// log directory of hostile names written here) from file://, in the site
// and in the single-file report, and checks that every image loads, the
// step sliders change what is shown, brightness and contrast change the
// images' filter, the full-size view opens and closes with Esc, every
// clip's player can load its source, the waveform and spectrogram charts
// are drawn, and hostile names and labels stay text.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

func TestBrowserMedia(t *testing.T) {
	t.Parallel()
	shots := screenshotDir(t)
	writers := filepath.Join(repoRoot(t), "collect", "testdata", "writers")
	cases := []struct {
		name, logdir  string
		images, audio bool
	}{
		{"tensorboardx", filepath.Join(writers, "tensorboardx"), true, true},
		{"tf2", filepath.Join(writers, "tf2"), true, true},
		{"hostile", writeHostileMedia(t), true, true},
		{"demo", sharedDemo(t).logdir, true, true},
	}
	// A corpus folder written by Keras (see internal/testcorpus).
	cases = append(cases, struct {
		name, logdir  string
		images, audio bool
	}{"keras-tf22-images", sharedCorpus(t, "keras-tf22-images"), true, false})
	// The inputs side by side, each in a browser context of its own (53 s
	// in a row on the busy machine).
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			browser := startBrowser(t)
			r := reportOf(t, c.logdir)
			if c.images {
				t.Run("images", func(t *testing.T) {
					tb := openTab(t, browser, fileURL(filepath.Join(r.site, "images.html"), ""))
					checkImagesPage(t, tb)
					tb.screenshot(shots, "media-"+c.name+"-images")
				})
				t.Run("single-images", func(t *testing.T) {
					tb := openTab(t, browser, fileURL(r.single, "page=images"))
					checkImagesPage(t, tb)
					checkNoFileRefs(t, tb, "images")
					tb.screenshot(shots, "media-"+c.name+"-single-images")
				})
			}
			if c.audio {
				t.Run("audio", func(t *testing.T) {
					tb := openTab(t, browser, fileURL(filepath.Join(r.site, "audio.html"), ""))
					checkAudioPage(t, tb)
					tb.screenshot(shots, "media-"+c.name+"-audio")
				})
				// Opened on the overview, the audio page is hidden while it
				// loads: its charts draw once it shows.
				t.Run("single-index-then-audio", func(t *testing.T) {
					tb := openTab(t, browser, fileURL(r.single, ""))
					(&reportCase{}).showPage(t, tb, "audio")
					checkAudioPage(t, tb)
					checkNoFileRefs(t, tb, "audio")
					tb.screenshot(shots, "media-"+c.name+"-single-audio")
				})
			}
		})
	}
}

// checkNoFileRefs checks that a single-file page's media are data: URIs.
func checkNoFileRefs(t *testing.T, tb *tab, page string) {
	t.Helper()
	n := eval[int](tb, pageJS("media.js", "fileRefs", page))
	if n != 0 {
		t.Errorf("single file: %d media elements of the %s page load a file", n, page)
	}
}

type slidersResult struct {
	Tags, Moved, Changed int
	Bad                  []string
}

// checkSliders moves every tag's step slider to its first and then its
// last stop and checks that each run's cell shows the sources its data
// says it should: the latest kept step at or before the chosen one.
// selector selects the shown media elements, list names an entry's list
// of them.
func checkSliders(t *testing.T, tb *tab, page, selector, list string) {
	t.Helper()
	res := eval[slidersResult](tb, pageJS("media.js", "sliders", page, selector, list))
	if res.Tags == 0 {
		t.Fatalf("%s page: no tag", page)
	}
	for _, b := range res.Bad {
		t.Error(b)
	}
	if res.Moved > 0 && res.Changed == 0 {
		t.Errorf("%s page: moving %d step sliders to their first step changed no source", page, res.Moved)
	}
}

func checkImagesPage(t *testing.T, tb *tab) {
	t.Helper()
	waitFor(tb, pageJS("media.js", "imagesLoaded"), 10*time.Second, "every image loads")
	t.Logf("%s: every image loaded %.0f ms after navigation", tb.url, eval[float64](tb, `performance.now()`))
	checkSliders(t, tb, "images", "img", "images")
	waitFor(tb, pageJS("media.js", "imagesLoaded"), 10*time.Second, "every image loads after the sliders moved")

	// A batch shows all its images.
	if n := eval[int](tb, `Math.max(0, ...[...document.querySelectorAll('main.page[data-page="images"] .media-cell')].map(c => c.querySelectorAll('img').length))`); n < 1 {
		t.Errorf("no cell shows an image")
	}

	// Brightness and contrast.
	filter := eval[string](tb, pageJS("media.js", "filter"))
	if want := "brightness(1.5) contrast(0.5) / brightness(1) contrast(1)"; filter != want {
		t.Errorf("image filter %q, want %q", filter, want)
	}

	// The full-size view opens on a click and closes with Esc.
	eval[chromedp.Void](tb, `document.querySelector('main.page[data-page="images"] .media-grid img').click()`)
	waitFor(tb, pageJS("media.js", "fullSizeOpen"), 5*time.Second, "the full-size view opens with the image")
	if _, err := chromedp.Run(tb.ctx, chromedp.KeyEvent(kb.Escape)); err != nil {
		t.Fatal(err)
	}
	waitFor(tb, `!document.querySelector('main.page[data-page="images"] dialog.media-lightbox').open`, 5*time.Second, "Esc closes the full-size view")
	checkMediaInert(t, tb, "images")
}

func checkAudioPage(t *testing.T, tb *tab) {
	t.Helper()
	checkSliders(t, tb, "audio", "audio source", "clips")
	// Every clip the Go side could decode loads in the player; the others
	// still have a player and say why they have no preview.
	waitFor(tb, pageJS("media.js", "clipsLoaded"), 10*time.Second, "every decodable clip loads its source")
	t.Logf("%s: every clip loaded %.0f ms after navigation", tb.url, eval[float64](tb, `performance.now()`))
	// Scrolled into view, every preview is drawn: a waveform envelope and a
	// spectrogram heat map of frames x bins.
	eval[chromedp.Void](tb, `document.querySelectorAll('main.page[data-page="audio"] .media-charts').forEach(c => c.scrollIntoView())`)
	waitFor(tb, pageJS("media.js", "previewsDrawn"), 10*time.Second, "every waveform and spectrogram is drawn")
	bad := eval[[]string](tb, pageJS("media.js", "badPreviews"))
	for _, b := range bad {
		t.Error(b)
	}
	// Labels are Markdown, rendered safely.
	if labels := eval[[]string](tb, `[...document.querySelectorAll('main.page[data-page="audio"] .media-label')].map(e => e.innerHTML)`); len(labels) > 0 {
		if n := eval[int](tb, `document.querySelectorAll('main.page[data-page="audio"] .media-label strong').length`); n == 0 {
			t.Errorf("no label shows its Markdown: %q", labels)
		}
		if n := eval[int](tb, `document.querySelectorAll('main.page[data-page="audio"] .media-label a[href^="javascript" i], main.page[data-page="audio"] .media-label script').length`); n != 0 {
			t.Errorf("a label holds a javascript: link or a script: %q", labels)
		}
	}
	checkMediaInert(t, tb, "audio")
}

// checkMediaInert checks that no hostile name ran, and that tag and run names
// show as the text they are.
func checkMediaInert(t *testing.T, tb *tab, page string) {
	t.Helper()
	if v := eval[string](tb, `String(window.__xss)`); v != "undefined" {
		t.Errorf("%s page: a hostile name ran (window.__xss = %s)", page, v)
	}
	res := eval[[]string](tb, pageJS("media.js", "notText", page))
	for _, b := range res {
		t.Errorf("%s page: %s is not shown as text", page, b)
	}
}

// writeHostileMedia writes a log directory whose runs and tags have
// hostile names: PNG images over three steps, a batch of two, an animated
// GIF, 16-bit WAV clips in the old-style audio summary, TF2 audio tensors
// with hostile Markdown labels, and a truncated clip.
func writeHostileMedia(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	names := []string{`<img src=x onerror="window.__xss=1">`, `<script>window.__xss=2</script>`}
	for ri, run := range names {
		rdir := filepath.Join(dir, run) // the run's name is its path
		if err := os.MkdirAll(rdir, 0o755); err != nil {
			t.Fatal(err)
		}
		var events [][]byte
		add := func(step int64, vals ...*eventpb.SummaryValue) {
			b, err := proto.Marshal(&eventpb.Event{WallTime: 1.7e9 + float64(step), Step: step,
				What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: vals}}})
			if err != nil {
				t.Fatal(err)
			}
			events = append(events, b)
		}
		for step := range int64(3) {
			var vals []*eventpb.SummaryValue
			for ti, tag := range names {
				p := testPNG(t, 8+4*ti, 6, uint8(80*step))
				vals = append(vals, &eventpb.SummaryValue{Tag: tag + "/image", Value: &eventpb.SummaryValue_Image{
					Image: &eventpb.Image{Width: 8, Height: 6, Colorspace: 3, EncodedImageString: p}}})
				w := testWAV(440*float64(step+1), 8000, 4000)
				vals = append(vals, &eventpb.SummaryValue{Tag: tag + "/audio", Value: &eventpb.SummaryValue_Audio{
					Audio: &eventpb.Audio{SampleRate: 8000, NumChannels: 1, LengthFrames: 4000, EncodedAudioString: w, ContentType: "audio/wav"}}})
			}
			// A TF2 batch of two images, and of two labelled clips, one truncated.
			batch := [][]byte{[]byte("8"), []byte("6"), testPNG(t, 8, 6, 10), testPNG(t, 8, 6, 200)}
			vals = append(vals, &eventpb.SummaryValue{Tag: names[0] + "/batch", Metadata: &eventpb.SummaryMetadata{
				PluginData: &eventpb.PluginData{PluginName: "images"}}, Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{
				Dtype: eventpb.DataType_DT_STRING, TensorShape: shape(4), StringVal: batch}}})
			w := testWAV(1000, 8000, 2000)
			clips := [][]byte{w, []byte("Label " + names[1] + ` **bold** [link](javascript:window.__xss=3)`), w[:len(w)-100], []byte("Label " + names[0])}
			vals = append(vals, &eventpb.SummaryValue{Tag: names[1] + "/labelled", Metadata: &eventpb.SummaryMetadata{
				PluginData: &eventpb.PluginData{PluginName: "audio"}}, Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{
				Dtype: eventpb.DataType_DT_STRING, TensorShape: shape(2, 2), StringVal: clips}}})
			add(step, vals...)
		}
		add(0, &eventpb.SummaryValue{Tag: names[ri] + "/gif", Value: &eventpb.SummaryValue_Image{
			Image: &eventpb.Image{Width: 8, Height: 8, Colorspace: 3, EncodedImageString: testGIF(t)}}})
		f, err := os.Create(filepath.Join(rdir, "events.out.tfevents.1700000000.host"))
		if err != nil {
			t.Fatal(err)
		}
		bw := bufio.NewWriter(f)
		w := tfrecord.NewWriter(bw)
		for _, b := range events {
			if err := w.Write(b); err != nil {
				t.Fatal(err)
			}
		}
		if err := bw.Flush(); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	return dir
}

func shape(dims ...int64) *eventpb.TensorShapeProto {
	s := &eventpb.TensorShapeProto{}
	for _, d := range dims {
		s.Dim = append(s.Dim, &eventpb.TensorShapeProto_Dim{Size: d})
	}
	return s
}

func testPNG(t *testing.T, w, h int, shade uint8) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		for y := range h {
			img.Set(x, y, color.RGBA{shade, uint8(255 * x / w), uint8(255 * y / h), 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testGIF is an animated GIF of two frames.
func testGIF(t *testing.T) []byte {
	pal := color.Palette{color.Black, color.White}
	g := &gif.GIF{}
	for i := range 2 {
		f := image.NewPaletted(image.Rect(0, 0, 8, 8), pal)
		for x := range 8 {
			f.SetColorIndex(x, (x+i)%8, 1)
		}
		g.Image, g.Delay = append(g.Image, f), append(g.Delay, 20)
	}
	var b bytes.Buffer
	if err := gif.EncodeAll(&b, g); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// testWAV is a 16-bit mono WAV file of a sine.
func testWAV(freq float64, rate uint32, frames int) []byte {
	le := binary.LittleEndian
	b := []byte("RIFF\x00\x00\x00\x00WAVEfmt ")
	b = le.AppendUint32(b, 16)
	b = le.AppendUint16(b, 1)
	b = le.AppendUint16(b, 1)
	b = le.AppendUint32(b, rate)
	b = le.AppendUint32(b, 2*rate)
	b = le.AppendUint16(b, 2)
	b = le.AppendUint16(b, 16)
	b = append(b, "data"...)
	b = le.AppendUint32(b, uint32(2*frames))
	for i := range frames {
		b = le.AppendUint16(b, uint16(int16(0.5*32767*math.Sin(2*math.Pi*freq*float64(i)/float64(rate)))))
	}
	le.PutUint32(b[4:], uint32(len(b)-8))
	return b
}
