package collect

import (
	"context"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	pb "github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
	"github.com/trainreport/trainreport/internal/testcorpus"
	"github.com/trainreport/trainreport/internal/testlog"
)

// Events for building log files.

func fileVersion() *pb.Event {
	return &pb.Event{WallTime: 1, What: &pb.Event_FileVersion{FileVersion: "brain.Event:2"}}
}

func summary(step int64, vals ...*pb.SummaryValue) *pb.Event {
	return &pb.Event{WallTime: 1000 + float64(step), Step: step, What: &pb.Event_Summary{Summary: &pb.Summary{Value: vals}}}
}

// simple is a TF1-style scalar.
func simple(tag string, v float32) *pb.SummaryValue {
	return &pb.SummaryValue{Tag: tag, Value: &pb.SummaryValue_SimpleValue{SimpleValue: v}}
}

// tensor is a TF2-style scalar: float32 in tensor_content, with the scalars
// plugin's metadata when withMeta is set.
func tensor(tag string, v float32, withMeta bool) *pb.SummaryValue {
	sv := &pb.SummaryValue{Tag: tag, Value: &pb.SummaryValue_Tensor{Tensor: &pb.TensorProto{
		Dtype: pb.DataType_DT_FLOAT, TensorShape: &pb.TensorShapeProto{},
		TensorContent: binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)),
	}}}
	if withMeta {
		sv.Metadata = &pb.SummaryMetadata{PluginData: &pb.PluginData{PluginName: "scalars"}}
	}
	return sv
}

// withPlugin sets a value's metadata to name a plugin.
func withPlugin(v *pb.SummaryValue, plugin string) *pb.SummaryValue {
	v.Metadata = &pb.SummaryMetadata{PluginData: &pb.PluginData{PluginName: plugin}}
	return v
}

func sessionStart(step int64) *pb.Event {
	return &pb.Event{WallTime: 1000 + float64(step), Step: step,
		What: &pb.Event_SessionLog{SessionLog: &pb.SessionLog{Status: pb.SessionLog_START}}}
}

// losses is one event per step with a simple_value "loss" equal to the
// step, so that a kept point shows which record it came from.
func losses(steps ...int64) []*pb.Event {
	var out []*pb.Event
	for _, s := range steps {
		out = append(out, summary(s, simple("loss", float32(s))))
	}
	return out
}

func cat(evs ...[]*pb.Event) []*pb.Event { return slices.Concat(evs...) }

// records frames events as an event file, and returns the offset of each
// record.
func records(t testing.TB, evs ...*pb.Event) ([]byte, []int64) {
	t.Helper()
	return testlog.AppendOffsets(t, nil, evs...)
}

func eventFile(t testing.TB, evs ...*pb.Event) []byte {
	t.Helper()
	return testlog.Append(t, nil, evs...)
}

// file is one file of a test log directory, written in table order.
type file struct {
	name string // slash-separated, relative to the log directory
	data []byte
}

