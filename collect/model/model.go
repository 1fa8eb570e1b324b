// Package model is the report model: which runs a set of log directories
// holds, what their files hold, and every series a report draws, together
// with what can be done to a model as a whole: print it (String, the golden
// format of the tests), check it (CheckValid), merge shards of one
// collection (Merge), join across runs (JoinHParamMetrics), and write it
// to disk and read it back (Write, Read).
//
// It reads no log format: package collect fills a model from log
// directories, and package render turns one into pages. Payloads (images,
// clips, tensors, graphs) stay in their log files and are read back on
// demand through a Source; the few payloads whose format only a reader
// knows (TensorProtos, projector tensor files) are decoded by the readers'
// Decoders, which the report carries (SetDecoders) and whoever loads a
// payload passes to it. So the model can be
// written by one process and rendered by another, and whoever imports it
// pulls in no protobuf, YAML or file-system reader.
package model

import (
	"errors"
	"fmt"
	"io"
	"slices"
)

// Report is everything collected from a set of log directories.
type Report struct {
	Logdirs []Logdir
	// Runs are sorted by name, naturally (CompareRunNames: "version_2"
	// before "version_10").
	Runs []*Run
	// Warnings not tied to one run, such as a log directory without event
	// files.
	Warnings []Warning
	// KeepAllRecords is set when every record was kept: the restart rule
	// (docs/FORMATS.md section 18) was not applied, so the steps of a
	// series may repeat or go back.
	KeepAllRecords bool
	// RestartRule is the rule that made each series' line, "" when
	// KeepAllRecords is set (and in models made by hand, where it reads as
	// RestartsLatest).
	RestartRule RestartRule

	// sources are the log directories attached to the report, closed by
	// Close.
	sources []Source
	// decoders decode the payloads only a reader knows; not written by
	// Write, like sources: see Decoders.
	decoders Decoders
}

// Logdir is a log directory to read, under the name the report gives it.
type Logdir struct {
	Name string
	Path string
}

// Attach records src as the source of the payloads of a log directory of
// the report, so that Close releases it (when it is an io.Closer). The
// payload references of the model carry their source themselves (see
// NewBlobRef); Attach only hands its lifetime to the report.
func (r *Report) Attach(src Source) {
	r.sources = append(r.sources, src)
}

// SetDecoders sets the decoders of the report's tensor and projector
// payloads (package collect sets its readers' on every report it
// collects; Read leaves them to its caller).
func (r *Report) SetDecoders(d Decoders) { r.decoders = d }

// Decoders returns the decoders set with SetDecoders, to pass to the Load
// methods of the report's payloads.
func (r *Report) Decoders() Decoders { return r.decoders }

// Sources returns the log directories attached to the report.
func (r *Report) Sources() []Source { return slices.Clone(r.sources) }

// Close releases the log directories attached to the report. The payloads
// of the model (images, clips, tensors, graphs) cannot be read afterwards.
func (r *Report) Close() error {
	var errs []error
	for _, s := range r.sources {
		if c, ok := s.(io.Closer); ok {
			errs = append(errs, c.Close())
		}
	}
	r.sources = nil
	return errors.Join(errs...)
}

// Run is a directory of event files, read as one stream in file-name order.
type Run struct {
	// Name identifies the run in the report: its path relative to its log
	// directory ("." for the directory itself), behind the log directory's
	// name when the report has several.
	Name   string
	Logdir string // name of the log directory holding the run
	Path   string // slash-separated path relative to the log directory
	Files  []File
	// Tags describes every tag of the run, whatever its kind, sorted.
	Tags []TagInfo
	// The series of each kind, sorted by tag.
	Scalars    []*Scalar
	Histograms []*Histogram
	Images     []*Image
	Audio      []*Audio
	Texts      []*Text
	PRCurves   []*PRCurve
	Tensors    []*Tensor
	Meshes     []*Tensor
	// HParams is the run's hyperparameter tuning record, nil when it has
	// none.
	HParams *HParams
	// Layout is the run's custom-scalars layout, nil when it has none.
	Layout *Layout
	// Graphs are the run's model graphs, one per source and tag (the last
	// written), sorted by source in the order of the GraphSource constants
	// and then by tag.
	Graphs []*Graph
	// Embeddings are the run's point sets for the projector: from
	// projector_config.pbtxt, OneFlow projector files and TS-VIS projector
	// records (docs/FORMATS.md sections 16 and 17), sorted by name, then step.
	Embeddings []*Embedding
	// Exceptions are the run's exception-projector series (OneFlow, TS-VIS),
	// sorted by tag.
	Exceptions []*Exception
	// Visdom are the windows of the run's Visdom environments, by
	// environment and then in the order Visdom shows them.
	Visdom []*VisdomWindow
	// SideFiles are the files read beside the event files (projector
	// configs, OneFlow projector files), sorted by path; Records counts the
	// embeddings and exception tensors each yielded.
	SideFiles []File
	// Events of the run that are not summaries, in file order.
	SessionLogs []SessionLogEntry
	LogMessages []LogMessageEntry
	Warnings    []Warning

	// Step and time bounds over every event that carries them; HasEvents
	// is false when the run holds no event with a wall time.
	HasEvents           bool
	FirstStep, LastStep int64
	Start, End          float64 // wall time, seconds since the Unix epoch
	// Restarts counts the points and entries that restarts took off the
	// lines of the run's series (kept as superseded points and entries
	// under RestartsAttempts, only counted otherwise).
	Restarts int
	// Attempts are the run's attempts: Attempts[k-1] is attempt k. A run
	// restarts (a new attempt begins) where a series' step goes below its
	// last one or on a SessionLog START. Nil when the run had one attempt
	// and nothing was taken off a line.
	Attempts []Attempt
}

