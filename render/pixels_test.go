package render

import (
	"bytes"
	"encoding/binary"
	"image/png"
	"math"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// Pixel values encode as PNG: values in [0, 255] as they are, others
// stretched from their least to their greatest; gray drawn as gray;
// a dtype or a length that does not fit is an error.
func TestPixelsPNG(t *testing.T) {
	f64 := func(vs ...float64) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		return b
	}
	for _, c := range []struct {
		name string
		b    []byte
		px   model.Pixels
		want [][4]uint8 // per pixel of a 2x1 image
	}{
		{"rgb 0..255", f64(0, 128, 255, 10, 20, 30), model.Pixels{DType: "float64", Channels: 3}, [][4]uint8{{0, 128, 255, 255}, {10, 20, 30, 255}}},
		{"gray 0..1 stretched", f64(0.25, 0.75), model.Pixels{DType: "float64", Channels: 1}, [][4]uint8{{0, 0, 0, 255}, {255, 255, 255, 255}}},
		{"uint8 rgba", []byte{1, 2, 3, 4, 5, 6, 7, 8}, model.Pixels{DType: "uint8", Channels: 4}, [][4]uint8{{1, 2, 3, 4}, {5, 6, 7, 8}}},
	} {
		out, err := pixelsPNG(c.b, 2, 1, c.px)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		img, err := png.Decode(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for x, want := range c.want {
			r, g, b, a := img.At(x, 0).RGBA()
			got := [4]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
			if a == 0xffff && got != want || a != 0xffff && got[3] != want[3] {
				t.Errorf("%s: pixel %d is %v, want %v", c.name, x, got, want)
			}
		}
	}
	if _, err := pixelsPNG(f64(1, 2), 2, 1, model.Pixels{DType: "float64", Channels: 3}); err == nil {
		t.Error("2 values for 2x1 RGB pixels: no error")
	}
	if _, err := pixelsPNG([]byte{1, 2}, 2, 1, model.Pixels{DType: "complex64", Channels: 1}); err == nil {
		t.Error("pixels of dtype complex64: no error")
	}
}
