package render

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/outdir"
)

// longRunReport is a report of a run alone in its bundle: tags series of
// n points, the second with a NaN and an infinity, the third float32 and
// restarted once (superseded points); then a run of one series alone in
// its bundle too.
func longRunReport(tags, n int) *model.Report {
	run := &model.Run{Name: "long"}
	for k := range tags {
		s := &model.Scalar{Tag: fmt.Sprintf("tag%02d", k), Float32: k == 2}
		for i := range n {
			v := math.Sin(float64(i*(k+1))/300) + float64(i%17)/1000
			if k == 2 {
				v = float64(float32(v))
			}
			s.Points = append(s.Points, model.Point{Step: int64(10 * i), WallTime: 1.7e9 + float64(i)*0.25, Value: v})
		}
		if k == 1 {
			s.Points[n/2].Value, s.Points[n/3].Value = math.NaN(), math.Inf(-1)
		}
		if k == 2 {
			s.Superseded = []model.Superseded{{Attempt: 0, Points: append([]model.Point(nil), s.Points[:n/4]...)}}
		}
		run.Scalars = append(run.Scalars, s)
	}
	one := &model.Run{Name: "one"}
	s := &model.Scalar{Tag: "only"}
	for i := range 30_000 {
		s.Points = append(s.Points, model.Point{Step: int64(i), WallTime: float64(i), Value: float64(i%101) / 7})
	}
	one.Scalars = []*model.Scalar{s}
	return &model.Report{Runs: []*model.Run{run, one}}
}

// runDataFiles writes the data files of rep's runs, with every data
// file option, a run at a time as the command stages it: each run alone
// in its bundle shared with helpers goroutines (helpers 0: not shared,
// WriteEach) with at most maxAhead points ahead (0: the default), keep
// their Help's; hook,
// when not nil, is called with each share before the run is written. It
// returns the files and each shared run's share.
func runDataFiles(t *testing.T, rep *model.Report, helpers, maxAhead int, hook func(*RunShare) (writer, helper func(*model.Scalar)), keep func() bool) (map[string][]byte, []*RunShare, []error) {
	t.Helper()
	ctx := context.Background()
	aopt := analysis.Options{MaxPoints: 500}
	st, err := analysis.Plan(ctx, rep, nil, aopt)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{DataJSON: true, DataCSV: true, DataTianshu: true, RunDataWritten: true}
	dir := filepath.Join(t.TempDir(), "site")
	site, err := outdir.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	rd := NewRunData(site, opt)
	if maxAhead > 0 {
		rd.gate.max = maxAhead
	}
	var shares []*RunShare
	var errs []error
	for _, run := range rep.Runs {
		rs, ok := st.Begin(run)
		if !ok {
			t.Fatalf("%s: Begin refused the run", run.Name)
		}
		views := st.Views(run)
		sh := rd.Share(run, views)
		if sh == nil || helpers == 0 {
			err = rd.WriteEach(ctx, run, views, rs.Through)
			rs.End()
		} else {
			shares = append(shares, sh)
			var writerHook, helperHook func(*model.Scalar)
			if hook != nil {
				writerHook, helperHook = hook(sh)
			}
			sr := rs.Shared()
			var wg sync.WaitGroup
			for k := range helpers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					ss := sr.Stage()
					defer func() {
						if v := recover(); v != nil {
							sh.Abort()
							return
						}
						ss.Done()
					}()
					sh.Help(k, func(s *model.Scalar) (vals, walls []float64) {
						if helperHook != nil {
							helperHook(s)
						}
						return ss.Walk(s)
					}, keep)
				}()
			}
			ss := sr.Stage()
			err = rd.WriteShared(ctx, sh, func(s *model.Scalar) (vals, walls []float64) {
				if writerHook != nil {
					writerHook(s)
				}
				return ss.Walk(s)
			})
			wg.Wait()
			ss.Done()
			sr.End()
		}
		errs = append(errs, err)
		if err == nil {
			if err := rd.Place(run, views); err != nil {
				t.Fatal(err)
			}
		}
		st.Compact(run)
	}
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	if err := site.Commit(); err != nil {
		t.Fatal(err)
	}
	return siteOnDisk(t, dir), shares, errs
}

