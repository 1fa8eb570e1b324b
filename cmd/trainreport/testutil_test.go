package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/examples/demo/demolog"
	"github.com/trainreport/trainreport/internal/testcorpus"
	"github.com/trainreport/trainreport/internal/testlog"
)

// builtReport is a report written by run() for a test.
type builtReport struct {
	logdir string
	site   string // the site directory (-o)
	single string // the --single-file document
}

// TestMain runs the tests with Go's default garbage collector target and
// stops the chromium processes they shared (startBrowser) once they have
// all run. run lowers the target to 25% when GOGC is unset (main.go: right
// for one big report), which stays for the rest of the process: in a test
// binary building hundreds of small reports, a collection every megabyte
// of allocation (TestMergedShardsEqualDirectBuild and TestOutputs: 10.2 s
// and 9.7 s of user CPU on the busy 2-core machine, 6.3 s and 7.3 s with
// GOGC=100). Benchmarks keep run's target: they measure what a user's
// command costs (BenchmarkSlurmShards its jobs' peak memory).
func TestMain(m *testing.M) {
	flag.Parse()
	if _, ok := os.LookupEnv("GOGC"); !ok && flag.Lookup("test.bench").Value.String() == "" {
		os.Setenv("GOGC", "100")
	}
	code := m.Run()
	closeBrowsers()
	removeShared()
	os.Exit(code)
}

// buildReport runs the whole command on logdir, writing the site and the
// single-file document into a fresh temporary directory.
func buildReport(t *testing.T, logdir string, extra ...string) builtReport {
	t.Helper()
	r, err := reportInto(t.TempDir(), logdir, extra...)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// reportInto runs the whole command on logdir, writing the site and the
// single-file document into out.
func reportInto(out, logdir string, extra ...string) (builtReport, error) {
	r := builtReport{logdir: logdir, site: filepath.Join(out, "site"), single: filepath.Join(out, "report.html")}
	args := append([]string{"-o", r.site, "--single-file", r.single}, extra...)
	args = append(args, logdir)
	var stderr bytes.Buffer
	if code := run(context.Background(), args, io.Discard, &stderr); code != 0 {
		return r, fmt.Errorf("trainreport %s: exit status %d\n%s", strings.Join(args, " "), code, stderr.String())
	}
	return r, nil
}

// shared is what the package's tests read and never change, made once
// for them all rather than once per test: the demo's log directory and its
// report (sharedDemo), and the reports without flags of log directories
// no test changes (reportOf). TestMain removes its folder when every test
// has run.
var shared struct {
	mu   sync.Mutex
	dir  string // the folder holding what was made; "" before
	demo struct {
		once   sync.Once
		report builtReport
		err    error
	}
	reports map[string]*sharedReport // by log directory
	trials  struct {
		once   sync.Once
		logdir string
		ok     bool
	}
}

// sharedReport is a report made once for every test that reads it.
type sharedReport struct {
	once   sync.Once
	dir    string // its folder, named when first asked for
	report builtReport
	err    error
}

// reportOf is buildReport without flags, written once for the package
// whatever the number of tests asking: the shared demo's (sharedDemo) or
// that of logdir, a folder no test changes (the shared corpus, testdata).
// A test only reads it: one that changes the report or its logs, or
// wants flags, writes its own (buildReport). Several tests read the same
// corpus folders' reports (tbx12-2018-no-file-version's three times, at
// 1.4 CPU-seconds each).
func reportOf(t *testing.T, logdir string) builtReport {
	t.Helper()
	if d := sharedDemo(t); logdir == d.logdir {
		return d
	}
	dir, err := sharedDir()
	if err != nil {
		t.Fatal(err)
	}
	shared.mu.Lock()
	if shared.reports == nil {
		shared.reports = map[string]*sharedReport{}
	}
	s := shared.reports[logdir]
	if s == nil {
		s = &sharedReport{dir: filepath.Join(dir, fmt.Sprintf("report%d", len(shared.reports)))}
		shared.reports[logdir] = s
	}
	shared.mu.Unlock()
	s.once.Do(func() { s.report, s.err = reportInto(s.dir, logdir) })
	if s.err != nil {
		t.Fatal(s.err)
	}
	return s.report
}

// sharedTrials returns the report of a sweep of 600 trials of 20 steps
// (writeTrials), its logs and report written once for the package: the
// sweep the browser tests of a sweep's pages read.
func sharedTrials(t *testing.T) builtReport {
	t.Helper()
	dir, err := sharedDir()
	if err != nil {
		t.Fatal(err)
	}
	tr := &shared.trials
	tr.once.Do(func() {
		tr.logdir = filepath.Join(dir, "trials600")
		writeTrials(t, tr.logdir, 600, 20) // fails the first test asking, not marked ok
		tr.ok = true
	})
	if !tr.ok {
		t.Fatal("the shared sweep of trials could not be written (see the first test asking)")
	}
	return reportOf(t, tr.logdir)
}

// sharedDir returns the folder of what the tests share, made on first use.
func sharedDir() (string, error) {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.dir == "" {
		dir, err := os.MkdirTemp("", "trainreport-tests-")
		if err != nil {
			return "", err
		}
		shared.dir = dir
	}
	return shared.dir, nil
}

// removeShared removes what the tests shared.
func removeShared() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
		shared.dir = ""
	}
}

