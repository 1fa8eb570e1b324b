package collect

import (
	"encoding/binary"
	"fmt"
	"math"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/histogram/histpb"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/collect/projector"
)

// fastEvent decodes the events that make up nearly all of a log, summaries,
// straight from the wire: a TF1 scalar (simple_value, no metadata) costs no
// allocation, and every other value is handed to the generated decoder on
// its own. It returns false, having changed nothing, for an event that is
// not a plain summary (graphs, session logs...) or does not parse, which
// the caller then decodes whole.
func (rr *runReader) fastEvent(data []byte, rec record, offset int64) bool {
	var wall float64
	var step int64
	var sum []byte
	fileVersion := false
	for b := data; len(b) > 0; {
		num, typ, n := consumeTag(b)
		if n < 0 {
			return false
		}
		b = b[n:]
		switch {
		case num == eventpb.FieldEventWallTime && typ == protowire.Fixed64Type:
			v, n := protowire.ConsumeFixed64(b)
			if n < 0 {
				return false
			}
			wall, b = math.Float64frombits(v), b[n:]
		case num == eventpb.FieldEventStep && typ == protowire.VarintType:
			v, n := consumeVarint(b)
			if n < 0 {
				return false
			}
			step, b = int64(v), b[n:]
		case num == eventpb.FieldEventSummary && typ == protowire.BytesType:
			v, n := consumeBytes(b)
			if n < 0 || sum != nil {
				return false // two summaries in one event: let proto merge them
			}
			sum, b = v, b[n:]
		case num == eventpb.FieldEventFileVersion || num == eventpb.FieldEventSourceMetadata:
			fileVersion = fileVersion || num == eventpb.FieldEventFileVersion
			n := protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return false
			}
			b = b[n:]
		default:
			return false
		}
	}
	if fileVersion && rr.rule == model.RestartsTensorBoard {
		return false // the full decoder reads the version TensorBoard's rule needs
	}
	rr.bounds(wall, step, fileVersion)
	if sum != nil {
		rr.summaries++
	}
	rr.tensorBoardEvent(step, sum != nil)
	head := &rr.tb.head
	head.WallTime, head.Step = wall, step
	idx := 0
	for b := sum; len(b) > 0; {
		if n := rr.repeat(idx, b, wall, step); n > 0 {
			b = b[n:]
			idx++
			continue
		}
		field := b
		num, typ, n := consumeTag(b)
		if n < 0 {
			rr.warn(offset, "summary does not parse: %v", protowire.ParseError(n))
			return true
		}
		b = b[n:]
		if num != eventpb.FieldSummaryValue || typ != protowire.BytesType {
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				rr.warn(offset, "summary does not parse: %v", protowire.ParseError(n))
				return true
			}
			b = b[n:]
			continue
		}
		vb, n := consumeBytes(b)
		if n < 0 {
			rr.warn(offset, "summary does not parse: %v", protowire.ParseError(n))
			return true
		}
		b = b[n:]
		switch {
		case rr.fastScalar(vb, field[:len(field)-len(b)], idx, wall, step):
		case projector.IsTSVISValue(vb):
			// A TS-VIS projector record: read with the run's side files.
		default:
			// A tensor of too many strings is refused before it is decoded
			// (see maxTensorStrings); the rest of the value, its tag and
			// metadata, is still read, with an empty string tensor in its
			// place so that it is classified as its kind.
			var skip error
			if n := event.TensorStrings(vb); n > maxTensorStrings {
				skip = fmt.Errorf("string tensor of %d elements, over the limit of %d; value skipped", n, maxTensorStrings)
				vb = event.WithoutTensor(vb)
			}
			rr.tb.sv.Reset()
			if err := rr.unmarshal.Unmarshal(vb, &rr.tb.sv); err != nil {
				rr.warn(offset, "summary value %d does not parse: %v", idx, err)
			} else {
				if skip != nil {
					rr.tb.sv.Value = &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_STRING}}
				}
				rr.value(head, &rr.tb.sv, rec, idx, offset, skip)
			}
		}
		idx++
	}
	return true
}

