package render

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/reduce/project"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// groupDoc is a scalar bundle file as a reader with a JSON parser sees it
// (docs/OUTPUTS.md, "Data layout version 3"), numbers kept as written:
// runs in the file's order.
type groupDoc struct {
	Layout int                   `json:"layout"`
	Runs   map[string]*bundleDoc `json:"runs"`
	Order  []string              `json:"-"`
}

// bundleDoc is one run's member of a bundle, layout 2's per-run content.
type bundleDoc struct {
	Scalars    map[string]bundleColumns     `json:"scalars"`
	Superseded map[string][]json.RawMessage `json:"superseded"`
}

type bundleColumns struct {
	Attempt  *int            `json:"attempt"`
	Count    int             `json:"count"`
	Total    *int            `json:"total"`
	Step     json.RawMessage `json:"step"`
	WallTime json.RawMessage `json:"wall_time"`
	Value    []any           `json:"value"` // json.Number, or a string for a non-finite value
}

// decodedPoints are a series' columns decoded as a reader decodes them.
type decodedPoints struct {
	steps  []int64
	walls  []float64
	values []any
}

// readBundle parses a bundle file: three lines, the call naming name, the
// JSON document, and ");". Order lists its runs as written; no run is
// twice.
func readBundle(t testing.TB, name string, b []byte) *groupDoc {
	t.Helper()
	lines := strings.Split(string(b), "\n")
	q, _ := json.Marshal(name)
	if len(lines) != 4 || lines[0] != "window.trainreport&&window.trainreport.dataLoaded("+string(q)+"," || lines[2] != ");" || lines[3] != "" {
		t.Fatalf("%s is not a bundle of three lines: %.200q", name, b)
	}
	var doc struct {
		Layout int                        `json:"layout"`
		Runs   map[string]json.RawMessage `json:"runs"`
	}
	dec := json.NewDecoder(strings.NewReader(lines[1]))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("%s: line 2: %v", name, err)
	}
	if doc.Layout != DataLayout {
		t.Errorf("%s: layout %d", name, doc.Layout)
	}
	g := &groupDoc{Layout: doc.Layout, Runs: map[string]*bundleDoc{}, Order: runOrder(t, name, lines[1])}
	if len(g.Order) != len(doc.Runs) {
		t.Fatalf("%s: %d runs written, %d distinct", name, len(g.Order), len(doc.Runs))
	}
	for run, raw := range doc.Runs {
		var rd bundleDoc
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		dec.DisallowUnknownFields()
		if err := dec.Decode(&rd); err != nil {
			t.Fatalf("%s: run %q: %v", name, run, err)
		}
		g.Runs[run] = &rd
	}
	return g
}

// runOrder lists the keys of the "runs" object of the bundle document
// line, in the order written.
func runOrder(t testing.TB, name, line string) []string {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(line))
	var order []string
	depth, inRuns := 0, false
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				depth++
			} else {
				depth--
				if depth == 1 {
					inRuns = false
				}
			}
		case string:
			if depth == 1 && v == "runs" {
				inRuns = true
				continue
			}
			if inRuns && depth == 2 {
				order = append(order, v)
				// Skip the run's member whole.
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					t.Fatalf("%s: run %q: %v", name, v, err)
				}
			}
		}
	}
	return order
}

// readRunBundle is readBundle's member of run, which the file must hold.
func readRunBundle(t testing.TB, name string, b []byte, run string) *bundleDoc {
	t.Helper()
	d, ok := readBundle(t, name, b).Runs[run]
	if !ok {
		t.Fatalf("%s holds no run %q", name, run)
	}
	return d
}

// decode decodes c's columns: steps from a progression or a list, wall
// times from a list or the fixed-point form, summed and divided as a
// JavaScript or Python reader does.
func (c bundleColumns) decode(t testing.TB) decodedPoints {
	t.Helper()
	n := c.Count
	if len(c.Value) != n {
		t.Fatalf("count %d, %d values", n, len(c.Value))
	}
	out := decodedPoints{values: c.Value}
	var prog struct{ First, Stride *int64 }
	if err := json.Unmarshal(c.Step, &out.steps); err != nil {
		if err := json.Unmarshal(c.Step, &prog); err != nil || prog.First == nil || prog.Stride == nil {
			t.Fatalf("steps %s", c.Step)
		}
		for i := range n {
			out.steps = append(out.steps, int64(float64(*prog.First)+float64(i)*float64(*prog.Stride)))
		}
	}
	out.walls = decodeWalls(t, c.WallTime, n)
	if len(out.steps) != n || len(out.walls) != n {
		t.Fatalf("%d steps, %d wall times, count %d", len(out.steps), len(out.walls), n)
	}
	return out
}

