package audio

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestAgainstNumpy compares DecodeWAV, NewWaveform and NewSpectrogram with
// testdata/reference.py: a stereo 16-bit clip written and read back by
// Python's wave module, and its previews computed with numpy's rfft.
func TestAgainstNumpy(t *testing.T) {
	var ref struct {
		Rate         float64
		Channels     int
		Frames       []int16
		Wave         [][2]float64
		Spectrograms []struct {
			Frames int
			Times  []float64
			DB     [][]float64
		}
	}
	b, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	clip, err := os.ReadFile("testdata/chirp.wav")
	if err != nil {
		t.Fatal(err)
	}
	p, err := DecodeWAV(clip)
	if err != nil {
		t.Fatal(err)
	}
	if p.Rate != ref.Rate || p.Channels != ref.Channels || len(p.Samples)*ref.Channels != len(ref.Frames) {
		t.Fatalf("%v Hz, %d channels, %d samples; want %v Hz, %d channels, %d frames",
			p.Rate, p.Channels, len(p.Samples), ref.Rate, ref.Channels, len(ref.Frames)/ref.Channels)
	}
	for i, s := range p.Samples {
		want := (float64(ref.Frames[2*i]) + float64(ref.Frames[2*i+1])) / 2 / 32768
		if s != want {
			t.Fatalf("sample %d = %v, want %v", i, s, want)
		}
	}
	w := NewWaveform(p.Samples, len(ref.Wave))
	for i, mm := range ref.Wave {
		if w.Min[i] != mm[0] || w.Max[i] != mm[1] {
			t.Fatalf("waveform bucket %d = [%v, %v], want %v", i, w.Min[i], w.Max[i], mm)
		}
	}
	if len(ref.Spectrograms) != 2 || len(ref.Spectrograms[0].DB) != 41 || len(ref.Spectrograms[1].DB) != 16 {
		t.Fatal("reference.json: want spectrograms of 41 and 16 frames")
	}
	for _, rs := range ref.Spectrograms {
		s := NewSpectrogram(p.Samples, p.Rate, rs.Frames, 64)
		if len(s.DB) != len(rs.DB) {
			t.Fatalf("at most %d frames: %d, want %d", rs.Frames, len(s.DB), len(rs.DB))
		}
		for f := range rs.DB {
			if math.Abs(s.Times[f]-rs.Times[f]) > 1e-12 {
				t.Fatalf("at most %d frames: frame %d at %v s, want %v s", rs.Frames, f, s.Times[f], rs.Times[f])
			}
			for k, want := range rs.DB[f] {
				if math.Abs(s.DB[f][k]-want) > 1e-6 {
					t.Fatalf("at most %d frames: frame %d bin %d = %v dB, want %v dB", rs.Frames, f, k, s.DB[f][k], want)
				}
			}
		}
	}
}
