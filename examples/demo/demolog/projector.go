package demolog

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// Sizes of the projector embedding (projector.go).
const (
	embPerClass = 10 // test images per class: few, as t-SNE and UMAP cost every demo build (the tests make many)
	embDims     = 32 // width of the penultimate layer
	spriteSide  = 16 // pixels of a sprite thumbnail
)

// projector writes the embedding projector files of the eval run, as a
// Keras TensorBoard callback with embeddings set up writes them next to
// its events: projector_config.pbtxt naming a TSV of the penultimate
// layer's activations for 100 test images (10 of each class, clustered by
// class with cat and dog, automobile and truck close), a metadata TSV with
// a header (label, predicted, correct) and a sprite of the images'
// thumbnails, a shape and colour per class.
func (g *generator) projector() error {
	dir := filepath.Join(g.dir, filepath.FromSlash(evalRun))
	if err := os.MkdirAll(filepath.Join(dir, "embeddings"), 0o755); err != nil {
		return err
	}
	rng := newRNG(evalRun + "/projector")
	centres := make([][]float64, len(classes))
	for c := range centres {
		centres[c] = make([]float64, embDims)
		for d := range centres[c] {
			centres[c][d] = 2.5 * rng.NormFloat64()
		}
	}
	// Classes a CIFAR model confuses sit close together.
	for _, pair := range [][2]int{{3, 5}, {1, 9}} {
		for d := range embDims {
			centres[pair[1]][d] = 0.6*centres[pair[0]][d] + 0.4*centres[pair[1]][d]
		}
	}
	var tsv, meta strings.Builder
	meta.WriteString("label\tpredicted\tcorrect\n")
	n := embPerClass * len(classes)
	labels := make([]int, n)
	for i := range n {
		c := i % len(classes) // interleaved, as a shuffled test set is
		labels[i] = c
		for d := range embDims {
			if d > 0 {
				tsv.WriteByte('\t')
			}
			fmt.Fprintf(&tsv, "%.4f", math.Max(0, centres[c][d]+0.9*rng.NormFloat64())) // after a ReLU
		}
		tsv.WriteByte('\n')
		pred := c
		if rng.Float64() < 0.15 {
			pred = rng.IntN(len(classes))
		}
		fmt.Fprintf(&meta, "%s\t%s\t%t\n", classes[c], classes[pred], pred == c)
	}
	sprite, err := spriteSheet(labels, rng.Float64)
	if err != nil {
		return err
	}
	config := fmt.Sprintf(`embeddings {
  tensor_name: "sequential/dense/Relu"
  tensor_path: "embeddings/features.tsv"
  metadata_path: "embeddings/metadata.tsv"
  sprite {
    image_path: "embeddings/sprite.png"
    single_image_dim: %d
    single_image_dim: %d
  }
}
`, spriteSide, spriteSide)
	for name, b := range map[string][]byte{
		"projector_config.pbtxt":  []byte(config),
		"embeddings/features.tsv": []byte(tsv.String()),
		"embeddings/metadata.tsv": []byte(meta.String()),
		"embeddings/sprite.png":   sprite,
	} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// spriteSheet draws a thumbnail per point, in rows of ceil(sqrt(n)) as the
// projector reads a sprite: a shape in the class's colour on a noisy
// background.
func spriteSheet(labels []int, rnd func() float64) ([]byte, error) {
	cols := int(math.Ceil(math.Sqrt(float64(len(labels)))))
	img := image.NewRGBA(image.Rect(0, 0, cols*spriteSide, cols*spriteSide))
	hues := []color.RGBA{{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}, {148, 103, 189, 255},
		{140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255}, {188, 189, 34, 255}, {23, 190, 207, 255}}
	for i, c := range labels {
		x0, y0 := (i%cols)*spriteSide, (i/cols)*spriteSide
		h := hues[c%len(hues)]
		for y := range spriteSide {
			for x := range spriteSide {
				// Distance from the centre in the class's norm: circles,
				// diamonds and squares in turn.
				dx, dy := math.Abs(float64(x)-7.5), math.Abs(float64(y)-7.5)
				var r float64
				switch c % 3 {
				case 0:
					r = math.Hypot(dx, dy)
				case 1:
					r = dx + dy
				default:
					r = math.Max(dx, dy)
				}
				bg := uint8(200 + 40*rnd())
				px := color.RGBA{bg, bg, bg, 255}
				if r < 5.5 {
					px = h
				}
				img.SetRGBA(x0+x, y0+y, px)
			}
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return nil, fmt.Errorf("encoding the sprite: %w", err)
	}
	return b.Bytes(), nil
}
