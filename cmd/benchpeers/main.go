//go:build linux

// Command benchpeers measures how fast trainreport ingests a log directory
// next to the tools people use for the same job, each as a whole process:
// wall time, CPU time (user + sys) and peak resident memory.
//
//	benchpeers [flags] LOGDIR
//
// It measures, in rounds (every tool once per round, slowest last):
//
//   - lower bound: `benchpeers -crc-only LOGDIR`, a child process of this
//     binary that finds the event files as trainreport does and reads every
//     record with collect/tfrecord's Reader, checking both CRCs, nothing else;
//   - `trainreport inspect --json LOGDIR > /dev/null`: collection only;
//   - `trainreport -quiet -o TMP LOGDIR`: the full report;
//   - TensorBoard's Rust loader: `tensorboard --logdir LOGDIR --load_fast=true
//     --host 127.0.0.1 --port P --samples_per_plugin scalars=N`, timed from
//     launch until its HTTP API serves the last step of every scalar tag
//     ("loaded"), and until every point of every scalar tag has been served
//     once ("served"); then its process tree is killed;
//   - TensorBoard's Python loader: the same with --load_fast=false;
//   - tbparse: `SummaryReader(LOGDIR, pivot=False)` and its .scalars and
//     .tensors data frames (TF2 scalars land in .tensors), with the row counts.
//
// Sampling: with --samples_per_plugin scalars=0, TensorBoard 2.21 keeps every
// point (the Rust data server is passed scalars=all) but its scalars plugin
// then downsamples every response to 0 points, so both loaders serve empty
// series. benchpeers passes a count above any series' length instead
// (-tb-samples, default 1,000,000,000), which keeps and serves every point;
// the verification read checks every tag's point count against trainreport's.
//
// Memory: for commands run to completion, the peak RSS is ru_maxrss of the
// rusage wait4 returns. TensorBoard's Rust loader is two processes, the
// Python server and its data server; their peak is the sum of each
// process's VmHWM (/proc/<pid>/status) read just before they are killed:
// both live and hold their memory for the whole measurement, so the sum is
// what the machine must provide (an upper bound of the simultaneous peak,
// reached when the peaks coincide); benchpeers also reports the largest sum
// of VmRSS it sampled while polling (a lower bound). CPU time of a tree is
// the sum of utime + stime (+ the reaped children's) over its processes.
//
// Only 127.0.0.1 is contacted. Every run has a timeout (-timeout); process
// trees are killed (benchpeers is a child subreaper, so an orphaned data
// server is reparented to it and reaped) and temporary directories removed,
// also on SIGINT and SIGTERM.
//
// `make bench` generates the benchmark log directory with examples/synth,
// installs TensorBoard and tbparse in .cache/bench-venv, and runs this; see
// README.md beside this file.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
)

// Tool names, for -tools.
const (
	toolCRC      = "crc"
	toolCollect  = "collect"
	toolReport   = "report"
	toolPart     = "part"
	toolTBRust   = "tb-rust"
	toolTBPython = "tb-python"
	toolTBParse  = "tbparse"
)

var allTools = []string{toolCRC, toolCollect, toolPart, toolReport, toolTBRust, toolTBParse, toolTBPython}

type options struct {
	logdir      string
	trainreport string
	python      string
	tools       []string
	repeat      int
	slow        time.Duration
	timeout     time.Duration
	poll        time.Duration
	tbSamples   int
	verifyRuns  int
	jsonOut     string
}

