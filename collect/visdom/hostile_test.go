package visdom

import (
	"math"
	"runtime"
	"strings"
	"testing"
)

// allocated is how many bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// readers reads a file as a saved environment or as a replay log.
var readers = []struct {
	name string
	read func([]byte) Result
	// file wraps a plot's traces (a JSON array) and a window of its own
	// content in a file of the kind.
	file func(plotData, otherType, otherContent string) string
}{
	{"env", func(b []byte) Result { return ReadEnv(b, "main") }, func(plotData, otherType, otherContent string) string {
		return `{"jsons": {"h": {"id": "h", "title": "h", "type": "plot", "i": 0, "content": {"data": ` + plotData + `, "layout": {}}}, ` +
			`"o": {"id": "o", "title": "o", "type": "` + otherType + `", "i": 1, "content": ` + otherContent + `}, ` +
			`"ok": {"id": "ok", "title": "ok", "type": "plot", "i": 2, "content": {"data": [{"x": [1, 2], "y": [3, 4]}], "layout": {}}}}, "reload": {}}`
	}},
	{"log", ReadLog, func(plotData, otherType, otherContent string) string {
		return `["events", {"data": ` + plotData + `, "win": "h", "eid": "main"}]` + "\n" +
			`["events", {"data": [{"content": ` + otherContent + `, "type": "` + otherType + `"}], "win": "o", "eid": "main"}]` + "\n" +
			`["events", {"data": [{"x": [1, 2], "y": [3, 4]}], "win": "ok", "eid": "main"}]` + "\n"
	}},
}

// checkOK checks that the window "ok" that readers' files end with was
// read whole.
func checkOK(t *testing.T, res Result) {
	t.Helper()
	if len(res.Envs) != 1 {
		t.Fatalf("%d environments", len(res.Envs))
	}
	w := windows(res.Envs[0])["ok"]
	if w == nil || len(w.Traces) != 1 || !sameFloats(w.Traces[0].Y, []float64{3, 4}) {
		t.Fatalf("window ok: %+v", w)
	}
}

// A grid written ragged, one long row and many empty ones, was padded to
// rows × its longest row before any budget: 20 KB made 618 MB and a 94 MB
// report, 850 KB asked for 240 GB. Padding (Plotly draws missing cells as
// gaps) is now bounded in cells before anything is allocated: it may add
// at most as many cells as the grid holds. Here 2,000 numbers in 1,001
// rows would pad to 2 million cells (16 MB); the grid is left out with
// one problem naming its window, the rest of the file is read, and
// reading it allocates a small multiple of the file.
func TestRaggedGridIsBounded(t *testing.T) {
	row := strings.TrimSuffix(strings.Repeat("1,", 2000), ",")
	z := `[[` + row + `]` + strings.Repeat(`,[]`, 1000) + `]`
	plot := `[{"type": "heatmap", "z": ` + z + `}, {"type": "heatmap", "z": ` + z + `}]`
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			data := []byte(rd.file(plot, "text", `"hello"`))
			var res Result
			n := allocated(func() { res = rd.read(data) })
			if limit := uint64(64*len(data) + 1<<20); n > limit {
				t.Errorf("%d bytes allocated reading %d bytes, want at most %d", n, len(data), limit)
			}
			checkOK(t, res)
			w := windows(res.Envs[0])["h"]
			if len(w.Traces) != 2 || len(w.Traces[0].Z) != 0 || len(w.Traces[1].Z) != 0 || !strings.Contains(w.Cut, "ragged grid") {
				t.Errorf("window h: %d traces, cut %q", len(w.Traces), w.Cut)
			}
			if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Msg, `window "h": trace 1's z left out: a ragged grid (2000 numbers in 1001 rows, the longest 2000) would pad to 2002000 cells`) {
				t.Errorf("problems %v", res.Problems)
			}
		})
	}
}

// A ragged grid whose padding adds no more cells than it holds is padded
// with NaN, the gaps Plotly draws.
func TestRaggedGridIsPadded(t *testing.T) {
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			res := rd.read([]byte(rd.file(`[{"type": "heatmap", "z": [[1], [2, 3], null, [4, 5, 6]]}]`, "text", `"hello"`)))
			checkOK(t, res)
			tr := windows(res.Envs[0])["h"].Traces[0]
			nan := math.NaN()
			if tr.Rows != 4 || tr.Cols != 3 || !sameFloats(tr.Z, []float64{1, nan, nan, 2, 3, nan, nan, nan, nan, 4, 5, 6}) || len(res.Problems) > 0 {
				t.Errorf("%dx%d %v, problems %v", tr.Rows, tr.Cols, tr.Z, res.Problems)
			}
		})
	}
}

