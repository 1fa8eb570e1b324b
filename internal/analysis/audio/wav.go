// Package audio decodes the WAV clips that audio summaries hold and
// computes the small previews the report draws beside each player: a
// waveform (the min/max envelope per bucket of samples) and a spectrogram
// (power in dB over time and frequency, by gonum's FFT).
package audio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// PCM is a decoded clip: its frames mixed down to one channel, as samples
// in [-1, 1].
type PCM struct {
	Rate     float64
	Channels int
	Samples  []float64 // one per frame, the mean of its channels
}

// Duration is the clip's length in seconds.
func (p *PCM) Duration() float64 {
	if p.Rate <= 0 {
		return 0
	}
	return float64(len(p.Samples)) / p.Rate
}

// WAVE format tags.
const (
	formatPCM        = 1
	formatFloat      = 3
	formatExtensible = 0xFFFE
)

// ErrNotWAV is returned for data that is not a RIFF WAVE file.
var ErrNotWAV = errors.New("not a RIFF WAVE file")

// DecodeWAV decodes a RIFF WAVE file holding integer PCM of 8, 16, 24 or
// 32 bits or IEEE floats of 32 or 64 bits, with any number of channels
// (tensorboardX and TensorFlow write 16-bit PCM). A file whose data chunk
// ends early is an error, as is any other encoding.
func DecodeWAV(b []byte) (*PCM, error) {
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WAVE" {
		return nil, ErrNotWAV
	}
	le := binary.LittleEndian
	var (
		format, channels, bits int
		rate                   float64
		haveFmt                bool
	)
	for off := 12; off+8 <= len(b); {
		id, size := string(b[off:off+4]), int64(le.Uint32(b[off+4:]))
		body := b[off+8:]
		switch id {
		case "fmt ":
			if size < 16 || len(body) < 16 {
				return nil, fmt.Errorf("wav: fmt chunk of %d bytes, want 16 or more", min(size, int64(len(body))))
			}
			format = int(le.Uint16(body[0:]))
			channels = int(le.Uint16(body[2:]))
			rate = float64(le.Uint32(body[4:]))
			bits = int(le.Uint16(body[14:]))
			if format == formatExtensible && size >= 26 && len(body) >= 26 {
				format = int(le.Uint16(body[24:])) // the sub-format GUID's first two bytes
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return nil, errors.New("wav: data chunk before the fmt chunk")
			}
			if size > int64(len(body)) {
				return nil, fmt.Errorf("wav: truncated: data chunk declares %d bytes, %d present", size, len(body))
			}
			return decodeSamples(body[:size], format, channels, bits, rate)
		}
		off += 8 + int(size) + int(size%2)
		if off < 0 {
			break
		}
	}
	if !haveFmt {
		return nil, errors.New("wav: no fmt chunk")
	}
	return nil, errors.New("wav: no data chunk")
}

func decodeSamples(data []byte, format, channels, bits int, rate float64) (*PCM, error) {
	if channels < 1 {
		return nil, fmt.Errorf("wav: %d channels", channels)
	}
	if rate <= 0 {
		return nil, errors.New("wav: sample rate 0")
	}
	var sample func([]byte) float64
	le := binary.LittleEndian
	switch {
	case format == formatPCM && bits == 8: // unsigned, centred on 128
		sample = func(b []byte) float64 { return (float64(b[0]) - 128) / 128 }
	case format == formatPCM && bits == 16:
		sample = func(b []byte) float64 { return float64(int16(le.Uint16(b))) / (1 << 15) }
	case format == formatPCM && bits == 24:
		sample = func(b []byte) float64 {
			return float64(int32(uint32(b[0])<<8|uint32(b[1])<<16|uint32(b[2])<<24)>>8) / (1 << 23)
		}
	case format == formatPCM && bits == 32:
		sample = func(b []byte) float64 { return float64(int32(le.Uint32(b))) / (1 << 31) }
	case format == formatFloat && bits == 32:
		sample = func(b []byte) float64 { return float64(math.Float32frombits(le.Uint32(b))) }
	case format == formatFloat && bits == 64:
		sample = func(b []byte) float64 { return math.Float64frombits(le.Uint64(b)) }
	default:
		return nil, fmt.Errorf("wav: unsupported encoding: format %d, %d bits", format, bits)
	}
	width := bits / 8
	frame := width * channels
	n := len(data) / frame
	p := &PCM{Rate: rate, Channels: channels, Samples: make([]float64, n)}
	for i := range n {
		var sum float64
		for c := range channels {
			off := i*frame + c*width
			sum += sample(data[off : off+width])
		}
		p.Samples[i] = sum / float64(channels)
	}
	return p, nil
}