func main() {
	crc := flag.Bool("crc-only", false, "child mode: read every event file of DIR checking both CRCs, print counts as JSON, nothing else")
	var o options
	flag.StringVar(&o.trainreport, "trainreport", "", "the trainreport `binary` to measure (default: build ./cmd/trainreport into a temporary directory)")
	flag.StringVar(&o.python, "python", ".cache/bench-venv/bin/python", "the `python` of the virtual environment holding tensorboard and tbparse; tensorboard is the script beside it")
	tools := flag.String("tools", strings.Join(allTools, ","), "comma-separated `list` of tools to measure: "+strings.Join(allTools, ", "))
	flag.IntVar(&o.repeat, "repeat", 3, "measure each tool `N` times (in rounds)")
	flag.DurationVar(&o.slow, "slow", 3*time.Minute, "a tool whose first run takes longer than `D` is measured once")
	flag.DurationVar(&o.timeout, "timeout", 45*time.Minute, "give up on one run of a tool after `D`")
	flag.DurationVar(&o.poll, "poll", 200*time.Millisecond, "poll TensorBoard's HTTP API every `D`")
	flag.IntVar(&o.tbSamples, "tb-samples", 1_000_000_000, "--samples_per_plugin scalars=`N` for TensorBoard (0 makes 2.21 serve no point)")
	flag.IntVar(&o.verifyRuns, "verify-runs", 1, "read every scalar tag in full from TensorBoard (the \"every point served\" row) in the first `N` runs of each loader")
	flag.StringVar(&o.jsonOut, "json", "", "also write every measurement to `FILE` as JSON")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "Usage: benchpeers [flags] LOGDIR\n       benchpeers -crc-only LOGDIR\n\n"+
			"Measures trainreport against TensorBoard's Rust and Python loaders and tbparse on LOGDIR\n"+
			"(wall time, CPU time, peak RSS) and prints a table. See cmd/benchpeers/README.md.\n\nFlags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	o.logdir = flag.Arg(0)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *crc {
		if err := crcOnly(ctx, o.logdir, os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "benchpeers: %v\n", err)
			os.Exit(1)
		}
		return
	}
	for _, t := range strings.Split(*tools, ",") {
		if t = strings.TrimSpace(t); t == "" {
			continue
		}
		if !slices.Contains(allTools, t) {
			fmt.Fprintf(os.Stderr, "benchpeers: unknown tool %q (know %s)\n", t, strings.Join(allTools, ", "))
			os.Exit(2)
		}
		o.tools = append(o.tools, t)
	}
	if o.repeat < 1 {
		o.repeat = 1
	}
	err := run(ctx, o, os.Stdout)
	if err != nil {
		fmt.Fprintf(os.Stderr, "benchpeers: %v\n", err)
		os.Exit(1)
	}
}

// bench is the state of one benchpeers invocation.
type bench struct {
	options
	tmp         string // removed at the end
	self        string // this executable, for -crc-only
	tensorboard string
	exp         *expectation
	env         []string // for Python children: no bytecode writes, no user site
	versions    map[string]string
}

