package collect

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/testcorpus"
	"github.com/trainreport/trainreport/internal/testsupport"
)

// TestAgreesWithTensorBoard reads every directory of the shared corpus and
// of testdata/writers with TensorBoard's own reader (EventMultiplexer,
// sampling off: testdata/tensorboard/dump_all.py, run by the Python named
// in TRAINREPORT_PYTHON, which `make test` sets up) and with ours, twice:
// with no purge and ours keeping every record, and with TensorBoard's
// purge of orphaned data and ours under its restart rule
// (--restarts=tensorboard). It checks that both see the same runs; the
// same tags with the same plugin, count and first and last step and wall
// time; per series, the steps and wall times in order and the values:
// scalars exactly, histogram rows (at float32 where TensorBoard's migration
// narrows them), image and audio bytes by SHA-256 with image sizes and
// audio labels, text strings and shapes, PR curve rows, mesh and
// plugin-less numeric tensors; hparams sessions (hyperparameters, group,
// start, end status and time) and experiments; and graphs (the run's
// graph_def, Keras models, run metadata) by count, step and bytes.
//
// Where the writer declared an image size the image does not have, ours
// (read from the bytes) is taken as right and the difference is logged.
func TestAgreesWithTensorBoard(t *testing.T) {
	py := os.Getenv("TRAINREPORT_PYTHON")
	if py == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("TRAINREPORT_PYTHON is not set: run `make test`, which makes the virtual environment holding tensorboard")
		}
		t.Skip("TRAINREPORT_PYTHON is not set; `make test` sets it")
	}
	if out, err := exec.Command(py, "-c", "import tensorboard; print(tensorboard.__version__)").CombinedOutput(); err != nil {
		t.Fatalf("%s cannot import tensorboard: %v\n%s", py, err, out)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "tensorboard", "dump_all.py"))
	if err != nil {
		t.Fatal(err)
	}

	type entry struct{ name, dir string }
	var entries []entry
	add := func(prefix, root string, required bool) {
		des, err := os.ReadDir(root)
		if err != nil {
			if required && os.Getenv("CI") != "" {
				t.Fatalf("%s: %v", root, err)
			}
			t.Logf("%s: %v", root, err)
			return
		}
		for _, de := range des {
			if de.IsDir() {
				entries = append(entries, entry{prefix + "/" + de.Name(), filepath.Join(root, de.Name())})
			}
		}
	}
	add("corpus", testcorpus.Path(), true)
	add("writers", testcorpus.Writers(t), false)
	if len(entries) == 0 {
		t.Fatal("no log directory to compare")
	}
	modes := []struct {
		name string
		args []string
		opt  Options
	}{
		{"keep-all", nil, Options{KeepAllRecords: true}},
		{"purge", []string{"--purge"}, Options{Restarts: model.RestartsTensorBoard}},
	}
	for _, m := range modes {
		for _, e := range entries {
			t.Run(m.name+"/"+e.name, func(t *testing.T) {
				t.Parallel()
				agreeWithTensorBoard(t, py, script, e.dir, m.args, m.opt)
			})
		}
	}
}

