package collect

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	pb "github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/histogram"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

// Tests of the budgets that keep untrusted logs from costing more than
// their bytes (budget.go): each writes its own small log, and checks that
// the value over budget is skipped with a warning at its file and offset,
// that the rest of the run loads, and that memory stays bounded (time is
// bounded by bounding the work, so no test measures it).

// allocated returns the bytes f allocates on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// maxAlloc is the generous bound on what reading one of these small logs
// may allocate.
const maxAlloc = 64 << 20

// shapeOf returns a tensor shape of the given dimensions.
func shapeOf(dims ...int64) *pb.TensorShapeProto {
	sh := &pb.TensorShapeProto{}
	for _, d := range dims {
		sh.Dim = append(sh.Dim, &pb.TensorShapeProto_Dim{Size: d})
	}
	return sh
}

// collectAlloc collects dir and returns its only run and what collecting
// allocated.
func collectAlloc(t *testing.T, dir string) (*model.Run, uint64) {
	t.Helper()
	var rep *model.Report
	alloc := allocated(func() { rep = collectDir(t, dir, Options{}) })
	if len(rep.Runs) != 1 {
		t.Fatalf("%d runs", len(rep.Runs))
	}
	return rep.Runs[0], alloc
}

// wantWarningAt fails unless run has a warning at file and offset whose
// message holds msg.
func wantWarningAt(t *testing.T, run *model.Run, file string, offset int64, msg string) {
	t.Helper()
	for _, w := range run.Warnings {
		if w.File == file && w.Offset == offset && strings.Contains(w.Msg, msg) {
			return
		}
	}
	t.Errorf("no warning at %s offset %d saying %q; warnings: %v", file, offset, msg, run.Warnings)
}

// wantLoss fails unless the run's "loss" scalar holds the steps.
func wantLoss(t *testing.T, run *model.Run, steps ...int64) {
	t.Helper()
	if s := findScalar(run, "loss"); s == nil || !slices.Equal(stepsOf(s.Points), steps) {
		t.Errorf("loss = %+v, want steps %v: the rest of the run must load", s, steps)
	}
}

// A tensor whose shape claims 2^20 elements and stores one value used to be
// filled out in full, and then copied: 22 GB from a 10 KB text tensor,
// 5 GB from 7.7 KB of PR curves and histograms. Its fill is now bounded by
// its record's bytes; over it, the value is skipped with a warning at its
// record, and the rest of the run (a scalar before and after, a small
// filled tensor a writer could write) loads.
func TestClaimedShapeDoesNotAmplify(t *testing.T) {
	const claimed = 1 << 20
	long := []byte(strings.Repeat("x", 9000))
	tests := []struct {
		name string
		v    *pb.SummaryValue
		// ok is a small filled value of the same kind, which is kept.
		ok   *pb.SummaryValue
		kept func(*model.Run) int
	}{
		{"text", tensorValue("v", "text", &pb.TensorProto{Dtype: pb.DataType_DT_STRING, TensorShape: shapeOf(claimed), StringVal: [][]byte{long}}),
			tensorValue("v", "text", &pb.TensorProto{Dtype: pb.DataType_DT_STRING, TensorShape: shapeOf(3, 2), StringVal: [][]byte{[]byte("a")}}),
			func(r *model.Run) int {
				if len(r.Texts) == 0 {
					return 0
				}
				if e := r.Texts[0].Entries[0]; !slices.Equal(e.Values, []string{"a", "a", "a", "a", "a", "a"}) {
					t.Errorf("filled text %q", e.Values)
				}
				return len(r.Texts[0].Entries)
			}},
		{"pr curve", tensorValue("v", "pr_curves", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorShape: shapeOf(6, claimed/6), FloatVal: []float32{0.5}}),
			tensorValue("v", "pr_curves", &pb.TensorProto{Dtype: pb.DataType_DT_FLOAT, TensorShape: shapeOf(6, 201), FloatVal: []float32{0}}),
			func(r *model.Run) int {
				if len(r.PRCurves) == 0 {
					return 0
				}
				return len(r.PRCurves[0].Entries)
			}},
		{"histogram", tensorValue("v", "histograms", &pb.TensorProto{Dtype: pb.DataType_DT_DOUBLE, TensorShape: shapeOf(claimed/3, 3), DoubleVal: []float64{1}}),
			tensorValue("v", "histograms", &pb.TensorProto{Dtype: pb.DataType_DT_DOUBLE, TensorShape: shapeOf(30, 3), DoubleVal: []float64{0}}),
			func(r *model.Run) int {
				if len(r.Histograms) == 0 {
					return 0
				}
				return len(r.Histograms[0].Entries)
			}},
		{"tensor", &pb.SummaryValue{Tag: "v", Value: &pb.SummaryValue_Tensor{Tensor: &pb.TensorProto{Dtype: pb.DataType_DT_INT32, TensorShape: shapeOf(1024, 1024), IntVal: []int32{7}}}},
			&pb.SummaryValue{Tag: "v", Value: &pb.SummaryValue_Tensor{Tensor: &pb.TensorProto{Dtype: pb.DataType_DT_INT32, TensorShape: shapeOf(64, 64), IntVal: []int32{7}}}},
			func(r *model.Run) int {
				if len(r.Tensors) == 0 {
					return 0
				}
				vals, err := r.Tensors[0].Entries[0].Load(Decoders())
				if err != nil || len(vals) != 64*64 || vals[4095] != 7 {
					t.Errorf("filled tensor: %d values, %v", len(vals), err)
				}
				return len(r.Tensors[0].Entries)
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			evs := []*pb.Event{fileVersion(), summary(1, simple("loss", 1)), summary(2, tc.ok)}
			for step := int64(3); step < 13; step++ { // ten claims: 10 x 2^20 elements
				evs = append(evs, summary(step, tc.v))
			}
			evs = append(evs, summary(13, simple("loss", 2)))
			b, offs := records(t, evs...)
			writeFiles(t, dir, []file{{ev100, b}})
			run, alloc := collectAlloc(t, dir)
			for i := 3; i < 13; i++ {
				wantWarningAt(t, run, ev100, offs[i], "value skipped")
			}
			wantLoss(t, run, 1, 13)
			if n := tc.kept(run); n != 1 {
				t.Errorf("%d values kept, want the small filled one", n)
			}
			if alloc > maxAlloc {
				t.Errorf("reading allocated %d bytes, want at most %d", alloc, maxAlloc)
			}
		})
	}
}

