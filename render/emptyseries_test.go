package render

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"
)

// TestSeriesPurgedByRestartAreLeftOut writes a run whose image, clip,
// tensor, text and scalar at step 5 a SessionLog START at step 2 purges
// (the restart rule), leaving tags with no entries, beside an image and a
// scalar at step 1 that it keeps. Pages used to draw a card for the empty
// tags, whose scripts threw on the empty lists; now no page, data file or
// index entry shows them, and a page left with only empty series is not
// made. (Under the default rule, restarts=attempts, the purged entries
// are kept as superseded ones: TestTwoWritersKeepEveryKindsAttempts.)
func TestSeriesPurgedByRestartAreLeftOut(t *testing.T) {
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
	scalar := func(tag string, v float32) *eventpb.SummaryValue {
		return &eventpb.SummaryValue{Tag: tag, Value: &eventpb.SummaryValue_SimpleValue{SimpleValue: v}}
	}
	writeEvents(t, dir, "run",
		summaryEvent(1, scalar("loss", 0.5)),
		summaryEvent(1, image("image/kept", pngBytes)),
		summaryEvent(5, scalar("gone/scalar", 1)),
		summaryEvent(5, image("gone/image", pngBytes)),
		summaryEvent(5, &eventpb.SummaryValue{Tag: "gone/audio", Value: &eventpb.SummaryValue_Audio{Audio: &eventpb.Audio{SampleRate: 8000,
			NumChannels: 1, LengthFrames: 100, EncodedAudioString: wavBytes, ContentType: "audio/wav"}}}),
		summaryEvent(5, &eventpb.SummaryValue{Tag: "gone/tensor", Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{
			Dtype: eventpb.DataType_DT_FLOAT, TensorShape: &eventpb.TensorShapeProto{Dim: []*eventpb.TensorShapeProto_Dim{{Size: 2}}},
			FloatVal: []float32{1, 2}}}}),
		summaryEvent(5, &eventpb.SummaryValue{Tag: "gone/text", Metadata: pluginMeta("text"), Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{
			Dtype: eventpb.DataType_DT_STRING, StringVal: [][]byte{[]byte("hello")}}}}),
		&eventpb.Event{WallTime: 1e9 + 6, Step: 2, What: &eventpb.Event_SessionLog{SessionLog: &eventpb.SessionLog{Status: eventpb.SessionLog_START}}},
	)
	// Under the default rule the purged entries are kept, superseded (and
	// drawn apart); under "latest" they are only counted, which leaves the
	// empty series this test is about.
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "logs", Path: dir}}, collect.Options{Restarts: model.RestartsLatest})
	if err != nil {
		t.Fatal(err)
	}
	run := rep.Runs[0]
	// The restart rule must have left each purged tag as an empty series,
	// else this test tests nothing.
	if len(run.Images) != 2 || len(run.Audio) != 1 || len(run.Tensors) != 1 || len(run.Texts) != 1 || len(run.Scalars) != 2 {
		t.Fatalf("collect kept images %d, audio %d, tensors %d, texts %d, scalars %d series; want 2, 1, 1, 1, 2",
			len(run.Images), len(run.Audio), len(run.Tensors), len(run.Texts), len(run.Scalars))
	}
	for _, n := range []int{len(run.Audio[0].Entries), len(run.Tensors[0].Entries), len(run.Texts[0].Entries)} {
		if n != 0 {
			t.Fatalf("a purged series kept %d entries", n)
		}
	}
	r := newReport(rep, Options{})
	files := filesByName(t, r)
	for _, page := range []string{"audio.html", "tensors.html", "text.html"} {
		if _, ok := files[page]; ok {
			t.Errorf("%s is made for series with no entries", page)
		}
	}
	for _, page := range []string{"images.html", "scalars.html", "index.html"} {
		if _, ok := files[page]; !ok {
			t.Fatalf("%s not made", page)
		}
	}
	if ims := mediaData[imageTagJSON](t, files["images.html"]); len(ims) != 1 || ims["image/kept"].Tag != "image/kept" {
		t.Errorf("images page shows tags %v, want only image/kept", sortedKeys(ims))
	}
	for name, b := range files {
		if strings.HasPrefix(name, "data/") && strings.Contains(name, "gone") {
			t.Errorf("data file %s for an empty series", name)
		}
		if strings.HasSuffix(name, ".html") && bytes.Contains(b, []byte("gone/")) {
			t.Errorf("%s names an empty series", name)
		}
	}
	var index struct {
		Categories map[string]map[string]map[string]string `json:"categories"`
	}
	if err := json.Unmarshal(files["data/index.json"], &index); err != nil {
		t.Fatal(err)
	}
	for cat, runs := range index.Categories {
		for _, tags := range runs {
			for tag := range tags {
				if strings.HasPrefix(tag, "gone/") {
					t.Errorf("data/index.json lists %s %s", cat, tag)
				}
			}
		}
	}
	var single bytes.Buffer
	if err := r.WriteSingleFile(&single); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(single.Bytes(), []byte("gone/")) {
		t.Error("the single file names an empty series")
	}
}
