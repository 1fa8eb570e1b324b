package collect

// The decoders of summary values that valueKinds (valuekinds.go) dispatches
// to: histograms, images, audio, text, PR curves and tensors, each turning a
// value into the entry its kind keeps.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	_ "image/gif" // formats whose dimensions DecodeConfig reads
	_ "image/jpeg"
	_ "image/png"
	"math"
	"slices"
	"strconv"

	"github.com/trainreport/trainreport/collect/model"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/histogram"
	"github.com/trainreport/trainreport/collect/histogram/histpb"
)

// locator returns a reference to the bytes at a path inside the current
// summary value.
type locator func(path ...event.Step) (model.BlobRef, bool)

// prThresholdField is PrCurvePluginData.num_thresholds (docs/FORMATS.md
// section 11). No generated message declares PrCurvePluginData, so no test
// checks it against a descriptor; the field numbers that one does declare
// are eventpb's Field constants.
const prThresholdField = 2

func (rr *runReader) addHistogram(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState, rec record) error {
	e := model.HistogramEntry{WallTime: ev.WallTime, Step: ev.Step}
	if h := v.GetHisto(); h != nil {
		rows, err := histpb.FromProto(h)
		if err != nil {
			return err
		}
		e.Buckets = rows
		e.Summary = model.Summary{Min: h.GetMin(), Max: h.GetMax(), Count: h.GetNum(), Sum: h.GetSum()}
	} else {
		t := v.GetTensor()
		if err := rr.chargeFill(t, rec); err != nil {
			return err
		}
		vals, err := event.Values(t)
		if err != nil {
			return err
		}
		rows, err := histogram.FromTensor(vals, event.Shape(t))
		if err != nil {
			return err
		}
		e.Buckets = rows
		e.Summary = histogram.Summarize(rows)
	}
	rr.checkWidths(e.Buckets, ts.name, ev.Step, rr.pos)
	keep(rr, ts, histogramList, ev.Step, e)
	return nil
}

// checkWidths warns about a histogram with a bucket whose width is not a
// finite number: edges beyond ±MaxFloat64/2 of opposite signs (which
// overflow), infinite or NaN. The histogram is kept as written, for the
// data files; histogram.Rebin draws such rows, on halved edges, and
// leaves out those with non-finite edges.
func (rr *runReader) checkWidths(rows []model.Bucket, tag string, step, offset int64) {
	for i, b := range rows {
		if w := b.Right - b.Left; math.IsInf(w, 0) || math.IsNaN(w) {
			rr.warn(offset, "tag %q at step %d: histogram bucket %d of [%g, %g] has no finite width; kept as written", tag, step, i, b.Left, b.Right)
			return
		}
	}
}

// stringRefs locates every string of the tensor of the current value in
// the record rec, in one pass: locating each on its own walked the tensor
// once per string, and a value of 65,000 one-byte images took 18 s.
func stringRefs(rec record, at locator) ([]model.BlobRef, bool) {
	t, ok := at(event.Step{Num: eventpb.FieldValueTensor})
	start := t.Offset - rec.base
	if !ok || start < 0 || start+t.Length > int64(len(rec.data)) {
		return nil, false
	}
	ranges, ok := event.LocateAll(rec.data[start:start+t.Length], eventpb.FieldTensorString)
	if !ok {
		return nil, false
	}
	refs := make([]model.BlobRef, len(ranges))
	for i, r := range ranges {
		refs[i] = rec.ref(t.Offset+int64(r[0]), int64(r[1]-r[0]))
	}
	return refs, true
}

// imageMagic are the first bytes of the formats imageConfig reads.
var imageMagic = [][]byte{[]byte("\x89PNG"), []byte("\xff\xd8"), []byte("GIF8")}

// imageConfig reads the format and real dimensions of an encoded image.
// Bytes of no known format are not handed to image.DecodeConfig, which
// costs a 4 KB buffer each (312 MB for a value of 65,000 one-byte
// "images").
func imageConfig(b []byte) (format string, w, h int) {
	if !slices.ContainsFunc(imageMagic, func(m []byte) bool { return bytes.HasPrefix(b, m) }) {
		return "", 0, 0
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return "", 0, 0
	}
	return format, cfg.Width, cfg.Height
}