// decodeWalls decodes a wall-time column of n values.
func decodeWalls(t testing.TB, raw json.RawMessage, n int) []float64 {
	t.Helper()
	var list []any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&list); err == nil {
		out := make([]float64, len(list))
		for i, v := range list {
			out[i] = numberOf(t, v, 64)
		}
		return out
	}
	var fp struct {
		Scale *int
		Base  *int64
		Delta []int64
	}
	if err := json.Unmarshal(raw, &fp); err != nil || fp.Scale == nil || fp.Base == nil || *fp.Scale < 0 || *fp.Scale > 22 || len(fp.Delta) != n {
		t.Fatalf("wall times %.200s: %v", raw, err)
	}
	p, _ := strconv.ParseFloat("1e"+strconv.Itoa(*fp.Scale), 64)
	out := make([]float64, n)
	acc := float64(*fp.Base) // as JavaScript sums: in float64, exact below 2^53
	for i, d := range fp.Delta {
		if d <= -maxExactInt || d >= maxExactInt {
			t.Fatalf("delta %d is not exact in a float64", d)
		}
		acc += float64(d)
		out[i] = acc / p
	}
	return out
}

// sameBits reports whether a and b are the same float64, bit for bit, or
// both NaN (written as "NaN", which keeps no payload).
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// TestWallColumnRoundTrips checks that a wall-time column reads back bit
// for bit, in the fixed-point form where it applies (regular times,
// negative, zero, huge) and as a plain list where it does not (a -0, a
// tiny value, 17 significant digits, non-finite values, Python's
// time.time() with seven decimals, whose integers pass 2^53).
func TestWallColumnRoundTrips(t *testing.T) {
	cases := []struct {
		name  string
		walls []float64
		fixed bool
	}{
		{"seconds", []float64{1.7e9, 1.7e9 + 1, 1.7e9 + 2, 1.7e9 + 10}, true},
		{"tenths", []float64{1700000000.1, 1700000000.2, 1700000000.3}, true},
		{"milliseconds", []float64{1700000000.001, 1700000000.25, 1700000001.999}, true},
		{"negative and zero", []float64{-5.5, -0.25, 0, 3}, true},
		{"huge integers", []float64{1 << 52, 1<<52 + 2, 1 << 51, -(1 << 50)}, true},
		{"one", []float64{42.125}, true},
		{"going back", []float64{100, 50.5, 75, 10}, true},
		{"minus zero", []float64{1, math.Copysign(0, -1), 2}, false},
		{"subnormal-like", []float64{1, 5e-324}, false},
		{"tiny", []float64{1e-300}, false},
		{"17 digits", []float64{0.1, 0.30000000000000004}, false},
		{"time.time()", []float64{1700000000.1234567, 1700000001.2345678}, false},
		{"past 2^53", []float64{1e300, 1}, false},
		{"NaN", []float64{1, math.NaN()}, false},
		{"infinity", []float64{math.Inf(-1), 1}, false},
		{"huge spread", []float64{-4e15, 4e15, 0.5}, false},
	}
	for _, c := range cases {
		b := appendWallColumn(nil, wallPoints(c.walls), nil, nil)
		if fixed := bytes.HasPrefix(b, []byte(`{"scale":`)); fixed != c.fixed {
			t.Errorf("%s: fixed-point form %v, want %v: %s", c.name, fixed, c.fixed, b)
		}
		got := decodeWalls(t, b, len(c.walls))
		for i, w := range c.walls {
			if !sameBits(got[i], w) {
				t.Errorf("%s: wall time %d reads back as %v (%x), want %v (%x): %s", c.name, i, got[i], math.Float64bits(got[i]), w, math.Float64bits(w), b)
			}
		}
	}
}

