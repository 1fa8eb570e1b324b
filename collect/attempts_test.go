package collect

import (
	"context"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	pb "github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/testcorpus"
)

// fit is one training's events: at each step, "loss" and "acc" valued
// base+step, so that a point shows which training wrote it.
func fit(base float32, steps ...int64) []*pb.Event {
	var out []*pb.Event
	for _, s := range steps {
		out = append(out, summary(s, simple("loss", base+float32(s)), simple("acc", base+float32(s))))
	}
	return out
}

func span(from, to int64) []int64 {
	var out []int64
	for s := from; s <= to; s++ {
		out = append(out, s)
	}
	return out
}

// pointsOf returns the steps and values of points.
func pointsOf(pts []model.Point) (steps []int64, values []float64) {
	for _, p := range pts {
		steps, values = append(steps, p.Step), append(values, p.Value)
	}
	return steps, values
}

func scalarNamed(t *testing.T, run *model.Run, tag string) *model.Scalar {
	t.Helper()
	for _, s := range run.Scalars {
		if s.Tag == tag {
			return s
		}
	}
	t.Fatalf("no scalar %q", tag)
	return nil
}

// collectFiles writes files into a log directory of one run and collects
// it.
func collectFiles(t *testing.T, opt Options, files ...file) *model.Run {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	rep := collectDir(t, dir, opt)
	t.Cleanup(func() { rep.Close() })
	if len(rep.Runs) != 1 {
		t.Fatalf("%d runs", len(rep.Runs))
	}
	return rep.Runs[0]
}

// checkSeries checks a scalar's line and superseded points by step, and
// the values that show which training wrote them.
func checkSeries(t *testing.T, s *model.Scalar, lineSteps []int64, lineValues []float64, superseded map[int][]int64) {
	t.Helper()
	steps, values := pointsOf(s.Points)
	if !slices.Equal(steps, lineSteps) || !slices.Equal(values, lineValues) {
		t.Errorf("%s line: steps %v values %v, want %v %v", s.Tag, steps, values, lineSteps, lineValues)
	}
	got := map[int][]int64{}
	n := 0
	for _, sp := range s.Superseded {
		got[sp.Attempt], _ = pointsOf(sp.Points)
		n += len(sp.Points)
	}
	if len(got) != len(superseded) {
		t.Errorf("%s superseded: %v, want %v", s.Tag, got, superseded)
	}
	for a, want := range superseded {
		if !slices.Equal(got[a], want) {
			t.Errorf("%s superseded of attempt %d: steps %v, want %v", s.Tag, a, got[a], want)
		}
	}
	if n != s.Dropped {
		t.Errorf("%s: %d superseded points kept, %d dropped", s.Tag, n, s.Dropped)
	}
}

func floats(base float64, steps []int64) []float64 {
	var out []float64
	for _, s := range steps {
		out = append(out, base+float64(s))
	}
	return out
}

func TestTwoFilesFromStepZeroAreTwoAttemptsWithEveryPointKept(t *testing.T) {
	run := collectFiles(t, Options{},
		file{ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, fit(0, span(0, 4)...))...)},
		file{ev200, eventFile(t, cat([]*pb.Event{fileVersion()}, fit(100, span(0, 2)...))...)})
	for _, tag := range []string{"acc", "loss"} {
		checkSeries(t, scalarNamed(t, run, tag), span(0, 2), floats(100, span(0, 2)), map[int][]int64{1: span(0, 4)})
	}
	want := []model.Attempt{
		{Files: []string{ev100}, FirstStep: 0, LastStep: 4, Points: 0, Superseded: 10},
		{Files: []string{ev200}, FirstStep: 0, LastStep: 2, Points: 6, Superseded: 0},
	}
	if !attemptsEqual(run.Attempts, want) {
		t.Errorf("attempts %+v, want %+v (one attempt per training, not per tag)", run.Attempts, want)
	}
}

