package main

// The browser test opens real reports in Debian's chromium, straight from
// disk (file://), with every request that would leave the page blocked, and
// checks that the pages work: no console errors, every chart initialised
// with one line per run, smoothing as TensorBoard computes it, view state in
// the URL hash, and a single-file report that loads nothing.
//
// It needs chromium: exec.LookPath("chromium"), or the path in $CHROMIUM.
// Without it the test is skipped, except when $CI is set. Full-page
// screenshots of every page go to $TRAINREPORT_SCREENSHOTS when set.
//
// The browser tests of the package share one chromium (startBrowser), each
// in a browser context of its own, and run in parallel (t.Parallel), after
// the package's other tests: a new one does the same, unless it times
// something against a budget (TestBrowserRegexpAttack) or sets the
// environment.

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

const (
	// browserBudget bounds one test in the browser: its browser context
	// closes when the test ends or the budget is spent.
	browserBudget = 150 * time.Second
	// stepTimeout bounds one navigation or one evaluation.
	stepTimeout = 25 * time.Second
	// readyTimeout bounds window.trainreport.ready(), inside the page.
	readyTimeout = 15 * time.Second
)

func TestBrowser(t *testing.T) {
	t.Parallel()
	shots := screenshotDir(t)

	// The two reports side by side, each in a browser context of its own.
	t.Run("demo", func(t *testing.T) {
		t.Parallel()
		browser := startBrowser(t)
		r := sharedDemo(t)
		logs := r.logdir
		c := &reportCase{name: "demo", report: r, truth: readScalars(t, logs), browser: browser, shots: shots}

		t.Run("index", c.testIndex)
		t.Run("scalars", func(t *testing.T) {
			tb := c.testScalars(t, fileURL(filepath.Join(r.site, "scalars.html"), ""), "scalars")
			checkDownsampledLabel(t, tb.figures)
			t.Run("smooth", func(t *testing.T) { testSmooth(t, tb) })
		})
		t.Run("hash-state", c.testHashState)
		t.Run("single-file", c.testSingleFile)
		t.Run("harness", c.testHarness)
	})

	t.Run("tf2-hparams-keras", func(t *testing.T) {
		t.Parallel()
		browser := startBrowser(t)
		logdir := sharedCorpus(t, "tf2-hparams-keras")
		r := reportOf(t, logdir)
		c := &reportCase{name: "tf2-hparams-keras", report: r, truth: readScalars(t, logdir), browser: browser, shots: shots}
		t.Run("index", c.testIndex)
		if len(c.truth.tags) > 0 {
			t.Run("scalars", func(t *testing.T) {
				c.testScalars(t, fileURL(filepath.Join(r.site, "scalars.html"), ""), "scalars")
			})
		}
		t.Run("single-file", c.testSingleFile)
	})
}

// ---------------------------------------------------------------------------
// The browser

// chromiumPath finds chromium: $CHROMIUM, or "chromium" on the PATH. It
// skips the test when there is none, but fails it on CI.
func chromiumPath(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CHROMIUM"); p != "" {
		exe, err := exec.LookPath(p)
		if err != nil {
			t.Fatalf("CHROMIUM=%s: %v", p, err)
		}
		return exe
	}
	exe, err := exec.LookPath("chromium")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("chromium not found (%v): CI must run the browser tests; install Debian's chromium (make test-deps) or set CHROMIUM", err)
		}
		t.Skipf("chromium not found (%v); install Debian's chromium or set CHROMIUM to run the browser tests", err)
	}
	return exe
}

// startBrowser returns the context of a browser context of its own for the
// test (storage, cookies and cache apart from every other test's), in the
// headless chromium the package's tests share; tabs are child contexts of
// it. It closes when the test ends, or after browserBudget. Extra flags
// come before the common ones; each set of them has a chromium of its own.
//
// Starting chromium costs about a second of CPU, more on a busy machine:
// once per set of flags rather than once per test.
func startBrowser(t *testing.T, extra ...browserFlag) context.Context {
	t.Helper()
	shared := sharedBrowser(t, extra)
	budget, cancelBudget := context.WithTimeout(shared, browserBudget)
	t.Cleanup(cancelBudget)
	ctx, cancel := chromedp.NewContext(budget, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel) // closes the test's tabs and its browser context
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a browser context: %v", err)
	}
	return ctx
}

// browsers are the chromium processes the package's tests share, keyed by
// their extra flags; TestMain closes them when every test has run.
var browsers struct {
	mu      sync.Mutex
	started map[string]*browserProc
}

// browserProc is one shared chromium.
type browserProc struct {
	ctx     context.Context // its first tab: children open tabs in it
	err     error           // why it did not start
	cancel  func()
	dataDir string
}

