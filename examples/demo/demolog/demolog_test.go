package demolog

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/tfrecord"
)

// generateInto writes the demo into a fresh directory and returns it.
func generateInto(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "logs")
	st, err := Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Runs) != 7 || st.Files != 12 { // with histograms (histograms.go), samples (media.go) and the eval run (text.go, tensors.go)
		t.Errorf("Generate wrote %d runs and %d files, want 7 and 12", len(st.Runs), st.Files)
	}
	return dir
}

// readTree returns every file under dir by slash-separated relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestDeterministic(t *testing.T) {
	a, b := readTree(t, generateInto(t)), readTree(t, generateInto(t))
	if len(a) == 0 {
		t.Fatal("no files written")
	}
	for name, data := range a {
		if other, ok := b[name]; !ok {
			t.Errorf("%s written by the first run only", name)
		} else if !bytes.Equal(data, other) {
			t.Errorf("%s differs between runs", name)
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			t.Errorf("%s written by the second run only", name)
		}
	}
}

func TestWriteIntoNewDir(t *testing.T) {
	// Write creates the directory, parents included, and writes the same
	// bytes as Generate.
	dir := filepath.Join(t.TempDir(), "a", "b")
	if err := Write(dir); err != nil {
		t.Fatal(err)
	}
	a, b := readTree(t, dir), readTree(t, generateInto(t))
	if len(a) != len(b) {
		t.Fatalf("Write wrote %d files, Generate %d", len(a), len(b))
	}
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between Write and Generate", name)
		}
	}
}

// point is one scalar value read back from a file.
type point struct {
	step  int64
	value float64
	dtype eventpb.DataType // 0 for simple_value
	meta  bool             // the value carried metadata
}

// fileData is what one event file holds.
type fileData struct {
	name     string
	size     int
	sessions []*eventpb.Event // SessionLog events
	points   map[string][]point
}

// readRun reads every event file of a run in name order, checking every
// record's CRCs and that each file begins with file_version.
func readRun(t *testing.T, files map[string][]byte, run string) []fileData {
	t.Helper()
	var names []string
	for name := range files {
		if path.Dir(name) == run {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		t.Fatalf("run %s: no event files", run)
	}
	nameRE := regexp.MustCompile(`^events\.out\.tfevents\.\d{10}\.demo-host\.\d+\.\d+\.v2$`)
	var out []fileData
	for _, name := range names {
		if !nameRE.MatchString(path.Base(name)) {
			t.Errorf("%s: name is not like TensorBoard's", name)
		}
		fd := fileData{name: name, size: len(files[name]), points: map[string][]point{}}
		r := tfrecord.NewReader(bytes.NewReader(files[name]), name)
		for i := 0; r.Next(); i++ {
			if d := r.Damage(); d != nil {
				t.Fatalf("%s: %v", name, d)
			}
			var ev eventpb.Event
			if err := proto.Unmarshal(r.Record(), &ev); err != nil {
				t.Fatalf("%s: record %d: %v", name, i, err)
			}
			if i == 0 {
				if v := ev.GetFileVersion(); v != "brain.Event:2" {
					t.Errorf("%s: first record has file_version %q, want brain.Event:2", name, v)
				}
				continue
			}
			if ev.GetWallTime() < BaseWallTime {
				t.Errorf("%s: record %d: wall time %v before the base time", name, i, ev.GetWallTime())
			}
			if ev.GetSessionLog() != nil {
				fd.sessions = append(fd.sessions, &ev)
				if len(fd.points) > 0 {
					t.Errorf("%s: SessionLog after summaries", name)
				}
			}
			for _, v := range ev.GetSummary().GetValue() {
				if plugin := v.GetMetadata().GetPluginData().GetPluginName(); histogramTags[v.GetTag()] || plugin == "hparams" || plugin == "custom_scalars" {
					continue // histograms_test.go, TestHParams, TestGraphAndProjector
				}
				p := point{step: ev.GetStep(), meta: v.GetMetadata() != nil}
				switch x := v.Value.(type) {
				case *eventpb.SummaryValue_SimpleValue:
					p.value = float64(x.SimpleValue)
				case *eventpb.SummaryValue_Tensor:
					tp := x.Tensor
					p.dtype = tp.GetDtype()
					if len(tp.GetTensorShape().GetDim()) != 0 {
						t.Errorf("%s: tag %s: tensor of rank %d, want 0", name, v.GetTag(), len(tp.GetTensorShape().GetDim()))
					}
					switch {
					case p.dtype == eventpb.DataType_DT_FLOAT && len(tp.GetTensorContent()) == 4:
						p.value = float64(math.Float32frombits(binary.LittleEndian.Uint32(tp.GetTensorContent())))
					case p.dtype == eventpb.DataType_DT_DOUBLE && len(tp.GetDoubleVal()) == 1:
						p.value = tp.GetDoubleVal()[0]
					default:
						t.Fatalf("%s: tag %s: unexpected tensor %v", name, v.GetTag(), tp)
					}
				default:
					t.Fatalf("%s: tag %s: unexpected value %T", name, v.GetTag(), x)
				}
				fd.points[v.GetTag()] = append(fd.points[v.GetTag()], p)
			}
		}
		if err := r.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, fd)
	}
	return out
}

func tagsOf(fds []fileData) []string {
	var tags []string
	for _, fd := range fds {
		for tag := range fd.points {
			if !slices.Contains(tags, tag) {
				tags = append(tags, tag)
			}
		}
	}
	slices.Sort(tags)
	return tags
}

func stepRange(ps []point) (lo, hi int64) {
	return ps[0].step, ps[len(ps)-1].step
}

