package collect

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/trainreport/trainreport/collect/discover"
	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/mindspore"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/collect/projector"
)

// Options control collection.
type Options struct {
	// KeepAllRecords keeps every record instead of applying the restart
	// rule (docs/FORMATS.md section 18): Restarts is then ignored.
	KeepAllRecords bool
	// Restarts is the restart rule that makes each series' line and what
	// becomes of the values it replaces; "" is model.RestartsAttempts.
	Restarts model.RestartRule
	// Progress, when set, is called after each file with the bytes read so
	// far and the bytes of every event file found. It may be called from
	// several goroutines at once.
	Progress func(done, total int64)
	// Keep, when set, is called once for every run discovered, in the
	// order of discovery, with its log directory's name and its path in
	// it, and only the runs it returns true for are read: a shard of a
	// collection (see cmd/trainreport's collect --shard) sees every run
	// the whole would, so it can fingerprint the discovery.
	Keep func(logdir, path string) bool
	// Emit, when set, is handed every run read, one call at a time, in
	// the report's order (CompareRunNames), as soon as the run and those
	// before it are read; the runs are not kept: the report Collect
	// returns holds none, and joining their hyperparameter metrics
	// (JoinHParamMetrics) is left to whoever gathers them (model.Merge
	// does). So a caller that writes each run and drops it, as collect
	// --shard does, holds the runs being read and those read ahead of the
	// next to hand over (bounded by EmitAhead), not the whole. An error
	// of Emit stops the collection, and Collect returns it.
	Emit func(*model.Run) error
	// EmitAhead bounds, with Emit, the event-file bytes of the runs read
	// ahead of the next one to hand over, beyond one run per worker: the
	// runs read but waiting for an earlier one. 0 is 32 MiB: a sweep's
	// similar runs keep few of them waiting, a big run among small ones
	// many; 1 reads no run ahead of its turn.
	EmitAhead int64

	// fullDecode turns the fast path off, for tests that compare the two.
	fullDecode bool
	// open, when set, opens log directories instead of logfs.Open, for
	// tests that compare two models holding the same directories.
	open func(string) (*logfs.Dir, error)
	// runs, when set, keeps only the runs (by path in their log
	// directory) it returns true for, for tests that collect shards of a
	// log directory and merge them.
	runs func(path string) bool
}

// Decoders returns the decoders of the payloads the model keeps as
// references and only a reader can decode: TensorFlow and MindSpore
// TensorProtos, projector tensors. Collect sets them on its reports; a
// process that reads a model from disk (model.Read) sets them itself. They
// are handed over as a value rather than registered by the readers' init
// functions, so that whoever decodes a payload names the readers in its
// imports, where an import test sees them.
func Decoders() model.Decoders {
	return event.Decoders().Or(mindspore.Decoders()).Or(projector.Decoders())
}

