package collect

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/discover"
	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

// maxWarningsPerFile bounds the warnings one damaged file can add; the rest
// are counted in a final warning.
const maxWarningsPerFile = 20

// tagState is what a run remembers of one tag across its files.
type tagState struct {
	name      string
	metadata  bool // metadata seen
	plugin    string
	dataClass eventpb.SummaryMetadata_DataClass
	content   []byte // the plugin's content, from the first metadata
	display   string
	desc      string
	kind      model.Kind

	// Every value seen, before the restart rule, for tags that keep no
	// series of their own.
	seen                int
	firstStep, lastStep int64
	firstWall, lastWall float64

	// kept is what the tag keeps of its values (see valuekinds.go), nil
	// until its first value is kept; scalars is the same series, typed,
	// for the fast path, when the tag is a scalar one.
	kept    keptSeries
	scalars *scalarSeries
	started int // the run's STARTs applied to kept (see runReader.start)
}

// startMark is a SessionLog START: its number among the run's STARTs
// (from 1) and its step.
type startMark struct {
	n    int
	step int64
}

// start records a SessionLog START at step. Applying it to every tag at
// once cost tags x STARTs: 30,000 tags and 20,000 STARTs in 849 KB took
// 28 s. Each tag catches up when it is next touched instead: the STARTs
// it has not seen act together as one at the lowest of their steps, since
// the tag gained no point between them.
func (rr *runReader) start(step int64) {
	rr.starts++
	for len(rr.startSteps) > 0 && rr.startSteps[len(rr.startSteps)-1].step >= step {
		rr.startSteps = rr.startSteps[:len(rr.startSteps)-1]
	}
	rr.startSteps = append(rr.startSteps, startMark{rr.starts, step})
}

// catchUp applies to the tag's series the STARTs since it last caught up.
func (rr *runReader) catchUp(ts *tagState) {
	if ts.kept != nil {
		// The first START after the tag's last has the lowest step of
		// the STARTs since: startSteps rises in both number and step.
		i, _ := slices.BinarySearchFunc(rr.startSteps, ts.started+1, func(m startMark, n int) int { return cmp.Compare(m.n, n) })
		if i < len(rr.startSteps) {
			ts.kept.purge(rr.startSteps[i].step)
		}
	}
	ts.started = rr.starts
}

// record locates the current record in its file, so that payloads can be
// kept as references.
type record struct {
	rr   *runReader // whose src and run name the log directory
	rel  string     // the file, relative to the log directory
	data []byte     // the serialized Event
	base int64      // file offset of data
}

// ref returns a reference to n bytes at offset off of the record's file.
func (rc record) ref(off, n int64) model.BlobRef {
	return model.NewBlobRef(rc.rr.src, rc.rr.run.Logdir, rc.rel, off, n)
}

// blob returns a reference to the bytes reached by path in the record.
func (rc record) blob(path ...event.Step) (model.BlobRef, bool) {
	s, e, ok := event.Locate(rc.data, path...)
	if !ok {
		return model.BlobRef{}, false
	}
	return rc.ref(rc.base+int64(s), int64(e-s)), true
}

// tbState is what reading TensorBoard event records reuses from one
// record to the next; no other format's reader touches it (MindSpore's is
// msState).
type tbState struct {
	ev       eventpb.Event        // reused by the full decoder
	head     eventpb.Event        // wall time and step of the event on the fast path
	sv       eventpb.SummaryValue // reused for values the fast path hands on
	recent   []recentTag          // the tags of the last summary's values (see tagAt)
	fullOnly bool                 // tests: decode every event with the generated code
}