func countIf(fds []fileData, tag string, f func(float64) bool) int {
	n := 0
	for _, fd := range fds {
		for _, p := range fd.points[tag] {
			if f(p.value) {
				n++
			}
		}
	}
	return n
}

func TestContent(t *testing.T) {
	files := readTree(t, generateInto(t))
	total := 0
	for _, b := range files {
		total += len(b)
	}
	if total > 3<<20 {
		t.Errorf("demo logdir is %d bytes, want under 3 MB", total)
	}

	trainTags := []string{"epoch", "metrics/accuracy", "metrics/loss", "optim/grad_norm", "optim/learning_rate"}
	valTags := []string{"metrics/accuracy", "metrics/loss"}
	runs := map[string][]string{
		"baseline":            trainTags,
		"lr=0.01/train":       trainTags,
		"lr=0.01/validation":  valTags,
		"lr=0.003/train":      trainTags,
		"lr=0.003/validation": valTags,
	}
	read := map[string][]fileData{}
	for name := range files {
		dir := path.Dir(name)
		if _, ok := runs[dir]; !ok && dir != "samples" && dir != evalRun && dir != evalRun+"/embeddings" { // media_test.go and eval_test.go read those
			t.Errorf("unexpected file %s", name)
		}
	}
	for run, want := range runs {
		read[run] = readRun(t, files, run)
		if got := tagsOf(read[run]); !slices.Equal(got, want) {
			t.Errorf("run %s: tags %v, want %v", run, got, want)
		}
	}

	// Encodings: TF2 tensors with metadata on the first value of each tag
	// in each file only, learning rate as DT_DOUBLE; simple_value elsewhere.
	for _, fd := range read["lr=0.01/train"] {
		for tag, ps := range fd.points {
			for i, p := range ps {
				if p.meta != (i == 0) {
					t.Errorf("%s: tag %s value %d: metadata %v, want it on the first value only", fd.name, tag, i, p.meta)
				}
				want := eventpb.DataType_DT_FLOAT
				if tag == "optim/learning_rate" {
					want = eventpb.DataType_DT_DOUBLE
				}
				if p.dtype != want {
					t.Fatalf("%s: tag %s: dtype %v, want %v", fd.name, tag, p.dtype, want)
				}
			}
		}
	}
	for _, run := range []string{"baseline", "lr=0.003/train", "lr=0.003/validation"} {
		for _, fd := range read[run] {
			for tag, ps := range fd.points {
				if ps[0].dtype != 0 || ps[0].meta {
					t.Errorf("%s: tag %s: want simple_value without metadata", fd.name, tag)
				}
			}
		}
	}

	// The restart: file 1 covers steps 0..3000, file 2 starts with a
	// SessionLog START at 2000 and rewrites 2000..5000 with other values.
	train := read["lr=0.01/train"]
	if len(train) != 2 {
		t.Fatalf("lr=0.01/train: %d files, want 2", len(train))
	}
	if len(train[0].sessions) != 0 || len(train[1].sessions) != 1 {
		t.Fatalf("lr=0.01/train: %d and %d SessionLogs, want 0 and 1", len(train[0].sessions), len(train[1].sessions))
	}
	if s := train[1].sessions[0]; s.GetSessionLog().GetStatus() != eventpb.SessionLog_START || s.GetStep() != 2000 {
		t.Errorf("lr=0.01/train: second file's SessionLog is %v at step %d, want START at 2000", s.GetSessionLog().GetStatus(), s.GetStep())
	}
	old, rerun := train[0].points["metrics/loss"], train[1].points["metrics/loss"]
	if lo, hi := stepRange(old); lo != 0 || hi != 3000 {
		t.Errorf("lr=0.01/train first file: loss steps %d..%d, want 0..3000", lo, hi)
	}
	if lo, hi := stepRange(rerun); lo != 2000 || hi != 5000 {
		t.Errorf("lr=0.01/train second file: loss steps %d..%d, want 2000..5000", lo, hi)
	}
	if old[200].step != 2000 || rerun[0].step != 2000 || old[200].value == rerun[0].value {
		t.Errorf("lr=0.01/train: step 2000 rewritten with the same value, want a slightly different one")
	}
	val := read["lr=0.01/validation"]
	if len(val) != 2 {
		t.Fatalf("lr=0.01/validation: %d files, want 2", len(val))
	}
	if _, hi := stepRange(val[0].points["metrics/loss"]); hi != 3000 {
		t.Errorf("lr=0.01/validation first file ends at step %d, want 3000", hi)
	}
	if lo, _ := stepRange(val[1].points["metrics/loss"]); lo > 3000 {
		t.Errorf("lr=0.01/validation second file starts at step %d, want a repeat of earlier steps", lo)
	}

	// The long run: one value at every step.
	loss := read["baseline"][0].points["metrics/loss"]
	if len(loss) != 20_001 {
		t.Errorf("baseline metrics/loss: %d points, want 20001", len(loss))
	}
	for i, p := range loss {
		if p.step != int64(i) {
			t.Fatalf("baseline metrics/loss: point %d at step %d", i, p.step)
		}
	}

	// Non-finite values: one NaN in lr=0.01/train, one +Inf in baseline,
	// none anywhere else.
	isNaN := func(v float64) bool { return math.IsNaN(v) }
	isInf := func(v float64) bool { return math.IsInf(v, 1) }
	for run, fds := range read {
		for _, tag := range runs[run] {
			nan, inf := countIf(fds, tag, isNaN), countIf(fds, tag, isInf)
			wantNaN := run == "lr=0.01/train" && tag == "optim/grad_norm"
			wantInf := run == "baseline" && tag == "optim/grad_norm"
			if nan != b2i(wantNaN) || inf != b2i(wantInf) {
				t.Errorf("run %s tag %s: %d NaN and %d +Inf", run, tag, nan, inf)
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