// Collect reads every run under the log directories. It fails only when a
// log directory cannot be read at all; damaged files become warnings on
// their run and everything readable is kept.
func Collect(ctx context.Context, logdirs []model.Logdir, opt Options) (*model.Report, error) {
	if opt.Restarts == "" {
		opt.Restarts = model.RestartsAttempts
	}
	if !opt.Restarts.Valid() {
		return nil, fmt.Errorf("unknown restart rule %q", opt.Restarts)
	}
	if opt.KeepAllRecords {
		opt.Restarts = ""
	}
	// A bucket's URL is named without its query and user information in
	// the report, its warnings and messages: the query may carry an
	// endpoint, a profile, an account, none of which a report shows.
	shown := slices.Clone(logdirs)
	remote := false
	for i := range shown {
		remote = remote || logfs.IsURL(shown[i].Path)
		shown[i].Path = logfs.Redact(shown[i].Path)
	}
	rep := &model.Report{Logdirs: shown, KeepAllRecords: opt.KeepAllRecords, RestartRule: opt.Restarts}
	rep.SetDecoders(Decoders())
	type job struct {
		run  *model.Run
		src  *logfs.Dir // the run's log directory, the only way to its files
		disc discover.Run
		size int64 // of the event files
	}
	var jobs []job
	var total int64
	for k, ld := range logdirs {
		shownPath := shown[k].Path
		warn := func(name string, err error) {
			rep.Warnings = append(rep.Warnings, model.Warning{File: joinLogdir(shownPath, name), Offset: -1, Msg: err.Error()})
		}
		open := opt.open
		if open == nil {
			open = logfs.Open
		}
		src, runs, err := discoverLogdir(ctx, open, ld.Path, warn)
		if err != nil {
			rep.Close()
			return nil, fmt.Errorf("log directory %s: %w", shownPath, err)
		}
		rep.Attach(src)
		if len(runs) == 0 {
			rep.Warnings = append(rep.Warnings, model.Warning{File: shownPath, Offset: -1, Msg: "no event files found"})
		}
		for _, dr := range runs {
			if opt.runs != nil && !opt.runs(dr.Path) {
				continue
			}
			if opt.Keep != nil && !opt.Keep(ld.Name, dr.Path) {
				continue
			}
			r := &model.Run{Name: runName(ld.Name, dr.Path, len(logdirs)), Logdir: ld.Name, Path: dr.Path}
			j := job{run: r, src: src, disc: dr} // runs may hold side files only
			for _, f := range dr.Files {
				j.size += f.Size
			}
			jobs = append(jobs, j)
			total += j.size
		}
	}

	var done atomic.Int64
	progress := func(n int64) {
		if opt.Progress != nil {
			opt.Progress(done.Add(n), total)
		}
	}
	var crash atomic.Pointer[string] // the first panic of a worker, for the caller
	workers := runtime.GOMAXPROCS(0)
	if remote {
		// Reading a bucket waits on requests more than on the cores: as
		// many runs at once as requests may be in flight (the bound each
		// directory keeps), so that latency does not idle the cores.
		workers = max(workers, logfs.MaxRequests)
	}
	workers = min(workers, max(len(jobs), 1))
	if opt.Emit != nil {
		runs := make([]*model.Run, len(jobs))
		sizes := make([]int64, len(jobs))
		for k, j := range jobs {
			runs[k], sizes[k] = j.run, j.size
		}
		ahead := opt.EmitAhead
		if ahead <= 0 {
			ahead = defaultEmitAhead
		}
		err := emitInOrder(ctx, runs, sizes, workers, ahead, func(ctx context.Context, k int) {
			j := jobs[k]
			jobs[k] = job{} // the job holds the run no longer: emitInOrder does, until it is handed over
			readRun(ctx, j.run, j.src, j.disc, j.size, total, len(runs), opt, progress, &crash)
		}, func(run *model.Run) error {
			if checkModels {
				one := &model.Report{Logdirs: rep.Logdirs, Runs: []*model.Run{run}, KeepAllRecords: rep.KeepAllRecords, RestartRule: rep.RestartRule}
				if err := one.CheckValid(); err != nil {
					panic(fmt.Sprintf("collect made an invalid run: %v", err))
				}
			}
			return opt.Emit(run)
		})
		if msg := crash.Load(); msg != nil {
			rep.Close()
			panic(*msg)
		}
		if err != nil {
			rep.Close()
			return nil, err
		}
		return rep, nil
	}
	work := make(chan job)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range work {
				readRun(ctx, j.run, j.src, j.disc, j.size, total, len(jobs), opt, progress, &crash)
			}
		})
	}
	// Biggest runs first: the runs still being read when the others are
	// done are then small ones, and the cores stay busy to the end.
	bySize := slices.Clone(jobs)
	slices.SortStableFunc(bySize, func(a, b job) int { return cmp.Compare(b.size, a.size) })
	for _, j := range bySize {
		work <- j
	}
	close(work)
	wg.Wait()
	if msg := crash.Load(); msg != nil {
		// A bug, not bad input: raised again where the caller can recover
		// it, since a panic in a worker would end the process.
		rep.Close()
		panic(*msg)
	}
	if err := ctx.Err(); err != nil {
		rep.Close()
		return nil, err
	}

	for _, j := range jobs {
		rep.Runs = append(rep.Runs, j.run)
	}
	slices.SortStableFunc(rep.Runs, func(a, b *model.Run) int { return model.CompareRunNames(a.Name, b.Name) })
	rep.JoinHParamMetrics()
	if checkModels {
		if err := rep.CheckValid(); err != nil {
			rep.Close()
			panic(fmt.Sprintf("collect made an invalid model: %v", err))
		}
	}
	return rep, nil
}

// defaultEmitAhead is Options.EmitAhead's default.
const defaultEmitAhead = 32 << 20