// fastScalar adds a value holding only a tag and a simple_value, a scalar
// tensor or a histogram to a tag already known to hold that kind (or new),
// and reports whether it did. vb is the value, field the summary's field
// that holds it (vb with its field number and length before it).
func (rr *runReader) fastScalar(vb, field []byte, idx int, wall float64, step int64) bool {
	var tag, node, tensor, histo, digits []byte
	var v float64
	simple := false
	for len(vb) > 0 {
		num, typ, n := consumeTag(vb)
		if n < 0 {
			return false
		}
		vb = vb[n:]
		switch {
		case num == eventpb.FieldValueTag && typ == protowire.BytesType:
			tag, n = consumeBytes(vb)
		case num == eventpb.FieldValueNodeName && typ == protowire.BytesType:
			node, n = consumeBytes(vb)
		case num == eventpb.FieldValueSimple && typ == protowire.Fixed32Type:
			var bits uint32
			if bits, n = protowire.ConsumeFixed32(vb); n > 0 {
				digits = vb[:n]
			}
			v, simple = float64(math.Float32frombits(bits)), true
		case num == eventpb.FieldValueTensor && typ == protowire.BytesType:
			tensor, n = consumeBytes(vb)
		case num == eventpb.FieldValueHisto && typ == protowire.BytesType:
			histo, n = consumeBytes(vb)
		default:
			return false // metadata, another kind: the full decoder's work
		}
		if n < 0 {
			return false
		}
		vb = vb[n:]
	}
	if len(tag) == 0 {
		tag = node
	}
	ts := rr.tagAt(idx, tag)
	if histo != nil {
		return !simple && tensor == nil && rr.fastHistogram(ts, idx, tag, histo, wall, step)
	}
	f32 := true
	if tensor != nil {
		// A TF2 scalar after the value that carried its metadata; classify
		// holds a tensor under any other tag to be no scalar.
		if simple || ts == nil || ts.kind != model.KindScalar ||
			ts.plugin != "scalars" && (ts.plugin != "" || ts.dataClass != eventpb.SummaryMetadata_DATA_CLASS_SCALAR) {
			return false
		}
		var ok bool
		if digits, ok = tensorScalar(tensor); !ok {
			return false
		}
		v, f32 = number(digits), len(digits) == 4
	} else if !simple {
		return false
	}
	switch {
	case ts == nil && len(rr.tags) >= maxRunTags:
		return false // the full decoder warns (tagRoom)
	case ts == nil:
		ts = &tagState{name: string(tag), kind: model.KindScalar}
		rr.tags[ts.name] = ts
		rr.remember(idx, ts)
	case ts.kind == "":
		ts.kind = model.KindScalar
	case ts.kind != model.KindScalar:
		return false // let the full decoder report the mix
	}
	rr.addPoint(ts, wall, step, v, f32)
	rr.learn(idx, ts, field, digits)
	return true
}

// addPoint adds a value to the scalar series of ts.
func (rr *runReader) addPoint(ts *tagState, wall float64, step int64, v float64, f32 bool) {
	ts.saw(step, wall)
	ss := ts.scalars
	if ss == nil || ts.started != rr.starts { // one branch on the hot path
		ss = rr.scalarsFor(ts)
	}
	ss.float32 = ss.float32 && f32
	if ps := ss.Points; len(ps) == cap(ps) {
		ss.Grow(rr.expect(len(ps)) - len(ps))
	}
	p := model.Point{WallTime: wall, Step: step, Value: v}
	if !ss.Append(p, rr.attempt) { // a first point, a new attempt, a restart or a rewrite: rare
		if ps := ss.Points; len(ps) > 0 && step <= ps[len(ps)-1].Step {
			rr.stepBack(ss, ps[len(ps)-1].Step, ss.LastAttempt(), step)
		}
		ss.Add(p, rr.attempt, rr.noRule)
	}
}

// scalarsFor returns the tag's points, caught up with the run's STARTs
// and created on its first value.
func (rr *runReader) scalarsFor(ts *tagState) *scalarSeries {
	if ts.started != rr.starts {
		rr.catchUp(ts)
	}
	return ts.scalarsOf(rr.rule == model.RestartsAttempts)
}

// learn remembers the layout of a scalar value that fastScalar added, the
// idx-th of its summary, when its number (a slice of field) ends it: the
// bytes before the number are then all that decided what became of it.
func (rr *runReader) learn(idx int, ts *tagState, field, num []byte) {
	// Slices of one array share its end, so their capacities locate them.
	if idx >= len(rr.tb.recent) || rr.tb.recent[idx].ts != ts || cap(num)-len(num) != cap(field)-len(field) {
		return
	}
	r := &rr.tb.recent[idx]
	r.head = append(r.head[:0], field[:cap(field)-cap(num)]...)
	r.width = len(num)
}

