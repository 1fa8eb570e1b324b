package analysis

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/collect/series"
	"github.com/trainreport/trainreport/internal/testcorpus"
)

// sameScan reports whether two scans of a series' steps say the same.
func sameScan(a, b stepScan) bool {
	if a.sorted != b.sorted || (a.arith == nil) != (b.arith == nil) {
		return false
	}
	return a.arith == nil || reflect.DeepEqual(*a.arith, *b.arith)
}

// checkKnownSteps fails t unless what the line ss knows of its steps,
// handed to a model.Scalar as the collector hands it, is what scanSteps
// finds of its points (nothing known for no point).
func checkKnownSteps(t *testing.T, ss *series.Scalars, what string) {
	t.Helper()
	s := &model.Scalar{Points: ss.Points}
	s.SetSteps(ss.StepShape())
	known, ok := knownSteps(s)
	if len(ss.Points) == 0 {
		if ok {
			t.Fatalf("%s: no point, and its steps known: %+v", what, known)
		}
		return
	}
	if !ok {
		t.Fatalf("%s: steps of %d points not known", what, len(ss.Points))
	}
	if want := scanSteps(ss.Points); !sameScan(known, want) {
		st := make([]int64, len(ss.Points))
		for i, p := range ss.Points {
			st[i] = p.Step
		}
		t.Fatalf("%s: steps %.40v (%d): known %+v %+v, the scan finds %+v %+v", what, st, len(st), known, known.arith, want, want.arith)
	}
}

// stepOps drives a line as a collector does, from ops: each op is 9
// bytes, an op code and an operand. The codes: a point at a step near the
// last (the collector's hot path, Append, then Add when it refuses, as
// collect's addPoint); a point at a step anywhere (int64 extremes
// included: wrapping differences); a restart (the next attempt, with a
// step below the last); a purge (a SessionLog START). The line is checked
// against scanSteps after every op.
func stepOps(t *testing.T, keepAll, keepSuperseded bool, ops []byte) *series.Scalars {
	t.Helper()
	ss := &series.Scalars{KeepSuperseded: keepSuperseded}
	attempt := 1
	last := func() int64 {
		if n := len(ss.Points); n > 0 {
			return ss.Points[n-1].Step
		}
		return 0
	}
	add := func(step int64) {
		p := model.Point{Step: step, WallTime: float64(len(ss.Points)), Value: 1}
		if !ss.Append(p, attempt) {
			ss.Add(p, attempt, keepAll)
		}
	}
	for i := 0; i+9 <= len(ops); i += 9 {
		code, arg := ops[i], int64(binary.LittleEndian.Uint64(ops[i+1:]))
		switch code % 8 {
		case 0, 1, 2: // a step forward by a small stride, most often the same
			add(last() + arg%4)
		case 3: // a step near the last, either way
			add(last() + arg%9 - 4)
		case 4: // anywhere
			add(arg)
		case 5: // an int64 extreme, give or take
			ext := []int64{math.MaxInt64, math.MinInt64, 0, 1 << 62, -(1 << 62)}
			add(ext[int(uint64(arg)%5)] + arg%3)
		case 6: // a restart: the next attempt, from a step at or below the last
			if !keepAll {
				attempt++
			}
			add(last() - arg%16)
		case 7: // a SessionLog START
			ss.Purge(last() - arg%16)
		}
		checkKnownSteps(t, ss, "after op "+string(rune('0'+code%8)))
	}
	return ss
}

// randomOps returns n ops (see stepOps), most of them steps forward by
// one stride, as a log's are.
func randomOps(rng *rand.Rand, n int) []byte {
	ops := make([]byte, 0, 9*n)
	stride := uint64(rng.IntN(5))
	for range n {
		code := byte(rng.IntN(3)) // forward
		if rng.IntN(8) == 0 {
			code = byte(3 + rng.IntN(5))
		}
		arg := stride
		if rng.IntN(10) == 0 {
			arg = rng.Uint64()
		}
		ops = binary.LittleEndian.AppendUint64(append(ops, code), arg)
	}
	return ops
}

// TestKnownStepsAreTheScan checks, over random sequences of points,
// restarts (attempts) and purges, with and without the restart rule, that
// what a line records of its steps as it is built is what scanSteps finds
// of its points, after every change.
func TestKnownStepsAreTheScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(38, 1))
	arith := 0
	for k := range 3000 {
		ss := stepOps(t, k%2 == 1, k%3 == 0, randomOps(rng, 1+rng.IntN(60)))
		if len(ss.Points) > 2 && ss.StepShape().Arith {
			arith++
		}
	}
	// A test of progressions that never meets one checks little.
	if arith < 300 {
		t.Errorf("%d of 3000 lines a progression of 3 points or more", arith)
	}
}

// FuzzKnownStepsAreTheScan is TestKnownStepsAreTheScan on fuzzed ops.
func FuzzKnownStepsAreTheScan(f *testing.F) {
	rng := rand.New(rand.NewPCG(38, 2))
	for range 8 {
		f.Add(false, false, randomOps(rng, 20))
		f.Add(true, false, randomOps(rng, 20))
	}
	f.Fuzz(func(t *testing.T, keepAll, keepSuperseded bool, ops []byte) {
		stepOps(t, keepAll, keepSuperseded, ops)
	})
}

