package collect

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/model"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden-model")

// goldenModel is where the golden files of the model's String are.
const goldenModel = "testdata/golden-model"

// modelInput is a log directory the model tests read.
type modelInput struct {
	name string // of its golden file
	ld   model.Logdir
}

// modelInputs returns every entry of the shared corpus but the LFS pointer
// stubs (nothing to read: Collect fails on them) and every writer's
// fixture. Paths are relative, so that the goldens, which print them, do
// not depend on where the repository is.
func modelInputs(t *testing.T) []modelInput {
	t.Helper()
	var ins []modelInput
	corpus := sharedCorpus(t)
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && e.Name() != "hf-whisper-lfs-pointers" {
			ins = append(ins, modelInput{e.Name(), model.Logdir{Name: e.Name(), Path: filepath.Join("..", "..", "shared", "corpus", e.Name())}})
		}
	}
	for _, w := range []string{"keras", "keras_nested", "tensorboardx", "tf2", "torch"} {
		ins = append(ins, modelInput{"writers-" + w, model.Logdir{Name: w, Path: filepath.Join("testdata", "writers", w)}})
	}
	ins = append(ins, modelInput{"mindspore", model.Logdir{Name: "mindspore", Path: filepath.Join("testdata", "mindspore")}})
	// Two tensorboardX writers into one run (collect/testdata/attempts).
	ins = append(ins, modelInput{"attempts", model.Logdir{Name: "twowriters", Path: filepath.Join("testdata", "attempts", "twowriters")}})
	// Visdom's saved environments and replay log (collect/visdom/testdata).
	ins = append(ins, modelInput{"visdom", model.Logdir{Name: "visdom", Path: filepath.Join("visdom", "testdata")}})
	return ins
}