// FuzzWallColumn checks that any wall-time column, in whichever form the
// encoder chooses, reads back bit for bit, and steps likewise; and that
// stepProgression chooses as the scan of every step does.
func FuzzWallColumn(f *testing.F) {
	enc := func(vs ...float64) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
		return b
	}
	f.Add(enc(1.7e9, 1.7e9+0.5, 1.7e9+1))
	f.Add(enc(-1.5, 0, math.Copysign(0, -1)))
	f.Add(enc(1700000000.1234567, 5e-324, math.MaxFloat64))
	f.Add(enc(0.1, 0.2, 0.30000000000000004))
	f.Add(enc(1<<53, 1<<53+2))
	f.Add(enc(1, 2, 1.5, 1.25))     // the scale grows on the third and fourth
	f.Add(enc(-4e15, 4e15, 1, 0.5)) // a delta in range at scale 0, not at 1
	f.Fuzz(func(t *testing.T, raw []byte) {
		n := len(raw) / 8
		if n == 0 {
			return
		}
		// The fuzzed bits as wall times, and as decimals of a few places
		// (integers of up to 53 bits over 10^k), which the fixed-point
		// form takes.
		walls, decimals := make([]float64, n), make([]float64, n)
		steps := make([]int64, n)
		k := int(raw[0]) % (maxWallScale + 1)
		for i := range n {
			u := binary.LittleEndian.Uint64(raw[8*i:])
			walls[i] = math.Float64frombits(u)
			decimals[i] = float64(int64(u)>>11) / pow10[k]
			steps[i] = int64(u)
		}
		var b []byte
		for _, ws := range [][]float64{walls, decimals} {
			checkWallForm(t, ws)
			b = appendWallColumn(nil, wallPoints(ws), nil, nil)
			for _, src := range wallSources(ws) {
				if other := appendWallColumn(nil, src.wallTimes, nil, nil); !bytes.Equal(other, b) {
					t.Fatalf("wall times %v: from %s %s, from the points %s", ws, src.name, other, b)
				}
			}
			got := decodeWalls(t, b, n)
			for i, w := range ws {
				if !sameBits(got[i], w) {
					t.Fatalf("wall time %d: %v (%x), want %v (%x): %.300s", i, got[i], math.Float64bits(got[i]), w, math.Float64bits(w), b)
				}
			}
		}
		// Steps: the fuzzed integers, and a progression made of the first two.
		for _, st := range [][]int64{steps, progression(steps[0], int64(len(raw)), n)} {
			if _, _, ok := stepProgression(stepPoints(st), result.StepProgression{}); ok != stepProgressionReference(st) {
				t.Fatalf("steps %v: progression %v, the scan of every step says %v", st, ok, !ok)
			}
			c := bundleColumns{Count: n, Step: appendSteps(nil, stepPoints(st), result.StepProgression{}, nil),
				WallTime: b, Value: make([]any, n)}
			if got := c.decode(t).steps; !slices.Equal(got, st) {
				t.Fatalf("steps %v read back as %v from %s", st, got, c.Step)
			}
		}
	})
}

// checkWallForm checks wallForm of ws against the passes one by one
// (wallFormReference, wallScaleReference), and its integers against
// fixedPoint's, whichever loop found them: at a scale that admits two,
// the same one.
//
// It checks each source of a column's wall times (wallSources): the
// points, a copy of them, and points kept at indices.
func checkWallForm(t *testing.T, ws []float64) {
	t.Helper()
	for _, src := range wallSources(ws) {
		k, ms, ok := wallForm(src.wallTimes, nil)
		if ok != wallFormReference(ws) || ok && k != wallScaleReference(ws) {
			t.Fatalf("wallForm(%v) of %s = %d, %v; the passes one by one say %d, %v", ws, src.name, k, ok, wallScaleReference(ws), wallFormReference(ws))
		}
		for i, w := range ws {
			if m, _ := fixedPoint(w, k); ok && ms[i] != m {
				t.Fatalf("wallForm(%v) of %s: integer %d is %d, fixedPoint's %d", ws, src.name, i, ms[i], m)
			}
		}
	}
}

// namedWalls is a source of a column's wall times, named for a test's
// failures.
type namedWalls struct {
	name string
	wallTimes
}

