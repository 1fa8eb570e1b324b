package collect

// MindSpore summary and lineage files (docs/FORMATS.md section 21): the
// framing of TensorBoard's event files, MindSpore's own Event messages.
// Their values are kept in the same series as TensorBoard's, by the same
// restart rule; the lineage becomes the run's hparams session.

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect/discover"
	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/mindspore"
	"github.com/trainreport/trainreport/collect/mindspore/mspb"
	"github.com/trainreport/trainreport/collect/model"
)

// maxLineageBytes bounds the strings a run's lineage adds to its session
// (the metrics' JSON, paths, user-defined entries); MindSpore writes a few
// hundred bytes.
const maxLineageBytes = 1 << 20

// msState is what a run remembers while it reads MindSpore files.
type msState struct {
	ev      mspb.Event        // reused by the decoder
	lineage mspb.LineageEvent // reused by the decoder
	// session gathers the run's lineage, nil until a lineage record.
	session      *model.SessionStart
	lineageBytes int
}

func (rr *runReader) msState() *msState {
	if rr.ms == nil {
		rr.ms = &msState{}
	}
	return rr.ms
}

// mindSporeEvent reads one record of a MindSpore summary file.
func (rr *runReader) mindSporeEvent(rec record, offset int64) {
	ms := rr.msState()
	ev := &ms.ev
	if err := rr.unmarshal.Unmarshal(rec.data, ev); err != nil {
		rr.file.Status = "damaged"
		rr.warn(offset, "record is not a MindSpore Event: %v", err)
		return
	}
	version, isVersion := ev.What.(*mspb.Event_Version)
	if isVersion && version.Version != mindspore.Version {
		rr.warn(offset, "version %q, not %q: read as %s", version.Version, mindspore.Version, mindspore.Version)
	}
	rr.bounds(ev.WallTime, ev.Step, isVersion)
	_, summary := ev.What.(*mspb.Event_Summary)
	if summary {
		rr.summaries++
	}
	rr.tensorBoardEvent(ev.Step, summary)
	switch w := ev.What.(type) {
	case *mspb.Event_Graph:
		ref, ok := rec.blob(event.Step{Num: mspb.FieldEventGraph})
		if !ok {
			ref = rec.ref(rec.base, 0) // an empty graph proto3 left out
		}
		rr.keepGraph(model.SourceMindSpore, "", &eventpb.Event{WallTime: ev.WallTime, Step: ev.Step}, ref)
	case *mspb.Event_Summary:
		for i, v := range w.Summary.GetValue() {
			rr.mindSporeValue(ev, v, rec, i, offset)
		}
	case nil:
		if !isVersion {
			// The explainer's records and what later versions add.
			rr.warn(offset, "MindSpore event at step %d of a kind not read; skipped", ev.Step)
		}
	}
}

// msKind says what a MindSpore value holds.
func msKind(v *mspb.SummaryValue) model.Kind {
	switch w := v.Value.(type) {
	case *mspb.SummaryValue_Scalar:
		return model.KindScalar
	case *mspb.SummaryValue_Image:
		return model.KindImage
	case *mspb.SummaryValue_Histogram:
		return model.KindHistogram
	case *mspb.SummaryValue_Tensor:
		if mindspore.IsNumeric(w.Tensor.GetDataType()) {
			return model.KindTensor
		}
	}
	return model.KindOther // loss landscapes, tensors of no numbers
}

