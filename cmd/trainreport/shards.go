package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/outdir"
	"github.com/trainreport/trainreport/internal/outdir/bucketout"
	"github.com/trainreport/trainreport/render"
)

// A part is the folder `collect --shard I/N` writes: the model of the runs
// of shard I (partModel, model.Write's form) and, written last, the
// completion marker (partMarker) that says which shard of which discovery
// it holds. The folder is written as a report site is (package outdir): in
// a temporary folder moved into place whole, so a part that exists is
// complete, and a part without its marker is not one. A part may also be
// a prefix of a bucket (writeBucketPart): the same two objects, the
// marker written last.
const (
	partModel  = "model.bin"
	partMarker = "shard.json"
	partFormat = "trainreport-shard"
	// partVersion is the version of the marker's fields.
	partVersion = 1
	// maxShards bounds N: more shards than this would be a typo, and a
	// GitHub Actions matrix holds at most 256 jobs.
	maxShards = 65536
	// maxMarker bounds the marker read: it lists the log directories, not
	// the runs.
	maxMarker = 1 << 20
	// maxPartModel bounds a part's model.bin, read whole into memory: far
	// above any real part (22 MB for a 2,000-run sweep in 8 shards).
	maxPartModel = 1 << 36
)

// shardMarker is the content of a part's completion marker.
type shardMarker struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Shard   int    `json:"shard"`
	Shards  int    `json:"shards"`
	// Fingerprint is the SHA-256 of the discovery every shard makes
	// (discovery): parts of one collection carry the same.
	Fingerprint string `json:"fingerprint"`
	// Runs is the number of runs of this shard, of Discovered.
	Runs       int `json:"runs"`
	Discovered int `json:"discovered"`
	// ModelSHA256 is the hash of the model file, checked before reading.
	ModelSHA256 string `json:"model_sha256"`
	// Title is the default title of the report, made from the arguments
	// as a direct build makes it (defaultTitle).
	Title   string        `json:"title"`
	Logdirs []shardLogdir `json:"logdirs"`
}

// shardLogdir is a log directory of a part: its name, its path as given
// (what the report shows) and its absolute path, where merge opens it to
// read the payloads (images, audio, tensors) the model refers to.
type shardLogdir struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Abs  string `json:"abs"`
}

// discovery is what every shard of one collection must agree on, hashed
// into the fingerprint: the log directories and every run discovered in
// them, and the collection's flags.
type discovery struct {
	Logdirs        []shardLogdir `json:"logdirs"`
	Runs           [][]string    `json:"runs"` // per log directory, in discovery order
	KeepAllRecords bool          `json:"keep_all_records"`
	Restarts       string        `json:"restarts"`
}

// shardOf assigns the run at path in the log directory named logdir to
// one of n shards: FNV-1a (64 bits) of the name, a zero byte and the path,
// modulo n. The assignment depends on the run alone, not on its position,
// so a run added to the logs moves no other run to another shard.
func shardOf(logdir, path string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(logdir))
	h.Write([]byte{0})
	h.Write([]byte(path))
	return int(h.Sum64() % uint64(n))
}

// parseShard parses --shard's I/N.
func parseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		i, err = strconv.Atoi(a)
		if err == nil {
			n, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil || n < 1 || n > maxShards || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("--shard %q: want I/N with 0 <= I < N <= %d", s, maxShards)
	}
	return i, n, nil
}