// repeat adds the idx-th value of a summary, which b starts with, when it
// is laid out as learnt for that position, byte for byte but for its
// number, and returns the length of its field, or 0 when it is not.
// Writers log the same tags the same way at every step, so this is how
// nearly every scalar of a big log is read: one comparison of the field's
// leading bytes (its field number and length, the value's tag and the
// encoding of the number) instead of decoding its fields, its tensor and
// looking up its tag.
func (rr *runReader) repeat(idx int, b []byte, wall float64, step int64) int {
	if idx >= len(rr.tb.recent) {
		return 0
	}
	r := &rr.tb.recent[idx]
	n := len(r.head) + r.width
	if r.width == 0 || len(b) < n || string(b[:len(r.head)]) != string(r.head) {
		return 0
	}
	rr.addPoint(r.ts, wall, step, number(b[len(r.head):n]), r.width == 4)
	return n
}

// number decodes a little-endian float32 (4 bytes) or float64 (8 bytes).
func number(b []byte) float64 {
	if len(b) == 4 {
		return float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b))
}

// expect estimates how many values a series that holds n values so far
// will end with, for a series that is full, from how far through the
// run's bytes the reader is. Writers log a tag at a steady rate, so once
// a series holds a few hundred values the estimate is within a few per
// cent, and a series grown to it is copied once or twice instead of the
// dozen times doubling takes, and ends up nearly without slack: the
// copies and the slack were a fifth of the reading time and up to half
// of the memory of big logs. Small series, and series whose estimate
// falls short, grow by at least an eighth.
func (rr *runReader) expect(n int) int {
	const minKnown = 256
	grown := n + max(n/8, 16)
	done := rr.doneBytes + rr.pos
	if n < minKnown || done <= 0 || rr.runBytes <= done {
		return max(grown, 2*n)
	}
	est := float64(n) * float64(rr.runBytes) / float64(done) * 1.02
	if est > float64(1<<40) {
		return max(grown, 2*n)
	}
	return max(grown, int(est))
}

// fastHistogram adds a TF1 histogram (Value.histo) of the tag ts (nil when
// new) and reports whether it did.
func (rr *runReader) fastHistogram(ts *tagState, idx int, tag, histo []byte, wall float64, step int64) bool {
	if ts != nil && ts.kind != "" && ts.kind != model.KindHistogram {
		return false // let the full decoder report the mix
	}
	rows, sum, ok := histpb.ParseProto(histo)
	if !ok {
		return false
	}
	if ts == nil {
		if len(rr.tags) >= maxRunTags {
			return false // the full decoder warns (tagRoom)
		}
		ts = &tagState{name: string(tag)}
		rr.tags[ts.name] = ts
		rr.remember(idx, ts)
	}
	ts.kind = model.KindHistogram
	ts.saw(step, wall)
	rr.checkWidths(rows, ts.name, step, rr.pos)
	keep(rr, ts, histogramList, step, model.HistogramEntry{WallTime: wall, Step: step, Summary: sum, Buckets: rows})
	return true
}

// tensorScalar finds the number of the commonest scalar tensors, a
// float32 or float64 of rank 0 in tensor_content or in a one-element
// float_val or double_val, and reports whether it could; the full decoder
// takes the rest. The number is returned as its little-endian bytes, a
// slice of b (see number).
func tensorScalar(b []byte) (num []byte, ok bool) {
	var dtype uint64
	var content, vals []byte
	valsType := protowire.Number(0)
	for len(b) > 0 {
		num, typ, n := consumeTag(b)
		if n < 0 {
			return nil, false
		}
		b = b[n:]
		switch {
		case num == eventpb.FieldTensorDtype && typ == protowire.VarintType:
			dtype, n = consumeVarint(b)
		case num == eventpb.FieldTensorShape && typ == protowire.BytesType:
			var shape []byte
			if shape, n = consumeBytes(b); len(shape) > 0 {
				return nil, false // a dimension: leave it to the full decoder
			}
		case num == eventpb.FieldTensorContent && typ == protowire.BytesType:
			content, n = consumeBytes(b)
		case (num == eventpb.FieldTensorFloat || num == eventpb.FieldTensorDouble) && typ == protowire.BytesType:
			vals, n = consumeBytes(b)
			valsType = num
		default:
			return nil, false
		}
		if n < 0 {
			return nil, false
		}
		b = b[n:]
	}
	switch {
	case dtype == uint64(eventpb.DataType_DT_FLOAT) && len(content) == 4 && vals == nil,
		dtype == uint64(eventpb.DataType_DT_DOUBLE) && len(content) == 8 && vals == nil:
		return content, true
	case dtype == uint64(eventpb.DataType_DT_FLOAT) && content == nil && valsType == eventpb.FieldTensorFloat && len(vals) == 4,
		dtype == uint64(eventpb.DataType_DT_DOUBLE) && content == nil && valsType == eventpb.FieldTensorDouble && len(vals) == 8:
		return vals, true
	}
	return nil, false
}