// browserFlag is a command-line flag of chromium.
type browserFlag struct {
	name  string
	value any
}

// withWebGL are the flags of pages drawing with WebGL (the embeddings'
// 3-D view): chromium's software renderer.
var withWebGL = []browserFlag{{"enable-unsafe-swiftshader", true}, {"use-angle", "swiftshader"}}

// sharedBrowser starts the chromium of a set of extra flags once, and
// returns it.
func sharedBrowser(t *testing.T, extra []browserFlag) context.Context {
	t.Helper()
	exe := chromiumPath(t)
	key := fmt.Sprint(extra)
	browsers.mu.Lock()
	defer browsers.mu.Unlock()
	if b := browsers.started[key]; b != nil {
		if b.err != nil {
			t.Fatal(b.err)
		}
		return b.ctx
	}
	b := &browserProc{}
	if browsers.started == nil {
		browsers.started = map[string]*browserProc{}
	}
	browsers.started[key] = b
	dir, err := os.MkdirTemp("", "trainreport-chromium-")
	if err != nil {
		b.err = err
		t.Fatal(err)
	}
	b.dataDir = dir
	opts := chromedp.DefaultExecAllocatorOptions[:]
	for _, f := range extra {
		opts = append(opts, chromedp.Flag(f.name, f.value))
	}
	opts = append(opts,
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// Chromium's headless mode is the whole browser: each window
		// (one per tab in a browser context of its own) preloads the
		// address bar's pop-up, a WebUI page, in a renderer of its own
		// that then keeps drawing. Headless, no one sees it; it cost
		// about 1 CPU-s per tab opened, and the one renderer of them all
		// 5-10 % of a core while pages idled (chromium 156). Chromedp's
		// own disabled features stay listed: this flag replaces them.
		chromedp.Flag("disable-features", "Translate,BlinkGenPropertyTrees,WebUIOmniboxAimPopup,WebUIOmniboxPopup"),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1400, 1000),
	)
	// The first Run binds the browser's life to this context, which
	// TestMain cancels.
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	b.cancel = func() {
		cancel()
		cancelAlloc() // waits for the browser to exit, before its folder goes
		os.RemoveAll(dir)
	}
	if err := chromedp.Do(ctx); err != nil {
		b.err = fmt.Errorf("starting %s: %w", exe, err)
		t.Fatal(b.err)
	}
	b.ctx = ctx
	return ctx
}

// closeBrowsers stops every shared chromium.
func closeBrowsers() {
	browsers.mu.Lock()
	defer browsers.mu.Unlock()
	for _, b := range browsers.started {
		if b.cancel != nil {
			b.cancel()
		}
	}
	browsers.started = nil
}

// screenshotDir returns $TRAINREPORT_SCREENSHOTS, created, or "" when it is
// not set. It refuses a directory inside the repository.
func screenshotDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TRAINREPORT_SCREENSHOTS")
	if dir == "" {
		return ""
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rel, err := filepath.Rel(repoRoot(t), abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		t.Fatalf("TRAINREPORT_SCREENSHOTS=%s is inside the repository; choose a directory outside it", dir)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		t.Fatal(err)
	}
	return abs
}

// tab is one page open in its own browser tab, with everything it tried to
// fetch from the network and every problem it reported recorded.
type tab struct {
	t   *testing.T
	ctx context.Context
	url string

	mu       sync.Mutex
	blocked  []string // requests that would have left the page
	local    []string // the requests that did not: file:, data: and blob: URLs
	problems []string // console errors and warnings, exceptions, error log entries
	ignore   string   // problems and requests containing it are expected
	origin   string   // a served report's origin (scheme://host:port), whose requests stay local too

	// recorded gets a value after each problem or blocked request is
	// recorded (dropped when one is already waiting): what waits for a
	// record waits on it, not on a clock.
	recorded chan struct{}
}

// record appends a line to one of the tab's lists, under its lock, and
// signals recorded.
func (tb *tab) record(list *[]string, line string) {
	tb.mu.Lock()
	*list = append(*list, line)
	tb.mu.Unlock()
	select {
	case tb.recorded <- struct{}{}:
	default:
	}
}

// openTab opens url in a new tab of the browser. Network requests to
// anything but file:, data: and blob: URLs fail and are recorded; console
// errors and warnings, uncaught exceptions and error log entries are
// recorded. When the (sub-)test ends, both must be empty.
func openTab(t *testing.T, browser context.Context, url string) *tab {
	t.Helper()
	return openTabWithin(t, browser, url, stepTimeout)
}

// openTabWithin is openTab with the time the page has to load (its load
// event) given.
func openTabWithin(t *testing.T, browser context.Context, url string, load time.Duration) *tab {
	t.Helper()
	return openTabFrom(t, browser, url, "", load)
}

