package result

import (
	"regexp"

	"github.com/trainreport/trainreport/collect/model"
)

// Media is what the Images and Audio pages and their data files keep of
// the report's image and audio series: a budget of steps per (run, tag)
// series, and the previews of the kept audio clips.
type Media struct {
	// Steps is the budget of kept steps of one series
	// (analysis.Options.MediaSteps).
	Steps int
	// Previews holds the previews of the kept clips of each audio series
	// with entries: Previews[a][j][i] is of clip i of entry
	// Keep(len(a.Entries))[j]. A clip that is not WAV (ClipType) has the
	// zero ClipPreview.
	Previews map[*model.Audio][][]ClipPreview
}

// Keep returns the indices of the entries a media series of n entries
// keeps, in order: every one up to Steps, beyond it Steps spread evenly,
// the first and the last always kept.
func (m *Media) Keep(n int) []int { return EvenSteps(n, m.Steps) }

// ClipPreview is what the Audio page shows of a kept WAV clip beside its
// player, as the page writes it: the clip's format as decoded, its
// waveform and its spectrogram; or, in Err, why it has none.
type ClipPreview struct {
	// Read reports whether the analysis read the clip: it reads the WAV
	// clips with bytes, each once. ReadErr says why one could not be
	// read, Err why one that was read could not be decoded; either way
	// the fields below are zero.
	Read         bool
	ReadErr, Err string
	// Rate (Hz), Channels and Duration (s) are as decoded.
	Rate     float64
	Channels int
	Duration float64
	// Wave is the envelope as [min, max] per bucket, rounded to 3
	// decimals (finite: a value too large to round stays as it is).
	Wave [][2]float64
	// Spec is the spectrogram.
	Spec *Spectrogram
}

// Spectrogram is a clip's spectrogram as the Audio page draws it.
type Spectrogram struct {
	// Times are the frames' centres (s, rounded to 4 decimals), Freqs
	// the bins' (Hz).
	Times, Freqs []float64
	// Levels holds one character per frame and bin, frame after frame:
	// the level in dB as a digit of a base-62 scale (package analysis
	// encodes it, assets/audio.js decodes it), so that a spectrogram of
	// 128 x 64 takes 8 KiB.
	Levels string
}

// audioMIME matches the content types a clip may declare.
var audioMIME = regexp.MustCompile(`^audio/[a-z0-9.+-]+$`)

// ClipType returns the MIME type a clip plays as (audio/wav unless it
// declares another) and its file extension, "wav" for the clips that
// have previews.
func ClipType(contentType string) (mime, ext string) {
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
