package collect

import (
	"slices"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/series"
)

// A valueKind is one kind of summary value the event reader keeps: what
// marks a value as one (the plugin its metadata names, or a TF1 value
// field), how a value is decoded and kept, and (through the kept series
// the decoder creates) how what a tag kept becomes a series of the run.
// The event reader looks values up in valueKinds and nowhere else names a
// kind, so a new kind of value is one entry here and its decoder.
type valueKind struct {
	kind model.Kind
	// plugins are the plugin names whose values are of this kind.
	plugins []string
	// field reports whether a value's TF1 field (simple_value, histo,
	// image, audio) makes it of this kind whatever its plugin.
	field func(*eventpb.SummaryValue) bool
	// bare is set when a value without a payload is one, its metadata
	// being all it carries (hparams, custom scalars layouts).
	bare bool
	// add decodes one value and keeps it.
	add func(rr *runReader, x *valueAt) error
}

// valueAt is a summary value being read, with where it is.
type valueAt struct {
	ev     *eventpb.Event
	v      *eventpb.SummaryValue
	ts     *tagState
	tag    string
	rec    record
	offset int64
	at     locator // the payload's place in the record, for BlobRefs
}

func isField[T any](v *eventpb.SummaryValue) bool { _, ok := v.Value.(T); return ok }

// valueKinds is every kind of value the event reader keeps.
var valueKinds = []valueKind{
	{kind: model.KindScalar, plugins: []string{"scalars"}, field: isField[*eventpb.SummaryValue_SimpleValue],
		add: func(rr *runReader, x *valueAt) error { return rr.addScalar(x.ev, x.v, x.ts) }},
	{kind: model.KindHistogram, plugins: []string{"histograms"}, field: isField[*eventpb.SummaryValue_Histo],
		add: func(rr *runReader, x *valueAt) error { return rr.addHistogram(x.ev, x.v, x.ts, x.rec) }},
	{kind: model.KindImage, plugins: []string{"images"}, field: isField[*eventpb.SummaryValue_Image],
		add: func(rr *runReader, x *valueAt) error {
			if x.ts.plugin == "featuremap" {
				return rr.addFeatureMap(x.ev, x.v, x.ts, x.at)
			}
			return rr.addImage(x.ev, x.v, x.ts, x.at, x.rec)
		}},
	{kind: model.KindAudio, plugins: []string{"audio"}, field: isField[*eventpb.SummaryValue_Audio],
		add: func(rr *runReader, x *valueAt) error { return rr.addAudio(x.ev, x.v, x.ts, x.at, x.rec, x.offset) }},
	{kind: model.KindText, plugins: []string{"text"},
		add: func(rr *runReader, x *valueAt) error { return rr.addText(x.ev, x.v, x.ts, x.rec) }},
	{kind: model.KindPRCurve, plugins: []string{"pr_curves"},
		add: func(rr *runReader, x *valueAt) error { return rr.addPRCurve(x.ev, x.v, x.ts, x.rec) }},
	{kind: model.KindHParams, plugins: []string{"hparams"}, bare: true,
		add: func(rr *runReader, x *valueAt) error { return rr.addHParams(x.ev, x.v, x.ts, x.tag) }},
	{kind: model.KindCustomScalars, plugins: []string{"custom_scalars"}, bare: true,
		add: func(rr *runReader, x *valueAt) error { return rr.addLayout(x.ev, x.v, x.ts) }},
	{kind: model.KindGraph, plugins: []string{"graph_keras_model", "graph_run_metadata", "graph_run_metadata_graph"},
		add: func(rr *runReader, x *valueAt) error { return rr.addGraphValue(x.ev, x.v, x.ts, x.tag, x.at) }},
	{kind: model.KindMesh, plugins: []string{"mesh"},
		add: func(rr *runReader, x *valueAt) error { return rr.addTensor(x.ev, x.v, x.ts, x.at, x.rec) }},
	// Numeric tensors of no plugin we know: the Tensors page.
	{kind: model.KindTensor,
		add: func(rr *runReader, x *valueAt) error { return rr.addTensor(x.ev, x.v, x.ts, x.at, x.rec) }},
}

// tsvisTextPlugins are TS-VIS's plugins whose string tensors are text:
// the words of hidden states, the sentences of attention.
var tsvisTextPlugins = []string{"hiddenstate", "transformer"}

