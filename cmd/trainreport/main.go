// Command trainreport turns training log directories into a static,
// self-contained report: HTML pages drawn with Apache ECharts, the data as
// JSON, a summary for scripts and a Markdown summary for CI.
//
// Usage:
//
//	trainreport [flags] LOGDIR|NAME=LOGDIR ...
//	trainreport inspect [--json] LOGDIR|NAME=LOGDIR ...
//	trainreport collect --shard I/N -o PART LOGDIR|NAME=LOGDIR ...
//	trainreport merge [flags] PART ...
//	trainreport --version
//
// See docs/USAGE.md for the flags and docs/OUTPUTS.md for the outputs.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/gate"
	"github.com/trainreport/trainreport/internal/memlimit"
	"github.com/trainreport/trainreport/internal/outdir"
	"github.com/trainreport/trainreport/render"
)

// quietAWSChecksums makes the AWS SDK check the checksums of responses
// only when a request asks for them, unless the environment says
// otherwise: a range read of an object comes without one, and the SDK
// would print a line to stderr for each (and the readers check the
// records' own CRCs).
func quietAWSChecksums() {
	if _, ok := os.LookupEnv("AWS_RESPONSE_CHECKSUM_VALIDATION"); !ok {
		os.Setenv("AWS_RESPONSE_CHECKSUM_VALIDATION", "when_required")
	}
}

func main() {
	// SIGTERM too (what timeout and CI runners send): the site being
	// written is abandoned and its temporary folder removed.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	quietAWSChecksums()
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "inspect":
			os.Exit(runInspect(ctx, os.Args[2:], os.Stdout, os.Stderr))
		case "collect":
			os.Exit(runCollect(ctx, os.Args[2:], os.Stdout, os.Stderr))
		case "merge":
			os.Exit(runMerge(ctx, os.Args[2:], os.Stdout, os.Stderr))
		}
	}
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// maxPrintedWarnings bounds the warnings printed on stderr; the overview
// page lists them all.
const maxPrintedWarnings = 50

type config struct {
	out           string
	title         string
	maxPoints     int
	maxDataPoints int
	maxPagePoints int
	maxPageBytes  int
	maxSingle     int
	singleFile    string
	markdown      string
	markdownForm  render.MarkdownForm
	keepAll       bool
	restarts      string
	mediaSteps    int
	histSteps     int
	embeddings    embeddingConfig
	quiet         bool
	cpuProfile    string
	annotations   string // --annotations: "" or "github"
	version       bool
	// gates are the --fail-on conditions (and --fail-on-warnings');
	// baseline and threshold are --baseline's.
	gates          []*gate.Gate
	failOnWarnings bool
	baseline       string
	threshold      float64
	email          string
	chartsURL      string
	// dataJSON and dataTianshu are --data-json and --data-tianshu:
	// render.Options.DataJSON and DataTianshu.
	dataJSON, dataTianshu bool
	dataCSV               bool   // --data-csv: render.Options.DataCSV
	notes                 string // --notes FILE's Markdown: render.Options.Notes
	// root is merge's --root: the folder below which the parts name
	// their log directories.
	root   string
	memory maxMemory
	// logdirs are the log directories the command line names (for
	// merge, its positional arguments are its parts).
	logdirs logdirArgs
	// flagErr is the error of a flag's value as the command says it,
	// when the flag's parser set it (--fail-on).
	flagErr error
}

