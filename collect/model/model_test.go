package model

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strings"
	"testing"
	"time"
)

// memSource is a log directory in memory.
type memSource map[string][]byte

func (m memSource) ReadAt(name string, off, n int64) ([]byte, error) {
	b, ok := m[name]
	if !ok {
		return nil, fs.ErrNotExist
	}
	if off < 0 || n < 0 || off+n > int64(len(b)) {
		return nil, errors.New("out of range")
	}
	return b[off : off+n], nil
}

func (m memSource) Stat(name string) (fs.FileInfo, error) {
	b, ok := m[name]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return memInfo{name, int64(len(b))}, nil
}

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o644 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

var (
	negZero = math.Copysign(0, -1)
	nanBits = math.Float64frombits(0x7ff8_0000_dead_beef) // a NaN with a payload
)

// sample is a report holding what an encoding could lose: NaN payloads,
// -0 and infinities in fields and slices, empty and nil slices and maps,
// pointers to zero values, nested hyperparameter values and payloads.
func sample(src Source) *Report {
	ref := NewBlobRef(src, "logs", "run/events", 2, 3)
	r := &Report{
		RestartRule: RestartsAttempts,
		Logdirs:     []Logdir{{Name: "logs", Path: "/tmp/logs"}},
		Warnings:    []Warning{{File: "/tmp/logs", Offset: -1, Msg: "a warning"}},
		Runs: []*Run{{
			Name: "run", Logdir: "logs", Path: "run",
			Files: []File{{Rel: "run/events", Size: 8, Records: 1, Status: "ok"}},
			Tags: []TagInfo{
				{Tag: "img", Kind: KindImage, Count: 1, FirstStep: 1, LastStep: 1, FirstWall: negZero, LastWall: negZero},
				{Tag: "loss", Kind: KindScalar, Count: 4, Superseded: 1, FirstStep: 0, LastStep: 3, FirstWall: nanBits, LastWall: math.Inf(-1)},
				{Tag: "text", Kind: KindText, Count: 1, FirstStep: 0, LastStep: 0},
			},
			Scalars: []*Scalar{{Tag: "loss", Points: []Point{
				{WallTime: nanBits, Step: 0, Value: negZero},
				{WallTime: 1, Step: 1, Value: nanBits},
				{WallTime: 2, Step: 2, Value: math.Inf(1)},
				{WallTime: math.Inf(-1), Step: 3, Value: math.Inf(-1)},
			}, Dropped: 1, Superseded: []Superseded{{Attempt: 1, Points: []Point{{WallTime: 0.5, Step: 2, Value: 7}}}}}},
			Restarts: 1,
			Attempts: []Attempt{{Files: []string{"run/events"}, FirstStep: 2, LastStep: 2, Superseded: 1},
				{Files: []string{"run/events"}, FirstStep: 0, LastStep: 3, Points: 4}},
			Images: []*Image{{Tag: "img", Entries: []ImageEntry{{WallTime: negZero, Step: 1, Images: []ImageItem{{Width: 1, Height: 1, Format: "png", Data: ref}}}}}},
			Texts:  []*Text{{Tag: "text", Entries: []TextEntry{{Shape: []int64{}, Values: []string{""}}}}},
			HParams: &HParams{
				Experiment: &Experiment{HParams: []HParamInfo{{Name: "lr", Interval: &Interval{}, Discrete: []HParamValue{}}}},
				Sessions: []*Session{{
					Start: SessionStart{HParams: map[string]HParamValue{
						"b": {Kind: ListValue, List: []HParamValue{{Kind: ListValue, List: []HParamValue{}}, {Kind: NumberValue, Number: negZero}}},
						"a": {Kind: StructValue, Fields: []HParamField{{Name: "x", Value: HParamValue{Kind: NullValue}}}},
					}, Metrics: map[string]HParamValue{}},
					End:     &SessionEnd{},
					Metrics: map[string]MetricValue{"loss": {Value: nanBits, Run: "run"}},
				}},
			},
			Layout:     &Layout{Categories: []LayoutCategory{{Charts: []LayoutChart{{Multiline: []string{}}, {Margin: []MarginSeries{}}}}}},
			Graphs:     []*Graph{{Source: SourceGraphDef, Data: ref, NodeGraph: NodeGraph{Nodes: []Node{{Name: "n", OutputShapes: []NodeShape{{Dims: []int64{}}, {UnknownRank: true}}}}}}},
			Embeddings: []*Embedding{{Name: "e", Shape: []int64{1, 3}, Points: &TensorRef{BlobRef: ref, Format: FormatRaw, DType: "uint8", Shape: []int64{1, 3}}, Sprite: &Sprite{Data: ref}}},
			HasEvents:  true, FirstStep: 0, LastStep: 3, Start: negZero, End: 3,
		}},
	}
	r.Attach(src)
	return r
}