func attemptsEqual(a, b []model.Attempt) bool {
	return slices.EqualFunc(a, b, func(x, y model.Attempt) bool {
		return slices.Equal(x.Files, y.Files) && x.FirstStep == y.FirstStep && x.LastStep == y.LastStep &&
			x.Points == y.Points && x.Superseded == y.Superseded
	})
}

func TestSecondFitInOneFileIsASecondAttempt(t *testing.T) {
	run := collectFiles(t, Options{}, file{ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, fit(0, span(0, 9)...), fit(100, span(0, 4)...))...)})
	checkSeries(t, scalarNamed(t, run, "loss"), span(0, 4), floats(100, span(0, 4)), map[int][]int64{1: span(0, 9)})
	want := []model.Attempt{
		{Files: []string{ev100}, FirstStep: 0, LastStep: 9, Superseded: 20},
		{Files: []string{ev100}, FirstStep: 0, LastStep: 4, Points: 10},
	}
	if !attemptsEqual(run.Attempts, want) {
		t.Errorf("attempts %+v, want %+v", run.Attempts, want)
	}
}

func TestResumeOverlapIsOneContinuousLine(t *testing.T) {
	run := collectFiles(t, Options{},
		file{ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, fit(0, span(0, 10)...))...)},
		file{ev200, eventFile(t, cat([]*pb.Event{fileVersion()}, fit(0, span(8, 20)...))...)})
	// The resumed training rewrites 8..10 with the same values here: the
	// line is 0..20 with no gap, and what it rewrote stays, superseded.
	checkSeries(t, scalarNamed(t, run, "loss"), span(0, 20), floats(0, span(0, 20)), map[int][]int64{1: span(8, 10)})
	want := []model.Attempt{
		{Files: []string{ev100}, FirstStep: 0, LastStep: 10, Points: 16, Superseded: 6},
		{Files: []string{ev200}, FirstStep: 8, LastStep: 20, Points: 26},
	}
	if !attemptsEqual(run.Attempts, want) {
		t.Errorf("attempts %+v, want %+v", run.Attempts, want)
	}
}

func TestSessionLogStartBeginsAnAttempt(t *testing.T) {
	evs := cat([]*pb.Event{fileVersion(), sessionStart(0)}, fit(0, span(0, 5)...), []*pb.Event{sessionStart(3)}, fit(100, span(3, 6)...))
	run := collectFiles(t, Options{}, file{ev100, eventFile(t, evs...)})
	checkSeries(t, scalarNamed(t, run, "loss"), span(0, 6), append(floats(0, span(0, 2)), floats(100, span(3, 6))...), map[int][]int64{1: span(3, 5)})
	// The START that opens the run begins no attempt of its own.
	want := []model.Attempt{
		{Files: []string{ev100}, FirstStep: 0, LastStep: 5, Points: 6, Superseded: 6},
		{Files: []string{ev100}, FirstStep: 3, LastStep: 6, Points: 8},
	}
	if !attemptsEqual(run.Attempts, want) {
		t.Errorf("attempts %+v, want %+v", run.Attempts, want)
	}
}

func TestRunWithoutRestartsHasNoAttempts(t *testing.T) {
	run := collectFiles(t, Options{}, file{ev100, eventFile(t, cat([]*pb.Event{fileVersion(), sessionStart(0)}, fit(0, span(0, 5)...))...)})
	if run.Attempts != nil {
		t.Errorf("attempts %+v, want none", run.Attempts)
	}
}

