package audio

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"
)

// wav encodes samples (frame-major, channels interleaved, in [-1, 1]) as a
// WAVE file of the given format tag and bits per sample.
func wav(format, bits, channels int, rate uint32, samples []float64) []byte {
	le := binary.LittleEndian
	var data []byte
	for _, s := range samples {
		switch {
		case format == formatPCM && bits == 8:
			data = append(data, byte(math.Round(s*127+128)))
		case format == formatPCM && bits == 16:
			data = le.AppendUint16(data, uint16(int16(math.Round(s*32767))))
		case format == formatPCM && bits == 24:
			v := uint32(int32(math.Round(s * 8388607)))
			data = append(data, byte(v), byte(v>>8), byte(v>>16))
		case format == formatPCM && bits == 32:
			data = le.AppendUint32(data, uint32(int32(math.Round(s*2147483647))))
		case format == formatFloat && bits == 32:
			data = le.AppendUint32(data, math.Float32bits(float32(s)))
		case format == formatFloat && bits == 64:
			data = le.AppendUint64(data, math.Float64bits(s))
		}
	}
	block := channels * bits / 8
	b := []byte("RIFF\x00\x00\x00\x00WAVE")
	b = append(b, "fmt "...)
	b = le.AppendUint32(b, 16)
	b = le.AppendUint16(b, uint16(format))
	b = le.AppendUint16(b, uint16(channels))
	b = le.AppendUint32(b, rate)
	b = le.AppendUint32(b, rate*uint32(block))
	b = le.AppendUint16(b, uint16(block))
	b = le.AppendUint16(b, uint16(bits))
	b = append(b, "LIST\x04\x00\x00\x00INFO"...) // a chunk to skip
	b = append(b, "data"...)
	b = le.AppendUint32(b, uint32(len(data)))
	b = append(b, data...)
	le.PutUint32(b[4:], uint32(len(b)-8))
	return b
}

func sine(freq, rate float64, n int, amp float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = amp * math.Sin(2*math.Pi*freq*float64(i)/rate)
	}
	return s
}

func TestDecodeEveryEncoding(t *testing.T) {
	src := sine(440, 8000, 400, 0.5)
	for _, c := range []struct {
		format, bits int
		tol          float64
	}{
		{formatPCM, 8, 1.0 / 100}, {formatPCM, 16, 1e-4}, {formatPCM, 24, 1e-6}, {formatPCM, 32, 1e-8},
		{formatFloat, 32, 1e-7}, {formatFloat, 64, 0},
	} {
		p, err := DecodeWAV(wav(c.format, c.bits, 1, 8000, src))
		if err != nil {
			t.Fatalf("format %d, %d bits: %v", c.format, c.bits, err)
		}
		if p.Rate != 8000 || p.Channels != 1 || len(p.Samples) != len(src) {
			t.Fatalf("format %d, %d bits: rate %v, %d channels, %d samples", c.format, c.bits, p.Rate, p.Channels, len(p.Samples))
		}
		for i, s := range p.Samples {
			if math.Abs(s-src[i]) > c.tol {
				t.Fatalf("format %d, %d bits: sample %d = %v, want %v", c.format, c.bits, i, s, src[i])
			}
		}
	}
}

func TestDecodeMixesChannels(t *testing.T) {
	// Left 0.5, right -0.25: the mix is 0.125.
	p, err := DecodeWAV(wav(formatPCM, 16, 2, 16000, []float64{0.5, -0.25, 0.5, -0.25, 0.5, -0.25}))
	if err != nil {
		t.Fatal(err)
	}
	if p.Channels != 2 || len(p.Samples) != 3 || math.Abs(p.Samples[0]-0.125) > 1e-4 {
		t.Fatalf("got %d channels, samples %v", p.Channels, p.Samples)
	}
	if d := p.Duration(); d != 3.0/16000 {
		t.Errorf("duration %v", d)
	}
}

func TestDecodeErrors(t *testing.T) {
	good := wav(formatPCM, 16, 1, 16000, sine(440, 16000, 100, 0.5))
	if _, err := DecodeWAV([]byte("ID3\x03not a wave at all")); !errors.Is(err, ErrNotWAV) {
		t.Errorf("MP3 bytes: %v, want ErrNotWAV", err)
	}
	if _, err := DecodeWAV(nil); !errors.Is(err, ErrNotWAV) {
		t.Errorf("empty: %v, want ErrNotWAV", err)
	}
	if _, err := DecodeWAV(good[:len(good)-10]); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated data: %v", err)
	}
	if _, err := DecodeWAV(good[:30]); err == nil {
		t.Error("truncated fmt chunk: no error")
	}
	if _, err := DecodeWAV(wav(2, 4, 1, 8000, nil)); err == nil || !strings.Contains(err.Error(), "unsupported") {
		t.Errorf("ADPCM: %v", err)
	}
}