func writeFiles(t testing.TB, dir string, files []file) {
	t.Helper()
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func collectDir(t testing.TB, dir string, opt Options) *model.Report {
	t.Helper()
	rep, err := Collect(context.Background(), []model.Logdir{{Name: "logs", Path: dir}}, opt)
	if err != nil {
		t.Fatalf("Collect: %v", err)
	}
	return rep
}

func findRun(rep *model.Report, name string) *model.Run {
	for _, r := range rep.Runs {
		if r.Name == name {
			return r
		}
	}
	return nil
}

func findScalar(r *model.Run, tag string) *model.Scalar {
	for _, s := range r.Scalars {
		if s.Tag == tag {
			return s
		}
	}
	return nil
}

func stepsOf(ps []model.Point) []int64 {
	var out []int64
	for _, p := range ps {
		out = append(out, p.Step)
	}
	return out
}

func valuesOf(ps []model.Point) []float64 {
	var out []float64
	for _, p := range ps {
		out = append(out, p.Value)
	}
	return out
}

// wantWarning is a warning a case expects: its file, offset, and a part of
// its message.
type wantWarning struct {
	file   string
	offset int64
	msg    string
}

const (
	ev100 = "events.out.tfevents.100.host"
	ev200 = "events.out.tfevents.200.host"
)

func TestCollect(t *testing.T) {
	lfsStub := []byte("version https://git-lfs.github.com/spec/v1\n" +
		"oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n" +
		"size 123\n")
	three, _ := records(t, cat([]*pb.Event{fileVersion()}, losses(1, 2))...)
	truncated := append(slices.Clone(three), eventFile(t, losses(3)...)...)
	truncated = truncated[:len(truncated)-5]
	corrupt, corruptOffs := records(t, cat([]*pb.Event{fileVersion()}, losses(1, 2, 3))...)
	corrupt[corruptOffs[2]+12+1] ^= 0xff // data of the record of step 2
	notEvent := slices.Concat(eventFile(t, losses(1)...), tfrecord.AppendRecord(nil, []byte{0xff, 0xff, 0xff}), eventFile(t, losses(2)...))

	tests := []struct {
		name     string
		files    []file
		keepAll  bool
		steps    map[string][]int64 // run "/" tag -> kept steps
		values   map[string][]float64
		status   map[string]string // file -> Status
		warnings []wantWarning     // the run warnings, in order
	}{
		{
			name: "metadata only on the first value of a tensor tag",
			files: []file{{ev100, eventFile(t, fileVersion(),
				summary(1, tensor("acc", 0.5, true)), summary(2, tensor("acc", 0.25, false)), summary(3, tensor("acc", 0.125, false)))}},
			steps:  map[string][]int64{"./acc": {1, 2, 3}},
			values: map[string][]float64{"./acc": {0.5, 0.25, 0.125}},
			status: map[string]string{ev100: "ok"},
		},
		{
			name: "metadata in the first file carries to the next",
			files: []file{
				{ev100, eventFile(t, fileVersion(), summary(1, tensor("acc", 1, true)))},
				{ev200, eventFile(t, fileVersion(), summary(2, tensor("acc", 2, false)), summary(3, tensor("acc", 3, false)))},
			},
			steps: map[string][]int64{"./acc": {1, 2, 3}},
		},
		{
			name: "metadata does not cross runs",
			files: []file{
				{"a/" + ev100, eventFile(t, fileVersion(), summary(1, tensor("acc", 1, true)))},
				{"b/" + ev100, eventFile(t, fileVersion(), summary(2, tensor("acc", 2, false)))},
			},
			steps: map[string][]int64{"a/acc": {1}, "b/acc": nil},
		},
		{
			name: "tensor before its tag's metadata is not a scalar",
			files: []file{{ev100, eventFile(t, fileVersion(),
				summary(1, tensor("t", 1, false)), summary(2, tensor("t", 2, true)), summary(3, tensor("t", 3, false)))}},
			steps:    map[string][]int64{"./t": {2, 3}},
			warnings: []wantWarning{{ev100, -1, "before its metadata"}},
		},
		{
			name: "tensor of another plugin is not a scalar",
			files: []file{{ev100, eventFile(t, fileVersion(),
				summary(1, withPlugin(tensor("h", 1, false), "histograms"), simple("loss", 1)))}},
			steps:    map[string][]int64{"./h": nil, "./loss": {1}},
			warnings: []wantWarning{{ev100, 40, "histogram tensor of shape []"}},
		},
		{
			name: "files stitched in name order, not creation order",
			files: []file{
				{ev200, eventFile(t, cat([]*pb.Event{fileVersion()}, losses(3, 4))...)},
				{ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, losses(1, 2))...)},
			},
			steps:  map[string][]int64{"./loss": {1, 2, 3, 4}},
			status: map[string]string{ev100: "ok", ev200: "ok"},
		},
		{
			name:   "restart within a file drops later steps",
			files:  []file{{ev100, eventFile(t, losses(1, 2, 3, 4, 5, 3, 4)...)}},
			steps:  map[string][]int64{"./loss": {1, 2, 3, 4}},
			values: map[string][]float64{"./loss": {1, 2, 3, 4}},
		},
		{
			name: "restart across files drops later steps",
			files: []file{
				{ev100, eventFile(t, losses(1, 2, 3, 4, 5)...)},
				{ev200, eventFile(t, losses(3, 4)...)},
			},
			steps: map[string][]int64{"./loss": {1, 2, 3, 4}},
		},
		{
			name: "restart is per tag",
			files: []file{{ev100, eventFile(t,
				summary(1, simple("a", 1), simple("b", 1)), summary(2, simple("a", 2), simple("b", 2)),
				summary(3, simple("a", 3), simple("b", 3)), summary(2, simple("a", 20)))}},
			steps:  map[string][]int64{"./a": {1, 2}, "./b": {1, 2, 3}},
			values: map[string][]float64{"./a": {1, 20}},
		},
		{
			name: "SessionLog START purges every series of the run",
			files: []file{{ev100, eventFile(t,
				summary(1, simple("a", 1), simple("b", 1)), summary(2, simple("a", 2), simple("b", 2)),
				summary(3, simple("a", 3), simple("b", 3)), summary(4, simple("a", 4), simple("b", 4)),
				sessionStart(3), summary(3, simple("a", 30)))}},
			steps:  map[string][]int64{"./a": {1, 2, 3}, "./b": {1, 2}},
			values: map[string][]float64{"./a": {1, 2, 30}},
		},
		{
			name: "SessionLog START in a later file purges the earlier file's points",
			files: []file{
				{ev100, eventFile(t, losses(1, 2, 3, 4)...)},
				{ev200, eventFile(t, cat([]*pb.Event{sessionStart(2)}, losses(2))...)},
			},
			steps: map[string][]int64{"./loss": {1, 2}},
		},
		{
			name: "KeepAllRecords keeps restarts and SessionLog START",
			files: []file{
				{ev100, eventFile(t, cat(losses(1, 2, 3, 2), []*pb.Event{sessionStart(1)}, losses(1))...)},
				{ev200, eventFile(t, losses(0)...)},
			},
			keepAll: true,
			steps:   map[string][]int64{"./loss": {1, 2, 3, 2, 1, 0}},
		},
		{
			name: "zero-byte file is empty without a warning",
			files: []file{
				{ev100, nil},
				{ev200, eventFile(t, losses(1)...)},
			},
			steps:  map[string][]int64{"./loss": {1}},
			status: map[string]string{ev100: "empty", ev200: "ok"},
		},
		{
			name: "profile-empty file is skipped without a warning",
			files: []file{
				{ev100 + ".profile-empty", eventFile(t, fileVersion())},
				{ev200, eventFile(t, losses(1)...)},
			},
			steps:  map[string][]int64{"./loss": {1}},
			status: map[string]string{ev100 + ".profile-empty": "profile-empty", ev200: "ok"},
		},
		{
			name: "LFS pointer stub is named as such",
			files: []file{
				{ev100, lfsStub},
				{ev200, eventFile(t, losses(1)...)},
			},
			steps:    map[string][]int64{"./loss": {1}},
			status:   map[string]string{ev100: "lfs-pointer", ev200: "ok"},
			warnings: []wantWarning{{ev100, 0, "LFS"}},
		},
		{
			name:     "truncated file keeps its complete records",
			files:    []file{{ev100, truncated}},
			steps:    map[string][]int64{"./loss": {1, 2}},
			status:   map[string]string{ev100: "truncated"},
			warnings: []wantWarning{{ev100, int64(len(three)), "truncated"}},
		},
		{
			name:     "truncated header keeps its complete records",
			files:    []file{{ev100, append(slices.Clone(three), 1, 2, 3)}},
			steps:    map[string][]int64{"./loss": {1, 2}},
			status:   map[string]string{ev100: "truncated"},
			warnings: []wantWarning{{ev100, int64(len(three)), "truncated"}},
		},
		{
			name:     "corrupt data CRC skips one record",
			files:    []file{{ev100, corrupt}},
			steps:    map[string][]int64{"./loss": {1, 3}},
			status:   map[string]string{ev100: "damaged"},
			warnings: []wantWarning{{ev100, corruptOffs[2], "checksum"}},
		},
		{
			name:     "record that is not an Event is skipped",
			files:    []file{{ev100, notEvent}},
			steps:    map[string][]int64{"./loss": {1, 2}},
			status:   map[string]string{ev100: "damaged"},
			warnings: []wantWarning{{ev100, int64(len(eventFile(t, losses(1)...))), "not an Event"}},
		},
		{
			name: "TS-VIS file names are discovered",
			files: []file{
				{"events.out.201130-120000.host", eventFile(t, summary(1, withPlugin(simple("loss", 1), "scalars")))},
				{"hparams.events.out.host", eventFile(t, summary(2, simple("hp", 7)))},
				{"notes.txt", []byte("not a log")},
			},
			steps: map[string][]int64{"./loss": {1}, "./hp": {2}},
			status: map[string]string{
				"events.out.201130-120000.host": "ok", "hparams.events.out.host": "ok",
			},
		},
		{
			name: "files of sub-directories are runs of their own",
			files: []file{
				{ev100, eventFile(t, losses(1)...)},
				{"train/" + ev100, eventFile(t, losses(5, 6)...)},
				{"train/eval/" + ev100, eventFile(t, losses(7)...)},
			},
			steps: map[string][]int64{"./loss": {1}, "train/loss": {5, 6}, "train/eval/loss": {7}},
			status: map[string]string{
				ev100: "ok", "train/" + ev100: "ok", "train/eval/" + ev100: "ok",
			},
		},
		{
			name: "value without a tag is named by node_name",
			files: []file{{ev100, eventFile(t,
				summary(1, &pb.SummaryValue{NodeName: "old", Value: &pb.SummaryValue_SimpleValue{SimpleValue: 1}}))}},
			steps: map[string][]int64{"./old": {1}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			rep := collectDir(t, dir, Options{KeepAllRecords: tc.keepAll})
			if len(rep.Warnings) != 0 {
				t.Errorf("report warnings: %v", rep.Warnings)
			}
			for key, want := range tc.steps {
				runName, tag := path2(key)
				r := findRun(rep, runName)
				if r == nil {
					t.Fatalf("no run %q among %v", runName, runNames(rep))
				}
				s := findScalar(r, tag)
				if s == nil {
					if want != nil {
						t.Errorf("run %q has no scalar %q", runName, tag)
					}
					continue
				}
				if want == nil {
					t.Errorf("run %q: %q read as a scalar with steps %v", runName, tag, stepsOf(s.Points))
					continue
				}
				if got := stepsOf(s.Points); !slices.Equal(got, want) {
					t.Errorf("run %q tag %q: steps %v, want %v", runName, tag, got, want)
				}
				if want, ok := tc.values[key]; ok {
					if got := valuesOf(s.Points); !slices.Equal(got, want) {
						t.Errorf("run %q tag %q: values %v, want %v", runName, tag, got, want)
					}
				}
			}
			var files []model.File
			var warnings []model.Warning
			for _, r := range rep.Runs {
				files = append(files, r.Files...)
				warnings = append(warnings, r.Warnings...)
			}
			for name, want := range tc.status {
				i := slices.IndexFunc(files, func(f model.File) bool { return f.Rel == name })
				if i < 0 {
					t.Errorf("file %s not read", name)
				} else if files[i].Status != want {
					t.Errorf("file %s: Status %q, want %q", name, files[i].Status, want)
				}
			}
			if len(warnings) != len(tc.warnings) {
				t.Fatalf("warnings %v, want %d", warnings, len(tc.warnings))
			}
			for i, w := range tc.warnings {
				got := warnings[i]
				if got.File != w.file || got.Offset != w.offset || !strings.Contains(got.Msg, w.msg) {
					t.Errorf("warning %d = %q, want file %s offset %d mentioning %q", i, got, w.file, w.offset, w.msg)
				}
			}
		})
	}
}