func run(ctx context.Context, o options, out io.Writer) (err error) {
	b := &bench{options: o, versions: map[string]string{}}
	if b.logdir, err = filepath.Abs(o.logdir); err != nil {
		return err
	}
	if fi, err := os.Stat(b.logdir); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", o.logdir)
	}
	if err := setSubreaper(); err != nil {
		return fmt.Errorf("prctl(PR_SET_CHILD_SUBREAPER): %v", err)
	}
	if b.tmp, err = os.MkdirTemp("", "benchpeers-"); err != nil {
		return err
	}
	defer func() {
		reapAdopted()
		if s := strays(b.tmp); len(s) > 0 {
			for _, p := range s {
				_ = syscall.Kill(p.pid, syscall.SIGKILL)
			}
			if err == nil {
				err = fmt.Errorf("%d stray processes were left and killed (first: %d %s)", len(s), s[0].pid, s[0].comm)
			}
		}
		if rmErr := os.RemoveAll(b.tmp); rmErr != nil && err == nil {
			err = rmErr
		}
	}()
	if b.self, err = os.Executable(); err != nil {
		return err
	}
	if err := b.prepare(ctx); err != nil {
		return err
	}
	results, err := b.measure(ctx)
	if err != nil {
		return err
	}
	printReport(out, b, results)
	if b.jsonOut != "" {
		data, _ := json.MarshalIndent(map[string]any{"logdir": b.logdir, "versions": b.versions, "expected": b.exp.summary(), "rows": results}, "", "  ")
		if err := os.WriteFile(b.jsonOut, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func (b *bench) wants(tool string) bool { return slices.Contains(b.tools, tool) }

// prepare builds or finds the binaries, records versions, reads what the
// log directory holds (which also brings it into the page cache) and warms
// up with one untimed lower-bound read.
func (b *bench) prepare(ctx context.Context) error {
	if b.trainreport == "" {
		b.trainreport = filepath.Join(b.tmp, "trainreport")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", b.trainreport, "github.com/trainreport/trainreport/cmd/trainreport")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("building trainreport: %v", err)
		}
	} else if abs, err := filepath.Abs(b.trainreport); err == nil {
		b.trainreport = abs
	}
	b.env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "PYTHONNOUSERSITE=1")
	if b.wants(toolTBRust) || b.wants(toolTBPython) || b.wants(toolTBParse) {
		py, err := filepath.Abs(b.python)
		if err != nil {
			return err
		}
		b.python = py
		b.tensorboard = filepath.Join(filepath.Dir(py), "tensorboard")
		v, err := exec.CommandContext(ctx, b.python, "-c", "import sys, tensorboard, tbparse.version as t; "+
			"print(sys.version.split()[0], tensorboard.__version__, t.VERSION)").Output()
		if err != nil {
			return fmt.Errorf("%s cannot import tensorboard and tbparse (make bench-venv installs them): %v", b.python, err)
		}
		if f := strings.Fields(string(v)); len(f) == 3 {
			b.versions["python"], b.versions["tensorboard"], b.versions["tbparse"] = f[0], f[1], f[2]
		}
	}
	b.versions["go"] = runtime.Version()
	b.versions["trainreport"] = b.trainreport
	inspect, err := exec.CommandContext(ctx, b.trainreport, "inspect", "--json", b.logdir).Output()
	if err != nil {
		return fmt.Errorf("trainreport inspect --json %s: %v", b.logdir, err)
	}
	if b.exp, err = parseInspect(inspect); err != nil {
		return err
	}
	if b.exp.points == 0 {
		return fmt.Errorf("%s holds no scalar point", b.logdir)
	}
	fmt.Fprintf(os.Stderr, "benchpeers: %s\n", b.exp.describe())
	var crcOut strings.Builder
	if _, err := runProcess(ctx, b.timeout, &crcOut, b.env, b.self, "-crc-only", b.logdir); err != nil {
		return err
	}
	var cr crcResult
	if err := json.Unmarshal([]byte(crcOut.String()), &cr); err != nil {
		return fmt.Errorf("-crc-only printed %q: %v", crcOut.String(), err)
	}
	b.exp.crc = cr
	return nil
}

// row is one line of the table: every sample of one tool (or of one
// milestone of TensorBoard).
type row struct {
	Key     string   `json:"key"`
	Label   string   `json:"label"`
	Samples []sample `json:"samples"`
	Notes   []string `json:"notes,omitempty"`
	Err     string   `json:"error,omitempty"`
}

// measure runs every wanted tool repeat times, round by round; a tool whose
// first run takes longer than -slow, or fails, is not run again.
func (b *bench) measure(ctx context.Context) ([]*row, error) {
	rows := map[string]*row{}
	get := func(key, label string) *row {
		if rows[key] == nil {
			rows[key] = &row{Key: key, Label: label}
		}
		return rows[key]
	}
	done := map[string]bool{}
	for round := 1; round <= b.repeat; round++ {
		for _, tool := range allTools {
			if !b.wants(tool) || done[tool] {
				continue
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			fmt.Fprintf(os.Stderr, "benchpeers: round %d: %s ... ", round, tool)
			wall, err := b.measureOne(ctx, tool, get)
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				fmt.Fprintf(os.Stderr, "failed: %v\n", err)
				done[tool] = true
				continue
			}
			fmt.Fprintf(os.Stderr, "%.2f s\n", wall.Seconds())
			if round == 1 && wall > b.slow {
				done[tool] = true
			}
			// Let the kernel take back the memory of the last process.
			time.Sleep(500 * time.Millisecond)
		}
	}
	var out []*row
	for _, k := range rowOrder {
		if r := rows[k]; r != nil {
			out = append(out, r)
		}
	}
	return out, nil
}

var rowOrder = []string{"crc", "collect", "part", "report", "tb-rust-loaded", "tb-rust-served", "tb-python-loaded", "tb-python-served", "tbparse"}