// RestartRule is what becomes of the values a restart takes off a series'
// line (docs/FORMATS.md section 18).
type RestartRule string

// The restart rules.
const (
	// RestartsAttempts draws the latest write of each step as the line and
	// keeps every scalar point it replaced, as superseded points of the
	// attempt that wrote them.
	RestartsAttempts RestartRule = "attempts"
	// RestartsLatest draws the same line and only counts what it replaced.
	RestartsLatest RestartRule = "latest"
	// RestartsTensorBoard follows TensorBoard's EventAccumulator: a
	// SessionLog START purges in files of file_version 2 or more, else a
	// step below the most recent one purges its tags; nothing else is
	// replaced, so a line's steps may go back.
	RestartsTensorBoard RestartRule = "tensorboard"
)

// Valid reports whether r is one of the restart rules: the one list the
// command line's flag and Collect both check against.
func (r RestartRule) Valid() bool {
	switch r {
	case RestartsAttempts, RestartsLatest, RestartsTensorBoard:
		return true
	}
	return false
}

// Attempt is one attempt of a run: what one process (a rerun, a second
// fit(), a resume from a checkpoint) wrote into the run before the next
// restarted it.
type Attempt struct {
	// Files are the event files read while the attempt was the run's
	// latest, in reading order.
	Files []string
	// FirstStep and LastStep bound the steps of its scalar points, on the
	// line and superseded; both are 0 when it has none.
	FirstStep, LastStep int64
	// Points counts its scalar points on the runs' lines, Superseded those
	// later writes took off the lines.
	Points, Superseded int
}

// RestartTotals counts, over the report, the runs that restarted (more
// than one attempt), their attempts, and the scalar points later writes
// took off the runs' lines (which a rewrite of a step in one attempt also
// does).
func (r *Report) RestartTotals() (runs, attempts, superseded int) {
	for _, run := range r.Runs {
		if len(run.Attempts) > 1 {
			runs++
			attempts += len(run.Attempts)
		}
		for _, a := range run.Attempts {
			superseded += a.Superseded
		}
	}
	return runs, attempts, superseded
}

// File is one event file of a run.
type File struct {
	Rel     string // slash-separated path relative to the log directory
	Size    int64
	Records int
	// Status is "ok", "empty", "profile-empty", "truncated", "damaged" or
	// "lfs-pointer".
	Status string
	// Format is the file's format when it is not a TensorBoard event
	// file: FormatMindSpore or FormatMindSporeLineage.
	Format string
}

// The formats of files that are not TensorBoard event files.
const (
	// FormatMindSpore is a MindSpore summary file (docs/FORMATS.md
	// section 21).
	FormatMindSpore = "mindspore"
	// FormatMindSporeLineage is a MindSpore lineage file.
	FormatMindSporeLineage = "mindspore-lineage"
)

// Warning is a problem with the input, located by file and byte offset.
type Warning struct {
	File   string // slash-separated path relative to the log directory, or the log directory
	Offset int64  // byte offset, or -1 when the problem has none
	Msg    string
}

// String writes the warning as the terminal and the overview page show it:
// "file: offset N: message", or "file: message" without an offset.
func (w Warning) String() string {
	if w.Offset < 0 {
		return fmt.Sprintf("%s: %s", w.File, w.Msg)
	}
	return fmt.Sprintf("%s: offset %d: %s", w.File, w.Offset, w.Msg)
}

// Kind is what a tag holds.
type Kind string

// The kinds of summary a tag can hold.
const (
	KindScalar        Kind = "scalar"
	KindHistogram     Kind = "histogram"
	KindImage         Kind = "image"
	KindAudio         Kind = "audio"
	KindText          Kind = "text"
	KindPRCurve       Kind = "pr_curve"
	KindHParams       Kind = "hparams"
	KindCustomScalars Kind = "custom_scalars"
	KindGraph         Kind = "graph"
	KindMesh          Kind = "mesh"
	KindTensor        Kind = "tensor"
	// KindVisdom is a Visdom window that only the Visdom page draws
	// (bar, heatmap, box, surface and other plots, properties, ...).
	KindVisdom Kind = "visdom"
	// KindOther is a value no reader claims (a plugin we do not know with
	// a non-numeric payload); it is listed, not shown.
	KindOther Kind = "other"
)