// emitInOrder reads runs[k] with read(ctx, k) on workers goroutines and
// hands each to emit in the order of runs, sorted here by name
// (CompareRunNames), dropping it once emitted. Runs are read in that
// order too, and a run is started only while fewer than workers runs
// are held (read or being read, not yet emitted) or the event-file
// bytes (sizes) of those held stay within ahead: what waits for an
// earlier run is bounded. The first error of emit, or ctx's, stops the
// emitting and is returned; the runs still to read are then read
// against a cancelled context (readRun stops at once).
func emitInOrder(ctx context.Context, runs []*model.Run, sizes []int64, workers int, ahead int64, read func(context.Context, int), emit func(*model.Run) error) error {
	order := make([]int, len(runs))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int { return model.CompareRunNames(runs[a].Name, runs[b].Name) })
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var mu sync.Mutex
	room := sync.NewCond(&mu)
	held, heldBytes := 0, int64(0)
	done := make([]chan struct{}, len(runs))
	for k := range done {
		done[k] = make(chan struct{})
	}
	work := make(chan int)
	go func() {
		defer close(work)
		for _, k := range order {
			mu.Lock()
			for held >= workers && heldBytes+sizes[k] > ahead {
				room.Wait()
			}
			held++
			heldBytes += sizes[k]
			mu.Unlock()
			work <- k
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for k := range work {
				read(ctx, k)
				close(done[k])
			}
		})
	}
	var err error
	for _, k := range order {
		<-done[k]
		if err == nil {
			err = ctx.Err()
		}
		if err == nil {
			if err = emit(runs[k]); err != nil {
				cancel()
			}
		}
		runs[k] = nil
		mu.Lock()
		held--
		heldBytes -= sizes[k]
		room.Broadcast()
		mu.Unlock()
	}
	wg.Wait()
	return err
}

// checkModels makes Collect check every model it makes and panic on one
// that fails CheckValid. The package's tests set it, so that every input
// they collect (hand-made, hostile and fuzzed ones too) is checked; it
// costs a walk of the whole model, which a report does not pay.
var checkModels bool

// readRun reads the files of one run in order. A panic is caught and
// handed to crash with the file and offset being read, so that the other
// workers finish and the caller can report it.
func readRun(ctx context.Context, run *model.Run, src *logfs.Dir, dr discover.Run, size, total int64, runs int, opt Options, progress func(int64), crash *atomic.Pointer[string]) {
	rr := newRunReader(run, src, dr.Side, opt.KeepAllRecords, opt.Restarts)
	rr.totalBytes, rr.runs = total, runs
	defer func() {
		if v := recover(); v != nil {
			where := run.Path
			if rr.file != nil {
				where = fmt.Sprintf("%s at offset %d", rr.file.Rel, rr.pos)
			}
			msg := fmt.Sprintf("reading %s: %v\n\n%s", where, v, debug.Stack())
			crash.CompareAndSwap(nil, &msg)
		}
	}()
	rr.tb.fullOnly = opt.fullDecode
	rr.runBytes = size
	for _, f := range dr.Files {
		if ctx.Err() != nil {
			break
		}
		rr.readFile(f)
		rr.doneBytes += f.Size
		progress(f.Size)
	}
	rr.finish()
}

// discoverLogdir opens the log directory at p, through which everything
// of it is read, and finds its runs. A log directory given as one event
// file is opened at its parent, holding that file as its one run.
//
// A bucket URL is a prefix of keys, opened with logfs.OpenURL.
func discoverLogdir(ctx context.Context, open func(string) (*logfs.Dir, error), p string, warn func(string, error)) (*logfs.Dir, []discover.Run, error) {
	whole := func(src *logfs.Dir, err error) (*logfs.Dir, []discover.Run, error) {
		if err != nil {
			return nil, nil, err
		}
		runs, err := Detection().Discover(ctx, src, warn)
		if err != nil {
			src.Close()
			return nil, nil, err
		}
		return src, runs, nil
	}
	if logfs.IsURL(p) {
		return whole(logfs.OpenURL(ctx, p))
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, nil, err
	}
	if fi.IsDir() {
		return whole(open(p))
	}
	src, err := open(filepath.Dir(p))
	if err != nil {
		return nil, nil, err
	}
	runs, err := Detection().Single(src, filepath.Base(p))
	if err != nil {
		src.Close()
		return nil, nil, err
	}
	return src, runs, nil
}

// joinLogdir names the entry name of the log directory shown as dir (a path
// or a bucket URL, which path.Join would spoil: s3:/bucket).
func joinLogdir(dir, name string) string {
	if logfs.IsURL(dir) {
		if name == "." {
			return dir
		}
		return dir + "/" + name
	}
	return path.Join(dir, name)
}