// collectShared collects the log directory of in through src, opened once
// by the caller, so that models collected apart hold the same source and
// compare equal whole.
func collectShared(t *testing.T, in modelInput, src *logfs.Dir, opt Options) *model.Report {
	t.Helper()
	opt.open = func(string) (*logfs.Dir, error) { return src, nil }
	rep, err := Collect(context.Background(), []model.Logdir{in.ld}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func openShared(t *testing.T, in modelInput) *logfs.Dir {
	t.Helper()
	src, err := logfs.Open(in.ld.Path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return src
}

// TestModelGolden compares the model of every input, printed by String,
// with its golden file (go test ./collect -run TestModelGolden -update
// rewrites them; review their diff like code), and checks it, with and
// without the restart rule.
func TestModelGolden(t *testing.T) {
	if *update {
		os.RemoveAll(goldenModel)
		os.MkdirAll(goldenModel, 0o755)
	}
	written := map[string]bool{}
	for _, in := range modelInputs(t) {
		name := in.name + ".txt"
		written[name] = true
		t.Run(in.name, func(t *testing.T) {
			src := openShared(t, in)
			for _, keepAll := range []bool{false, true} {
				rep := collectShared(t, in, src, Options{KeepAllRecords: keepAll})
				if err := rep.CheckValid(); err != nil {
					t.Errorf("KeepAllRecords %v: CheckValid: %v", keepAll, err)
				}
				if keepAll {
					continue
				}
				got := rep.String()
				p := filepath.Join(goldenModel, name)
				if *update {
					if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(p)
				if err != nil {
					t.Fatalf("no golden file (run with -update): %v", err)
				}
				if got != string(want) {
					t.Errorf("model differs from %s (run with -update and review the diff):\n%s", p, firstDiff(string(want), got))
				}
				if again := rep.String(); again != got {
					t.Errorf("String is not deterministic:\n%s", firstDiff(got, again))
				}
			}
		})
	}
	entries, _ := os.ReadDir(goldenModel)
	for _, e := range entries {
		if !written[e.Name()] {
			t.Errorf("golden file %s is no longer written", e.Name())
		}
	}
}

// firstDiff shows the first line where two texts differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + strconv.Itoa(i+1) + ":\n- " + a + "\n+ " + b
		}
	}
	return "(same lines)"
}

// TestModelRoundTrip writes the model of every input to its on-disk form
// and reads it back, the same log directory attached: the report must come
// back equal in every field, sources included, and every payload must read
// the same bytes.
func TestModelRoundTrip(t *testing.T) {
	for _, in := range modelInputs(t) {
		t.Run(in.name, func(t *testing.T) {
			src := openShared(t, in)
			for _, keepAll := range []bool{false, true} {
				rep := collectShared(t, in, src, Options{KeepAllRecords: keepAll})
				var buf bytes.Buffer
				if err := model.Write(&buf, rep); err != nil {
					t.Fatal(err)
				}
				var opened []string
				back, err := model.Read(bytes.NewReader(buf.Bytes()), func(name string) (model.Source, error) {
					opened = append(opened, name)
					return src, nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(opened) != 1 || opened[0] != in.ld.Name {
					t.Errorf("Read opened %q, want [%q]", opened, in.ld.Name)
				}
				back.SetDecoders(Decoders()) // as a process that reads a model does
				if !deepEqual(rep, back) {
					t.Errorf("KeepAllRecords %v: the model read back differs:\n%s", keepAll, firstDiff(rep.String(), back.String()))
				}
				if got, want := back.String(), rep.String(); got != want {
					t.Errorf("String of the model read back differs:\n%s", firstDiff(want, got))
				}
				var again bytes.Buffer
				if err := model.Write(&again, back); err != nil || !bytes.Equal(again.Bytes(), buf.Bytes()) {
					t.Errorf("written again, the model's bytes differ (err %v)", err)
				}
				checkPayloads(t, rep, back)
			}
		})
	}
}

// checkPayloads reads every payload of two models that should be the same
// and compares the bytes (or the errors).
func checkPayloads(t *testing.T, a, b *model.Report) {
	t.Helper()
	var ra, rb []model.BlobRef
	collectRefs(reflect.ValueOf(a), &ra)
	collectRefs(reflect.ValueOf(b), &rb)
	if len(ra) != len(rb) {
		t.Fatalf("%d payloads, read back %d", len(ra), len(rb))
	}
	for i := range ra {
		x, errx := ra[i].Read()
		y, erry := rb[i].Read()
		if !bytes.Equal(x, y) || (errx == nil) != (erry == nil) {
			t.Errorf("payload %s:%s@%d: %d bytes (%v), read back %d bytes (%v)", ra[i].Logdir, ra[i].Path, ra[i].Offset, len(x), errx, len(y), erry)
		}
	}
}

// collectRefs appends every BlobRef below v to out.
func collectRefs(v reflect.Value, out *[]model.BlobRef) {
	if v.Type() == reflect.TypeFor[model.BlobRef]() {
		*out = append(*out, v.Interface().(model.BlobRef))
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			collectRefs(v.Elem(), out)
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Struct || v.Type().Elem().Kind() == reflect.Pointer || v.Type().Elem().Kind() == reflect.Slice {
			for i := range v.Len() {
				collectRefs(v.Index(i), out)
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				collectRefs(v.Field(i), out)
			}
		}
	}
}

// TestModelMergeShards collects the runs of every input with several runs
// as two shards (every other run) and merges them: the result must be the
// report collected whole, hyperparameter metrics joined across the shards
// included.
func TestModelMergeShards(t *testing.T) {
	merged := 0
	for _, in := range modelInputs(t) {
		t.Run(in.name, func(t *testing.T) {
			src := openShared(t, in)
			whole := collectShared(t, in, src, Options{})
			if len(whole.Runs) < 2 {
				t.Skipf("%d run", len(whole.Runs))
			}
			inShard := map[string]int{}
			for i, r := range whole.Runs {
				inShard[r.Path] = i % 2
			}
			var shards []*model.Report
			for shard := range 2 {
				shards = append(shards, collectShared(t, in, src, Options{runs: func(p string) bool { return inShard[p] == shard }}))
			}
			got, err := model.Merge(shards...)
			if err != nil {
				t.Fatal(err)
			}
			merged++
			if got.String() != whole.String() {
				t.Errorf("merged shards differ from the whole:\n%s", firstDiff(whole.String(), got.String()))
			}
			if !deepEqual(got.Runs, whole.Runs) || !deepEqual(got.Logdirs, whole.Logdirs) ||
				!reflect.DeepEqual(got.Warnings, whole.Warnings) || got.KeepAllRecords != whole.KeepAllRecords {
				t.Errorf("merged shards differ from the whole in a field String does not print")
			}
			if _, err := model.Merge(shards[0], shards[0]); err == nil {
				t.Errorf("Merge took a shard twice")
			}
		})
	}
	if merged == 0 && !testing.Short() {
		t.Errorf("no input had several runs to merge")
	}
}

// deepEqual is reflect.DeepEqual with NaN equal to NaN: models hold NaN
// where logs do (Visdom writes NaN as null), and a NaN read back or
// collected again is the same value.
func deepEqual(a, b any) bool {
	return equalValues(reflect.ValueOf(a), reflect.ValueOf(b))
}

func equalValues(a, b reflect.Value) bool {
	if a.IsValid() != b.IsValid() || a.IsValid() && a.Type() != b.Type() {
		return false
	}
	if !a.IsValid() {
		return true
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		x, y := a.Float(), b.Float()
		return x == y || x != x && y != y
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Kind() == reflect.Pointer && a.Pointer() == b.Pointer() {
			return true
		}
		return equalValues(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		fallthrough
	case reflect.Array:
		for i := range a.Len() {
			if !equalValues(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			if !b.MapIndex(k).IsValid() || !equalValues(a.MapIndex(k), b.MapIndex(k)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			// What a collector knew of a series' steps (model.Scalar.Steps)
			// is not data: a model read back knows nothing of them.
			if a.Type() == reflect.TypeFor[model.Scalar]() && a.Type().Field(i).Name == "steps" {
				continue
			}
			if !equalValues(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	}
	if a.Kind() == reflect.Func { // a report's decoders: the same functions
		return a.IsNil() == b.IsNil() && a.Pointer() == b.Pointer()
	}
	// Channels and the like: the model holds none; compare as DeepEqual
	// would, by identity.
	return a.CanInterface() && b.CanInterface() && reflect.DeepEqual(a.Interface(), b.Interface())
}

func TestDeepEqual(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		a, b any
		want bool
	}{
		{[]float64{1, nan}, []float64{1, nan}, true},
		{[]float64{1, nan}, []float64{1, 2}, false},
		{&model.VisdomTrace{Name: "a", Y: []float64{nan}}, &model.VisdomTrace{Name: "b", Y: []float64{nan}}, false},
		{map[string]float64{"x": nan}, map[string]float64{"x": nan}, true},
		{map[string]float64{"x": 1}, map[string]float64{"y": 1}, false},
		{[]int(nil), []int{}, false},
		{model.NewBlobRef(nil, "a", "p", 0, 1), model.NewBlobRef(&logfs.Dir{}, "a", "p", 0, 1), false}, // unexported source
	} {
		if got := deepEqual(c.a, c.b); got != c.want {
			t.Errorf("deepEqual(%v, %v) = %v", c.a, c.b, got)
		}
	}
}

// TestModelStreamedEqualsWhole collects every input with Emit, writing
// each run as it is handed over (model.Writer), and checks the runs come
// in the model's order and that the file read back, its hyperparameter
// metrics joined (Emit leaves that to whoever gathers the runs), is the
// model Collect returns whole, byte for byte in the on-disk form: the
// streamed part holds every point, attempt and kind the whole does. The
// report Collect returns with Emit holds no run.
func TestModelStreamedEqualsWhole(t *testing.T) {
	for _, in := range modelInputs(t) {
		t.Run(in.name, func(t *testing.T) {
			src := openShared(t, in)
			for _, keepAll := range []bool{false, true} {
				whole := collectShared(t, in, src, Options{KeepAllRecords: keepAll})
				var b bytes.Buffer
				mw := model.NewWriter(&b)
				var names []string
				head := collectShared(t, in, src, Options{KeepAllRecords: keepAll, EmitAhead: 1 << 10, Emit: func(run *model.Run) error {
					names = append(names, run.Name)
					return mw.WriteRun(run)
				}})
				if len(head.Runs) != 0 {
					t.Fatalf("Collect with Emit returned %d runs", len(head.Runs))
				}
				if err := mw.Close(head); err != nil {
					t.Fatal(err)
				}
				if !slices.IsSortedFunc(names, model.CompareRunNames) || len(names) != len(whole.Runs) {
					t.Fatalf("%d runs emitted, not in order or not the %d of the whole: %q", len(names), len(whole.Runs), names)
				}
				back, err := model.Read(bytes.NewReader(b.Bytes()), nil)
				if err != nil {
					t.Fatal(err)
				}
				back.JoinHParamMetrics()
				var want bytes.Buffer
				if err := model.Write(&want, whole); err != nil {
					t.Fatal(err)
				}
				var got bytes.Buffer
				if err := model.Write(&got, back); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got.Bytes(), want.Bytes()) {
					t.Errorf("keepAll %v: the streamed model differs from the whole:\n%s", keepAll, firstDiff(whole.String(), back.String()))
				}
			}
		})
	}
}

// TestEmitErrorStopsCollection: an error of Emit (a full disk under a
// part) ends the collection with that error, no run handed over after
// it, and the runs still to read are not waited for.
func TestEmitErrorStopsCollection(t *testing.T) {
	stop := errors.New("disk full")
	for _, in := range modelInputs(t) {
		if in.name != "lightning-tbx-sweep" {
			continue
		}
		src := openShared(t, in)
		calls := 0
		_, err := Collect(context.Background(), []model.Logdir{in.ld}, Options{
			open: func(string) (*logfs.Dir, error) { return src, nil },
			Emit: func(*model.Run) error {
				calls++
				if calls == 2 {
					return stop
				}
				return nil
			}})
		if !errors.Is(err, stop) || calls != 2 {
			t.Errorf("Collect: %v after %d runs handed over, want %v after 2", err, calls, stop)
		}
		return
	}
	t.Skip("no lightning-tbx-sweep in the corpus")
}