// path2 splits "run/tag" at its last slash.
func path2(key string) (string, string) {
	i := strings.LastIndex(key, "/")
	return key[:i], key[i+1:]
}

func runNames(rep *model.Report) []string {
	var out []string
	for _, r := range rep.Runs {
		out = append(out, r.Name)
	}
	return out
}

func TestFilesReadInNameOrder(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, []file{
		{ev200, eventFile(t, losses(3)...)},
		{ev100, eventFile(t, losses(1)...)},
		{"events.out.tfevents.150.host", nil},
	})
	rep := collectDir(t, dir, Options{})
	var got []string
	for _, f := range rep.Runs[0].Files {
		got = append(got, f.Rel)
	}
	want := []string{ev100, "events.out.tfevents.150.host", ev200}
	if !slices.Equal(got, want) {
		t.Errorf("files %v, want %v", got, want)
	}
}

func TestRestartsCounted(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, []file{{ev100, eventFile(t, cat(losses(1, 2, 3, 4, 5, 3), []*pb.Event{
		summary(5, simple("acc", 1)), summary(6, simple("acc", 1)), sessionStart(6)})...)}})
	r := collectDir(t, dir, Options{}).Runs[0]
	if s := findScalar(r, "loss"); s.Dropped != 3 {
		t.Errorf("loss Dropped = %d, want 3", s.Dropped)
	}
	if s := findScalar(r, "acc"); s.Dropped != 1 {
		t.Errorf("acc Dropped = %d, want 1", s.Dropped)
	}
	if r.Restarts != 4 {
		t.Errorf("Restarts = %d, want 4", r.Restarts)
	}
}