// runCollect is `trainreport collect`: it collects the runs of one shard
// and writes its part. It returns the exit status.
func runCollect(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trainreport collect", flag.ContinueOnError)
	fs.SetOutput(stderr)
	help := helpFlags(fs)
	out := fs.String("o", "", "write the part into `PART`: a folder, or a bucket prefix (s3://, gs://, az://) (required)")
	shard := fs.String("shard", "", "collect the runs of shard `I/N` (0 <= I < N), assigned by a hash of each run's log directory name and path")
	var c config
	fs.BoolVar(&c.keepAll, "keep-all-records", false, "keep every record in arrival order, applying no restart rule (not with --restarts)")
	restartsFlag(fs, &c.restarts)
	fs.BoolVar(&c.quiet, "quiet", false, "print only warnings and errors")
	memoryFlag(fs, &c.memory)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: trainreport collect --shard I/N -o PART LOGDIR|NAME=LOGDIR ...\n\n"+
			"Reads the runs of shard I of N and writes their model into PART, for\n"+
			"trainreport merge (see docs/SHARDS.md). PART is a folder or a bucket\n"+
			"prefix URL.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var logdirArgs []string
	for {
		if err := fs.Parse(args); err != nil {
			return exitUsage
		}
		if args = fs.Args(); len(args) == 0 {
			break
		}
		logdirArgs, args = append(logdirArgs, args[0]), args[1:]
	}
	if *help {
		fs.SetOutput(stdout)
		fs.Usage()
		return exitOK
	}
	usage := func(err error) int {
		fmt.Fprintf(stderr, "trainreport collect: %s\n", printable(err.Error()))
		return exitUsage
	}
	i, n, err := parseShard(*shard)
	switch {
	case *shard == "":
		return usage(errors.New("--shard I/N is required"))
	case err != nil:
		return usage(err)
	case *out == "":
		return usage(errors.New("-o PART is required"))
	case len(logdirArgs) == 0:
		return usage(errors.New("no log directory given"))
	}
	if err := checkRestarts(fs, c.restarts, c.keepAll); err != nil {
		return usage(err)
	}
	ctx, stop, memoryFailed := guardMemory(ctx, c.memory, "trainreport collect", stderr)
	defer stop()
	if err := collectShard(ctx, &c, i, n, *out, logdirArgs, stderr); err != nil {
		if msg, ok := memoryFailed(err); ok {
			fmt.Fprintln(stderr, msg)
			return exitFailed
		}
		fmt.Fprintf(stderr, "trainreport collect: %s\n", printable(err.Error()))
		if errors.As(err, new(usageError)) {
			return exitUsage
		}
		return exitFailed
	}
	return exitOK
}

// collectShard collects the runs of shard i of n and writes the part.
func collectShard(ctx context.Context, c *config, i, n int, out string, logdirArgs []string, stderr io.Writer) error {
	start := time.Now()
	logdirs, err := collect.ParseLogdirs(logdirArgs)
	if err != nil {
		return err
	}
	for _, w := range sameNames(logdirArgs, logdirs) {
		fmt.Fprintf(stderr, "warning: %s\n", printable(w))
	}
	d := discovery{KeepAllRecords: c.keepAll, Restarts: c.restarts, Runs: make([][]string, len(logdirs))}
	paths := localPaths(logdirs)
	index := map[string]int{}
	for k, l := range logdirs {
		// A bucket is named by its URL without query (credentials and
		// options stay in the environment of the job that merges).
		abs := logfs.Redact(l.Path)
		if !logfs.IsURL(l.Path) {
			if abs, err = filepath.Abs(l.Path); err != nil {
				return err
			}
		}
		d.Logdirs = append(d.Logdirs, shardLogdir{Name: l.Name, Path: logfs.Redact(l.Path), Abs: abs})
		index[l.Name] = k
	}
	if c.keepAll {
		d.Restarts = ""
	}
	var bkt *bucketout.Bucket
	if logfs.IsURL(out) {
		if bkt, err = openBucketPart(ctx, out, d.Logdirs); err != nil {
			return err
		}
		defer bkt.Close()
	} else if err := outdir.Check(out, paths); err != nil {
		return usageError{err}
	}
	opt := collect.Options{KeepAllRecords: c.keepAll, Restarts: model.RestartRule(c.restarts),
		Keep: func(logdir, path string) bool {
			k := index[logdir]
			d.Runs[k] = append(d.Runs[k], path)
			return shardOf(logdir, path, n) == i
		}}
	rep, err := collect.Collect(ctx, logdirs, opt)
	if err != nil {
		return err
	}
	defer rep.Close()
	// The shard's job log says what its runs raised; merge prints them
	// all again, with every shard's.
	printWarnings(stderr, rep, false)
	var buf bytes.Buffer
	if err := model.Write(&buf, rep); err != nil {
		return fmt.Errorf("writing the model: %w", err)
	}
	fp, err := json.Marshal(d)
	if err != nil {
		return err
	}
	sum, msum := sha256.Sum256(fp), sha256.Sum256(buf.Bytes())
	m := shardMarker{Format: partFormat, Version: partVersion, Shard: i, Shards: n,
		Fingerprint: hex.EncodeToString(sum[:]), Runs: len(rep.Runs), ModelSHA256: hex.EncodeToString(msum[:]),
		Title: defaultTitle(logdirArgs, logdirs), Logdirs: d.Logdirs}
	for _, r := range d.Runs {
		m.Discovered += len(r)
	}
	marker, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if bkt != nil {
		err = writeBucketPart(ctx, bkt, buf.Bytes(), append(marker, '\n'))
	} else {
		err = writePart(out, buf.Bytes(), append(marker, '\n'))
	}
	if err != nil {
		return err
	}
	if !c.quiet {
		fmt.Fprintf(stderr, "shard %d/%d: %s of %d, %.1f MB model, written to %s in %.2fs\n", i, n,
			plural(len(rep.Runs), "run"), m.Discovered, float64(buf.Len())/1e6, logfs.Redact(out), time.Since(start).Seconds())
	}
	return nil
}

