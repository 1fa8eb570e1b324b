package render

import (
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// DataLayout is the version of the layout of data/ (docs/OUTPUTS.md, "Data
// layout version 3"), written as data/index.json's "layout" and in every
// scalar bundle.
const DataLayout = 3

// A scalar bundle holds one run or several, consecutive in report order:
// each file created costs about 250 us of system time on a local file
// system and counts against a static host's file limit (Cloudflare
// Pages: 20,000), so a sweep's small runs share files; but a page that
// wants one run (a checked run on the sweep page) loads, parses and
// keeps its whole file, so a file stays small. A file takes runs while
// it holds at most maxBundlePoints points (a run past it is alone in its
// file) and maxBundleRuns runs. Measured on a 2,000-run sweep (5,000
// points a run, docs/OUTPUTS.md): 5 runs a file already halves the
// build's system time, and larger files save little more (under 2% of
// the build's CPU) while every checked run costs the page its file's
// load and heap, linear in its points (0.8 MB of heap a file here, 3.2
// MB at 100,000 points). maxBundleRuns bounds the names and keys a file
// of tiny runs holds; a 100,000-run sweep of 500 points a run makes
// 2,000 files.
const (
	maxBundlePoints = 25_000
	maxBundleRuns   = 64
)

// bundlePacker packs runs into bundle files greedily, as they come in
// report order, without lookahead, so that a writer handed runs one at a
// time packs them as one that sees them all: the same files in a direct
// build and a merge. Its zero value starts with no file open.
type bundlePacker struct {
	runs, points int // in the file open
}

// add reports whether a run whose bundle holds points points starts a new
// file (true) or joins the one open.
func (p *bundlePacker) add(points int) bool {
	if p.runs > 0 && p.runs < maxBundleRuns && p.points+points <= maxBundlePoints {
		p.runs++
		p.points += points
		return false
	}
	p.runs, p.points = 1, points
	return true
}

// bundlePoints is how many points the bundle of a run of the series
// series holds: the points each series keeps in its data file and those
// of its superseded attempts.
func bundlePoints(series []*seriesView) int {
	n := 0
	for _, sv := range series {
		if sv.data != nil {
			n += len(sv.data)
		} else {
			// Its points, which a staged analysis may have cut to the
			// drawn ones once written (seriesView.total).
			n += max(sv.total, len(sv.scalar.Points))
		}
		for _, fv := range sv.faded {
			n += keptLen(fv.Data, fv.Superseded.Points)
		}
	}
	return n
}

// bundleFile is the data file, relative to the data directory, of the
// scalar bundle whose first run is run: every scalar tag of its runs,
// and the superseded points of their tags, in one file (bundleWriter).
// Slugs are unique (names.go), and a run is the first of one file only.
func bundleFile(run string) string { return scalarsDir + "/" + slug(run) + ".js" }

// bundleGroup is one scalar bundle file: its name (bundleFile of its
// first run) and its runs, in report order, each with its series in tag
// order.
type bundleGroup struct {
	file   string
	runs   []*model.Run
	series [][]*seriesView
	values func(*model.Scalar) (vals, walls []float64) // the writer's (bundleWriter.values)
	share  *RunShare                                   // the writer's (bundleWriter.share)
}

// bundleChunk is how many bytes of a bundle are formatted before they
// are written: a bundle is streamed, so that a run of many long series
// holds no copy of its points as text.
const bundleChunk = 256 << 10

// bundleWriter writes a bundle as it is formatted, a chunk at a time, to
// the bundle's file and, with --data-json, its JSON line (and the newline
// after it) to the JSON file too: the same bytes, formatted once. Without
// a JSON file, a bundle smaller than a chunk (a few of a sweep's runs) is
// one write. A bundle is begin, then run for each of its runs, then end:
// a writer handed runs one at a time writes each as it comes.
type bundleWriter struct {
	b      []byte
	js     io.Writer
	json   io.Writer // nil: no JSON file
	inJSON bool      // b holds the JSON line (or its end and newline)
	runs   int       // runs written since begin
	ints   []int64   // wall-time integers of a column (appendWallColumn), reused
	err    error

	// values, when not nil, is called with each series right before it
	// is formatted: a staged analysis derives the series' results then
	// (analysis.RunStage.Through), and hands back its values and wall
	// times when the values are all finite (nils else), read in place of
	// its points' (appendColumns' vals and walls).
	values func(*model.Scalar) (vals, walls []float64)

	// share, when not nil, is the run's sharing with helpers that
	// format its series ahead (RunShare): a series' column is then
	// taken from it when a helper formatted it.
	share *RunShare
}

// flush writes what is formatted and empties the buffer.
func (w *bundleWriter) flush() {
	if w.err == nil && len(w.b) > 0 {
		_, w.err = w.js.Write(w.b)
		if w.err == nil && w.inJSON && w.json != nil {
			_, w.err = w.json.Write(w.b)
		}
	}
	w.b = w.b[:0]
}

// put writes p, formatted elsewhere, after what is formatted: straight
// from p, not copied, when nothing is.
func (w *bundleWriter) put(p []byte) {
	if len(w.b) > 0 {
		w.b = append(w.b, p...)
		w.flush()
		return
	}
	b := w.b
	w.b = p
	w.flush()
	w.b = b // not p's storage, which the next append would overwrite
}

// spill flushes b, the buffer grown by a column's encoder, once it holds
// a chunk, and returns the buffer to go on with. A writer with no file
// (js nil) holds all it formats: a run's member of a bundle, which
// RunData keeps until the bundle is written (a bundle holds at most
// maxBundlePoints points).
func (w *bundleWriter) spill(b []byte) []byte {
	w.b = b
	if len(b) >= bundleChunk && w.js != nil {
		w.flush()
	}
	return w.b
}

// begin starts the scalar bundle named name (its file relative to data/):
// a script of three lines whose second is the bundle's JSON document,
//
//	{"layout":3,"runs":{RUN:{"scalars":{TAG:SERIES,...},"superseded":{TAG:[ATTEMPT,...],...}},...}}
//
// with a member per run (run), closed by end. Runs and tags are keys of
// objects of their own, so that no name collides with a key of ours. No
// raw newline can be inside the JSON: strings escape theirs. The JSON
// cannot end the script early: names are escaped as appendJSONString
// escapes them (<, >, &, U+2028/9), values are numbers or "NaN"-like
// strings.
func (w *bundleWriter) begin(name string) {
	// A script of three lines: the call, the JSON document and ");",
	// so that a page opened from file:// adds it as a <script> element
	// and a script reads its second line with a plain JSON parser.
	w.b = append(appendScriptHead(w.b, name), '\n')
	if w.json != nil {
		w.flush() // the JSON file starts after it
	}
	w.inJSON = true
	w.runs = 0
	w.b = append(w.b, `{"layout":`...)
	w.b = strconv.AppendInt(w.b, DataLayout, 10)
	w.b = append(w.b, `,"runs":{`...)
}

// run writes the member of run in the bundle begun: its series (the
// run's, in tag order), each point formatted once, in columns
// (appendColumns), and their superseded attempts. It is the document a
// run had to itself in layout 2 but for "layout" and "run".
func (w *bundleWriter) run(run *model.Run, series []*seriesView) {
	if w.runs > 0 {
		w.b = append(w.b, ',')
	}
	w.runs++
	w.b = appendJSONString(w.b, run.Name)
	w.b = append(w.b, `:{"scalars":{`...)
	for i, sv := range series {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = appendJSONString(w.b, sv.scalar.Tag)
		w.b = append(w.b, ':')
		if w.share != nil && !w.share.column(i, w) {
			continue
		}
		c := column{kept: kept{sv.scalar.Points, sv.data}, steps: sv.steps}
		if w.values != nil {
			c.vals, c.walls = w.values(sv.scalar)
		}
		w.b = appendColumns(w.b, c, sv.scalar.Float32, -1, w.spill, &w.ints)
	}
	w.b = append(w.b, '}')
	first := true
	for _, sv := range series {
		if len(sv.faded) == 0 {
			continue
		}
		if first {
			w.b = append(w.b, `,"superseded":{`...)
		} else {
			w.b = append(w.b, ',')
		}
		first = false
		w.b = appendJSONString(w.b, sv.scalar.Tag)
		w.b = append(w.b, ":["...)
		for k, fv := range sv.faded {
			if k > 0 {
				w.b = append(w.b, ',')
			}
			w.b = appendColumns(w.b, column{kept: kept{fv.Superseded.Points, fv.Data}}, sv.scalar.Float32, fv.Superseded.Attempt, w.spill, &w.ints)
		}
		w.b = append(w.b, ']')
	}
	if !first {
		w.b = append(w.b, '}')
	}
	w.b = append(w.b, '}')
	w.b = w.spill(w.b)
}

// end closes the bundle begun and writes what is left of it. It returns
// the first error of writing.
func (w *bundleWriter) end() error {
	w.b = append(w.b, "}}\n"...)
	if w.json != nil {
		w.flush() // the JSON file ends here
	}
	w.inJSON = false
	w.b = append(w.b, ");\n"...)
	w.flush()
	return w.err
}

// write writes the scalar bundle g (begin, run for each of its runs,
// end), returning the first error of writing.
func (w *bundleWriter) write(g *bundleGroup) error {
	w.values, w.share = g.values, g.share
	w.begin(g.file)
	for i, run := range g.runs {
		w.run(run, g.series[i])
	}
	return w.end()
}

// column is what a data column is written of: the points kept, and what
// the stages before it found of them, so that the column need not read
// the points again for it.
type column struct {
	kept
	// steps is what the analysis found of the steps of all of kept's
	// points (result.ScalarView.Steps; the zero value: nothing), which
	// appendSteps checks rather than scans (stepProgression).
	steps result.StepProgression
	// vals is the values of all of kept's points as the analysis's walk
	// copied them (RunData.WriteEach), nil when none were handed: when it
	// holds them all and every point is kept, the value column reads them
	// (appendValueSlice) rather than the points.
	vals []float64
	// walls is likewise the wall times of all of kept's points, which
	// the wall-time column then reads (wallTimes).
	walls []float64
}

// appendColumns appends column c as one object of columns:
//
//	{"attempt":A,"count":N,"total":T,"step":STEPS,"wall_time":WALL,"value":[...]}
//
// "attempt" only for an attempt's superseded points (attempt >= 0);
// "total", the points the series had, only when it is not count (a
// downsampled series) or for an attempt, as layout 1 wrote it. STEPS and
// WALL are as appendSteps and appendWallColumn write them; values as
// every data file writes them (appendValue). spill, when not nil, is
// handed the buffer as it grows, and returns the one to go on with (see
// bundleWriter.spill). ints is appendWallColumn's.
func appendColumns(b []byte, c column, f32 bool, attempt int, spill func([]byte) []byte, ints *[]int64) []byte {
	n, pts := c.len(), c.pts
	b = append(b, '{')
	if attempt >= 0 {
		b = append(b, `"attempt":`...)
		b = strconv.AppendInt(b, int64(attempt), 10)
		b = append(b, ',')
	}
	b = append(b, `"count":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	if attempt >= 0 || n != len(pts) {
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, int64(len(pts)), 10)
	}
	b = append(b, `,"step":`...)
	b = appendSteps(b, c.kept, c.steps, spill)
	b = append(b, `,"wall_time":`...)
	b = appendWallColumn(b, c.wallTimes(), spill, ints)
	b = append(b, `,"value":[`...)
	if c.idx == nil && len(c.vals) == len(pts) {
		b = appendValueSlice(b, c.vals, f32, spill)
	} else {
		b = appendValueColumn(b, c.kept, f32, spill)
	}
	return append(b, "]}"...)
}

// wallTimes is the source of c's wall-time column: the wall times
// handed (walls) when they are those of every point and every point is
// kept, as the value column's vals; its points else.
func (c column) wallTimes() wallTimes {
	if c.idx == nil && len(c.walls) == len(c.pts) && c.walls != nil {
		return wallTimes{kept: c.kept, walls: c.walls}
	}
	return wallTimes{kept: c.kept}
}

// valueBlock is how many values appendValueColumn formats between two
// looks at the buffer: its room, grown once for the block, and its
// chunk (spill).
const valueBlock = 64

// appendValueColumn appends the values of c, comma-separated, as
// appendValue writes them; spill as appendColumns's. Values are most of
// a bundle's bytes and of its formatting: a block of them is gathered
// (kept.values), room is made for the block at once, and putFloat32s
// writes the float32s of the block, each with the comma after it,
// straight into it, so that a value costs no room check of its own, no
// call and no slice handed back and forth; what it leaves (and a
// float64 series) goes to appendValue. The comma after the last value
// is dropped: the buffer is handed to spill before a block, never after
// the last.
func appendValueColumn(b []byte, c kept, f32 bool, spill func([]byte) []byte) []byte {
	n := c.len()
	var block [valueBlock]float64
	for i := 0; i < n; {
		if i > 0 && spill != nil && len(b) >= bundleChunk {
			b = spill(b)
		}
		vs := c.values(block[:], i)
		i += len(vs)
		b = appendValueBlock(b, vs, f32)
	}
	if n > 0 {
		b = b[:len(b)-1]
	}
	return b
}

// appendValueSlice is appendValueColumn of the values vals, read in
// place: a copy of a series' values that a pass over its points made just
// before (the analysis' walk, analysis.RunStage), 8 bytes a point, rather
// than the 24-byte points: a series of 100,000 points (2.4 MB) does not
// fit a core's 2 MiB L2, so each pass over its points reads every line
// from the shared cache again, while both cores stream theirs.
func appendValueSlice(b []byte, vals []float64, f32 bool, spill func([]byte) []byte) []byte {
	for i := 0; i < len(vals); i += valueBlock {
		if i > 0 && spill != nil && len(b) >= bundleChunk {
			b = spill(b)
		}
		b = appendValueBlock(b, vals[i:min(i+valueBlock, len(vals))], f32)
	}
	if len(vals) > 0 {
		b = b[:len(b)-1]
	}
	return b
}

// appendValueBlock appends the values vs, a block of at most valueBlock,
// each followed by a comma: room made once for the block, and the
// float32s written by putFloat32s straight into it.
func appendValueBlock(b []byte, vs []float64, f32 bool) []byte {
	if !f32 {
		for _, v := range vs {
			b = append(appendValue(b, v, false), ',')
		}
		return b
	}
	b = slices.Grow(b, len(vs)*float32Room)
	for len(vs) > 0 {
		k, done := putFloat32s(b[len(b):cap(b)], vs)
		b = b[:len(b)+k]
		if vs = vs[done:]; len(vs) > 0 {
			b = append(appendValue(b, vs[0], true), ',') // one it left to strconv
			vs = vs[1:]
		}
	}
	return b
}

// kept is the points of pts at the indices idx (nil: all of them), the
// points a column is written of. Its methods are small enough to be
// inlined: the columns' loops read a point without a call, where a
// func(i) accessor cost an indirect call per point and column.
type kept struct {
	pts []model.Point
	idx []int
}

func (c kept) len() int { return keptLen(c.idx, c.pts) }

func (c kept) at(i int) *model.Point {
	if c.idx != nil {
		return &c.pts[c.idx[i]]
	}
	return &c.pts[i]
}

// values fills dst with the values of the points from the one at from
// on, as many as dst holds, and returns them: the value column's loop
// gathers a block of them, then runs over a plain slice, where reading
// each through at copied c (six words) a point.
func (c kept) values(dst []float64, from int) []float64 {
	dst = dst[:min(len(dst), c.len()-from)]
	if c.idx == nil {
		for k, p := range c.pts[from : from+len(dst)] {
			dst[k] = p.Value
		}
		return dst
	}
	for k, j := range c.idx[from : from+len(dst)] {
		dst[k] = c.pts[j].Value
	}
	return dst
}

// maxExactStep bounds the steps written as a progression: first +
// i*stride is then computed exactly in a float64, as JavaScript and a
// JSON parser into doubles compute it (every term and partial result an
// integer below 2^53).
const maxExactStep = 1 << 52

// appendSteps appends the steps of c as {"first":a,"stride":d} when
// they are an arithmetic progression within maxExactStep (step[i] = a +
// i*d), else as an array of integers (spill as appendColumns's). known
// is what the analysis found of the steps of c's points (see
// stepProgression).
func appendSteps(b []byte, c kept, known result.StepProgression, spill func([]byte) []byte) []byte {
	n := c.len()
	if first, stride, ok := stepProgression(c, known); ok {
		b = append(b, `{"first":`...)
		b = strconv.AppendInt(b, first, 10)
		b = append(b, `,"stride":`...)
		b = strconv.AppendInt(b, stride, 10)
		return append(b, '}')
	}
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInt(b, c.at(i).Step)
		if spill != nil && len(b) >= bundleChunk {
			b = spill(b)
		}
	}
	return append(b, ']')
}

func inExactStep(s int64) bool { return s > -maxExactStep && s < maxExactStep }

// stepProgression returns the first term and the stride of the steps of
// c when they are an arithmetic progression within maxExactStep, and
// whether they are (not when c is empty).
//
// Only the ends are checked against the range, and the differences
// between neighbours (in int64's wrapping arithmetic) against the
// stride: then step[i] = first + i*stride modulo 2^64, and when the last
// step is that term exactly, in integers, every term lies between the
// first and the last, within the range, and is its step.
//
// The differences are not read again when known, what the analysis'
// plan found of the same points in its pass over them (Plan's scan of
// every series' steps: result.ScalarView.Steps), says they are that
// progression: c must then keep every point (idx nil: a downsampled
// column's steps are not its points'), as many as known counts (not
// points the analysis has cut since), with the same first step and
// stride. The ends are checked as without it, so that the form chosen
// is the scan's; only the pass between them is spared, a read of every
// point of every series written whole (some 0.03 s of CPU of the 8
// M-point log's report).
func stepProgression(c kept, known result.StepProgression) (first, stride int64, ok bool) {
	n := c.len()
	if n == 0 {
		return 0, 0, false
	}
	first, last := c.at(0).Step, c.at(n-1).Step
	if n > 1 {
		stride = c.at(1).Step - first
	}
	if !inExactStep(first) || !inExactStep(stride) || !inExactStep(last) {
		return 0, 0, false
	}
	span, abs := bits.Mul64(uint64(n-1), uint64(max(stride, -stride)))
	if span != 0 || abs >= 1<<62 {
		return 0, 0, false // the last term is far past the range
	}
	if t := int64(abs); stride < 0 && first-t != last || stride >= 0 && first+t != last {
		return 0, 0, false
	}
	if c.idx == nil && known.Count == n && known.First == first && known.Stride == stride {
		return first, stride, true
	}
	if c.idx == nil {
		pts := c.pts[:n]
		for i := 1; i < len(pts); i++ {
			if pts[i].Step-pts[i-1].Step != stride {
				return 0, 0, false
			}
		}
		return first, stride, true
	}
	for i := 1; i < n; i++ {
		if c.at(i).Step-c.at(i-1).Step != stride {
			return 0, 0, false
		}
	}
	return first, stride, true
}

// wallTimes is the wall times of a column's points: those of the points
// kept, or, when walls is not nil, walls, a copy of the wall times of
// every point (kept.idx nil, as many as kept.pts) that a pass over the
// points made just before (the analysis' walk, analysis.RunStage): 8
// bytes a point in a core's cache rather than the 24-byte points read
// again from the shared one (a series of 100,000 points, 2.4 MB, does not
// fit a core's 2 MiB L2).
type wallTimes struct {
	kept
	walls []float64
}

// wallBlock is how many wall times of the points wallTimes.from gathers
// at a time. Small, so that the reads of the points, from the shared
// cache, and wallRun's arithmetic overlap as when wallRun read the
// points itself: with 512 the column from the points took some 10% more
// CPU than that, with 64 as much (thread CPU time, alternated in one
// process, 16 series of 100,000 points).
const wallBlock = 64

// at returns the wall time of the i-th point.
func (c wallTimes) at(i int) float64 {
	if c.walls != nil {
		return c.walls[i]
	}
	return c.kept.at(i).WallTime
}

// from returns the wall times from the i-th point's on: all of them from
// the copy, else as many as block holds, gathered from the points, so
// that wallRun's loop runs over a plain slice either way.
func (c wallTimes) from(block *[wallBlock]float64, i int) []float64 {
	if c.walls != nil {
		return c.walls[i:]
	}
	dst := block[:min(wallBlock, c.len()-i)]
	if c.idx == nil {
		for k, p := range c.pts[i : i+len(dst)] {
			dst[k] = p.WallTime
		}
		return dst
	}
	for k, j := range c.idx[i : i+len(dst)] {
		dst[k] = c.pts[j].WallTime
	}
	return dst
}

// appendWallColumn appends the wall times of c: in the fixed-point delta
// form {"scale":k,"base":B,"delta":[...]} when wallForm finds one, else as
// an array of numbers (appendWallTime, exactly as stored); spill as
// appendColumns's. The form is chosen before anything is written, so
// that what is written is never taken back. The integers wallForm finds
// are kept in *ints (nil: a slice of its own), 8 bytes a point of one
// column, reused from column to column, so that writing them computes
// none again.
func appendWallColumn(b []byte, c wallTimes, spill func([]byte) []byte, ints *[]int64) []byte {
	if ints == nil {
		ints = new([]int64)
	}
	if n := c.len(); cap(*ints) < n {
		*ints = make([]int64, 0, n) // sized once, not grown by doubling
	}
	k, ms, ok := wallForm(c, (*ints)[:0])
	*ints = ms
	if ok {
		b = append(b, `{"scale":`...)
		b = strconv.AppendInt(b, int64(k), 10)
		b = append(b, `,"base":`...)
		b = strconv.AppendInt(b, ms[0], 10)
		b = append(b, `,"delta":[0`...)
		for i := 1; i < len(ms); {
			if d := ms[i] - ms[i-1]; uint64(d) < 10 {
				// Most deltas are one digit, and regular wall times make
				// runs of one: a run is copied, not written pair by pair.
				j, end := i+1, min(len(ms), i+deltaRun)
				for j < end && ms[j]-ms[j-1] == d {
					j++
				}
				b = appendPairs(b, ',', byte('0'+d), j-i)
				i = j
			} else {
				b = appendInt(append(b, ','), d)
				i++
			}
			if spill != nil && len(b) >= bundleChunk {
				b = spill(b)
			}
		}
		return append(b, "]}"...)
	}
	n := c.len()
	b = append(b, '[')
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendWallTime(b, c.at(i))
		if spill != nil && len(b) >= bundleChunk {
			b = spill(b)
		}
	}
	return append(b, ']')
}

// deltaRun bounds a run of equal deltas appendWallColumn copies at once,
// so that the buffer is handed to spill every 8 KB of them at most.
const deltaRun = 4096

// appendPairs appends count copies of the two bytes x and y: the pair,
// then what is appended so far copied after itself, doubling.
func appendPairs(b []byte, x, y byte, count int) []byte {
	if count == 1 {
		return append(b, x, y)
	}
	n, size := len(b), 2*count
	b = append(slices.Grow(b, size), x, y)
	for len(b)-n < size {
		b = append(b, b[n:n+min(len(b)-n, size-(len(b)-n))]...)
	}
	return b
}

// maxWallScale is the largest scale of the fixed-point form: 10^22 is
// the largest power of ten a float64 holds exactly.
const maxWallScale = 22

// maxExactInt bounds the integers of the fixed-point form, below 2^53,
// so that each is exact in a float64 (a JSON parser's number, a
// JavaScript sum).
const maxExactInt = 1 << 53

// pow10 holds 10^0..10^22, each exact in a float64.
var pow10 = func() (p [maxWallScale + 1]float64) {
	p[0] = 1
	for k := 1; k <= maxWallScale; k++ {
		p[k] = p[k-1] * 10
	}
	return p
}()

// fixedPoint returns an integer m with float64(m)/10^k == w exactly
// (IEEE division, correctly rounded, as a reader computes it) and |m| <
// maxExactInt, and whether there is one. round(w*10^k) may miss such an
// m by one, the product itself being rounded; its neighbours are tried.
func fixedPoint(w float64, k int) (int64, bool) {
	p := pow10[k]
	x := math.Round(w * p)
	if !(math.Abs(x) < maxExactInt-1) {
		return 0, false
	}
	m := int64(x)
	for _, c := range [3]int64{m, m - 1, m + 1} {
		if float64(c)/p == w {
			return c, true
		}
	}
	return 0, false
}

// wallForm returns the scale k of the fixed-point form of the wall times
// of c, and whether the form holds: k is the least scale at which every
// wall time has a fixed-point integer (fixedPoint), and at k every delta
// between neighbours is below maxExactInt. Every partial sum of the
// deltas is then the integer of a wall time, below maxExactInt too: the
// reader's sums are exact, and its division gives the wall time back bit
// for bit.
//
// The form does not hold when a wall time is non-finite or -0 (whose sign
// the form would lose), or needs more than maxWallScale digits or an
// integer past maxExactInt (Python's time.time(), 1.7e9 with seven
// decimals, is 1.7e16). k only grows: an integer at scale k times 10 is
// one at scale k+1 (the same rational, the same correctly rounded
// quotient) while it stays within maxExactInt.
//
// It is one pass: the integers of the points from the last one that
// raised k on are those at the final k, so their deltas are checked as
// they come; only the points before it (usually none: k is set by the
// first) are looked at again at the final k. It appends the integers at
// k to ms and returns it: the form's integers when it holds.
func wallForm(c wallTimes, ms []int64) (int, []int64, bool) {
	n := c.len()
	if n == 0 {
		return 0, ms, false
	}
	ms = slices.Grow(ms[:0], n)[:n] // a caller's, of cap n, is not grown
	k, from, inRange := 0, 0, true
	var prev int64
	var block [wallBlock]float64
	for i := 0; i < n; i++ {
		if i > from {
			// The points at k, as most are, in wallRun's loop, a block
			// at a time unless read from a copy.
			for i < n {
				ws := c.from(&block, i)
				done, ok := wallRun(ws, pow10[k], ms[i:i+len(ws)], prev)
				inRange = inRange && ok
				i += done
				if done < len(ws) {
					break
				}
				prev = ms[i-1]
			}
			if i == n {
				break
			}
			prev = ms[i-1]
		}
		w := c.at(i)
		if w == 0 && math.Signbit(w) {
			return 0, ms, false
		}
		// fixedPoint's first candidate, without the call: at a scale
		// that holds, most wall times are found here.
		x := math.Round(w * pow10[k])
		m, ok := int64(x), math.Abs(x) < maxExactInt-1 && x/pow10[k] == w
		if !ok {
			m, ok = fixedPoint(w, k)
		}
		for !ok {
			if k == maxWallScale || math.IsNaN(w) || math.IsInf(w, 0) {
				return 0, ms, false
			}
			k++
			from, inRange = i, true
			m, ok = fixedPoint(w, k)
		}
		if i > from && !deltaInRange(m-prev) {
			inRange = false
		}
		ms[i] = m
		prev = m
	}
	if !inRange {
		return 0, ms, false
	}
	for i := range from {
		m, ok := fixedPoint(c.at(i), k)
		if !ok || i > 0 && !deltaInRange(m-ms[i-1]) {
			return 0, ms, false
		}
		ms[i] = m
	}
	if from > 0 && !deltaInRange(ms[from]-ms[from-1]) {
		return 0, ms, false
	}
	return k, ms, true
}

// wallRun is wallForm's loop over the wall times ws at the scale p, the
// point before them at prev: it stores in ms the integer of each point
// whose wall time is found at once, as wallForm's first candidate finds
// it, and returns how many it stored, up to the first it leaves to
// wallForm (one not found so, or -0), and whether their deltas are in
// range. A loop of its own, with no call, no branch on the indices and p
// in a register, costs half of wallForm's step.
//
// Its candidate x is y rounded to the nearest integer by adding and
// taking away 1.5*2^52, as math.Round rounds but at a tie, an exact
// half: exact for |y| < 2^51, which the integer's range check makes
// sure of (past it, x is within 1 of y, or y is no number and x's
// integer is MinInt64). At a tie no candidate is found at p: y is then
// 0.5 from both integers and within a quarter of w*p (its ulp is at
// most a quarter below 2^51), so either over p is more than a quarter
// over p from w, and an ulp of w is at most 2 ulps of y over p: w's
// half ulp is at most a quarter over p, and the division reads back
// another number. math.Round is no instruction, and ROUNDSD
// (math.RoundToEven) writes a register it also depends on, which
// chained each point to the division of the one before.
//
// The loop is all a column's points go through, so it does as little
// as it can a point (some 17 instructions, from 30): the quotient is
// compared bit for bit, which also leaves -0 (read back as 0) to
// wallForm, with no test of its own; the range check keeps every
// integer within 2^51, so that only the first delta, from prev, can be
// out of range (any other is below 2^52); and its constants come from
// wallRunBounds, a variable, which the compiler keeps in registers
// rather than load again each point, as it does constants.
func wallRun(ws []float64, p float64, ms []int64, prev int64) (int, bool) {
	ms = ms[:len(ws)]
	b := wallRunBounds
	j := 0
	for ; j < len(ws); j++ {
		w := ws[j]
		x := (float64(w*p) + b.magic) - b.magic // the product rounded first, never fused
		m := int64(x)
		if uint64(m+b.offset) >= b.span {
			break
		}
		if math.Float64bits(x/p) != math.Float64bits(w) { // two ifs: one branch each, where || made a flag
			break
		}
		ms[j] = m
	}
	return j, j == 0 || deltaInRange(ms[0]-prev)
}

// wallRunBounds is wallRun's constants: offset and span make its range
// check, |m| < 2^51-2 as uint64(m+offset) < span, and magic is
// roundMagic. Not to be changed.
var wallRunBounds = struct {
	offset int64
	span   uint64
	magic  float64
}{1<<51 - 3, 1<<52 - 5, roundMagic}

// roundMagic is 1.5*2^52: y+roundMagic-roundMagic is y rounded to an
// integer (half to even) for |y| < 2^51.
const roundMagic = 0x1.8p52

// deltaInRange reports whether -maxExactInt < d < maxExactInt, in one
// comparison: d+maxExactInt-1 wraps past int64's top (to a huge uint64)
// only for a d past the range.
func deltaInRange(d int64) bool { return uint64(d+maxExactInt-1) < 2*maxExactInt-1 }