// runName names a run as TensorBoard does for a logdir spec: by its path
// alone when there is one log directory, and behind the log directory's
// name when there are several.
func runName(logdir, path string, nLogdirs int) string {
	switch {
	case nLogdirs == 1:
		return path
	case path == ".":
		return logdir
	}
	return logdir + "/" + path
}

// LogdirArg is a log directory as a command-line argument gave it.
type LogdirArg struct {
	model.Logdir
	// Asked is the name given with NAME=, "" for an argument without one.
	// Name differs from it when an earlier argument took it first (Name
	// is then NAME_2).
	Asked string
}

// ParseLogdirs is ParseLogdirArgs without the names the arguments asked
// for: the log directories Collect reads.
func ParseLogdirs(args []string) ([]model.Logdir, error) {
	las, err := ParseLogdirArgs(args)
	if err != nil {
		return nil, err
	}
	out := make([]model.Logdir, len(las))
	for i, la := range las {
		out[i] = la.Logdir
	}
	return out, nil
}

// ParseLogdirArgs reads command-line log directory arguments, each a path or
// name=path: ResolveLogdirArgs of SplitLogdirArgs.
//
// A bucket URL (s3://bucket/prefix, gs://, az://) is kept whole, query
// included, as the Path of its Logdir, and checked when it is opened;
// Collect names it without its query (logfs.Redact).
func ParseLogdirArgs(args []string) ([]LogdirArg, error) {
	return ResolveLogdirArgs(SplitLogdirArgs(args))
}

// SplitLogdirArgs splits command-line log directory arguments, each a path
// or name=path, into the path and the name asked for, unchecked.
func SplitLogdirArgs(args []string) []LogdirArg {
	asked := make([]LogdirArg, len(args))
	for i, a := range args {
		// An existing path is a path even when it holds "="; otherwise
		// "name=path" names a directory when the name holds no separator.
		name, path := "", a
		if _, err := os.Stat(a); err != nil && !logfs.IsURL(a) {
			if n, p, ok := strings.Cut(a, "="); ok && n != "" && !strings.ContainsAny(n, `/\`) {
				name, path = n, p
			}
		}
		asked[i] = LogdirArg{Logdir: model.Logdir{Name: name, Path: path}, Asked: name}
	}
	return asked
}

// ResolveLogdirArgs checks log directories already split into a path and
// the name asked for (Asked, "" for none), in the order given: a local
// path that does not exist is an error. Unnamed directories are named by
// their base name (a bucket URL by its last segment), and names are made
// unique with a numeric suffix (NAME_2).
func ResolveLogdirArgs(asked []LogdirArg) ([]LogdirArg, error) {
	out := make([]LogdirArg, 0, len(asked))
	seen := map[string]int{}
	for _, a := range asked {
		name, path := a.Asked, a.Path
		if logfs.IsURL(path) {
			if name == "" {
				shown := logfs.Redact(path)
				name = shown[strings.LastIndex(shown, "/")+1:]
			}
		} else if _, err := os.Stat(path); err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("log directory %s does not exist", path)
			}
			return nil, fmt.Errorf("log directory %s: %w", path, err)
		}
		if name == "" && !logfs.IsURL(path) {
			abs, err := filepath.Abs(path)
			if err != nil {
				return nil, err
			}
			name = filepath.Base(abs)
		}
		if n := seen[name]; n > 0 {
			seen[name]++
			name = fmt.Sprintf("%s_%d", name, n+1)
		} else {
			seen[name] = 1
		}
		out = append(out, LogdirArg{Logdir: model.Logdir{Name: name, Path: path}, Asked: a.Asked})
	}
	return out, nil
}

// WasRead reports whether the file at path is one the collection of rep
// read (an event file, a side file, a file a projector config names), so
// that an output naming it can be refused.
func WasRead(rep *model.Report, path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	for _, s := range rep.Sources() {
		if o, ok := s.(openedFiles); ok && o.Opened(fi) {
			return true
		}
	}
	return false
}

// openedFiles is a model.Source that knows the local files it opened
// (logfs.Dir does; a bucket's opened none). WasRead asks the sources
// for what they do, not for what they are, so any source that opens
// local files can answer.
type openedFiles interface {
	Opened(fs.FileInfo) bool
}