// openTabFrom is openTabWithin for a page served from origin
// (scheme://host:port, "" for none): its requests to that origin are the
// page's own.
func openTabFrom(t *testing.T, browser context.Context, url, origin string, load time.Duration) *tab {
	t.Helper()
	tb := &tab{t: t, url: url, origin: origin, recorded: make(chan struct{}, 1)}
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithListener(tb.listen))
	t.Cleanup(cancel)
	t.Cleanup(tb.assertClean) // runs before cancel: cleanups run last first
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("opening a tab: %v", err)
	}
	tb.ctx = ctx

	// Subscribe before enabling interception so that no request is missed.
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	go tb.serveRequests(paused)
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{
		Patterns: []*fetch.RequestPattern{{URLPattern: "*"}},
	}); err != nil {
		t.Fatalf("Fetch.enable: %v", err)
	}

	nctx, ncancel := context.WithTimeout(ctx, load)
	defer ncancel()
	if err := chromedp.Do(nctx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("opening %s: %v%s", url, err, tb.problemSummary())
	}
	return tb
}

// localURL reports whether a request stays on the machine.
func localURL(u string) bool {
	return strings.HasPrefix(u, "file://") || strings.HasPrefix(u, "data:") || strings.HasPrefix(u, "blob:")
}

// serveRequests lets local requests through and fails every other one.
func (tb *tab) serveRequests(paused iter.Seq2[fetch.EventRequestPaused, error]) {
	for ev, err := range paused {
		if err != nil {
			return // the tab closed
		}
		if ev.Request != nil && (localURL(ev.Request.URL) || tb.origin != "" && strings.HasPrefix(ev.Request.URL, tb.origin+"/")) {
			tb.mu.Lock()
			tb.local = append(tb.local, ev.Request.URL)
			tb.mu.Unlock()
			_, err = chromedp.Call(tb.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
		} else {
			u := "(no request)"
			if ev.Request != nil {
				u = ev.Request.URL
			}
			tb.record(&tb.blocked, fmt.Sprintf("%s %s", ev.ResourceType, u))
			_, err = chromedp.Call(tb.ctx, fetch.FailRequest, fetch.FailRequestParams{
				RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient,
			})
		}
		if err != nil && tb.ctx.Err() == nil {
			tb.record(&tb.problems, fmt.Sprintf("answering a paused request: %v", err))
		}
	}
}

// listen runs in the tab's message loop: it only records.
func (tb *tab) listen(ev any) {
	var msg string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeWarning {
			return
		}
		msg = fmt.Sprintf("console.%s: %s%s", ev.Type, remoteArgs(ev.Args), stackPlace(ev.StackTrace))
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + d.Exception.Description
		}
		msg = fmt.Sprintf("uncaught exception: %s (%s:%d:%d)", text, shortURL(d.URL), d.LineNumber+1, d.ColumnNumber+1)
	case *log.EventEntryAdded:
		e := ev.Entry
		if e == nil || e.Level != log.EntryLevelError {
			return
		}
		msg = fmt.Sprintf("log %s error: %s", e.Source, e.Text)
		if e.URL != "" {
			msg += fmt.Sprintf(" (%s:%d)", e.URL, e.LineNumber+1)
		}
	default:
		return
	}
	tb.record(&tb.problems, msg)
}

func remoteArgs(args []*runtime.RemoteObject) string {
	var parts []string
	for _, a := range args {
		switch {
		case a.Type == runtime.RemoteObjectTypeString:
			var s string
			if json.Unmarshal(a.Value, &s) == nil {
				parts = append(parts, s)
				continue
			}
			parts = append(parts, string(a.Value))
		case len(a.Value) > 0:
			parts = append(parts, string(a.Value))
		case a.UnserializableValue != "":
			parts = append(parts, string(a.UnserializableValue))
		default:
			parts = append(parts, a.Description)
		}
	}
	return strings.Join(parts, " ")
}

func stackPlace(st *runtime.StackTrace) string {
	if st == nil || len(st.CallFrames) == 0 {
		return ""
	}
	f := st.CallFrames[0]
	return fmt.Sprintf(" (at %s %s:%d:%d)", f.FunctionName, shortURL(f.URL), f.LineNumber+1, f.ColumnNumber+1)
}

// shortURL keeps the file name of a file URL, for readable messages.
func shortURL(u string) string {
	if strings.HasPrefix(u, "file://") {
		return filepath.Base(u)
	}
	return u
}

// problemSummary lists what the tab recorded so far, for error messages.
func (tb *tab) problemSummary() string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var b strings.Builder
	for _, p := range tb.problems {
		b.WriteString("\n\t" + p)
	}
	for _, u := range tb.blocked {
		b.WriteString("\n\tblocked request: " + u)
	}
	if b.Len() == 0 {
		return ""
	}
	return "\nthe page reported:" + b.String()
}

