package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/trainreport/trainreport/internal/analysis"
)

// A series' script form hands the data file's points, the same bytes, to
// the page's runtime, whether the file keeps every point (no index list)
// or a downsampled few; reused buffers leave nothing of an earlier series.
func TestScalarFilesShareThePoints(t *testing.T) {
	vals := make([]float64, 5000)
	for i := range vals {
		vals[i] = math.Sin(float64(i) / 50)
	}
	vals[7], vals[4000] = math.NaN(), math.Inf(-1)
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": vals, "lr": vals[:10]}})
	for _, limit := range []int{0, 100} {
		r := newReport(rep, Options{}, analysis.Options{MaxDataPoints: limit})
		var buf []byte
		for _, tv := range r.tags {
			for _, sv := range tv.series {
				n := len(sv.scalar.Points)
				if fits := limit == 0 || n <= limit; (sv.data == nil) != fits {
					t.Errorf("%s, cap %d: index list %v for %d points", tv.tag, limit, sv.data != nil, n)
				}
				b, split := scalarFiles(buf, sv)
				data, script := b[:split], b[split:]
				var file map[string][]json.RawMessage
				if err := json.Unmarshal(data, &file); err != nil {
					t.Fatalf("%s: %v", tv.tag, err)
				}
				if got, want := len(file[tv.tag]), keptLen(sv.data, sv.scalar.Points); got != want {
					t.Errorf("%s, cap %d: %d points in the file, want %d", tv.tag, limit, got, want)
				}
				points := data[bytes.IndexByte(data, ':')+1 : len(data)-2]
				want := appendScriptHead(nil, sv.file)
				want = append(append(want, points...), ");\n"...)
				if !bytes.Equal(script, want) {
					t.Errorf("%s, cap %d: script is not the file's points:\n%.200s", tv.tag, limit, script)
				}
				buf = b
			}
		}
	}
}

// BenchmarkScalarFiles formats one series of 100,000 points (a data
// file's cap) as its data file and script.
func BenchmarkScalarFiles(b *testing.B) {
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
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = scalarFiles(buf, sv)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportMetric(1e5*float64(b.N)/b.Elapsed().Seconds(), "points/s")
}

// BenchmarkWriteSiteSweep writes the site of a sweep of 500 runs x 5 tags
// x 1,000 steps (2.5 M points, 5,000 data files and their scripts) to a
// folder: formatting, the pages and the files' system calls.
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
	i := 0
	for b.Loop() {
		i++
		if err := newReport(rep, Options{}).WriteSite(filepath.Join(dir, fmt.Sprint(i))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(2.5e6*float64(b.N)/b.Elapsed().Seconds(), "points/s")
}
