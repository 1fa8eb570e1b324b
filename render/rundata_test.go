package render

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/outdir"
)

// syntheticSweep writes a sweep of 110 runs (more than an every-run page
// draws) of two tags of 1,500 steps, on one grid but for runs that
// stopped early, some restarted (superseded points), some with
// non-finite values, and returns its log directory.
func syntheticSweep(t *testing.T) string { return syntheticSweepOf(t, 110, 1500) }

// syntheticSweepOf is syntheticSweep of runs runs of steps steps.
func syntheticSweepOf(t *testing.T, runs int, steps0 int64) string {
	dir := t.TempDir()
	point := func(tag string, step int64, v float32) *eventpb.Event {
		return summaryEvent(step, &eventpb.SummaryValue{Tag: tag, Value: &eventpb.SummaryValue_SimpleValue{SimpleValue: v}})
	}
	for r := range runs {
		steps := steps0
		if r%7 == 3 {
			steps = min(steps0, steps0*4/15+int64(r)*5) // stopped early
		}
		var evs []*eventpb.Event
		if r%11 == 5 {
			for s := range steps0 / 5 { // an attempt restarted from step 0
				evs = append(evs, point("loss", s, float32(9-float64(s)/100)))
			}
		}
		for s := range steps {
			v := float32(1/(1+float64(s)/100) + float64(r)/1000 + float64((s*7919+int64(r))%13)/100)
			if r%13 == 6 && s%97 == 0 {
				v = float32(math.NaN())
			}
			evs = append(evs, point("loss", s, v), point("metrics/accuracy", s, float32(float64(s)/float64(steps)-float64(r%5)/10)))
		}
		writeEvents(t, dir, fmt.Sprintf("trial_%d", r), evs...)
	}
	return dir
}

