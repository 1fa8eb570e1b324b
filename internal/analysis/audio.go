package analysis

import (
	"context"
	"math"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/audio"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// DefaultMediaSteps is the default of Options.MediaSteps.
const DefaultMediaSteps = 100

// Preview sizes: the waveform's buckets, the spectrogram's frames and
// frequency bins per clip.
const (
	waveBuckets = 200
	specFrames  = 128
	specBins    = 64
)

// The spectrogram's level encoding (result.Spectrogram.Levels), which
// assets/audio.js decodes: a digit of levelDigits per level, counting
// levelStep dB above audio.Floor.
const (
	levelDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	levelStep   = 2.0
)

// media keeps the steps of the media series and computes the previews of
// the kept WAV clips, each clip read once, in parallel across clips. A
// report that writes only summary.json shows no clip: it gets none.
func media(ctx context.Context, rep *model.Report, opt Options) (result.Media, error) {
	out := result.Media{Steps: opt.MediaSteps, Previews: map[*model.Audio][][]result.ClipPreview{}}
	if out.Steps == 0 {
		out.Steps = DefaultMediaSteps
	}
	if opt.SummaryOnly {
		return out, nil
	}
	var clips []*model.AudioClip
	var slots []*result.ClipPreview
	for _, run := range rep.Runs {
		for _, a := range run.Audio {
			if len(a.Entries) == 0 {
				continue // no page shows a series without entries
			}
			keep := out.Keep(len(a.Entries))
			ps := make([][]result.ClipPreview, len(keep))
			for j, idx := range keep {
				e := &a.Entries[idx]
				ps[j] = make([]result.ClipPreview, len(e.Clips))
				for i := range e.Clips {
					// Only WAV clips have previews; one of no bytes has
					// no clip to show (render says so).
					if _, ext := result.ClipType(e.Clips[i].ContentType); ext == "wav" && e.Clips[i].Data.Length > 0 {
						clips, slots = append(clips, &e.Clips[i]), append(slots, &ps[j][i])
					}
				}
			}
			out.Previews[a] = ps
		}
	}
	err := parallel(ctx, len(clips), func(i int) error {
		*slots[i] = clipPreview(clips[i].Data)
		return nil
	})
	return out, err
}

// clipPreview reads a WAV clip and computes its previews; a clip that
// cannot be read or decoded has none, and says why.
func clipPreview(ref model.BlobRef) result.ClipPreview {
	b, err := ref.Read()
	if err != nil {
		return result.ClipPreview{Read: true, ReadErr: err.Error()}
	}
	pcm, err := audio.DecodeWAV(b)
	if err != nil {
		return result.ClipPreview{Read: true, Err: err.Error()}
	}
	p := result.ClipPreview{Read: true, Rate: pcm.Rate, Channels: pcm.Channels, Duration: pcm.Duration()}
	w := audio.NewWaveform(pcm.Samples, waveBuckets)
	p.Wave = make([][2]float64, len(w.Min))
	for i := range w.Min {
		p.Wave[i] = [2]float64{round(w.Min[i], 1e3), round(w.Max[i], 1e3)}
	}
	s := audio.NewSpectrogram(pcm.Samples, pcm.Rate, specFrames, specBins)
	for f := range s.Times {
		s.Times[f] = round(s.Times[f], 1e4)
	}
	p.Spec = &result.Spectrogram{Times: s.Times, Freqs: s.Freqs, Levels: levels(s.DB)}
	return p
}

// levels encodes a spectrogram's dB values as result.Spectrogram.Levels.
func levels(db [][]float64) string {
	var b strings.Builder
	b.Grow(len(db) * specBins)
	top := float64(len(levelDigits) - 1)
	for _, row := range db {
		for _, v := range row {
			// Clamped as a float, before the conversion: int of NaN or
			// of an infinity (a clip of float samples near 1e308 sums
			// past float64 in the FFT) is whatever the machine gives.
			x := (v - audio.Floor) / levelStep
			switch {
			case math.IsNaN(x) || x < 0:
				x = 0
			case x > top:
				x = top
			}
			b.WriteByte(levelDigits[int(math.Round(x))])
		}
	}
	return b.String()
}

// round rounds x to 1/scale. A value so large that x*scale overflows has
// no digits there to round, and is returned as it is; a NaN or infinite x
// (which the previews never hold) comes back as 0, which JSON can write.
func round(x, scale float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	if math.Abs(x) >= 1<<52 {
		return x
	}
	return math.Round(x*scale) / scale
}