// runReader reads the files of one run in order, as one stream.
type runReader struct {
	run *model.Run
	src *logfs.Dir // the run's log directory, the only way to its files
	// side is what discovery found beside the event files, for the
	// plugins' readers; it is cleared once read.
	side      []discover.SideFile
	keepAll   bool              // no restart rule: every record, in arrival order
	rule      model.RestartRule // "" with keepAll
	noRule    bool              // the series apply no rule of their own: keepAll, or TensorBoard's rule
	tags      map[string]*tagState
	unmarshal proto.UnmarshalOptions
	tb        tbState // what TensorBoard's records reuse

	file       *model.File
	fileWarned int
	tagsFullIn *model.File // the file where tagRoom last refused a tag, which it warned of
	// What filled tensors have cost (see chargeFill): the record at
	// fillBase of fillFile, and the whole run.
	fillFile            string
	fillBase            int64
	recordFill, runFill int64
	totalBytes          int64 // of every run's files, for the run's share of maxFill
	runs                int   // in the collection, for the run's share of event.FillFloor

	sessions map[string]int // the run's hparams sessions by sessionKey: index in HParams.Sessions
	ms       *msState       // what MindSpore files need, nil until one is read

	// SessionLog STARTs, applied to a tag's series when it is next added
	// to or finished (see start and catchUp): starts counts them, and
	// startSteps keeps, in order, each whose step is below every later
	// one's, which is all that later purges need.
	starts     int
	startSteps []startMark
	// runBytes is the size of the run's event files, doneBytes that of the
	// files already read and pos the offset in the one being read: how far
	// through the run the reader is, to size series ahead (see grow).
	runBytes, doneBytes, pos int64

	// The run's attempts (see attempts.go): the latest, by number from 1,
	// what is known of each while reading, and what finish counts in them.
	attempt        int
	attempts       []attemptState
	fileStarts     []fileStart
	attemptsCapped bool
	counts         []model.Attempt
	summaries      int // summary events read
	// TensorBoard's rule: the run's file_version (as TensorBoard parses
	// it, -1 when none), its most recent step, and whether the event being
	// read purges its tags.
	fileVersion float64
	recentStep  int64
	tbPurge     bool
	tbStarted   bool // a START was seen in a file of file_version 2 or more
}

func newRunReader(r *model.Run, src *logfs.Dir, side []discover.SideFile, keepAll bool, rule model.RestartRule) *runReader {
	if keepAll {
		rule = ""
	}
	rr := &runReader{run: r, src: src, side: side, keepAll: keepAll, rule: rule, tags: map[string]*tagState{},
		noRule: keepAll || rule == model.RestartsTensorBoard, fileVersion: -1, recentStep: -1}
	rr.beginAttempts()
	return rr
}

func (rr *runReader) warn(offset int64, format string, args ...any) {
	rr.fileWarned++
	if rr.fileWarned > maxWarningsPerFile {
		return
	}
	rr.run.Warnings = append(rr.run.Warnings, model.Warning{File: rr.file.Rel, Offset: offset, Msg: fmt.Sprintf(format, args...)})
}

func (rr *runReader) readFile(df discover.File) {
	rd := readerOf(df.Kind)
	rr.run.Files = append(rr.run.Files, model.File{Rel: df.Rel, Size: df.Size, Status: "ok", Format: rd.format})
	rr.file = &rr.run.Files[len(rr.run.Files)-1]
	rr.fileWarned = 0
	rr.readingFile(df.Rel)
	switch {
	case df.Kind == kindEmpty, df.Size == 0 && rr.file.Format != "":
		rr.file.Status = "empty"
		return
	case df.Kind == kindProfileEmpty:
		rr.file.Status = "profile-empty"
		return
	}
	f, err := rr.src.Open(df.Rel)
	if err != nil {
		rr.file.Status = "damaged"
		rr.warn(-1, "cannot open: %v", err)
		return
	}
	defer f.Close()
	r := tfrecord.NewReader(f, df.Rel)
	for r.Next() {
		if d := r.Damage(); d != nil {
			rr.file.Status = "damaged"
			rr.warn(d.Offset, "%s", d.Detail)
			continue
		}
		rr.file.Records++
		rr.pos = r.Offset()
		rd.record(rr, record{rr: rr, rel: df.Rel, data: r.Record(), base: r.DataOffset()}, r.Offset())
	}
	if err := r.Err(); err != nil {
		if e, ok := tfrecord.AsError(err); ok {
			switch e.Problem {
			case tfrecord.LFSPointer:
				rr.file.Status = "lfs-pointer"
			case tfrecord.Truncated:
				rr.file.Status = "truncated"
			default:
				rr.file.Status = "damaged"
			}
			rr.warn(e.Offset, "%s", e.Detail)
		} else {
			rr.file.Status = "damaged"
			rr.warn(-1, "%v", err)
		}
	}
	if rr.fileWarned > maxWarningsPerFile {
		rr.run.Warnings = append(rr.run.Warnings, model.Warning{File: rr.file.Rel, Offset: -1,
			Msg: fmt.Sprintf("%d more warnings not shown", rr.fileWarned-maxWarningsPerFile)})
	}
}