// A run alone in its bundle shared by helpers writes the bytes one
// writer writes (bundle, its JSON, Tianshu's files, the CSV rows),
// non-finite values, float32 values and superseded points included,
// whatever the number of helpers and however many points may wait ahead
// of the writer: none past that bound wait at once, and a series of more
// points than it is never formatted ahead. A run of one series is not
// shared.
func TestSharedRunWritesWhatOneWriterWrites(t *testing.T) {
	const n = 6000
	want, _, _ := runDataFiles(t, longRunReport(7, n), 0, 0, nil, nil)
	if len(want) < 10 {
		t.Fatalf("%d files written", len(want))
	}
	for _, c := range []struct{ helpers, maxAhead int }{{1, 0}, {3, 0}, {1, n}, {2, 3 * n}, {3, n - 1}} {
		got, shares, _ := runDataFiles(t, longRunReport(7, n), c.helpers, c.maxAhead, nil, nil)
		if len(shares) != 1 {
			t.Fatalf("%+v: %d runs shared, want the long one only", c, len(shares))
		}
		for name, w := range want {
			if g, ok := got[name]; !ok || !bytes.Equal(g, w) {
				t.Errorf("%+v: %s differs from one writer's (%d bytes, want %d)", c, name, len(g), len(w))
			}
		}
		if len(got) != len(want) {
			t.Errorf("%+v: %d files, want %d", c, len(got), len(want))
		}
		sh := shares[0]
		limit := c.maxAhead
		if limit == 0 {
			limit = maxAheadPoints
		}
		if sh.g.peak > limit {
			t.Errorf("%+v: %d points waited ahead at once, past %d", c, sh.g.peak, limit)
		}
		if sh.g.ahead != 0 {
			t.Errorf("%+v: %d points still count as ahead once written", c, sh.g.ahead)
		}
		if c.maxAhead == n-1 && sh.g.peak != 0 {
			t.Errorf("%+v: series of %d points formatted ahead", c, n)
		}
	}
}

// waitOnce returns a writer's hook that waits for helped before its
// first series, and not after.
func waitOnce(helped chan struct{}) func(*model.Scalar) {
	first := true
	return func(*model.Scalar) {
		if first {
			first = false
			<-helped
		}
	}
}

// The series of a shared run are formatted by its helpers too, not the
// writer alone: the writer's first series waits until a helper started
// another.
func TestSharedRunIsFormattedByItsHelpers(t *testing.T) {
	helped := make(chan struct{})
	var once sync.Once
	_, shares, errs := runDataFiles(t, longRunReport(5, 6000), 1, 0, func(*RunShare) (func(*model.Scalar), func(*model.Scalar)) {
		return waitOnce(helped), func(*model.Scalar) {
			once.Do(func() { close(helped) })
		}
	}, nil)
	if errs[0] != nil {
		t.Fatal(errs[0])
	}
	if took := shares[0].Took(); len(took) != 1 || took[0] == 0 {
		t.Errorf("helpers formatted %v series, want some", took)
	}
}

// A helper that stops without the series it took (a panic) makes the
// run's bundle fail rather than its writer wait forever for the series,
// and what the run held ahead no longer counts against the other runs';
// the next run is written as ever.
func TestSharedRunFailsWhenAHelperStops(t *testing.T) {
	helped := make(chan struct{})
	_, shares, errs := runDataFiles(t, longRunReport(5, 6000), 1, 0, func(*RunShare) (func(*model.Scalar), func(*model.Scalar)) {
		return waitOnce(helped), func(*model.Scalar) {
			close(helped)
			panic("a helper's bug")
		}
	}, nil)
	if errs[0] == nil {
		t.Error("the run was written without the series its helper took")
	}
	if errs[1] != nil {
		t.Errorf("the next run: %v", errs[1])
	}
	if g := shares[0].g; g.ahead != 0 {
		t.Errorf("%d points still count as ahead of the failed run's writer", g.ahead)
	}
}

// A helper stops, having taken no series, once keep says so; the writer
// formats them all, the same bytes.
func TestSharedRunHelperStopsWhenTold(t *testing.T) {
	want, _, _ := runDataFiles(t, longRunReport(5, 6000), 0, 0, nil, nil)
	got, shares, errs := runDataFiles(t, longRunReport(5, 6000), 2, 0, nil, func() bool { return false })
	if errs[0] != nil {
		t.Fatal(errs[0])
	}
	if took := shares[0].Took(); len(took) != 0 {
		t.Errorf("helpers told to stop formatted %v series", took)
	}
	for name, w := range want {
		if !bytes.Equal(got[name], w) {
			t.Errorf("%s differs", name)
		}
	}
}
