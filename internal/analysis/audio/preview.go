package audio

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// Waveform is the min/max envelope of a clip: bucket i covers samples
// [i*n/len, (i+1)*n/len) of n, and holds their least and greatest value.
type Waveform struct {
	Min, Max []float64
}

// NewWaveform returns the envelope of samples in at most buckets buckets
// (one per sample when there are fewer). Non-finite samples are skipped;
// a bucket without a finite sample is 0.
func NewWaveform(samples []float64, buckets int) Waveform {
	n := len(samples)
	buckets = min(buckets, n)
	w := Waveform{Min: make([]float64, buckets), Max: make([]float64, buckets)}
	for i := range buckets {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range samples[i*n/buckets : (i+1)*n/buckets] {
			if math.IsNaN(s) || math.IsInf(s, 0) {
				continue
			}
			lo, hi = min(lo, s), max(hi, s)
		}
		if lo <= hi {
			w.Min[i], w.Max[i] = lo, hi
		}
	}
	return w
}

// Spectrogram is the power of a clip over time and frequency: DB[f][b] is
// the level, in dB relative to a full-scale sine, of frequency bin b
// (centred on Freqs[b] Hz) in the window centred on Times[f] seconds.
type Spectrogram struct {
	Times, Freqs []float64
	DB           [][]float64
}

// Floor is the lowest level a spectrogram reports, for silence.
const Floor = -120.0

// NewSpectrogram computes the spectrogram of a clip of the given sample
// rate in at most frames frames of bins frequency bins: Hann windows of
// 2*bins samples (zero-padded when the clip is shorter), back to back
// when the clip holds no more than frames of them (the last one ending
// where the clip ends), else spread evenly from its start to its end. Bin b is centred on b*rate/(2*bins) Hz, from
// 0 up to just below the Nyquist frequency. Non-finite samples count as
// 0.
func NewSpectrogram(samples []float64, rate float64, frames, bins int) Spectrogram {
	size := 2 * bins
	n := len(samples)
	count := min(frames, max(1, (n+size-1)/size))
	fft := fourier.NewFFT(size)
	window := make([]float64, size)
	var gain float64 // a full-scale sine's peak magnitude: the window's sum over 2
	for i := range window {
		window[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(size))
		gain += window[i] / 2
	}
	s := Spectrogram{Freqs: make([]float64, bins), Times: make([]float64, count), DB: make([][]float64, count)}
	for b := range bins {
		s.Freqs[b] = float64(b) * rate / float64(size)
	}
	seq := make([]float64, size)
	var coeff []complex128
	for f := range count {
		start := min(f*size, max(n-size, 0)) // back to back, the last one ending with the clip
		if n > count*size && count > 1 {
			start = f * (n - size) / (count - 1) // spread from start to end
		}
		for i := range seq {
			v := 0.0
			if j := start + i; j < n && !math.IsNaN(samples[j]) && !math.IsInf(samples[j], 0) {
				v = samples[j]
			}
			seq[i] = v * window[i]
		}
		coeff = fft.Coefficients(coeff, seq)
		row := make([]float64, bins)
		for b := range row {
			mag := math.Hypot(real(coeff[b]), imag(coeff[b]))
			row[b] = max(Floor, 20*math.Log10(mag/gain))
		}
		s.DB[f] = row
		s.Times[f] = (float64(start) + float64(size)/2) / rate
	}
	return s
}