// parseArgs parses flags and log directories. Flags may come before,
// between or after the log directories, as in `trainreport runs/ -o out`.
// -h and --help print the usage on stdout and return flag.ErrHelp; a usage
// error prints it on stderr.
//
// more defines the flags of a subcommand that takes the report's (merge).
func parseArgs(args []string, stdout, stderr io.Writer, more ...func(*flag.FlagSet, *config)) (*config, []string, error) {
	var c config
	fs := flag.NewFlagSet("trainreport", flag.ContinueOnError)
	fs.SetOutput(stderr)
	help := helpFlags(fs)
	fs.BoolVar(&c.version, "version", false, "print the version and exit")
	fs.StringVar(&c.out, "o", "report", "write the report site into `DIR`")
	fs.StringVar(&c.title, "title", "", "title of the report (default: the log directories' names)")
	fs.IntVar(&c.maxPoints, "max-points", analysis.DefaultMaxPoints, "draw about `N` points per series; the data keeps every point")
	fs.IntVar(&c.maxPageBytes, "max-page-bytes", render.DefaultMaxPageBytes, "keep each page's HTML, with what it inlines, under `N` bytes: the scalars page of a sweep draws the runs' median, bands and extremes, and loads other runs on demand, the other pages show each tag's first runs that fit (0: no bound)")
	fs.IntVar(&c.maxPagePoints, "max-page-points", analysis.DefaultMaxPagePoints, "draw at most about `N` points on the scalars page, each series drawing fewer when needed (0: no bound)")
	fs.IntVar(&c.maxDataPoints, "max-data-points", analysis.DefaultMaxDataPoints, "keep at most `N` points per series in the data files, downsampling beyond it while keeping extremes (0: no cap)")
	fs.IntVar(&c.mediaSteps, "max-media-steps", analysis.DefaultMediaSteps, "keep at most `N` steps of each image and audio series, spread evenly with the last kept")
	fs.IntVar(&c.histSteps, "max-histogram-steps", render.DefaultHistogramSteps, "draw at most `N` steps of each histogram series; the data keeps every step")
	fs.BoolVar(&c.dataJSON, "data-json", false, "also write each scalar bundle (data/scalars/FIRST-RUN.js) as a plain JSON file beside it, FIRST-RUN.json, for hosts and scripts that want one (doubles the scalar data)")
	fs.BoolVar(&c.dataTianshu, "data-tianshu", false, "also write the scalar data files of data layout 1, one per series in Tianshu's shape (data/scalars/RUN/TAG.json), listed by data/index.json, for tools reading Tianshu's API")
	fs.BoolVar(&c.dataCSV, "data-csv", false, "also write every scalar point of the data files as one long table, data/scalars.csv (run, tag, step, wall_time, value, attempt), for pandas, R and spreadsheets (about the scalar data's bytes again)")
	embeddingFlags(fs, &c.embeddings)
	fs.Func("notes", "put the Markdown of `FILE` (what the runs were for, what to look at) at the top of the overview and of summary.md", func(name string) (err error) {
		c.notes, err = readNotes(name)
		return err
	})
	fs.StringVar(&c.singleFile, "single-file", "", "also write the whole report as one self-contained HTML `FILE`")
	fs.IntVar(&c.maxSingle, "max-single-file-bytes", render.DefaultMaxSingleFileBytes, "keep the --single-file report under `N` bytes: the pages that do not fit, in the navigation's order, are left out of it, each saying so (the site has them) (0: no bound)")
	fs.StringVar(&c.markdown, "markdown", "", "also write the Markdown summary to `FILE`")
	fs.Func("markdown-form", "write summary.md for `FORM`: comment (a pull-request comment, under 65,536 characters; the default) or job (a CI job summary, every row up to 1 MiB)",
		func(s string) (err error) {
			c.markdownForm, err = render.ParseMarkdownForm(s)
			return err
		})
	fs.StringVar(&c.email, "email", "", "also write the report as an email to `FILE`: a MIME message whose HTML body needs no script, with its charts as inline PNG parts")
	fs.BoolVar(&c.keepAll, "keep-all-records", false, "keep every record in arrival order, applying no restart rule (not with --restarts)")
	restartsFlag(fs, &c.restarts)
	gateFlags(fs, &c)
	annotationsFlag(fs, &c.annotations)
	fs.BoolVar(&c.quiet, "quiet", false, "print only warnings and errors")
	memoryFlag(fs, &c.memory)
	fs.StringVar(&c.cpuProfile, "cpuprofile", "", "write a CPU profile of the run to `FILE` (for performance work; make pgo uses it)")
	for _, f := range more {
		f(fs, &c)
	}
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: trainreport [flags] LOGDIR|NAME=LOGDIR ...\n"+
			"       trainreport [flags] --logdir LOGDIR | --logdir_spec NAME:LOGDIR,...\n"+
			"       trainreport inspect [--json] LOGDIR|NAME=LOGDIR ...\n"+
			"       trainreport collect --shard I/N -o PART LOGDIR|NAME=LOGDIR ...\n"+
			"       trainreport merge [flags] PART ...\n"+
			"       trainreport --version\n\n"+
			"Reads every run under each log directory and writes a static report;\n"+
			"inspect lists what each run's files hold instead.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	// The flag package prints an error and the whole usage, and the caller
	// prints the error again: it prints nothing here. A flag's bad value is
	// one line (the error says what is wrong with it); an unknown flag
	// gets the usage, then the error once.
	usage := fs.Usage
	fs.Usage = func() {}
	fs.SetOutput(io.Discard)
	if err := c.logdirs.parse(fs, args); err != nil {
		fs.SetOutput(stderr)
		if c.flagErr != nil {
			return nil, nil, c.flagErr
		}
		if msg := err.Error(); !strings.HasPrefix(msg, "invalid value ") && !strings.HasPrefix(msg, "invalid boolean value ") {
			usage()
		}
		return nil, nil, err
	}
	fs.SetOutput(stderr)
	fs.Usage = usage
	if *help {
		fs.SetOutput(stdout)
		fs.Usage()
		return nil, nil, flag.ErrHelp
	}
	if c.version {
		return &c, nil, nil
	}
	if err := c.logdirs.check(); err != nil {
		return nil, nil, err
	}
	if c.logdirs.none() {
		fs.Usage()
		return nil, nil, errors.New("no log directory given")
	}
	if err := checkRestarts(fs, c.restarts, c.keepAll); err != nil {
		return nil, nil, err
	}
	if err := checkGates(&c); err != nil {
		return nil, nil, err
	}
	if c.maxPoints < 1 {
		return nil, nil, errors.New("-max-points must be at least 1")
	}
	if c.mediaSteps < 1 || c.histSteps < 1 {
		return nil, nil, errors.New("-max-media-steps and -max-histogram-steps must be at least 1")
	}
	switch {
	case c.maxDataPoints == 0:
		c.maxDataPoints = -1 // the analysis's "no cap"
	case c.maxDataPoints < 0:
		return nil, nil, errors.New("-max-data-points must be 0 (no cap) or more")
	}
	switch {
	case c.maxPagePoints == 0:
		c.maxPagePoints = -1 // the analysis's "no bound"
	case c.maxPagePoints < 0:
		return nil, nil, errors.New("-max-page-points must be 0 (no bound) or more")
	}
	switch {
	case c.maxPageBytes == 0:
		c.maxPageBytes = -1 // render's "no bound"
	case c.maxPageBytes < 0:
		return nil, nil, errors.New("-max-page-bytes must be 0 (no bound) or more")
	}
	switch {
	case c.maxSingle == 0:
		c.maxSingle = -1 // render's "no bound"
	case c.maxSingle < 0:
		return nil, nil, errors.New("-max-single-file-bytes must be 0 (no bound) or more")
	}
	return &c, c.logdirs.positional, nil
}