func TestScalarFloat32Flag(t *testing.T) {
	double := &pb.SummaryValue{Tag: "d", Value: &pb.SummaryValue_Tensor{Tensor: &pb.TensorProto{
		Dtype: pb.DataType_DT_DOUBLE, DoubleVal: []float64{0.1}}}}
	mixed := &pb.SummaryValue{Tag: "m", Value: &pb.SummaryValue_Tensor{Tensor: &pb.TensorProto{
		Dtype: pb.DataType_DT_DOUBLE, DoubleVal: []float64{0.1}}}}
	dir := t.TempDir()
	writeFiles(t, dir, []file{{ev100, eventFile(t,
		summary(1, simple("s", 0.1), tensor("t", 0.1, true), withPlugin(double, "scalars"), simple("m", 1)),
		summary(2, withPlugin(mixed, "scalars")))}})
	r := collectDir(t, dir, Options{}).Runs[0]
	for tag, want := range map[string]bool{"s": true, "t": true, "d": false, "m": false} {
		s := findScalar(r, tag)
		if s == nil {
			t.Errorf("no scalar %q", tag)
			continue
		}
		if s.Float32 != want {
			t.Errorf("%q: Float32 = %v, want %v", tag, s.Float32, want)
		}
	}
	if s := findScalar(r, "d"); s != nil && s.Points[0].Value != 0.1 {
		t.Errorf("double value = %v, want 0.1 exactly", s.Points[0].Value)
	}
}