// TagInfo describes one tag of a run, whatever its kind.
type TagInfo struct {
	Tag       string
	Kind      Kind
	Plugin    string
	DataClass string // "unknown", "scalar", "tensor" or "blob_sequence"
	// Count is the number of values on the tag's line (the latest write
	// of each step, after the restart rule), and FirstStep..LastWall its
	// bounds.
	Count int
	// Superseded counts the values restarts took off the line (kept, as
	// superseded, under RestartsAttempts; only counted under the other
	// rules): with Count, every value read of the tag.
	Superseded          int
	FirstStep, LastStep int64
	FirstWall, LastWall float64
}

// Scalar is the series of one scalar tag of a run.
type Scalar struct {
	Tag    string
	Points []Point
	// Float32 is set when every value was stored at single precision or
	// below, so writers can print the shortest form that reads back exact.
	Float32 bool
	// Dropped counts the points that restarts took off the line.
	Dropped int
	// Superseded is the points taken off the line, by attempt, when the
	// report's rule is RestartsAttempts (then they number Dropped).
	Superseded  []Superseded
	DisplayName string
	Description string

	// steps is what the collector knew of the steps of Points as it made
	// them (SetSteps). Unexported, so not in the model file: a part's
	// series read back know nothing, and their readers scan.
	steps StepShape
}

// StepShape is what is known of the steps of a series' points, in their
// order, without reading them again: a collector learns it as it appends
// each point (collect/series), so that the report's plan need not pass
// over every step to find it.
//
// It describes the first N points it was taken of, and only those: N 0
// says nothing. Arith says that point i's step is the first's + i*Stride
// for every i < N, Stride >= 0 and each step at or above the one before
// (no term wraps int64); Sorted, implied by Arith, that each step is at or
// above the one before.
type StepShape struct {
	N      int
	Stride int64
	Arith  bool
	Sorted bool
}

// SetSteps records what the collector knew of the steps of s.Points, all
// of them (sh.N = len(s.Points)), as it made them. It must be exact:
// Steps hands it to readers that then do not check.
func (s *Scalar) SetSteps(sh StepShape) { s.steps = sh }

// Steps returns what SetSteps recorded of the steps of s.Points, the zero
// StepShape (nothing known) when nothing was or the points are no longer
// those it described: a count other than N, or a last step that is not
// the progression's last term (points cut or replaced since, as a build
// does once a run's data files are written).
func (s *Scalar) Steps() StepShape {
	sh := s.steps
	if n := len(s.Points); sh.N == 0 || sh.N != n ||
		sh.Arith && s.Points[0].Step+int64(n-1)*sh.Stride != s.Points[n-1].Step {
		return StepShape{}
	}
	return sh
}

// Superseded is the points of one attempt that later writes of their
// steps took off a series' line.
type Superseded struct {
	Attempt int
	// Points are in step order.
	Points []Point
}

// Point is one scalar value.
type Point struct {
	WallTime float64 // seconds since the Unix epoch
	Step     int64
	Value    float64
}

// Extreme is a value together with where it was reached.
type Extreme struct {
	Step     int64
	WallTime float64
	Value    float64
}

// Stats summarises a scalar series for the key-metrics tables.
type Stats struct {
	Count     int
	NonFinite int // NaN and infinite values
	Last      Extreme
	// Min and Max are over finite values; HasFinite is false when there
	// are none.
	Min, Max  Extreme
	HasFinite bool
}

// Stats computes the series' last value and its finite minimum and maximum,
// each with the step that reached it first.
func (s *Scalar) Stats() Stats {
	st := Stats{Count: len(s.Points)}
	pts := s.Points
	if len(pts) == 0 {
		return st
	}
	// One pass that keeps indices, not Extremes (24 bytes copied at each
	// new extreme), and tests a value once for NaN and infinity (v-v is
	// 0 for finite v only).
	imin, imax := -1, -1
	var vmin, vmax float64
	for i := range pts {
		v := pts[i].Value
		switch {
		case v-v != 0:
			st.NonFinite++
		case imin < 0:
			imin, imax, vmin, vmax = i, i, v, v
		case v < vmin:
			imin, vmin = i, v
		case v > vmax:
			imax, vmax = i, v
		}
	}
	extreme := func(i int) Extreme {
		return Extreme{Step: pts[i].Step, WallTime: pts[i].WallTime, Value: pts[i].Value}
	}
	if imin >= 0 {
		st.Min, st.Max, st.HasFinite = extreme(imin), extreme(imax), true
	}
	st.Last = extreme(len(pts) - 1)
	return st
}

// SessionLogEntry is a SessionLog event: a start, stop or checkpoint.
type SessionLogEntry struct {
	WallTime       float64
	Step           int64
	Status         string // "unspecified", "start", "stop", "checkpoint"
	CheckpointPath string
	Msg            string
}

// LogMessageEntry is a LogMessage event.
type LogMessageEntry struct {
	WallTime float64
	Step     int64
	Level    int32
	Message  string
}