// tensorBoardRecord reads one record of a TensorBoard event file: on the
// fast path when it can, else decoded whole.
func (rr *runReader) tensorBoardRecord(rec record, offset int64) {
	if !rr.tb.fullOnly && rr.fastEvent(rec.data, rec, offset) {
		return
	}
	if err := rr.unmarshal.Unmarshal(rec.data, &rr.tb.ev); err != nil {
		rr.file.Status = "damaged"
		rr.warn(offset, "record is not an Event: %v", err)
		return
	}
	rr.event(&rr.tb.ev, rec, offset)
}

func (rr *runReader) event(ev *eventpb.Event, rec record, offset int64) {
	run := rr.run
	fv, fileVersion := ev.What.(*eventpb.Event_FileVersion)
	if fileVersion {
		rr.fileVersion = parseFileVersion(fv.FileVersion)
	}
	rr.bounds(ev.WallTime, ev.Step, fileVersion)
	_, summary := ev.What.(*eventpb.Event_Summary)
	if summary {
		rr.summaries++
	}
	rr.tensorBoardEvent(ev.Step, summary)
	switch w := ev.What.(type) {
	case *eventpb.Event_SessionLog:
		sl := w.SessionLog
		run.SessionLogs = append(run.SessionLogs, model.SessionLogEntry{WallTime: ev.WallTime, Step: ev.Step,
			Status: sessionStatus(sl.GetStatus()), CheckpointPath: sl.GetCheckpointPath(), Msg: sl.GetMsg()})
		if sl.GetStatus() == eventpb.SessionLog_START && !rr.keepAll {
			rr.sessionStart()
			// TensorBoard purges on a START only in files of file_version 2
			// or more, and not on the run's first; the other rules always do.
			if rr.rule != model.RestartsTensorBoard || rr.tensorBoardStart() {
				rr.start(ev.Step)
			}
		}
	case *eventpb.Event_LogMessage:
		run.LogMessages = append(run.LogMessages, model.LogMessageEntry{WallTime: ev.WallTime, Step: ev.Step,
			Level: w.LogMessage.GetLevel(), Message: w.LogMessage.GetMessage()})
	case *eventpb.Event_GraphDef, *eventpb.Event_MetaGraphDef, *eventpb.Event_TaggedRunMetadata:
		rr.addGraphEvent(ev, rec, offset)
	case *eventpb.Event_Summary:
		for i, v := range w.Summary.GetValue() {
			rr.value(ev, v, rec, i, offset, nil)
		}
	}
}

func sessionStatus(s eventpb.SessionLog_Status) string {
	switch s {
	case eventpb.SessionLog_START:
		return "start"
	case eventpb.SessionLog_STOP:
		return "stop"
	case eventpb.SessionLog_CHECKPOINT:
		return "checkpoint"
	}
	return "unspecified"
}

