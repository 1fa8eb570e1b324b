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
	"hash"
	"hash/fnv"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/outdir"
	"github.com/trainreport/trainreport/internal/outdir/bucketout"
)

// A part is the folder `collect --shard I/N` writes: the model of the runs
// of shard I (partModel, model.Write's form) and, written last, the
// completion marker (partMarker) that says which shard of which discovery
// it holds. The folder is written as a report site is (package outdir): in
// a temporary folder moved into place whole, so a part that exists is
// complete, and a part without its marker is not one. A part may also be
// a prefix of a bucket (writeBucketPart): the same two objects, the
// marker written last.
//
// A part is input to merge like a log: whoever can write where parts are
// kept can write one. So it names its log directories only relative to
// a root that merge is given (--root), or by a bucket URL that merge is
// given, never by a path merge would trust; and its checksums (the
// marker's own, model.bin's size and hash) say only that the part is
// whole, since a forger writes matching ones (docs/TRUST.md).
const (
	partModel  = "model.bin"
	partMarker = "shard.json"
	partFormat = "trainreport-shard"
	// partVersion is the version of the part format. Version 2 names
	// log directories below a root (rel) or by URL, no longer by an
	// absolute path (abs), and checksums the marker and every file.
	// Version 3 writes model.bin as it is collected, a run at a time
	// (model.Writer, version 7 of the model's form).
	partVersion = 3
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
	// Title is the default title of the report, made from the arguments
	// as a direct build makes it (defaultTitle).
	Title   string        `json:"title"`
	Logdirs []shardLogdir `json:"logdirs"`
	// Files are the part's other files (model.bin), each checked against
	// its size and SHA-256 before it is read.
	Files []partFile `json:"files"`
	// SHA256 is the marker's own checksum: the SHA-256 of its JSON
	// (encoding/json's, compact) with this field empty (seal).
	SHA256 string `json:"sha256"`
}

