package analysis

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"regexp"
	"slices"
	"sync"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/audio"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// memSource is a log directory of one file held in memory that counts the
// reads of each range.
type memSource struct {
	data  []byte
	mu    sync.Mutex
	reads map[[2]int64]int // {offset, length} -> reads
}

func (s *memSource) ReadAt(name string, off, n int64) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reads == nil {
		s.reads = map[[2]int64]int{}
	}
	s.reads[[2]int64{off, n}]++
	if off < 0 || n < 0 || off+n > int64(len(s.data)) {
		return nil, fmt.Errorf("%s: %d bytes at offset %d past its end", name, n, off)
	}
	return s.data[off : off+n], nil
}

func (s *memSource) Stat(string) (fs.FileInfo, error) { return nil, errors.New("no stat") }

// add appends b to the file and returns a reference to it.
func (s *memSource) add(b []byte) model.BlobRef {
	off := int64(len(s.data))
	s.data = append(s.data, b...)
	return model.NewBlobRef(s, "logs", "clips", off, int64(len(b)))
}

// floatWAV encodes samples as a mono WAV of 64-bit floats at 8 kHz.
func floatWAV(samples []float64) []byte {
	le := binary.LittleEndian
	w := []byte("RIFF\x00\x00\x00\x00WAVEfmt ")
	w = le.AppendUint32(w, 16)
	w = le.AppendUint16(w, 3) // IEEE float
	w = le.AppendUint16(w, 1)
	w = le.AppendUint32(w, 8000)
	w = le.AppendUint32(w, 8000*8)
	w = le.AppendUint16(w, 8)
	w = le.AppendUint16(w, 64)
	w = append(w, "data"...)
	w = le.AppendUint32(w, uint32(8*len(samples)))
	for _, s := range samples {
		w = le.AppendUint64(w, math.Float64bits(s))
	}
	return w
}

// clipSeries is a report of one run whose series "clips" holds n steps,
// each with a WAV clip, an MP3 clip, a clip of no bytes and bytes that
// declare themselves WAV and are not, and whose series "purged" holds no
// entry; wavs lists the WAV clips' references by step.
func clipSeries(src *memSource, n int) (rep *model.Report, wavs []model.BlobRef) {
	a := &model.Audio{Tag: "clips"}
	for step := range n {
		w := src.add(floatWAV([]float64{0, 0.5, -0.5, float64(step) / float64(n)}))
		wavs = append(wavs, w)
		a.Entries = append(a.Entries, model.AudioEntry{Step: int64(step), Clips: []model.AudioClip{
			{ContentType: "audio/wav", Data: w},
			{ContentType: "audio/mpeg", Data: src.add([]byte("ID3 an mp3"))},
			{ContentType: "audio/wav"},
			{ContentType: "audio/x-wav", Data: src.add([]byte("RIFF but no WAVE"))},
		}})
	}
	run := &model.Run{Name: "run", Audio: []*model.Audio{a, {Tag: "purged"}}}
	return &model.Report{Runs: []*model.Run{run}}, wavs
}

// The analysis previews exactly the WAV clips of the kept steps, reading
// each once, and none of a series without entries; a clip that is not
// WAV is not read, one that cannot be decoded says why.
func TestMediaPreviewsTheKeptWAVClipsReadingEachOnce(t *testing.T) {
	src := &memSource{}
	rep, wavs := clipSeries(src, 10)
	an, err := Build(context.Background(), rep, Options{MediaSteps: 4})
	if err != nil {
		t.Fatal(err)
	}
	m := an.Media
	if m.Steps != 4 {
		t.Errorf("Steps = %d, want 4", m.Steps)
	}
	if len(m.Previews) != 1 {
		t.Fatalf("previews of %d series, want the one with entries", len(m.Previews))
	}
	a := rep.Runs[0].Audio[0]
	keep := m.Keep(len(a.Entries))
	if !slices.Equal(keep, []int{0, 3, 6, 9}) {
		t.Fatalf("kept %v, want 4 steps spread evenly with the first and last", keep)
	}
	ps := m.Previews[a]
	if len(ps) != len(keep) {
		t.Fatalf("previews of %d steps, want the %d kept", len(ps), len(keep))
	}
	want := map[[2]int64]int{}
	for j, idx := range keep {
		ref := wavs[idx]
		want[[2]int64{ref.Offset, ref.Length}] = 1
		p := ps[j]
		if len(p) != 4 {
			t.Fatalf("step %d: %d previews, want one per clip", idx, len(p))
		}
		if !p[0].Read || p[0].ReadErr != "" || p[0].Err != "" || p[0].Spec == nil || len(p[0].Wave) != 4 || p[0].Rate != 8000 {
			t.Errorf("step %d: WAV clip's preview %+v", idx, p[0])
		}
		if !noPreview(p[1]) || !noPreview(p[2]) {
			t.Errorf("step %d: an MP3 clip or one of no bytes has a preview: %+v, %+v", idx, p[1], p[2])
		}
		if !p[3].Read || p[3].Err != audio.ErrNotWAV.Error() || p[3].Spec != nil {
			t.Errorf("step %d: junk clip's preview %+v, want the decoding error", idx, p[3])
		}
		ref = a.Entries[idx].Clips[3].Data
		want[[2]int64{ref.Offset, ref.Length}] = 1
	}
	if !maps.Equal(src.reads, want) {
		t.Errorf("reads %v, want once each of the kept WAV clips %v", src.reads, want)
	}
}

