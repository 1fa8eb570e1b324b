package model

import "fmt"

// Embedding is one set of points for the projector (docs/FORMATS.md
// sections 16 and 17).
type Embedding struct {
	// Name is the tensor's name (tensor_name; OneFlow's and TS-VIS's tag).
	Name string
	// Source is "projector_config" (projector_config.pbtxt: TensorFlow,
	// PyTorch, tensorboardX), "oneflow" (a OneFlow projector file) or
	// "tsvis" (a projector value of a TS-VIS event file).
	Source string
	// File is the file that declares the embedding, slash-separated and
	// relative to the log directory.
	File string
	// Step is the training step of the points: PyTorch's <step>/<tag>/
	// directory, or the OneFlow or TS-VIS record's step; 0 when the source
	// names none.
	Step     int64
	WallTime float64 // seconds since the Unix epoch; 0 when unknown
	// Shape is the tensor's shape as stored, points first: [points, dims]
	// for configs, any rank of at least 2 for OneFlow and TS-VIS (a point's
	// values are then the rest of the shape, flattened). It is nil when
	// unknown: a tensor without tensor_shape that could not be read.
	Shape []int64
	// Points locates the values: in the tensor file, or in a data file of
	// the TensorFlow checkpoint. It is nil when they cannot be read: no
	// checkpoint, a tensor missing or refused (the run's warnings say why).
	Points *TensorRef
	// Checkpoint names the TensorFlow checkpoint (its path prefix, relative
	// to the log directory when inside it) that holds a tensor without a
	// tensor file; Points then refers to its data file.
	Checkpoint string
	// Metadata is the per-point table: the metadata file, or OneFlow's and
	// TS-VIS's labels as one "label" column; nil without.
	Metadata *EmbeddingMetadata
	Sprite   *Sprite
	// Sample is the raw samples behind the points (OneFlow, TS-VIS).
	Sample *Sample
}

// maxDims bounds the values of one point, as the projector's reader does
// (projector.MaxDims, which a test there holds equal): a shape claiming
// more is not one the model holds.
const maxDims = 1_000

// NumPoints returns the number of points, or 0 when unknown.
func (e *Embedding) NumPoints() int {
	if len(e.Shape) == 0 {
		return 0
	}
	return int(e.Shape[0])
}

// Dims returns the number of values of a point, or 0 when unknown.
func (e *Embedding) Dims() int {
	if len(e.Shape) < 2 {
		return 0
	}
	n := int64(1)
	for _, d := range e.Shape[1:] {
		if d < 0 || d != 0 && n > maxDims/d {
			return 0
		}
		n *= d
	}
	if n > maxDims {
		return 0
	}
	return int(n)
}

// Load reads the points back: NumPoints rows of Dims values, row-major.
func (e *Embedding) Load(d Decoders) ([]float32, error) {
	if e.Points == nil {
		return nil, fmt.Errorf("embedding %q has no readable points", e.Name)
	}
	if d.Points == nil {
		return nil, fmt.Errorf("%s: %w for projector tensors", e.Points.Path, errNoDecoder)
	}
	return d.Points(*e.Points)
}

// TensorFormat says how a tensor file stores its values.
type TensorFormat string

const (
	// FormatTSV is text: one point per line, values separated by tabs.
	FormatTSV TensorFormat = "tsv"
	// FormatRaw is the values' bytes in DType, C order.
	FormatRaw TensorFormat = "raw"
)

// TensorRef locates a projector tensor in a file without holding its
// values: the bytes of a raw tensor, or the whole of a TSV file.
type TensorRef struct {
	BlobRef
	Format TensorFormat
	DType  string // numpy's name: "float32" for config tensor files, bfloat16 too for checkpoints
	Shape  []int64
}

// Load decodes a numeric tensor, row-major, within the bounds of the
// projector's reader.
func (t TensorRef) Load(d Decoders) ([]float64, error) {
	if d.TensorFile == nil {
		return nil, fmt.Errorf("%s: %w for projector tensors", t.Path, errNoDecoder)
	}
	return d.TensorFile(t)
}

// Read returns the tensor's raw bytes (FormatRaw), for payloads that are
// not numbers: text and encoded audio samples. Unlike BlobRef.Read, it
// refuses a TSV tensor and bytes past the projector reader's bounds.
func (t TensorRef) Read(d Decoders) ([]byte, error) {
	if d.Raw == nil {
		return nil, fmt.Errorf("%s: %w for projector tensors", t.Path, errNoDecoder)
	}
	return d.Raw(t)
}

// EmbeddingMetadata is the per-point table of an embedding.
type EmbeddingMetadata struct {
	// File is the metadata file, slash-separated and relative to the log
	// directory; "" for labels that came with the tensor.
	File string
	// Columns names the columns: the header row when the file has more
	// than one column, else the single column "label".
	Columns []string
	// Rows holds one row per point, each with one value per column
	// (missing values are "").
	Rows [][]string
}

// Sprite is the image of thumbnails of an embedding's points: a grid,
// row-major, of SingleImageDim-sized images, one per point.
type Sprite struct {
	File string // slash-separated, relative to the log directory
	// Data is the whole image file, read through its log directory.
	Data BlobRef
	// Format, Width and Height are read from the image's header.
	Format        string // "png" or "jpeg"
	Width, Height int
	// SingleImageDim is the width and height of one thumbnail.
	SingleImageDim [2]int
}

// Sample is the raw samples behind an embedding's points, kept as a
// reference: a [points, ...] tensor of images (uint8 or float pixels), text
// (numpy strings) or encoded audio clips.
type Sample struct {
	Name   string
	Type   string // "image", "audio" or "text"
	Tensor TensorRef
}

// Exception is the series of one tag of an exception projector (OneFlow's
// exception files, TS-VIS's "exceptions" values): a watched tensor, such as
// a gradient, per step. The Exceptions page loads each entry's tensor to
// draw its percentiles, outliers, heat map and histogram (docs/FORMATS.md
// section 17).
type Exception struct {
	Tag    string
	Source string // "oneflow" or "tsvis"
	// Entries are in step order, after the restart rule.
	Entries []ExceptionEntry
	// Dropped counts the entries that restarts replaced.
	Dropped int
}

// ExceptionEntry is the tensor of one step.
type ExceptionEntry struct {
	Step     int64
	WallTime float64
	File     string // slash-separated, relative to the log directory
	Tensor   TensorRef
}

// Load decodes the entry's tensor, row-major.
func (e ExceptionEntry) Load(d Decoders) ([]float64, error) { return e.Tensor.Load(d) }