// wallSources returns the wall times ws as each source of a column's
// wall-time column gives them: the points' (wallPoints), a copy handed
// beside the points, whose own wall times are other numbers (none of
// theirs may be read), and points kept at indices, between others.
func wallSources(ws []float64) []namedWalls {
	points := wallPoints(ws)
	// Decoys, wall times of points not to be read: whole seconds, which
	// wallRun's loop takes as they come, rather than leave to wallForm's
	// own step, which would read the right one again.
	const decoy = 12345
	decoys := make([]model.Point, len(ws))
	for i := range decoys {
		decoys[i].WallTime = decoy
	}
	mixed := make([]model.Point, 2*len(ws))
	idx := make([]int, len(ws))
	for i, w := range ws {
		idx[i] = 2*i + 1
		mixed[2*i].WallTime, mixed[2*i+1].WallTime = decoy, w
	}
	return []namedWalls{
		{"the points", points},
		{"a copy", wallTimes{kept: kept{pts: decoys}, walls: ws}},
		{"points kept at indices", wallTimes{kept: kept{mixed, idx}}},
	}
}

// wallScaleReference and wallFormReference are wallForm as it was
// written before it was one pass: the least scale first, then every
// integer and delta at that scale. FuzzWallColumn checks that the one
// pass agrees.
func wallScaleReference(ws []float64) int {
	k := 0
	for _, w := range ws {
		for {
			if _, ok := fixedPoint(w, k); ok || k == maxWallScale {
				break
			}
			k++
		}
	}
	return k
}

func wallFormReference(ws []float64) bool {
	if len(ws) == 0 {
		return false
	}
	for _, w := range ws {
		if w == 0 && math.Signbit(w) || math.IsNaN(w) || math.IsInf(w, 0) {
			return false
		}
	}
	k := wallScaleReference(ws)
	var prev int64
	for i, w := range ws {
		m, ok := fixedPoint(w, k)
		if !ok || i > 0 && (m-prev <= -maxExactInt || m-prev >= maxExactInt) {
			return false
		}
		prev = m
	}
	return true
}

// wallPoints and stepPoints are the points of the wall times or steps
// given, the column a test writes.
func wallPoints(ws []float64) wallTimes {
	pts := make([]model.Point, len(ws))
	for i, w := range ws {
		pts[i].WallTime = w
	}
	return wallTimes{kept: kept{pts: pts}}
}

func stepPoints(st []int64) kept {
	pts := make([]model.Point, len(st))
	for i, s := range st {
		pts[i].Step = s
	}
	return kept{pts: pts}
}

func progression(first, stride int64, n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = first + int64(i)*stride
	}
	return out
}

// TestStepsProgression checks the steps' forms: a progression only when
// it is one within the exact range, the list otherwise.
func TestStepsProgression(t *testing.T) {
	for _, c := range []struct {
		steps []int64
		want  string
	}{
		{[]int64{0, 1, 2, 3}, `{"first":0,"stride":1}`},
		{[]int64{10, 20, 30}, `{"first":10,"stride":10}`},
		{[]int64{7}, `{"first":7,"stride":0}`},
		{[]int64{5, 5, 5}, `{"first":5,"stride":0}`},
		{[]int64{3, 2, 1}, `{"first":3,"stride":-1}`},
		{[]int64{0, 1, 3}, `[0,1,3]`},
		{[]int64{1 << 52, 1<<52 + 1}, `[4503599627370496,4503599627370497]`},
		{[]int64{math.MinInt64, 0, math.MaxInt64 - 1}, `[-9223372036854775808,0,9223372036854775806]`},
		{nil, `[]`},
	} {
		if got := string(appendSteps(nil, stepPoints(c.steps), result.StepProgression{}, nil)); got != c.want {
			t.Errorf("steps %v: %s, want %s", c.steps, got, c.want)
		}
	}
}

// bundleInputs are the inputs whose layout-2 bundles are compared with
// the data files of layout 1: every folder of the shared corpus, the
// readers' and writers' fixtures (goldenInputs) and the CLI's sweep.
func bundleInputs(t *testing.T) map[string]string {
	t.Helper()
	inputs := map[string]string{"cmd-sweep12": filepath.Join("..", "cmd", "trainreport", "testdata", "sweep12"),
		"linspace": filepath.Join("..", "collect", "testdata", "linspace")}
	for _, in := range goldenInputs {
		switch {
		case in.corpus:
		case in.dir != "":
			inputs[in.name] = filepath.Join("..", filepath.FromSlash(in.dir))
		default:
			inputs[in.name] = filepath.Join("..", "collect", "testdata", "writers", strings.TrimPrefix(in.name, "writers-"))
		}
	}
	root := corpus(t)
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			inputs[e.Name()] = filepath.Join(root, e.Name())
		}
	}
	return inputs
}