// assertClean fails the test for every recorded problem and blocked request.
func (tb *tab) assertClean() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, u := range tb.blocked {
		if tb.ignore == "" || !strings.Contains(u, tb.ignore) {
			tb.t.Errorf("%s: request leaving the page (blocked): %s", tb.url, u)
		}
	}
	for _, p := range tb.problems {
		if tb.ignore == "" || !strings.Contains(p, tb.ignore) {
			tb.t.Errorf("%s: %s", tb.url, p)
		}
	}
}

// eval evaluates a JavaScript expression in the tab, awaiting a promise it
// returns, and decodes the result into T. It fails the test on an
// exception, with what the page reported.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	return evalWithin[T](tb, expr, stepTimeout)
}

// evalWithin is eval with the time the evaluation may take given.
func evalWithin[T any](tb *tab, expr string, d time.Duration) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, d)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("%s: evaluating %s: %v%s", tb.url, firstLine(expr), err, tb.problemSummary())
	}
	return v
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// eventually waits in the page until a boolean expression is true or the
// timeout passes, and returns its last value: for a state a check that
// follows reports in detail when it never comes. The page checks it at
// each frame it draws (the states waited for come with a redraw or a
// hash written), and once more at the timeout, in one evaluation: no
// round trip, nor a pause of ours, between two checks.
func eventually(tb *tab, expr string, timeout time.Duration) bool {
	tb.t.Helper()
	wait := fmt.Sprintf(`new Promise((resolve, reject) => {
	const check = async () => (
%s
	);
	const end = performance.now() + %d;
	const poll = () => check().then(v => {
		if (v || performance.now() > end) resolve(!!v); else requestAnimationFrame(poll);
	}, reject);
	// The last check, should frames stop (a page hidden draws none).
	setTimeout(() => check().then(v => resolve(!!v), reject), %d);
	poll();
})`, expr, timeout.Milliseconds(), timeout.Milliseconds())
	return evalWithin[bool](tb, wait, timeout+stepTimeout)
}

// hashHas is an expression telling whether the page's URL holds value as
// its parameter key: the pages write their controls to the URL after the
// state they apply (400 ms after typing pauses, the filter 150 ms).
func hashHas(key, value string) string {
	return fmt.Sprintf(`(() => { const m = location.hash.match(/[#&]%s=([^&]*)/); return !!m && decodeURIComponent(m[1]) === %q; })()`, key, value)
}

// waitFor evaluates a boolean expression until it is true, failing the test
// with what after the timeout.
func waitFor(tb *tab, expr string, timeout time.Duration, what string) {
	tb.t.Helper()
	if !eventually(tb, expr, timeout) {
		tb.t.Fatalf("%s: %s: still false after %v: %s%s", tb.url, what, timeout, expr, tb.problemSummary())
	}
}

// screenshot writes a full-page PNG of the tab into dir, if set.
func (tb *tab) screenshot(dir, name string) {
	tb.t.Helper()
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(tb.ctx, stepTimeout)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.t.Errorf("screenshot of %s: %v", tb.url, err)
		return
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644); err != nil {
		tb.t.Error(err)
	}
}

// ---------------------------------------------------------------------------
// The pages

// reportCase is one report under test.
type reportCase struct {
	name    string
	report  builtReport
	truth   scalarTruth // what package collect reads from the logdir
	browser context.Context
	shots   string
}

// pageInfo describes the sections of the document.
type pageInfo struct {
	Title    string        `json:"title"`
	H1       []string      `json:"h1"`
	Sections []sectionInfo `json:"sections"`
}

type sectionInfo struct {
	Page    string `json:"page"`
	Visible bool   `json:"visible"`
}

func (c *reportCase) testIndex(t *testing.T) {
	tb := openTab(t, c.browser, fileURL(filepath.Join(c.report.site, "index.html"), ""))
	info := eval[pageInfo](tb, pageJS("layout.js", "pageInfo"))
	if !slices.Equal(info.H1, []string{"Overview"}) {
		t.Errorf("index.html: visible headings %q, want [Overview]", info.H1)
	}
	tb.screenshot(c.shots, c.name+"-index")
}

// figureInfo is what the page holds for one figure.chart-card.
type figureInfo struct {
	Tag         string       `json:"tag"`
	Ready       string       `json:"ready"`
	HasChartDiv bool         `json:"hasChartDiv"`
	HasInstance bool         `json:"hasInstance"`
	Width       float64      `json:"width"`
	Height      float64      `json:"height"`
	DataError   string       `json:"dataError"`
	Runs        []runInfo    `json:"runs"`
	Series      []seriesInfo `json:"series"`
	Points      string       `json:"points"`
	Visible     bool         `json:"visible"`
}