// Exit statuses. A gate's failure has its own, 3, as CI scripts read it:
// the report was written and says what failed.
const (
	exitOK       = 0
	exitFailed   = 1 // the logs held nothing readable, the output could not be written, or the memory budget was passed
	exitUsage    = 2 // bad flags or arguments (an error in a --fail-on expression), or an output path the report must not write
	exitGate     = 3 // a --fail-on condition held (or --fail-on-warnings'): the report was written
	exitInternal = 4 // a bug: please report it with the message
)

// usageError is an error of the command line, reported before any log is
// read.
type usageError struct{ error }

// run is the whole command; it returns the exit status. Only what was
// asked for goes to stdout (the usage of --help, the version); progress,
// warnings and errors go to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runCommand(ctx, args, stdout, stderr, build, func(fs *flag.FlagSet, c *config) {
		c.logdirs.register(fs)
	})
}

// runCommand parses the report's flags and arguments and hands them to
// do, which builds the report (from log directories, or from the parts
// of a sharded collection); it returns the exit status.
func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer,
	do func(ctx context.Context, c *config, args []string, stdout, stderr io.Writer) error, more ...func(*flag.FlagSet, *config)) (status int) {
	defer func() {
		// A panic is a bug of ours, never a verdict on the logs: say so,
		// with a status of its own, rather than Go's 2, which is ours for
		// usage errors.
		if v := recover(); v != nil {
			fmt.Fprintf(stderr, "trainreport: internal error (please report it): %v\n\n%s", v, debug.Stack())
			status = exitInternal
		}
	}()
	c, logdirArgs, err := parseArgs(args, stdout, stderr, more...)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "trainreport: %v\n", err)
		return exitUsage
	}
	if c.version {
		bi, _ := debug.ReadBuildInfo()
		fmt.Fprintln(stdout, versionLine(bi))
		return exitOK
	}
	ctx, stop, memoryFailed := guardMemory(ctx, c.memory, "trainreport", stderr)
	defer stop()
	if err := do(ctx, c, logdirArgs, stdout, stderr); err != nil {
		if msg, ok := memoryFailed(err); ok {
			fmt.Fprintln(stderr, msg)
			return exitFailed
		}
		var ge gateError
		if errors.As(err, &ge) {
			// A line per failed gate, each made printable alone.
			for _, f := range ge.failed {
				fmt.Fprintf(stderr, "trainreport: gate failed: %s\n", printable(f.Text))
			}
			return exitGate
		}
		fmt.Fprintf(stderr, "trainreport: %s\n", printable(err.Error()))
		if errors.As(err, new(usageError)) {
			return exitUsage
		}
		return exitFailed
	}
	return exitOK
}