// partFile is a file of a part, as its marker lists it.
type partFile struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// shardLogdir is a log directory of a part: its name and its path as
// given (what the report shows, never opened), and where merge opens it
// to read the payloads (images, audio, tensors) the model refers to:
// Rel, a clean slash-separated path below the root merge is given
// (--root), or URL, a bucket's URL without query, which merge reads
// only when its own arguments name it. One of the two is set.
type shardLogdir struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Rel  string `json:"rel,omitempty"`
	URL  string `json:"url,omitempty"`
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
	root := fs.String("root", ".", "the part names each log directory by its path below `DIR`, which must hold them; give merge the same folder")
	var c config
	fs.BoolVar(&c.keepAll, "keep-all-records", false, "keep every record in arrival order, applying no restart rule (not with --restarts)")
	restartsFlag(fs, &c.restarts)
	fs.BoolVar(&c.quiet, "quiet", false, "print only warnings and errors")
	memoryFlag(fs, &c.memory)
	c.logdirs.register(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: trainreport collect --shard I/N -o PART LOGDIR|NAME=LOGDIR ...\n\n"+
			"Reads the runs of shard I of N and writes their model into PART, for\n"+
			"trainreport merge (see docs/SHARDS.md). PART is a folder or a bucket\n"+
			"prefix URL.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := c.logdirs.parse(fs, args); err != nil {
		return exitUsage
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
	case c.logdirs.check() != nil:
		return usage(c.logdirs.check())
	case c.logdirs.none():
		return usage(errors.New("no log directory given"))
	}
	if err := checkRestarts(fs, c.restarts, c.keepAll); err != nil {
		return usage(err)
	}
	ctx, stop, memoryFailed := guardMemory(ctx, c.memory, "trainreport collect", stderr)
	defer stop()
	if err := collectShard(ctx, &c, i, n, *out, *root, stderr); err != nil {
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

// collectShard collects the runs of shard i of n and writes the part,
// naming each log directory in a folder by its path below root.
func collectShard(ctx context.Context, c *config, i, n int, out, root string, stderr io.Writer) error {
	start := time.Now()
	args, err := c.logdirs.resolve()
	if err != nil {
		return err
	}
	logdirs := logdirsOf(args)
	for _, w := range sameNames(args) {
		fmt.Fprintf(stderr, "warning: %s\n", printable(w))
	}
	d := discovery{KeepAllRecords: c.keepAll, Restarts: c.restarts, Runs: make([][]string, len(logdirs))}
	paths := localPaths(logdirs)
	index := map[string]int{}
	for k, l := range logdirs {
		sl := shardLogdir{Name: l.Name, Path: logfs.Redact(l.Path)}
		if logfs.IsURL(l.Path) {
			// A bucket is named by its URL without query (credentials and
			// options stay in the environment of the job that merges).
			sl.URL = logfs.Redact(l.Path)
		} else if sl.Rel, err = relBelow(root, l.Path); err != nil {
			return err
		}
		d.Logdirs = append(d.Logdirs, sl)
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
	// model.bin is written as it is collected: each run as soon as it
	// (and every run before it) is read, then dropped, so the part holds
	// no more than the runs being read, not the shard's model. Only the
	// marker waits for the end: it holds model.bin's size and hash.
	var pm *partModelWriter
	if bkt != nil {
		pm, err = writeBucketPart(ctx, bkt, func(w io.Writer) (*partModelWriter, error) {
			return collectPartModel(ctx, logdirs, opt, w)
		}, func(pm *partModelWriter) ([]byte, error) {
			return pm.marker(i, n, d, args)
		})
	} else {
		pm, err = writePart(out, func(w io.Writer) (*partModelWriter, error) {
			return collectPartModel(ctx, logdirs, opt, w)
		}, func(pm *partModelWriter) ([]byte, error) {
			return pm.marker(i, n, d, args)
		})
	}
	if pm != nil {
		// The shard's job log says what its runs raised; merge prints
		// them all again, with every shard's.
		pm.printWarnings(stderr)
	}
	if err != nil {
		return err
	}
	if !c.quiet {
		fmt.Fprintf(stderr, "shard %d/%d: %s of %d, %.1f MB model, written to %s in %.2fs\n", i, n,
			plural(pm.runs, "run"), pm.discovered, float64(pm.size)/1e6, logfs.Redact(out), time.Since(start).Seconds())
	}
	return nil
}

// partModelWriter is the model.bin of a part being written: the model's
// writer, and what the marker and the job log need once it is done, which
// is all a part keeps of a run after writing it.
type partModelWriter struct {
	w          io.Writer // the file or upload
	hash       hash.Hash
	size       int64
	runs       int
	discovered int
	// head is the collected report without its runs (its log directories
	// and their warnings), set once model.bin is complete.
	head *model.Report
	// warnings are the first of the runs' warnings, in run order, as
	// printWarnings prints them; dropped counts those beyond.
	warnings []string
	dropped  int
}

func (p *partModelWriter) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	p.hash.Write(b[:n])
	p.size += int64(n)
	return n, err
}

// collectPartModel collects the runs opt keeps into w, model.Write's
// form written a run at a time (model.Writer). opt.Emit, when set, is
// called with each run once it is written (a test's probe of what the
// writer holds).
func collectPartModel(ctx context.Context, logdirs []model.Logdir, opt collect.Options, w io.Writer) (*partModelWriter, error) {
	pm := &partModelWriter{w: w, hash: sha256.New()}
	mw := model.NewWriter(pm)
	after := opt.Emit
	opt.Emit = func(run *model.Run) error {
		pm.runs++
		for _, wr := range run.Warnings {
			if len(pm.warnings) > maxPrintedWarnings {
				pm.dropped++
				continue
			}
			pm.warnings = append(pm.warnings, run.Logdir+": "+wr.String())
		}
		if err := mw.WriteRun(run); err != nil {
			return fmt.Errorf("writing the model: %w", err)
		}
		if after != nil {
			return after(run)
		}
		return nil
	}
	rep, err := collect.Collect(ctx, logdirs, opt)
	if err != nil {
		return pm, err
	}
	// The payloads are not read: the part holds references, which merge
	// reads from the logs.
	rep.Close()
	pm.head = rep
	if err := mw.Close(rep); err != nil {
		return pm, fmt.Errorf("writing the model: %w", err)
	}
	return pm, nil
}

// printWarnings prints the warnings of the collection as printWarnings
// prints a report's: the log directories' first, then the runs'.
func (p *partModelWriter) printWarnings(w io.Writer) {
	var lines []string
	if p.head != nil {
		for _, wr := range p.head.Warnings {
			lines = append(lines, wr.String())
		}
	}
	lines = append(lines, p.warnings...)
	printWarningLines(w, lines, len(lines)+p.dropped)
}

// marker returns the completion marker of the part whose model.bin p
// wrote: shard i of n of the discovery d, from the arguments args.
func (p *partModelWriter) marker(i, n int, d discovery, args []collect.LogdirArg) ([]byte, error) {
	fp, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(fp)
	m := shardMarker{Format: partFormat, Version: partVersion, Shard: i, Shards: n,
		Fingerprint: hex.EncodeToString(sum[:]), Runs: p.runs,
		Title: defaultTitle(args), Logdirs: d.Logdirs,
		Files: []partFile{{Name: partModel, Size: p.size, SHA256: hex.EncodeToString(p.hash.Sum(nil))}}}
	for _, r := range d.Runs {
		m.Discovered += len(r)
	}
	p.discovered = m.Discovered
	if err := m.seal(); err != nil {
		return nil, err
	}
	marker, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(marker, '\n'), nil
}

// relBelow returns the path of the log directory p below root: clean,
// slash-separated, "." for root itself. It is the name the part gives
// p, and merge opens it below its own --root as logfs.OpenIn does; so
// it is checked to name p when opened so below root here (a link on the
// way that leads out of root would not), comparing the paths as given
// and with their links resolved.
func relBelow(root, p string) (string, error) {
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	want, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		return "", usageError{fmt.Errorf("--root: %w", err)}
	}
	defer r.Close()
	pairs := [][2]string{{rootAbs, abs}}
	realRoot, err1 := filepath.EvalSymlinks(rootAbs)
	realP, err2 := filepath.EvalSymlinks(abs)
	if err1 == nil && err2 == nil {
		pairs = append(pairs, [2]string{realRoot, realP})
	}
	for _, pair := range pairs {
		rel, err := filepath.Rel(pair[0], pair[1])
		if err != nil || rel != "." && !filepath.IsLocal(rel) {
			continue
		}
		rel = filepath.ToSlash(rel)
		if fi, err := r.Stat(rel); err == nil && os.SameFile(fi, want) {
			return rel, nil
		}
	}
	return "", usageError{fmt.Errorf("log directory %s is not inside the root %s (--root, by default the current directory): a part names its log directories by their path below the root, and merge reads nothing outside its own --root; give collect and merge a --root that holds it", p, root)}
}

