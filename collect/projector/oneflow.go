package projector

import (
	"fmt"
	"io"
	"math"

	"github.com/trainreport/trainreport/collect/eventpb"
	"google.golang.org/protobuf/encoding/protowire"
)

// maxProjectors bounds the projectors of one OneFlow file (the writer puts
// one in each).
const maxProjectors = 10_000

// ReadOneFlow reads a OneFlow projector file: one raw
// OneFlowSummaryProjector, no framing. Its MetaData says whether it holds
// embeddings or exceptions; without MetaData, exceptions says so (the
// file's name: projector.gradit.<sec>.log). The file is walked, not
// loaded: tensors stay in it.
func ReadOneFlow(root *Root, p string, exceptions bool) Result {
	var res Result
	rel := p
	f, err := root.open(p)
	if err != nil {
		res.Damaged = true
		res.problem(rel, -1, "cannot read: %v", err)
		return res
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		res.Damaged = true
		res.problem(rel, -1, "cannot read: %v", err)
		return res
	}
	readOneFlow(&res, f, fi.Size(), root.at(p), rel, exceptions)
	return res
}

// oneFlowProjector is a Projector found by the walker.
type oneFlowProjector struct {
	tag          string
	step         int64
	wall         float64
	value, label *npTensor
	at           int64 // offset of the message
}

func readOneFlow(res *Result, r io.ReaderAt, size int64, p location, rel string, exceptions bool) {
	w := &wire{r: r, end: size}
	var projs []oneFlowProjector
	var sample *Sample
	var f field
	for w.next(&f) {
		if f.typ != protowire.BytesType {
			continue
		}
		switch f.num {
		case eventpb.FieldOneFlowProjectors:
			if len(projs) == maxProjectors {
				res.problem(rel, f.off, "more than %d projectors; the rest are skipped", maxProjectors)
				w.off = w.end
				continue
			}
			pr, err := readOneFlowProjector(w.sub(f))
			if err != nil {
				res.Damaged = true
				res.problem(rel, f.off, "projector: %v", err)
				continue
			}
			pr.at = f.off
			projs = append(projs, pr)
		case eventpb.FieldOneFlowSample:
			s, err := readOneFlowSample(w.sub(f), p)
			if err != nil {
				res.Damaged = true
				res.problem(rel, f.off, "sample: %v", err)
				continue
			}
			sample = s
		case eventpb.FieldOneFlowMetadata:
			m := w.sub(f)
			exceptions = false // present: its type decides, 0 being an embedding
			var g field
			for m.next(&g) {
				if g.num == eventpb.FieldOneFlowMetaType && g.typ == protowire.VarintType {
					exceptions = g.v == 1
				}
			}
		}
	}
	if w.err != nil {
		res.Damaged = true
		res.problem(rel, w.off, "not a OneFlow projector file: %v", w.err)
	}
	if size == 0 {
		return
	}
	for _, pr := range projs {
		if exceptions {
			addException(res, SourceOneFlow, pr.tag, pr.step, pr.wall, pr.value, p, rel, pr.at)
			continue
		}
		e := &Embedding{Name: pr.tag, Source: SourceOneFlow, File: rel, Step: pr.step, WallTime: pr.wall, Sample: sample}
		embeddingTensors(res, r, e, pr.value, pr.label, p, rel, pr.at)
		res.Embeddings = append(res.Embeddings, e)
	}
}

func readOneFlowProjector(w *wire) (oneFlowProjector, error) {
	var pr oneFlowProjector
	var f field
	for w.next(&f) {
		switch {
		case f.num == eventpb.FieldOneFlowTag && f.typ == protowire.BytesType:
			pr.tag = w.str(f, 1<<12)
		case f.num == eventpb.FieldOneFlowStep && f.typ == protowire.VarintType:
			pr.step = int64(f.v)
		case f.num == eventpb.FieldOneFlowWallTime && f.typ == protowire.Fixed64Type:
			pr.wall = math.Float64frombits(f.v)
		case (f.num == eventpb.FieldOneFlowValue || f.num == eventpb.FieldOneFlowLabel) && f.typ == protowire.BytesType:
			t, err := readTensor(w.sub(f))
			if err != nil {
				return pr, err
			}
			if f.num == eventpb.FieldOneFlowValue {
				pr.value = &t
			} else {
				pr.label = &t
			}
		}
	}
	return pr, w.err
}

func readOneFlowSample(w *wire, p location) (*Sample, error) {
	s := &Sample{Type: "image"} // OneFlow's SampleType 0
	var f field
	for w.next(&f) {
		switch {
		case f.num == eventpb.FieldOneFlowSampleName && f.typ == protowire.BytesType:
			s.Name = w.str(f, 1<<12)
		case f.num == eventpb.FieldOneFlowSampleType && f.typ == protowire.VarintType:
			s.Type = map[uint64]string{0: "image", 1: "audio", 2: "text"}[f.v]
		case f.num == eventpb.FieldOneFlowSampleX && f.typ == protowire.BytesType:
			t, err := readTensor(w.sub(f))
			if err != nil {
				return nil, err
			}
			s.Tensor = TensorRef{BlobRef: p.ref(t.off, t.n), Format: FormatRaw, DType: t.dtype, Shape: t.shape}
		}
	}
	if s.Type == "" {
		s.Type = "unknown"
	}
	return s, w.err
}

