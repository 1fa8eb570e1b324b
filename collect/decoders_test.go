package collect

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"math"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/event"
	pb "github.com/trainreport/trainreport/collect/eventpb"
)

// mediaPNG encodes a w x h image.
func mediaPNG(t testing.TB, w, h int) []byte {
	img := image.NewGray(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.White)
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// mediaWAV encodes a mono 16-bit clip of n frames at rate.
func mediaWAV(rate, n int) []byte {
	le := binary.LittleEndian
	b := []byte("RIFF\x00\x00\x00\x00WAVEfmt ")
	b = le.AppendUint32(b, 16)
	b = le.AppendUint16(b, 1) // PCM
	b = le.AppendUint16(b, 1) // channels
	b = le.AppendUint32(b, uint32(rate))
	b = le.AppendUint32(b, uint32(rate*2))
	b = le.AppendUint16(b, 2) // block align
	b = le.AppendUint16(b, 16)
	b = append(b, "data"...)
	b = le.AppendUint32(b, uint32(2*n))
	return append(b, make([]byte, 2*n)...)
}

func stringTensor(shape []int64, vals ...[]byte) *pb.TensorProto {
	sh := &pb.TensorShapeProto{}
	for _, d := range shape {
		sh.Dim = append(sh.Dim, &pb.TensorShapeProto_Dim{Size: d})
	}
	return &pb.TensorProto{Dtype: pb.DataType_DT_STRING, TensorShape: sh, StringVal: vals}
}

func floatTensor(shape []int64, vals ...float32) *pb.TensorProto {
	sh := &pb.TensorShapeProto{}
	for _, d := range shape {
		sh.Dim = append(sh.Dim, &pb.TensorShapeProto_Dim{Size: d})
	}
	var c []byte
	for _, v := range vals {
		c = binary.LittleEndian.AppendUint32(c, math.Float32bits(v))
	}
	return &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorShape: sh, TensorContent: c}
}

func tensorValue(tag, plugin string, t *pb.TensorProto) *pb.SummaryValue {
	return withPlugin(&pb.SummaryValue{Tag: tag, Value: &pb.SummaryValue_Tensor{Tensor: t}}, plugin)
}