// checkOutputs refuses, before any log is read, outputs that would
// replace or overwrite what they must not: see package outdir.
func checkOutputs(c *config, logdirs []model.Logdir) error {
	paths := localPaths(logdirs)
	if err := outdir.Check(c.out, paths); err != nil {
		return usageError{err}
	}
	for _, f := range outputFiles(c) {
		if f.name == "" {
			continue
		}
		if err := outdir.CheckFile(f.name, c.out, paths, collect.Detection().IsInput); err != nil {
			return usageError{fmt.Errorf("%s: %w", f.flag, err)}
		}
	}
	files := outputFiles(c)
	if c.baseline != "" {
		files = append(files, struct{ flag, name string }{"--baseline", c.baseline})
	}
	for i, a := range files {
		for _, b := range files[i+1:] {
			if a.name != "" && b.name != "" && outdir.SamePath(a.name, b.name) {
				return usageError{fmt.Errorf("%s and %s both name %s", a.flag, b.flag, a.name)}
			}
		}
	}
	return nil
}

// outputFiles are the files given by flags that the report writes.
func outputFiles(c *config) []struct{ flag, name string } {
	return []struct{ flag, name string }{{"--single-file", c.singleFile}, {"--markdown", c.markdown}, {"--email", c.email}, {"--cpuprofile", c.cpuProfile}}
}