func TestUndecodableScalarWarns(t *testing.T) {
	bad := withPlugin(&pb.SummaryValue{Tag: "x", Value: &pb.SummaryValue_Tensor{Tensor: &pb.TensorProto{
		Dtype: pb.DataType_DT_FLOAT, TensorContent: []byte{1, 2, 3}}}}, "scalars")
	dir := t.TempDir()
	b, offs := records(t, fileVersion(), summary(1, bad), summary(2, tensor("x", 2, false)))
	writeFiles(t, dir, []file{{ev100, b}})
	r := collectDir(t, dir, Options{}).Runs[0]
	if s := findScalar(r, "x"); s == nil || !slices.Equal(stepsOf(s.Points), []int64{2}) {
		t.Errorf("scalar x = %+v, want step 2 only", s)
	}
	if len(r.Warnings) != 1 || r.Warnings[0].Offset != offs[1] || !strings.Contains(r.Warnings[0].Msg, `"x"`) {
		t.Errorf("warnings %v, want one at offset %d naming the tag", r.Warnings, offs[1])
	}
}

func TestWarningsPerFileAreBounded(t *testing.T) {
	var b []byte
	for range maxWarningsPerFile + 5 {
		b = tfrecord.AppendRecord(b, []byte{0xff})
	}
	b = append(b, eventFile(t, losses(1)...)...)
	dir := t.TempDir()
	writeFiles(t, dir, []file{{ev100, b}, {ev200, tfrecord.AppendRecord(nil, []byte{0xff})}})
	r := collectDir(t, dir, Options{}).Runs[0]
	var first, second int
	for _, w := range r.Warnings {
		switch w.File {
		case ev100:
			first++
		case ev200:
			second++
		}
	}
	if first != maxWarningsPerFile+1 || second != 1 {
		t.Errorf("warnings per file %d and %d, want %d and 1", first, second, maxWarningsPerFile+1)
	}
	if last := r.Warnings[maxWarningsPerFile]; last.Offset != -1 || !strings.Contains(last.Msg, "5 more") {
		t.Errorf("last warning of the first file = %q, want a count of the 5 not shown", last)
	}
	if s := findScalar(r, "loss"); s == nil || len(s.Points) != 1 {
		t.Errorf("the good record after the bad ones was not kept")
	}
}

func TestRunBounds(t *testing.T) {
	dir := t.TempDir()
	at := func(ev *pb.Event, wall float64) *pb.Event { ev.WallTime = wall; return ev }
	writeFiles(t, dir, []file{
		{"a/" + ev100, eventFile(t, at(fileVersion(), 10), at(summary(5, simple("x", 1)), 200),
			at(summary(2, simple("x", 1)), 150), at(sessionStart(9), 300), at(summary(20, simple("x", 1)), 0))},
		{"b/" + ev100, eventFile(t, at(fileVersion(), 10))},
	})
	rep := collectDir(t, dir, Options{})
	a := findRun(rep, "a")
	if !a.HasEvents || a.FirstStep != 2 || a.LastStep != 9 || a.Start != 150 || a.End != 300 {
		t.Errorf("run a: HasEvents %v steps %d..%d time %v..%v, want true 2..9 150..300",
			a.HasEvents, a.FirstStep, a.LastStep, a.Start, a.End)
	}
	if b := findRun(rep, "b"); b.HasEvents {
		t.Errorf("run b holds only file_version, HasEvents = true")
	}
}