// The values of one record share its fill budget: each of these tensors
// alone is within event.FillFloor, but the record's bytes allow only one.
func TestRecordFillBudgetIsShared(t *testing.T) {
	fill := func(tag string) *pb.SummaryValue {
		return &pb.SummaryValue{Tag: tag, Value: &pb.SummaryValue_Tensor{Tensor: &pb.TensorProto{
			Dtype: pb.DataType_DT_FLOAT, TensorShape: shapeOf(4000), FloatVal: []float32{1}}}}
	}
	dir := t.TempDir()
	b, offs := records(t, fileVersion(), summary(1, fill("a"), fill("b"), fill("c")), summary(2, simple("loss", 2)))
	writeFiles(t, dir, []file{{ev100, b}})
	run, _ := collectAlloc(t, dir)
	var tags []string
	for _, ts := range run.Tensors {
		tags = append(tags, ts.Tag)
	}
	if !slices.Equal(tags, []string{"a"}) {
		t.Errorf("tensors %v, want only the first of the record", tags)
	}
	wantWarningAt(t, run, ev100, offs[1], `tag "b"`)
	wantWarningAt(t, run, ev100, offs[1], `tag "c"`)
	wantLoss(t, run, 2)
}

// A run's fills are bounded as a whole: records each within their own
// budget add up to maxRunFill, and later fills are skipped.
func TestRunFillBudget(t *testing.T) {
	const per = 4000 // elements each record fills, within event.FillFloor
	// A run's budget is in proportion to its bytes: some 30 bytes a
	// record here, so about 480 elements a record, and a run of small
	// records filling 4,000 each runs out of it.
	n := maxRunFill/per + 10
	evs := []*pb.Event{fileVersion()}
	for i := range n {
		evs = append(evs, summary(int64(i), &pb.SummaryValue{Tag: "t", Value: &pb.SummaryValue_Tensor{Tensor: &pb.TensorProto{
			Dtype: pb.DataType_DT_DOUBLE, TensorShape: shapeOf(per), DoubleVal: []float64{1}}}}))
	}
	evs = append(evs, summary(int64(n), simple("loss", 1)))
	b, offs := records(t, evs...)
	dir := t.TempDir()
	writeFiles(t, dir, []file{{ev100, b}})
	run, alloc := collectAlloc(t, dir)
	kept := int(runFillLimit(int64(len(b)), int64(len(b)), 1) / per)
	if len(run.Tensors) != 1 || len(run.Tensors[0].Entries) != kept {
		t.Fatalf("tensors %d, want one of %d entries", len(run.Tensors), kept)
	}
	wantWarningAt(t, run, ev100, offs[1+kept], "run's budget")
	wantLoss(t, run, int64(n))
	if alloc > maxAlloc {
		t.Errorf("reading allocated %d bytes, want at most %d", alloc, maxAlloc)
	}
	// Runs do not add up past the budget of their bytes: sixteen such runs
	// fill what their bytes allow, not sixteen times a run's budget, and
	// never more than maxFill together.
	many := t.TempDir()
	for i := range 16 {
		writeFiles(t, many, []file{{fmt.Sprintf("r%02d/%s", i, ev100), b}})
	}
	rep := collectDir(t, many, Options{})
	total := 0
	for _, r := range rep.Runs {
		for _, ts := range r.Tensors {
			total += len(ts.Entries)
		}
	}
	if want := int(runFillLimit(int64(len(b)), 16*int64(len(b)), 16)/per) * 16; total != want || total*per > maxFill {
		t.Errorf("16 runs kept %d filled tensors, want %d (at most %d elements)", total, want, maxFill)
	}
}