// A writer that logs every value at one constant step rewrites that step:
// one attempt, whatever the number of values.
func TestConstantStepIsOneAttempt(t *testing.T) {
	var evs []*pb.Event
	for i := range 1000 {
		evs = append(evs, summary(7, simple("loss", float32(i))))
	}
	run := collectFiles(t, Options{}, file{ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, evs)...)})
	s := scalarNamed(t, run, "loss")
	if len(run.Attempts) != 1 || run.Attempts[0].Points != 1 || run.Attempts[0].Superseded != 999 {
		t.Fatalf("%d attempts (the first %+v), want one of 1 point and 999 superseded", len(run.Attempts), run.Attempts[:min(1, len(run.Attempts))])
	}
	if len(s.Points) != 1 || s.Points[0].Value != 999 || len(s.Superseded) != 1 || len(s.Superseded[0].Points) != 999 {
		t.Errorf("line %v, %d superseded groups", s.Points, len(s.Superseded))
	}
	// The rewrites stay in the order they were written.
	for i, p := range s.Superseded[0].Points {
		if p.Value != float64(i) {
			t.Fatalf("superseded point %d has value %v", i, p.Value)
		}
	}
}

// Steps that go back at every value (two processes writing one file)
// record at most maxAttempts attempts, and say so.
func TestAttemptsAreBounded(t *testing.T) {
	var evs []*pb.Event
	for i := range 3000 {
		evs = append(evs, summary(int64(5-i%2), simple("loss", float32(i))))
	}
	run := collectFiles(t, Options{}, file{ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, evs)...)})
	if len(run.Attempts) != maxAttempts {
		t.Errorf("%d attempts, want %d", len(run.Attempts), maxAttempts)
	}
	if !slices.ContainsFunc(run.Warnings, func(w model.Warning) bool { return strings.Contains(w.Msg, "more than 1000 attempts") }) {
		t.Errorf("no warning of the bound: %v", run.Warnings)
	}
	s := scalarNamed(t, run, "loss")
	if n := len(s.Points) + s.Dropped; n != 3000 {
		t.Errorf("%d points on the line and superseded, want 3000", n)
	}
}