// agreeWithTensorBoard compares what TensorBoard's reader (dump_all.py
// with args) and ours (with opt) see in dir.
func agreeWithTensorBoard(t *testing.T, py, script, dir string, args []string, opt Options) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, py, append(append([]string{script}, args...), dir)...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Skipf("TensorBoard cannot load %s: %v\n%s", dir, err, lastLines(stderr.String(), 10))
	}
	var tb tbDump
	if err := json.Unmarshal(stdout.Bytes(), &tb); err != nil {
		t.Fatalf("dump_all.py output: %v", err)
	}
	rep, err := Collect(context.Background(), []model.Logdir{{Name: filepath.Base(dir), Path: dir}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	c := &oracle{t: t, compared: map[string]int{}}
	c.compare(rep, &tb)
	c.done()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// tbDump is what dump_all.py prints.
type tbDump struct {
	Runs map[string]*tbRun `json:"runs"`
}

type tbRun struct {
	Graph              bool                            `json:"graph"`
	MetaGraph          bool                            `json:"meta_graph"`
	GraphSHA256        string                          `json:"graph_sha256"`
	GraphFromMetaGraph bool                            `json:"graph_from_meta_graph"`
	RunMetadata        []string                        `json:"run_metadata"`
	Plugins            map[string]map[string][]tbEvent `json:"plugins"`
	NoPlugin           map[string][]tbEvent            `json:"no_plugin"`
	HParams            map[string]json.RawMessage      `json:"hparams"`
}

// tbEvent is [wall_time, step, value].
type tbEvent struct {
	Wall  any
	Step  int64
	Value json.RawMessage
}

func (e *tbEvent) UnmarshalJSON(b []byte) error {
	var a []json.RawMessage
	if err := json.Unmarshal(b, &a); err != nil {
		return err
	}
	if len(a) != 3 {
		return fmt.Errorf("event of %d fields", len(a))
	}
	if err := json.Unmarshal(a[0], &e.Wall); err != nil {
		return err
	}
	if err := json.Unmarshal(a[1], &e.Step); err != nil {
		return err
	}
	e.Value = a[2]
	return nil
}

// tbFloat is a float64 as dump_all.py writes it: a number, or "NaN",
// "Infinity", "-Infinity".
type tbFloat float64

func (f *tbFloat) UnmarshalJSON(b []byte) error {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch x := v.(type) {
	case float64:
		*f = tbFloat(x)
	case string:
		switch x {
		case "NaN":
			*f = tbFloat(math.NaN())
		case "Infinity":
			*f = tbFloat(math.Inf(1))
		case "-Infinity":
			*f = tbFloat(math.Inf(-1))
		default:
			return fmt.Errorf("float %q", x)
		}
	default:
		return fmt.Errorf("float %s", b)
	}
	return nil
}

// oracle collects one log directory's disagreements, printing at most
// maxOracleErrors of them.
type oracle struct {
	t interface {
		Helper()
		Errorf(format string, args ...any)
		Logf(format string, args ...any)
	}
	n int
	// compared counts the values compared, by TensorBoard's plugin.
	compared map[string]int
}

const maxOracleErrors = 20

func (c *oracle) errorf(format string, args ...any) {
	c.t.Helper()
	c.n++
	if c.n <= maxOracleErrors {
		c.t.Errorf(format, args...)
	}
}

func (c *oracle) done() {
	var parts []string
	for _, p := range slices.Sorted(maps.Keys(c.compared)) {
		parts = append(parts, fmt.Sprintf("%s %d", p, c.compared[p]))
	}
	c.t.Logf("values compared: %s", strings.Join(parts, ", "))
	if c.n > maxOracleErrors {
		c.t.Errorf("%d more disagreements not shown", c.n-maxOracleErrors)
	}
}

// tbKinds maps TensorBoard's plugins to our kinds.
var tbKinds = map[string]model.Kind{
	"scalars":    model.KindScalar,
	"histograms": model.KindHistogram,
	"images":     model.KindImage,
	"audio":      model.KindAudio,
	"text":       model.KindText,
	"pr_curves":  model.KindPRCurve,
	"hparams":    model.KindHParams,
}

func (c *oracle) compare(rep *model.Report, tb *tbDump) {
	ours := map[string]*model.Run{}
	for _, r := range rep.Runs {
		ours[r.Name] = r
	}
	for _, name := range slices.Sorted(maps.Keys(tb.Runs)) {
		r := ours[name]
		if r == nil {
			if tbHasData(tb.Runs[name]) {
				c.errorf("run %q: TensorBoard reads it, we do not", name)
			}
			continue
		}
		c.compareRun(r, tb.Runs[name])
	}
	for _, r := range rep.Runs {
		if _, ok := tb.Runs[r.Name]; !ok && len(r.Tags) > 0 && tfeventsOnly(r) {
			c.errorf("run %q: we read %d tags, TensorBoard does not see the run", r.Name, len(r.Tags))
		}
	}
}

func tbHasData(r *tbRun) bool {
	for _, tags := range r.Plugins {
		if len(tags) > 0 {
			return true
		}
	}
	return len(r.NoPlugin) > 0
}

// tfeventsOnly says whether every file of the run is one TensorBoard reads
// (its name holds "tfevents"); other writers' files (TS-VIS, OneFlow,
// MindSpore) are ours alone.
func tfeventsOnly(r *model.Run) bool {
	for _, f := range r.Files {
		if !strings.Contains(filepath.Base(f.Rel), "tfevents") {
			return false
		}
	}
	return true
}

func (c *oracle) compareRun(r *model.Run, tb *tbRun) {
	info := map[string]model.TagInfo{}
	for _, ti := range r.Tags {
		info[ti.Tag] = ti
	}
	strict := tfeventsOnly(r)
	// Every tag TensorBoard sees, with its plugin and count: graph events
	// TensorBoard turns into tags (graph_def into "__run_graph__" of plugin
	// "graphs", tagged_run_metadata into its tag, plugin
	// "graph_tagged_run_metadata") are not tags of ours.
	seen := map[string]bool{}
	runMeta := map[string]bool{}
	for _, tag := range tb.RunMetadata {
		runMeta[tag] = true
	}
	for _, plugin := range slices.Sorted(maps.Keys(tb.Plugins)) {
		for _, tag := range slices.Sorted(maps.Keys(tb.Plugins[plugin])) {
			evs := tb.Plugins[plugin][tag]
			if plugin == "graphs" && tag == "__run_graph__" || plugin == "graph_tagged_run_metadata" || runMeta[tag] {
				continue
			}
			seen[tag] = true
			c.compared["tags"]++
			ti, ok := info[tag]
			if !ok {
				c.errorf("run %q tag %q: TensorBoard reads %d values of plugin %q, we have no such tag", r.Name, tag, len(evs), plugin)
				continue
			}
			if k, ok := tbKinds[plugin]; ok && ti.Kind != k {
				c.errorf("run %q tag %q: TensorBoard's plugin %q (%s), ours is kind %s (plugin %q)", r.Name, tag, plugin, k, ti.Kind, ti.Plugin)
				continue
			}
			if ti.Plugin != plugin && !(ti.Plugin == "" && isV1Plugin(plugin)) {
				c.errorf("run %q tag %q: plugin %q, TensorBoard %q", r.Name, tag, ti.Plugin, plugin)
			}
			if ti.Count != len(evs) {
				c.errorf("run %q tag %q (%s): %d values, TensorBoard %d", r.Name, tag, ti.Kind, ti.Count, len(evs))
			} else if n := len(evs); n > 0 {
				first, last := evs[0], evs[n-1]
				if ti.FirstStep != first.Step || ti.LastStep != last.Step || !wallIs(ti.FirstWall, first.Wall) || !wallIs(ti.LastWall, last.Wall) {
					c.errorf("run %q tag %q (%s): steps %d..%d at %v..%v, TensorBoard %d..%d at %v..%v", r.Name, tag, ti.Kind,
						ti.FirstStep, ti.LastStep, ti.FirstWall, ti.LastWall, first.Step, last.Step, first.Wall, last.Wall)
				}
			}
		}
	}
	for tag, evs := range tb.NoPlugin {
		seen[tag] = true
		ti, ok := info[tag]
		switch {
		case !ok:
			c.errorf("run %q tag %q: TensorBoard reads %d values without a plugin, we have no such tag", r.Name, tag, len(evs))
		case ti.Count != len(evs):
			c.errorf("run %q tag %q (%s, no plugin): %d values, TensorBoard %d", r.Name, tag, ti.Kind, ti.Count, len(evs))
		}
	}
	if strict {
		for _, ti := range r.Tags {
			if !seen[ti.Tag] {
				c.errorf("run %q tag %q: we read %d values of kind %s (plugin %q), TensorBoard has no such tag", r.Name, ti.Tag, ti.Count, ti.Kind, ti.Plugin)
			}
		}
	}

	c.compareScalars(r, tb.Plugins["scalars"])
	c.compareHistograms(r, tb.Plugins["histograms"])
	c.compareImages(r, tb.Plugins["images"])
	c.compareAudio(r, tb.Plugins["audio"])
	c.compareTexts(r, tb.Plugins["text"], tb.NoPlugin)
	c.comparePRCurves(r, tb.Plugins["pr_curves"])
	c.compareTensors("mesh", r, r.Meshes, tb.Plugins["mesh"])
	c.compareTensors("no_plugin tensor", r, r.Tensors, tb.NoPlugin)
	c.compareHParams(r, tb)
	c.compareGraphs(r, tb)
}

// isV1Plugin says whether TensorBoard gives the plugin to v1 values
// (simple_value, histo, image, audio) that carry no metadata of their own.
func isV1Plugin(p string) bool {
	switch p {
	case "scalars", "histograms", "images", "audio":
		return true
	}
	return false
}

func wallIs(got float64, want any) bool {
	switch w := want.(type) {
	case float64:
		return got == w
	case string:
		return sameValue(got, w)
	}
	return false
}

// series checks that a series has TensorBoard's steps and wall times in
// order and runs check on each pair of values, stopping at the first step
// or time that differs.
func (c *oracle) series(plugin, run, tag string, n int, at func(i int) (int64, float64), evs []tbEvent, check func(i int, raw json.RawMessage)) {
	if n != len(evs) {
		c.errorf("run %q tag %q: %d values, TensorBoard %d", run, tag, n, len(evs))
		return
	}
	for i, e := range evs {
		step, wall := at(i)
		if step != e.Step || !wallIs(wall, e.Wall) {
			c.errorf("run %q tag %q value %d: step %d at %v, TensorBoard step %d at %v", run, tag, i, step, wall, e.Step, e.Wall)
			return
		}
		check(i, e.Value)
		c.compared[plugin]++
	}
}

func (c *oracle) decode(run, tag string, i int, raw json.RawMessage, v any) bool {
	if err := json.Unmarshal(raw, v); err != nil {
		c.errorf("run %q tag %q value %d: TensorBoard's value %s: %v", run, tag, i, raw, err)
		return false
	}
	return true
}

func (c *oracle) compareScalars(r *model.Run, tags map[string][]tbEvent) {
	ours := map[string]*model.Scalar{}
	for _, s := range r.Scalars {
		ours[s.Tag] = s
	}
	for _, tag := range slices.Sorted(maps.Keys(tags)) {
		s := ours[tag]
		if s == nil {
			continue // reported with the tags
		}
		bad := 0
		c.series("scalars", r.Name, tag, len(s.Points), func(i int) (int64, float64) { return s.Points[i].Step, s.Points[i].WallTime }, tags[tag],
			func(i int, raw json.RawMessage) {
				var want tbFloat
				if bad > 0 || !c.decode(r.Name, tag, i, raw, &want) {
					return
				}
				if got := s.Points[i].Value; !testsupport.Same(got, float64(want)) {
					c.errorf("run %q tag %q value %d (step %d): %v, TensorBoard %v", r.Name, tag, i, s.Points[i].Step, got, float64(want))
					bad++
				}
			})
	}
}

func (c *oracle) compareHistograms(r *model.Run, tags map[string][]tbEvent) {
	ours := map[string]*model.Histogram{}
	for _, h := range r.Histograms {
		ours[h.Tag] = h
	}
	for _, tag := range slices.Sorted(maps.Keys(tags)) {
		h := ours[tag]
		if h == nil {
			continue
		}
		bad := 0
		c.series("histograms", r.Name, tag, len(h.Entries), func(i int) (int64, float64) { return h.Entries[i].Step, h.Entries[i].WallTime }, tags[tag],
			func(i int, raw json.RawMessage) {
				var want struct {
					DType string       `json:"dtype"`
					Rows  [][3]tbFloat `json:"rows"`
				}
				if bad > 0 || !c.decode(r.Name, tag, i, raw, &want) {
					return
				}
				e := h.Entries[i]
				if len(e.Buckets) != len(want.Rows) {
					c.errorf("run %q tag %q value %d (step %d): %d rows, TensorBoard %d", r.Name, tag, i, e.Step, len(e.Buckets), len(want.Rows))
					bad++
					return
				}
				// TensorBoard narrows HistogramProto rows to float32.
				round := func(x float64) float64 { return x }
				if want.DType == "float32" {
					round = func(x float64) float64 { return float64(float32(x)) }
				}
				for j, b := range e.Buckets {
					w := want.Rows[j]
					got := [3]float64{round(b.Left), round(b.Right), round(b.Count)}
					if !testsupport.Same(got[0], float64(w[0])) || !testsupport.Same(got[1], float64(w[1])) || !testsupport.Same(got[2], float64(w[2])) {
						c.errorf("run %q tag %q value %d (step %d) row %d: %v, TensorBoard %v (%s)", r.Name, tag, i, e.Step, j,
							[3]float64{b.Left, b.Right, b.Count}, [3]float64{float64(w[0]), float64(w[1]), float64(w[2])}, want.DType)
						bad++
						return
					}
				}
			})
	}
}

func sha256Hex(ref model.BlobRef) (string, error) {
	b, err := ref.Read()
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:]), nil
}

