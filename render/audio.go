package render

import (
	"fmt"
	"html/template"
	"math"
	"regexp"
	"strings"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/audio"
)

// Preview sizes: the waveform's buckets, the spectrogram's frames and
// frequency bins per clip.
const (
	waveBuckets = 200
	specFrames  = 128
	specBins    = 64
)

// audioPage is what templates/audio.html draws.
type audioPage struct {
	Budget int
	Tags   []mediaTagView
}

// audioEntry is a step of clips in a data file (data/audio/<run>/<tag>.json).
// File paths are relative to the site's root.
type audioEntry struct {
	WallTime jsonFloat   `json:"wall_time"`
	Step     int64       `json:"step"`
	Clips    []audioJSON `json:"clips"`
}

type audioJSON struct {
	File        string `json:"file"` // "" when the clip could not be written
	ContentType string `json:"content_type"`
	// SampleRate is as written: a NaN or infinite one (which
	// encoding/json refuses) as a string, like the scalar data files.
	SampleRate jsonFloat `json:"sample_rate"`
	Channels   int64     `json:"channels"`
	Frames     int64     `json:"frames"`
	Label      string    `json:"label"` // Markdown, as written
	// Error says why the clip has no file.
	Error string `json:"error,omitempty"`
}

// audioTagJSON is the inline data of one tag that assets/audio.js draws.
type audioTagJSON struct {
	Tag   string         `json:"tag"`
	Steps []int64        `json:"steps"`
	Runs  []audioRunJSON `json:"runs"`
}

type audioRunJSON struct {
	Name    string          `json:"name"`
	Kept    int             `json:"kept"`
	Total   int             `json:"total"`
	Entries []audioStepJSON `json:"entries"`
}

type audioStepJSON struct {
	Step     int64          `json:"step"`
	WallTime jsonFloat      `json:"wall_time"`
	Clips    []clipViewJSON `json:"clips"`
}

// clipViewJSON is one clip as the page shows it: the player's source, the
// label as sanitised HTML, and the previews, or why there are none. Src is
// "" (and Error says why) for a clip that cannot be read.
type clipViewJSON struct {
	Src      string        `json:"src"`
	Type     string        `json:"type"`
	Label    template.HTML `json:"label"`
	Rate     float64       `json:"rate"`
	Channels int           `json:"channels"`
	Duration float64       `json:"duration"`
	Error    string        `json:"error,omitempty"`
	// Wave is the envelope as [min, max] per bucket, 3 decimals.
	Wave [][2]float64 `json:"wave,omitempty"`
	// Spec is the spectrogram: frame times (s), bin frequencies (Hz) and
	// the levels.
	Spec *specJSON `json:"spec,omitempty"`
}

type specJSON struct {
	Times []float64 `json:"times"`
	Freqs []float64 `json:"freqs"`
	// Levels holds one character of dbDigits per frame and bin, frame
	// after frame: the level in steps of dbStep dB above audio.Floor, so
	// that a spectrogram of 128 x 64 takes 8 KiB of the page.
	Levels string `json:"levels"`
}

// The spectrogram's level encoding (see specJSON; assets/audio.js decodes it).
const (
	dbDigits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	dbStep   = 2.0
)

// levels encodes a spectrogram's dB values as specJSON.Levels.
func levels(db [][]float64) string {
	var b strings.Builder
	top := float64(len(dbDigits) - 1)
	for _, row := range db {
		for _, v := range row {
			// Clamped as a float, before the conversion: int of NaN or
			// of an infinity (a clip of float samples near 1e308 sums
			// past float64 in the FFT) is whatever the machine gives.
			x := (v - audio.Floor) / dbStep
			switch {
			case math.IsNaN(x) || x < 0:
				x = 0
			case x > top:
				x = top
			}
			b.WriteByte(dbDigits[int(math.Round(x))])
		}
	}
	return b.String()
}

func runAudio(run *model.Run) []*model.Audio {
	return withEntries(run.Audio, func(a *model.Audio) int { return len(a.Entries) })
}

func (r *Report) audioTags() []*mediaTag[*model.Audio] {
	return groupMedia(r.rep.Runs, r.opt.MediaSteps, runAudio,
		func(a *model.Audio) string { return a.Tag },
		func(a *model.Audio) []int64 {
			return entrySteps(a.Entries, func(e model.AudioEntry) int64 { return e.Step })
		})
}

// audioMIME matches the content types a clip may declare.
var audioMIME = regexp.MustCompile(`^audio/[a-z0-9.+-]+$`)

// audioType returns a clip's MIME type (audio/wav unless it declares
// another) and file extension.
func audioType(contentType string) (mime, ext string) {
	mime = "audio/wav"
	if audioMIME.MatchString(contentType) {
		mime = contentType
	}
	switch mime {
	case "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave":
		return mime, "wav"
	case "audio/mpeg", "audio/mp3":
		return mime, "mp3"
	case "audio/ogg":
		return mime, "ogg"
	case "audio/flac", "audio/x-flac":
		return mime, "flac"
	}
	return mime, "bin"
}

