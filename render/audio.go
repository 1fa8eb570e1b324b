package render

import (
	"fmt"
	"html/template"
	"math"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/summary"
)

// audioPage is what templates/audio.html draws.
type audioPage struct {
	Budget int
	Tags   []mediaTagView
}

// audioEntry is a step of clips in a data file (data/audio/<run>/<tag>.json).
// File paths are relative to the site's root.
type audioEntry struct {
	WallTime summary.Float `json:"wall_time"`
	Step     int64         `json:"step"`
	Clips    []audioJSON   `json:"clips"`
	entryWrite
}

type audioJSON struct {
	File        string `json:"file"` // "" when the clip could not be written
	ContentType string `json:"content_type"`
	// SampleRate is as written: a NaN or infinite one (which
	// encoding/json refuses) as a string, like the scalar data files.
	SampleRate summary.Float `json:"sample_rate"`
	Channels   int64         `json:"channels"`
	Frames     int64         `json:"frames"`
	Label      string        `json:"label"` // Markdown, as written
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
	WallTime summary.Float  `json:"wall_time"`
	Clips    []clipViewJSON `json:"clips"`
	entryWrite
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

// specJSON is a result.Spectrogram as the page's data holds it.
type specJSON struct {
	Times  []float64 `json:"times"`
	Freqs  []float64 `json:"freqs"`
	Levels string    `json:"levels"`
}

func runAudio(run *model.Run) []*model.Audio {
	return withEntries(run.Audio, func(a *model.Audio) int { return len(a.Entries) })
}

func (r *Report) audioTags() []*mediaTag[*model.Audio] {
	return groupMedia(r.rep.Runs, &r.an.Media, runAudio,
		func(a *model.Audio) string { return a.Tag },
		func(a *model.Audio) []int64 {
			return entrySteps(a.Entries, func(e model.AudioEntry) int64 { return e.Step })
		})
}

// keptClips returns the kept steps of a tag's series k, each with the
// file names of its clips in the site and their previews (m.Previews).
func keptClips(mt *mediaTag[*model.Audio], k int, m *result.Media) []keptClip {
	ms, a := mt.series[k], mt.data[k]
	previews := m.Previews[a]
	out := make([]keptClip, len(ms.keep))
	for j, idx := range ms.keep {
		e := a.Entries[idx]
		out[j].AudioEntry = e
		if j < len(previews) {
			out[j].previews = previews[j]
		}
		for i, c := range e.Clips {
			_, ext := result.ClipType(c.ContentType)
			out[j].names = append(out[j].names, mediaFile("audio", ms.run.Name, mt.tag, ms.names[j], i, ext))
		}
	}
	return out
}

type keptClip struct {
	model.AudioEntry
	names    []string             // of Clips[i] in the site
	previews []result.ClipPreview // of Clips[i], nil when the analysis has none
}

// clipView is a clip as the page shows it, with p its previews (nil for
// none); a clip that has no previews keeps its player and says why, and
// one that cannot be read has no player and says why. The sample rate and
// duration the summary declares are shown only when they are positive and
// finite (a NaN rate made the page's JSON unwritable), unless the clip
// was decoded.
func clipView(c model.AudioClip, name string, single bool, md *markdown, p *result.ClipPreview) clipViewJSON {
	mime, ext := result.ClipType(c.ContentType)
	v := clipViewJSON{Type: mime, Label: md.HTML(c.Label), Rate: finiteRate(c.SampleRate), Channels: int(max(0, min(c.Channels, 1<<20)))}
	if d := float64(c.Frames) / v.Rate; v.Rate > 0 && d > 0 && !math.IsInf(d, 0) {
		v.Duration = d
	}
	v.Src = name
	switch {
	case single || p == nil || !p.Read:
		// The single file inlines the clip's bytes; otherwise the page
		// refers to the clip's file, and reading it tells whether it
		// will be there.
		b, err := readBlob(c.Data)
		if err != nil {
			v.Src, v.Error = "", "clip not shown: "+err.Error()
			return v
		}
		if single {
			v.Src = dataURI(mime, b)
		}
	case p.ReadErr != "":
		// The analysis read the clip for the site's page.
		v.Src, v.Error = "", "clip not shown: "+p.ReadErr
		return v
	}
	switch {
	case ext != "wav":
		v.Error = "no preview: " + mime + " is not WAV"
		return v
	case p == nil || !p.Read:
		v.Error = "no preview: the analysis holds none"
		return v
	case p.ReadErr != "" || p.Err != "":
		v.Error = "no preview: " + p.ReadErr + p.Err
		return v
	}
	v.Rate, v.Channels, v.Duration = p.Rate, p.Channels, p.Duration
	v.Wave = p.Wave
	if p.Spec != nil {
		v.Spec = &specJSON{Times: p.Spec.Times, Freqs: p.Spec.Freqs, Levels: p.Spec.Levels}
	}
	return v
}

func (p *audioPage) cutSections() (string, []*cutSection) { return "", mediaSections(p.Tags) }

func (r *Report) audioPage(single bool) (*audioPage, error) {
	p := &audioPage{Budget: r.an.Media.Steps}
	md := newMarkdown()
	mts := r.audioTags()
	runs := make([][]audioRunJSON, len(mts))
	steps := make([][][]int64, len(mts))
	for t, mt := range mts {
		for k, ms := range mt.series {
			rj := audioRunJSON{Name: ms.run.Name, Kept: len(ms.keep), Total: len(ms.steps), Entries: []audioStepJSON{}}
			var runSteps []int64
			for _, e := range keptClips(mt, k, &r.an.Media) {
				sj := audioStepJSON{Step: e.Step, WallTime: summary.Float(e.WallTime), Clips: []clipViewJSON{}, entryWrite: entryWriteOf(ms.run, e.Written)}
				for i, c := range e.Clips {
					var p *result.ClipPreview
					if i < len(e.previews) {
						p = &e.previews[i]
					}
					sj.Clips = append(sj.Clips, clipView(c, e.names[i], single, md, p))
				}
				rj.Entries = append(rj.Entries, sj)
				runSteps = append(runSteps, e.Step)
			}
			steps[t] = append(steps[t], runSteps)
			runs[t] = append(runs[t], rj)
		}
	}
	tags, err := cutMediaTags(r, mts, runs, steps, "audio", single, func(rj audioRunJSON) string { return rj.Name }, func(tag string, runs []audioRunJSON, steps []int64) any {
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
			for _, e := range keptClips(mt, k, &r.an.Media) {
				ej := audioEntry{WallTime: summary.Float(e.WallTime), Step: e.Step, Clips: []audioJSON{}, entryWrite: entryWriteOf(ms.run, e.Written)}
				for i, c := range e.Clips {
					cj := audioJSON{File: e.names[i], ContentType: c.ContentType,
						SampleRate: summary.Float(c.SampleRate), Channels: c.Channels, Frames: c.Frames, Label: c.Label}
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