// TestBundlesHoldTheTianshuPoints builds every input of bundleInputs with
// DataTianshu, which writes both layouts, and checks that the bundles
// hold exactly the points of the layout-1 files: every series, every
// point and every superseded attempt, values as written (the same text),
// steps and wall times bit for bit; and that data/index.json lists the
// layout-1 files and each run's bundle.
func TestBundlesHoldTheTianshuPoints(t *testing.T) {
	total, superseded := 0, 0
	for name, dir := range bundleInputs(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := os.Stat(dir); err != nil {
				t.Skip(err)
			}
			rep := collectDir(t, name, dir)
			defer rep.Close()
			files := filesByName(t, newReport(rep, Options{DataTianshu: true},
				analysis.Options{Embeddings: project.Options{MaxPCA: 300, MaxTSNE: 100, MaxUMAP: 100, MaxNeighbors: 100}}))
			var index dataIndex
			if err := json.Unmarshal(files["data/index.json"], &index); err != nil {
				t.Fatal(err)
			}
			if index.Layout != DataLayout {
				t.Errorf("data/index.json: layout %d", index.Layout)
			}
			bundles := map[string]*bundleDoc{}
			for run, rel := range index.Bundles {
				b, ok := files["data/"+rel]
				if !ok {
					t.Fatalf("bundle %s of run %q not written", rel, run)
				}
				bundles[run] = readRunBundle(t, rel, b, run)
			}
			series := 0
			for run, tags := range index.Scalars {
				for tag, rel := range tags {
					series++
					v1tag, pts := parseDataFile(t, files["data/"+rel])
					c, ok := bundles[run].Scalars[tag]
					if v1tag != tag || !ok {
						t.Errorf("run %q tag %q: layout-1 file of tag %q, in the bundle %v", run, tag, v1tag, ok)
						continue
					}
					samePoints(t, fmt.Sprintf("run %q tag %q", run, tag), c.decode(t), pts)
					total += len(pts)
				}
			}
			n := 0
			for _, b := range bundles {
				n += len(b.Scalars)
			}
			if n != series {
				t.Errorf("bundles hold %d series, the layout-1 files %d", n, series)
			}
			for run, tags := range index.Superseded {
				for tag, rel := range tags {
					var v1 struct {
						Tag      string
						Attempts []struct {
							Attempt, Total int
							Points         [][3]any
						}
					}
					dec := json.NewDecoder(bytes.NewReader(files["data/"+rel]))
					dec.UseNumber()
					if err := dec.Decode(&v1); err != nil || v1.Tag != tag {
						t.Fatalf("%s: %v (tag %q)", rel, err, v1.Tag)
					}
					raw := bundles[run].Superseded[tag]
					if len(raw) != len(v1.Attempts) {
						t.Errorf("run %q tag %q: %d superseded attempts in the bundle, %d in %s", run, tag, len(raw), len(v1.Attempts), rel)
						continue
					}
					for k, a := range v1.Attempts {
						var c bundleColumns
						dec := json.NewDecoder(bytes.NewReader(raw[k]))
						dec.UseNumber()
						if err := dec.Decode(&c); err != nil || c.Attempt == nil || *c.Attempt != a.Attempt || c.Total == nil || *c.Total != a.Total {
							t.Errorf("run %q tag %q attempt %d: %s (%v)", run, tag, a.Attempt, raw[k], err)
							continue
						}
						samePoints(t, fmt.Sprintf("run %q tag %q attempt %d", run, tag, a.Attempt), c.decode(t), a.Points)
						superseded += len(a.Points)
					}
				}
			}
			for run, b := range bundles {
				if len(b.Superseded) != len(index.Superseded[run]) {
					t.Errorf("run %q: bundle has %d superseded tags, the layout-1 files %d", run, len(b.Superseded), len(index.Superseded[run]))
				}
			}
		})
	}
	t.Logf("%d points and %d superseded points compared", total, superseded)
	if total < 20000 || superseded == 0 {
		t.Errorf("only %d points, %d superseded: are the inputs complete?", total, superseded)
	}
}

