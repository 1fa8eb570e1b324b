package audio_test

import (
	"context"
	"math"
	"path/filepath"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/internal/analysis/audio"
)

// TestWriterClips decodes the clips that tensorboardX and TensorFlow wrote
// (collect/testdata/writers/generate.py: 16-bit PCM sines of 440*(step+1)
// Hz, and of 330*(step+1) and 550*(step+1) Hz in a batch of two) and checks
// the header the collector read, and that each spectrogram peaks at the
// bin of its sine.
func TestWriterClips(t *testing.T) {
	freqs := map[string][][]float64{
		"tensorboardx": {{440}, {880}},
		"tf2":          {{330, 550}, {660, 1100}},
	}
	for writer, want := range freqs {
		dir := filepath.Join("..", "..", "..", "collect", "testdata", "writers", writer)
		rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: writer, Path: dir}}, collect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, run := range rep.Runs {
			for _, a := range run.Audio {
				for i, e := range a.Entries {
					for j, c := range e.Clips {
						b, err := c.Data.Read()
						if err != nil {
							t.Fatal(err)
						}
						p, err := audio.DecodeWAV(b)
						if err != nil {
							t.Fatalf("%s step %d clip %d: %v", writer, e.Step, j, err)
						}
						if p.Rate != c.SampleRate || int64(len(p.Samples)) != c.Frames || p.Channels != 1 {
							t.Errorf("%s step %d clip %d: %v Hz, %d frames, %d channels; header says %v Hz, %d frames",
								writer, e.Step, j, p.Rate, len(p.Samples), p.Channels, c.SampleRate, c.Frames)
						}
						s := audio.NewSpectrogram(p.Samples, p.Rate, 128, 64)
						bin := int(math.Round(want[i][j] / (p.Rate / 128)))
						for f, row := range s.DB {
							best := 0
							for k := range row {
								if row[k] > row[best] {
									best = k
								}
							}
							if best != bin {
								t.Errorf("%s step %d clip %d frame %d: peak at %v Hz, want %v Hz", writer, e.Step, j, f, s.Freqs[best], want[i][j])
								break
							}
						}
						n++
					}
				}
			}
		}
		if n != 2*len(want[0]) {
			t.Errorf("%s: %d clips", writer, n)
		}
	}
}
