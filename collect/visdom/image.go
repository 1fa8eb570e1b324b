package visdom

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"image"
	_ "image/gif" // the formats a Visdom image is checked against
	_ "image/jpeg"
	_ "image/png"
	"io"
	"regexp"
	"strings"
)

// imageIndex locates the base64 text of data URIs in a file, by a hash of
// the text: a window's image is found in the file (one pass over it)
// rather than kept in memory, so that the report reads it back on demand.
type imageIndex struct {
	seed  maphash.Seed
	spans map[uint64][][2]int64
	built bool
}

// base64Marker ends the head of a base64 data URI.
var base64Marker = []byte(";base64,")

func isBase64(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '='
}

func (x *imageIndex) build(data []byte) {
	x.built, x.seed, x.spans = true, maphash.MakeSeed(), map[uint64][][2]int64{}
	for off := 0; ; {
		i := bytes.Index(data[off:], base64Marker)
		if i < 0 {
			return
		}
		start := off + i + len(base64Marker)
		end := start
		for end < len(data) && isBase64(data[end]) {
			end++
		}
		h := maphash.Bytes(x.seed, data[start:end])
		x.spans[h] = append(x.spans[h], [2]int64{int64(start), int64(end)})
		off = end
	}
}

// find returns where the base64 text b64 is in data, verbatim.
func (x *imageIndex) find(data []byte, b64 string) (int64, bool) {
	if !x.built {
		x.build(data)
	}
	for _, s := range x.spans[maphash.String(x.seed, b64)] {
		if string(data[s[0]:s[1]]) == b64 {
			return s[0], true
		}
	}
	return 0, false
}

// image reads an image item ({src, caption}) into w: its base64 located
// in the file and checked, by content, to be a PNG, JPEG or GIF.
func (r *reader) image(w *Window, content json.RawMessage) {
	var it struct {
		Src     flexString `json:"src"`
		Caption flexString `json:"caption"`
	}
	if json.Unmarshal(content, &it) != nil {
		r.windowProblem(w, "image content is not {src, caption}")
		return
	}
	img, err := r.locate(string(it.Src))
	if err != nil {
		r.windowProblem(w, "image not kept: %v", err)
		return
	}
	img.Caption = string(it.Caption)
	w.Images = append(w.Images, img)
}

// locate finds and checks the image of a data URI.
func (r *reader) locate(src string) (Image, error) {
	head, b64, ok := strings.Cut(src, ",")
	if !ok || !strings.HasPrefix(head, "data:") || !strings.HasSuffix(head, ";base64") {
		return Image{}, fmt.Errorf("its source is not a base64 data URI (%q)", clip(head))
	}
	if base64.StdEncoding.DecodedLen(len(b64)) > maxImageBytes {
		return Image{}, fmt.Errorf("%d bytes of base64, over the bound of %d decoded bytes", len(b64), maxImageBytes)
	}
	off, found := r.images.find(r.data, b64)
	if !found {
		return Image{}, fmt.Errorf("its base64 is not written verbatim in the file")
	}
	cfg, format, err := image.DecodeConfig(base64.NewDecoder(base64.StdEncoding, strings.NewReader(b64)))
	if err != nil {
		return Image{}, fmt.Errorf("not a PNG, JPEG or GIF image: %w", err)
	}
	if format != "png" && format != "jpeg" && format != "gif" {
		return Image{}, fmt.Errorf("a %s image, not a PNG, JPEG or GIF", format)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return Image{}, fmt.Errorf("an image of %dx%d pixels", cfg.Width, cfg.Height)
	}
	// The whole text must decode, or the report could not show it.
	if _, err := io.Copy(io.Discard, base64.NewDecoder(base64.StdEncoding, strings.NewReader(b64))); err != nil {
		return Image{}, fmt.Errorf("bad base64: %w", err)
	}
	return Image{Offset: off, Length: int64(len(b64)), Format: format, Width: cfg.Width, Height: cfg.Height}, nil
}

// audioURI matches the head of an audio data URI in HTML.
var audioURI = regexp.MustCompile(`data:(audio/[a-zA-Z0-9.+-]{1,40});base64,`)

// clips finds the audio clips a text window's HTML embeds (Visdom's audio
// windows send <audio><source src="data:audio/wav;base64,...">), each
// located in the file; a clip that is not there verbatim or not base64
// is left out with a problem.
func (r *reader) clips(w *Window) []Clip {
	if !strings.Contains(strings.ToLower(w.Text[:min(len(w.Text), 4096)]), "<audio") {
		return nil
	}
	var out []Clip
	for _, m := range audioURI.FindAllStringSubmatchIndex(w.Text, maxClips) {
		b64 := w.Text[m[1]:]
		end := 0
		for end < len(b64) && isBase64(b64[end]) {
			end++
		}
		b64 = b64[:end]
		off, found := r.images.find(r.data, b64)
		if !found {
			r.windowProblem(w, "audio clip not kept: its base64 is not written verbatim in the file")
			continue
		}
		head := b64[:min(len(b64), base64.StdEncoding.EncodedLen(ClipHeadBytes))]
		h, err := base64.StdEncoding.DecodeString(head[:len(head)/4*4])
		if err != nil {
			r.windowProblem(w, "audio clip not kept: bad base64: %v", err)
			continue
		}
		out = append(out, Clip{Offset: off, Length: int64(len(b64)), MIME: w.Text[m[2]:m[3]], Head: h})
	}
	return out
}