// A text tensor of a million empty strings (2 MB on disk) took 44 s to
// report: the time is in rendering each cell as Markdown (render's
// textStepOf, one goldmark conversion per cell). A text value holds at
// most maxTextCells cells; a bigger one is skipped with a warning, which
// bounds what any text value costs to draw.
func TestMillionEmptyStringsAreBounded(t *testing.T) {
	const cells = 1_000_000
	empties := make([][]byte, cells)
	for i := range empties {
		empties[i] = []byte{}
	}
	big := tensorValue("t", "text", &pb.TensorProto{Dtype: pb.DataType_DT_STRING, TensorShape: shapeOf(cells), StringVal: empties})
	dir := t.TempDir()
	b, offs := records(t, fileVersion(), summary(1, simple("loss", 1)), summary(2, big),
		summary(3, tensorValue("t", "text", stringTensor([]int64{2}, []byte("a"), []byte("")))), summary(4, simple("loss", 2)))
	writeFiles(t, dir, []file{{ev100, b}})
	run, alloc := collectAlloc(t, dir)
	wantWarningAt(t, run, ev100, offs[2], "over the limit of")
	wantLoss(t, run, 1, 4)
	if len(run.Texts) != 1 || len(run.Texts[0].Entries) != 1 || !slices.Equal(run.Texts[0].Entries[0].Values, []string{"a", ""}) {
		t.Errorf("texts %+v, want the small one", run.Texts)
	}
	if alloc > maxAlloc {
		t.Errorf("reading allocated %d bytes, want at most %d", alloc, maxAlloc)
	}
}