func (rr *runReader) addImage(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState, at locator, rec record) error {
	e := model.ImageEntry{WallTime: ev.WallTime, Step: ev.Step}
	if im := v.GetImage(); im != nil {
		if len(im.GetEncodedImageString()) == 0 {
			// Nothing to show, and nothing to read back: a reference to no
			// bytes would fail every later stage.
			return fmt.Errorf("image holds no bytes; value skipped")
		}
		ref, ok := at(event.Step{Num: eventpb.FieldValueImage}, event.Step{Num: eventpb.FieldImageEncoded})
		if !ok {
			return fmt.Errorf("cannot locate the image bytes")
		}
		item := model.ImageItem{Width: int(im.GetWidth()), Height: int(im.GetHeight()), Data: ref}
		if f, w, h := imageConfig(im.GetEncodedImageString()); f != "" {
			item.Format, item.Width, item.Height = f, w, h
		}
		e.Images = append(e.Images, item)
	} else {
		// TF2: a string tensor [width, height, image_1, ... image_n].
		t := v.GetTensor()
		s := t.GetStringVal()
		if len(s) < 2 {
			return fmt.Errorf("image tensor holds %d strings, want width, height and images", len(s))
		}
		if len(s) > maxTensorStrings {
			return fmt.Errorf("image tensor of %d strings, over the limit of %d; value skipped", len(s), maxTensorStrings)
		}
		refs, ok := stringRefs(rec, at)
		if !ok || len(refs) != len(s) {
			return fmt.Errorf("cannot locate the images")
		}
		w, _ := strconv.Atoi(string(s[0]))
		h, _ := strconv.Atoi(string(s[1]))
		for k := 2; k < len(s); k++ {
			item := model.ImageItem{Width: w, Height: h, Data: refs[k]}
			if f, iw, ih := imageConfig(s[k]); f != "" {
				item.Format, item.Width, item.Height = f, iw, ih
			}
			e.Images = append(e.Images, item)
		}
	}
	keep(rr, ts, imageList, ev.Step, e)
	return nil
}

func (rr *runReader) addAudio(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState, at locator, rec record, offset int64) error {
	e := model.AudioEntry{WallTime: ev.WallTime, Step: ev.Step}
	if a := v.GetAudio(); a != nil {
		if len(a.GetEncodedAudioString()) == 0 {
			return fmt.Errorf("audio holds no bytes; value skipped")
		}
		ref, ok := at(event.Step{Num: eventpb.FieldValueAudio}, event.Step{Num: eventpb.FieldAudioEncoded})
		if !ok {
			return fmt.Errorf("cannot locate the audio bytes")
		}
		rate := float64(a.GetSampleRate())
		if !validRate(rate) {
			// The clip is kept: its bytes are what it is, and a WAV clip
			// says its own rate. Only the declared rate is dropped, so no
			// later stage divides by it or writes it out.
			rr.warn(offset, "tag %q at step %d: audio sample rate %v is not a positive finite number; read as unknown", ts.name, ev.Step, rate)
			rate = 0
		}
		e.Clips = append(e.Clips, model.AudioClip{SampleRate: rate, Channels: a.GetNumChannels(),
			Frames: a.GetLengthFrames(), ContentType: a.GetContentType(), Data: ref})
	} else {
		// TF2: a string tensor [k, 2] of (encoded clip, Markdown label), or [k].
		t := v.GetTensor()
		shape, s := event.Shape(t), t.GetStringVal()
		cols := 1
		if len(shape) == 2 {
			cols = int(shape[1])
		}
		if cols < 1 || cols > 2 || len(s)%cols != 0 {
			return fmt.Errorf("audio tensor of shape %v, want [k, 2] or [k]", shape)
		}
		if len(s) > maxTensorStrings {
			return fmt.Errorf("audio tensor of %d strings, over the limit of %d; value skipped", len(s), maxTensorStrings)
		}
		refs, ok := stringRefs(rec, at)
		if !ok || len(refs) != len(s) {
			return fmt.Errorf("cannot locate the clips")
		}
		for k := 0; k < len(s); k += cols {
			c := model.AudioClip{ContentType: "audio/wav", Data: refs[k]}
			c.SampleRate, c.Channels, c.Frames = wavInfo(s[k])
			if cols == 2 {
				c.Label = string(s[k+1])
			}
			e.Clips = append(e.Clips, c)
		}
	}
	keep(rr, ts, audioList, ev.Step, e)
	return nil
}

// validRate reports whether a declared sample rate can be used: positive
// and finite (NaN, infinities, zero and negative rates are not rates; a
// float32 rate past 3.4e38 is +Inf).
func validRate(r float64) bool { return r > 0 && !math.IsInf(r, 1) }

