package render

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// hostileRecordLogs writes a log directory whose run holds, besides a
// scalar and an image and a clip that are fine, each record that used to
// abort the whole report: a v1 image with no bytes, a clip with no bytes,
// a clip with a NaN sample rate, and a TF2 histogram with edges of
// -1e308 and 1e308.
func hostileRecordLogs(t *testing.T) string {
	dir := t.TempDir()
	pngRef, wavRef, _ := mediaBlobs(t)
	pngBytes, err := pngRef.Read()
	if err != nil {
		t.Fatal(err)
	}
	wavBytes, err := wavRef.Read()
	if err != nil {
		t.Fatal(err)
	}
	image := func(tag string, b []byte) *eventpb.SummaryValue {
		return &eventpb.SummaryValue{Tag: tag, Value: &eventpb.SummaryValue_Image{Image: &eventpb.Image{Height: 3, Width: 4, EncodedImageString: b}}}
	}
	clip := func(tag string, rate float32, b []byte) *eventpb.SummaryValue {
		return &eventpb.SummaryValue{Tag: tag, Value: &eventpb.SummaryValue_Audio{Audio: &eventpb.Audio{SampleRate: rate,
			NumChannels: 1, LengthFrames: 100, EncodedAudioString: b, ContentType: "audio/wav"}}}
	}
	writeEvents(t, dir, "run",
		summaryEvent(1, &eventpb.SummaryValue{Tag: "loss", Value: &eventpb.SummaryValue_SimpleValue{SimpleValue: 0.5}}),
		summaryEvent(1, image("image/ok", pngBytes)),
		summaryEvent(1, image("image/empty", nil)),
		summaryEvent(1, clip("audio/ok", 8000, wavBytes)),
		summaryEvent(1, clip("audio/empty", 8000, nil)),
		summaryEvent(1, clip("audio/nan-rate", float32(math.NaN()), wavBytes)),
		summaryEvent(1, &eventpb.SummaryValue{Tag: "hist/extreme", Metadata: pluginMeta("histograms"),
			Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_DOUBLE,
				TensorShape: &eventpb.TensorShapeProto{Dim: []*eventpb.TensorShapeProto_Dim{{Size: 2}, {Size: 3}}},
				DoubleVal:   []float64{-1e308, 0, 5, 0, 1e308, 7}}}}),
	)
	return dir
}

// mediaData returns the inline data of every tag of a media page, by tag.
func mediaData[T any](t *testing.T, page []byte) map[string]T {
	t.Helper()
	out := map[string]T{}
	for _, chunk := range bytes.Split(page, []byte(`class="media-data">`))[1:] {
		raw := chunk[:bytes.Index(chunk, []byte("</script>"))]
		var tag struct{ Tag string }
		var v T
		if err := json.Unmarshal(raw, &tag); err != nil {
			t.Fatalf("media data does not parse: %v: %.200s", err, raw)
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatalf("media data of %q does not parse: %v", tag.Tag, err)
		}
		out[tag.Tag] = v
	}
	return out
}

