package projector

import (
	"fmt"
	"io"
	"math"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

// tsvisSampleTypes names TS-VIS's Sample.SampleType values.
var tsvisSampleTypes = map[uint64]string{1: "audio", 2: "text", 3: "image"}

// ReadTSVIS reads the projector values of a TS-VIS projector event file
// (projector.events.out.*): Summary.Value field 7 holds a Projector, an
// embedding (points and labels of a tag at a step, or in a record of its
// own the samples behind them) or an exception (a watched tensor of a tag
// at a step). Everything else in the file, and its framing damage, is the
// event reader's: records that are not projector values are passed over
// silently.
func ReadTSVIS(root *Root, p string) Result {
	var res Result
	rel := p
	f, err := root.open(p)
	if err != nil {
		res.Damaged = true
		res.problem(rel, -1, "cannot read: %v", err)
		return res
	}
	defer f.Close()
	readTSVIS(&res, f, root.at(p), rel)
	return res
}

// recordAt reads a record in memory by file offsets.
type recordAt struct {
	b    []byte
	base int64 // file offset of b[0]
}

func (r recordAt) ReadAt(p []byte, off int64) (int, error) {
	off -= r.base
	if off < 0 || off > int64(len(r.b)) {
		return 0, io.EOF
	}
	n := copy(p, r.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func readTSVIS(res *Result, f io.Reader, p location, rel string) {
	samples := map[string]*Sample{}
	tr := tfrecord.NewReader(f, rel)
	for tr.Next() {
		if tr.Record() == nil {
			continue // damaged: the event reader reports it
		}
		src := recordAt{b: tr.Record(), base: tr.DataOffset()}
		ev := &wire{r: src, off: src.base, end: src.base + int64(len(src.b))}
		var step int64
		var wall float64
		var summaries []field
		var fl field
		for ev.next(&fl) {
			switch {
			case fl.num == eventpb.FieldEventWallTime && fl.typ == protowire.Fixed64Type:
				wall = math.Float64frombits(fl.v)
			case fl.num == eventpb.FieldEventStep && fl.typ == protowire.VarintType:
				step = int64(fl.v)
			case fl.num == eventpb.FieldEventSummary && fl.typ == protowire.BytesType:
				summaries = append(summaries, fl)
			}
		}
		if ev.err != nil {
			continue // not an Event: the event reader reports it
		}
		for _, sf := range summaries {
			sum := ev.sub(sf)
			for sum.next(&fl) {
				if fl.num == eventpb.FieldSummaryValue && fl.typ == protowire.BytesType {
					tsvisValue(res, src, ev.sub(fl), step, wall, p, rel, samples)
				}
			}
		}
	}
	// Samples come in records of their own, under the embedding's tag.
	for _, e := range res.Embeddings {
		if s := samples[e.Name]; s != nil {
			e.Sample = s
		}
	}
}

// tsvisValue reads one Summary.Value; only projector values yield anything.
func tsvisValue(res *Result, src io.ReaderAt, w *wire, step int64, wall float64, p location, rel string, samples map[string]*Sample) {
	at := w.off
	var tag, plugin string
	var proj *field
	var f field
	for w.next(&f) {
		if f.typ != protowire.BytesType {
			continue
		}
		switch f.num {
		case eventpb.FieldTsvisValueTag:
			tag = w.str(f, 1<<12)
		case eventpb.FieldTsvisValueProjector:
			g := f
			proj = &g
		case eventpb.FieldTsvisValueMetadata:
			plugin = pluginName(w.sub(f))
		}
	}
	if w.err != nil || proj == nil {
		return
	}
	// Field 7 is TensorBoard's node_name string in other writers' files:
	// only complain about what does not parse when the plugin says it is a
	// projector value.
	claimed := plugin == "embeddings" || plugin == "exceptions"
	var emb, exc *field
	pw := w.sub(*proj)
	for pw.next(&f) {
		if f.typ == protowire.BytesType && (f.num == eventpb.FieldTsvisEmbedding || f.num == eventpb.FieldTsvisException) {
			g := f
			if f.num == eventpb.FieldTsvisEmbedding {
				emb = &g
			} else {
				exc = &g
			}
		}
	}
	bad := func(err error) {
		if claimed {
			res.problem(rel, at, "projector value %q at step %d: %v", tag, step, err)
		}
	}
	if pw.err != nil {
		bad(pw.err)
		return
	}
	switch {
	case exc != nil:
		var value *npTensor
		xw := w.sub(*exc)
		for xw.next(&f) {
			if f.num == eventpb.FieldTsvisExceptionValue && f.typ == protowire.BytesType {
				t, err := readTensor(w.sub(f))
				if err != nil {
					bad(err)
					return
				}
				value = &t
			}
		}
		if xw.err != nil {
			bad(xw.err)
			return
		}
		addException(res, SourceTSVIS, tag, step, wall, value, p, rel, at)
	case emb != nil:
		var value, label *npTensor
		var sample *Sample
		ew := w.sub(*emb)
		for ew.next(&f) {
			if f.typ != protowire.BytesType {
				continue
			}
			switch f.num {
			case eventpb.FieldTsvisEmbeddingValue, eventpb.FieldTsvisEmbeddingLabel:
				t, err := readTensor(w.sub(f))
				if err != nil {
					bad(err)
					return
				}
				if f.num == eventpb.FieldTsvisEmbeddingValue {
					value = &t
				} else {
					label = &t
				}
			case eventpb.FieldTsvisEmbeddingSample:
				s, err := tsvisSample(w.sub(f), tag, p)
				if err != nil {
					bad(err)
					return
				}
				sample = s
			}
		}
		if ew.err != nil {
			bad(ew.err)
			return
		}
		if sample != nil && value == nil {
			samples[tag] = sample
			return
		}
		e := &Embedding{Name: tag, Source: SourceTSVIS, File: rel, Step: step, WallTime: wall, Sample: sample}
		embeddingTensors(res, src, e, value, label, p, rel, at)
		res.Embeddings = append(res.Embeddings, e)
	default:
		bad(fmt.Errorf("neither an embedding nor an exception"))
	}
}

func pluginName(w *wire) string {
	var f field
	for w.next(&f) {
		if f.num == eventpb.FieldMetadataPluginData && f.typ == protowire.BytesType {
			pd := w.sub(f)
			var g field
			for pd.next(&g) {
				if g.num == eventpb.FieldPluginDataPluginName && g.typ == protowire.BytesType {
					return pd.str(g, 256)
				}
			}
		}
	}
	return ""
}

func tsvisSample(w *wire, tag string, p location) (*Sample, error) {
	s := &Sample{Name: tag, Type: "unknown"}
	var f field
	for w.next(&f) {
		switch {
		case f.num == eventpb.FieldTsvisSampleType && f.typ == protowire.VarintType:
			if t, ok := tsvisSampleTypes[f.v]; ok {
				s.Type = t
			}
		case f.num == eventpb.FieldTsvisSampleX && f.typ == protowire.BytesType:
			t, err := readTensor(w.sub(f))
			if err != nil {
				return nil, err
			}
			s.Tensor = TensorRef{BlobRef: p.ref(t.off, t.n), Format: FormatRaw, DType: t.dtype, Shape: t.shape}
		}
	}
	return s, w.err
}

// IsTSVISValue reports whether a serialized Summary.Value is a TS-VIS
// projector value: field 7 holding a Projector message rather than
// TensorBoard's node_name string, under the plugin "embeddings" or
// "exceptions", or not text at all. ReadTSVIS reads those; an event reader
// passes them over.
func IsTSVISValue(v []byte) bool {
	var proj []byte
	plugin := ""
	for len(v) > 0 {
		num, typ, n := protowire.ConsumeTag(v)
		if n < 0 {
			return false
		}
		v = v[n:]
		if typ != protowire.BytesType {
			if n = protowire.ConsumeFieldValue(num, typ, v); n < 0 {
				return false
			}
			v = v[n:]
			continue
		}
		b, n := protowire.ConsumeBytes(v)
		if n < 0 {
			return false
		}
		v = v[n:]
		switch num {
		case eventpb.FieldTsvisValueProjector:
			proj = b
		case eventpb.FieldTsvisValueMetadata:
			src := recordAt{b: b}
			plugin = pluginName(&wire{r: src, end: int64(len(b))})
		}
	}
	switch {
	case proj == nil:
		return false
	case plugin == "embeddings" || plugin == "exceptions":
		return true
	}
	return !utf8.Valid(proj)
}
