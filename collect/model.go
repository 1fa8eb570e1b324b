// Package collect turns training log directories into a report model:
// which runs there are, what their files hold, and every series the report
// draws. It knows nothing of HTML; package render turns the model into
// pages.
package collect

import "github.com/trainreport/trainreport/collect/model"

// The report model is package model's; these names keep the callers of
// package collect compiling while they move to importing model itself.
type (
	Report          = model.Report
	Logdir          = model.Logdir
	Run             = model.Run
	File            = model.File
	Warning         = model.Warning
	Kind            = model.Kind
	TagInfo         = model.TagInfo
	Scalar          = model.Scalar
	Extreme         = model.Extreme
	Stats           = model.Stats
	SessionLogEntry = model.SessionLogEntry
	LogMessageEntry = model.LogMessageEntry
	BlobRef         = model.BlobRef
	Histogram       = model.Histogram
	HistogramEntry  = model.HistogramEntry
	Image           = model.Image
	ImageEntry      = model.ImageEntry
	ImageItem       = model.ImageItem
	Pixels          = model.Pixels
	Audio           = model.Audio
	AudioEntry      = model.AudioEntry
	AudioClip       = model.AudioClip
	Text            = model.Text
	TextEntry       = model.TextEntry
	PRCurve         = model.PRCurve
	PRCurveEntry    = model.PRCurveEntry
	Tensor          = model.Tensor
	TensorEntry     = model.TensorEntry
	HParams         = model.HParams
	Experiment      = model.Experiment
	HParamInfo      = model.HParamInfo
	Interval        = model.Interval
	MetricInfo      = model.MetricInfo
	Session         = model.Session
	SessionStart    = model.SessionStart
	SessionEnd      = model.SessionEnd
	MetricValue     = model.MetricValue
	ValueKind       = model.ValueKind
	HParamValue     = model.HParamValue
	HParamField     = model.HParamField
	Layout          = model.Layout
	LayoutCategory  = model.LayoutCategory
	LayoutChart     = model.LayoutChart
	MarginSeries    = model.MarginSeries
	GraphSource     = model.GraphSource
	Graph           = model.Graph
	Embedding       = model.Embedding
	Exception       = model.Exception
	ExceptionEntry  = model.ExceptionEntry
)

// The kinds of summary a tag can hold.
const (
	KindScalar        = model.KindScalar
	KindHistogram     = model.KindHistogram
	KindImage         = model.KindImage
	KindAudio         = model.KindAudio
	KindText          = model.KindText
	KindPRCurve       = model.KindPRCurve
	KindHParams       = model.KindHParams
	KindCustomScalars = model.KindCustomScalars
	KindGraph         = model.KindGraph
	KindMesh          = model.KindMesh
	KindTensor        = model.KindTensor
	KindOther         = model.KindOther
)

// The kinds of HParamValue.
const (
	NullValue   = model.NullValue
	BoolValue   = model.BoolValue
	NumberValue = model.NumberValue
	StringValue = model.StringValue
	ListValue   = model.ListValue
	StructValue = model.StructValue
)

// The sources of graphs.
const (
	SourceGraphDef     = model.SourceGraphDef
	SourceMetaGraphDef = model.SourceMetaGraphDef
	SourceRunMetadata  = model.SourceRunMetadata
	SourceKeras        = model.SourceKeras
	SourceOneFlow      = model.SourceOneFlow
	SourceMindSpore    = model.SourceMindSpore
)

// EncodingMindSpore marks a tensor entry holding a MindSpore TensorProto.
const EncodingMindSpore = model.EncodingMindSpore

// The formats of files that are not TensorBoard event files.
const (
	FormatMindSpore        = model.FormatMindSpore
	FormatMindSporeLineage = model.FormatMindSporeLineage
)

// NewBlobRef returns a reference to n bytes at offset off of the file path
// of the log directory named logdir, read through src: model.NewBlobRef,
// for the tests of package collect's callers until they import model.
func NewBlobRef(src model.Source, logdir, path string, off, n int64) BlobRef {
	return model.NewBlobRef(src, logdir, path, off, n)
}