// supersededImage makes the sample's image tag hold a superseded entry of
// attempt 1 before the line's of attempt 2, at the same step.
func supersededImage(r *Report) {
	run := r.Runs[0]
	im := run.Images[0]
	old := im.Entries[0]
	old.WallTime, old.Written = 0.5, Written{Attempt: 1, Superseded: true}
	im.Entries[0].Attempt = 2
	im.Entries = append([]ImageEntry{old}, im.Entries...)
	im.Dropped = 1
	run.Tags[0].Superseded = 1
	run.Restarts++
}

func TestCheckValidKeepsSupersededEntries(t *testing.T) {
	r := sample(memSource{})
	supersededImage(r)
	if err := r.CheckValid(); err != nil {
		t.Fatalf("a superseded image entry: %v", err)
	}
	b := write(t, r)
	back, err := Read(bytes.NewReader(b), nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := back.Runs[0].Images[0].Entries[0]; !e.Superseded || e.Attempt != 1 {
		t.Errorf("read back %+v, want attempt 1 superseded", e.Written)
	}
}

func write(t testing.TB, r *Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRoundTripKeepsEveryBit(t *testing.T) {
	src := memSource{"run/events": []byte("01234567")}
	r := sample(src)
	if err := r.CheckValid(); err != nil {
		t.Fatalf("the sample is not valid: %v", err)
	}
	data := write(t, r)
	back, err := Read(bytes.NewReader(data), func(name string) (Source, error) {
		if name != "logs" {
			t.Errorf("opened %q", name)
		}
		return src, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Not reflect.DeepEqual: it compares floats with ==, which NaN fails.
	if encoded(r) != encoded(back) || r.String() != back.String() {
		t.Errorf("read back:\n%s\nwant:\n%s", back, r)
	}
	if !bytes.Equal(write(t, back), data) {
		t.Errorf("written again, the bytes differ: a float, nil or empty value changed")
	}
	if got := back.Runs[0].Scalars[0].Points; math.Float64bits(got[0].Value) != math.Float64bits(negZero) ||
		math.Float64bits(got[1].Value) != math.Float64bits(nanBits) || !math.IsInf(got[2].Value, 1) {
		t.Errorf("points read back as %v", got)
	}
	if b, err := back.Runs[0].Images[0].Entries[0].Images[0].Data.Read(); err != nil || string(b) != "234" {
		t.Errorf("payload read back: %q, %v", b, err)
	}
	if b, err := back.Runs[0].Embeddings[0].Points.BlobRef.Read(); err != nil || string(b) != "234" {
		t.Errorf("tensor payload read back: %q, %v", b, err)
	}
}

// encoded returns r in its on-disk form, which holds every float by its
// bits and tells nil from empty: equal encodings are equal models.
func encoded(r *Report) string {
	var b bytes.Buffer
	Write(&b, r)
	return b.String()
}

func TestReadWithoutSources(t *testing.T) {
	back, err := Read(bytes.NewReader(write(t, sample(memSource{}))), nil)
	if err != nil {
		t.Fatal(err)
	}
	ref := back.Runs[0].Images[0].Entries[0].Images[0].Data
	if _, err := ref.Read(); !errors.Is(err, errNoSource) {
		t.Errorf("Read without a source: %v", err)
	}
	if err := ref.Check(); !errors.Is(err, errNoSource) {
		t.Errorf("Check without a source: %v", err)
	}
}

func TestReadRefusesOtherFormats(t *testing.T) {
	data := write(t, sample(memSource{}))
	header, body, _ := bytes.Cut(data, []byte("\n"))
	version := func(v int) string {
		return strings.Replace(string(header), fmt.Sprintf(" %d ", formatVersion), fmt.Sprintf(" %d ", v), 1)
	}
	for _, c := range []struct {
		name, header, want string
	}{
		{"bumped version", version(formatVersion + 1), fmt.Sprintf("of version %d; this trainreport reads version %d", formatVersion+1, formatVersion)},
		{"version 0", version(0), "of version 0"},
		{"other schema", string(header[:len(header)-4]) + "0000", "of schema"},
		{"other format", "pprof-profile 1 x", "not a trainreport-model file"},
		{"no header", strings.Repeat("x", 300), "no header line"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := append([]byte(c.header+"\n"), body...)
			if _, err := Read(bytes.NewReader(in), nil); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Read: %v, want an error saying %q", err, c.want)
			}
		})
	}
}

func TestReadRefusesDamage(t *testing.T) {
	data := write(t, sample(memSource{}))
	for n := range len(data) {
		if _, err := Read(bytes.NewReader(data[:n]), nil); err == nil {
			t.Fatalf("a file cut at byte %d of %d was read", n, len(data))
		}
	}
	if _, err := Read(bytes.NewReader(append(data, 0)), nil); err == nil {
		t.Errorf("bytes after the report were read")
	}
	// A damaged length claims more than the file holds: refused once the
	// bytes run out, having allocated in proportion to them.
	header, _, _ := bytes.Cut(data, []byte("\n"))
	huge := append(append([]byte{}, header...), '\n', 0xff, 0xff, 0xff, 0xff, 0x07)
	if _, err := Read(bytes.NewReader(huge), nil); err == nil {
		t.Errorf("a length of 2^31 with nothing behind it was read")
	}
	for i := len(header) + 1; i < len(data); i++ {
		bad := bytes.Clone(data)
		bad[i] ^= 0xff
		Read(bytes.NewReader(bad), nil) // must not panic
	}
}

func FuzzRead(f *testing.F) {
	f.Add(write(f, sample(memSource{})))
	f.Add(write(f, &Report{}))
	f.Add(nestedClaims(f, 40))
	f.Fuzz(func(t *testing.T, b []byte) {
		var r *Report
		var err error
		// Read or refused, a file costs memory in proportion to its bytes.
		if got := allocated(func() { r, err = Read(bytes.NewReader(b), nil) }); got > readBudget(len(b)) {
			t.Fatalf("%d bytes (%v) allocated %d bytes, over the %d budget", len(b), err, got, readBudget(len(b)))
		}
		if err != nil {
			return
		}
		// What is read is a valid model, and writes back the same bytes.
		if err := r.CheckValid(); err != nil {
			t.Fatalf("read an invalid model: %v", err)
		}
		if got := write(t, r); !bytes.Equal(got, b) {
			t.Fatalf("read %d bytes, written back %d others", len(b), len(got))
		}
	})
}

// TestSchemaPinned fails when the model's types change: bump
// formatVersion in encode.go (files of the old types must be refused as
// of another version, not of another schema) and set want to the new
// schema.
func TestSchemaPinned(t *testing.T) {
	const want = "f77087d02e75442f"
	if got := schema(); got != want || formatVersion != 8 {
		t.Errorf("version %d, schema %s; pinned: version 8, schema %s. The model's types changed: bump formatVersion and pin the new schema", formatVersion, got, want)
	}
}

func TestCheckValidFindsProblems(t *testing.T) {
	for _, c := range []struct {
		name  string
		spoil func(r *Report)
		want  string
	}{
		{"runs out of order", func(r *Report) { r.Runs = append(r.Runs, &Run{Name: "a", Logdir: "logs", Path: "a"}) }, "out of order"},
		{"run of no log directory", func(r *Report) { r.Runs[0].Logdir = "other" }, "does not list"},
		{"tags out of order", func(r *Report) { r.Runs[0].Tags[0], r.Runs[0].Tags[1] = r.Runs[0].Tags[1], r.Runs[0].Tags[0] }, "tags"},
		{"count", func(r *Report) { r.Runs[0].Tags[1].Count = 3 }, "tag counts 3 values"},
		{"steps after the restart rule", func(r *Report) { r.Runs[0].Scalars[0].Points[2].Step = 0 }, "step 0 after step 1"},
		{"kind", func(r *Report) { r.Runs[0].Tags[1].Kind = KindHistogram }, "of a tag of kind histogram"},
		{"text shape", func(r *Report) { r.Runs[0].Texts[0].Entries[0].Shape = []int64{2} }, "1 values for shape [2]"},
		{"payload of another log directory", func(r *Report) { r.Runs[0].Images[0].Entries[0].Images[0].Data.Logdir = "x" }, "outside its run's log directory"},
		{"payload outside", func(r *Report) { r.Runs[0].Graphs[0].Data.Path = "../x" }, "outside its run's log directory"},
		{"restarts", func(r *Report) { r.Runs[0].Restarts = 2 }, "restarts count 2"},
		{"superseded points no attempt counts", func(r *Report) { r.Runs[0].Attempts[0].Superseded = 0 }, "attempts count 4 points and 0 superseded"},
		{"superseded points of no attempt", func(r *Report) { r.Runs[0].Scalars[0].Superseded[0].Attempt = 3 }, "superseded points of attempt 3 (of 2)"},
		{"superseded points kept under the latest rule", func(r *Report) { r.RestartRule = RestartsLatest }, "1 superseded points kept, 1 dropped"},
		{"superseded entries kept under the latest rule", func(r *Report) { supersededImage(r); r.RestartRule = RestartsLatest }, "1 superseded entries kept, 1 dropped"},
		{"superseded entries not counted", func(r *Report) { supersededImage(r); r.Runs[0].Tags[0].Superseded = 0 }, "tag counts 0 superseded values, the series dropped 1"},
		{"superseded entry of no attempt", func(r *Report) { supersededImage(r); r.Runs[0].Images[0].Entries[0].Attempt = 3 }, "entry 0 of attempt 3 (of 2)"},
		{"superseded entry after a later step", func(r *Report) { supersededImage(r); r.Runs[0].Images[0].Entries[0].Step = 2 }, "step 1 after superseded step 2"},
		{"attempt of another file", func(r *Report) { r.Runs[0].Attempts[1].Files[0] = "elsewhere" }, `file "elsewhere" is not one of the run's`},
		{"unknown restart rule", func(r *Report) { r.RestartRule = "newest" }, `restart rule "newest"`},
		{"unknown file format", func(r *Report) { r.Runs[0].Files[0].Format = "xml" }, `has format "xml"`},
		{"metric of no run", func(r *Report) { r.Runs[0].HParams.Sessions[0].Metrics["loss"] = MetricValue{Run: "gone"} }, "does not hold"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := sample(memSource{})
			c.spoil(r)
			if err := r.CheckValid(); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("CheckValid: %v, want a problem saying %q", err, c.want)
			}
		})
	}
	r := sample(memSource{})
	r.KeepAllRecords, r.RestartRule, r.Runs[0].Scalars[0].Superseded = true, "", nil
	r.Runs[0].Scalars[0].Points[2].Step = 0
	if err := r.CheckValid(); err != nil {
		t.Errorf("steps going back, every record kept: %v", err)
	}
}