// argmax is the index of the largest value.
func argmax(v []float64) int {
	best := 0
	for i, x := range v {
		if x > v[best] {
			best = i
		}
	}
	return best
}

func TestSpectrogramPeaksAtTheSine(t *testing.T) {
	const rate, bins = 16000.0, 64 // bins of 125 Hz
	for _, freq := range []float64{1000, 2500, 460, 7000} {
		s := NewSpectrogram(sine(freq, rate, 8000, 1), rate, 128, bins)
		if len(s.DB) != 63 || len(s.Freqs) != bins {
			t.Fatalf("%d frames of %d bins, want 63 of %d", len(s.DB), len(s.Freqs), bins)
		}
		want := int(math.Round(freq / (rate / (2 * bins))))
		for f, row := range s.DB {
			if got := argmax(row); got != want {
				t.Fatalf("%v Hz: frame %d peaks at bin %d (%v Hz), want %d", freq, f, got, s.Freqs[got], want)
			}
		}
		// A full-scale sine centred on its bin reads 0 dB there.
		if freq == 1000 && math.Abs(s.DB[10][want]) > 0.01 {
			t.Errorf("full-scale sine at its bin: %v dB, want 0", s.DB[10][want])
		}
	}
}

func TestSpectrogramBounds(t *testing.T) {
	long := sine(440, 44100, 44100*60, 0.5) // a minute
	s := NewSpectrogram(long, 44100, 128, 64)
	if len(s.DB) != 128 || len(s.Times) != 128 {
		t.Fatalf("%d frames, want 128", len(s.DB))
	}
	if s.Times[0] != 64.0/44100 || math.Abs(s.Times[127]-(60-64.0/44100)) > 1e-9 {
		t.Errorf("frames span %v..%v s, want the whole minute", s.Times[0], s.Times[127])
	}
	short := NewSpectrogram(sine(440, 8000, 10, 0.5), 8000, 128, 64)
	if len(short.DB) != 1 {
		t.Errorf("10 samples: %d frames, want 1", len(short.DB))
	}
}

func TestSilenceHasNoNaN(t *testing.T) {
	for _, samples := range [][]float64{make([]float64, 1000), nil, {math.NaN(), math.Inf(1), 0}} {
		s := NewSpectrogram(samples, 16000, 128, 64)
		for _, row := range s.DB {
			for _, v := range row {
				if v != Floor {
					t.Fatalf("silence reads %v dB, want %v", v, Floor)
				}
			}
		}
		w := NewWaveform(samples, 100)
		for i := range w.Min {
			if w.Min[i] != 0 || w.Max[i] != 0 {
				t.Fatalf("silence: bucket %d is [%v, %v]", i, w.Min[i], w.Max[i])
			}
		}
	}
}

func TestWaveformEnvelope(t *testing.T) {
	w := NewWaveform([]float64{0, 1, -1, 0.5, -0.5, 0.25, 0, 0}, 4)
	wantMin, wantMax := []float64{0, -1, -0.5, 0}, []float64{1, 0.5, 0.25, 0}
	for i := range 4 {
		if w.Min[i] != wantMin[i] || w.Max[i] != wantMax[i] {
			t.Fatalf("bucket %d: [%v, %v], want [%v, %v]", i, w.Min[i], w.Max[i], wantMin[i], wantMax[i])
		}
	}
	if w := NewWaveform([]float64{0.1, 0.2}, 100); len(w.Min) != 2 {
		t.Errorf("2 samples give %d buckets", len(w.Min))
	}
}

func TestDecodeExtensible(t *testing.T) {
	// WAVE_FORMAT_EXTENSIBLE: a 40-byte fmt chunk whose sub-format GUID
	// begins with the real format tag (here IEEE float).
	b := wav(formatFloat, 32, 2, 8000, []float64{0.25, 0.75})
	le := binary.LittleEndian
	ext := append([]byte{}, b[:20]...)
	le.PutUint32(ext[16:], 40)
	fmtBody := append([]byte{}, b[20:36]...)
	le.PutUint16(fmtBody[0:], formatExtensible)
	fmtBody = le.AppendUint16(fmtBody, 22) // cbSize
	fmtBody = le.AppendUint16(fmtBody, 32) // valid bits
	fmtBody = le.AppendUint32(fmtBody, 3)  // channel mask
	fmtBody = le.AppendUint16(fmtBody, formatFloat)
	fmtBody = append(fmtBody, "\x00\x00\x00\x00\x10\x00\x80\x00\x00\xaa\x00\x38\x9b\x71"...)
	ext = append(append(ext, fmtBody...), b[36:]...)
	le.PutUint32(ext[4:], uint32(len(ext)-8))
	p, err := DecodeWAV(ext)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Samples) != 1 || p.Samples[0] != 0.5 || p.Channels != 2 {
		t.Errorf("got %d channels, samples %v, want 2 and [0.5]", p.Channels, p.Samples)
	}
}
