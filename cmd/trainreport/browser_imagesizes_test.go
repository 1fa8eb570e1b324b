package main

// The image sizes browser test: on the images page of real and hand-made
// logs, every thumbnail and every full-size view is drawn at its natural
// size times or divided by a whole factor, never empty (Keras's 1 x 64
// bias images), with sharp pixels when scaled up, and the full-size view
// never smaller than the thumbnail, and when the image is larger than the
// window's box, shrunk just to fit it.

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

func TestBrowserImageSizes(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	for _, c := range []struct{ name, logdir string }{
		{"shapes", writeImageShapes(t)},
		{"keras-tf22-images", sharedCorpus(t, "keras-tf22-images")},
		{"demo", sharedDemo(t).logdir},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := reportOf(t, c.logdir)
			tb := openTab(t, browser, fileURL(filepath.Join(r.site, "images.html"), ""))
			waitFor(tb, pageJS("media.js", "imagesLoaded"), 10*time.Second, "every image loads")
			res := eval[struct {
				Images, Views int
				Bad           []string
			}](tb, pageJS("media.js", "imageSizes"))
			if res.Images == 0 || res.Views == 0 {
				t.Fatalf("%d images, %d full-size views checked", res.Images, res.Views)
			}
			for _, b := range res.Bad {
				t.Error(b)
			}
			tb.screenshot(shots, "imagesizes-"+c.name)
			if shots != "" {
				eval[chromedp.Void](tb, pageJS("media.js", "openNarrowest"))
				waitFor(tb, `document.querySelector('main.page[data-page="images"] dialog.media-lightbox img').complete`, 5*time.Second, "the full-size view")
				tb.screenshot(shots, "imagesizes-"+c.name+"-dialog")
			}
		})
	}
}

// writeImageShapes writes a log directory of one run whose image tags are
// PNGs of awkward shapes: a column and a row of one pixel (Keras's
// write_images of biases), a small square, tiny, wide and big images, and
// a batch of eight narrow ones (drawn smaller).
func writeImageShapes(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var vals []*eventpb.SummaryValue
	for _, s := range []struct{ w, h int }{{1, 64}, {64, 1}, {32, 32}, {3, 2}, {1, 10}, {1024, 64}, {1000, 1000}, {300, 7}} {
		vals = append(vals, &eventpb.SummaryValue{Tag: fmt.Sprintf("shape/%dx%d", s.w, s.h), Value: &eventpb.SummaryValue_Image{
			Image: &eventpb.Image{Width: int32(s.w), Height: int32(s.h), Colorspace: 3, EncodedImageString: testPNG(t, s.w, s.h, 120)}}})
	}
	batch := [][]byte{[]byte("1"), []byte("32")}
	for i := range 8 {
		batch = append(batch, testPNG(t, 1, 32, uint8(30*i)))
	}
	vals = append(vals, &eventpb.SummaryValue{Tag: "shape/batch", Metadata: &eventpb.SummaryMetadata{
		PluginData: &eventpb.PluginData{PluginName: "images"}}, Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{
		Dtype: eventpb.DataType_DT_STRING, TensorShape: shape(int64(len(batch))), StringVal: batch}}})
	b, err := proto.Marshal(&eventpb.Event{WallTime: 1.7e9, Step: 1, What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: vals}}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "events.out.tfevents.1700000000.host"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	bw := bufio.NewWriter(f)
	if err := tfrecord.NewWriter(bw).Write(b); err != nil {
		t.Fatal(err)
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	return dir
}