// noPreview reports whether p is the zero preview, of a clip not read.
func noPreview(p result.ClipPreview) bool {
	return !p.Read && p.ReadErr == "" && p.Err == "" && p.Spec == nil && p.Wave == nil && p.Rate == 0
}

// A clip whose bytes cannot be read has a preview that says why, from the
// read's error.
func TestMediaPreviewOfAnUnreadableClip(t *testing.T) {
	src := &memSource{}
	rep, wavs := clipSeries(src, 1)
	a := rep.Runs[0].Audio[0]
	a.Entries[0].Clips[0].Data = wavs[0].Sub(0, int64(len(src.data))+1) // past the file's end
	an, err := Build(context.Background(), rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p := an.Media.Previews[a][0][0]; !p.Read || p.ReadErr == "" || p.Spec != nil {
		t.Errorf("unreadable clip's preview %+v, want its read error", p)
	}
	if an.Media.Steps != DefaultMediaSteps {
		t.Errorf("Steps = %d, want DefaultMediaSteps", an.Media.Steps)
	}
}

// A report that writes only summary.json reads no clip.
func TestMediaSummaryOnlyReadsNoClip(t *testing.T) {
	src := &memSource{}
	rep, _ := clipSeries(src, 5)
	an, err := Build(context.Background(), rep, Options{SummaryOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(src.reads) != 0 || len(an.Media.Previews) != 0 {
		t.Errorf("%d clips read, previews of %d series, want none", len(src.reads), len(an.Media.Previews))
	}
}

// The previews stop with their context, before reading a clip once it is
// done.
func TestMediaPreviewsStopWithTheContext(t *testing.T) {
	src := &memSource{}
	rep, _ := clipSeries(src, 50)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := media(ctx, rep, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if len(src.reads) != 0 {
		t.Errorf("%d clips read after the context was done", len(src.reads))
	}
}

// A clip's previews hold as many values whatever its length: a long clip
// costs the analysis's memory no more than a short one.
func TestClipPreviewSizeIsBounded(t *testing.T) {
	for _, n := range []int{1, 100, 8000 * 60} {
		src := &memSource{}
		samples := make([]float64, n)
		for i := range samples {
			samples[i] = math.Sin(float64(i))
		}
		p := clipPreview(src.add(floatWAV(samples)))
		if p.Err != "" || p.Spec == nil {
			t.Fatalf("%d samples: %+v", n, p)
		}
		if len(p.Wave) > waveBuckets || len(p.Spec.Times) > specFrames || len(p.Spec.Freqs) != specBins ||
			len(p.Spec.Levels) != len(p.Spec.Times)*specBins {
			t.Errorf("%d samples: %d buckets, %d frames, %d bins, %d levels; want at most %d, %d, %d",
				n, len(p.Wave), len(p.Spec.Times), len(p.Spec.Freqs), len(p.Spec.Levels), waveBuckets, specFrames, specBins)
		}
	}
}

// A clip of float samples at +-1e308 (and NaN and infinities) gets finite
// previews that JSON can write: its waveform is not rounded past float64
// to +Inf, which encoding/json refuses, and its spectrogram's levels
// (whose FFT sums overflow) are clamped to the scale.
func TestAudioPreviewOfExtremeSamples(t *testing.T) {
	const huge = 1e308
	samples := make([]float64, 4000)
	for i := range samples {
		samples[i] = huge * float64(1-2*(i%2))
	}
	samples[10], samples[11], samples[12] = math.NaN(), math.Inf(1), math.Inf(-1)
	p := clipPreview((&memSource{}).add(floatWAV(samples)))
	if p.Err != "" {
		t.Fatalf("clipPreview: %q", p.Err)
	}
	if _, err := json.Marshal(p); err != nil {
		t.Fatalf("clip preview does not encode: %v", err)
	}
	if p.Wave[0] != [2]float64{-huge, huge} {
		t.Errorf("waveform bucket 0 = %v, want [-1e308, 1e308]", p.Wave[0])
	}
	if p.Spec == nil || len(p.Spec.Levels) != len(p.Spec.Times)*len(p.Spec.Freqs) ||
		!regexp.MustCompile(`^[0-9A-Za-z]+$`).MatchString(p.Spec.Levels) {
		t.Fatalf("spectrogram levels %v", p.Spec)
	}
	// Levels beyond the scale, either way, and NaN.
	if got := levels([][]float64{{math.Inf(1), math.Inf(-1), math.NaN(), audio.Floor, 1e300}}); got != "z000z" {
		t.Errorf("levels = %q, want z000z", got)
	}
	for _, x := range []float64{huge, -huge, math.MaxFloat64} {
		if got := round(x, 1e3); got != x {
			t.Errorf("round(%g, 1e3) = %g", x, got)
		}
	}
	if got := round(math.Inf(1), 1e3); got != 0 {
		t.Errorf("round(+Inf) = %g, want 0 (JSON has no infinity)", got)
	}
}

func TestSpectrogramLevels(t *testing.T) {
	got := levels([][]float64{{-120, -200, 0}, {-61, -60.9, 10}})
	// -120 and below: 0; 0 dB: 60 steps of 2 dB; -61 rounds to 29.5 -> 30.
	if want := "00yUUz"; got != want {
		t.Errorf("levels = %q, want %q", got, want)
	}
}