// samePoints checks decoded columns against a layout-1 file's points,
// [wall_time, step, value] each: wall times and steps bit for bit, values
// the same text.
func samePoints(t *testing.T, what string, got decodedPoints, want [][3]any) {
	t.Helper()
	if len(got.values) != len(want) {
		t.Errorf("%s: %d points in the bundle, %d in layout 1", what, len(got.values), len(want))
		return
	}
	for i, p := range want {
		wall := numberOf(t, p[0], 64)
		if !sameBits(got.walls[i], wall) || strconv.FormatInt(got.steps[i], 10) != fmt.Sprint(p[1]) || fmt.Sprint(got.values[i]) != fmt.Sprint(p[2]) {
			t.Errorf("%s point %d: (%v, %v, %v) in the bundle, (%v, %v, %v) in layout 1", what, i,
				got.walls[i], got.steps[i], got.values[i], wall, p[1], p[2])
			return
		}
	}
}

// TestBundleStreamsInChunks checks that a bundle much bigger than a chunk
// is written in chunks of about bundleChunk bytes, never held whole, and
// that the chunks make the same bundle as one buffer would hold, the
// JSON file (--data-json) receiving exactly its second line.
func TestBundleStreamsInChunks(t *testing.T) {
	vals := make([]float64, 300_000)
	for i := range vals {
		vals[i] = math.Sin(float64(i)) / 3
	}
	rep := synthetic(map[string]map[string][]float64{"run": {"a": vals, "b": vals[:1000]}})
	for _, s := range rep.Runs[0].Scalars {
		for i := range s.Points {
			s.Points[i].WallTime = 1.7e9 + float64(i)*0.37 + 1e-7*float64(i%3) // seven decimals: a plain list
		}
	}
	r := newReport(rep, Options{}, analysis.Options{MaxDataPoints: -1})
	series := r.tags[0].series[:1]
	series = append(series, r.tags[1].series[0])
	var js, jw chunkCounter
	w := &bundleWriter{js: &js, json: &jw}
	if err := w.write(&bundleGroup{file: "scalars/x.js", runs: rep.Runs[:1], series: [][]*seriesView{series}}); err != nil {
		t.Fatal(err)
	}
	if js.max > bundleChunk+64<<10 || cap(w.b) > 2*bundleChunk {
		t.Errorf("a write of %d bytes, a buffer of %d: the bundle was not streamed in chunks of %d", js.max, cap(w.b), bundleChunk)
	}
	if js.writes < js.Len()/(bundleChunk+64<<10) || js.Len() < 10*bundleChunk {
		t.Errorf("%d bytes in %d writes", js.Len(), js.writes)
	}
	// One buffer, no chunks: the same bytes.
	var whole []byte
	whole = append(whole, "window.trainreport&&window.trainreport.dataLoaded("...)
	whole = appendJSONString(whole, "scalars/x.js")
	whole = append(whole, ",\n"...)
	line := len(whole)
	whole = append(whole, `{"layout":3,"runs":{"run":{"scalars":{"a":`...)
	whole = appendColumns(whole, column{kept: kept{pts: series[0].scalar.Points}}, false, -1, nil, nil)
	whole = append(whole, `,"b":`...)
	whole = appendColumns(whole, column{kept: kept{pts: series[1].scalar.Points}}, false, -1, nil, nil)
	whole = append(whole, "}}}}\n);\n"...)
	if !bytes.Equal(js.Bytes(), whole) {
		t.Errorf("the chunks differ from the bundle formatted whole")
	}
	if want := whole[line : len(whole)-3]; !bytes.Equal(jw.Bytes(), want) {
		t.Errorf("the JSON file is not the bundle's second line: %d bytes, want %d", jw.Len(), len(want))
	}
	doc := readRunBundle(t, "scalars/x.js", js.Bytes(), "run")
	if got := doc.Scalars["a"].decode(t); len(got.walls) != len(vals) || !bytes.HasPrefix(doc.Scalars["a"].WallTime, []byte("[")) {
		t.Errorf("series a: %d wall times, form %.20s", len(got.walls), doc.Scalars["a"].WallTime)
	}
}