// mindSporeValue reads the idx-th value of a MindSpore summary.
func (rr *runReader) mindSporeValue(ev *mspb.Event, v *mspb.SummaryValue, rec record, idx int, offset int64) {
	tag := mindspore.StripTag(v.GetTag())
	ts := rr.tags[tag]
	if ts == nil {
		if !rr.tagRoom(tag, offset) {
			return
		}
		ts = &tagState{name: tag}
		rr.tags[tag] = ts
	}
	kind := msKind(v)
	switch {
	case ts.kind == "":
		ts.kind = kind
	case kind != ts.kind:
		rr.warn(offset, "tag %q at step %d holds a %s after %s values; value skipped", tag, ev.Step, kind, ts.kind)
		return
	}
	// SummaryCollector writes the values of an epoch's last step twice
	// (docs/FORMATS.md section 21): both are kept, the second a rewrite of
	// the step (section 18), so that every record is read.
	ts.saw(ev.Step, ev.WallTime)
	at := func(path ...event.Step) (model.BlobRef, bool) {
		return rec.blob(append([]event.Step{{Num: mspb.FieldEventSummary}, {Num: mspb.FieldSummaryValue, N: idx}}, path...)...)
	}
	var err error
	switch w := v.Value.(type) {
	case *mspb.SummaryValue_Scalar:
		rr.addMindSporeScalar(ev, float64(w.Scalar), ts)
	case *mspb.SummaryValue_Image:
		err = rr.addMindSporeImage(ev, w.Image, ts, at)
	case *mspb.SummaryValue_Histogram:
		err = rr.addMindSporeHistogram(ev, w.Histogram, ts)
	case *mspb.SummaryValue_Tensor:
		if kind == model.KindTensor {
			err = rr.addMindSporeTensor(ev, w.Tensor, ts, at, rec)
		}
	}
	if err != nil {
		rr.warn(offset, "tag %q at step %d: %v", tag, ev.Step, err)
	}
}

func (rr *runReader) addMindSporeScalar(ev *mspb.Event, value float64, ts *tagState) {
	ss := rr.scalarsFor(ts)
	if n := len(ss.Points); n > 0 && ev.Step <= ss.Points[n-1].Step {
		rr.stepBack(ss, ss.Points[n-1].Step, ss.LastAttempt(), ev.Step)
	}
	ss.Add(model.Point{WallTime: ev.WallTime, Step: ev.Step, Value: value}, rr.attempt, rr.noRule)
}

func (rr *runReader) addMindSporeImage(ev *mspb.Event, im *mspb.Image, ts *tagState, at locator) error {
	if len(im.GetEncoded()) == 0 {
		return fmt.Errorf("image holds no bytes; value skipped")
	}
	ref, ok := at(event.Step{Num: mspb.FieldValueImage}, event.Step{Num: mspb.FieldImageEncoded})
	if !ok {
		return fmt.Errorf("cannot locate the image bytes")
	}
	item := model.ImageItem{Width: int(im.GetWidth()), Height: int(im.GetHeight()), Data: ref}
	if f, w, h := imageConfig(im.GetEncoded()); f != "" {
		item.Format, item.Width, item.Height = f, w, h
	}
	keep(rr, ts, imageList, ev.Step, model.ImageEntry{WallTime: ev.WallTime, Step: ev.Step, Images: []model.ImageItem{item}})
	return nil
}

func (rr *runReader) addMindSporeHistogram(ev *mspb.Event, h *mspb.Histogram, ts *tagState) error {
	e, err := mindspore.Histogram(h)
	if err != nil {
		return err
	}
	e.WallTime, e.Step = ev.WallTime, ev.Step
	keep(rr, ts, histogramList, ev.Step, e)
	return nil
}

// addMindSporeTensor keeps a numeric tensor as a reference to its bytes,
// once its values are known to match its dimensions.
func (rr *runReader) addMindSporeTensor(ev *mspb.Event, t *mspb.Tensor, ts *tagState, at locator, rec record) error {
	shape, _, err := mindspore.Shape(t)
	if err != nil {
		return err
	}
	if err := mindspore.Check(t); err != nil {
		return err
	}
	ref, ok := at(event.Step{Num: mspb.FieldValueTensor})
	if !ok {
		ref = rec.ref(rec.base, 0) // an empty tensor proto3 left out
	}
	keep(rr, ts, tensorList, ev.Step, model.TensorEntry{WallTime: ev.WallTime, Step: ev.Step,
		DType: mindspore.DTypeName(t.GetDataType()), Shape: shape, Data: ref, Encoding: model.EncodingMindSpore})
	return nil
}

