package collect

import (
	"cmp"
	"fmt"
	"os"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/discover"
	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/series"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

// maxWarningsPerFile bounds the warnings one damaged file can add; the rest
// are counted in a final warning.
const maxWarningsPerFile = 20

// tagState is what a run remembers of one tag across its files.
type tagState struct {
	metadata  bool // metadata seen
	plugin    string
	dataClass eventpb.SummaryMetadata_DataClass
	display   string
	desc      string
	scalars   *series.Scalars
	float32   bool
}

// runReader reads the files of one run in order, as one stream.
type runReader struct {
	run       *Run
	keepAll   bool
	tags      map[string]*tagState
	ev        eventpb.Event
	unmarshal proto.UnmarshalOptions

	file       *File
	fileWarned int
}

func newRunReader(r *Run, keepAll bool) *runReader {
	return &runReader{run: r, keepAll: keepAll, tags: map[string]*tagState{}}
}

func (rr *runReader) warn(offset int64, format string, args ...any) {
	rr.fileWarned++
	if rr.fileWarned > maxWarningsPerFile {
		return
	}
	rr.run.Warnings = append(rr.run.Warnings, Warning{File: rr.file.Rel, Offset: offset, Msg: fmt.Sprintf(format, args...)})
}

func (rr *runReader) readFile(df discover.File) {
	rr.run.Files = append(rr.run.Files, File{Rel: df.Rel, Size: df.Size, Status: "ok"})
	rr.file = &rr.run.Files[len(rr.run.Files)-1]
	rr.fileWarned = 0
	switch df.Kind {
	case discover.Empty:
		rr.file.Status = "empty"
		return
	case discover.ProfileEmpty:
		rr.file.Status = "profile-empty"
		return
	}
	f, err := os.Open(df.Path)
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
		if err := rr.unmarshal.Unmarshal(r.Record(), &rr.ev); err != nil {
			rr.file.Status = "damaged"
			rr.warn(r.Offset(), "record is not an Event: %v", err)
			continue
		}
		rr.event(&rr.ev, r.Offset())
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
		rr.run.Warnings = append(rr.run.Warnings, Warning{File: rr.file.Rel, Offset: -1,
			Msg: fmt.Sprintf("%d more warnings not shown", rr.fileWarned-maxWarningsPerFile)})
	}
}

func (rr *runReader) event(ev *eventpb.Event, offset int64) {
	run := rr.run
	if _, ok := ev.What.(*eventpb.Event_FileVersion); !ok && ev.WallTime > 0 {
		if !run.HasEvents {
			run.HasEvents = true
			run.Start, run.End = ev.WallTime, ev.WallTime
			run.FirstStep, run.LastStep = ev.Step, ev.Step
		}
		run.Start = min(run.Start, ev.WallTime)
		run.End = max(run.End, ev.WallTime)
		run.FirstStep = min(run.FirstStep, ev.Step)
		run.LastStep = max(run.LastStep, ev.Step)
	}
	switch w := ev.What.(type) {
	case *eventpb.Event_SessionLog:
		if w.SessionLog.GetStatus() == eventpb.SessionLog_START && !rr.keepAll {
			for _, ts := range rr.tags {
				if ts.scalars != nil {
					ts.scalars.Purge(ev.Step)
				}
			}
		}
	case *eventpb.Event_Summary:
		for _, v := range w.Summary.GetValue() {
			rr.value(ev, v, offset)
		}
	}
}

func (rr *runReader) value(ev *eventpb.Event, v *eventpb.SummaryValue, offset int64) {
	tag := v.GetTag()
	if tag == "" {
		tag = v.GetNodeName()
	}
	ts := rr.tags[tag]
	if ts == nil {
		ts = &tagState{}
		rr.tags[tag] = ts
	}
	if md := v.GetMetadata(); md != nil && !ts.metadata {
		ts.metadata = true
		ts.plugin = md.GetPluginData().GetPluginName()
		ts.dataClass = md.GetDataClass()
		ts.display = md.GetDisplayName()
		ts.desc = md.GetSummaryDescription()
	}
	if !event.IsScalar(v, ts.plugin, ts.dataClass) {
		return
	}
	s, err := event.ScalarOf(v)
	if err != nil {
		rr.warn(offset, "tag %q at step %d: %v", tag, ev.Step, err)
		return
	}
	if ts.scalars == nil {
		ts.scalars = &series.Scalars{}
		ts.float32 = true
	}
	ts.float32 = ts.float32 && s.Float32
	ts.scalars.Add(series.Point{WallTime: ev.WallTime, Step: ev.Step, Value: s.Value}, rr.keepAll)
}

// finish moves the accumulated series into the run, sorted by tag.
func (rr *runReader) finish() {
	for tag, ts := range rr.tags {
		if ts.scalars == nil {
			continue
		}
		rr.run.Scalars = append(rr.run.Scalars, &Scalar{
			Tag: tag, Points: slices.Clip(ts.scalars.Points), Float32: ts.float32,
			Dropped: ts.scalars.Dropped, DisplayName: ts.display, Description: ts.desc,
		})
		rr.run.Restarts += ts.scalars.Dropped
	}
	slices.SortFunc(rr.run.Scalars, func(a, b *Scalar) int { return cmp.Compare(a.Tag, b.Tag) })
	rr.tags = nil
}