func (c *oracle) compareImages(r *model.Run, tags map[string][]tbEvent) {
	ours := map[string]*model.Image{}
	for _, im := range r.Images {
		ours[im.Tag] = im
	}
	for _, tag := range slices.Sorted(maps.Keys(tags)) {
		im := ours[tag]
		if im == nil {
			continue
		}
		sizeNoted := false
		c.series("images", r.Name, tag, len(im.Entries), func(i int) (int64, float64) { return im.Entries[i].Step, im.Entries[i].WallTime }, tags[tag],
			func(i int, raw json.RawMessage) {
				var want struct {
					Width, Height string
					SHA256        []string
				}
				if !c.decode(r.Name, tag, i, raw, &want) {
					return
				}
				e := im.Entries[i]
				if len(e.Images) != len(want.SHA256) {
					c.errorf("run %q tag %q value %d (step %d): %d images, TensorBoard %d", r.Name, tag, i, e.Step, len(e.Images), len(want.SHA256))
					return
				}
				for j, item := range e.Images {
					sum, err := sha256Hex(item.Data)
					if err != nil {
						c.errorf("run %q tag %q value %d image %d: %v", r.Name, tag, i, j, err)
						continue
					}
					if sum != want.SHA256[j] {
						c.errorf("run %q tag %q value %d (step %d) image %d: bytes differ (%d bytes, sha256 %s), TensorBoard sha256 %s",
							r.Name, tag, i, e.Step, j, item.Data.Length, sum, want.SHA256[j])
					}
					ws, hs := strconv.Itoa(item.Width), strconv.Itoa(item.Height)
					if ws == want.Width && hs == want.Height {
						continue
					}
					if item.Format == "" {
						// Ours are the declared size when the format is unknown.
						c.errorf("run %q tag %q value %d (step %d) image %d: size %sx%s, TensorBoard %sx%s", r.Name, tag, i, e.Step, j, ws, hs, want.Width, want.Height)
					} else if !sizeNoted {
						// The writer declared a size the image does not have:
						// ours is read from the bytes.
						c.t.Logf("note: run %q tag %q value %d (step %d) image %d: the %s is %sx%s, the writer declared (and TensorBoard shows) %sx%s",
							r.Name, tag, i, e.Step, j, item.Format, ws, hs, want.Width, want.Height)
						sizeNoted = true
					}
				}
			})
	}
}

