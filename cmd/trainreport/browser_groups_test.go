package main

// Browser test of the scalars page's run groups: with a Group pattern,
// runs whose names differ only in what it matches are drawn as their mean
// with a band of one standard deviation, checked point by point against
// the same statistics computed here from what was written.

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// seedRuns are the runs of the test and, per run, its steps and value at
// each: three seeds of "ppo" logged at every step, a fourth every third
// step from step 3 (its values in between are taken linearly), one seed
// of "dqn" with a NaN, a run the pattern does not match, and groups named
// like the properties every JavaScript object has.
var seedRuns = map[string]func() ([]int64, []float64){
	"ppo/seed=1": func() ([]int64, []float64) { return seedSteps(0, 30, 1), seedValues(0, 30, 1, 1) },
	"ppo/seed=2": func() ([]int64, []float64) { return seedSteps(0, 30, 1), seedValues(0, 30, 1, 2) },
	"ppo/seed=3": func() ([]int64, []float64) { return seedSteps(0, 30, 1), seedValues(0, 30, 1, 4) },
	"ppo/seed=4": func() ([]int64, []float64) { return seedSteps(3, 25, 3), seedValues(3, 25, 3, 3) },
	"dqn/seed=1": func() ([]int64, []float64) {
		v := seedValues(0, 30, 1, 5)
		v[7] = math.NaN()
		return seedSteps(0, 30, 1), v
	},
	"baseline":           func() ([]int64, []float64) { return seedSteps(0, 30, 1), seedValues(0, 30, 1, 6) },
	"__proto__/seed=1":   func() ([]int64, []float64) { return seedSteps(0, 30, 1), seedValues(0, 30, 1, 7) },
	"constructor/seed=1": func() ([]int64, []float64) { return seedSteps(0, 30, 1), seedValues(0, 30, 1, 8) },
}

func seedSteps(from, to, every int64) []int64 {
	var s []int64
	for i := from; i < to; i += every {
		s = append(s, i)
	}
	return s
}

func seedValues(from, to, every int64, k float64) []float64 {
	var v []float64
	for i := from; i < to; i += every {
		v = append(v, k+float64(i)*0.25*k) // exact in float32
	}
	return v
}

func writeSeedRuns(t *testing.T, dir string) {
	t.Helper()
	for run, gen := range seedRuns {
		steps, values := gen()
		var events []*eventpb.Event
		for i, s := range steps {
			events = append(events, summaryEvent(s, 0, simpleValue("loss", float32(values[i]))))
		}
		writeEventFile(t, filepath.Join(dir, filepath.FromSlash(run), "events.out.tfevents.1700000000.host"), events)
	}
}

// groupStats is the mean, sample standard deviation and member count of
// the runs at every step any of them has, each run counting between its
// first and last finite values, linearly between its steps.
func groupStats(runs []string) (steps []int64, mean, std []float64, n []int) {
	type pts struct {
		s []int64
		v []float64
	}
	var members []pts
	for _, r := range runs {
		ss, vs := seedRuns[r]()
		var p pts
		for i := range ss {
			steps = append(steps, ss[i])
			if !math.IsNaN(vs[i]) {
				p.s, p.v = append(p.s, ss[i]), append(p.v, vs[i])
			}
		}
		members = append(members, p)
	}
	slices.Sort(steps)
	steps = slices.Compact(steps)
	var kept []int64
	for _, s := range steps {
		var vals []float64
		for _, p := range members {
			i, found := slices.BinarySearch(p.s, s)
			switch {
			case found:
				vals = append(vals, p.v[i])
			case i > 0 && i < len(p.s):
				t := float64(s-p.s[i-1]) / float64(p.s[i]-p.s[i-1])
				vals = append(vals, p.v[i-1]+t*(p.v[i]-p.v[i-1]))
			}
		}
		if len(vals) == 0 {
			continue
		}
		var m, ss float64
		for _, v := range vals {
			m += v
		}
		m /= float64(len(vals))
		for _, v := range vals {
			ss += (v - m) * (v - m)
		}
		sd := 0.0
		if len(vals) > 1 {
			sd = math.Sqrt(ss / float64(len(vals)-1))
		}
		kept, mean, std, n = append(kept, s), append(mean, m), append(std, sd), append(n, len(vals))
	}
	return kept, mean, std, n
}