// seal sets the marker's own checksum (SHA256).
func (m *shardMarker) seal() error {
	sum, err := m.sum()
	m.SHA256 = sum
	return err
}

// sum returns the SHA-256 of the marker's JSON with its SHA256 empty.
func (m shardMarker) sum() (string, error) {
	m.SHA256 = ""
	b, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:]), nil
}

// writePart writes the part folder out: in a temporary folder, model.bin
// as writeModel collects it, then the marker made from it last, moved
// into place whole (package outdir). It returns the model's writer, for
// its warnings, also when it fails.
func writePart(out string, writeModel func(io.Writer) (*partModelWriter, error), marker func(*partModelWriter) ([]byte, error)) (*partModelWriter, error) {
	site, err := outdir.Create(out)
	if err != nil {
		return nil, err
	}
	var pm *partModelWriter
	if err := site.WriteFileFunc(partModel, func(w io.Writer) error {
		pm, err = writeModel(w) // model.Writer buffers 64 KiB
		return err
	}); err != nil {
		site.Abort()
		return pm, err
	}
	mb, err := marker(pm)
	if err == nil {
		err = site.WriteFile(partMarker, mb)
	}
	if err != nil {
		site.Abort()
		return pm, err
	}
	if err := site.Commit(); err != nil {
		return pm, fmt.Errorf("writing %s: %w", out, err)
	}
	return pm, nil
}

// openBucketPart opens the bucket prefix out for a part, refusing one
// inside a log directory of the collection or holding one (the part's
// objects would become logs of the next collection), or holding other
// objects than a part's (bucketout.Open).
func openBucketPart(ctx context.Context, out string, logdirs []shardLogdir) (*bucketout.Bucket, error) {
	o := logfs.Redact(out)
	for _, l := range logdirs {
		if l.URL != "" && (o == l.URL || strings.HasPrefix(o, l.URL+"/") || strings.HasPrefix(l.URL, o+"/")) {
			return nil, usageError{fmt.Errorf("-o %s would write into the log directory %s", o, l.URL)}
		}
	}
	b, err := bucketout.Open(ctx, out, []string{partModel, partMarker})
	if errors.Is(err, bucketout.ErrRefused) {
		return nil, usageError{err}
	}
	return b, err
}