type runInfo struct {
	Name  string `json:"name"`
	Total int    `json:"total"`
	Shown int    `json:"shown"`
}

type seriesInfo struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Points int    `json:"points"` // length of its data
	Finite int    `json:"finite"` // data points with a finite y
}

// scalarsTab is an open scalars page and its figures.
type scalarsTab struct {
	*tab
	figures []figureInfo
}

// testScalars opens a scalars page (of the site, or the single file with
// #page=scalars), awaits ready() and checks every chart.
func (c *reportCase) testScalars(t *testing.T, url, shot string) *scalarsTab {
	tb := openTab(t, c.browser, url)
	figs := eval[[]figureInfo](tb, pageJS("scalars.js", "figures"))
	checkFigures(t, figs, c.truth)
	tb.screenshot(c.shots, c.name+"-"+shot)
	return &scalarsTab{tab: tb, figures: figs}
}

// checkFigures checks that there is one figure per tag, initialised, with
// an ECharts instance holding one "run:" series per run of its data, each
// drawing the points its chart-data says it shows.
func checkFigures(t *testing.T, figs []figureInfo, truth scalarTruth) {
	t.Helper()
	tags := truth.tags
	var got []string
	for _, f := range figs {
		got = append(got, f.Tag)
	}
	if len(figs) != len(tags) {
		t.Errorf("%d figure.chart-card, want one per distinct scalar tag: %d\n got tags %q\nwant tags %q", len(figs), len(tags), got, tags)
	} else if sorted := slices.Sorted(slices.Values(got)); !slices.Equal(sorted, tags) {
		t.Errorf("figure tags %q, want %q", sorted, tags)
	}
	for _, f := range figs {
		if f.Ready != "1" {
			t.Errorf("figure %q: data-ready=%q, want \"1\"", f.Tag, f.Ready)
		}
		if !f.HasChartDiv {
			t.Errorf("figure %q: no div.chart[data-chart]", f.Tag)
			continue
		}
		if !f.HasInstance {
			t.Errorf("figure %q: echarts.getInstanceByDom(div) is undefined: the chart was not initialised", f.Tag)
			continue
		}
		if f.Width <= 0 || f.Height <= 0 {
			t.Errorf("figure %q: chart is %vx%v px", f.Tag, f.Width, f.Height)
		}
		if f.DataError != "" {
			t.Errorf("figure %q: chart-data does not parse: %s", f.Tag, f.DataError)
		}
		if len(f.Runs) == 0 {
			t.Errorf("figure %q: chart-data lists no runs", f.Tag)
		}
		// Exactly one "run:i" series per entry i of runs, and no other.
		count := map[string]int{}
		byID := map[string]seriesInfo{}
		var runIDs []string
		for _, s := range f.Series {
			if strings.HasPrefix(s.ID, "run:") {
				count[s.ID]++
				byID[s.ID] = s
				runIDs = append(runIDs, s.ID)
			}
		}
		if len(runIDs) != len(f.Runs) {
			t.Errorf("figure %q: %d series with a run: id %q, want %d (one per run of its chart-data); all series: %v", f.Tag, len(runIDs), runIDs, len(f.Runs), f.Series)
		}
		var bad []string // one line per run series that is wrong
		for i, r := range f.Runs {
			id := "run:" + strconv.Itoa(i)
			s := byID[id]
			switch {
			case count[id] != 1:
				bad = append(bad, fmt.Sprintf("%d series with id %q (run %q), want 1", count[id], id, r.Name))
			case s.Name != r.Name:
				bad = append(bad, fmt.Sprintf("series %q is named %q, want the run's name %q", id, s.Name, r.Name))
			case s.Points != r.Shown:
				bad = append(bad, fmt.Sprintf("series %q (run %q) holds %d points, want the %d its chart-data says are shown", id, r.Name, s.Points, r.Shown))
			case s.Finite == 0 && truth.finite[f.Tag][r.Name]:
				bad = append(bad, fmt.Sprintf("series %q (run %q) draws no finite value, but the run has finite values: an empty line", id, r.Name))
			}
		}
		if n := len(bad); n > 0 {
			const show = 4
			more := ""
			if n > show {
				more = fmt.Sprintf("\n\t... and %d more", n-show)
				bad = bad[:show]
			}
			t.Errorf("figure %q: %d of %d runs drawn wrong:\n\t%s%s", f.Tag, n, len(f.Runs), strings.Join(bad, "\n\t"), more)
		}
	}
}

// pointsLabel matches a figure's "N of M points" label.
var pointsLabel = regexp.MustCompile(`^\s*([\d,]+) of ([\d,]+) points\s*$`)

