package render

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/png"
	"math"

	"github.com/trainreport/trainreport/collect/model"
)

// imageBytes returns the bytes of an image's file: as the log holds them,
// or, for pixel values (TS-VIS's feature maps), encoded as PNG.
func imageBytes(it model.ImageItem) ([]byte, error) {
	b, err := readBlob(it.Data)
	if err != nil || it.Pixels == nil {
		return b, err
	}
	return pixelsPNG(b, it.Width, it.Height, *it.Pixels)
}

// imageSrc is mediaSrc for an image, whose bytes may need encoding.
func imageSrc(single bool, name, mime string, it model.ImageItem) (string, error) {
	if !single || it.Pixels == nil {
		return mediaSrc(single, name, mime, it.Data)
	}
	b, err := imageBytes(it)
	if err != nil {
		return "", err
	}
	return dataURI(mime, b), nil
}

// pixelDecoders read one little-endian element of a numpy dtype.
var pixelDecoders = map[string]struct {
	size int
	read func([]byte) float64
}{
	"uint8":   {1, func(b []byte) float64 { return float64(b[0]) }},
	"float32": {4, func(b []byte) float64 { return float64(math.Float32frombits(binary.LittleEndian.Uint32(b))) }},
	"float64": {8, func(b []byte) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(b)) }},
}

// pixelsPNG encodes w x h pixels of px as PNG. Values within [0, 255]
// whose greatest is above 1 are taken as they are (TS-VIS scales its
// feature maps so); others are stretched from their least to their
// greatest finite value. Non-finite values are black.
func pixelsPNG(b []byte, w, h int, px model.Pixels) ([]byte, error) {
	dec, ok := pixelDecoders[px.DType]
	if !ok {
		return nil, fmt.Errorf("pixels of dtype %s are not drawn", px.DType)
	}
	c := px.Channels
	if c != 1 && c != 3 && c != 4 {
		return nil, fmt.Errorf("pixels of %d channels are not drawn", c)
	}
	if w <= 0 || h <= 0 || len(b) != w*h*c*dec.size {
		return nil, fmt.Errorf("%d bytes of pixels for %dx%dx%d %s", len(b), w, h, c, px.DType)
	}
	vals := make([]float64, w*h*c)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range vals {
		v := dec.read(b[i*dec.size:])
		vals[i] = v
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	scale := func(v float64) uint8 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0
		}
		if !(lo >= 0 && hi <= 255 && hi > 1) {
			if hi <= lo {
				return 0
			}
			v = (v - lo) / (hi - lo) * 255
		}
		return uint8(math.Round(v))
	}
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for p := 0; p < w*h; p++ {
		at := p * c
		r := scale(vals[at])
		g, bl, a := r, r, uint8(255)
		if c >= 3 {
			g, bl = scale(vals[at+1]), scale(vals[at+2])
		}
		if c == 4 {
			a = scale(vals[at+3])
		}
		copy(img.Pix[p*4:], []uint8{r, g, bl, a})
	}
	var out bytes.Buffer
	if err := png.Encode(&out, img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