func TestMerge(t *testing.T) {
	a, b := sample(memSource{}), sample(memSource{})
	b.Runs[0].Name, b.Runs[0].Path = "other", "other"
	b.Runs[0].HParams.Sessions[0].Metrics["loss"] = MetricValue{Run: "other"}
	m, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Runs) != 2 || m.Runs[0].Name != "other" || len(m.Logdirs) != 1 || len(m.Warnings) != 1 || len(m.sources) != 2 {
		t.Errorf("merged: %d runs (first %q), %d log directories, %d warnings, %d sources",
			len(m.Runs), m.Runs[0].Name, len(m.Logdirs), len(m.Warnings), len(m.sources))
	}
	if _, err := Merge(sample(memSource{}), sample(memSource{})); err == nil || !strings.Contains(err.Error(), `run "run" is in two reports`) {
		t.Errorf("Merge of the same run twice: %v", err)
	}
	c := sample(memSource{})
	c.Runs[0].Name = "c"
	c.Logdirs[0].Path = "/elsewhere"
	if _, err := Merge(sample(memSource{}), c); err == nil || !strings.Contains(err.Error(), "is /tmp/logs in one report and /elsewhere in another") {
		t.Errorf("Merge of two log directories of one name: %v", err)
	}
	d := sample(memSource{})
	d.Runs[0].Name, d.KeepAllRecords = "d", true
	if _, err := Merge(sample(memSource{}), d); err == nil {
		t.Errorf("Merge of reports that disagree on KeepAllRecords")
	}
	e := sample(memSource{})
	e.Runs[0].Name, e.RestartRule = "e", RestartsTensorBoard
	if _, err := Merge(sample(memSource{}), e); err == nil || !strings.Contains(err.Error(), "restart rule") {
		t.Errorf("Merge of reports that disagree on the restart rule: %v", err)
	}
	if _, err := Merge(); err == nil {
		t.Errorf("Merge of nothing")
	}
}