func TestStats(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	pts := func(vals ...float64) []model.Point {
		var out []model.Point
		for i, v := range vals {
			out = append(out, model.Point{Step: int64(i + 1), WallTime: float64(100 + i), Value: v})
		}
		return out
	}
	tests := []struct {
		name      string
		points    []model.Point
		count     int
		nonFinite int
		hasFinite bool
		last      model.Extreme
		min, max  model.Extreme
	}{
		{"empty", nil, 0, 0, false, model.Extreme{}, model.Extreme{}, model.Extreme{}},
		{"finite values", pts(3, 1, 4, 1, 5), 5, 0, true,
			model.Extreme{Step: 5, WallTime: 104, Value: 5}, model.Extreme{Step: 2, WallTime: 101, Value: 1}, model.Extreme{Step: 5, WallTime: 104, Value: 5}},
		{"NaN and Inf are left out of min and max", pts(nan, 2, inf, -1, math.Inf(-1)), 5, 3, true,
			model.Extreme{Step: 5, WallTime: 104, Value: math.Inf(-1)}, model.Extreme{Step: 4, WallTime: 103, Value: -1}, model.Extreme{Step: 2, WallTime: 101, Value: 2}},
		{"last may be NaN", pts(1, nan), 2, 1, true,
			model.Extreme{Step: 2, WallTime: 101, Value: nan}, model.Extreme{Step: 1, WallTime: 100, Value: 1}, model.Extreme{Step: 1, WallTime: 100, Value: 1}},
		{"only non-finite values", pts(nan, inf), 2, 2, false,
			model.Extreme{Step: 2, WallTime: 101, Value: inf}, model.Extreme{}, model.Extreme{}},
		{"first step that reaches an extreme wins", pts(2, 7, 2, 7), 4, 0, true,
			model.Extreme{Step: 4, WallTime: 103, Value: 7}, model.Extreme{Step: 1, WallTime: 100, Value: 2}, model.Extreme{Step: 2, WallTime: 101, Value: 7}},
	}
	same := func(a, b model.Extreme) bool {
		return a.Step == b.Step && a.WallTime == b.WallTime &&
			(a.Value == b.Value || math.IsNaN(a.Value) && math.IsNaN(b.Value))
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := (&model.Scalar{Points: tc.points}).Stats()
			if st.Count != tc.count || st.NonFinite != tc.nonFinite || st.HasFinite != tc.hasFinite {
				t.Errorf("Count %d NonFinite %d HasFinite %v, want %d %d %v",
					st.Count, st.NonFinite, st.HasFinite, tc.count, tc.nonFinite, tc.hasFinite)
			}
			if !same(st.Last, tc.last) || !same(st.Min, tc.min) || !same(st.Max, tc.max) {
				t.Errorf("Last %+v Min %+v Max %+v, want %+v %+v %+v", st.Last, st.Min, st.Max, tc.last, tc.min, tc.max)
			}
		})
	}
}

func TestStatsThroughCollect(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, []file{{ev100, eventFile(t,
		summary(1, simple("loss", float32(math.NaN()))), summary(2, simple("loss", 3)),
		summary(3, simple("loss", float32(math.Inf(1)))), summary(4, simple("loss", -2)),
		summary(5, simple("loss", float32(math.NaN()))))}})
	st := findScalar(collectDir(t, dir, Options{}).Runs[0], "loss").Stats()
	if st.Count != 5 || st.NonFinite != 3 || st.Min.Step != 4 || st.Max.Step != 2 || st.Last.Step != 5 || !math.IsNaN(st.Last.Value) {
		t.Errorf("Stats = %+v", st)
	}
}

func TestSeveralLogdirs(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, []file{
		{"exp1/" + ev100, eventFile(t, losses(1)...)},
		{"exp1/train/" + ev100, eventFile(t, losses(2)...)},
		{"x/exp2/" + ev100, eventFile(t, losses(3)...)},
		{"y/exp2/" + ev100, eventFile(t, losses(4)...)},
	})
	exp1 := filepath.Join(root, "exp1")
	lds, err := ParseLogdirs([]string{"first=" + exp1, filepath.Join(root, "x", "exp2"), filepath.Join(root, "y", "exp2")})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, ld := range lds {
		names = append(names, ld.Name)
	}
	if want := []string{"first", "exp2", "exp2_2"}; !slices.Equal(names, want) {
		t.Errorf("logdir names %v, want %v", names, want)
	}
	rep, err := Collect(context.Background(), lds, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantRuns := map[string]int64{"exp2": 3, "exp2_2": 4, "first": 1, "first/train": 2}
	if got := runNames(rep); !slices.Equal(got, []string{"exp2", "exp2_2", "first", "first/train"}) {
		t.Fatalf("runs %v", got)
	}
	for _, r := range rep.Runs {
		if s := findScalar(r, "loss"); s == nil || s.Points[0].Step != wantRuns[r.Name] {
			t.Errorf("run %q: loss %+v, want step %d", r.Name, s, wantRuns[r.Name])
		}
	}
	if r := findRun(rep, "first/train"); r.Logdir != "first" || r.Path != "train" {
		t.Errorf("run first/train: Logdir %q Path %q", r.Logdir, r.Path)
	}

	// With one log directory, runs are named by their path alone.
	rep = collectDir(t, exp1, Options{})
	if got := runNames(rep); !slices.Equal(got, []string{".", "train"}) {
		t.Errorf("single logdir runs %v, want [. train]", got)
	}
}