// Python's json writes nan, inf and -inf as NaN, Infinity and -Infinity;
// one of them made encoding/json refuse the whole file ("no event files
// found"). They are read as Python reads them, in every place a number
// or a string may be: testdata/python/generate.py wrote the files with
// Python's json module.
func TestPythonLiterals(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		file string
		res  Result
		x, y []float64
	}{
		{"nan.json", ReadEnv(readFixture(t, "python/nan.json"), "main"), []float64{1, 2, 3, 4}, []float64{0.5, nan, inf, -inf}},
		{"nan.log", ReadLog(readFixture(t, "python/nan.log")), []float64{1, 2, 3, 4, 5}, []float64{0.5, nan, inf, -inf, nan}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			if tc.res.Damaged || len(tc.res.Problems) > 0 || len(tc.res.Envs) != 1 {
				t.Fatalf("damaged %v, problems %v, %d environments", tc.res.Damaged, tc.res.Problems, len(tc.res.Envs))
			}
			ws := windows(tc.res.Envs[0])
			if tr := ws["loss"].Traces[0]; !sameFloats(tr.X, tc.x) || !sameFloats(tr.Y, tc.y) || tr.Name != "train" {
				t.Errorf("loss: %+v", tr)
			}
			if tr := ws["heat"].Traces[0]; tr.Rows != 2 || tr.Cols != 2 || !sameFloats(tr.Z, []float64{1, nan, inf, -inf}) {
				t.Errorf("heat: %+v", tr)
			}
			if p := ws["props"].Properties; len(p) != 2 || p[0].Value != "NaN" || p[1].Value != "-Infinity" {
				t.Errorf("props: %+v", p)
			}
		})
	}
}

// The words are replaced only outside strings: names that spell them
// stay names, and a file with none of them is read as it is.
func TestPythonLiteralsInStrings(t *testing.T) {
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			res := rd.read([]byte(rd.file(`[{"type": "bar", "x": ["NaN", "-Infinity", "Infinity \"NaN\""], "y": [1, NaN, -Infinity]}]`, "text", `"NaN"`)))
			checkOK(t, res)
			tr := windows(res.Envs[0])["h"].Traces[0]
			if strings.Join(tr.XNames, "|") != `NaN|-Infinity|Infinity "NaN"` || !sameFloats(tr.Y, []float64{1, math.NaN(), math.Inf(-1)}) {
				t.Errorf("trace %+v", tr)
			}
			if txt := windows(res.Envs[0])["o"].Text; txt != "NaN" {
				t.Errorf("text %q", txt)
			}
		})
	}
}

// A value nested deeper than encoding/json reads (10,000 levels) made it
// refuse the whole file. The value is left out, with one problem naming
// its window, and the rest of the file is read.
func TestTooDeepValueIsOneProblem(t *testing.T) {
	deep := strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001)
	for _, rd := range readers {
		t.Run(rd.name, func(t *testing.T) {
			res := rd.read([]byte(rd.file(`[{"x": [1], "y": [2]}]`, "properties", `[{"type": "text", "name": "a", "value": `+deep+`}]`)))
			checkOK(t, res)
			if len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Msg, `window "o": a value nested more than 10,000 levels deep left out`) {
				t.Errorf("problems %v", res.Problems)
			}
			if w := windows(res.Envs[0])["o"]; w == nil || len(w.Properties) != 1 || w.Properties[0].Name != "a" {
				t.Errorf("window o: %+v", w)
			}
		})
	}
}

// tolerate keeps every offset, replaces only what is outside strings, and
// leaves a file without Python's words as it is.
func TestTolerate(t *testing.T) {
	in := `{"a": [NaN, -Infinity, Infinity], "b": "NaN \" Infinity \\", "c": NaN}`
	out, changed, deep := tolerate([]byte(in))
	want := `{"a": ["` + "\xfd" + `", "` + "\xff" + `"      , "` + "\xfe" + `"     ], "b": "NaN \" Infinity \\", "c": "` + "\xfd" + `"}`
	if string(out) != want || !changed || deep {
		t.Errorf("tolerate(%s) = %q, %v, %v\nwant %q", in, out, changed, deep, want)
	}
	for _, s := range []string{`{"a": "NaN"}`, ``, `"`, `["\"]`, `[1, 2]`} {
		if out, changed, _ := tolerate([]byte(s)); changed || string(out) != s {
			t.Errorf("tolerate(%q) = %q, %v", s, out, changed)
		}
	}
}
