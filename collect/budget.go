package collect

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/eventpb"
)

// Budgets on what a run's values may cost beyond their bytes on disk. Logs
// are untrusted: a tensor's shape is only a claim, and a tensor that
// stores one value where its shape claims more is filled with it (see
// event.FillCost), so a few bytes could otherwise claim gigabytes. Each
// value over a budget is skipped with a warning at its record's offset;
// the rest of the run loads.
const (
	// maxRunFill bounds the elements filled in over a whole run (each
	// record is also bounded by event.FillLimit of its own bytes): 4M
	// elements, 32 MB as float64, whatever the number of records. Writers
	// fill a few small tensors at most (event.FillFloor), so a run that
	// reaches this is not a writer's.
	maxRunFill = 1 << 22

	// maxFill bounds the elements filled in over a whole collection,
	// shared among the runs in proportion to their bytes (runFillLimit):
	// each run's own budget alone would multiply with the runs (16 runs of
	// small filled text tensors in 785 KB took 2.1 GB). 4M elements: some
	// 200 MB as strings, and writing them out as text data files (250 MB
	// for 8M) took most of 10 s.
	maxFill = 1 << 22

	// maxTensorStrings bounds the elements of one string tensor: the cells
	// of a text value, the images of a batch, the clips of an audio value.
	// Every text cell is a Markdown document of its own to render (some
	// 7 µs each, more in a single-file report: a million empty strings took
	// 44 s), and decoding costs some 60 bytes a string, however short
	// (protobuf's slice of them), while a text summary someone reads is a
	// message or a table of a few hundred rows, and a batch of images a
	// few dozen. 65,536 cells is a table of 16,384 rows of 4 columns.
	// Stored strings are counted on the wire before the value is decoded
	// (see fastEvent); filled ones after (addText).
	maxTensorStrings = 1 << 16

	// maxRunTags bounds the distinct tags of a run, of every kind. The
	// report makes a data file or two per run and tag (and the pages a
	// chart or card): 60,000 one-value tags fit in 900 KB and made
	// 120,044 files, 513 MB, where the runs of real logs hold tens to a
	// few thousand tags (per-layer statistics of a large model). The
	// tags first met are kept; values of any later tag are skipped
	// before anything is allocated for it, with a warning in each file
	// that holds some (tagRoom).
	maxRunTags = 10_000
)

// tagRoom reports whether the run may take tag, a tag new to it, seen at
// offset of the file being read: whether it holds fewer than maxRunTags.
// The first tag refused in each file is a warning naming it. (The fast
// path hands a value of a new tag past the budget to the full decoder,
// which asks.)
func (rr *runReader) tagRoom(tag string, offset int64) bool {
	if len(rr.tags) < maxRunTags {
		return true
	}
	if rr.tagsFullIn != rr.file {
		rr.tagsFullIn = rr.file
		rr.warn(offset, "the run holds %d tags, the most a run may: tag %q and every other tag new from here on in this file skipped", maxRunTags, tag)
	}
	return false
}

// runFillLimit is a run's budget of filled elements: FillPerByte per byte
// of its files, as a record's is (event.FillLimit), and at most its share
// of maxFill by its bytes among the runs' total, but at least a floor that
// lets a small run fill one small tensor, event.FillFloor shared among the
// runs so that many tiny runs cannot multiply it; at most maxRunFill. All
// runs together stay within 2 x maxFill. Shares set ahead keep the report
// the same whichever run is read first.
func runFillLimit(runBytes, totalBytes int64, runs int) int64 {
	limit := event.FillPerByte * runBytes
	if totalBytes > 0 {
		limit = min(limit, int64(float64(maxFill)*float64(runBytes)/float64(totalBytes)))
	}
	floor := int64(event.FillFloor)
	if runs > 0 {
		floor = min(floor, maxFill/int64(runs))
	}
	return min(maxRunFill, max(floor, limit))
}

// chargeFill counts the fill of the tensor t, a value of the record rec,
// against the record's budget (event.FillLimit of its bytes) and the
// run's (maxRunFill), and returns an error, leaving both unchanged, when
// either would be passed or t's own bytes do not allow it.
func (rr *runReader) chargeFill(t *eventpb.TensorProto, rec record) error {
	cost := event.FillCost(t)
	if cost == 0 {
		return nil
	}
	if rec.rel != rr.fillFile || rec.base != rr.fillBase { // a new record
		rr.fillFile, rr.fillBase, rr.recordFill = rec.rel, rec.base, 0
	}
	shape := event.Shape(t)
	if limit := event.FillLimit(proto.Size(t)); cost > limit {
		return fmt.Errorf("tensor of shape %v stores one value; filling its shape would cost %d elements, over the %d its bytes allow; value skipped",
			shape, cost, limit)
	}
	if limit := event.FillLimit(len(rec.data)); cost > limit-rr.recordFill {
		return fmt.Errorf("tensor of shape %v stores one value; filling its shape would cost %d elements, over the %d its %d-byte record allows; value skipped",
			shape, cost, limit-rr.recordFill, len(rec.data))
	}
	if limit := runFillLimit(rr.runBytes, rr.totalBytes, rr.runs); cost > limit-rr.runFill {
		return fmt.Errorf("tensor of shape %v stores one value; filling its shape would cost %d elements, over what is left (%d) of the run's budget of %d filled elements; value skipped",
			shape, cost, limit-rr.runFill, limit)
	}
	rr.recordFill += cost
	rr.runFill += cost
	return nil
}