func TestRestartRules(t *testing.T) {
	twoFits := func(version string) []file {
		fv := &pb.Event{WallTime: 1, What: &pb.Event_FileVersion{FileVersion: version}}
		return []file{
			{ev100, eventFile(t, cat([]*pb.Event{fv}, fit(0, span(0, 4)...))...)},
			{ev200, eventFile(t, cat([]*pb.Event{fv}, fit(100, span(0, 2)...))...)},
		}
	}
	noVersion := []file{
		{ev100, eventFile(t, fit(0, span(0, 4)...)...)},
		{ev200, eventFile(t, fit(100, span(0, 2)...)...)},
	}
	startV2 := []file{{ev100, eventFile(t, cat([]*pb.Event{fileVersion(), sessionStart(0)}, fit(0, span(0, 4)...), []*pb.Event{sessionStart(2)}, fit(100, span(2, 3)...))...)}}
	// Steps that go back, kept, then a START: TensorBoard purges every
	// value at or above its step, wherever it is on the line.
	zigzagStartV2 := []file{{ev100, eventFile(t, cat([]*pb.Event{fileVersion(), sessionStart(0)}, fit(0, span(0, 4)...), fit(100, span(0, 2)...), []*pb.Event{sessionStart(2)})...)}}
	firstStartV2 := []file{{ev100, eventFile(t, cat([]*pb.Event{fileVersion()}, fit(0, span(0, 4)...), []*pb.Event{sessionStart(2)}, fit(100, span(2, 3)...))...)}}
	for _, c := range []struct {
		name       string
		opt        Options
		files      []file
		lineSteps  []int64
		lineValues []float64
		dropped    int
		superseded map[int][]int64
		attempts   int
	}{
		{"latest draws the same line, counts what it replaced and keeps none", Options{Restarts: model.RestartsLatest}, twoFits("brain.Event:2"),
			span(0, 2), floats(100, span(0, 2)), 5, nil, 2},
		{"tensorboard replaces nothing on steps going back in files of version 2", Options{Restarts: model.RestartsTensorBoard}, twoFits("brain.Event:2"),
			append(span(0, 4), span(0, 2)...), append(floats(0, span(0, 4)), floats(100, span(0, 2))...), 0, nil, 2},
		{"tensorboard purges on a START in files of version 2", Options{Restarts: model.RestartsTensorBoard}, startV2,
			span(0, 3), append(floats(0, span(0, 1)), floats(100, span(2, 3))...), 3, nil, 2},
		{"tensorboard purges steps below the most recent in files of no version", Options{Restarts: model.RestartsTensorBoard}, noVersion,
			span(0, 2), floats(100, span(0, 2)), 5, nil, 2},
		{"tensorboard purges steps below the most recent in files of version 1", Options{Restarts: model.RestartsTensorBoard}, twoFits("brain.Event:1"),
			span(0, 2), floats(100, span(0, 2)), 5, nil, 2},
		{"tensorboard purges a line whose steps go back wherever its points are", Options{Restarts: model.RestartsTensorBoard}, zigzagStartV2,
			[]int64{0, 1, 0, 1}, append(floats(0, span(0, 1)), floats(100, span(0, 1))...), 4, nil, 2},
		// TensorBoard takes the run's first START for its start, not a
		// restart.
		{"tensorboard does not purge on the first START", Options{Restarts: model.RestartsTensorBoard}, firstStartV2,
			[]int64{0, 1, 2, 3, 4, 2, 3}, append(floats(0, span(0, 4)), floats(100, span(2, 3))...), 0, nil, 2},
		{"keep-all-records keeps every record in arrival order, with no attempts", Options{KeepAllRecords: true, Restarts: model.RestartsLatest}, twoFits("brain.Event:2"),
			append(span(0, 4), span(0, 2)...), append(floats(0, span(0, 4)), floats(100, span(0, 2))...), 0, nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := collectFiles(t, c.opt, c.files...)
			s := scalarNamed(t, run, "loss")
			steps, values := pointsOf(s.Points)
			if !slices.Equal(steps, c.lineSteps) || !slices.Equal(values, c.lineValues) {
				t.Errorf("line: steps %v values %v, want %v %v", steps, values, c.lineSteps, c.lineValues)
			}
			if s.Dropped != c.dropped || len(s.Superseded) != 0 {
				t.Errorf("dropped %d, %d superseded groups kept; want %d dropped, none kept", s.Dropped, len(s.Superseded), c.dropped)
			}
			if len(run.Attempts) != c.attempts {
				t.Errorf("%d attempts, want %d", len(run.Attempts), c.attempts)
			}
		})
	}
}

func TestUnknownRestartRuleIsRefused(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, []file{{ev100, eventFile(t, fit(0, 1)...)}})
	if _, err := Collect(t.Context(), []model.Logdir{{Name: "logs", Path: dir}}, Options{Restarts: "newest"}); err == nil {
		t.Errorf("Collect with rule %q: no error", "newest")
	}
}

// On every directory of the shared corpus, the default keeps every scalar
// record: the points on the lines and the superseded ones are, per run
// and tag, exactly the records --keep-all-records keeps (929 of 5,064
// points of a real sweep were dropped when restarts replaced them).
func TestDefaultKeepsEveryScalarRecordOfTheCorpus(t *testing.T) {
	root := testcorpus.Dir(t)
	des, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		run, tag   string
		step       int64
		wall, bits uint64
	}
	count := func(rep *model.Report, superseded bool) map[key]int {
		m := map[key]int{}
		add := func(run, tag string, pts []model.Point) {
			for _, p := range pts {
				m[key{run, tag, p.Step, math.Float64bits(p.WallTime), math.Float64bits(p.Value)}]++
			}
		}
		for _, r := range rep.Runs {
			for _, s := range r.Scalars {
				add(r.Name, s.Tag, s.Points)
				if superseded {
					for _, sp := range s.Superseded {
						add(r.Name, s.Tag, sp.Points)
					}
				}
			}
		}
		return m
	}
	for _, de := range des {
		if !de.IsDir() {
			continue
		}
		t.Run(de.Name(), func(t *testing.T) {
			dir := filepath.Join(root, de.Name())
			all := collectDir(t, dir, Options{KeepAllRecords: true})
			defer all.Close()
			rep := collectDir(t, dir, Options{})
			defer rep.Close()
			want, got := count(all, false), count(rep, true)
			if !maps.Equal(got, want) {
				n := func(m map[key]int) (t int) {
					for _, c := range m {
						t += c
					}
					return t
				}
				t.Errorf("%d points on the lines and superseded, %d records", n(got), n(want))
			}
		})
	}
}