// lineageEvent reads one record of a MindSpore lineage file into the
// run's session: the training's hyperparameters, dataset and model, the
// evaluation's metrics, and what the user added. Names are those of
// MindInsight's lineage table (its "[U]" user entries are "user/..."
// here), but for the training's final loss, "train_loss", a metric apart
// from the evaluation's "loss".
func (rr *runReader) lineageEvent(rec record, offset int64) {
	ms := rr.msState()
	ev := &ms.lineage
	if err := rr.unmarshal.Unmarshal(rec.data, ev); err != nil {
		rr.file.Status = "damaged"
		rr.warn(offset, "record is not a MindSpore LineageEvent: %v", err)
		return
	}
	if ev.What == nil {
		// The dataset graph, a field mspb.LineageEvent leaves out: kept
		// by reference, decoded with the run's graphs.
		if ref, ok := rec.blob(event.Step{Num: mspb.FieldLineageDatasetGraph}); ok {
			rr.keepGraph(model.SourceMindSporeDataset, "", &eventpb.Event{WallTime: ev.WallTime, Step: ev.Step}, ref)
		}
		return
	}
	if _, ok := ev.What.(*mspb.LineageEvent_Version); ok {
		return
	}
	if ms.session == nil {
		ms.session = &model.SessionStart{Source: "mindspore-lineage", HParams: map[string]model.HParamValue{}, StartTime: ev.WallTime}
	}
	s := ms.session
	str := func(name, v string) {
		if v == "" {
			return
		}
		if ms.lineageBytes += len(name) + len(v); ms.lineageBytes > maxLineageBytes {
			return
		}
		s.HParams[name] = model.HParamValue{Kind: model.StringValue, Str: v}
	}
	num := func(name string, v float64) { s.HParams[name] = model.HParamValue{Kind: model.NumberValue, Number: v} }
	switch w := ev.What.(type) {
	case *mspb.LineageEvent_TrainLineage:
		t := w.TrainLineage
		if h := t.GetHyperParameters(); h != nil {
			str("optimizer", h.GetOptimizer())
			num("learning_rate", float64(h.GetLearningRate()))
			str("loss_function", h.GetLossFunction())
			num("epoch", float64(h.GetEpoch()))
			str("parallel_mode", h.GetParallelMode())
			num("device_num", float64(h.GetDeviceNum()))
			num("batch_size", float64(h.GetBatchSize()))
		}
		if d := t.GetTrainDataset(); d != nil {
			str("train_dataset_path", d.GetPath())
			num("train_dataset_count", float64(d.GetSize()))
		}
		if a := t.GetAlgorithm(); a != nil {
			str("network", a.GetNetwork())
			// "loss" is the evaluation's metric of that name, when
			// there is one.
			rr.lineageMetric("train_loss", float64(a.GetLoss()))
		}
		if m := t.GetModel(); m != nil {
			str("model_path", m.GetPath())
			num("model_size", float64(m.GetSize()))
		}
	case *mspb.LineageEvent_EvaluationLineage:
		e := w.EvaluationLineage
		if err := rr.lineageMetrics(e.GetMetric()); err != nil {
			rr.warn(offset, "evaluation lineage: %v", err)
		}
		if d := e.GetValidDataset(); d != nil {
			str("test_dataset_path", d.GetPath())
			num("test_dataset_count", float64(d.GetSize()))
		}
	case *mspb.LineageEvent_UserDefinedInfo:
		rr.userLineage(w.UserDefinedInfo, "user/", 0, str, num)
	}
}

// lineageMetric records a metric of the run's lineage.
func (rr *runReader) lineageMetric(name string, v float64) {
	s := rr.ms.session
	if s.Metrics == nil {
		s.Metrics = map[string]model.HParamValue{}
	}
	s.Metrics[name] = model.HParamValue{Kind: model.NumberValue, Number: v}
}

// maxLineageMetrics bounds the metrics of an evaluation lineage.
const maxLineageMetrics = 1000

// lineageMetrics records an evaluation's metrics, a JSON object of name to
// number (MindSpore writes json.dumps of Model.eval's result).
func (rr *runReader) lineageMetrics(metric string) error {
	if metric == "" {
		return nil
	}
	if len(metric) > maxLineageBytes {
		return fmt.Errorf("metrics of %d bytes, more than %d; not read", len(metric), maxLineageBytes)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(metric), &m); err != nil {
		return fmt.Errorf("metrics are not a JSON object: %w", err)
	}
	if len(m) > maxLineageMetrics {
		return fmt.Errorf("%d metrics, more than %d; not read", len(m), maxLineageMetrics)
	}
	var skipped []string
	for name, v := range m {
		f, ok := v.(float64)
		if !ok {
			skipped = append(skipped, name)
			continue
		}
		rr.lineageMetric(name, f)
	}
	if len(skipped) > 0 {
		slices.Sort(skipped)
		return fmt.Errorf("metrics %s are not numbers; not read", strings.Join(skipped, ", "))
	}
	return nil
}

