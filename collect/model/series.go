package model

import "fmt"

// Written says which attempt of its run wrote an entry of a series (a
// histogram, images, clips, text, a PR curve, a tensor), and whether a
// later write of its step took it off the series' line.
//
// Under RestartsAttempts a series' Entries keep what later writes
// replaced, as scalars keep their superseded points: sorted by step, the
// entries of one step in the order written, so that a step's last entry
// is the line's and every other is Superseded. Under the other rules the
// replaced entries are only counted (Dropped) and none is Superseded.
type Written struct {
	// Attempt is the attempt of the run that wrote the entry, from 1
	// (Run.Attempts[Attempt-1] when the run records its attempts); 0 under
	// KeepAllRecords, which counts no attempts.
	Attempt int
	// Superseded is set when a later write of the entry's step replaced it
	// on the line: a restart's rerun of the step, or a rewrite of it.
	Superseded bool
}

// Histogram is the series of one histogram tag of a run.
type Histogram struct {
	Tag     string
	Entries []HistogramEntry
	// Dropped counts the entries restarts took off the line: kept in
	// Entries as Superseded under RestartsAttempts, only counted otherwise.
	Dropped int
}

// HistogramEntry is one histogram: its rows by TensorBoard's conversion
// (docs/FORMATS.md sections 6 and 7), with the writer's min, max, count and
// sum (estimated from the rows for TF2 histograms, which store none).
type HistogramEntry struct {
	WallTime float64
	Step     int64
	Summary
	Buckets []Bucket
	// NaN, PosInf and NegInf count the values no bucket holds, which
	// MindSpore's histograms count apart (docs/FORMATS.md section 21);
	// Count is then that of the finite values, those of the buckets.
	// TensorBoard's histograms have no such counts: all are 0.
	NaN, PosInf, NegInf int64
	Written
}

// Bucket is one row of a histogram: values in [Left, Right) counted Count
// times (the last bucket is closed).
type Bucket struct {
	Left, Right, Count float64
}

// Summary is what a histogram says about its values as a whole.
type Summary struct {
	Min, Max, Count, Sum float64
}

// Image is the series of one image tag of a run.
type Image struct {
	Tag     string
	Entries []ImageEntry
	// Dropped counts the entries restarts took off the line: kept in
	// Entries as Superseded under RestartsAttempts, only counted otherwise.
	Dropped int
}

// ImageEntry is the images of one step: several for a batch.
type ImageEntry struct {
	WallTime float64
	Step     int64
	Images   []ImageItem
	Written
}

// ImageItem is one encoded image.
type ImageItem struct {
	// Width and Height are read from the encoded bytes when their format
	// is known, else taken from what the writer declared.
	Width, Height int
	Format        string // "png", "jpeg", "gif", or "" when unknown
	Data          BlobRef
	// Pixels, when set, says that Data holds an image's pixel values, not
	// an encoded image: a TS-VIS feature map, which its writer stores as
	// a tensor. Format is then the format the report writes it in.
	Pixels *Pixels
}

// Pixels describes pixel values: Height x Width x Channels elements of
// DType (numpy's name), in C order, little-endian. Channels is 1 (gray),
// 3 (RGB) or 4 (RGBA).
type Pixels struct {
	DType    string
	Channels int
}

// Audio is the series of one audio tag of a run.
type Audio struct {
	Tag     string
	Entries []AudioEntry
	// Dropped counts the entries restarts took off the line: kept in
	// Entries as Superseded under RestartsAttempts, only counted otherwise.
	Dropped int
}

// AudioEntry is the clips of one step.
type AudioEntry struct {
	WallTime float64
	Step     int64
	Clips    []AudioClip
	Written
}

// AudioClip is one encoded clip.
type AudioClip struct {
	SampleRate  float64
	Channels    int64
	Frames      int64
	ContentType string
	Label       string // Markdown
	Data        BlobRef
}

// Text is the series of one text tag of a run.
type Text struct {
	Tag     string
	Plugin  string // "text", or "" for string tensors no plugin claims
	Entries []TextEntry
	// Dropped counts the entries restarts took off the line: kept in
	// Entries as Superseded under RestartsAttempts, only counted otherwise.
	Dropped int
}

// TextEntry is a string tensor of rank 0 to 2 (rank 2 is a table).
type TextEntry struct {
	WallTime float64
	Step     int64
	Shape    []int64
	Values   []string // row-major
	Written
}

// PRCurve is the series of one precision-recall tag of a run.
type PRCurve struct {
	Tag           string
	NumThresholds int
	Entries       []PRCurveEntry
	// Dropped counts the entries restarts took off the line: kept in
	// Entries as Superseded under RestartsAttempts, only counted otherwise.
	Dropped int
}

// PRCurveEntry is one curve: per threshold (numpy's linspace(0, 1, n),
// where the writers count), the counts and rates of the writer's [6, n]
// tensor.
type PRCurveEntry struct {
	WallTime          float64
	Step              int64
	Thresholds        []float64
	TP, FP, TN, FN    []float64
	Precision, Recall []float64
	// Float32 is set when the curve was stored at single precision or
	// below (as TensorBoard's writers store it), so writers can print the
	// shortest form that reads back exact.
	Float32 bool
	Written
}

// Tensor is the series of one numeric tensor tag of a run that no other
// kind claims (and of mesh tags, whose plugin is "mesh").
type Tensor struct {
	Tag     string
	Plugin  string
	Entries []TensorEntry
	// Dropped counts the entries restarts took off the line: kept in
	// Entries as Superseded under RestartsAttempts, only counted otherwise.
	Dropped int
}

// TensorEntry is one tensor, kept as a reference to its serialized
// TensorProto; Load decodes it.
type TensorEntry struct {
	WallTime float64
	Step     int64
	DType    string // numpy's name
	Shape    []int64
	Data     BlobRef
	// Encoding says what Data holds: a TensorFlow TensorProto ("") or a
	// MindSpore one (EncodingMindSpore).
	Encoding string
	Written
}

// EncodingMindSpore marks a TensorEntry whose Data is a MindSpore (anf_ir)
// TensorProto (docs/FORMATS.md section 21).
const EncodingMindSpore = "mindspore"

// Load reads the tensor back from its file and decodes its values,
// row-major, with the decoder of dec for its encoding (docs/FORMATS.md
// sections 4 and 10).
func (e TensorEntry) Load(d Decoders) ([]float64, error) {
	dec := d.Tensor
	if e.Encoding == EncodingMindSpore {
		dec = d.MindSporeTensor
	}
	if dec == nil {
		return nil, fmt.Errorf("%s: offset %d: %w for %q tensors", e.Data.Path, e.Data.Offset, errNoDecoder, e.Encoding)
	}
	return dec(e)
}