// writePart writes the part folder out: in a temporary folder, the
// marker last, moved into place whole (package outdir).
func writePart(out string, model, marker []byte) error {
	site, err := outdir.Create(out)
	if err != nil {
		return err
	}
	if err := site.WriteFile(partModel, model); err != nil {
		site.Abort()
		return err
	}
	if err := site.WriteFile(partMarker, marker); err != nil {
		site.Abort()
		return err
	}
	if err := site.Commit(); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	return nil
}

// openBucketPart opens the bucket prefix out for a part, refusing one
// inside a log directory of the collection or holding one (the part's
// objects would become logs of the next collection), or holding other
// objects than a part's (bucketout.Open).
func openBucketPart(ctx context.Context, out string, logdirs []shardLogdir) (*bucketout.Bucket, error) {
	o := logfs.Redact(out)
	for _, l := range logdirs {
		if o == l.Abs || strings.HasPrefix(o, l.Abs+"/") || strings.HasPrefix(l.Abs, o+"/") {
			return nil, usageError{fmt.Errorf("-o %s would write into the log directory %s", o, l.Abs)}
		}
	}
	b, err := bucketout.Open(ctx, out, []string{partModel, partMarker})
	if errors.Is(err, bucketout.ErrRefused) {
		return nil, usageError{err}
	}
	return b, err
}

// writeBucketPart writes a part's objects to a bucket prefix. A bucket
// has no rename, so the marker's order alone makes a part whole: the old
// marker is deleted first and the new one written last, each upload
// atomic. A collect that stops midway leaves model.bin without a marker,
// which merge refuses ("its collect did not finish"), never an old
// marker beside a new model.bin (which merge would refuse too: the
// marker holds the model's hash); a rerun overwrites both.
func writeBucketPart(ctx context.Context, b *bucketout.Bucket, model, marker []byte) error {
	if err := b.Remove(ctx, partMarker); err != nil {
		return err
	}
	if err := b.WriteFile(ctx, partModel, model); err != nil {
		return err
	}
	return b.WriteFile(ctx, partMarker, marker)
}

// runMerge is `trainreport merge`: it takes the report's flags, and parts
// instead of log directories. It returns the exit status.
func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runCommand(ctx, args, stdout, stderr, mergeParts)
}

// readPartFile reads the file name of the part dir through the input
// seam: a part is read like a log, so a link or a FIFO put in its place
// is refused rather than followed or waited on.
// A part in a bucket (a URL) is read through logfs's bucket backend, with
// the same bounds.
func readPartFile(ctx context.Context, dir, name string, limit int64) ([]byte, error) {
	d, err := openPart(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadFile(name, limit)
}

// openPart opens the part dir, a folder or a bucket URL.
func openPart(ctx context.Context, dir string) (*logfs.Dir, error) {
	if logfs.IsURL(dir) {
		return logfs.OpenURL(ctx, dir)
	}
	return logfs.Open(dir)
}

// partHas reports whether the part dir holds the file name.
func partHas(ctx context.Context, dir, name string) bool {
	d, err := openPart(ctx, dir)
	if err != nil {
		return false
	}
	defer d.Close()
	fi, err := d.Stat(name)
	return err == nil && fi.Mode().IsRegular()
}

// readMarker reads and checks the completion marker of the part dir.
func readMarker(ctx context.Context, dir string) (*shardMarker, error) {
	b, err := readPartFile(ctx, dir, partMarker, maxMarker)
	name := logfs.Redact(dir) // what messages name
	if errors.Is(err, os.ErrNotExist) {
		if partHas(ctx, dir, partModel) {
			return nil, fmt.Errorf("part %s has no %s: its collect did not finish", name, partMarker)
		}
		return nil, fmt.Errorf("part %s: no %s, not a part written by trainreport collect", name, partMarker)
	}
	if err != nil {
		return nil, fmt.Errorf("part %s: %w", name, err)
	}
	var m shardMarker
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("part %s: %s: %w", name, partMarker, err)
	}
	switch {
	case m.Format != partFormat || m.Version != partVersion:
		return nil, fmt.Errorf("part %s: %s is format %q version %d, want %q version %d", name, partMarker, m.Format, m.Version, partFormat, partVersion)
	case m.Shards < 1 || m.Shards > maxShards || m.Shard < 0 || m.Shard >= m.Shards:
		return nil, fmt.Errorf("part %s: shard %d/%d is out of range", name, m.Shard, m.Shards)
	case len(m.Logdirs) == 0:
		return nil, fmt.Errorf("part %s: %s names no log directory", name, partMarker)
	}
	return &m, nil
}