// TestSmallBundleIsOneWrite checks that a bundle smaller than a chunk (a
// sweep's run) reaches its file in one write, a system call, where its
// script's first and last lines were written apart; with a JSON file
// beside it, the JSON file still gets the second line alone.
func TestSmallBundleIsOneWrite(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"run": {"a": {1, 2, 3}, "b": {4, 5}}})
	r := newReport(rep, Options{})
	series := []*seriesView{r.tags[0].series[0], r.tags[1].series[0]}
	var js chunkCounter
	g := &bundleGroup{file: "scalars/x.js", runs: rep.Runs[:1], series: [][]*seriesView{series}}
	w := &bundleWriter{js: &js}
	if err := w.write(g); err != nil {
		t.Fatal(err)
	}
	if js.writes != 1 {
		t.Errorf("a bundle of %d bytes in %d writes, want 1", js.Len(), js.writes)
	}
	var js2, jw chunkCounter
	w = &bundleWriter{js: &js2, json: &jw}
	if err := w.write(g); err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(js2.Bytes(), []byte("\n"))
	if !bytes.Equal(js2.Bytes(), js.Bytes()) || len(lines) != 4 || !bytes.Equal(jw.Bytes(), lines[1]) {
		t.Errorf("with a JSON file: the bundle or its JSON line differs: %q", jw.Bytes())
	}
}

// chunkCounter is a bytes.Buffer that counts its writes and their largest.
type chunkCounter struct {
	bytes.Buffer
	writes, max int
}

func (c *chunkCounter) Write(p []byte) (int, error) {
	c.writes++
	c.max = max(c.max, len(p))
	return c.Buffer.Write(p)
}

// TestBundlePackerSplitsAtPointsAndRuns checks the packing rule: a file
// takes runs while it holds at most maxBundlePoints points and
// maxBundleRuns runs, a run past the points alone in its file, deciding
// each run as it comes.
func TestBundlePackerSplitsAtPointsAndRuns(t *testing.T) {
	cases := []struct {
		points []int
		starts []int // the runs that start a file
	}{
		{[]int{maxBundlePoints * 3 / 5, maxBundlePoints * 2 / 5, 1}, []int{0, 2}},
		{[]int{1, maxBundlePoints + 1, 1}, []int{0, 1, 2}},
		{[]int{maxBundlePoints, 0}, []int{0}},
		{slices.Repeat([]int{3}, 2*maxBundleRuns+1), []int{0, maxBundleRuns, 2 * maxBundleRuns}},
	}
	for _, c := range cases {
		var p bundlePacker
		var starts []int
		for i, n := range c.points {
			if p.add(n) {
				starts = append(starts, i)
			}
		}
		if !slices.Equal(starts, c.starts) {
			t.Errorf("runs of %v points: files start at %v, want %v", c.points[:min(len(c.points), 4)], starts, c.starts)
		}
	}
}

