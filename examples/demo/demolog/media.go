package demolog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"math"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// media writes the run "samples": what a generative model logs besides
// its metrics, in TF2's encodings (string tensors with plugin metadata):
//
//	samples/reconstruction  a 32x32 PNG every 50 steps, 120 steps (more
//	                        than a media page keeps: it thins them)
//	samples/batch           3 PNGs per step, 5 steps
//	samples/animation       an animated GIF of 8 frames
//	audio/generated         a target tone and the model's noisy output, 1 s
//	                        of 16-bit PCM at 16 kHz each, with Markdown
//	                        labels, 3 steps
func (g *generator) media() (err error) {
	rng := newRNG("samples")
	wall := float64(BaseWallTime) + 60
	f, err := g.create("samples", wall, 31415, 0, tensorContent)
	defer func() { err = errors.Join(err, f.close()) }()
	if err != nil {
		return err
	}
	value := func(tag, plugin string, shape []int64, strs ...[]byte) *eventpb.SummaryValue {
		s := &eventpb.TensorShapeProto{}
		for _, d := range shape {
			s.Dim = append(s.Dim, &eventpb.TensorShapeProto_Dim{Size: d})
		}
		return &eventpb.SummaryValue{Tag: tag, Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: plugin}},
			Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_STRING, TensorShape: s, StringVal: strs}}}
	}
	write := func(step int64, vals ...*eventpb.SummaryValue) {
		wall += 1.5
		f.write(&eventpb.Event{WallTime: round6(wall), Step: step,
			What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: vals}}})
	}
	size := []byte("32")
	for i := range 120 {
		step := int64(i * 50)
		// Rings that come out of the noise as training goes on.
		noise := 0.9 * math.Exp(-float64(i)/30)
		write(step, value("samples/reconstruction", "images", []int64{3}, size, size, rings(32, noise, 0, rng.Float64)))
	}
	for i := range 5 {
		imgs := [][]byte{size, size}
		for k := range 3 {
			imgs = append(imgs, rings(32, 0.5*math.Exp(-float64(i)), float64(k)*2.1, rng.Float64))
		}
		write(int64(i*1000), value("samples/batch", "images", []int64{5}, imgs...))
	}
	write(5000, value("samples/animation", "images", []int64{3}, []byte("24"), []byte("24"), orbit(24, 8)))
	for i := range 3 {
		noise := 0.4 * math.Exp(-float64(i))
		target := tone(16000, 440, 0, rng.NormFloat64)
		output := tone(16000, 440, noise, rng.NormFloat64)
		write(int64(i*2500), value("audio/generated", "audio", []int64{2, 2},
			target, []byte("**Target**: a 440 Hz tone"),
			output, []byte(fmt.Sprintf("*Model output* at step %d (noise %.2f)", i*2500, noise))))
	}
	return nil
}

// rings is a size x size PNG of coloured rings, phase-shifted, with
// uniform noise of the given amplitude.
func rings(size int, noise, phase float64, rnd func() float64) []byte {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	c := float64(size-1) / 2
	for y := range size {
		for x := range size {
			r := math.Hypot(float64(x)-c, float64(y)-c)
			v := func(shift float64) uint8 {
				s := 0.5 + 0.5*math.Sin(r/2+phase+shift) + noise*(rnd()-0.5)
				return uint8(255 * clamp(s, 0, 1))
			}
			img.Set(x, y, color.RGBA{v(0), v(2), v(4), 255})
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img) // cannot fail on a bytes.Buffer
	return b.Bytes()
}

// orbit is an animated GIF of a dot going round, in frames frames.
func orbit(size, frames int) []byte {
	pal := color.Palette{color.White, color.RGBA{0x1a, 0x5f, 0xb4, 255}}
	g := &gif.GIF{}
	for i := range frames {
		f := image.NewPaletted(image.Rect(0, 0, size, size), pal)
		a := 2 * math.Pi * float64(i) / float64(frames)
		cx, cy := float64(size)/2+float64(size)/3*math.Cos(a), float64(size)/2+float64(size)/3*math.Sin(a)
		for y := range size {
			for x := range size {
				if math.Hypot(float64(x)-cx, float64(y)-cy) < 3 {
					f.SetColorIndex(x, y, 1)
				}
			}
		}
		g.Image, g.Delay = append(g.Image, f), append(g.Delay, 10)
	}
	var b bytes.Buffer
	gif.EncodeAll(&b, g) // cannot fail on a bytes.Buffer
	return b.Bytes()
}

// tone is one second of a sine at freq Hz plus Gaussian noise, as a 16-bit
// mono WAV file.
func tone(rate int, freq, noise float64, normal func() float64) []byte {
	le := binary.LittleEndian
	b := []byte("RIFF\x00\x00\x00\x00WAVEfmt ")
	b = le.AppendUint32(b, 16)
	b = le.AppendUint16(b, 1) // PCM
	b = le.AppendUint16(b, 1) // mono
	b = le.AppendUint32(b, uint32(rate))
	b = le.AppendUint32(b, uint32(2*rate))
	b = le.AppendUint16(b, 2)
	b = le.AppendUint16(b, 16)
	b = append(b, "data"...)
	b = le.AppendUint32(b, uint32(2*rate))
	for i := range rate {
		s := 0.5*math.Sin(2*math.Pi*freq*float64(i)/float64(rate)) + noise*normal()
		b = le.AppendUint16(b, uint16(int16(32767*clamp(s, -1, 1))))
	}
	le.PutUint32(b[4:], uint32(len(b)-8))
	return b
}