// checkNotRead refuses output files that name a file the report read:
// files a projector config names are known only once it is read.
func checkNotRead(c *config, rep *model.Report) error {
	for _, f := range outputFiles(c) {
		if f.name != "" && collect.WasRead(rep, f.name) {
			return usageError{fmt.Errorf("%s %s names a file the report reads", f.flag, f.name)}
		}
	}
	return nil
}

// build reads the log directories c.logdirs names and writes their report
// as c asks.
func build(ctx context.Context, c *config, _ []string, stdout, stderr io.Writer) (errOut error) {
	start := time.Now()
	args, err := c.logdirs.resolve()
	if err != nil {
		return err
	}
	logdirs := logdirsOf(args)
	for _, w := range sameNames(args) {
		fmt.Fprintf(stderr, "warning: %s\n", printable(w))
	}
	if err := checkOutputs(c, logdirs); err != nil {
		return err
	}
	stopProfile, err := startCPUProfile(c.cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile(&errOut)
	defer startHeapPeak(stderr)(&errOut)
	opt := collect.Options{KeepAllRecords: c.keepAll, Restarts: model.RestartRule(c.restarts)}
	var base *analysis.Baseline
	if c.baseline != "" {
		// Read first: a baseline that cannot be read is an error of the
		// command line, better known before the logs are read.
		memlimit.Phase(ctx, "reading the baseline")
		if base, err = loadBaseline(ctx, c, opt); err != nil {
			return err
		}
	}
	var bar *progressbar.ProgressBar
	if f, ok := stderr.(*os.File); ok && !c.quiet && term.IsTerminal(int(f.Fd())) {
		bar = progressbar.NewOptions64(-1, progressbar.OptionSetWriter(stderr), progressbar.OptionShowBytes(true),
			progressbar.OptionSetDescription("reading"), progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
		opt.Progress = func(done, total int64) {
			bar.ChangeMax64(total)
			bar.Set64(done)
		}
	}
	memlimit.Phase(ctx, "reading the logs")
	rep, err := collect.Collect(ctx, logdirs, opt)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	defer rep.Close()
	title := c.title
	if title == "" {
		title = defaultTitle(args)
	}
	return writeReport(ctx, c, rep, title, base, nil, start, stdout, stderr)
}

// writeReport writes the report of rep, collected or merged from shards,
// as c asks: the site, the files of the flags, the gates' verdict. rep's
// log directories name the folders in messages.
// points is where the stages read the runs' scalar points (runPoints),
// nil when rep holds them (a direct build).
func writeReport(ctx context.Context, c *config, rep *model.Report, title string, base *analysis.Baseline, points runPoints, start time.Time, stdout, stderr io.Writer) (errOut error) {
	if err := checkNotRead(c, rep); err != nil {
		return err
	}

	runs, files, records, bytes := 0, 0, 0, int64(0)
	for _, r := range rep.Runs {
		runs++
		for _, f := range r.LogFiles() { // Visdom environments and replay logs are logs too
			files++
			records += f.Records
			bytes += f.Size
		}
	}
	// With no event file at all, the error says so: collect's warning of
	// each log directory without one would say it a second time.
	nwarn := printWarnings(stderr, rep, files == 0)
	// A log directory may hold projector files and no event file (TF's
	// projector API used on its own): its embeddings are the report.
	embeddingsOnly := files == 0 && slices.ContainsFunc(rep.Runs, func(r *model.Run) bool { return len(r.Embeddings) > 0 })
	if records == 0 && !embeddingsOnly {
		names := make([]string, len(rep.Logdirs))
		for i, l := range rep.Logdirs {
			names[i] = l.Path
		}
		if files == 0 {
			return fmt.Errorf("no event files found in %s", strings.Join(names, ", "))
		}
		// Still write the report: its overview names each file and why
		// it could not be read (Git LFS stubs, empty files), which is
		// what a CI job's artifact should say. The run fails all the same.
		errOut = fmt.Errorf("nothing readable in %s: %s, none with a readable record (%s above)",
			strings.Join(names, ", "), plural(files, "event file"), plural(nwarn, "warning"))
	}
	if !c.quiet && records > 0 {
		fmt.Fprintf(stderr, "read %s, %s, %s (%.1f MB) in %.2fs\n", plural(runs, "run"), plural(files, "file"),
			plural(records, "record"), float64(bytes)/1e6, time.Since(start).Seconds())
		if line := render.RestartsLine(rep); line != "" {
			fmt.Fprintln(stderr, "restarts: "+line)
		}
	}

	if os.Getenv("GOGC") == "" {
		// From here on the model is most of the heap, and its bulk (the
		// points) holds no pointers, so the collector costs little per
		// cycle. A heap let to grow a quarter between cycles, not the
		// default whole, kept the peak while the pages and data files are
		// formatted at 1.6x the points kept instead of 2x (20M points:
		// 790 MB instead of 960 MB); where reading the logs left the
		// runtime holding more than that, the heap grows into it
		// (memlimit.GCPercentWithin): fewer cycles, no higher a peak.
		// Not in a merge (points given): its first pass read the parts'
		// runs cut to their last points, so what the runtime holds then
		// is no measure of what the stages will hold, and letting the
		// heap grow into it took the merge of 100,000 runs from 1.7 GB to
		// 2.5 GB.
		if points == nil {
			memlimit.GCPercentWithin(25, 100)
		} else {
			debug.SetGCPercent(25)
		}
	}
	// The analysis is most of a report's work after reading, and the
	// layouts of big embeddings in it take tens of seconds (t-SNE and
	// UMAP at their caps, more with the caps raised): say what is being
	// done.
	progress := newEmbeddingProgress(stderr, c.quiet)
	aopt := analysis.Options{MaxPoints: c.maxPoints, MaxPagePoints: c.maxPagePoints, MaxDataPoints: c.maxDataPoints,
		MediaSteps: c.mediaSteps, Baseline: base, Gates: c.gates}
	c.embeddings.apply(&aopt, progress.update)
	ropt := render.Options{Title: title, MaxPageBytes: c.maxPageBytes, MaxSingleFileBytes: c.maxSingle,
		HistogramSteps: c.histSteps, MarkdownForm: c.markdownForm,
		ChartsURL: c.chartsURL, DataJSON: c.dataJSON, DataTianshu: c.dataTianshu, DataCSV: c.dataCSV, Notes: c.notes,
		RunDataWritten: true}
	memlimit.Phase(ctx, "analysing the logs")
	site, err := outdir.Create(c.out)
	if err != nil {
		return fmt.Errorf("writing %s: %w", c.out, err)
	}
	committed := false
	defer func() {
		if !committed {
			site.Abort()
		}
	}()
	if points == nil {
		points = &heldRuns{runs: rep.Runs} // a direct build: rep holds every point
	}
	an, err := stagedAnalysis(ctx, rep, points, aopt, site, ropt, progress)
	if err != nil {
		return err
	}
	progress.done(an.Embeddings)
	r := render.New(rep, an, ropt)
	memlimit.Phase(ctx, "writing the report")
	if err := r.WriteSiteTo(ctx, site); err != nil {
		return fmt.Errorf("writing %s: %w", c.out, err)
	}
	committed = true
	if err := site.Commit(); err != nil {
		return fmt.Errorf("writing %s: %w", c.out, err)
	}
	if c.singleFile != "" {
		if err := outdir.WriteFileAtomic(c.singleFile, r.WriteSingleFile); err != nil {
			return err
		}
	}
	if c.markdown != "" {
		if err := outdir.WriteFileAtomic(c.markdown, r.MarkdownWithCharts(chartsFrom(c.markdown, c.out))); err != nil {
			return err
		}
	}
	if c.email != "" {
		if err := outdir.WriteFileAtomic(c.email, r.WriteEmail); err != nil {
			return err
		}
	}
	if n, byStatus := r.SkippedFiles(); n > 0 {
		// A warning, printed even with -quiet: empty files and profiler
		// markers warn of nothing else, and were only a badge.
		fmt.Fprintf(stderr, "%s skipped or read in part (%s): see the overview, %s\n",
			plural(n, "file"), byStatus, filepath.Join(c.out, "index.html"))
	}
	if !c.quiet {
		fmt.Fprintf(stderr, "wrote %s in %.2fs\n", filepath.Join(c.out, "index.html"), time.Since(start).Seconds())
	}
	if c.annotations == "github" {
		if err := writeGitHubAnnotations(stdout, rep, an, c.out); err != nil {
			return fmt.Errorf("writing the annotations: %w", err)
		}
	}
	if failed := failedGates(an); errOut == nil && len(failed) > 0 {
		// The report is written: the verdict comes last, as CI reads it.
		errOut = gateError{failed}
	}
	return errOut
}

// noEventFiles is collect's warning for a log directory holding no event
// file (collect.go), which printWarnings can leave to the error that says
// the same.
const noEventFiles = "no event files found"

// printWarnings prints the report's warnings and returns how many it
// printed, those of log directories without event files left out when
// skipEmpty is set.
func printWarnings(w io.Writer, rep *model.Report, skipEmpty bool) int {
	var all []string
	for _, wr := range rep.Warnings {
		if skipEmpty && wr.Msg == noEventFiles {
			continue
		}
		all = append(all, wr.String())
	}
	for _, r := range rep.Runs {
		for _, wr := range r.Warnings {
			all = append(all, r.Logdir+": "+wr.String())
		}
	}
	printWarningLines(w, all, len(all))
	return len(all)
}

// printWarningLines prints the first maxPrintedWarnings of lines, the
// first warnings of total, and how many more there are.
func printWarningLines(w io.Writer, lines []string, total int) {
	for i, s := range lines {
		if i == maxPrintedWarnings {
			break
		}
		fmt.Fprintf(w, "warning: %s\n", printable(s))
	}
	if total > maxPrintedWarnings {
		fmt.Fprintf(w, "warning: %d more %s, listed on the report's overview page\n", total-maxPrintedWarnings, nouns(total-maxPrintedWarnings, "warning"))
	}
}

// startCPUProfile profiles the process, when name is not "", until stop
// is called, which writes the profile to name; a failure to write it
// becomes *errOut unless that already holds an error. With name "" it
// does nothing.
func startCPUProfile(name string) (stop func(errOut *error), err error) {
	if name == "" {
		return func(*error) {}, nil
	}
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func(errOut *error) {
		pprof.StopCPUProfile()
		err := outdir.WriteFileAtomic(name, func(w io.Writer) error {
			_, err := buf.WriteTo(w)
			return err
		})
		if err != nil && *errOut == nil {
			*errOut = err
		}
	}, nil
}

// restartsFlag defines --restarts, the restart rule, on fs.
func restartsFlag(fs *flag.FlagSet, p *string) {
	fs.StringVar(p, "restarts", string(model.RestartsAttempts), "what restarts (a rerun, a second fit(), a resume) do to a run's lines: `RULE` "+
		"attempts (keep every point: the latest write of each step is the line, what it replaced is kept and drawn faded), "+
		"latest (draw and keep the line only, counting what it replaced) or "+
		"tensorboard (TensorBoard's purge rule)")
}

// checkRestarts refuses an unknown restart rule, and one given with
// --keep-all-records, which applies none.
func checkRestarts(fs *flag.FlagSet, rule string, keepAll bool) error {
	if !model.RestartRule(rule).Valid() {
		return fmt.Errorf("--restarts %q: want attempts, latest or tensorboard", rule)
	}
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "restarts" })
	if set && keepAll {
		return errors.New("--keep-all-records applies no restart rule: give it or --restarts, not both")
	}
	return nil
}