// TestBundleGroupsHoldEachRunAsAlone builds a report of runs of mixed
// sizes and checks that its bundle files pack consecutive runs in report
// order within the limits, that data/index.json and the sweep's pages
// name each run's file, and that each run's member of its file is, byte
// for byte, what a bundle of that run alone holds (layout 2's content of
// the run), its points those of the model.
func TestBundleGroupsHoldEachRunAsAlone(t *testing.T) {
	ramp := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = float64(i%977) / 7
		}
		return v
	}
	runs := map[string]map[string][]float64{
		"a": {"loss": ramp(maxBundlePoints * 3 / 5)},
		"b": {"loss": ramp(maxBundlePoints * 3 / 10), "lr": ramp(maxBundlePoints / 10)},
		"c": {"loss": ramp(200)},
		"d": {"loss": ramp(maxBundlePoints * 3 / 2)},
	}
	for i := range maxBundleRuns + 6 {
		runs[fmt.Sprintf("t%03d", i)] = map[string][]float64{"loss": {float64(i), 1, math.NaN()}}
	}
	rep := synthetic(runs)
	r := newReport(rep, Options{}, analysis.Options{MaxDataPoints: -1})
	files := filesByName(t, r)
	var want [][]string // the runs of each file
	want = append(want, []string{"a", "b"}, []string{"c"}, []string{"d"})
	var tiny []string
	for i := range maxBundleRuns + 6 {
		tiny = append(tiny, fmt.Sprintf("t%03d", i))
	}
	want = append(want, tiny[:maxBundleRuns], tiny[maxBundleRuns:])
	var index dataIndex
	if err := json.Unmarshal(files["data/index.json"], &index); err != nil {
		t.Fatal(err)
	}
	var scalarFiles []string
	for name := range files {
		if strings.HasPrefix(name, "data/scalars/") {
			scalarFiles = append(scalarFiles, name)
		}
	}
	if len(scalarFiles) != len(want) || len(r.bundles) != len(want) {
		t.Fatalf("%d scalar files, %d bundles, want %d", len(scalarFiles), len(r.bundles), len(want))
	}
	byName := map[string]*model.Run{}
	for _, run := range rep.Runs {
		byName[run.Name] = run
	}
	w := &bundleWriter{}
	for k, g := range r.bundles {
		names := make([]string, len(g.runs))
		for i, run := range g.runs {
			names[i] = run.Name
		}
		if !slices.Equal(names, want[k]) || g.file != bundleFile(names[0]) {
			t.Errorf("file %d %s holds %v, want %v", k, g.file, names, want[k])
			continue
		}
		data := files["data/"+g.file]
		doc := readBundle(t, g.file, data)
		if !slices.Equal(doc.Order, names) {
			t.Errorf("%s: runs %v in this order, want %v", g.file, doc.Order, names)
		}
		members := runMembers(t, data)
		for i, run := range g.runs {
			if index.Bundles[run.Name] != g.file || index.Scalars[run.Name]["loss"] != g.file {
				t.Errorf("data/index.json names %q, %q for run %q, want %q", index.Bundles[run.Name], index.Scalars[run.Name]["loss"], run.Name, g.file)
			}
			// The run alone, as layout 2 held it.
			var alone bytes.Buffer
			w.js, w.b = &alone, w.b[:0]
			if err := w.write(&bundleGroup{file: "scalars/x.js", runs: []*model.Run{run}, series: [][]*seriesView{g.series[i]}}); err != nil {
				t.Fatal(err)
			}
			if got, want := members[run.Name], runMembers(t, alone.Bytes())[run.Name]; !bytes.Equal(got, want) || len(want) == 0 {
				t.Errorf("%s: run %q: %d bytes, %d alone", g.file, run.Name, len(got), len(want))
			}
			for _, s := range byName[run.Name].Scalars {
				pts := doc.Runs[run.Name].Scalars[s.Tag].decode(t)
				if len(pts.values) != len(s.Points) || pts.steps[len(s.Points)-1] != s.Points[len(s.Points)-1].Step ||
					fmt.Sprint(pts.values[0]) != strconv.FormatFloat(s.Points[0].Value, 'g', -1, 64) {
					t.Errorf("run %q tag %q: %d points, want %d", run.Name, s.Tag, len(pts.values), len(s.Points))
				}
			}
		}
	}
}

// runMembers returns each run's member of a bundle file as written.
func runMembers(t *testing.T, data []byte) map[string]json.RawMessage {
	t.Helper()
	lines := bytes.Split(data, []byte("\n"))
	var doc struct {
		Runs map[string]json.RawMessage `json:"runs"`
	}
	if len(lines) < 2 || json.Unmarshal(lines[1], &doc) != nil {
		t.Fatalf("not a bundle: %.100q", data)
	}
	return doc.Runs
}

// TestWallFormTakesFixedPointsIntegers checks wallForm's loop of the
// points at a scale (wallRun) against the reference on wall times where
// its rounding could differ from math.Round's: products at an exact half
// (ties), near 2^51 where it hands points back, -0 and 0, and a scale
// that grows in the middle of a run of points; at every scale, with
// the same integers as fixedPoint's.
func TestWallFormTakesFixedPointsIntegers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(k int) float64 {
		switch rng.IntN(8) {
		case 0: // a half at scale k: a tie, read at k or more
			return (float64(rng.Int64N(1<<20)) + 0.5) / pow10[k]
		case 1: // about 2^51 and 2^50 at scale k
			return float64(int64(1)<<(50+rng.IntN(2))+rng.Int64N(64)-32) / pow10[k]
		case 2:
			return []float64{0, math.Copysign(0, -1), 1e-300, -1.5}[rng.IntN(4)]
		case 3: // a wall time with more places than k
			return 1.7e9 + float64(rng.Int64N(1e7))/1e7
		default: // a decimal of k places
			return (1.7e9*pow10[k] + float64(rng.Int64N(1000))) / pow10[k]
		}
	}
	for range 20_000 {
		k := rng.IntN(8)
		ws := make([]float64, 1+rng.IntN(12))
		for i := range ws {
			ws[i] = pick(k)
			if rng.IntN(4) > 0 {
				ws[i] = (1.7e9*pow10[k] + float64(i)) / pow10[k] // runs of points at k
			}
		}
		checkWallForm(t, ws)
	}
}