// saw counts a value of the tag, whatever becomes of it.
func (ts *tagState) saw(step int64, wall float64) {
	if ts.seen == 0 {
		ts.firstStep, ts.firstWall = step, wall
	}
	ts.seen++
	ts.lastStep, ts.lastWall = step, wall
}

// bounds extends the run's step and time bounds with an event's.
func (rr *runReader) bounds(wall float64, step int64, fileVersion bool) {
	run := rr.run
	if fileVersion || wall <= 0 {
		return
	}
	if !run.HasEvents {
		run.HasEvents = true
		run.Start, run.End = wall, wall
		run.FirstStep, run.LastStep = step, step
	}
	run.Start, run.End = min(run.Start, wall), max(run.End, wall)
	run.FirstStep, run.LastStep = min(run.FirstStep, step), max(run.LastStep, step)
}

// recentTag is the tag last seen at one position of a summary, and the
// layout of its value there when that was a scalar (see learn).
type recentTag struct {
	tag   string
	ts    *tagState
	head  []byte // the bytes of the value's field before its number
	width int    // the number's: 4 or 8, 0 when no layout is known
}

// tagAt finds the state of the tag of the idx-th value of a summary.
// Writers log the same tags in the same order at every step, so the tag
// last seen at that position usually matches, and a byte comparison
// saves hashing the tag.
func (rr *runReader) tagAt(idx int, tag []byte) *tagState {
	if idx < len(rr.tb.recent) && rr.tb.recent[idx].tag == string(tag) {
		return rr.tb.recent[idx].ts
	}
	ts := rr.tags[string(tag)] // no allocation for a known tag
	if ts != nil {
		rr.remember(idx, ts)
	}
	return ts
}

func (rr *runReader) remember(idx int, ts *tagState) {
	const maxRecent = 256
	if idx >= maxRecent {
		return
	}
	for len(rr.tb.recent) <= idx {
		rr.tb.recent = append(rr.tb.recent, recentTag{})
	}
	if r := &rr.tb.recent[idx]; r.ts != ts {
		r.tag, r.ts, r.width = ts.name, ts, 0
	}
}

// consumeTag, consumeBytes and consumeVarint are protowire's, with the
// one-byte case that nearly every field of a log takes inlined at the
// call (the rest goes through a call that is not): the fast path spends
// most of its time on these three.
func consumeTag(b []byte) (protowire.Number, protowire.Type, int) {
	if len(b) == 0 || b[0] < 1<<3 || b[0] >= 0x80 { // field 0 is invalid: protowire reports it
		return slowTag(b)
	}
	return protowire.Number(b[0] >> 3), protowire.Type(b[0] & 7), 1
}

func consumeBytes(b []byte) ([]byte, int) {
	if len(b) == 0 || b[0] >= 0x80 || int(b[0]) >= len(b) {
		return slowBytes(b)
	}
	return b[1 : 1+b[0]], 1 + int(b[0])
}

func consumeVarint(b []byte) (uint64, int) {
	if len(b) == 0 || b[0] >= 0x80 {
		return slowVarint(b)
	}
	return uint64(b[0]), 1
}

//go:noinline
func slowTag(b []byte) (protowire.Number, protowire.Type, int) { return protowire.ConsumeTag(b) }

//go:noinline
func slowBytes(b []byte) ([]byte, int) { return protowire.ConsumeBytes(b) }

//go:noinline
func slowVarint(b []byte) (uint64, int) { return protowire.ConsumeVarint(b) }