func TestLoadWithoutDecodersSaysSo(t *testing.T) {
	var none Decoders
	if _, err := (TensorEntry{}).Load(none); !errors.Is(err, errNoDecoder) {
		t.Errorf("TensorEntry.Load: %v", err)
	}
	if _, err := (TensorEntry{Encoding: EncodingMindSpore}).Load(Decoders{Tensor: func(TensorEntry) ([]float64, error) { return nil, nil }}); !errors.Is(err, errNoDecoder) {
		t.Errorf("TensorEntry.Load of a MindSpore tensor with only the TensorFlow decoder: %v", err)
	}
	if _, err := (&Embedding{Points: &TensorRef{}}).Load(none); !errors.Is(err, errNoDecoder) {
		t.Errorf("Embedding.Load: %v", err)
	}
	if _, err := (TensorRef{}).Read(none); !errors.Is(err, errNoDecoder) {
		t.Errorf("TensorRef.Read: %v", err)
	}
}

func TestMergeKeepsTheShardsDecoders(t *testing.T) {
	tensor := func(TensorEntry) ([]float64, error) { return []float64{1}, nil }
	a, b := &Report{}, &Report{}
	b.SetDecoders(Decoders{Tensor: tensor})
	m, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := (TensorEntry{}).Load(m.Decoders()); err != nil || len(v) != 1 {
		t.Errorf("a tensor of the merged report loads as %v, %v; want the decoder of the shard that had one", v, err)
	}
}