// maxUserLineageDepth bounds the nesting of user-defined lineage.
const maxUserLineageDepth = 4

// userLineage adds what a user added to the lineage (custom_lineage_data)
// as hyperparameters named "user/<key>", nested dictionaries joined with
// "/".
func (rr *runReader) userLineage(u *mspb.UserDefinedInfo, prefix string, depth int, str func(string, string), num func(string, float64)) {
	if depth > maxUserLineageDepth {
		return
	}
	for _, info := range u.GetUserInfo() {
		rr.userLineage(info, prefix, depth+1, str, num)
	}
	for k, v := range u.GetMapStr() {
		str(prefix+k, v)
	}
	for k, v := range u.GetMapInt32() {
		num(prefix+k, float64(v))
	}
	for k, v := range u.GetMapDouble() {
		if !math.IsNaN(v) {
			num(prefix+k, v)
		}
	}
	for k, v := range u.GetMapDict() {
		rr.userLineage(v, prefix+k+"/", depth+1, str, num)
	}
}

// finishLineage makes the run's lineage its hparams session.
func (rr *runReader) finishLineage() {
	if rr.ms == nil || rr.ms.session == nil {
		return
	}
	if rr.ms.lineageBytes > maxLineageBytes {
		rr.run.Warnings = append(rr.run.Warnings, model.Warning{File: rr.run.Path, Offset: -1,
			Msg: fmt.Sprintf("lineage strings of more than %d bytes; the rest not read", maxLineageBytes)})
	}
	if rr.run.HParams == nil {
		rr.run.HParams = &model.HParams{}
	}
	rr.addSession(rr.run.HParams, rr.ms.session)
}

// The kinds of MindSpore's files.
const (
	// kindMindSpore is a MindSpore summary file. A MindSpore file of zero
	// bytes keeps its kind, so that its format is known.
	kindMindSpore discover.Kind = "mindspore"
	// kindMindSporeLineage is the lineage file a SummaryCollector writes
	// beside its summary file: LineageEvent messages.
	kindMindSporeLineage discover.Kind = "mindspore-lineage"
)

// The markers of MindSpore's file names: SummaryRecord names its files
// <prefix>.out.events.summary.<seconds>[.<device>].<host><suffix>, the
// suffix "_MS" by default, "_lineage" for the lineage stream and
// "_explain" for the explainer's, which we do not read.
const (
	mindSporeMark    = ".summary."
	mindSporeLineage = "_lineage"
	mindSporeExplain = "_explain"
)

// mindSporeFile takes a MindSpore summary file into its run (runDir, as
// an event file's).
func mindSporeFile(c discover.Candidate) (run string, ok bool) {
	if !isMindSpore(c.Name) || strings.HasSuffix(c.Name, mindSporeLineage) {
		return "", false
	}
	return runDir(c.Dir, c.Name), true
}

// mindSporeLineageFile takes a MindSpore lineage file into its run.
func mindSporeLineageFile(c discover.Candidate) (run string, ok bool) {
	if !isMindSpore(c.Name) || !strings.HasSuffix(c.Name, mindSporeLineage) {
		return "", false
	}
	return runDir(c.Dir, c.Name), true
}

// isMindSpore reports whether a file's base name is that of a MindSpore
// summary or lineage file: MindInsight's rule, "summary." and the digits
// of a timestamp, behind the "events" of SummaryRecord's names (so that
// a user's summary.1.csv is not taken for one). Explainer files are not.
func isMindSpore(name string) bool {
	i := strings.Index(name, ".events"+mindSporeMark)
	if i < 0 || strings.HasSuffix(name, mindSporeExplain) {
		return false
	}
	rest := name[i+len(".events"+mindSporeMark):]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	return n > 0 && n < len(rest) && rest[n] == '.'
}