// No single record may abort a report. Each of these used to make render
// fail the whole report (exit 1): a v1 image or clip without bytes (a
// reference to no file, which every stage that reads it back failed on),
// a sample rate that is NaN or +Inf (not JSON), and a TF2 histogram of
// [-1e308, 1e308], whose width overflows to +Inf (re-binned to NaN). Each
// is now a warning at its record, with the value skipped or kept in a form
// later stages handle, and the rest of the run loads.
func TestNoSingleRecordAbortsTheReport(t *testing.T) {
	wav := mediaWAV(8000, 100)
	audio := func(rate float32) *pb.SummaryValue {
		return &pb.SummaryValue{Tag: "v", Value: &pb.SummaryValue_Audio{Audio: &pb.Audio{SampleRate: rate, NumChannels: 1,
			LengthFrames: 100, EncodedAudioString: wav, ContentType: "audio/wav"}}}
	}
	var huge []byte
	for _, f := range []float64{-1e308, 1e308, 5} {
		huge = binary.LittleEndian.AppendUint64(huge, math.Float64bits(f))
	}
	tests := []struct {
		name  string
		v     *pb.SummaryValue
		msg   string
		check func(t *testing.T, r *model.Run)
	}{
		{"v1 image without bytes", &pb.SummaryValue{Tag: "v", Value: &pb.SummaryValue_Image{Image: &pb.Image{Width: 2, Height: 2}}},
			"image holds no bytes", func(t *testing.T, r *model.Run) {
				if len(r.Images) != 0 {
					t.Errorf("images %+v, want none", r.Images)
				}
			}},
		{"v1 audio without bytes", &pb.SummaryValue{Tag: "v", Value: &pb.SummaryValue_Audio{Audio: &pb.Audio{SampleRate: 8000}}},
			"audio holds no bytes", func(t *testing.T, r *model.Run) {
				if len(r.Audio) != 0 {
					t.Errorf("audio %+v, want none", r.Audio)
				}
			}},
		{"NaN sample rate", audio(float32(math.NaN())), "sample rate NaN", wantUnknownRate},
		{"infinite sample rate", audio(float32(math.Inf(1))), "sample rate +Inf", wantUnknownRate},
		{"negative sample rate", audio(-44100), "sample rate -44100", wantUnknownRate},
		{"histogram of overflowing width", tensorValue("v", "histograms", &pb.TensorProto{Dtype: pb.DataType_DT_DOUBLE,
			TensorShape: shapeOf(1, 3), TensorContent: huge}), "no finite width", func(t *testing.T, r *model.Run) {
			if len(r.Histograms) != 1 {
				t.Fatalf("histograms %+v", r.Histograms)
			}
			e := r.Histograms[0].Entries[0]
			if len(e.Buckets) != 1 || e.Buckets[0] != (model.Bucket{Left: -1e308, Right: 1e308, Count: 5}) {
				t.Errorf("rows %v, want them as written", e.Buckets)
			}
			// What the histogram page draws: rows re-binned over their range.
			for i, c := range histogram.Rebin(e.Buckets, e.Min, e.Max, 30) {
				if math.IsNaN(c) || math.IsInf(c, 0) {
					t.Errorf("re-binned bin %d is %v", i, c)
				}
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			b, offs := records(t, fileVersion(), summary(1, simple("loss", 1)), summary(2, tc.v), summary(3, simple("loss", 2)))
			writeFiles(t, dir, []file{{ev100, b}})
			run, _ := collectAlloc(t, dir)
			wantWarningAt(t, run, ev100, offs[2], tc.msg)
			wantLoss(t, run, 1, 3)
			tc.check(t, run)
			// Every payload kept can be read back, as render reads it.
			for _, im := range run.Images {
				for _, e := range im.Entries {
					for _, it := range e.Images {
						if _, err := it.Data.Read(); err != nil {
							t.Errorf("image: %v", err)
						}
					}
				}
			}
			for _, a := range run.Audio {
				for _, e := range a.Entries {
					for _, c := range e.Clips {
						if _, err := c.Data.Read(); err != nil {
							t.Errorf("clip: %v", err)
						}
					}
				}
			}
		})
	}
}

// wantUnknownRate checks that the clip of a bad sample rate is kept, with
// its rate unknown (0) instead of a number no later stage can use.
func wantUnknownRate(t *testing.T, r *model.Run) {
	t.Helper()
	if len(r.Audio) != 1 || len(r.Audio[0].Entries) != 1 {
		t.Fatalf("audio %+v, want the clip kept", r.Audio)
	}
	if c := r.Audio[0].Entries[0].Clips[0]; c.SampleRate != 0 || c.Frames != 100 {
		t.Errorf("clip rate %v, frames %d; want 0 (unknown) and 100", c.SampleRate, c.Frames)
	}
}

// A record whose valid header announces 256 MiB (over a hole: the file is
// sparse) used to cost 22 s and 1.3 GB before its checksum failed; it is
// now skipped unread with a warning at its offset, and the records after
// it load.
func TestHugeRecordDoesNotStopTheRun(t *testing.T) {
	const length = 256 << 20
	dir := t.TempDir()
	head, _ := records(t, fileVersion(), summary(1, simple("loss", 1)))
	var hdr [12]byte
	binary.LittleEndian.PutUint64(hdr[:8], length)
	binary.LittleEndian.PutUint32(hdr[8:], tfrecord.MaskedCRC(hdr[:8]))
	writeFiles(t, dir, []file{{ev100, append(head, hdr[:]...)}})
	p := filepath.Join(dir, ev100)
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	tail := eventFile(t, summary(2, simple("loss", 2)))
	if _, err := f.WriteAt(tail, int64(len(head))+12+length+4); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	run, alloc := collectAlloc(t, dir)
	wantWarningAt(t, run, ev100, int64(len(head)), "skipped unread")
	wantLoss(t, run, 1, 2)
	if alloc > maxAlloc {
		t.Errorf("reading allocated %d bytes, want at most %d", alloc, maxAlloc)
	}
}

// billionLaughs returns an hparams.yaml whose mapping nests `levels`
// levels of `fan` aliases to the level below under one key of keyLen
// bytes: every hyperparameter's name starts with that key.
func billionLaughs(keyLen, fan, levels int) []byte {
	var level func(i int) string
	level = func(i int) string {
		if i == 0 {
			return "1"
		}
		s := fmt.Sprintf("{k0: &a%d %s", i-1, level(i-1))
		for j := 1; j < fan; j++ {
			s += fmt.Sprintf(", k%d: *a%d", j, i-1)
		}
		return s + "}"
	}
	return []byte("lr: 0.1\n? " + strings.Repeat("K", keyLen) + "\n: " + level(levels) + "\n")
}

// A 10 KB hparams.yaml with one long key expanded through aliases (billion
// laughs) made 10,000 names of 9.5 KB (1.7 GB and 275 MB of report); the
// YAML library's own alias limit applies only to decoding into Go values,
// not to the node tree read here, and counts nodes, not bytes. Flattening
// is now bounded in bytes produced and in entries; past either the file is
// not read, with a warning naming it, and the run's event files load.
func TestHParamsYAMLAliasesAreBounded(t *testing.T) {
	for _, tc := range []struct {
		name string
		yaml []byte
		msg  string
	}{
		{"long key", billionLaughs(9500, 10, 4), "bytes once flattened"},
		{"many entries", billionLaughs(1, 11, 4), "more than 10000 hyperparameters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.yaml) > 10<<10 {
				t.Fatalf("the file is %d bytes", len(tc.yaml))
			}
			dir := t.TempDir()
			writeFiles(t, dir, []file{{ev100, eventFile(t, fileVersion(), summary(1, simple("loss", 1)))}, {"hparams.yaml", tc.yaml}})
			run, alloc := collectAlloc(t, dir)
			wantWarningAt(t, run, "hparams.yaml", -1, tc.msg)
			wantLoss(t, run, 1)
			if run.HParams != nil && len(run.HParams.Sessions) > 0 {
				t.Errorf("sessions %+v, want none from the file", run.HParams.Sessions)
			}
			if alloc > maxAlloc {
				t.Errorf("reading allocated %d bytes, want at most %d", alloc, maxAlloc)
			}
		})
	}
	// Within the bounds, aliases are read as before.
	hps, err := parseHParamsYAML(billionLaughs(10, 10, 3))
	if err != nil || len(hps) != 1+1000 {
		t.Errorf("%d hyperparameters, %v; want 1,001", len(hps), err)
	}
}