// checkDownsampledLabel checks the demo's long series: metrics/loss holds
// the baseline's 20,001 points, drawn downsampled, and says so.
func checkDownsampledLabel(t *testing.T, figs []figureInfo) {
	t.Helper()
	i := slices.IndexFunc(figs, func(f figureInfo) bool { return f.Tag == "metrics/loss" })
	if i < 0 {
		t.Fatal("no figure for metrics/loss")
	}
	f := figs[i]
	shown, total, long := 0, 0, false
	for _, r := range f.Runs {
		shown += r.Shown
		total += r.Total
		if r.Total == 20_001 && r.Shown < r.Total {
			long = true
		}
	}
	if !long {
		t.Errorf("metrics/loss: no run with 20,001 points drawn downsampled in chart-data: %+v", f.Runs)
	}
	m := pointsLabel.FindStringSubmatch(f.Points)
	if m == nil {
		t.Fatalf("metrics/loss: points label %q, want \"N of M points\"", f.Points)
	}
	n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
	of, _ := strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
	if n != shown || of != total || n >= of {
		t.Errorf("metrics/loss: points label %q, want %d of %d points", f.Points, shown, total)
	}
}

// tensorBoardSmooth is TensorBoard's debiased exponential moving average:
// non-finite values pass through without updating it, and a constant series
// is returned unchanged.
func tensorBoardSmooth(values []float64, weight float64) []float64 {
	out := make([]float64, len(values))
	constant := true
	for _, v := range values {
		if v != values[0] {
			constant = false
		}
	}
	last, n := 0.0, 0
	for i, v := range values {
		if constant || math.IsNaN(v) || math.IsInf(v, 0) {
			out[i] = v
			continue
		}
		last = last*weight + (1-weight)*v
		n++
		debias := 1.0
		if weight != 1 {
			debias = 1 - math.Pow(weight, float64(n))
		}
		out[i] = last / debias
	}
	return out
}

// smoothCase is one call of window.trainreport.smooth.
type smoothCase struct {
	name   string
	values []float64
	weight float64
	exact  bool // the result must be the same bits (weight 0, constant)
}