// wavInfo reads the sample rate, channels and frames of a RIFF WAVE file
// from its fmt and data chunks; zeros when it is not one.
func wavInfo(b []byte) (rate float64, channels, frames int64) {
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return 0, 0, 0
	}
	le := binary.LittleEndian
	var blockAlign int64
	for off := 12; off+8 <= len(b); {
		id, size := string(b[off:off+4]), int(le.Uint32(b[off+4:]))
		body := b[off+8:]
		switch {
		case id == "fmt " && len(body) >= 16:
			channels = int64(le.Uint16(body[2:]))
			rate = float64(le.Uint32(body[4:]))
			blockAlign = int64(le.Uint16(body[12:]))
		case id == "data" && blockAlign > 0:
			frames = int64(min(size, len(body))) / blockAlign
			return rate, channels, frames
		}
		if size < 0 || off+8+size < off {
			break
		}
		off += 8 + size + size%2
	}
	return rate, channels, frames
}

func (rr *runReader) addText(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState, rec record) error {
	t := v.GetTensor()
	if err := rr.chargeFill(t, rec); err != nil {
		return err
	}
	strs, err := event.Strings(t)
	if err != nil {
		return err
	}
	if len(strs) > maxTensorStrings {
		return fmt.Errorf("text tensor of shape %v has %d cells, over the limit of %d; value skipped", event.Shape(t), len(strs), maxTensorStrings)
	}
	e := model.TextEntry{WallTime: ev.WallTime, Step: ev.Step, Shape: event.Shape(t), Values: make([]string, len(strs))}
	filled := len(t.GetStringVal()) == 1 && len(strs) > 1
	for i, s := range strs {
		if filled && i > 0 {
			e.Values[i] = e.Values[0] // one copy of the value that fills the shape
			continue
		}
		e.Values[i] = string(s)
	}
	keep(rr, ts, textList, ev.Step, e)
	return nil
}

func (rr *runReader) addPRCurve(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState, rec record) error {
	t := v.GetTensor()
	if err := rr.chargeFill(t, rec); err != nil {
		return err
	}
	vals, err := event.Values(t)
	if err != nil {
		return err
	}
	shape := event.Shape(t)
	if len(shape) != 2 || shape[0] != 6 {
		return fmt.Errorf("PR curve tensor of shape %v, want [6, thresholds]", shape)
	}
	n := int(shape[1])
	row := func(i int) []float64 { return vals[i*n : (i+1)*n] }
	e := model.PRCurveEntry{WallTime: ev.WallTime, Step: ev.Step, TP: row(0), FP: row(1), TN: row(2), FN: row(3),
		Precision: row(4), Recall: row(5), Thresholds: linspace01(n),
		Float32: slices.Contains([]eventpb.DataType{eventpb.DataType_DT_FLOAT, eventpb.DataType_DT_HALF, eventpb.DataType_DT_BFLOAT16}, t.GetDtype())}
	keep(rr, ts, prCurveList, ev.Step, e)
	return nil
}

// linspace01 returns numpy's linspace(0, 1, n), the thresholds the PR
// curve writers count at (TensorBoard's pb and tensorboardX's compute_curve
// bucket a prediction p at floor(p * (n-1))). numpy multiplies i by a step
// of 1 / (n-1) rather than dividing i by n-1, which differs in the last
// bit for some i (32 of 127), and sets the last to 1 exactly.
func linspace01(n int) []float64 {
	out := make([]float64, n)
	if n < 2 {
		return out
	}
	step := 1 / float64(n-1)
	for i := range out {
		out[i] = float64(i) * step
	}
	out[n-1] = 1
	return out
}

// prThresholds reads num_thresholds from the pr_curves plugin content.
func prThresholds(content []byte) int {
	for len(content) > 0 {
		num, typ, n := protowire.ConsumeTag(content)
		if n < 0 {
			return 0
		}
		content = content[n:]
		if num == prThresholdField && typ == protowire.VarintType {
			v, _ := protowire.ConsumeVarint(content)
			return int(v)
		}
		n = protowire.ConsumeFieldValue(num, typ, content)
		if n < 0 {
			return 0
		}
		content = content[n:]
	}
	return 0
}

func (rr *runReader) addTensor(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState, at locator, rec record) error {
	t := v.GetTensor()
	// Kept as a reference, the tensor is filled when it is loaded: its fill
	// is counted now, so that loading every kept tensor stays in budget.
	if err := rr.chargeFill(t, rec); err != nil {
		return err
	}
	ref, ok := at(event.Step{Num: eventpb.FieldValueTensor})
	if !ok {
		return fmt.Errorf("cannot locate the tensor")
	}
	keep(rr, ts, tensorList, ev.Step, model.TensorEntry{WallTime: ev.WallTime, Step: ev.Step,
		DType: event.DTypeName(t.GetDtype()), Shape: event.Shape(t), Data: ref})
	return nil
}