// TestHostileRecordsBecomeNotes checks that each record that used to
// abort the report (exit 1) is a note on its card, on the page and in its
// data file, and that the rest of the report is written: the site, and the
// single file.
func TestHostileRecordsBecomeNotes(t *testing.T) {
	rep := collectDir(t, "logs", hostileRecordLogs(t))
	r := newReport(rep, Options{})
	site := filepath.Join(t.TempDir(), "site")
	if err := r.WriteSite(site); err != nil {
		t.Fatalf("WriteSite: %v", err)
	}
	var single bytes.Buffer
	if err := r.WriteSingleFile(&single); err != nil {
		t.Fatalf("WriteSingleFile: %v", err)
	}
	files := filesByName(t, r)
	for _, name := range []string{"index.html", "scalars.html", "images.html", "audio.html", "histograms.html", "distributions.html", "summary.md"} {
		if _, err := os.Stat(filepath.Join(site, name)); err != nil {
			t.Errorf("%s not written: %v", name, err)
		}
	}

	// Collect skips an image or clip of no bytes with a warning at its
	// record, and reads a NaN sample rate as unknown: the pages show the
	// rest (render's own notes for unreadable bytes are pinned by
	// TestUnreadableMediaBecomeNotes).
	var warned []string
	for _, w := range rep.Runs[0].Warnings {
		warned = append(warned, w.String())
	}
	for _, want := range []string{"image/empty", "audio/empty", "audio/nan-rate"} {
		if !strings.Contains(strings.Join(warned, "\n"), want) {
			t.Errorf("no warning names %s: %q", want, warned)
		}
	}
	for _, page := range []struct {
		name string
		html []byte
	}{{"images.html", files["images.html"]}, {"single file", single.Bytes()}} {
		images := mediaData[imageTagJSON](t, page.html)
		if _, ok := images["image/empty"]; ok {
			t.Errorf("%s: the image of no bytes is shown", page.name)
		}
		if ok := images["image/ok"].Runs[0].Entries[0].Images[0]; ok.Src == "" || ok.Error != "" {
			t.Errorf("%s: good image shows as %+v", page.name, ok)
		}
	}
	media := 0
	for name := range files {
		if strings.HasPrefix(name, "media/") {
			media++
		}
	}
	if media != 3 { // the good image, the good clip and the clip of NaN rate
		t.Errorf("%d media files, want 3", media)
	}
	clips := mediaData[audioTagJSON](t, files["audio.html"])
	if c := clips["audio/nan-rate"].Runs[0].Entries[0].Clips[0]; c.Src == "" || c.Error != "" || c.Rate != 8000 || c.Spec == nil {
		t.Errorf("clip of NaN rate shows as src %q error %q rate %v (want the WAV's 8000)", c.Src, c.Error, c.Rate)
	}

	charts := chartData(t, files["histograms.html"])
	if len(charts) != 1 || !bytes.Contains(charts[0].Draw, []byte(`"lo":-1e+308,"hi":1e+308`)) {
		t.Errorf("histogram chart: %+v", charts)
	}
}

// TestUnreadableMediaBecomeNotes gives images, clips and tensors whose
// bytes are gone from the log (a file removed, or shorter than the
// reference): each shows a note where it would be, and the report is
// written.
func TestUnreadableMediaBecomeNotes(t *testing.T) {
	pngRef, wavRef, _ := mediaBlobs(t)
	gone := model.NewBlobRef(openLogdir(t, t.TempDir()), "", "removed", 0, 10)
	short := pngRef
	short.Offset = 1 << 20
	rep := synthetic(map[string]map[string][]float64{"run": {"loss": {1, 2}}})
	run := rep.Runs[0]
	run.Images = []*model.Image{{Tag: "image", Entries: []model.ImageEntry{{Step: 1, Images: []model.ImageItem{
		{Width: 4, Height: 3, Format: "png", Data: pngRef}, {Width: 4, Height: 3, Format: "png", Data: gone},
		{Width: 4, Height: 3, Format: "png", Data: short}}}}}}
	run.Audio = []*model.Audio{{Tag: "audio", Entries: []model.AudioEntry{{Step: 1, Clips: []model.AudioClip{
		{SampleRate: 8000, Channels: 1, Frames: 100, Data: wavRef}, {SampleRate: math.Inf(1), Channels: 1, Frames: 100, Data: gone}}}}}}
	run.Tensors = []*model.Tensor{{Tag: "tensor", Entries: []model.TensorEntry{{Step: 1, DType: "float32", Shape: []int64{2}, Data: gone}}}}
	r := newReport(rep, Options{})
	if err := r.WriteSite(filepath.Join(t.TempDir(), "site")); err != nil {
		t.Fatalf("WriteSite: %v", err)
	}
	var single bytes.Buffer
	if err := r.WriteSingleFile(&single); err != nil {
		t.Fatalf("WriteSingleFile: %v", err)
	}
	files := filesByName(t, r)
	for _, html := range [][]byte{files["images.html"], single.Bytes()} {
		ims := mediaData[imageTagJSON](t, html)["image"].Runs[0].Entries[0].Images
		if ims[0].Error != "" || !strings.HasPrefix(ims[1].Error, "image not shown: its log file: ") || !strings.Contains(ims[1].Error, "no such file") ||
			!strings.HasPrefix(ims[2].Error, "image not shown: its log file: blobs ends at byte ") {
			t.Errorf("images: %+v", ims)
		}
	}
	cs := mediaData[audioTagJSON](t, files["audio.html"])["audio"].Runs[0].Entries[0].Clips
	if cs[0].Error != "" || cs[0].Src == "" || !strings.HasPrefix(cs[1].Error, "clip not shown: ") || cs[1].Src != "" || cs[1].Rate != 0 {
		t.Errorf("clips: %+v", cs)
	}
	if !bytes.Contains(files["tensors.html"], []byte(`1 unreadable`)) {
		t.Error("tensors page does not say a step is unreadable")
	}
}