func jsNumber(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func jsArray(vs []float64) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = jsNumber(v)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// smoothResult is what the page returns for one smoothCase: the values,
// non-finite ones as strings, and whether the input was changed.
type smoothResult struct {
	Out     []any `json:"out"`
	Mutated bool  `json:"mutated"`
}

func testSmooth(t *testing.T, tb *scalarsTab) {
	cases := []smoothCase{
		{"NaN passes through", []float64{1, 2, 3, math.NaN(), 4}, 0.5, false},
		{"infinities pass through", []float64{math.Inf(1), 0.25, -3, math.Inf(-1), 7.5, 2}, 0.9, false},
		{"weight 0.999", []float64{10, 0, 10, 0, 10, 0}, 0.999, false},
		{"weight 0 returns the input", []float64{1, 2, 3, math.NaN(), 4}, 0, true},
		{"constant series unchanged", []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, 0.9, true},
	}
	for _, c := range cases {
		res := eval[smoothResult](tb.tab, pageJS("scalars.js", "smooth", rawJS(jsArray(c.values)), rawJS(jsNumber(c.weight))))
		want := tensorBoardSmooth(c.values, c.weight)
		if c.exact {
			want = c.values
		}
		if res.Mutated {
			t.Errorf("smooth(%s, %v) changed its input", jsArray(c.values), c.weight)
		}
		if len(res.Out) != len(want) {
			t.Errorf("%s: smooth(%s, %v) = %v, want %s", c.name, jsArray(c.values), c.weight, res.Out, jsArray(want))
			continue
		}
		for i, w := range want {
			if !smoothEqual(res.Out[i], w, c.exact) {
				t.Errorf("%s: smooth(%s, %v) = %v, want %s (TensorBoard's debiased EMA); first difference at index %d",
					c.name, jsArray(c.values), c.weight, res.Out, jsArray(want), i)
				break
			}
		}
	}
}

// smoothEqual compares a value from the page with the expected one.
func smoothEqual(got any, want float64, exact bool) bool {
	switch g := got.(type) {
	case string:
		return g == jsNumber(want) && (math.IsNaN(want) || math.IsInf(want, 0))
	case float64:
		if exact {
			return g == want
		}
		return math.Abs(g-want) <= 1e-12*math.Max(1, math.Abs(want))
	}
	return false
}

// hashState is the view state the scalars page shows.
type hashState struct {
	Smoothing string       `json:"smoothing"`
	TagsInput string       `json:"tagsInput"`
	X         string       `json:"x"`
	Hash      string       `json:"hash"`
	Figures   []figureInfo `json:"figures"`
}

// testHashState opens the scalars page with view state in the hash, checks
// the page applies it, and that a change of the x axis goes back into it.
func (c *reportCase) testHashState(t *testing.T) {
	tb := openTab(t, c.browser, fileURL(filepath.Join(c.report.site, "scalars.html"), "smoothing=0.9&tags=loss"))
	st := eval[hashState](tb, pageJS("scalars.js", "hashState"))
	if v, err := strconv.ParseFloat(st.Smoothing, 64); err != nil || v != 0.9 {
		t.Errorf("#smoothing=0.9: slider value %q, want 0.9", st.Smoothing)
	}
	if st.TagsInput != "loss" {
		t.Errorf("#tags=loss: tags filter field holds %q, want \"loss\"", st.TagsInput)
	}
	loss := regexp.MustCompile(`(?i)loss`)
	visible := 0
	for _, f := range st.Figures {
		if want := loss.MatchString(f.Tag); f.Visible != want {
			t.Errorf("#tags=loss: figure %q visible=%v, want %v", f.Tag, f.Visible, want)
		}
		if f.Visible {
			visible++
		}
	}
	if visible == 0 {
		t.Error("#tags=loss: no figure visible")
	}
	tb.screenshot(c.shots, c.name+"-scalars-hash-state")

	// Change the x axis through the DOM, as a user would.
	eval[chromedp.Void](tb, pageJS("scalars.js", "chooseX", "wall"))
	waitFor(tb, `location.hash.includes("x=wall")`, 5*time.Second, "after choosing x axis wall, location.hash contains x=wall")
	st = eval[hashState](tb, pageJS("scalars.js", "hashState"))
	params := parseHash(st.Hash)
	if params["x"] != "wall" {
		t.Errorf("hash %q: x=%q, want wall", st.Hash, params["x"])
	}
	if v, err := strconv.ParseFloat(params["smoothing"], 64); err != nil || v != 0.9 {
		t.Errorf("hash %q lost smoothing=0.9 when the x axis changed", st.Hash)
	}
	if params["tags"] != "loss" {
		t.Errorf("hash %q lost tags=loss when the x axis changed", st.Hash)
	}
	// The charts drawn against wall time still hold their lines.
	figs := eval[[]figureInfo](tb, pageJS("scalars.js", "figures"))
	for _, f := range figs {
		if !f.Visible {
			continue
		}
		n := 0
		for _, s := range f.Series {
			if strings.HasPrefix(s.ID, "run:") {
				n++
			}
		}
		if !f.HasInstance || n != len(f.Runs) {
			t.Errorf("x=wall: figure %q has instance=%v and %d run: series, want %d", f.Tag, f.HasInstance, n, len(f.Runs))
		}
	}
	tb.screenshot(c.shots, c.name+"-scalars-x-wall")
}

// parseHash splits "#a=1&b=2" into its parameters.
func parseHash(h string) map[string]string {
	m := map[string]string{}
	for _, kv := range strings.Split(strings.TrimPrefix(h, "#"), "&") {
		k, v, _ := strings.Cut(kv, "=")
		if k != "" {
			m[k] = v
		}
	}
	return m
}

var (
	scriptSrc      = regexp.MustCompile(`(?i)<script\b[^>]*\bsrc\s*=`)
	linkStylesheet = regexp.MustCompile(`(?i)<link\b[^>]*\bstylesheet\b`)
	srcHTTP        = regexp.MustCompile(`(?i)\bsrc\s*=\s*["']?https?:`)
)

// testSingleFile checks that the single-file report loads nothing and that
// its pages show with #page=.
func (c *reportCase) testSingleFile(t *testing.T) {
	doc, err := os.ReadFile(c.report.single)
	if err != nil {
		t.Fatal(err)
	}
	for _, re := range []*regexp.Regexp{scriptSrc, linkStylesheet, srcHTTP} {
		if loc := re.FindIndex(doc); loc != nil {
			from, to := max(loc[0]-80, 0), min(loc[1]+80, len(doc))
			t.Errorf("single file holds %s at byte %d: ...%s...", re, loc[0], doc[from:to])
		}
	}
	noExternal := func(tb *tab) {
		t.Helper()
		n := eval[int](tb, `document.querySelectorAll('script[src], link[rel~="stylesheet" i], [src^="http:"], [src^="https:"]').length`)
		if n != 0 {
			t.Errorf("single file: %d elements load a script, stylesheet or remote source", n)
		}
	}
	if len(c.truth.tags) == 0 {
		tb := openTab(t, c.browser, fileURL(c.report.single, "page=index"))
		noExternal(tb)
		c.checkIndexShown(t, tb)
		return
	}

	// Straight to #page=scalars: the charts initialise; then the overview.
	st := c.testScalars(t, fileURL(c.report.single, "page=scalars"), "single-scalars")
	noExternal(st.tab)
	checkSections(t, eval[pageInfo](st.tab, pageJS("layout.js", "pageInfo")), "scalars")
	c.showPage(t, st.tab, "index")
	c.checkIndexShown(t, st.tab)

	// Opened on the overview (no hash), the scalars page is hidden while the
	// page loads: its charts must still draw, at their size, once shown.
	t.Run("index-then-scalars", func(t *testing.T) {
		tb := openTab(t, c.browser, fileURL(c.report.single, ""))
		c.checkIndexShown(t, tb)
		// Through the overview's list of pages, as a reader would.
		if !eval[bool](tb, `(() => { const a = document.querySelector('nav.contents a[href="#page=scalars"]'); if (a) a.click(); return !!a; })()`) {
			t.Fatal("the overview does not link the scalars page")
		}
		waitFor(tb, pageJS("layout.js", "sectionShown", "scalars"),
			5*time.Second, "the overview's link shows the scalars page")
		checkSections(t, eval[pageInfo](tb, pageJS("layout.js", "pageInfo")), "scalars")
		checkFigures(t, eval[[]figureInfo](tb, pageJS("scalars.js", "figures")), c.truth)
		tb.screenshot(c.shots, c.name+"-single-index-then-scalars")
	})
}

// showPage sets #page=name in a single-file report and waits for its
// section to show.
func (c *reportCase) showPage(t *testing.T, tb *tab, name string) {
	t.Helper()
	eval[chromedp.Void](tb, fmt.Sprintf(`(() => { location.hash = "#page=%s"; })()`, name))
	waitFor(tb, pageJS("layout.js", "sectionShown", name), 5*time.Second, "#page="+name+" shows its section")
}

// checkIndexShown checks that the overview, and only it, shows.
func (c *reportCase) checkIndexShown(t *testing.T, tb *tab) {
	t.Helper()
	info := eval[pageInfo](tb, pageJS("layout.js", "pageInfo"))
	checkSections(t, info, "index")
	if !slices.Equal(info.H1, []string{"Overview"}) {
		t.Errorf("#page=index: visible headings %q, want [Overview]", info.H1)
	}
	tb.screenshot(c.shots, c.name+"-single-index")
}

// checkSections checks that exactly the section of page is visible.
func checkSections(t *testing.T, info pageInfo, page string) {
	t.Helper()
	found := false
	for _, s := range info.Sections {
		if s.Page == page {
			found = true
		}
		if s.Visible != (s.Page == page) {
			t.Errorf("#page=%s: section %q visible=%v, want %v", page, s.Page, s.Visible, s.Page == page)
		}
	}
	if !found {
		t.Errorf("#page=%s: no main.page[data-page=%q]; sections %+v", page, page, info.Sections)
	}
}

// testHarness checks the test itself: a request to the network from a page
// is seen and failed, and console errors and warnings, uncaught exceptions
// and error log entries are all recorded.
func (c *reportCase) testHarness(t *testing.T) {
	tb := openTab(t, c.browser, fileURL(filepath.Join(c.report.site, "index.html"), ""))
	const probe = "http://192.0.2.1/trainreport-harness-probe"
	tb.mu.Lock()
	tb.ignore = "trainreport-harness-probe" // what follows is expected
	tb.mu.Unlock()
	res := eval[string](tb, `fetch("`+probe+`").then(() => "loaded", e => "failed: " + e)`)
	if !strings.HasPrefix(res, "failed") {
		t.Errorf("fetch(%s): %s, want it to fail", probe, res)
	}
	eval[chromedp.Void](tb, pageJS("harness.js", "problems"))
	// Each entry: substrings one recorded line must all hold.
	want := [][]string{
		{"blocked request: ", probe},
		{"console.error: trainreport-harness-probe error"},
		{"console.warning: trainreport-harness-probe warning"},
		{"uncaught exception: ", "trainreport-harness-probe exception"},
		{"log network error: ", "ERR_BLOCKED_BY_CLIENT", probe},
	}
	// Each record signals tb.recorded: wait on it, up to 5 s in all.
	deadline := time.NewTimer(5 * time.Second)
	defer deadline.Stop()
	for {
		tb.mu.Lock()
		var got []string
		for _, u := range tb.blocked {
			got = append(got, "blocked request: "+u)
		}
		got = append(got, tb.problems...)
		tb.mu.Unlock()
		var missing [][]string
		for _, w := range want {
			if !slices.ContainsFunc(got, func(g string) bool {
				return !slices.ContainsFunc(w, func(sub string) bool { return !strings.Contains(g, sub) })
			}) {
				missing = append(missing, w)
			}
		}
		if len(missing) == 0 {
			return
		}
		select {
		case <-tb.recorded:
		case <-deadline.C:
			t.Fatalf("the test did not record %q\nrecorded %q", missing, got)
		}
	}
}