func TestParseLogdirs(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, []file{{"a/x", nil}, {"b=c/x", nil}, {"c/x", nil}})
	a, bc, c := filepath.Join(root, "a"), filepath.Join(root, "b=c"), filepath.Join(root, "c")
	tests := []struct {
		name    string
		args    []string
		want    []model.Logdir
		wantErr string
	}{
		{"path named by its base name", []string{a}, []model.Logdir{{Name: "a", Path: a}}, ""},
		{"name=path", []string{"mine=" + a}, []model.Logdir{{Name: "mine", Path: a}}, ""},
		{"path holding = is a path", []string{bc}, []model.Logdir{{Name: "b=c", Path: bc}}, ""},
		{"same base names get suffixes", []string{a, a, "a=" + c}, []model.Logdir{{Name: "a", Path: a}, {Name: "a_2", Path: a}, {Name: "a_3", Path: c}}, ""},
		{"missing path is an error", []string{filepath.Join(root, "nope")}, nil, "does not exist"},
		{"missing named path is an error", []string{"n=" + filepath.Join(root, "nope")}, nil, "does not exist"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseLogdirs(tc.args)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("ParseLogdirs = %v, %v; want an error mentioning %q", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("ParseLogdirs = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

// TestParseLogdirArgsKeepsTheNameAsked: the name an argument gave with
// NAME= is kept beside the one the report uses, which differs when an
// earlier argument took it; an argument without one, or whose "=" is
// part of an existing path, asked for none.
func TestParseLogdirArgsKeepsTheNameAsked(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, []file{{"a/x", nil}, {"b=c/x", nil}})
	a, bc := filepath.Join(root, "a"), filepath.Join(root, "b=c")
	got, err := ParseLogdirArgs([]string{a, "a=" + a, bc, "mine=" + bc})
	if err != nil {
		t.Fatal(err)
	}
	want := []LogdirArg{{model.Logdir{Name: "a", Path: a}, ""}, {model.Logdir{Name: "a_2", Path: a}, "a"},
		{model.Logdir{Name: "b=c", Path: bc}, ""}, {model.Logdir{Name: "mine", Path: bc}, "mine"}}
	if !slices.Equal(got, want) {
		t.Errorf("ParseLogdirArgs = %v, want %v", got, want)
	}
}

func TestCollectErrors(t *testing.T) {
	t.Run("missing logdir is an error", func(t *testing.T) {
		_, err := Collect(context.Background(), []model.Logdir{{Name: "x", Path: filepath.Join(t.TempDir(), "nope")}}, Options{})
		if err == nil {
			t.Error("Collect of a missing directory succeeded")
		}
	})
	t.Run("logdir without event files warns", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, []file{{"readme.txt", []byte("hi")}})
		rep := collectDir(t, dir, Options{})
		if len(rep.Runs) != 0 || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0].Msg, "no event files") {
			t.Errorf("runs %v warnings %v", runNames(rep), rep.Warnings)
		}
	})
	t.Run("cancelled context is an error", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, []file{{ev100, eventFile(t, losses(1)...)}})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := Collect(ctx, []model.Logdir{{Name: "x", Path: dir}}, Options{}); !errors.Is(err, context.Canceled) {
			t.Errorf("Collect = %v, want context.Canceled", err)
		}
	})
	t.Run("logdir that is an event file is one run", func(t *testing.T) {
		dir := t.TempDir()
		writeFiles(t, dir, []file{{ev100, eventFile(t, losses(1, 2)...)}})
		rep := collectDir(t, filepath.Join(dir, ev100), Options{})
		if len(rep.Runs) != 1 || len(findScalar(rep.Runs[0], "loss").Points) != 2 {
			t.Errorf("runs %v", runNames(rep))
		}
	})
}