// siteOnDisk reads every file of the site dir.
func siteOnDisk(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// stagedSite writes rep's site as a driver holding a run's points only
// while its stage runs does: Plan, each run through its analysis and
// RunData (a series at a time, as the command, when Staged.Begin takes
// it) and Compact, Finish, then the rest of the site; and returns the report, to
// write its other outputs after the points were dropped.
func stagedSite(t *testing.T, rep *model.Report, dir string, opt Options, aopt analysis.Options) *Report {
	t.Helper()
	ctx := context.Background()
	st, err := analysis.Plan(ctx, rep, nil, aopt)
	if err != nil {
		t.Fatal(err)
	}
	st.SetReads(ScalarReads(rep, st.Scalars(), st.Final, opt))
	site, err := outdir.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	opt.RunDataWritten = true
	rd := NewRunData(site, opt)
	for _, run := range rep.Runs {
		// As the command stages a run: a series at a time when the
		// analysis can (WriteEach), else whole.
		if rs, ok := st.Begin(run); ok {
			err = rd.WriteEach(ctx, run, st.Views(run), rs.Through)
			rs.End()
		} else {
			st.Run(run)
			err = rd.Write(ctx, run, st.Views(run))
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := rd.Place(run, st.Views(run)); err != nil {
			t.Fatal(err)
		}
		st.Compact(run)
	}
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	an, err := st.Finish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	r := New(rep, an, opt)
	if err := r.WriteSiteTo(ctx, site); err != nil {
		t.Fatal(err)
	}
	if err := site.Commit(); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestStagedSiteIsTheSite checks that the site written in stages, each
// run's data files written from its points and the points then dropped
// but for the drawn ones (the way the command writes a report, a direct
// build's or a merge's), is the site written from the whole model, byte
// for byte, with every data file option; and so are the single file and
// summary.md, written after. Small budgets make series downsampled in
// their data files and drawn under the page's shared budget.
func TestStagedSiteIsTheSite(t *testing.T) {
	inputs := []struct{ name, dir string }{
		{"tbreducer-torch-runs", filepath.Join(corpus(t), "tbreducer-torch-runs")},
		{"tf2-custom-loop-tensors", filepath.Join(corpus(t), "tf2-custom-loop-tensors")},
		{"lightning-tbx-sweep", filepath.Join(corpus(t), "lightning-tbx-sweep")},
		{"mindspore", filepath.Join("..", "collect", "testdata", "mindspore")},
		{"visdom", filepath.Join("..", "collect", "visdom", "testdata")},
		{"writers-tensorboardx", filepath.Join("..", "collect", "testdata", "writers", "tensorboardx")},
	}
	inputs = append(inputs, struct{ name, dir string }{"synthetic-sweep", syntheticSweep(t)},
		// Past an overview's runs: a sweep's, its sparklines from
		// data files.
		struct{ name, dir string }{"synthetic-sweep-210", syntheticSweepOf(t, 210, 60)})
	budgets := []analysis.Options{{}, {MaxPoints: 300, MaxPagePoints: 1000, MaxDataPoints: 40}}
	for _, in := range inputs {
		for bi, aopt := range budgets {
			t.Run(in.name, func(t *testing.T) {
				opt := Options{Title: in.name, DataJSON: true, DataTianshu: true, DataCSV: true}
				if bi == 1 {
					opt.MaxPageBytes = 300_000     // the sweep page draws its extremes with fewer points
					opt.MarkdownForm = MarkdownJob // every series' sparkline
				}
				whole := collectDir(t, in.name, in.dir)
				whole.SetDecoders(collect.Decoders())
				an, err := analysis.Build(context.Background(), whole, aopt)
				if err != nil {
					t.Fatal(err)
				}
				rw := New(whole, an, opt)
				a, b := filepath.Join(t.TempDir(), "whole"), filepath.Join(t.TempDir(), "staged")
				if err := rw.WriteSite(a); err != nil {
					t.Fatal(err)
				}
				staged := collectDir(t, in.name, in.dir)
				staged.SetDecoders(collect.Decoders())
				rs := stagedSite(t, staged, b, opt, aopt)
				fa, fb := siteOnDisk(t, a), siteOnDisk(t, b)
				for name, data := range fa {
					if got, ok := fb[name]; !ok {
						t.Errorf("budgets %d: the staged site has no %s", bi, name)
					} else if !bytes.Equal(got, data) {
						t.Errorf("budgets %d: the staged site's %s differs (%d bytes, want %d)", bi, name, len(got), len(data))
					}
				}
				for name := range fb {
					if _, ok := fa[name]; !ok {
						t.Errorf("budgets %d: the staged site has %s, the whole one not", bi, name)
					}
				}
				var sa, sb, ma, mb bytes.Buffer
				if err := rw.WriteSingleFile(&sa); err != nil {
					t.Fatal(err)
				}
				if err := rs.WriteSingleFile(&sb); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(sa.Bytes(), sb.Bytes()) {
					t.Errorf("budgets %d: the single files differ", bi)
				}
				if err := rw.WriteMarkdown(&ma); err != nil {
					t.Fatal(err)
				}
				if err := rs.WriteMarkdown(&mb); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(ma.Bytes(), mb.Bytes()) {
					t.Errorf("budgets %d: summary.md differs", bi)
				}
				var ea, eb bytes.Buffer // in the comment's form, whatever opt's
				if err := rw.WriteEmail(&ea); err != nil {
					t.Fatal(err)
				}
				if err := rs.WriteEmail(&eb); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(ea.Bytes(), eb.Bytes()) {
					t.Errorf("budgets %d: the emails differ", bi)
				}
				if len(fa) < 5 {
					t.Fatalf("only %d files", len(fa))
				}
				// The stages dropped points: those of the series drawn
				// in part.
				held, total := 0, 0
				for i, run := range staged.Runs {
					for j, s := range run.Scalars {
						held += len(s.Points)
						total += len(whole.Runs[i].Scalars[j].Points)
					}
				}
				if bi == 1 && in.name == "synthetic-sweep" && held >= total {
					t.Errorf("budgets %d: %d points held after the stages, of %d", bi, held, total)
				}
				// A sweep's series no page draws inline hold their last
				// point: every point is held only by its extremes and the
				// first runs of each tag (summary.md's charts).
				if in.name == "synthetic-sweep-210" {
					whole := 2 * (2*result.SweepEnds + maxChartRuns) * 60
					if bound := whole + 2*210; held > bound || total < 5*bound {
						t.Errorf("budgets %d: %d points held after the stages, of %d: want at most %d", bi, held, total, bound)
					}
				}
				t.Logf("budgets %d: %d points held after the stages, of %d", bi, held, total)
			})
		}
	}
}