func (c *oracle) compareAudio(r *model.Run, tags map[string][]tbEvent) {
	ours := map[string]*model.Audio{}
	for _, a := range r.Audio {
		ours[a.Tag] = a
	}
	for _, tag := range slices.Sorted(maps.Keys(tags)) {
		a := ours[tag]
		if a == nil {
			continue
		}
		c.series("audio", r.Name, tag, len(a.Entries), func(i int) (int64, float64) { return a.Entries[i].Step, a.Entries[i].WallTime }, tags[tag],
			func(i int, raw json.RawMessage) {
				var want struct {
					SHA256 []string
					Labels []string // nil when TensorBoard dropped them
				}
				if !c.decode(r.Name, tag, i, raw, &want) {
					return
				}
				e := a.Entries[i]
				if len(e.Clips) != len(want.SHA256) {
					c.errorf("run %q tag %q value %d (step %d): %d clips, TensorBoard %d", r.Name, tag, i, e.Step, len(e.Clips), len(want.SHA256))
					return
				}
				for j, clip := range e.Clips {
					sum, err := sha256Hex(clip.Data)
					if err != nil {
						c.errorf("run %q tag %q value %d clip %d: %v", r.Name, tag, i, j, err)
						continue
					}
					if sum != want.SHA256[j] {
						c.errorf("run %q tag %q value %d (step %d) clip %d: bytes differ (%d bytes, sha256 %s), TensorBoard sha256 %s",
							r.Name, tag, i, e.Step, j, clip.Data.Length, sum, want.SHA256[j])
					}
					if want.Labels != nil && clip.Label != want.Labels[j] {
						c.errorf("run %q tag %q value %d (step %d) clip %d: label %q, TensorBoard %q", r.Name, tag, i, e.Step, j, clip.Label, want.Labels[j])
					}
				}
			})
	}
}

