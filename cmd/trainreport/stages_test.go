package main

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/outdir"
	"github.com/trainreport/trainreport/render"
)

// stagedFiles stages the runs of rep as a build does (stageRuns,
// stageRun, Place, Compact, Finish) with help (nil: no run shared), with
// every data file option, and returns the data files and the findings.
func stagedFiles(t *testing.T, rep *model.Report, aopt analysis.Options, help *runHelp) (map[string][]byte, string) {
	t.Helper()
	ctx := context.Background()
	st, err := analysis.Plan(ctx, rep, nil, aopt)
	if err != nil {
		t.Fatal(err)
	}
	ropt := render.Options{DataJSON: true, DataCSV: true, DataTianshu: true, RunDataWritten: true}
	st.SetReads(render.ScalarReads(rep, st.Scalars(), st.Final, ropt))
	dir := filepath.Join(t.TempDir(), "site")
	site, err := outdir.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	rd := render.NewRunData(site, ropt)
	held := &heldRuns{runs: rep.Runs}
	err = stageAll(ctx, st, rd, held.Next, help)
	if err == nil {
		err = rd.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	an, err := st.Finish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := site.Commit(); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		files[p[len(dir):]] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files, fmt.Sprintf("%#v", an.Anomalies)
}

// sharedRunsReport is a report of runs alone in their bundles (past
// 25,000 points), one of one series, with findings: a series with a NaN,
// one with a spike, one that stopped early.
func sharedRunsReport() *model.Report {
	rep := synthReport(3, 6, 6000)
	for r, run := range rep.Runs {
		run.Scalars[1].Points[100+r].Value = math.NaN()
		run.Scalars[2].Points[3000].Value = 1e9
		run.Scalars[3].Points = run.Scalars[3].Points[:2000]
	}
	one := synthReport(1, 1, 30_000).Runs[0]
	one.Name = "one-series"
	rep.Runs = append(rep.Runs, one)
	return rep
}

// Runs shared by helpers (stageShared) give the data files and findings
// of runs staged unshared, byte for byte, in the runs' order: whether
// their helpers start with them (more cores than runs) or once fewer
// runs are at work than cores (the last), with several helpers; and so
// do runs with a series past the data cap, whose walks only are shared
// (walkShared).
func TestSharedRunsStageAsUnshared(t *testing.T) {
	for _, aopt := range []analysis.Options{{MaxPoints: 300}, {MaxPoints: 300, MaxDataPoints: 4000}} {
		want, wantFound := stagedFiles(t, sharedRunsReport(), aopt, nil)
		if len(want) < 20 || len(wantFound) < 100 {
			t.Fatalf("%d files, findings %s", len(want), wantFound)
		}
		for _, help := range []*runHelp{
			{helpers: 1, cores: 2, waiting: map[*helpedRun]bool{}},
			{helpers: 1, cores: 100, waiting: map[*helpedRun]bool{}},
			{helpers: 3, cores: 100, waiting: map[*helpedRun]bool{}},
		} {
			got, found := stagedFiles(t, sharedRunsReport(), aopt, help)
			name := fmt.Sprintf("data cap %d, %d helpers, %d cores", aopt.MaxDataPoints, help.helpers, help.cores)
			for f, w := range want {
				if g, ok := got[f]; !ok || !bytes.Equal(g, w) {
					t.Errorf("%s: %s differs (%d bytes, want %d)", name, f, len(g), len(w))
				}
			}
			if len(got) != len(want) {
				t.Errorf("%s: %d files, want %d", name, len(got), len(want))
			}
			if found != wantFound {
				t.Errorf("%s: findings\n%s\nwant\n%s", name, found, wantFound)
			}
		}
	}
}

// The helpers of the shared runs at work start once fewer runs are at
// work than cores, not before: until then every core has a run of its
// own. A run that ended is not helped; a run that starts while a core is
// idle is helped at once; helpers that stopped as every core had a run
// again start again once one has none, not those that stopped with no
// series left.
func TestRunHelpHelpsWhileACoreIsIdle(t *testing.T) {
	h := &runHelp{helpers: 1, cores: 2, waiting: map[*helpedRun]bool{}}
	started := map[*helpedRun]int{}
	run := func() *helpedRun {
		hr := &helpedRun{}
		hr.start = func(int) { started[hr]++ }
		return hr
	}
	a, b, c := run(), run(), run()
	h.add(3)
	h.join(a)
	h.join(b)
	h.add(-1)
	if len(started) != 0 || h.idle() {
		t.Fatalf("runs helped while every core had a run: %v", started)
	}
	h.leave(b)
	h.add(-1)
	if started[a] != 1 || started[b] != 0 || !h.idle() {
		t.Errorf("one run at work: helped %d times, the ended one %d, want once and none", started[a], started[b])
	}
	h.join(c)
	if started[c] != 1 {
		t.Error("a run that starts while a core is idle is not helped at once")
	}
	h.add(1) // every core has a run again: a's helper stops
	h.ended(a, true)
	h.ended(c, false) // c's took the last series
	if started[a] != 1 {
		t.Error("helpers started again while every core had a run")
	}
	h.add(-1)
	if started[a] != 2 || started[c] != 1 {
		t.Errorf("a core idle again: the stopped run helped %d times, the one with no series left %d; want 2 and 1", started[a], started[c])
	}
	h.add(1)
	h.add(-1)
	if started[a] != 2 {
		t.Errorf("a run helped again while its helper runs: %d", started[a])
	}
}