// checkParts checks that the parts are the N shards of one collection,
// each once; markers are the parts' markers, in the order of parts.
func checkParts(parts []string, markers []*shardMarker) error {
	first := markers[0]
	byShard := map[int]string{}
	for k, m := range markers {
		switch {
		case m.Shards != first.Shards:
			return fmt.Errorf("part %s is a shard of %d, part %s of %d", parts[k], m.Shards, parts[0], first.Shards)
		case m.Fingerprint != first.Fingerprint:
			return fmt.Errorf("part %s was collected from other log directories, runs or collect flags than part %s (their fingerprints differ)", parts[k], parts[0])
		}
		if p, ok := byShard[m.Shard]; ok {
			return fmt.Errorf("parts %s and %s are both shard %d/%d", p, parts[k], m.Shard, m.Shards)
		}
		byShard[m.Shard] = parts[k]
	}
	var missing []string
	for i := range first.Shards {
		if _, ok := byShard[i]; !ok {
			missing = append(missing, strconv.Itoa(i))
			if len(missing) == 20 {
				missing = append(missing, "...")
				break
			}
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%d of %d shards given: shard %s missing", len(markers), first.Shards, strings.Join(missing, ", "))
	}
	return nil
}

// mergeParts reads the parts, checks they are the shards of one
// collection, merges their models and writes the report as build does.
// The payloads the models refer to are read from the log directories, at
// the absolute paths the parts recorded.
func mergeParts(ctx context.Context, c *config, args []string, stderr io.Writer) (errOut error) {
	start := time.Now()
	if c.keepAll || c.restarts != string(model.RestartsAttempts) {
		return usageError{errors.New("--keep-all-records and --restarts are collect's flags: give them to every trainreport collect")}
	}
	// A part names a bucket log directory by its URL without query; a
	// bucket URL among the arguments gives the query again (an endpoint,
	// path-style addressing), for the directory of the same URL.
	parts, urls, err := mergeArgs(ctx, args)
	if err != nil {
		return err
	}
	if len(parts) == 0 {
		return usageError{errors.New("no part to merge")}
	}
	names := make([]string, len(parts)) // what messages name: no query
	markers := make([]*shardMarker, len(parts))
	for k, p := range parts {
		m, err := readMarker(ctx, p)
		if err != nil {
			return err
		}
		markers[k], names[k] = m, logfs.Redact(p)
	}
	if err := checkParts(names, markers); err != nil {
		return err
	}
	lds := markers[0].Logdirs
	paths := make([]string, 0, len(lds)+len(parts))
	abs := map[string]string{}
	for _, l := range lds {
		paths = append(paths, l.Abs)
		abs[l.Name] = l.Abs
		if u, ok := urls[l.Abs]; ok {
			abs[l.Name] = u
			delete(urls, l.Abs)
		}
	}
	for u := range urls {
		return usageError{fmt.Errorf("%s is neither a part (it has no %s) nor a log directory of the parts", u, partMarker)}
	}
	paths = append(paths, parts...) // -o must not replace a part either
	if err := checkOutputs(c, pathsAsLogdirs(paths)); err != nil {
		return err
	}
	stopProfile, err := startCPUProfile(c.cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile(&errOut)
	reps := make([]*collect.Report, 0, len(parts))
	defer func() {
		for _, r := range reps {
			r.Close()
		}
	}()
	for k, p := range parts {
		rep, err := readPart(ctx, p, markers[k], abs)
		if err != nil {
			return err
		}
		reps = append(reps, rep)
	}
	rep, err := model.Merge(reps...)
	if err != nil {
		return fmt.Errorf("merging %s: %w", plural(len(parts), "part"), err)
	}
	reps = nil // rep holds their sources now
	defer rep.Close()
	if !c.quiet {
		fmt.Fprintf(stderr, "merged %s of %s in %.2fs\n", plural(len(parts), "part"), plural(len(rep.Runs), "run"), time.Since(start).Seconds())
	}
	var base *render.Baseline
	if c.baseline != "" {
		if base, err = loadBaseline(ctx, c, collect.Options{KeepAllRecords: rep.KeepAllRecords, Restarts: rep.RestartRule}); err != nil {
			return err
		}
	}
	title := c.title
	if title == "" {
		title = markers[0].Title
	}
	return writeReport(ctx, c, rep, title, base, start, stderr)
}

// mergeArgs sorts merge's arguments into parts and the bucket log
// directory URLs that give a query again (by their form without it).
// A URL is a part when it holds a part's shard.json or model.bin, the
// parts below it when it ends in "/" (a shell's part-* cannot list a
// bucket), a log directory otherwise.
func mergeArgs(ctx context.Context, args []string) (parts []string, urls map[string]string, err error) {
	urls = map[string]string{}
	for _, a := range args {
		switch {
		case !logfs.IsURL(a):
			parts = append(parts, a)
		case strings.HasSuffix(strings.SplitN(a, "?", 2)[0], "/"):
			p, err := bucketParts(ctx, a)
			if err != nil {
				return nil, nil, err
			}
			parts = append(parts, p...)
		case partHas(ctx, a, partMarker) || partHas(ctx, a, partModel):
			parts = append(parts, a)
		default:
			urls[logfs.Redact(a)] = a
		}
	}
	return parts, urls, nil
}

// bucketParts lists the parts below the bucket prefix u: the sub-prefixes
// part-*, in the order a shell's part-* gives, each as a URL with u's
// query.
func bucketParts(ctx context.Context, u string) ([]string, error) {
	base, query, _ := strings.Cut(u, "?")
	if query != "" {
		query = "?" + query
	}
	d, err := logfs.OpenURL(ctx, u)
	if errors.Is(err, os.ErrNotExist) {
		return nil, usageError{fmt.Errorf("%s holds no part-* prefix", logfs.Redact(u))}
	}
	if err != nil {
		return nil, err // it names the URL
	}
	defer d.Close()
	seen := map[string]bool{}
	err = d.Walk(func(name string, _ int64) error {
		if first, _, ok := strings.Cut(name, "/"); ok && strings.HasPrefix(first, "part-") {
			seen[first] = true
		}
		return nil
	}, func(string, error) {})
	if err != nil {
		return nil, fmt.Errorf("listing the parts in %s: %w", logfs.Redact(u), err)
	}
	if len(seen) == 0 {
		return nil, usageError{fmt.Errorf("%s holds no part-* prefix", logfs.Redact(u))}
	}
	var out []string
	for _, p := range slices.Sorted(maps.Keys(seen)) {
		out = append(out, base+p+query)
	}
	return out, nil
}

// pathsAsLogdirs makes paths into the log directories checkOutputs takes.
func pathsAsLogdirs(paths []string) []collect.Logdir {
	out := make([]collect.Logdir, len(paths))
	for i, p := range paths {
		out[i] = collect.Logdir{Path: p}
	}
	return out
}

// readPart reads the model of the part dir, after checking it against
// the hash its marker m holds, attaching each log directory's payloads
// from its absolute path in abs.
func readPart(ctx context.Context, dir string, m *shardMarker, abs map[string]string) (*collect.Report, error) {
	b, err := readPartFile(ctx, dir, partModel, maxPartModel)
	dir = logfs.Redact(dir) // what messages name
	if err != nil {
		return nil, fmt.Errorf("part %s: %w", dir, err)
	}
	if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != m.ModelSHA256 {
		return nil, fmt.Errorf("part %s: %s does not match the hash its %s holds: changed after it was written", dir, partModel, partMarker)
	}
	rep, err := model.Read(bytes.NewReader(b), func(name string) (model.Source, error) {
		p, ok := abs[name]
		if !ok {
			return nil, fmt.Errorf("not among the log directories of %s", partMarker)
		}
		return openLogdir(ctx, p)
	})
	if err != nil {
		return nil, fmt.Errorf("part %s: %w", dir, err)
	}
	if len(rep.Runs) != m.Runs || !slices.EqualFunc(rep.Logdirs, m.Logdirs, func(a model.Logdir, b shardLogdir) bool { return a.Name == b.Name && a.Path == b.Path }) {
		rep.Close()
		return nil, fmt.Errorf("part %s: %s and %s disagree on its runs or log directories", dir, partModel, partMarker)
	}
	return rep, nil
}

// openLogdir opens the log directory at p for its payloads, as collect
// opened it: a log directory given as one event file at its parent.
//
// A bucket is opened at the URL the part names, without query: the
// options a query gave collect (an endpoint) must then come from the
// environment (AWS_ENDPOINT_URL...) of the merge.
func openLogdir(ctx context.Context, p string) (model.Source, error) {
	if logfs.IsURL(p) {
		return logfs.OpenURL(ctx, p)
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("the logs must be readable at the path collect read them from: %w", err)
	}
	if !fi.IsDir() {
		p = filepath.Dir(p)
	}
	return logfs.Open(p)
}