// compareTexts compares the text plugin's tags with our texts of plugin
// "text", and string tensors without a plugin with ours of plugin "".
func (c *oracle) compareTexts(r *model.Run, tags, noPlugin map[string][]tbEvent) {
	ours := map[string]*model.Text{}
	for _, tx := range r.Texts {
		ours[tx.Tag] = tx
	}
	check := func(plugin, tag string, evs []tbEvent) {
		tx := ours[tag]
		if tx == nil {
			return
		}
		bad := 0
		c.series(plugin, r.Name, tag, len(tx.Entries), func(i int) (int64, float64) { return tx.Entries[i].Step, tx.Entries[i].WallTime }, evs,
			func(i int, raw json.RawMessage) {
				var want struct {
					Shape  []int64
					Values []string
				}
				if bad > 0 || !c.decode(r.Name, tag, i, raw, &want) {
					return
				}
				e := tx.Entries[i]
				if !slices.Equal(e.Shape, want.Shape) && !(len(e.Shape) == 0 && len(want.Shape) == 0) {
					c.errorf("run %q tag %q value %d (step %d): shape %v, TensorBoard %v", r.Name, tag, i, e.Step, e.Shape, want.Shape)
					bad++
				}
				if !slices.Equal(e.Values, want.Values) {
					c.errorf("run %q tag %q value %d (step %d): strings %.200q, TensorBoard %.200q", r.Name, tag, i, e.Step, e.Values, want.Values)
					bad++
				}
			})
	}
	for _, tag := range slices.Sorted(maps.Keys(tags)) {
		check("text", tag, tags[tag])
	}
	for _, tag := range slices.Sorted(maps.Keys(noPlugin)) {
		if tx := ours[tag]; tx != nil && tx.Plugin == "" {
			check("no_plugin text", tag, noPlugin[tag])
		}
	}
}