// sharedDemo returns the demo's log directory and its report (the site
// and the single file, no flags), written once for the package: a test
// only reads them. One that changes the logs or wants flags writes its
// own (demoLogs, buildReport). Writing the demo's logs and its report
// costs about a CPU-second, which a dozen tests paid each.
func sharedDemo(t *testing.T) builtReport {
	t.Helper()
	d := &shared.demo
	d.once.Do(func() {
		dir, err := sharedDir()
		if err != nil {
			d.err = err
			return
		}
		logs := filepath.Join(dir, "demo", "logs")
		if err := demolog.Write(logs); err != nil {
			d.err = fmt.Errorf("writing the demo's logs: %w", err)
			return
		}
		d.report, d.err = reportInto(filepath.Join(dir, "demo"), logs)
	})
	if d.err != nil {
		t.Fatal(d.err)
	}
	return d.report
}

// scalarTruth is what package collect reads from a logdir, to check the
// pages against.
type scalarTruth struct {
	tags []string // distinct scalar tags, sorted
	// finite tells, per tag and run name, whether the series holds a
	// finite value (and so must draw something).
	finite map[string]map[string]bool
}

// collectReport reads logdir with package collect, the truth pages are
// checked against; the report is closed when the test ends.
func collectReport(t *testing.T, logdir string) *model.Report {
	t.Helper()
	logdirs, err := collect.ParseLogdirs([]string{logdir})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := collect.Collect(context.Background(), logdirs, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rep.Close() })
	return rep
}

// readScalars reads logdir with package collect.
func readScalars(t *testing.T, logdir string) scalarTruth {
	t.Helper()
	rep := collectReport(t, logdir)
	st := scalarTruth{finite: map[string]map[string]bool{}}
	for _, r := range rep.Runs {
		for _, s := range r.Scalars {
			if st.finite[s.Tag] == nil {
				st.finite[s.Tag] = map[string]bool{}
				st.tags = append(st.tags, s.Tag)
			}
			st.finite[s.Tag][r.Name] = slices.ContainsFunc(s.Points, func(p model.Point) bool {
				return !math.IsNaN(p.Value) && !math.IsInf(p.Value, 0)
			})
		}
	}
	slices.Sort(st.tags)
	return st
}

// repoRoot is the root of the repository: the directory holding go.mod,
// found upwards from the test's working directory (cmd/trainreport).
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the working directory")
		}
		dir = parent
	}
}

// sharedCorpus returns the directory of a corpus entry in the shared
// corpus (see internal/testcorpus).
func sharedCorpus(t *testing.T, name string) string { return testcorpus.Dir(t, name) }

// fileURL returns the file:// URL of an absolute path, with an optional
// fragment (without its "#"), which is kept as given.
func fileURL(path, fragment string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	s := u.String()
	if fragment != "" {
		s += "#" + fragment
	}
	return s
}

// demoLogs writes the demo's log directory into a temporary folder and
// returns it.
func demoLogs(t *testing.T) string {
	t.Helper()
	logs := filepath.Join(t.TempDir(), "logs")
	if err := demolog.Write(logs); err != nil {
		t.Fatal(err)
	}
	return logs
}

// writeEventFile writes events as an event file at path, making its
// directory: the framing every test log of this package shares.
func writeEventFile(t *testing.T, path string, events []*eventpb.Event) {
	t.Helper()
	testlog.Write(t, path, events...)
}

// summaryEvent is an event at step of the summary values vals, written at
// wall time 1.7e9 + step + frac.
func summaryEvent(step int64, frac float64, vals ...*eventpb.SummaryValue) *eventpb.Event {
	return &eventpb.Event{WallTime: 1.7e9 + float64(step) + frac, Step: step,
		What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: vals}}}
}

// simpleValue is a scalar summary value of tag.
func simpleValue(tag string, v float32) *eventpb.SummaryValue {
	return &eventpb.SummaryValue{Tag: tag, Value: &eventpb.SummaryValue_SimpleValue{SimpleValue: v}}
}