// measureOne measures one run of one tool into its rows and returns the
// wall time that decides whether it is slow.
func (b *bench) measureOne(ctx context.Context, tool string, get func(key, label string) *row) (time.Duration, error) {
	switch tool {
	case toolCRC:
		r := get("crc", "lower bound: read + both CRCs (benchpeers -crc-only)")
		s, err := runProcess(ctx, b.timeout, nil, b.env, b.self, "-crc-only", b.logdir)
		return record(r, s, err)
	case toolCollect:
		r := get("collect", "trainreport inspect --json (collect)")
		s, err := runProcess(ctx, b.timeout, nil, b.env, b.trainreport, "inspect", "--json", b.logdir)
		return record(r, s, err)
	case toolPart:
		// A part of the collection (docs/SHARDS.md): collection written
		// to model.bin as it goes, against collect's figures.
		r := get("part", "trainreport collect --shard 0/1 -o TMP (part)")
		dir := filepath.Join(b.tmp, "part")
		s, err := runProcess(ctx, b.timeout, nil, b.env, b.trainreport, "collect", "--quiet", "--root", b.logdir, "--shard", "0/1", "-o", dir, b.logdir)
		if err == nil && len(r.Notes) == 0 {
			size, _ := dirSize(dir)
			r.Notes = append(r.Notes, fmt.Sprintf("the part is %.1f MB on disk", float64(size)/1e6))
		}
		os.RemoveAll(dir)
		return record(r, s, err)
	case toolReport:
		r := get("report", "trainreport -quiet -o TMP (full report)")
		dir := filepath.Join(b.tmp, "report")
		s, err := runProcess(ctx, b.timeout, nil, b.env, b.trainreport, "-quiet", "-o", dir, b.logdir)
		if err == nil && len(r.Notes) == 0 {
			total, files := dirSize(dir)
			data, _ := dirSize(filepath.Join(dir, "data"))
			r.Notes = append(r.Notes, fmt.Sprintf("the report is %.1f MB on disk in %s files, %.1f MB of it data/", float64(total)/1e6, thousands(files), float64(data)/1e6))
		}
		os.RemoveAll(dir)
		return record(r, s, err)
	case toolTBRust, toolTBPython:
		fast := tool == toolTBRust
		name := map[bool]string{true: "TensorBoard Rust loader (--load_fast=true)", false: "TensorBoard Python loader (--load_fast=false)"}[fast]
		loaded, served := get(tool+"-loaded", name+": loaded"), get(tool+"-served", name+": every point served")
		res, err := measureTensorBoard(ctx, tbConfig{tensorboard: b.tensorboard, logdir: b.logdir, tmp: b.tmp, fast: fast,
			samples: b.tbSamples, poll: b.poll, timeout: b.timeout, exp: b.exp, verify: len(loaded.Samples) < b.verifyRuns})
		if err != nil {
			loaded.Err = err.Error()
			return 0, err
		}
		loaded.Samples = append(loaded.Samples, res.Loaded)
		loaded.Notes = append(loaded.Notes, fmt.Sprintf("run %d: HTTP up after %.1f s; loaded at most %.2f s before it was seen; %d processes; %d probe requests, %.2f s of summed latency; sampled peak RSS %.0f MB vs summed VmHWM %.0f MB",
			len(loaded.Samples), res.Up.Seconds(), res.Granularity.Seconds(), res.Processes, res.Polls, res.PollTime.Seconds(),
			float64(res.SampledRSSKB)/1024, float64(res.Loaded.RSSKB)/1024))
		if res.Served.Wall == 0 {
			return res.Loaded.Wall, nil
		}
		served.Samples = append(served.Samples, res.Served)
		note := fmt.Sprintf("run %d: %d points served in the verification read; %d tags lacked their last step when first read after loaded", len(served.Samples), res.ServedPoints, res.LateTags)
		if len(res.Mismatches) > 0 {
			note += fmt.Sprintf("; %d tags differ from trainreport's counts, first: %s", len(res.Mismatches), res.Mismatches[0])
		}
		served.Notes = append(served.Notes, note)
		return res.Loaded.Wall, nil
	case toolTBParse:
		r := get("tbparse", "tbparse SummaryReader(pivot=False) .scalars + .tensors")
		var stdout strings.Builder
		s, err := runProcess(ctx, b.timeout, &stdout, b.env, b.python, "-c", tbparseScript, b.logdir)
		if err == nil {
			var sc, tn int64
			if _, perr := fmt.Sscan(stdout.String(), &sc, &tn); perr != nil {
				err = fmt.Errorf("tbparse printed %q", stdout.String())
			} else if len(r.Notes) == 0 {
				r.Notes = append(r.Notes, fmt.Sprintf("rows: .scalars %d (TF1 simple_value) + .tensors %d (TF2 tensors) = %d of %d points", sc, tn, sc+tn, b.exp.points))
			}
		}
		return record(r, s, err)
	}
	return 0, fmt.Errorf("unknown tool %s", tool)
}