func (c *oracle) comparePRCurves(r *model.Run, tags map[string][]tbEvent) {
	ours := map[string]*model.PRCurve{}
	for _, p := range r.PRCurves {
		ours[p.Tag] = p
	}
	for _, tag := range slices.Sorted(maps.Keys(tags)) {
		p := ours[tag]
		if p == nil {
			continue
		}
		bad := 0
		c.series("pr_curves", r.Name, tag, len(p.Entries), func(i int) (int64, float64) { return p.Entries[i].Step, p.Entries[i].WallTime }, tags[tag],
			func(i int, raw json.RawMessage) {
				var want struct {
					Shape []int
					Rows  [][]tbFloat
				}
				if bad > 0 || !c.decode(r.Name, tag, i, raw, &want) {
					return
				}
				e := p.Entries[i]
				rows := [][]float64{e.TP, e.FP, e.TN, e.FN, e.Precision, e.Recall}
				names := []string{"TP", "FP", "TN", "FN", "precision", "recall"}
				if len(want.Rows) != 6 {
					c.errorf("run %q tag %q value %d (step %d): TensorBoard's tensor has shape %v", r.Name, tag, i, e.Step, want.Shape)
					bad++
					return
				}
				for k, row := range rows {
					if len(row) != len(want.Rows[k]) {
						c.errorf("run %q tag %q value %d (step %d): %d thresholds, TensorBoard %d", r.Name, tag, i, e.Step, len(row), len(want.Rows[k]))
						bad++
						return
					}
					for j, v := range row {
						if w := float64(want.Rows[k][j]); !testsupport.Same(v, w) {
							c.errorf("run %q tag %q value %d (step %d) %s[%d]: %v, TensorBoard %v", r.Name, tag, i, e.Step, names[k], j, v, w)
							bad++
							return
						}
					}
				}
			})
	}
}

// compareTensors compares numeric tensors (meshes, and tensors no plugin
// claims) by dtype, shape and values.
func (c *oracle) compareTensors(what string, r *model.Run, list []*model.Tensor, tags map[string][]tbEvent) {
	ours := map[string]*model.Tensor{}
	for _, t := range list {
		ours[t.Tag] = t
	}
	for _, tag := range slices.Sorted(maps.Keys(tags)) {
		tn := ours[tag]
		if tn == nil {
			continue // a string tensor, or reported with the tags
		}
		bad := 0
		c.series(what, r.Name, tag, len(tn.Entries), func(i int) (int64, float64) { return tn.Entries[i].Step, tn.Entries[i].WallTime }, tags[tag],
			func(i int, raw json.RawMessage) {
				var want struct {
					DType  string
					Shape  []int64
					Values []tbFloat
				}
				if bad > 0 || !c.decode(r.Name, tag, i, raw, &want) {
					return
				}
				e := tn.Entries[i]
				if e.DType != want.DType || !slices.Equal(e.Shape, want.Shape) && !(len(e.Shape) == 0 && len(want.Shape) == 0) {
					c.errorf("run %q tag %q value %d (step %d): %s %v, TensorBoard %s %v", r.Name, tag, i, e.Step, e.DType, e.Shape, want.DType, want.Shape)
					bad++
					return
				}
				if want.Values == nil {
					return
				}
				vals, err := e.Load(Decoders())
				if err != nil {
					c.errorf("run %q tag %q value %d (step %d): %v", r.Name, tag, i, e.Step, err)
					bad++
					return
				}
				if len(vals) != len(want.Values) {
					c.errorf("run %q tag %q value %d (step %d): %d values, TensorBoard %d", r.Name, tag, i, e.Step, len(vals), len(want.Values))
					bad++
					return
				}
				for j, v := range vals {
					if w := float64(want.Values[j]); !testsupport.Same(v, w) {
						c.errorf("run %q tag %q value %d (step %d) element %d: %v, TensorBoard %v", r.Name, tag, i, e.Step, j, v, w)
						bad++
						return
					}
				}
			})
	}
}

