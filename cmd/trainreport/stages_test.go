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
func stagedFiles(t *testing.T, rep *model.Report, help *runHelp) (map[string][]byte, string) {
	t.Helper()
	ctx := context.Background()
	st, err := analysis.Plan(ctx, rep, nil, analysis.Options{MaxPoints: 300})
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
	var drained func()
	if help != nil {
		drained = help.drained
	}
	held := &heldRuns{runs: rep.Runs}
	err = stageRuns(ctx, held.Next, func(run *model.Run) error {
		return stageRun(ctx, st, rd, run, help)
	}, func(run *model.Run) error {
		if err := rd.Place(run, st.Views(run)); err != nil {
			return err
		}
		st.Compact(run)
		return nil
	}, drained)
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
// their helpers start with them (every run shared from its start) or
// once no run is left to start (a build's), with several helpers.
func TestSharedRunsStageAsUnshared(t *testing.T) {
	want, wantFound := stagedFiles(t, sharedRunsReport(), nil)
	if len(want) < 20 || len(wantFound) < 100 {
		t.Fatalf("%d files, findings %s", len(want), wantFound)
	}
	for _, help := range []*runHelp{
		{helpers: 1, runs: map[*helpedRun]bool{}},
		{helpers: 1, open: true, runs: map[*helpedRun]bool{}},
		{helpers: 3, open: true, runs: map[*helpedRun]bool{}},
	} {
		got, found := stagedFiles(t, sharedRunsReport(), help)
		name := fmt.Sprintf("%d helpers, open %v", help.helpers, help.open)
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

// The helpers of the runs in flight start once the stage has no run
// left to start (drained), not before: then every core has a run of its
// own. A run that ended is not helped.
func TestRunHelpStartsOnceDrained(t *testing.T) {
	h := &runHelp{helpers: 1, runs: map[*helpedRun]bool{}}
	started := 0
	a, b, c := &helpedRun{start: func() { started++ }}, &helpedRun{start: func() { started++ }}, &helpedRun{start: func() { started++ }}
	h.join(a)
	h.join(b)
	if started != 0 {
		t.Fatalf("%d runs helped while runs were left to start", started)
	}
	h.leave(b)
	h.drained()
	if started != 1 || !a.started || b.started {
		t.Errorf("once drained: %d runs helped (in flight %v, ended %v), want the one in flight", started, a.started, b.started)
	}
	h.join(c)
	if !c.started || started != 2 {
		t.Error("a run that joins once drained is not helped at once")
	}
	h.drained()
	if started != 2 {
		t.Errorf("helpers started twice: %d", started)
	}
}