// tbparseScript reads every scalar: tbparse puts TF1 simple_value scalars in
// .scalars and TF2 tensor scalars in .tensors. SummaryReader parses every
// file in its constructor; the two properties build the data frames.
const tbparseScript = `import sys
from tbparse import SummaryReader
r = SummaryReader(sys.argv[1], pivot=False)
s = r.scalars
t = r.tensors
print(len(s), len(t))
`

func record(r *row, s sample, err error) (time.Duration, error) {
	if err != nil {
		r.Err = err.Error()
		return 0, err
	}
	r.Samples = append(r.Samples, s)
	return s.Wall, nil
}

// dirSize returns the bytes and the number of the regular files under dir:
// what a static host counts against its limits.
func dirSize(dir string) (bytes, files int64) {
	_ = filepath.WalkDir(dir, func(_ string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				bytes += fi.Size()
				files++
			}
		}
		return nil
	})
	return bytes, files
}

// expectation is what the log directory holds, from `trainreport inspect
// --json`: what TensorBoard must serve before it counts as loaded.
type expectation struct {
	runs       []expRun
	points     int64 // scalar points
	scalarTags int
	histTags   int
	imageTags  int
	files      int
	bytes      int64
	crc        crcResult
}

type expRun struct {
	name    string
	scalars []expTag
	image   *expTag // the image tag with the largest last step, if any
}

type expTag struct {
	tag   string
	count int
	last  int64
}

// probe is the scalar tag polled for the run: the one with the largest last
// step (the first such by name).
func (r *expRun) probe() expTag {
	best := r.scalars[0]
	for _, t := range r.scalars[1:] {
		if t.last > best.last {
			best = t
		}
	}
	return best
}

func parseInspect(data []byte) (*expectation, error) {
	var in struct {
		Runs []struct {
			Name  string `json:"name"`
			Files []struct {
				Bytes int64 `json:"bytes"`
			} `json:"files"`
			Tags []struct {
				Tag      string `json:"tag"`
				Kind     string `json:"kind"`
				Count    int    `json:"count"`
				LastStep int64  `json:"last_step"`
			} `json:"tags"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, fmt.Errorf("reading trainreport inspect --json: %v", err)
	}
	e := &expectation{}
	for _, r := range in.Runs {
		e.files += len(r.Files)
		for _, f := range r.Files {
			e.bytes += f.Bytes
		}
		er := expRun{name: r.Name}
		for _, t := range r.Tags {
			switch t.Kind {
			case "scalar":
				er.scalars = append(er.scalars, expTag{t.Tag, t.Count, t.LastStep})
				e.points += int64(t.Count)
				e.scalarTags++
			case "histogram":
				e.histTags++
			case "image":
				e.imageTags++
				if er.image == nil || t.LastStep > er.image.last {
					er.image = &expTag{t.Tag, t.Count, t.LastStep}
				}
			}
		}
		if len(er.scalars) > 0 {
			e.runs = append(e.runs, er)
		}
	}
	if len(e.runs) == 0 && len(in.Runs) > 0 {
		return e, errors.New("no run holds a scalar tag")
	}
	return e, nil
}

func (e *expectation) describe() string {
	return fmt.Sprintf("%d runs, %d scalar tags, %s scalar points, %d histogram and %d image tags; %d files, %.1f MB",
		len(e.runs), e.scalarTags, thousands(e.points), e.histTags, e.imageTags, e.files, float64(e.bytes)/1e6)
}

func (e *expectation) summary() map[string]any {
	return map[string]any{"runs": len(e.runs), "scalar_tags": e.scalarTags, "scalar_points": e.points,
		"histogram_tags": e.histTags, "image_tags": e.imageTags, "files": e.files, "bytes": e.bytes, "records": e.crc.Records}
}

func thousands(n int64) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