// kindOf finds the entry of a kind; every Kind classify returns but
// KindOther has one.
func kindOf(k model.Kind) *valueKind {
	for i := range valueKinds {
		if valueKinds[i].kind == k {
			return &valueKinds[i]
		}
	}
	return nil
}

// classify says what a value holds: by its TF1 field, else by its plugin
// (remembered per tag, since metadata usually comes only with a tag's
// first value in a file), else by its tensor's data class and dtype.
func classify(v *eventpb.SummaryValue, ts *tagState) model.Kind {
	tensor, isTensor := v.Value.(*eventpb.SummaryValue_Tensor)
	for _, vk := range valueKinds {
		if vk.field != nil && vk.field(v) {
			return vk.kind
		}
		if (isTensor || vk.bare) && slices.Contains(vk.plugins, ts.plugin) {
			return vk.kind
		}
	}
	if !isTensor {
		return model.KindOther
	}
	// TS-VIS's feature maps: batches of images stored as tensors.
	if _, _, _, _, ok := featureMapShape(tensor.Tensor); ok && ts.plugin == "featuremap" {
		return model.KindImage
	}
	dt := tensor.Tensor.GetDtype()
	switch {
	case ts.plugin == "" && ts.dataClass == eventpb.SummaryMetadata_DATA_CLASS_SCALAR:
		return model.KindScalar
	case dt == eventpb.DataType_DT_STRING || dt == eventpb.DataType_DT_STRING+100:
		if ts.plugin == "" || slices.Contains(tsvisTextPlugins, ts.plugin) {
			return model.KindText // Estimator's checkpoint_path and the like; TS-VIS's words and sentences
		}
		return model.KindOther
	case event.IsNumeric(dt):
		return model.KindTensor
	}
	return model.KindOther
}

// keptSeries is what a tag keeps of its values, whatever their kind.
type keptSeries interface {
	// purge applies a SessionLog START at step.
	purge(step int64)
	// finish adds the series to the run and sets info's count and bounds.
	finish(run *model.Run, ts *tagState, info *model.TagInfo)
}

// scalarSeries is a scalar tag's points.
type scalarSeries struct {
	series.Scalars
	float32 bool // every value was stored at single precision or below
}

func (s *scalarSeries) purge(step int64) { s.Purge(step) }

func (s *scalarSeries) finish(run *model.Run, ts *tagState, info *model.TagInfo) {
	// The superseded points go to the Scalar by attempt in countAttempts.
	sc := &model.Scalar{Tag: ts.name, Points: slices.Clip(s.Points), Float32: s.float32,
		Dropped: s.Dropped, DisplayName: ts.display, Description: ts.desc}
	// What the line learnt of its steps as it was built, so that the
	// report's plan does not read them again.
	sc.SetSteps(s.StepShape())
	run.Scalars = append(run.Scalars, sc)
	run.Restarts += sc.Dropped
	info.Superseded = sc.Dropped
	setRange(info, len(sc.Points), func(i int) (int64, float64) { return sc.Points[i].Step, sc.Points[i].WallTime })
}

// scalarsOf returns the tag's points, created on its first value.
func (ts *tagState) scalarsOf(keepSuperseded bool) *scalarSeries {
	if ts.scalars == nil {
		ts.scalars = &scalarSeries{float32: true}
		ts.scalars.KeepSuperseded = keepSuperseded
		ts.kept = ts.scalars
	}
	return ts.scalars
}

// entryList is the kept entries of a tag of any other kind: one list type,
// told by its kind's store how its entries become the run's series.
type entryList[E any] struct {
	series.List[E]
	attempt int // of the last entry added
	at      func(E) (step int64, wall float64)
	// written is where an entry says who wrote it.
	written func(*E) *model.Written
	store   func(run *model.Run, ts *tagState, entries []E, dropped int)
}

func (l *entryList[E]) purge(step int64) { l.Purge(step) }

func (l *entryList[E]) finish(run *model.Run, ts *tagState, info *model.TagInfo) {
	entries := l.Merged(func(e *E) { l.written(e).Superseded = true })
	l.store(run, ts, entries, l.Dropped)
	run.Restarts += l.Dropped
	info.Superseded = l.Dropped
	// The tag counts and bounds its line, which is l.Items.
	setRange(info, len(l.Items), func(i int) (int64, float64) { return l.at(l.Items[i]) })
	l.Items, l.Superseded = nil, nil
}