// value reads the idx-th value of a summary. When skip is set, the value's
// payload was refused before decoding: its tag and metadata are read, and
// skip becomes a warning in place of the payload.
func (rr *runReader) value(ev *eventpb.Event, v *eventpb.SummaryValue, rec record, idx int, offset int64, skip error) {
	tag := v.GetTag()
	if tag == "" {
		tag = v.GetNodeName()
	}
	if skip == nil && rr.addAttention(ev, v, tag, rec, idx, offset) {
		return
	}
	ts := rr.tags[tag]
	if ts == nil {
		if !rr.tagRoom(tag, offset) {
			return
		}
		ts = &tagState{name: tag}
		rr.tags[tag] = ts
	}
	if md := v.GetMetadata(); md != nil && !ts.metadata {
		ts.metadata = true
		ts.plugin = md.GetPluginData().GetPluginName()
		ts.content = slices.Clone(md.GetPluginData().GetContent())
		ts.dataClass = md.GetDataClass()
		ts.display = md.GetDisplayName()
		ts.desc = md.GetSummaryDescription()
	}
	ts.saw(ev.Step, ev.WallTime)
	// TS-VIS names a tensor's dtype with numpy's string: read as the
	// enum, numpy text as strings.
	if t := v.GetTensor(); !event.NumpyDType(t) {
		event.NumpyText(t, maxTensorStrings)
	}
	kind := classify(v, ts)
	switch {
	case ts.kind == "":
		ts.kind = kind
	case kind != ts.kind && ts.kind == model.KindTensor && v.GetMetadata() != nil && ts.kept != nil:
		// The tag's metadata came after values of it: what they were is
		// only known now, and they were kept as plain tensors.
		rr.warn(-1, "tag %q: %d values before its metadata are not read as %s", tag, len(ts.kept.(*entryList[model.TensorEntry]).Items), kind)
		ts.kept, ts.kind = nil, kind
	case kind != ts.kind:
		rr.warn(offset, "tag %q at step %d holds a %s after %s values; value skipped", tag, ev.Step, kind, ts.kind)
		return
	}
	if skip != nil {
		rr.warn(offset, "tag %q at step %d: %v", tag, ev.Step, skip)
		return
	}
	// The path of this value's fields inside the record, for blob refs.
	at := func(path ...event.Step) (model.BlobRef, bool) {
		return rec.blob(append([]event.Step{{Num: eventpb.FieldEventSummary}, {Num: eventpb.FieldSummaryValue, N: idx}}, path...)...)
	}
	vk := kindOf(kind)
	if vk == nil {
		return // listed by its kind, not kept
	}
	if err := vk.add(rr, &valueAt{ev: ev, v: v, ts: ts, tag: tag, rec: rec, offset: offset, at: at}); err != nil {
		rr.warn(offset, "tag %q at step %d: %v", tag, ev.Step, err)
	}
}

func (rr *runReader) addScalar(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState) error {
	s, err := event.ScalarOf(v)
	if err != nil {
		return err
	}
	ss := rr.scalarsFor(ts)
	ss.float32 = ss.float32 && s.Float32
	if n := len(ss.Points); n > 0 && ev.Step <= ss.Points[n-1].Step {
		rr.stepBack(ss, ss.Points[n-1].Step, ss.LastAttempt(), ev.Step)
	}
	ss.Add(model.Point{WallTime: ev.WallTime, Step: ev.Step, Value: s.Value}, rr.attempt, rr.noRule)
	return nil
}

// finish moves the accumulated series into the run, sorted by tag, and
// lets each format finish (see readers).
func (rr *runReader) finish() {
	run := rr.run
	for _, tag := range slices.Sorted(maps.Keys(rr.tags)) {
		ts := rr.tags[tag]
		info := model.TagInfo{Tag: tag, Kind: ts.kind, Plugin: ts.plugin, DataClass: dataClassName(ts.dataClass),
			Count: ts.seen, FirstStep: ts.firstStep, LastStep: ts.lastStep, FirstWall: ts.firstWall, LastWall: ts.lastWall}
		if ts.kept != nil {
			if ts.started != rr.starts {
				rr.catchUp(ts)
			}
			ts.kept.finish(run, ts, &info)
			if ts.scalars != nil && !rr.keepAll {
				rr.countAttempts(&ts.scalars.Scalars, run.Scalars[len(run.Scalars)-1])
			}
		}
		run.Tags = append(run.Tags, info)
	}
	rr.finishReaders()
	rr.finishAttempts()
	rr.tags = nil
}

// setRange sets the count and the step and time bounds of ti from the n
// kept entries of a series.
func setRange(ti *model.TagInfo, n int, at func(i int) (int64, float64)) {
	ti.Count = n
	if n == 0 {
		return
	}
	ti.FirstStep, ti.FirstWall = at(0)
	ti.LastStep, ti.LastWall = at(n - 1)
}

func dataClassName(dc eventpb.SummaryMetadata_DataClass) string {
	switch dc {
	case eventpb.SummaryMetadata_DATA_CLASS_SCALAR:
		return "scalar"
	case eventpb.SummaryMetadata_DATA_CLASS_TENSOR:
		return "tensor"
	case eventpb.SummaryMetadata_DATA_CLASS_BLOB_SEQUENCE:
		return "blob_sequence"
	}
	return "unknown"
}
