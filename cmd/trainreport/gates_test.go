package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image/png"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"golang.org/x/net/html"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/examples/demo/demolog"
)

// TestGateUsageErrors: an error in a --fail-on expression, or a gate
// reading a baseline that was not given, or a baseline that is no
// summary.json (one metric without its last value, an array), is a usage
// error (exit 2) naming the column or what is wrong, before any log is
// read: no report is written.
func TestGateUsageErrors(t *testing.T) {
	logs := filepath.Join(t.TempDir(), "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		t.Fatal(err)
	}
	noLast, array := filepath.Join(t.TempDir(), "nolast.json"), filepath.Join(t.TempDir(), "array.json")
	if err := os.WriteFile(noLast, []byte(`{"metrics": {"a": {"loss": {"points": 3}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(array, []byte(`[]`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--fail-on", "loss.last >"}, `"loss.last >": column 12: want a number`},
		{[]string{"--fail-on", "loss.lst > 1"}, "column 6: unknown field"},
		{[]string{"--fail-on", "baseline.loss.last > 1"}, "reads the baseline: give --baseline PATH"},
		{[]string{"--baseline-threshold", "-1"}, "--baseline-threshold must be"},
		{[]string{"--baseline", filepath.Join(logs, "nope.json")}, "--baseline:"},
		{[]string{"--baseline", noLast}, `metrics["a"]["loss"]: no last point`},
		{[]string{"--baseline", array}, "not a summary.json: a JSON array at the top level"},
		{[]string{"--charts-url", "javascript:alert(1)"}, "want an http or https URL"},
		{[]string{"--email", filepath.Join(logs, "..", "main.json"), "--baseline", filepath.Join(logs, "..", "main.json")}, "--email and --baseline both name"},
		{[]string{"--charts-url", "https://x.example/a)b"}, "want an http or https URL"},
	} {
		out := filepath.Join(t.TempDir(), "site")
		code, stderr := runCLI(t, append(append([]string{"-o", out}, tc.args...), logs)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tc.args, code, stderr, exitUsage, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q: the report was written", tc.args)
		}
	}
}

// TestFailOnSlashedTag: --fail-on 'train/loss.last > 1', as almost every
// real tag has a "/", reads the tag train/loss (exit 3 when it holds, 0
// when not); a tag a name cannot spell is a usage error said once, on
// one line with the quoted form, without the usage around it.
func TestFailOnSlashedTag(t *testing.T) {
	logs := filepath.Join(t.TempDir(), "logs")
	var events []*eventpb.Event
	for s := range int64(5) {
		events = append(events, summaryEvent(s, 0, simpleValue("train/loss", 3-0.25*float32(s))))
	}
	writeEventFile(t, filepath.Join(logs, "a", "events.out.tfevents.1700000000.host"), events)
	for _, tc := range []struct {
		expr string
		code int
	}{
		{"train/loss.last > 1", exitGate}, // 2
		{"train/loss.last > 2", exitOK},
		{"train/loss.max/train/loss.last >= 1.5", exitGate}, // 3 / 2
	} {
		code, stderr := runCLI(t, "-o", filepath.Join(t.TempDir(), "site"), "-quiet", "--fail-on", tc.expr, logs)
		if code != tc.code {
			t.Errorf("--fail-on %q: exit %d, want %d\n%s", tc.expr, code, tc.code, stderr)
		}
		if tc.code == exitGate && !strings.Contains(stderr, `("train/loss".`) {
			t.Errorf("--fail-on %q: stderr %q does not name the tag", tc.expr, stderr)
		}
	}
	code, stderr := runCLI(t, "-o", filepath.Join(t.TempDir(), "site"), "--fail-on", "train/loss-2.last > 1", logs)
	want := `trainreport: --fail-on "train/loss-2.last > 1": column 11: want .FIELD after the tag "train/loss" ` +
		`(one of [last min max best step min_step max_step best_step points non_finite]); ` +
		`a tag that is not a plain name is quoted whole: "train/loss-2".last` + "\n"
	if code != exitUsage || stderr != want {
		t.Errorf("a tag a name cannot spell: exit %d, stderr\n%s\nwant exit %d and only\n%s", code, stderr, exitUsage, want)
	}
}

// injected is what the scenario adds to a second copy of the demo: a run
// whose loss ends in NaN, and a run whose loss ends higher than the
// baseline's by a known amount.
const (
	nanRun     = "lr=0.01/train"
	worseRun   = "lr=0.003/train"
	lossTag    = "metrics/loss"
	worseLoss  = 1.5
	injectStep = 5100
)

// injectEvents appends an event file to a run of the demo: one scalar at
// injectStep, written after the run's own files.
func injectEvents(t *testing.T, logs, run string, v float32) {
	t.Helper()
	ev := &eventpb.Event{WallTime: 1700099999, Step: injectStep,
		What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: []*eventpb.SummaryValue{simpleValue(lossTag, v)}}}}
	header := &eventpb.Event{WallTime: 1700099998, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}}
	writeEventFile(t, filepath.Join(logs, run, "events.out.tfevents.1700099998.inject.1.0.v2"), []*eventpb.Event{header, ev})
}

// summaryDoc is what the scenario reads of summary.json.
type summaryDoc struct {
	Metrics map[string]map[string]struct {
		Last struct{ Value any } `json:"last"`
	} `json:"metrics"`
	Gates []struct {
		Expr   string
		Failed bool
		Held   []struct{ Run string }
	} `json:"gates"`
	Baseline *struct {
		Source      string
		Compared    int
		Regressions int
		Metrics     map[string]map[string]struct {
			Last struct {
				Value, Baseline, Change, Relative any
			}
			Step      struct{ Value, Baseline, Change int64 }
			Regressed bool
			Why       []string
		}
	} `json:"baseline"`
}

func readSummaryDoc(t *testing.T, path string) summaryDoc {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s summaryDoc
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// scenario is the outputs of issue 15's scenario.
type scenario struct {
	main, pr, baseJSON, site, eml, stderr string
}

// buildScenario runs the scenario in dir: the demo reported as the
// baseline, then a copy with a NaN and a worse loss reported against it
// with gates and --email, which must exit 3.
func buildScenario(t *testing.T, dir string) scenario {
	t.Helper()
	sc := scenario{main: filepath.Join(dir, "main-logs"), pr: filepath.Join(dir, "runs"),
		baseJSON: filepath.Join(dir, "main-summary.json"), site: filepath.Join(dir, "report"), eml: filepath.Join(dir, "mail.eml")}
	for _, d := range []string{sc.main, sc.pr} {
		os.RemoveAll(d)
		if err := demolog.Write(d); err != nil {
			t.Fatal(err)
		}
	}
	injectEvents(t, sc.pr, nanRun, float32(math.NaN()))
	injectEvents(t, sc.pr, worseRun, worseLoss)

	mainSite := filepath.Join(dir, "main-report")
	if code, stderr := runCLI(t, "-o", mainSite, "-quiet", sc.main); code != exitOK {
		t.Fatalf("baseline report: exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(filepath.Join(mainSite, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sc.baseJSON, b, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"-o", sc.site, "--baseline", sc.baseJSON, "--email", sc.eml, "-quiet",
		"--fail-on", "loss.last > baseline.loss.last * 1.02",
		"--fail-on", `"metrics/loss".non_finite > 0`,
		"--fail-on", "accuracy.max < 0.5", // holds for no run
		sc.pr}
	code, stderr := runCLI(t, args...)
	if code != exitGate {
		t.Fatalf("exit %d, want %d (a gate failed)\n%s", code, exitGate, stderr)
	}
	sc.stderr = stderr
	return sc
}

// TestCIScenario is issue 15's scenario, as a CI step runs it: a report of
// the demo is the baseline (main-summary.json); a second copy of the demo
// with a NaN and a regression injected is reported with --baseline,
// --fail-on and --email. The command exits 3; summary.md names the NaN
// and the regression first, fits a comment and shows its charts when
// rendered as GitHub Markdown; the email's body holds no script and
// every image is one of its inline parts. With $TRAINREPORT_SCENARIO set,
// the outputs are written there to be looked at.
func TestCIScenario(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if keep := os.Getenv("TRAINREPORT_SCENARIO"); keep != "" {
		dir = keep
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sc := buildScenario(t, dir)
	site, eml, main, pr, stderr := sc.site, sc.eml, sc.main, sc.pr, sc.stderr
	base := readSummaryDoc(t, sc.baseJSON)
	for _, want := range []string{`gate failed: loss.last > baseline.loss.last * 1.02: holds for run "lr=0.003/train"`,
		`gate failed: "metrics/loss".non_finite > 0: holds for run "lr=0.01/train"`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "accuracy.max < 0.5") {
		t.Errorf("stderr names a gate that passed:\n%s", stderr)
	}

	// summary.json: the gates and the comparison, with the known change.
	s := readSummaryDoc(t, filepath.Join(site, "summary.json"))
	if len(s.Gates) != 3 || !s.Gates[0].Failed || !s.Gates[1].Failed || s.Gates[2].Failed {
		t.Errorf("gates in summary.json: %+v", s.Gates)
	}
	if s.Baseline == nil {
		t.Fatal("summary.json has no baseline")
	}
	worse := s.Baseline.Metrics[worseRun][lossTag]
	baseLast := base.Metrics[worseRun][lossTag].Last.Value.(float64)
	if worse.Last.Value != worseLoss || worse.Last.Baseline != baseLast || !worse.Regressed ||
		worse.Step.Value != injectStep || worse.Step.Baseline != 5000 || worse.Step.Change != injectStep-5000 {
		t.Errorf("%s %s against the baseline: %+v (baseline's last %v)", worseRun, lossTag, worse, baseLast)
	}
	// The demo's values are float32: the change is computed from the
	// baseline's value as the series stores it.
	b32 := float64(float32(baseLast))
	if rel := worse.Last.Relative.(float64); rel != (worseLoss-b32)/b32 {
		t.Errorf("relative change %v, want %v", rel, (worseLoss-b32)/b32)
	}
	nan := s.Baseline.Metrics[nanRun][lossTag]
	if nan.Last.Value != "NaN" || !nan.Regressed || !strings.Contains(strings.Join(nan.Why, ";"), "NaN") {
		t.Errorf("%s %s against the baseline: %+v", nanRun, lossTag, nan)
	}
	// What was not touched did not change and is not flagged.
	same := s.Baseline.Metrics["baseline"][lossTag]
	if same.Regressed || same.Last.Change != 0.0 || same.Step.Change != 0 {
		t.Errorf("untouched run against the baseline: %+v", same)
	}
	if s.Baseline.Regressions != 2 {
		t.Errorf("%d regressions, want 2 (the NaN and the worse loss): %+v", s.Baseline.Regressions, s.Baseline.Metrics)
	}

	// The baseline as a log directory compares the same.
	site2 := filepath.Join(t.TempDir(), "site")
	if code, stderr := runCLI(t, "-o", site2, "--baseline", main, "-quiet", pr); code != exitOK {
		t.Fatalf("--baseline LOGDIR: exit %d\n%s", code, stderr)
	}
	s2 := readSummaryDoc(t, filepath.Join(site2, "summary.json"))
	j1, _ := json.Marshal(s.Baseline.Metrics)
	j2, _ := json.Marshal(s2.Baseline.Metrics)
	if !bytes.Equal(j1, j2) {
		t.Errorf("--baseline LOGDIR compares otherwise than --baseline summary.json")
	}

	// The flags of the comparison, as a gate.
	code, stderr2 := runCLI(t, "-o", filepath.Join(t.TempDir(), "site"), "--baseline", sc.baseJSON, "--fail-on", "any(regression)", "-quiet", pr)
	if code != exitGate || !strings.Contains(stderr2, "gate failed: any(regression): holds for the report (regression: 2)") {
		t.Errorf("--fail-on any(regression): exit %d\n%s", code, stderr2)
	}

	checkScenarioMarkdown(t, site)
	checkEmail(t, eml)
}

// checkScenarioMarkdown checks summary.md: gates, then the baseline, before
// anything else; under a comment's limit; its charts shown by GitHub
// Markdown (goldmark with GFM) from files beside it.
func checkScenarioMarkdown(t *testing.T, site string) {
	t.Helper()
	md, err := os.ReadFile(filepath.Join(site, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(utf16.Encode([]rune(string(md)))); n >= 65_536 {
		t.Errorf("summary.md is %d UTF-16 units: over a comment's limit", n)
	}
	text := string(md)
	gates, baseline, runs := strings.Index(text, "## Gates: 2 of 3 failed"), strings.Index(text, "## Against the baseline"), strings.Index(text, "## Runs")
	if gates < 0 || baseline < gates || runs < baseline {
		t.Errorf("summary.md's sections out of order (gates %d, baseline %d, runs %d):\n%.2000s", gates, baseline, runs, text)
	}
	for _, want := range []string{"❌ **failed**: ` loss.last > baseline.loss.last * 1.02 ` holds for run **lr=0.003/train**",
		`"metrics/loss".non_finite = 1`, "| ⚠️ | metrics/loss | lr=0.01/train | NaN (", "last value NaN, the baseline's was finite",
		"| ⚠️ | metrics/loss | lr=0.003/train | 1.5 ("} {
		if !strings.Contains(text, want) {
			t.Errorf("summary.md lacks %q", want)
		}
	}
	var out bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(md, &out); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&out)
	if err != nil {
		t.Fatal(err)
	}
	imgs := 0
	for _, n := range descendants(doc) {
		if n.Type != html.ElementNode || n.Data != "img" {
			continue
		}
		imgs++
		src := attr(n, "src")
		b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(src)))
		if err != nil || !bytes.HasPrefix(b, []byte("<svg")) {
			t.Errorf("image %s of summary.md: %v, %.40q", src, err, b)
		}
	}
	if imgs == 0 {
		t.Error("summary.md rendered shows no chart")
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// emailParts reads the email: its HTML body and its images by Content-ID.
func emailParts(t *testing.T, path string) (*mail.Message, []byte, map[string][]byte) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	msg, err := mail.ReadMessage(f)
	if err != nil {
		t.Fatal(err)
	}
	// multipart/alternative: text/plain, then multipart/related (the
	// HTML body and its images).
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/alternative" {
		t.Fatalf("Content-Type %q: %v", msg.Header.Get("Content-Type"), err)
	}
	alt := multipart.NewReader(msg.Body, params["boundary"])
	text, err := alt.NextRawPart()
	if err != nil || !strings.HasPrefix(text.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("first part %q (%v): want the text/plain one", text.Header, err)
	}
	related, err := alt.NextRawPart()
	if err != nil {
		t.Fatal(err)
	}
	mt, params, err = mime.ParseMediaType(related.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/related" || params["type"] != "text/html" {
		t.Fatalf("second part's Content-Type %q: %v", related.Header.Get("Content-Type"), err)
	}
	mr := multipart.NewReader(related, params["boundary"])
	var body []byte
	images := map[string][]byte{}
	for i := 0; ; i++ {
		p, err := mr.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(p)
		if err != nil {
			t.Fatal(err)
		}
		ct := p.Header.Get("Content-Type")
		switch {
		case i == 0:
			if !strings.HasPrefix(ct, "text/html") || p.Header.Get("Content-Transfer-Encoding") != "quoted-printable" {
				t.Fatalf("first part %q, %q: want the HTML body", ct, p.Header.Get("Content-Transfer-Encoding"))
			}
			if body, err = io.ReadAll(quotedprintable.NewReader(bytes.NewReader(raw))); err != nil {
				t.Fatal(err)
			}
		default:
			if ct != "image/png" || p.Header.Get("Content-Transfer-Encoding") != "base64" || !strings.HasPrefix(p.Header.Get("Content-Disposition"), "inline") {
				t.Errorf("part %d: %q", i, p.Header)
			}
			dec, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(string(raw), "\r\n", ""))
			if err != nil {
				t.Fatalf("part %d: %v", i, err)
			}
			if _, err := png.Decode(bytes.NewReader(dec)); err != nil {
				t.Errorf("part %d is no PNG: %v", i, err)
			}
			images[strings.Trim(p.Header.Get("Content-Id"), "<>")] = dec
		}
	}
	return msg, body, images
}

// checkEmail: the body holds no script, no handler, no remote or
// javascript: address; every image is an inline part (cid:), and every
// part is shown.
func checkEmail(t *testing.T, path string) {
	t.Helper()
	msg, body, images := emailParts(t, path)
	if subj, err := new(mime.WordDecoder).DecodeHeader(msg.Header.Get("Subject")); err != nil || !strings.Contains(subj, "2 gates failed, 2 regressions") {
		t.Errorf("subject %q (%v)", subj, err)
	}
	doc, err := html.Parse(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	shown := map[string]bool{}
	for _, n := range descendants(doc) {
		if n.Type != html.ElementNode {
			continue
		}
		switch n.Data {
		case "script", "iframe", "object", "embed", "form", "link":
			t.Errorf("email body holds <%s>", n.Data)
		}
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "on") || strings.Contains(strings.ToLower(a.Val), "javascript:") {
				t.Errorf("email body: <%s %s=%q>", n.Data, a.Key, a.Val)
			}
			if (a.Key == "src" || a.Key == "href") && n.Data != "img" {
				t.Errorf("email body links out: <%s %s=%q>", n.Data, a.Key, a.Val)
			}
		}
		if n.Data == "img" {
			id, ok := strings.CutPrefix(attr(n, "src"), "cid:")
			if !ok || images[id] == nil {
				t.Errorf("image %q of the email is not one of its parts", attr(n, "src"))
			}
			shown[id] = true
		}
	}
	if len(images) == 0 || len(shown) != len(images) {
		t.Errorf("%d image parts, %d shown", len(images), len(shown))
	}
	for _, want := range []string{"Gates: 2 of 3 failed", "Against the baseline", "last value NaN"} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("email body lacks %q", want)
		}
	}
}

// descendants lists n's element and text nodes, depth first.
func descendants(n *html.Node) []*html.Node {
	var out []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		out = append(out, c)
		out = append(out, descendants(c)...)
	}
	return out
}

// --fail-on-warnings fails a report of damaged files (exit 3, the report
// written), and passes a clean one.
func TestFailOnWarnings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		dir  string
		code int
	}{{"tf1-estimator-truncated", exitGate}, {"keras-tf21-standard-profile", exitOK}} {
		site := filepath.Join(t.TempDir(), "site")
		code, stderr := runCLI(t, "-o", site, "--fail-on-warnings", "-quiet", sharedCorpus(t, tc.dir))
		if code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s", tc.dir, code, tc.code, stderr)
		}
		if tc.code == exitGate && !strings.Contains(stderr, "gate failed: any(warning) or any(damaged): holds for the report (warning: 2)") {
			t.Errorf("%s: stderr %s", tc.dir, stderr)
		}
		if _, err := os.Stat(filepath.Join(site, "summary.md")); err != nil {
			t.Errorf("%s: no report: %v", tc.dir, err)
		}
	}
}

// TestSummarySaysWhichValueIsWhich: a loss that diverges ends in values
// whose median (what the finding measures) differs from the last value
// (the Last column): summary.md's finding names each as what it is, and
// the Last column shows the last.
func TestSummarySaysWhichValueIsWhich(t *testing.T) {
	logs := filepath.Join(t.TempDir(), "logs")
	var events []*eventpb.Event
	for s := range int64(40) {
		v := 3 - 0.07*float32(s) // down to 0.27 at step 39...
		events = append(events, summaryEvent(s, 0, simpleValue("loss", v)))
	}
	for i, v := range []float32{2.25, 2.375, 2.5, 2.4375, 2.5625} { // ...then up: median 2.4375, last 2.5625
		events = append(events, summaryEvent(40+int64(i), 0, simpleValue("loss", v)))
	}
	writeEventFile(t, filepath.Join(logs, "a", "events.out.tfevents.1700000000.host"), events)
	site := filepath.Join(t.TempDir(), "site")
	if code, stderr := runCLI(t, "-o", site, "-quiet", logs); code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(site, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"ends at 2.4375, the median of its last 5 finite values (the last is 2.5625), far above its minimum",
		"| 2.5625 @ 44 |",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("summary.md lacks %q:\n%s", want, md)
		}
	}
}

// TestSummaryNumbersCarryNoJoiner: summary.md of a corpus whose run names
// hold dates and times (logs/image/20200409-142247/train) and whose files
// hold timestamps puts no zero-width joiner beside a digit: they copy as
// they read. A joiner goes only where GitHub would link (render's
// TestMdTextLeavesNumbersWhole).
func TestSummaryNumbersCarryNoJoiner(t *testing.T) {
	site := filepath.Join(t.TempDir(), "site")
	if code, stderr := runCLI(t, "-o", site, "-quiet", sharedCorpus(t, "keras-tf22-images")); code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	md, err := os.ReadFile(filepath.Join(site, "summary.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "logs/image/20200409-142247/train") {
		t.Errorf("summary.md does not name the run logs/image/20200409-142247/train as it is:\n%s", md)
	}
	if m := regexp.MustCompile(`.{0,20}(?:[0-9]\x{200d}|\x{200d}[0-9]).{0,20}`).FindString(string(md)); m != "" {
		t.Errorf("summary.md holds a joiner beside a digit: %q", m)
	}
}

// TestEmailEndsWithWhereTheReportIs: the email's last line links the
// report's pages when --charts-url names the site's charts/ (the site
// uploaded whole), and otherwise says where they are in a sentence, with
// no bare "index.html" to click.
func TestEmailEndsWithWhereTheReportIs(t *testing.T) {
	logs := filepath.Join(t.TempDir(), "logs")
	writeEventFile(t, filepath.Join(logs, "a", "events.out.tfevents.1700000000.host"),
		[]*eventpb.Event{summaryEvent(0, 0, simpleValue("loss", 1)), summaryEvent(1, 0, simpleValue("loss", 0.5))})
	lastParagraph := func(t *testing.T, extra ...string) (string, []string) {
		t.Helper()
		eml := filepath.Join(t.TempDir(), "mail.eml")
		args := append([]string{"-o", filepath.Join(t.TempDir(), "site"), "-quiet", "--email", eml}, extra...)
		if code, stderr := runCLI(t, append(args, logs)...); code != exitOK {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		_, body, _ := emailParts(t, eml)
		doc, err := html.Parse(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var last *html.Node
		for _, n := range descendants(doc) {
			if n.Type == html.ElementNode && n.Data == "p" {
				last = n
			}
		}
		if last == nil {
			t.Fatal("the email has no paragraph")
		}
		var text strings.Builder
		var hrefs []string
		for _, n := range descendants(last) {
			if n.Type == html.TextNode {
				text.WriteString(n.Data)
			}
			if n.Type == html.ElementNode && n.Data == "a" {
				hrefs = append(hrefs, attr(n, "href"))
			}
		}
		return text.String(), hrefs
	}
	text, hrefs := lastParagraph(t, "--charts-url", "https://ci.example/pr-12/charts/")
	if want := []string{"https://ci.example/pr-12/index.html", "https://ci.example/pr-12/summary.json"}; !slices.Equal(hrefs, want) ||
		!strings.Contains(text, "the report's pages") {
		t.Errorf("with --charts-url: last line %q links %q, want a link to each of %q", text, hrefs, want)
	}
	text, hrefs = lastParagraph(t)
	if len(hrefs) != 0 || !strings.Contains(text, "in the folder the report was written to (open its index.html)") {
		t.Errorf("without --charts-url: last line %q (links %q), want the sentence saying where the pages are", text, hrefs)
	}
}