func TestBrowserRunGroups(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	logs := filepath.Join(t.TempDir(), "logs")
	writeSeedRuns(t, logs)
	r := buildReport(t, logs)

	const pattern = `/seed=\d+`
	type series struct {
		ID, Name string
		Data     [][]float64 // points [x, y] (a null y, a gap, reads as 0), band segments [x0, x1, lo0, hi0, lo1, hi1]
	}
	read := func(tb *tab) []series {
		t.Helper()
		var out []series
		if err := json.Unmarshal([]byte(eval[string](tb, pageJS("groups.js", "series"))), &out); err != nil {
			t.Fatal(err)
		}
		return out
	}
	byID := func(ss []series, id string) *series {
		for i := range ss {
			if ss[i].ID == id {
				return &ss[i]
			}
		}
		t.Fatalf("no series %q among %v", id, ss)
		return nil
	}

	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "scalars.html"), "smoothing=0&group="+url.QueryEscape(pattern))},
		{"single-file", fileURL(r.single, "page=scalars&smoothing=0&group="+url.QueryEscape(pattern))},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			got := read(tb)
			var names []string
			for _, s := range got {
				if !slices.Contains(names, s.Name) {
					names = append(names, s.Name)
				}
			}
			slices.Sort(names)
			want := []string{"__proto__ · mean ± std of 1 run", "baseline", "constructor · mean ± std of 1 run",
				"dqn · mean ± std of 1 run", "ppo · mean ± std of 4 runs"}
			if !slices.Equal(names, want) {
				t.Fatalf("series names %q, want %q", names, want)
			}
			// Groups are numbered in the order of their first run in the
			// chart (runs sorted by name).
			for gi, runs := range [][]string{{"__proto__/seed=1"}, {"constructor/seed=1"}, {"dqn/seed=1"}, {"ppo/seed=1", "ppo/seed=2", "ppo/seed=3", "ppo/seed=4"}} {
				steps, mean, std, _ := groupStats(runs)
				m, band := byID(got, fmt.Sprint("group:", gi)), byID(got, fmt.Sprint("band:", gi))
				if len(m.Data) != len(steps) || len(band.Data) != len(steps)-1 {
					t.Fatalf("group %v: %d points and %d band segments, want %d and %d", runs, len(m.Data), len(band.Data), len(steps), len(steps)-1)
				}
				for j, s := range steps {
					if m.Data[j][0] != float64(s) || !near(m.Data[j][1], mean[j]) {
						t.Errorf("group %v, step %d: mean point %v, want (%d, %g)", runs, s, m.Data[j], s, mean[j])
					}
					// Segment j-1 ends at step j, segment j starts there.
					for _, at := range [][3]int{{j - 1, 1, 4}, {j, 0, 2}} {
						if seg, x, lo := at[0], at[1], at[2]; seg >= 0 && seg < len(band.Data) {
							d := band.Data[seg]
							if d[x] != float64(s) || !near(d[lo], mean[j]-std[j]) || !near(d[lo+1], mean[j]+std[j]) {
								t.Errorf("group %v, step %d: band segment %v, want %g to %g", runs, s, d, mean[j]-std[j], mean[j]+std[j])
							}
						}
					}
				}
			}
			// The tooltip lists the group with its deviation and how many
			// runs had a value there.
			tip := eval[string](tb, pageJS("groups.js", "tip", "group:3", 10))
			if !strings.Contains(tip, "ppo · mean ± std of 4 runs") || !strings.Contains(tip, "(4)") || !strings.Contains(tip, "baseline") {
				t.Errorf("tooltip at step 10: %q", tip)
			}
			// The run the pattern does not match is drawn as itself.
			if b := byID(got, "run:1"); b.Name != "baseline" || len(b.Data) != 30 {
				t.Errorf("baseline drawn as %q with %d points", b.Name, len(b.Data))
			}

			// Smoothing applies to each run before the mean: the ppo line
			// changes, and clearing the pattern brings the runs back.
			eval[bool](tb, pageJS("groups.js", "set", "smoothing", "0.8"))
			waitFor(tb, `location.hash.includes("smoothing=0.8")`, stepTimeout, "smoothing in the URL")
			sm := byID(read(tb), "group:3")
			ppo := byID(got, "group:3")
			if sm.Data[len(sm.Data)-1][1] == ppo.Data[len(ppo.Data)-1][1] {
				t.Error("smoothing did not change the group's mean")
			}
			tb.screenshot(shots, "groups-"+c.name)
			eval[bool](tb, pageJS("groups.js", "set", "group", ""))
			waitFor(tb, `!location.hash.includes("group=")`, stepTimeout, "the group pattern leaving the URL")
			if ss := read(tb); slices.ContainsFunc(ss, func(s series) bool { return s.ID == "group:0" }) || len(ss) < 6 {
				t.Errorf("after clearing the pattern: %d series, groups left: %v", len(ss), ss)
			}
		})
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// TestBrowserScalarsPageBudget opens a scalars page whose page budget
// lowered the points per series: it says so, and every chart draws, each
// series at most about the lowered budget.
func TestBrowserScalarsPageBudget(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	logs := demoLogs(t)
	r := buildReport(t, logs, "--max-page-points", "3000")
	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), "smoothing=0"))
	type view struct {
		Note            string
		Figures, Charts int
		Longest         int // points of the longest drawn run line
	}
	v := eval[view](tb, pageJS("scalars.js", "budget"))
	m := regexp.MustCompile(`each draws at most (\d+) points`).FindStringSubmatch(v.Note)
	if m == nil {
		t.Fatalf("the page does not say its budget lowered the points per series: %q", v.Note)
	}
	perSeries, _ := strconv.Atoi(m[1])
	if v.Figures == 0 || v.Charts != v.Figures {
		t.Errorf("%d of %d charts drawn", v.Charts, v.Figures)
	}
	// The drawing downsampler keeps about its budget (bucket extremes).
	if v.Longest == 0 || v.Longest > perSeries*11/10 {
		t.Errorf("longest line draws %d points, budget %d per series", v.Longest, perSeries)
	}
}
