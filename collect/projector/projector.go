// Package projector reads what TensorBoard's embedding projector shows, and
// its OneFlow and TS-VIS counterparts (docs/FORMATS.md sections 16 and 17):
// projector_config.pbtxt with the tensor, metadata and sprite files it
// names, OneFlow's raw projector files, and the projector values of TS-VIS
// projector event files. Points and tensors stay in their files: the model
// holds where they are, and Load reads them back within the limits below.
//
// Every file a config names must lie inside the log directory (a Root):
// paths that leave it, by ".." or as absolute paths elsewhere or through a
// symbolic link, are refused with a warning.
package projector

import (
	"fmt"

	"github.com/trainreport/trainreport/collect/model"
)

// Limits on what is read. Larger inputs are refused with a warning before
// anything is allocated for them.
const (
	// MaxPoints and MaxDims bound an embedding: at most 100,000 points of
	// at most 1,000 values each (400 MB as float32).
	MaxPoints = 100_000
	MaxDims   = 1_000
	// MaxTensorValues bounds the values of an exception tensor or a sample
	// tensor that is loaded (256 MiB as float64).
	MaxTensorValues = 1 << 25
	// MaxMetadataBytes bounds a metadata file and a label tensor.
	MaxMetadataBytes = 64 << 20
	// MaxConfigBytes bounds projector_config.pbtxt and TensorFlow's
	// checkpoint state file.
	MaxConfigBytes = 1 << 20
	// MaxTSVLine bounds one line of a tensor TSV: 64 bytes per value.
	MaxTSVLine = 64 * MaxDims
)

// Where an embedding comes from.
const (
	SourceConfig  = "projector_config" // projector_config.pbtxt (TensorFlow, PyTorch, tensorboardX)
	SourceOneFlow = "oneflow"          // a OneFlow projector file
	SourceTSVIS   = "tsvis"            // a projector value of a TS-VIS event file
)

// The projector's model is the report model's (package model); these
// names are the ones the readers were written with.
type (
	// Embedding is one set of points for the projector.
	Embedding = model.Embedding
	// Format says how a tensor file stores its values.
	Format = model.TensorFormat
	// TensorRef locates a tensor in a file without holding its values.
	TensorRef = model.TensorRef
	// Metadata is the per-point table of an embedding.
	Metadata = model.EmbeddingMetadata
	// Sprite is the image of thumbnails of an embedding's points.
	Sprite = model.Sprite
	// Sample is the raw samples behind an embedding's points.
	Sample = model.Sample
	// Exception is the series of one tag of an exception projector.
	Exception = model.Exception
	// ExceptionEntry is the tensor of one step.
	ExceptionEntry = model.ExceptionEntry
)

// How a tensor file stores its values.
const (
	FormatTSV = model.FormatTSV
	FormatRaw = model.FormatRaw
)

// Decoders returns this package's decoders of projector tensors, its
// readers of TSV and numpy bytes within its limits, for the model's
// TensorRef.Load, TensorRef.Read and Embedding.Load.
func Decoders() model.Decoders {
	return model.Decoders{TensorFile: loadTensor, Points: loadPoints, Raw: readRaw}
}

// loadTensor decodes a numeric tensor, row-major, refusing more than
// MaxTensorValues values.
func loadTensor(t TensorRef) ([]float64, error) {
	n, err := elements(t.Shape, MaxTensorValues)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Path, err)
	}
	if t.Format == FormatTSV {
		out := make([]float64, 0, n)
		if _, _, err := parseTSV(t.Reader(), func(row []float32) {
			for _, v := range row {
				out = append(out, float64(v))
			}
		}); err != nil {
			return nil, fmt.Errorf("%s: %w", t.Path, err)
		}
		if int64(len(out)) != n {
			return nil, fmt.Errorf("%s: %d values, want %d (the file changed?)", t.Path, len(out), n)
		}
		return out, nil
	}
	d, b, err := raw(t, n)
	if err != nil {
		return nil, err
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = d.value(b[i*d.size:])
	}
	return out, nil
}

// raw reads the raw bytes of n numeric elements.
func raw(t TensorRef, n int64) (dtype, []byte, error) {
	d, err := parseDType(t.DType)
	if err != nil {
		return d, nil, fmt.Errorf("%s: %w", t.Path, err)
	}
	if !d.numeric() {
		return d, nil, fmt.Errorf("%s: dtype %s is not numeric", t.Path, t.DType)
	}
	if t.Length != n*int64(d.size) {
		return d, nil, fmt.Errorf("%s: %d bytes for %d values of %s", t.Path, t.Length, n, t.DType)
	}
	b, err := t.BlobRef.Read()
	if err != nil {
		return d, nil, err
	}
	return d, b, nil
}

// loadPoints reads an embedding's values as float32, as the projector
// uses them.
func loadPoints(t TensorRef) ([]float32, error) {
	if len(t.Shape) < 2 || t.Shape[0] > MaxPoints {
		return nil, fmt.Errorf("%s: shape %v is not [points <= %d, dims...]", t.Path, t.Shape, MaxPoints)
	}
	dims, err := elements(t.Shape[1:], MaxDims)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Path, err)
	}
	n := t.Shape[0] * dims
	if t.Format == FormatTSV {
		out := make([]float32, 0, n)
		if _, _, err := parseTSV(t.Reader(), func(row []float32) { out = append(out, row...) }); err != nil {
			return nil, fmt.Errorf("%s: %w", t.Path, err)
		}
		if int64(len(out)) != n {
			return nil, fmt.Errorf("%s: %d values, want %d (the file changed?)", t.Path, len(out), n)
		}
		return out, nil
	}
	d, b, err := raw(t, n)
	if err != nil {
		return nil, err
	}
	out := make([]float32, n)
	for i := range out {
		out[i] = float32(d.value(b[i*d.size:]))
	}
	return out, nil
}

// readRaw returns the tensor's raw bytes (FormatRaw), for payloads that
// are not numbers: text and encoded audio samples.
func readRaw(t TensorRef) ([]byte, error) {
	if t.Format != FormatRaw {
		return nil, fmt.Errorf("%s: not a raw tensor", t.Path)
	}
	if t.Length < 0 || t.Length > MaxTensorValues*8 {
		return nil, fmt.Errorf("%s: %d bytes is more than is read", t.Path, t.Length)
	}
	return t.BlobRef.Read()
}

// Problem is something wrong with an input; reading goes on past it.
type Problem struct {
	File   string // slash-separated, relative to the log directory
	Offset int64  // byte offset, or -1
	Msg    string
}

// Result is what one file yields.
type Result struct {
	Embeddings []*Embedding
	// Exceptions holds one series per tag, in the order met.
	Exceptions []*Exception
	Problems   []Problem
	// Damaged is set when the file itself could not be read entirely.
	Damaged bool
}

func (r *Result) problem(file string, offset int64, format string, args ...any) {
	r.Problems = append(r.Problems, Problem{File: file, Offset: offset, Msg: fmt.Sprintf(format, args...)})
}