func TestMediaKinds(t *testing.T) {
	dir := t.TempDir()
	png1, png2, png3 := mediaPNG(t, 3, 2), mediaPNG(t, 5, 4), mediaPNG(t, 7, 1)
	wav := mediaWAV(16000, 800)
	evs := []*pb.Event{
		fileVersion(),
		summary(1,
			// v1 image, declaring a wrong size: the bytes say 3 x 2.
			&pb.SummaryValue{Tag: "v1img", Value: &pb.SummaryValue_Image{Image: &pb.Image{Width: 99, Height: 99, EncodedImageString: png1}}},
			// TF2 images: a batch of two.
			tensorValue("tf2img", "images", stringTensor([]int64{4}, []byte("5"), []byte("4"), png2, png3)),
			&pb.SummaryValue{Tag: "v1audio", Value: &pb.SummaryValue_Audio{Audio: &pb.Audio{SampleRate: 16000, NumChannels: 1, LengthFrames: 800, EncodedAudioString: wav, ContentType: "audio/wav"}}},
			tensorValue("tf2audio", "audio", stringTensor([]int64{1, 2}, wav, []byte("a *label*"))),
			tensorValue("md", "text", stringTensor([]int64{2, 2}, []byte("a"), []byte("b"), []byte("c"), []byte("d"))),
			tensorValue("pr", "pr_curves", floatTensor([]int64{6, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)),
			tensorValue("weights", "", floatTensor([]int64{2, 3}, 1, 2, 3, 4, 5, float32(math.NaN()))),
			tensorValue("hist", "histograms", &pb.TensorProto{Dtype: pb.DataType_DT_DOUBLE,
				TensorShape: &pb.TensorShapeProto{Dim: []*pb.TensorShapeProto_Dim{{Size: 2}, {Size: 3}}},
				DoubleVal:   []float64{0, 1, 3, 1, 2, 5}}),
			&pb.SummaryValue{Tag: "v1hist", Value: &pb.SummaryValue_Histo{Histo: &pb.HistogramProto{
				Min: -1, Max: 2, Num: 4, Sum: 1, BucketLimit: []float64{-2, 0, 3}, Bucket: []float64{0, 1, 3}}}},
		),
		&pb.Event{WallTime: 1002, Step: 2, What: &pb.Event_LogMessage{LogMessage: &pb.LogMessage{Level: 40, Message: "boom"}}},
	}
	writeFiles(t, dir, []file{{"events.out.tfevents.1.host", eventFile(t, evs...)}})
	rep := collectDir(t, dir, Options{})
	run := findRun(rep, ".")
	if run == nil {
		t.Fatal("no run")
	}
	if len(run.Warnings) != 0 {
		t.Errorf("warnings: %v", run.Warnings)
	}

	if len(run.Images) != 2 {
		t.Fatalf("%d image tags", len(run.Images))
	}
	for _, im := range run.Images {
		want := map[string][][]byte{"v1img": {png1}, "tf2img": {png2, png3}}[im.Tag]
		items := im.Entries[0].Images
		if len(items) != len(want) {
			t.Fatalf("%s: %d images, want %d", im.Tag, len(items), len(want))
		}
		for i, it := range items {
			got, err := it.Data.Read()
			if err != nil || !bytes.Equal(got, want[i]) {
				t.Errorf("%s[%d]: bytes read back differ (%v)", im.Tag, i, err)
			}
			cfg, _ := png.DecodeConfig(bytes.NewReader(want[i]))
			if it.Width != cfg.Width || it.Height != cfg.Height || it.Format != "png" {
				t.Errorf("%s[%d]: %dx%d %q, want %dx%d png", im.Tag, i, it.Width, it.Height, it.Format, cfg.Width, cfg.Height)
			}
		}
	}

	if len(run.Audio) != 2 {
		t.Fatalf("%d audio tags", len(run.Audio))
	}
	for _, a := range run.Audio {
		c := a.Entries[0].Clips[0]
		got, err := c.Data.Read()
		if err != nil || !bytes.Equal(got, wav) {
			t.Errorf("%s: clip bytes differ (%v)", a.Tag, err)
		}
		if c.SampleRate != 16000 || c.Channels != 1 || c.Frames != 800 {
			t.Errorf("%s: %v Hz, %d channels, %d frames", a.Tag, c.SampleRate, c.Channels, c.Frames)
		}
		if a.Tag == "tf2audio" && c.Label != "a *label*" {
			t.Errorf("label %q", c.Label)
		}
	}

	if len(run.Texts) != 1 || !slices.Equal(run.Texts[0].Entries[0].Values, []string{"a", "b", "c", "d"}) ||
		!slices.Equal(run.Texts[0].Entries[0].Shape, []int64{2, 2}) {
		t.Errorf("text: %+v", run.Texts)
	}

	if len(run.PRCurves) != 1 {
		t.Fatalf("%d PR curves", len(run.PRCurves))
	}
	pr := run.PRCurves[0].Entries[0]
	if !slices.Equal(pr.TP, []float64{1, 2, 3}) || !slices.Equal(pr.Recall, []float64{float64(float32(0.4)), float64(float32(0.5)), float64(float32(0.6))}) ||
		!slices.Equal(pr.Thresholds, []float64{0, 0.5, 1}) {
		t.Errorf("PR curve: %+v", pr)
	}

	if len(run.Tensors) != 1 || run.Tensors[0].Entries[0].DType != "float32" || !slices.Equal(run.Tensors[0].Entries[0].Shape, []int64{2, 3}) {
		t.Fatalf("tensors: %+v", run.Tensors)
	}
	vals, err := run.Tensors[0].Entries[0].Load(Decoders())
	if err != nil || len(vals) != 6 || vals[4] != 5 || !math.IsNaN(vals[5]) {
		t.Errorf("tensor values %v, %v", vals, err)
	}

	if len(run.Histograms) != 2 {
		t.Fatalf("%d histograms", len(run.Histograms))
	}
	for _, h := range run.Histograms {
		e := h.Entries[0]
		switch h.Tag {
		case "hist":
			if len(e.Buckets) != 2 || e.Count != 8 || e.Min != 0 || e.Max != 2 {
				t.Errorf("TF2 histogram: %+v", e)
			}
		case "v1hist":
			if len(e.Buckets) != 2 || e.Buckets[0].Left != -1 || e.Buckets[1].Right != 2 || e.Count != 4 {
				t.Errorf("v1 histogram: %+v", e)
			}
		}
	}
	if len(run.LogMessages) != 1 || run.LogMessages[0].Message != "boom" {
		t.Errorf("log messages: %+v", run.LogMessages)
	}
	kinds := map[string]model.Kind{}
	for _, ti := range run.Tags {
		kinds[ti.Tag] = ti.Kind
		if ti.Count != 1 || ti.FirstStep != 1 {
			t.Errorf("tag %s: count %d, first step %d", ti.Tag, ti.Count, ti.FirstStep)
		}
	}
	want := map[string]model.Kind{"v1img": model.KindImage, "tf2img": model.KindImage, "v1audio": model.KindAudio, "tf2audio": model.KindAudio,
		"md": model.KindText, "pr": model.KindPRCurve, "weights": model.KindTensor, "hist": model.KindHistogram, "v1hist": model.KindHistogram}
	for tag, k := range want {
		if kinds[tag] != k {
			t.Errorf("tag %s: kind %q, want %q", tag, kinds[tag], k)
		}
	}
}

func TestSessionStartPurgesEveryKind(t *testing.T) {
	dir := t.TempDir()
	img := mediaPNG(t, 1, 1)
	var evs []*pb.Event
	for s := int64(1); s <= 4; s++ {
		evs = append(evs, summary(s, simple("loss", float32(s)),
			&pb.SummaryValue{Tag: "img", Value: &pb.SummaryValue_Image{Image: &pb.Image{EncodedImageString: img}}}))
	}
	evs = append(evs, sessionStart(3), summary(3, &pb.SummaryValue{Tag: "img", Value: &pb.SummaryValue_Image{Image: &pb.Image{EncodedImageString: img}}}))
	writeFiles(t, dir, []file{{"events.out.tfevents.1.host", eventFile(t, evs...)}})
	run := findRun(collectDir(t, dir, Options{}), ".")
	// The START's purge supersedes steps 3 and 4 of attempt 1: kept, apart
	// from the line.
	var line, superseded []int64
	for _, e := range run.Images[0].Entries {
		if e.Superseded {
			superseded = append(superseded, e.Step)
		} else {
			line = append(line, e.Step)
		}
	}
	if !slices.Equal(line, []int64{1, 2, 3}) || !slices.Equal(superseded, []int64{3, 4}) || run.Images[0].Dropped != 2 {
		t.Errorf("image line %v, superseded %v, dropped %d; want [1 2 3], [3 4], 2", line, superseded, run.Images[0].Dropped)
	}
	if got := stepsOf(run.Scalars[0].Points); !slices.Equal(got, []int64{1, 2}) {
		t.Errorf("scalar steps %v, want [1 2]", got)
	}
	if len(run.SessionLogs) != 1 || run.SessionLogs[0].Status != "start" {
		t.Errorf("session logs %+v", run.SessionLogs)
	}
}

func TestWavInfo(t *testing.T) {
	if r, c, n := wavInfo(mediaWAV(22050, 100)); r != 22050 || c != 1 || n != 100 {
		t.Errorf("wavInfo = %v, %d, %d", r, c, n)
	}
	for _, bad := range [][]byte{nil, []byte("RIFF"), []byte("RIFF\x00\x00\x00\x00WAVEdata\xff\xff\xff\xff")} {
		wavInfo(bad) // must not panic
	}
}

// FuzzPluginContent feeds arbitrary bytes to the small decoders of plugin
// contents and payloads: PR-curve metadata, custom-scalar layouts, WAV
// headers, image headers and numeric or string tensors. None may panic.
func FuzzPluginContent(f *testing.F) {
	f.Add([]byte{0x10, 0x80, 0x01})                   // num_thresholds = 128
	f.Add(mediaWAV(8000, 10))                         // a clip
	f.Add([]byte("\x12\x06\x0a\x04loss"))             // a layout category
	f.Add([]byte("\x08\x01\x12\x04\x12\x02\x08\x03")) // a tensor header
	f.Fuzz(func(t *testing.T, b []byte) {
		prThresholds(b)
		decodeLayout(b)
		wavInfo(b)
		imageConfig(b)
		var tp pb.TensorProto
		if proto.Unmarshal(b, &tp) == nil {
			event.Values(&tp)
			event.Strings(&tp)
		}
	})
}
