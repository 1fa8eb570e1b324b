package render

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/cputime"
)

// A run's bundle holds every point of each of its series (or, past
// --max-data-points, the kept ones, with the series' total), in one file
// (here shared by both runs);
// with DataJSON its JSON line is also a file of its own, the same bytes,
// and without it there is no JSON twin.
func TestBundlesHoldEachSeriesOnce(t *testing.T) {
	vals := make([]float64, 5000)
	for i := range vals {
		vals[i] = math.Sin(float64(i) / 50)
	}
	vals[7], vals[4000] = math.NaN(), math.Inf(-1)
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": vals, "lr": vals[:10]}, "b": {"lr": vals[:3]}})
	for _, limit := range []int{0, 100} {
		for _, withJSON := range []bool{false, true} {
			r := newReport(rep, Options{DataJSON: withJSON}, analysis.Options{MaxDataPoints: limit})
			files := filesByName(t, r)
			var scalarFiles []string
			for name := range files {
				if strings.HasPrefix(name, "data/scalars/") {
					scalarFiles = append(scalarFiles, name)
				}
			}
			// Runs a and b share a bundle (packBundles).
			if want := 1 + btoi(withJSON); len(scalarFiles) != want || len(r.bundles) != 1 {
				t.Errorf("cap %d, JSON %v: scalar files %v, want %d", limit, withJSON, scalarFiles, want)
			}
			for _, tv := range r.tags {
				for _, sv := range tv.series {
					data := files["data/"+sv.file]
					doc := readRunBundle(t, sv.file, data, sv.run.Name)
					c := doc.Scalars[tv.tag]
					n := len(sv.scalar.Points)
					if got, want := c.Count, keptLen(sv.data, sv.scalar.Points); got != want || len(c.Value) != want {
						t.Errorf("%s, cap %d: %d points in the bundle, want %d", tv.tag, limit, got, want)
					}
					if capped := limit > 0 && n > limit; capped != (c.Total != nil) || (capped && *c.Total != n) {
						t.Errorf("%s, cap %d: total %v for %d points", tv.tag, limit, c.Total, n)
					}
					if withJSON {
						line := strings.Split(string(data), "\n")[1] + "\n"
						if got := string(files["data/"+strings.TrimSuffix(sv.file, ".js")+".json"]); got != line {
							t.Errorf("%s: the JSON file is not the bundle's second line:\n%.200s", sv.file, got)
						}
					}
				}
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// BenchmarkBundle formats the bundle of a run of one series of 100,000
// points (a data file's cap), float32 values and wall times of tenths,
// into a writer that keeps nothing.
func BenchmarkBundle(b *testing.B) {
	vals := make([]float64, 100_000)
	for i := range vals {
		vals[i] = float64(float32(math.Sin(float64(i) / 100)))
	}
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": vals}})
	for _, s := range rep.Runs[0].Scalars {
		s.Float32 = true
		for i := range s.Points {
			s.Points[i].WallTime = 1.7e9 + float64(i)/10
		}
	}
	sv := newReport(rep, Options{}).tags[0].series[0]
	w := &bundleWriter{}
	var out countWriter
	b.ReportAllocs()
	defer cputime.ReportPerOp(b, cputime.Used())
	for b.Loop() {
		w.js, w.b, out = &out, w.b[:0], 0
		if err := w.write(&bundleGroup{file: sv.file, runs: []*model.Run{sv.run}, series: [][]*seriesView{{sv}}}); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(out))
	b.ReportMetric(1e5*float64(b.N)/b.Elapsed().Seconds(), "points/s")
}

// BenchmarkWriteSiteSweep writes the site of a sweep of 500 runs x 5 tags
// x 1,000 steps (2.5 M points, 500 bundles) to a folder: formatting, the pages and the files' system calls.
func BenchmarkWriteSiteSweep(b *testing.B) {
	runs := map[string]map[string][]float64{}
	for r := range 500 {
		tags := map[string][]float64{}
		for tg := range 5 {
			vals := make([]float64, 1000)
			for i := range vals {
				vals[i] = float64(float32(math.Exp(-float64(i)/300) + float64(r%7)/100))
			}
			tags[fmt.Sprintf("group%d/metric%d", tg%2, tg)] = vals
		}
		runs[fmt.Sprintf("run%03d", r)] = tags
	}
	rep := synthetic(runs)
	dir := b.TempDir()
	b.ReportAllocs()
	defer cputime.ReportPerOp(b, cputime.Used())
	i := 0
	for b.Loop() {
		i++
		if err := newReport(rep, Options{}).WriteSite(filepath.Join(dir, fmt.Sprint(i))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2.5e6*float64(b.N)/b.Elapsed().Seconds(), "points/s")
}