// writeBucketPart writes a part's objects to a bucket prefix: model.bin
// streamed by one upload as writeModel collects it, then the marker made
// from it. A bucket has no rename, so the marker's order alone makes a
// part whole: the old marker is deleted once the collection succeeded,
// before the upload of model.bin completes (the store shows an object
// only then), and the new one is written last. A collect that stops
// midway leaves the old part as it was (its upload dropped), or
// model.bin without a marker, which merge refuses ("its collect did not
// finish"), never an old marker beside a new model.bin (which merge
// would refuse too: the marker holds the model's hash); a rerun
// overwrites both.
func writeBucketPart(ctx context.Context, b *bucketout.Bucket, writeModel func(io.Writer) (*partModelWriter, error), marker func(*partModelWriter) ([]byte, error)) (*partModelWriter, error) {
	up, err := b.Create(ctx, partModel)
	if err != nil {
		return nil, err
	}
	pm, err := writeModel(up) // the upload buffers its parts
	var mb []byte
	if err == nil {
		mb, err = marker(pm)
	}
	if err == nil {
		err = b.Remove(ctx, partMarker)
	}
	if err != nil {
		up.Abort()
		return pm, err
	}
	if err := up.Commit(); err != nil {
		return pm, err
	}
	return pm, b.WriteFile(ctx, partMarker, mb)
}

// runMerge is `trainreport merge`: it takes the report's flags, and parts
// instead of log directories. It returns the exit status.
func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return runCommand(ctx, args, stdout, stderr, mergeParts, func(fs *flag.FlagSet, c *config) {
		fs.StringVar(&c.root, "root", ".", "read the log directories the parts name below `DIR` only (the --root their collect was given, seen from here): nothing outside it is read")
	})
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

// readMarker reads and checks the completion marker of the part dir: its
// format and version, its own checksum, and that its fields are in range.
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
	m, err := parseMarker(b)
	if err != nil {
		return nil, fmt.Errorf("part %s: %s: %w", name, partMarker, err)
	}
	return m, nil
}