// compareHParams compares what TensorBoard's hparams plugin reads of the
// run (the first record of each hparams tag) with our sessions and
// experiment: hyperparameter values, group name, model URI, monitor URL,
// start time, end status and time, and the experiment's hyperparameter and
// metric names.
func (c *oracle) compareHParams(r *model.Run, tb *tbRun) {
	var ours []*model.Session
	if r.HParams != nil {
		for _, s := range r.HParams.Sessions {
			if s.Start.Source == "plugin" {
				ours = append(ours, s)
			}
		}
	}
	rawStart, hasStart := tb.HParams["session_start_info"]
	if !hasStart {
		if len(ours) > 0 {
			c.errorf("run %q: we read %d hparams sessions, TensorBoard none", r.Name, len(ours))
		}
	} else {
		c.compared["hparams sessions"]++
		var want struct {
			HParams    map[string]any `json:"hparams"`
			GroupName  string         `json:"group_name"`
			ModelURI   string         `json:"model_uri"`
			MonitorURL string         `json:"monitor_url"`
			StartTime  tbFloat        `json:"start_time_secs"`
		}
		if err := json.Unmarshal(rawStart, &want); err != nil {
			c.errorf("run %q: TensorBoard's session_start_info %s: %v", r.Name, rawStart, err)
			return
		}
		if len(ours) == 0 {
			c.errorf("run %q: TensorBoard reads an hparams session (group %q, %d hparams), we read none", r.Name, want.GroupName, len(want.HParams))
			return
		}
		if len(ours) > 1 {
			// TensorBoard keeps the first record of a tag in a run.
			c.t.Logf("note: run %q: we read %d hparams sessions, TensorBoard shows the first", r.Name, len(ours))
		}
		s := ours[0]
		got := map[string]any{}
		for k, v := range s.Start.HParams {
			got[k] = hparamJSON(v)
		}
		if want.HParams == nil {
			want.HParams = map[string]any{}
		}
		if !reflect.DeepEqual(got, want.HParams) {
			c.errorf("run %q: session hparams %v, TensorBoard %v", r.Name, got, want.HParams)
		}
		if s.Start.GroupName != want.GroupName || s.Start.ModelURI != want.ModelURI || s.Start.MonitorURL != want.MonitorURL ||
			!testsupport.Same(s.Start.StartTime, float64(want.StartTime)) {
			c.errorf("run %q: session group %q, model %q, monitor %q, start %v; TensorBoard %q, %q, %q, %v", r.Name,
				s.Start.GroupName, s.Start.ModelURI, s.Start.MonitorURL, s.Start.StartTime,
				want.GroupName, want.ModelURI, want.MonitorURL, float64(want.StartTime))
		}
		if rawEnd, ok := tb.HParams["session_end_info"]; ok {
			var end struct {
				Status  string  `json:"status"`
				EndTime tbFloat `json:"end_time_secs"`
			}
			if err := json.Unmarshal(rawEnd, &end); err != nil {
				c.errorf("run %q: TensorBoard's session_end_info %s: %v", r.Name, rawEnd, err)
			} else if s.End == nil {
				c.errorf("run %q: session has no end, TensorBoard's ends %s", r.Name, end.Status)
			} else if wantStatus := strings.ToLower(strings.TrimPrefix(end.Status, "STATUS_")); s.End.Status != wantStatus || !testsupport.Same(s.End.EndTime, float64(end.EndTime)) {
				c.errorf("run %q: session ends %s at %v, TensorBoard %s at %v", r.Name, s.End.Status, s.End.EndTime, end.Status, float64(end.EndTime))
			}
		} else if s.End != nil {
			c.errorf("run %q: session ends %s, TensorBoard reads no session_end_info", r.Name, s.End.Status)
		}
	}
	if rawExp, ok := tb.HParams["experiment"]; ok {
		c.compared["hparams experiments"]++
		var want struct {
			Name    string      `json:"name"`
			HParams []string    `json:"hparams"`
			Metrics [][2]string `json:"metrics"`
		}
		if err := json.Unmarshal(rawExp, &want); err != nil {
			c.errorf("run %q: TensorBoard's experiment %s: %v", r.Name, rawExp, err)
			return
		}
		if r.HParams == nil || r.HParams.Experiment == nil {
			c.errorf("run %q: TensorBoard reads an hparams experiment (%d hparams, %d metrics), we read none", r.Name, len(want.HParams), len(want.Metrics))
			return
		}
		e := r.HParams.Experiment
		var names []string
		for _, h := range e.HParams {
			names = append(names, h.Name)
		}
		var metrics [][2]string
		for _, m := range e.Metrics {
			metrics = append(metrics, [2]string{m.Group, m.Tag})
		}
		if e.Name != want.Name || !slices.Equal(names, want.HParams) || !slices.Equal(metrics, want.Metrics) {
			c.errorf("run %q: experiment %q hparams %q metrics %q, TensorBoard %q %q %q", r.Name, e.Name, names, metrics, want.Name, want.HParams, want.Metrics)
		}
	} else if r.HParams != nil && r.HParams.Experiment != nil {
		c.errorf("run %q: we read an hparams experiment, TensorBoard none", r.Name)
	}
}

// hparamJSON is v as protobuf's JSON mapping of google.protobuf.Value
// gives it, decoded by encoding/json (non-finite numbers as strings).
func hparamJSON(v model.HParamValue) any {
	switch v.Kind {
	case model.BoolValue:
		return v.Bool
	case model.NumberValue:
		switch {
		case math.IsNaN(v.Number):
			return "NaN"
		case math.IsInf(v.Number, 1):
			return "Infinity"
		case math.IsInf(v.Number, -1):
			return "-Infinity"
		}
		return v.Number
	case model.StringValue:
		return v.Str
	case model.ListValue:
		l := make([]any, len(v.List))
		for i, e := range v.List {
			l[i] = hparamJSON(e)
		}
		return l
	case model.StructValue:
		m := map[string]any{}
		for _, f := range v.Fields {
			m[f.Name] = hparamJSON(f.Value)
		}
		return m
	}
	return nil
}