// knownStepsInputs are every folder of the shared corpus and the writers'
// fixtures, and the other logs collect's tests read (MindSpore, two
// writers into one run, Visdom).
func knownStepsInputs(t *testing.T) []model.Logdir {
	corpus := testcorpus.Dir(t)
	entries, err := os.ReadDir(corpus)
	if err != nil {
		t.Fatal(err)
	}
	var lds []model.Logdir
	for _, e := range entries {
		if e.IsDir() && e.Name() != "hf-whisper-lfs-pointers" {
			lds = append(lds, model.Logdir{Name: e.Name(), Path: filepath.Join(corpus, e.Name())})
		}
	}
	for _, w := range []string{"keras", "keras_nested", "tensorboardx", "tf2", "torch"} {
		lds = append(lds, model.Logdir{Name: "writers-" + w, Path: testcorpus.Writers(t, w)})
	}
	collectDir := filepath.Dir(testcorpus.Writers(t)) // collect/testdata
	for _, p := range []string{"mindspore", filepath.Join("attempts", "twowriters")} {
		lds = append(lds, model.Logdir{Name: p, Path: filepath.Join(collectDir, p)})
	}
	lds = append(lds, model.Logdir{Name: "visdom", Path: filepath.Join(collectDir, "..", "visdom", "testdata")})
	return lds
}

// TestKnownStepsOfEveryInputAreTheScan collects every corpus folder and
// writers' fixture under every restart rule and none, and checks that
// every series whose steps its collector recorded has what scanSteps
// finds of its points, that every series but Visdom's has them recorded,
// and that Plan decides alike from the recorded steps and from a scan of
// every series (as a merge, whose parts carry none, does).
func TestKnownStepsOfEveryInputAreTheScan(t *testing.T) {
	known, series := 0, 0
	for _, ld := range knownStepsInputs(t) {
		for _, opt := range []collect.Options{{}, {Restarts: model.RestartsLatest}, {Restarts: model.RestartsTensorBoard}, {KeepAllRecords: true}} {
			rep, err := collect.Collect(context.Background(), []model.Logdir{ld}, opt)
			if err != nil {
				t.Fatalf("%s %+v: %v", ld.Name, opt, err)
			}
			for _, run := range rep.Runs {
				for _, s := range run.Scalars {
					if len(s.Points) == 0 {
						continue
					}
					series++
					k, ok := knownSteps(s)
					switch {
					case ok:
						known++
						if want := scanSteps(s.Points); !sameScan(k, want) {
							t.Errorf("%s %+v: run %q tag %q: known %+v %+v, scanned %+v %+v", ld.Name, opt, run.Name, s.Tag, k, k.arith, want, want.arith)
						}
					case ld.Name != "visdom":
						t.Errorf("%s %+v: run %q tag %q: %d points of unknown steps", ld.Name, opt, run.Name, s.Tag, len(s.Points))
					}
				}
			}
			withKnown, err := Plan(context.Background(), rep, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			scanned := NewShapes()
			for _, run := range rep.Runs {
				for _, s := range run.Scalars {
					sh := s.Steps()
					s.SetSteps(model.StepShape{})
					scanned.m[s] = shapeOf(s, &scanned.in)
					s.SetSteps(sh)
				}
			}
			withScan, err := Plan(context.Background(), rep, scanned, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !samePlan(withKnown, withScan) {
				t.Errorf("%s %+v: the plan from the recorded steps differs from the plan from their scan", ld.Name, opt)
			}
		}
	}
	if known == 0 || known*10 < series*9 {
		t.Errorf("%d series of %d with their steps known", known, series)
	}
}

// samePlan reports whether two plans decided alike: their views (series,
// counts and steps' progressions), budgets and sweeps' grids.
func samePlan(a, b *Staged) bool {
	if a.sc.Drawn != b.sc.Drawn || a.sc.DrawCap != b.sc.DrawCap || len(a.sc.Tags) != len(b.sc.Tags) || len(a.sweeps) != len(b.sweeps) {
		return false
	}
	for i, t := range a.sc.Tags {
		u := b.sc.Tags[i]
		if t.Tag != u.Tag || len(t.Series) != len(u.Series) {
			return false
		}
		for j, v := range t.Series {
			w := u.Series[j]
			if v.Scalar != w.Scalar || v.Total != w.Total || v.Steps != w.Steps {
				return false
			}
		}
	}
	for i := range a.sweeps {
		x, y := a.sweeps[i], b.sweeps[i]
		if !reflect.DeepEqual(x.grid, y.grid) || !reflect.DeepEqual(x.low, y.low) || !reflect.DeepEqual(x.high, y.high) || x.nonFinite != y.nonFinite {
			return false
		}
	}
	return true
}

// TestKnownStepsSayNothingOfOtherPoints checks that steps recorded of a
// series' points say nothing once its points change (a build cuts them
// to the drawn ones once its data files are written; a merge replaces
// them): another count, or a last step off the progression, and Plan
// scans the points at hand.
func TestKnownStepsSayNothingOfOtherPoints(t *testing.T) {
	var ss series.Scalars
	for i := range 10 {
		ss.Add(model.Point{Step: 10 + 5*int64(i)}, 1, false)
	}
	s := &model.Scalar{Points: ss.Points}
	s.SetSteps(ss.StepShape())
	if k, ok := knownSteps(s); !ok || k.arith == nil || !reflect.DeepEqual(*k.arith, stepSeq{first: 10, stride: 5, n: 10}) {
		t.Fatalf("steps 10, 15, ... 55: known %v %+v", ok, k.arith)
	}
	for name, pts := range map[string][]model.Point{
		"cut":      s.Points[:4],
		"one":      s.Points[9:],
		"replaced": append(append([]model.Point(nil), s.Points[:9]...), model.Point{Step: 99}),
	} {
		c := *s
		c.Points = pts
		if k, ok := knownSteps(&c); ok {
			t.Errorf("%s: points other than those recorded, and their steps known: %+v %+v", name, k, k.arith)
		}
	}
}