// parseMarker decodes and checks the bytes of a marker.
func parseMarker(b []byte) (*shardMarker, error) {
	// The format and version first, so that a part of another version
	// is named as one rather than as damaged.
	var head struct {
		Format  string `json:"format"`
		Version int    `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("damaged or cut short: %w", err)
	}
	if head.Format != partFormat {
		return nil, fmt.Errorf("format %q, not %q", head.Format, partFormat)
	}
	if head.Version != partVersion {
		return nil, fmt.Errorf("version %d of the part format, this trainreport reads version %d: collect the parts again with this trainreport (collect and merge must be the same build)", head.Version, partVersion)
	}
	var m shardMarker
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&m); err != nil {
		return nil, fmt.Errorf("damaged: %w", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, errors.New("damaged: data after the marker")
	}
	if sum, err := m.sum(); err != nil || sum != m.SHA256 {
		return nil, errors.New("does not match its own checksum: damaged or changed after collect wrote it")
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	return &m, nil
}

// check checks the fields of a marker whose checksum matched: what a
// forger may still have written.
func (m *shardMarker) check() error {
	switch {
	case m.Shards < 1 || m.Shards > maxShards || m.Shard < 0 || m.Shard >= m.Shards:
		return fmt.Errorf("shard %d/%d is out of range", m.Shard, m.Shards)
	case len(m.Logdirs) == 0:
		return errors.New("names no log directory")
	case len(m.Files) != 1 || m.Files[0].Name != partModel:
		return fmt.Errorf("lists %d files, want %s alone", len(m.Files), partModel)
	case m.Files[0].Size < 0 || m.Files[0].Size > maxPartModel || len(m.Files[0].SHA256) != 2*sha256.Size:
		return fmt.Errorf("%s of %d bytes and SHA-256 %q: out of range", partModel, m.Files[0].Size, m.Files[0].SHA256)
	}
	for _, l := range m.Logdirs {
		switch {
		case l.Rel != "" && l.URL != "" || l.Rel == "" && l.URL == "":
			return fmt.Errorf("log directory %q: want one of rel and url", l.Name)
		case l.URL != "" && (!logfs.IsURL(l.URL) || logfs.Redact(l.URL) != l.URL):
			return fmt.Errorf("log directory %q: url %q is not a bucket URL without query", l.Name, l.URL)
		case l.Rel != "" && !fs.ValidPath(l.Rel):
			// What collect writes: no "..", no absolute path, nothing
			// that could name a file outside merge's --root.
			return fmt.Errorf("log directory %q: rel %q is not a clean relative path below the root", l.Name, l.Rel)
		}
	}
	return nil
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
		case !slices.Equal(m.Logdirs, first.Logdirs):
			return fmt.Errorf("part %s names other log directories than part %s", parts[k], parts[0])
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
// The payloads the models refer to are read from the log directories the
// parts name: below c.root, or at a bucket URL among args.
func mergeParts(ctx context.Context, c *config, args []string, stdout, stderr io.Writer) (errOut error) {
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
	where := map[string]shardLogdir{} // by name: where merge reads each
	used := map[string]bool{}
	for _, l := range lds {
		if l.URL != "" {
			// A part cannot choose the bucket merge reads with its
			// credentials: the merge's own arguments name it.
			u, ok := urls[l.URL]
			if !ok {
				return usageError{fmt.Errorf("the parts read the log directory %s from a bucket: give its URL among merge's arguments (with the query it needs, if any) to let merge read it: merge reads no bucket that only a part names", l.URL)}
			}
			used[l.URL] = true
			l.URL = u
		} else {
			paths = append(paths, filepath.Join(c.root, filepath.FromSlash(l.Rel)))
		}
		where[l.Name] = l
	}
	for r := range urls {
		if !used[r] {
			return usageError{fmt.Errorf("%s is neither a part (it has no %s) nor a log directory of the parts", r, partMarker)}
		}
	}
	var root *os.Root // --root, opened when a log directory is a folder
	if len(paths) > 0 {
		if root, err = os.OpenRoot(c.root); err != nil {
			return usageError{fmt.Errorf("--root: %w", err)}
		}
		defer root.Close() // the log directories opened below it stay open
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
	defer startHeapPeak(stderr)(&errOut)
	open := func(name string) (model.Source, error) {
		l, ok := where[name]
		if !ok {
			return nil, fmt.Errorf("not among the log directories of %s", partMarker)
		}
		return openLogdir(ctx, root, l)
	}
	rep, shapes, err := scanParts(ctx, parts, markers, open)
	if err != nil {
		return err
	}
	defer rep.Close()
	if !c.quiet {
		fmt.Fprintf(stderr, "merged %s of %s in %.2fs\n", plural(len(parts), "part"), plural(len(rep.Runs), "run"), time.Since(start).Seconds())
	}
	var base *analysis.Baseline
	if c.baseline != "" {
		if base, err = loadBaseline(ctx, c, collect.Options{KeepAllRecords: rep.KeepAllRecords, Restarts: rep.RestartRule}); err != nil {
			return err
		}
	}
	title := c.title
	if title == "" {
		title = markers[0].Title
	}
	points := &partRuns{ctx: ctx, parts: parts, markers: markers, rep: rep, shapes: shapes}
	return writeReport(ctx, c, rep, title, base, points, start, stdout, stderr)
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
func pathsAsLogdirs(paths []string) []model.Logdir {
	out := make([]model.Logdir, len(paths))
	for i, p := range paths {
		out[i] = model.Logdir{Path: p}
	}
	return out
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// openLogdir opens the log directory l of the parts for its payloads, as
// collect opened it: l.Rel below root (a log directory given as one
// event file at its parent), or l.URL.
//
// A bucket is opened at the URL merge's arguments gave for it, query
// included; the credentials come from the environment of the merge.
func openLogdir(ctx context.Context, root *os.Root, l shardLogdir) (model.Source, error) {
	if l.URL != "" {
		return logfs.OpenURL(ctx, l.URL)
	}
	rel := l.Rel
	fi, err := root.Stat(rel) // inside root, whatever links rel passes
	if err != nil {
		return nil, fmt.Errorf("the logs must be readable at %s below the root %s (--root), as collect read them: %w", rel, root.Name(), err)
	}
	if !fi.IsDir() {
		rel = path.Dir(rel)
	}
	return logfs.OpenIn(root, rel)
}