// checkTensor checks that a tensor's content matches its dtype and shape
// and stays under limit values.
func checkTensor(t *npTensor, limit int64) (dtype, int64, error) {
	d, err := parseDType(t.dtype)
	if err != nil {
		return d, 0, err
	}
	n, err := elements(t.shape, limit)
	if err != nil {
		return d, 0, fmt.Errorf("%w (%v)", err, errTooLarge)
	}
	if want := n * int64(d.size); t.n != want {
		return d, 0, fmt.Errorf("%d content bytes for shape %v of %s, want %d", t.n, t.shape, t.dtype, want)
	}
	return d, n, nil
}

// embeddingTensors sets an embedding's shape and points from its value
// tensor and its metadata from its label tensor, read from src, refusing
// what is over the limits. Offsets are offsets in the file p.
func embeddingTensors(res *Result, src io.ReaderAt, e *Embedding, value, label *npTensor, p location, rel string, at int64) {
	if value == nil {
		res.problem(rel, at, "embedding %q at step %d has no value tensor", e.Name, e.Step)
		return
	}
	e.Shape = value.shape
	switch {
	case len(value.shape) < 2:
		res.problem(rel, at, "embedding %q at step %d: shape %v is not [points, dims...]", e.Name, e.Step, value.shape)
	case value.shape[0] > MaxPoints || value.shape[0] < 0:
		res.problem(rel, at, "embedding %q at step %d refused: %d points, over the limit of %d", e.Name, e.Step, value.shape[0], MaxPoints)
	default:
		if _, err := elements(value.shape[1:], MaxDims); err != nil {
			res.problem(rel, at, "embedding %q at step %d refused: more than %d values per point: %v", e.Name, e.Step, MaxDims, err)
			break
		}
		d, _, err := checkTensor(value, MaxPoints*MaxDims)
		if err != nil {
			res.problem(rel, at, "embedding %q at step %d: value tensor: %v", e.Name, e.Step, err)
			break
		}
		if !d.numeric() {
			res.problem(rel, at, "embedding %q at step %d: value tensor of %s is not numeric", e.Name, e.Step, value.dtype)
			break
		}
		e.Points = &TensorRef{BlobRef: p.ref(value.off, value.n), Format: FormatRaw, DType: value.dtype, Shape: value.shape}
	}
	if label != nil {
		e.Metadata = labels(res, src, e, label, rel, at)
	}
}

// labels reads a label tensor ([points] or [points, 1]) into a one-column
// metadata table.
func labels(res *Result, src io.ReaderAt, e *Embedding, t *npTensor, rel string, at int64) *Metadata {
	d, n, err := checkTensor(t, MaxPoints)
	if err == nil && n*int64(d.size) > MaxMetadataBytes {
		err = fmt.Errorf("%d bytes (%v)", n*int64(d.size), errTooLarge)
	}
	if err != nil {
		res.problem(rel, at, "embedding %q at step %d: labels refused: %v", e.Name, e.Step, err)
		return nil
	}
	b := make([]byte, t.n)
	if m, err := src.ReadAt(b, t.off); m < len(b) {
		res.problem(rel, at, "embedding %q: labels: %v", e.Name, err)
		return nil
	}
	md := &Metadata{Columns: []string{"label"}, Rows: make([][]string, n)}
	for i := range md.Rows {
		md.Rows[i] = []string{d.text(b[int64(i)*int64(d.size) : int64(i+1)*int64(d.size)])}
	}
	if pts := e.NumPoints(); pts > 0 && int64(pts) != n {
		res.problem(rel, at, "embedding %q at step %d: %d points but %d labels", e.Name, e.Step, pts, n)
	}
	return md
}

// addException adds the tensor of tag at step to the exception series of
// res.
func addException(res *Result, source, tag string, step int64, wall float64, value *npTensor, p location, rel string, at int64) {
	if value == nil {
		res.problem(rel, at, "exception %q at step %d has no tensor", tag, step)
		return
	}
	d, _, err := checkTensor(value, MaxTensorValues)
	if err == nil && !d.numeric() {
		err = fmt.Errorf("dtype %s is not numeric", value.dtype)
	}
	if err != nil {
		res.problem(rel, at, "exception %q at step %d refused: %v", tag, step, err)
		return
	}
	var ex *Exception
	for _, x := range res.Exceptions {
		if x.Tag == tag {
			ex = x
		}
	}
	if ex == nil {
		ex = &Exception{Tag: tag, Source: source}
		res.Exceptions = append(res.Exceptions, ex)
	}
	ex.Entries = append(ex.Entries, ExceptionEntry{Step: step, WallTime: wall, File: rel,
		Tensor: TensorRef{BlobRef: p.ref(value.off, value.n), Format: FormatRaw, DType: value.dtype, Shape: value.shape}})
}