// TestTwoWritersKeepEveryKindsAttempts reads testdata/attempts/twowriters
// (generate.py there: two tensorboardX writers into one run, steps 0..2
// each, of a scalar, a histogram and an image). By default every kind
// keeps both writers' values, as TensorBoard does (6 and 6): the second's
// on the line, the first's superseded, of attempt 1; with
// --keep-all-records every record is on the line. Either way the line
// and the superseded values together number the records.
func TestTwoWritersKeepEveryKindsAttempts(t *testing.T) {
	dir := "testdata/attempts/twowriters"
	read := func(opt Options) *model.Run {
		t.Helper()
		rep, err := Collect(context.Background(), []model.Logdir{{Name: "logs", Path: dir}}, opt)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rep.Close() })
		if err := rep.CheckValid(); err != nil {
			t.Fatal(err)
		}
		return findRun(rep, ".")
	}
	all, def := read(Options{KeepAllRecords: true}), read(Options{})
	raw := map[string]int{}
	for _, ti := range all.Tags {
		raw[ti.Tag] = ti.Count
	}
	for _, tag := range []string{"loss", "weights", "sample"} {
		if raw[tag] != 6 {
			t.Errorf("keep-all: tag %q: %d records, want 6", tag, raw[tag])
		}
	}
	for _, ti := range def.Tags {
		if ti.Count != 3 || ti.Superseded != 3 || ti.Count+ti.Superseded != raw[ti.Tag] {
			t.Errorf("tag %q: %d on the line, %d superseded; want 3 and 3 of %d records", ti.Tag, ti.Count, ti.Superseded, raw[ti.Tag])
		}
	}
	if len(def.Attempts) != 2 {
		t.Fatalf("%d attempts, want 2", len(def.Attempts))
	}
	type write struct {
		step    int64
		attempt int
		sup     bool
	}
	want := []write{{0, 1, true}, {0, 2, false}, {1, 1, true}, {1, 2, false}, {2, 1, true}, {2, 2, false}}
	check := func(kind string, n int, at func(i int) (int64, model.Written)) {
		t.Helper()
		var got []write
		for i := range n {
			step, w := at(i)
			got = append(got, write{step, w.Attempt, w.Superseded})
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s entries %v, want %v", kind, got, want)
		}
	}
	h, im := def.Histograms[0], def.Images[0]
	check("histogram", len(h.Entries), func(i int) (int64, model.Written) { return h.Entries[i].Step, h.Entries[i].Written })
	check("image", len(im.Entries), func(i int) (int64, model.Written) { return im.Entries[i].Step, im.Entries[i].Written })
	// The superseded histograms are the first writer's (centred near 10),
	// the line's the second's (near 20).
	for _, e := range h.Entries {
		if centre := e.Sum / e.Count; e.Superseded != (centre < 15) {
			t.Errorf("histogram step %d attempt %d: mean %.1f, superseded %v", e.Step, e.Attempt, centre, e.Superseded)
		}
	}
	if sc := def.Scalars[0]; len(sc.Points) != 3 || len(sc.Superseded) != 1 || len(sc.Superseded[0].Points) != 3 {
		t.Errorf("scalar: %d points, superseded %v; want 3 and 3 of attempt 1", len(sc.Points), sc.Superseded)
	}
}
