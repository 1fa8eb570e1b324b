package main

// Browser test of TS-VIS's own kinds (collect/testdata/tsvis, written by
// its generate.py following TS-VIS's source): hidden states and attention
// on the Tensors page, feature maps on the Images page, words on the Text
// page, from file:// with the network blocked.

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TS-VIS's own kinds (collect/testdata/tsvis): on the Tensors page, the
// hidden states and the attention draw as heat maps of the values the
// writer wrote, an attention map's image as an image; the feature maps are
// batches of images on the Images page, with the written pixels; the words
// of the hidden states are on the Text page.
func TestBrowserTSVisKinds(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	fixture := filepath.Join(repoRoot(t), "collect", "testdata", "tsvis")
	raw, err := os.ReadFile(filepath.Join(fixture, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]struct {
		Shape  []int     `json:"shape"`
		Values []float64 `json:"values"`
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	r := buildReport(t, fixture)
	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "tensors.html"), ""))
	var cards []struct {
		Tag    string       `json:"tag"`
		Heat   [][3]float64 `json:"heat"`
		Images []struct {
			W, H  int
			First []int `json:"first"`
		} `json:"images"`
	}
	if err := json.Unmarshal([]byte(eval[string](tb, pageJS("tsvis.js", "cards"))), &cards); err != nil {
		t.Fatal(err)
	}
	byTag := map[string]int{}
	for i, c := range cards {
		byTag[c.Tag] = i
	}
	// The default index takes the last two dimensions whole: the hidden
	// states (positions x units), the first layer and head of the
	// attention (tokens x tokens).
	for _, tag := range []string{"hidden_state", "bert-transformertext-0/all"} {
		i, ok := byTag[tag]
		if !ok {
			t.Fatalf("no card of %s in %v", tag, byTag)
		}
		w := want[tag]
		rows, cols := w.Shape[len(w.Shape)-2], w.Shape[len(w.Shape)-1]
		if len(cards[i].Heat) != rows*cols {
			t.Errorf("%s: %d cells in the heat map, want %d", tag, len(cards[i].Heat), rows*cols)
		}
		for _, c := range cards[i].Heat {
			if v := w.Values[int(c[1])*cols+int(c[0])]; !sameF32(v, c[2]) {
				t.Errorf("%s: cell %v, want %v", tag, c, v)
				break
			}
		}
	}
	// The attention map's image, (16, 16, 3), draws as one image.
	if c := cards[byTag["vit-img0"]]; len(c.Images) != 1 || c.Images[0].W != 16 || c.Images[0].H != 16 {
		t.Errorf("vit-img0: images %+v, want one of 16 x 16", c.Images)
	}
	tb.screenshot(shots, "tsvis-tensors")
	tb.assertClean()

	// Each feature map is a batch of 3 images of 8 x 8 on the Images page,
	// the first pixel of each the written RGB, in the site and the single
	// file.
	for _, u := range []string{fileURL(filepath.Join(r.site, "images.html"), ""), fileURL(r.single, "page=images")} {
		im := openTab(t, browser, u)
		var got map[string][]struct {
			Src   string `json:"src"`
			W, H  int
			First []int `json:"first"`
		}
		if err := json.Unmarshal([]byte(eval[string](im, pageJS("tsvis.js", "images"))), &got); err != nil {
			t.Fatal(err)
		}
		for _, tag := range []string{"conv1-GradCam", "conv2-GradCam", "conv2-Gray", "fc-PFV"} {
			w := want[tag]
			if len(got[tag]) != w.Shape[0] {
				t.Errorf("%s: %d images, want %d", tag, len(got[tag]), w.Shape[0])
				continue
			}
			size := w.Shape[1] * w.Shape[2] * w.Shape[3]
			for k, img := range got[tag] {
				px := []int{int(w.Values[k*size]), int(w.Values[k*size+1]), int(w.Values[k*size+2]), 255}
				if img.First == nil { // a file of the site: the page may not read it, the test may
					img.First = firstPixel(t, filepath.Join(r.site, filepath.FromSlash(img.Src)))
				}
				if img.W != w.Shape[2] || img.H != w.Shape[1] || !slices.Equal(img.First, px) {
					t.Errorf("%s image %d: %dx%d, first pixel %v, want %dx%d %v", tag, k, img.W, img.H, img.First, w.Shape[2], w.Shape[1], px)
				}
			}
		}
		im.screenshot(shots, "tsvis-images")
		im.assertClean()
	}

	text := openTab(t, browser, fileURL(filepath.Join(r.site, "text.html"), ""))
	waitFor(text, `document.body.textContent.includes("the cat sat on the mat")`, 10*time.Second, "the hidden states' words")
	text.screenshot(shots, "tsvis-text")
	text.assertClean()
}

// firstPixel returns the RGBA of the first pixel of the PNG file path.
func firstPixel(t *testing.T, path string) []int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	r, g, b, a := img.At(0, 0).RGBA()
	return []int{int(r >> 8), int(g >> 8), int(b >> 8), int(a >> 8)}
}