func TestProgress(t *testing.T) {
	dir := t.TempDir()
	a, b := eventFile(t, losses(1)...), eventFile(t, losses(1, 2)...)
	writeFiles(t, dir, []file{{"r1/" + ev100, a}, {"r2/" + ev100, b}})
	var last, total int64
	var calls int
	collectDir(t, dir, Options{Progress: func(d, tot int64) { calls++; last, total = max(last, d), tot }})
	if want := int64(len(a) + len(b)); calls != 2 || last != want || total != want {
		t.Errorf("progress: %d calls, done %d of %d, want 2 calls, %d of %d", calls, last, total, want, want)
	}
}

// corpusDir is the shared corpus of real logs (see internal/testcorpus).
func corpusDir(t *testing.T) string { return testcorpus.Dir(t) }

func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			rep, err := Collect(context.Background(), []model.Logdir{{Name: e.Name(), Path: filepath.Join(dir, e.Name())}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Runs) == 0 {
				t.Errorf("no runs")
			}
			status := map[string]int{}
			for _, r := range rep.Runs {
				for _, f := range r.Files {
					status[f.Status]++
				}
				// Only the two damaged-in-the-wild entries warn, and
				// tf2-projector-ckpt's embeddings, whose metadata file
				// holds more rows than they have points.
				if damaged := e.Name() == "tf1-estimator-truncated" || e.Name() == "hf-whisper-lfs-pointers"; !damaged {
					for _, w := range r.Warnings {
						if !strings.Contains(w.Msg, corpusMetadataMismatch) {
							t.Errorf("run %s: %v", r.Name, w)
						}
					}
				}
			}
			t.Logf("%d runs, file status %v", len(rep.Runs), status)
		})
	}
}

func TestCorpusTruncated(t *testing.T) {
	rep := collectDir(t, filepath.Join(corpusDir(t), "tf1-estimator-truncated"), Options{})
	var truncated []string
	for _, r := range rep.Runs {
		for _, f := range r.Files {
			if f.Status != "truncated" {
				continue
			}
			truncated = append(truncated, f.Rel)
			if f.Records != 4 {
				t.Errorf("%s: %d records, want 4", f.Rel, f.Records)
			}
			i := slices.IndexFunc(r.Warnings, func(w model.Warning) bool { return w.File == f.Rel })
			if i < 0 || r.Warnings[i].Offset != 857490 {
				t.Errorf("%s: warnings %v, want one at offset 857490", f.Rel, r.Warnings)
			}
		}
	}
	if len(truncated) != 2 {
		t.Errorf("truncated files %v, want 2", truncated)
	}
}

func TestCorpusLFSPointers(t *testing.T) {
	rep := collectDir(t, filepath.Join(corpusDir(t), "hf-whisper-lfs-pointers"), Options{})
	n := 0
	for _, r := range rep.Runs {
		for _, f := range r.Files {
			if f.Status == "lfs-pointer" {
				n++
			}
		}
		for _, w := range r.Warnings {
			if !strings.Contains(w.Msg, "LFS") {
				t.Errorf("warning %q does not say LFS", w)
			}
		}
	}
	if n != 11 {
		t.Errorf("%d lfs-pointer files, want 11", n)
	}
}

func TestCorpusLightningScalars(t *testing.T) {
	dir := filepath.Join(corpusDir(t), "lightning-scalars-hparams")
	count := func(opt Options) (points, dropped int) {
		for _, r := range collectDir(t, dir, opt).Runs {
			for _, s := range r.Scalars {
				points += len(s.Points)
				dropped += s.Dropped
			}
		}
		return points, dropped
	}
	all, dropped := count(Options{KeepAllRecords: true})
	if all != 15441 || dropped != 0 {
		t.Errorf("KeepAllRecords: %d points, %d dropped; want 15441, 0", all, dropped)
	}
	kept, dropped := count(Options{})
	if kept+dropped != all {
		t.Errorf("restart rule: %d kept + %d dropped != %d", kept, dropped, all)
	}
	if want := corpusLightningKept; kept != want {
		t.Errorf("restart rule: %d points kept, want %d", kept, want)
	}
	t.Logf("lightning-scalars-hparams: %d points, %d after the restart rule", all, kept)
}

// corpusLightningKept is the number of points lightning-scalars-hparams
// keeps under the restart rule: one record of its "epoch" tag repeats a
// step.
const corpusLightningKept = 15440

// corpusMetadataMismatch is in the warnings of tf2-projector-ckpt's
// embeddings: word.tsv names the whole vocabulary, the checkpoint's
// tensors its first 10,000 words.
const corpusMetadataMismatch = "10000 points but 88588 metadata rows in logs/word.tsv"