// keep adds entry e at step to the tag's list, made by newList on the
// tag's first value. Under RestartsAttempts the list keeps what restarts
// replace, as superseded entries.
func keep[E any](rr *runReader, ts *tagState, newList func() *entryList[E], step int64, e E) {
	if ts.started != rr.starts {
		rr.catchUp(ts)
	}
	l, _ := ts.kept.(*entryList[E])
	if l == nil {
		l = newList()
		l.KeepSuperseded = !rr.keepAll && rr.rule == model.RestartsAttempts
		ts.kept = l
	}
	if n := len(l.Steps); n > 0 && step <= l.Steps[n-1] {
		rr.stepBack(l, l.Steps[n-1], l.attempt, step)
	}
	l.attempt = rr.attempt
	if !rr.keepAll {
		l.written(&e).Attempt = rr.attempt
	}
	l.Add(step, e, rr.noRule)
}

// The lists of each kind of entry, and where each goes in the run.

func histogramList() *entryList[model.HistogramEntry] {
	return &entryList[model.HistogramEntry]{at: func(e model.HistogramEntry) (int64, float64) { return e.Step, e.WallTime },
		written: func(e *model.HistogramEntry) *model.Written { return &e.Written },
		store: func(run *model.Run, ts *tagState, es []model.HistogramEntry, dropped int) {
			run.Histograms = append(run.Histograms, &model.Histogram{Tag: ts.name, Entries: es, Dropped: dropped})
		}}
}

func imageList() *entryList[model.ImageEntry] {
	return &entryList[model.ImageEntry]{at: func(e model.ImageEntry) (int64, float64) { return e.Step, e.WallTime },
		written: func(e *model.ImageEntry) *model.Written { return &e.Written },
		store: func(run *model.Run, ts *tagState, es []model.ImageEntry, dropped int) {
			run.Images = append(run.Images, &model.Image{Tag: ts.name, Entries: es, Dropped: dropped})
		}}
}

func audioList() *entryList[model.AudioEntry] {
	return &entryList[model.AudioEntry]{at: func(e model.AudioEntry) (int64, float64) { return e.Step, e.WallTime },
		written: func(e *model.AudioEntry) *model.Written { return &e.Written },
		store: func(run *model.Run, ts *tagState, es []model.AudioEntry, dropped int) {
			run.Audio = append(run.Audio, &model.Audio{Tag: ts.name, Entries: es, Dropped: dropped})
		}}
}

func textList() *entryList[model.TextEntry] {
	return &entryList[model.TextEntry]{at: func(e model.TextEntry) (int64, float64) { return e.Step, e.WallTime },
		written: func(e *model.TextEntry) *model.Written { return &e.Written },
		store: func(run *model.Run, ts *tagState, es []model.TextEntry, dropped int) {
			run.Texts = append(run.Texts, &model.Text{Tag: ts.name, Plugin: ts.plugin, Entries: es, Dropped: dropped})
		}}
}

func prCurveList() *entryList[model.PRCurveEntry] {
	return &entryList[model.PRCurveEntry]{at: func(e model.PRCurveEntry) (int64, float64) { return e.Step, e.WallTime },
		written: func(e *model.PRCurveEntry) *model.Written { return &e.Written },
		store: func(run *model.Run, ts *tagState, es []model.PRCurveEntry, dropped int) {
			run.PRCurves = append(run.PRCurves, &model.PRCurve{Tag: ts.name, NumThresholds: prThresholds(ts.content), Entries: es, Dropped: dropped})
		}}
}

// tensorList keeps numeric tensors and meshes, told apart by the tag's kind.
func tensorList() *entryList[model.TensorEntry] {
	return &entryList[model.TensorEntry]{at: func(e model.TensorEntry) (int64, float64) { return e.Step, e.WallTime },
		written: func(e *model.TensorEntry) *model.Written { return &e.Written },
		store: func(run *model.Run, ts *tagState, es []model.TensorEntry, dropped int) {
			t := &model.Tensor{Tag: ts.name, Plugin: ts.plugin, Entries: es, Dropped: dropped}
			if ts.kind == model.KindMesh {
				run.Meshes = append(run.Meshes, t)
			} else {
				run.Tensors = append(run.Tensors, t)
			}
		}}
}