// keptClips returns the kept steps of a tag's series k, each with the
// file names of its clips in the site.
func keptClips(mt *mediaTag[*model.Audio], k int) []keptClip {
	ms, a := mt.series[k], mt.data[k]
	out := make([]keptClip, len(ms.keep))
	for j, idx := range ms.keep {
		e := a.Entries[idx]
		out[j].AudioEntry = e
		for i, c := range e.Clips {
			_, ext := audioType(c.ContentType)
			out[j].names = append(out[j].names, mediaFile("audio", ms.run.Name, mt.tag, ms.names[j], i, ext))
		}
	}
	return out
}

type keptClip struct {
	model.AudioEntry
	names []string // of Clips[i] in the site
}

// clipView reads a clip and computes its previews; a clip that cannot be
// decoded keeps its player and says why it has none, and one that cannot
// be read has no player and says why. The sample rate and duration the
// summary declares are shown only when they are positive and finite (a
// NaN rate made the page's JSON unwritable).
func clipView(c model.AudioClip, name string, single bool, md *markdown) clipViewJSON {
	mime, ext := audioType(c.ContentType)
	v := clipViewJSON{Type: mime, Label: md.HTML(c.Label), Rate: finiteRate(c.SampleRate), Channels: int(max(0, min(c.Channels, 1<<20)))}
	if d := float64(c.Frames) / v.Rate; v.Rate > 0 && d > 0 && !math.IsInf(d, 0) {
		v.Duration = d
	}
	b, err := readBlob(c.Data)
	if err != nil {
		v.Error = "clip not shown: " + err.Error()
		return v
	}
	v.Src = name
	if single {
		v.Src = dataURI(mime, b)
	}
	if ext != "wav" {
		v.Error = "no preview: " + mime + " is not WAV"
		return v
	}
	pcm, err := audio.DecodeWAV(b)
	if err != nil {
		v.Error = "no preview: " + err.Error()
		return v
	}
	v.Rate, v.Channels, v.Duration = pcm.Rate, pcm.Channels, pcm.Duration()
	w := audio.NewWaveform(pcm.Samples, waveBuckets)
	v.Wave = make([][2]float64, len(w.Min))
	for i := range w.Min {
		v.Wave[i] = [2]float64{round(w.Min[i], 1e3), round(w.Max[i], 1e3)}
	}
	s := audio.NewSpectrogram(pcm.Samples, pcm.Rate, specFrames, specBins)
	for f := range s.Times {
		s.Times[f] = round(s.Times[f], 1e4)
	}
	v.Spec = &specJSON{Times: s.Times, Freqs: s.Freqs, Levels: levels(s.DB)}
	return v
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

func (r *Report) audioPage(single bool) (*audioPage, error) {
	p := &audioPage{Budget: r.opt.MediaSteps}
	md := newMarkdown()
	mts := r.audioTags()
	runs := make([][]audioRunJSON, len(mts))
	steps := make([][][]int64, len(mts))
	for t, mt := range mts {
		for k, ms := range mt.series {
			rj := audioRunJSON{Name: ms.run.Name, Kept: len(ms.keep), Total: len(ms.steps), Entries: []audioStepJSON{}}
			var runSteps []int64
			for _, e := range keptClips(mt, k) {
				sj := audioStepJSON{Step: e.Step, WallTime: jsonFloat(e.WallTime), Clips: []clipViewJSON{}}
				for i, c := range e.Clips {
					sj.Clips = append(sj.Clips, clipView(c, e.names[i], single, md))
				}
				rj.Entries = append(rj.Entries, sj)
				runSteps = append(runSteps, e.Step)
			}
			steps[t] = append(steps[t], runSteps)
			runs[t] = append(runs[t], rj)
		}
	}
	tags, err := cutMediaTags(r, mts, runs, steps, "audio", func(tag string, runs []audioRunJSON, steps []int64) any {
		return audioTagJSON{Tag: tag, Runs: runs, Steps: steps}
	})
	if err != nil {
		return nil, err
	}
	p.Tags = tags
	return p, nil
}

// audioData returns the clips' data files and the clip files of the site,
// byte for byte as the logs hold them.
func (r *Report) audioData(emit func(file) error) (*pageData, error) {
	d := &pageData{category: "audio", section: "media", index: map[string]map[string]string{}}
	for _, mt := range r.audioTags() {
		for k, ms := range mt.series {
			var entries []audioEntry
			for _, e := range keptClips(mt, k) {
				ej := audioEntry{WallTime: jsonFloat(e.WallTime), Step: e.Step, Clips: []audioJSON{}}
				for i, c := range e.Clips {
					cj := audioJSON{File: e.names[i], ContentType: c.ContentType,
						SampleRate: jsonFloat(c.SampleRate), Channels: c.Channels, Frames: c.Frames, Label: c.Label}
					if b, err := readBlob(c.Data); err != nil {
						cj.File, cj.Error = "", fmt.Sprintf("step %d clip %d: %v", e.Step, i, err)
					} else if err := emit(file{e.names[i], b}); err != nil {
						return nil, err
					}
					ej.Clips = append(ej.Clips, cj)
				}
				entries = append(entries, ej)
			}
			name := dataFile("audio", ms.run.Name, mt.tag)
			if err := emitTagFile(d, emit, ms.run.Name, mt.tag, name, entries); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}
