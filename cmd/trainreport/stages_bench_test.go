package main

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/cputime"
	"github.com/trainreport/trainreport/internal/outdir"
	"github.com/trainreport/trainreport/render"
)

// p8mReport is a report shaped like /work/sweeps/p8m (examples/synth
// -runs 8 -tags 10 -steps 100000): runs of ten tags of float32 points,
// tag t's value exp(-3x)(1+t) plus noise of 0.05, wall times a tenth of
// a second apart.
func p8mReport(runs, steps int) *model.Report { return synthReport(runs, 10, steps) }

// synthReport is p8mReport's report of runs runs of tags tags of steps
// points each.
func synthReport(runs, tags, steps int) *model.Report {
	rep := &model.Report{}
	for r := range runs {
		rng := rand.New(rand.NewPCG(uint64(r), 42))
		run := &model.Run{Name: fmt.Sprintf("run%02d", r)}
		for t := range tags {
			run.Scalars = append(run.Scalars, &model.Scalar{Tag: fmt.Sprintf("group%d/metric%02d", t%3, t), Float32: true, Points: make([]model.Point, steps)})
		}
		// In tag order, as collection leaves a run's series.
		slices.SortFunc(run.Scalars, func(a, b *model.Scalar) int { return strings.Compare(a.Tag, b.Tag) })
		for s := range steps {
			x := float64(s) / float64(steps)
			for t, sc := range run.Scalars {
				v := float32(math.Exp(-x*3)*(1+float64(t)) + rng.NormFloat64()*0.05)
				sc.Points[s] = model.Point{Step: int64(s), WallTime: 1.7e9 + float64(s)*0.1, Value: float64(v)}
			}
		}
		rep.Runs = append(rep.Runs, run)
	}
	return rep
}

// BenchmarkStageRunsP8m is the runs' stage of a report shaped like p8m
// (p8mReport: 8 runs of 1 M points), on all cores as a build runs it
// (stageRuns): cpu-ns/op is the stage's CPU time, its analysis and data
// files, with Plan and the site's creation left out. "shared" is the
// build's stageRun (a series analysed and formatted after another, the
// runs at work shared by every core once fewer than the cores:
// stageShared),
// "series" the same unshared, "runs" each run analysed whole, then
// formatted (Staged.Run, then RunData.Write), as before.
func BenchmarkStageRunsP8m(b *testing.B) { benchStageRuns(b, p8mReport(8, 100_000)) }

// BenchmarkStageRunsS2k is BenchmarkStageRunsP8m of a report shaped
// like /work/sweeps/s2k: 2,000 runs of 5 tags of 1,000 points.
func BenchmarkStageRunsS2k(b *testing.B) { benchStageRuns(b, synthReport(2000, 5, 1000)) }

// BenchmarkStageRunsOneRun is BenchmarkStageRunsP8m of a report of one
// run of p8m's (10 tags of 100,000 points): the shape of a report of one
// long training run, a run that only sharing puts on more than one core.
func BenchmarkStageRunsOneRun(b *testing.B) { benchStageRuns(b, p8mReport(1, 100_000)) }

func benchStageRuns(b *testing.B, rep *model.Report) {
	ctx := context.Background()
	for _, mode := range []string{"runs", "series", "shared"} {
		b.Run(mode, func(b *testing.B) {
			var used int64
			for i := range b.N {
				st, err := analysis.Plan(ctx, rep, nil, analysis.Options{})
				if err != nil {
					b.Fatal(err)
				}
				site, err := outdir.Create(filepath.Join(b.TempDir(), fmt.Sprint(i)))
				if err != nil {
					b.Fatal(err)
				}
				rd := render.NewRunData(site, render.Options{})
				held := &heldRuns{runs: rep.Runs}
				var help *runHelp
				if mode == "shared" {
					help = newRunHelp()
				}
				start := cputime.Used()
				err = stageRuns(ctx, held.Next, func(run *model.Run) error {
					if mode == "runs" {
						st.Run(run)
						return rd.Write(ctx, run, st.Views(run))
					}
					return help.work(func() error { return stageRun(ctx, st, rd, run, help) })
				}, func(run *model.Run) error { return rd.Place(run, st.Views(run)) })
				if err == nil {
					err = rd.Close()
				}
				used += int64(cputime.Used() - start)
				site.Abort()
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(used)/float64(b.N), "cpu-ns/op")
		})
	}
}
