package audio

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzDecodeWAV feeds clip bytes straight from untrusted logs: DecodeWAV
// must return samples or an error, never panic or allocate beyond what the
// input backs, and the previews of whatever it decodes must be finite.
func FuzzDecodeWAV(f *testing.F) {
	f.Add(wavHeader(1, 1, 16, 8000, 4))
	f.Add(append(wavHeader(1, 2, 16, 16000, 8), 0, 1, 2, 3, 4, 5, 6, 7))
	f.Add(append(wavHeader(3, 1, 32, 8000, 4), 0, 0, 0x80, 0x7f)) // +Inf
	f.Add([]byte("RIFF\x04\x00\x00\x00WAVE"))
	f.Fuzz(func(t *testing.T, b []byte) {
		pcm, err := DecodeWAV(b)
		if err != nil {
			return
		}
		if len(pcm.Samples) > len(b) {
			t.Fatalf("%d samples from %d bytes", len(pcm.Samples), len(b))
		}
		w := NewWaveform(pcm.Samples, 50)
		for i := range w.Min {
			if math.IsNaN(w.Min[i]) || math.IsNaN(w.Max[i]) {
				t.Fatalf("waveform bucket %d is NaN", i)
			}
		}
		s := NewSpectrogram(pcm.Samples, pcm.Rate, 16, 8)
		for _, row := range s.DB {
			for _, v := range row {
				if math.IsNaN(v) {
					t.Fatal("spectrogram cell is NaN")
				}
			}
		}
	})
}

// wavHeader is a canonical 44-byte header announcing n data bytes.
func wavHeader(format, channels, bits, rate, n int) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WAVEfmt \x10\x00\x00\x00")
	b = binary.LittleEndian.AppendUint16(b, uint16(format))
	b = binary.LittleEndian.AppendUint16(b, uint16(channels))
	b = binary.LittleEndian.AppendUint32(b, uint32(rate))
	b = binary.LittleEndian.AppendUint32(b, uint32(rate*channels*bits/8))
	b = binary.LittleEndian.AppendUint16(b, uint16(channels*bits/8))
	b = binary.LittleEndian.AppendUint16(b, uint16(bits))
	b = append(b, "data"...)
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8+n))
	return b
}