// A Keras model whose long model names nest deep (8.5 KB decoding to
// 4.6 MB of layer names) is read within graph's bounds on names and
// scopes; what is left out is a warning at the model's payload, and the
// run loads.
func TestKerasLongScopesWarn(t *testing.T) {
	inner := strings.TrimSuffix(strings.Repeat("{}, ", 500), ", ")
	for i := range 30 {
		inner = fmt.Sprintf(`{"class_name": "Sequential", "config": {"name": "%d%s", "layers": [%s]}}`, i, strings.Repeat("n", 150), inner)
	}
	model := tensorValue("keras", "graph_keras_model", stringTensor(nil, []byte(inner)))
	dir := t.TempDir()
	writeFiles(t, dir, []file{{ev100, eventFile(t, fileVersion(), summary(0, model), summary(1, simple("loss", 1)))}})
	run, alloc := collectAlloc(t, dir)
	if len(run.Graphs) != 1 {
		t.Fatalf("graphs %+v", run.Graphs)
	}
	wantWarningAt(t, run, ev100, run.Graphs[0].Data.Offset, "scoped names pass")
	wantLoss(t, run, 1)
	if alloc > maxAlloc {
		t.Errorf("reading allocated %d bytes, want at most %d", alloc, maxAlloc)
	}
}