// compareGraphs compares the graphs TensorBoard shows with ours: the run's
// graph (the last graph_def, else the graph_def of the last
// meta_graph_def) by presence and bytes, and each graph value (Keras
// models, TF2 traces, tagged run metadata) by tag, count, last step and
// time, and bytes.
func (c *oracle) compareGraphs(r *model.Run, tb *tbRun) {
	find := func(src model.GraphSource, tag string) *model.Graph {
		for _, g := range r.Graphs {
			if g.Source == src && g.Tag == tag {
				return g
			}
		}
		return nil
	}
	dropped := func(src model.GraphSource, tag string) string {
		for _, w := range r.Warnings {
			if strings.Contains(w.Msg, string(src)+" graph") && strings.Contains(w.Msg, "graph dropped") {
				return " (" + w.String() + ")"
			}
		}
		return ""
	}
	// The run's graph.
	gd, mg := find(model.SourceGraphDef, ""), find(model.SourceMetaGraphDef, "")
	ourGraph := gd != nil || mg != nil
	switch {
	case tb.Graph != ourGraph:
		c.errorf("run %q: graph %v (graph_def %v, meta_graph_def %v), TensorBoard %v%s%s", r.Name, ourGraph, gd != nil, mg != nil, tb.Graph,
			dropped(model.SourceGraphDef, ""), dropped(model.SourceMetaGraphDef, ""))
	case tb.Graph && !tb.GraphFromMetaGraph:
		c.compared["graphs"]++
		if gd == nil {
			c.errorf("run %q: TensorBoard shows a graph_def, ours is from a meta_graph_def", r.Name)
		} else if sum, err := sha256Hex(gd.Data); err != nil || sum != tb.GraphSHA256 {
			c.errorf("run %q: graph_def bytes differ (%d bytes, sha256 %s, %v), TensorBoard sha256 %s", r.Name, gd.Data.Length, sum, err, tb.GraphSHA256)
		}
	case tb.Graph:
		c.compared["graphs"]++
		if gd != nil {
			c.errorf("run %q: we read a graph_def event, TensorBoard shows the graph of a meta_graph_def", r.Name)
		}
	}
	if tb.MetaGraph != (mg != nil) {
		c.errorf("run %q: meta_graph_def %v, TensorBoard %v%s", r.Name, mg != nil, tb.MetaGraph, dropped(model.SourceMetaGraphDef, ""))
	}
	// Graph values, by plugin.
	sources := map[string]model.GraphSource{
		"graph_keras_model":         model.SourceKeras,
		"graph_run_metadata":        model.SourceRunMetadata,
		"graph_run_metadata_graph":  model.SourceRunMetadata,
		"graph_tagged_run_metadata": model.SourceRunMetadata,
	}
	wantGraphs := map[[2]string]bool{}
	for _, plugin := range slices.Sorted(maps.Keys(sources)) {
		src := sources[plugin]
		for _, tag := range slices.Sorted(maps.Keys(tb.Plugins[plugin])) {
			evs := tb.Plugins[plugin][tag]
			if len(evs) == 0 {
				continue
			}
			wantGraphs[[2]string{string(src), tag}] = true
			g := find(src, tag)
			if g == nil {
				c.errorf("run %q tag %q: TensorBoard reads %d values of plugin %q, we keep no %s graph of that tag%s", r.Name, tag, len(evs), plugin, src, dropped(src, tag))
				continue
			}
			c.compared["graphs"]++
			last := evs[len(evs)-1]
			if g.Seen != len(evs) || g.Step != last.Step || !wallIs(g.WallTime, last.Wall) {
				c.errorf("run %q tag %q (%s graph): %d seen, last at step %d at %v; TensorBoard %d, step %d at %v", r.Name, tag, src,
					g.Seen, g.Step, g.WallTime, len(evs), last.Step, last.Wall)
			}
			var want struct{ SHA256 string }
			if c.decode(r.Name, tag, len(evs)-1, last.Value, &want) && want.SHA256 != "" {
				if sum, err := sha256Hex(g.Data); err != nil || sum != want.SHA256 {
					c.errorf("run %q tag %q (%s graph): bytes differ (%d bytes, sha256 %s, %v), TensorBoard sha256 %s", r.Name, tag, src, g.Data.Length, sum, err, want.SHA256)
				}
			}
		}
	}
	for _, g := range r.Graphs {
		if (g.Source == model.SourceKeras || g.Source == model.SourceRunMetadata) && !wantGraphs[[2]string{string(g.Source), g.Tag}] {
			c.errorf("run %q tag %q: we keep a %s graph, TensorBoard has no such graph value", r.Name, g.Tag, g.Source)
		}
	}
}