// A TF2 image value of 60,000 one-byte "images" (a 180 KB record) took
// 18 s and 312 MB: each image was located by walking the tensor from its
// start (quadratic), and each handed to image.DecodeConfig (a 4 KB buffer
// apiece). The strings are now located in one pass and only bytes of a
// known format are decoded; a value of more than maxTensorStrings strings
// is skipped before it is decoded.
func TestManyImagesInOneValueAreLinear(t *testing.T) {
	const n = 60_000
	vals := [][]byte{[]byte("4"), []byte("3")}
	for range n {
		vals = append(vals, []byte("x"))
	}
	png := mediaPNG(t, 5, 4)
	vals[n+1] = png
	dir := t.TempDir()
	b, offs := records(t, fileVersion(), summary(1, tensorValue("img", "images", stringTensor([]int64{n + 2}, vals...))),
		summary(2, tensorValue("img", "images", stringTensor([]int64{maxTensorStrings + 1}, vals[:maxTensorStrings+1]...))),
		summary(3, simple("loss", 3)))
	writeFiles(t, dir, []file{{ev100, b}})
	run, alloc := collectAlloc(t, dir)
	if len(run.Images) != 1 || len(run.Images[0].Entries) != 1 {
		t.Fatalf("images %+v", run.Images)
	}
	items := run.Images[0].Entries[0].Images
	if len(items) != n {
		t.Fatalf("%d images, want %d", len(items), n)
	}
	if got, err := items[n-1].Data.Read(); err != nil || !bytes.Equal(got, png) || items[n-1].Width != 5 || items[0].Width != 4 {
		t.Errorf("last image %dx%d (%v), first %dx%d; want the PNG's 5x4 and the declared 4x3",
			items[n-1].Width, items[n-1].Height, err, items[0].Width, items[0].Height)
	}
	wantWarningAt(t, run, ev100, offs[2], "over the limit of")
	wantLoss(t, run, 3)
	if alloc > maxAlloc {
		t.Errorf("reading allocated %d bytes, want at most %d", alloc, maxAlloc)
	}
}

// 60,000 one-value scalar tags fit in 900 KB, and each tag of a run is a
// data file or two and a chart: the report wrote 120,044 files (513 MB).
// A run keeps at most maxRunTags tags, the first met: a value of a later
// tag, scalar (fast path) or text (full decoder), is skipped before
// anything is made for it, with one warning in each file that holds some,
// at the first, naming the tag; the tags kept go on loading.
func TestTagsPerRunAreBounded(t *testing.T) {
	const over = 500
	evs := []*pb.Event{fileVersion(), summary(1, simple("loss", 1))}
	var vals []*pb.SummaryValue
	for i := range maxRunTags - 1 + over {
		vals = append(vals, simple(fmt.Sprintf("t%05d", i), 1))
		if len(vals) == 1000 {
			evs = append(evs, summary(1, vals...))
			vals = nil
		}
	}
	evs = append(evs, summary(1, vals...), summary(2, simple("loss", 2), simple("t00000", 2)))
	first, _ := records(t, evs...)
	second, offs := records(t, summary(3, tensorValue("late", "text", stringTensor([]int64{1}, []byte("x")))), summary(3, simple("loss", 3)))
	dir := t.TempDir()
	writeFiles(t, dir, []file{{ev100, first}, {ev200, second}})
	run, alloc := collectAlloc(t, dir)
	if len(run.Tags) != maxRunTags || len(run.Scalars) != maxRunTags || len(run.Texts) != 0 {
		t.Errorf("%d tags, %d scalar series, %d text series; want %d, %d, 0", len(run.Tags), len(run.Scalars), len(run.Texts), maxRunTags, maxRunTags)
	}
	// The first refused tag is value maxRunTags-1 of those written a
	// thousand an event, after the file version and the first loss.
	refused := fmt.Sprintf("t%05d", maxRunTags-1)
	var warned []string
	for _, w := range run.Warnings {
		if strings.Contains(w.Msg, "the most a run may") {
			warned = append(warned, fmt.Sprintf("%s@%d", w.File, w.Offset))
			if w.File == ev100 && !strings.Contains(w.Msg, fmt.Sprintf("%q", refused)) {
				t.Errorf("warning %q does not name the first tag refused, %s", w.Msg, refused)
			}
		}
	}
	_, offs1 := records(t, evs...)
	if want := []string{fmt.Sprintf("%s@%d", ev100, offs1[2+(maxRunTags-1)/1000]), fmt.Sprintf("%s@%d", ev200, offs[0])}; !slices.Equal(warned, want) {
		t.Errorf("budget warnings at %v, want one per file at %v", warned, want)
	}
	wantLoss(t, run, 1, 2, 3)
	if s := findScalar(run, "t00000"); s == nil || len(s.Points) != 2 {
		t.Errorf("t00000 = %+v, want both its points", s)
	}
	if alloc > maxAlloc {
		t.Errorf("reading allocated %d bytes, want at most %d", alloc, maxAlloc)
	}
}
