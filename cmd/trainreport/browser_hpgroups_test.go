package main

// Browser tests of the scalars page's groups by hyperparameter and of the
// baseline drawn on its charts (--baseline), checked against the values
// the tests wrote.

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
	"google.golang.org/protobuf/types/known/structpb"
)

type hpSeries struct {
	ID, Name, Color, Line string
	Data                  [][]*float64
	Marks                 []struct {
		Y          float64
		Name, Line string
	}
}

type hpChart struct {
	Legend []string
	Series []hpSeries
}

func readHPChart(t *testing.T, tb *tab, tag string) hpChart {
	t.Helper()
	var c hpChart
	if err := json.Unmarshal([]byte(eval[string](tb, pageJS("hpgroups.js", "chart", tag))), &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func (c hpChart) series(id string) *hpSeries {
	for i := range c.Series {
		if c.Series[i].ID == id {
			return &c.Series[i]
		}
	}
	return nil
}

// trialLoss is the loss writeTrials writes for trial i at step s of
// steps, as the page reads it back (a float32 written in its shortest
// decimal form, read as a float64); ok is false past the trial's last
// step.
func trialLoss(i, s, steps int) (v float64, ok bool) {
	n := steps
	if i%10 == 0 {
		n = steps / 2
	}
	if s >= n {
		return 0, false
	}
	floor := 0.1 + float64(i%97)/100
	loss := floor + math.Exp(-3*float64(s)/float64(steps))
	switch {
	case s == n-1 && i%50 == 0:
		loss = math.NaN()
	case s == n-1 && i%20 == 0:
		loss = 1e6
	}
	if math.IsNaN(loss) {
		return loss, true
	}
	v, _ = strconv.ParseFloat(strconv.FormatFloat(float64(float32(loss)), 'g', -1, 32), 64)
	return v, true
}

func TestBrowserGroupsByHyperparameter(t *testing.T) {
	t.Parallel()
	const runs, steps = 12, 20
	logs := t.TempDir()
	writeTrials(t, logs, runs, steps)
	r := buildReport(t, logs)
	browser := startBrowser(t)
	shots := screenshotDir(t)
	for _, c := range []struct{ name, url string }{
		{"site", fileURL(filepath.Join(r.site, "scalars.html"), "smoothing=0")},
		{"single-file", fileURL(r.single, "page=scalars&smoothing=0")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.url)
			if cols := eval[[]string](tb, pageJS("hpgroups.js", "columns")); !slices.Equal(cols, []string{"learning_rate", "optimizer"}) {
				t.Fatalf("Group by lists %q, want learning_rate and optimizer", cols)
			}
			if ch := readHPChart(t, tb, "loss"); ch.series("group:0") != nil {
				t.Fatal("a group is drawn before any column is checked")
			}
			eval[bool](tb, pageJS("hpgroups.js", "check", "optimizer"))
			waitFor(tb, `location.hash.includes("hp=optimizer")`, stepTimeout, "hp=optimizer in the URL")
			ch := readHPChart(t, tb, "loss")
			// Groups in order of their values, each named by its value
			// and size in the legend.
			members := map[string][]int{"adam": {0, 3, 6, 9}, "rmsprop": {2, 5, 8, 11}, "sgd": {1, 4, 7, 10}}
			var want []string
			for _, v := range []string{"adam", "rmsprop", "sgd"} {
				want = append(want, fmt.Sprintf("optimizer=%s · mean ± std of 4 runs", v))
			}
			if !slices.Equal(ch.Legend, want) {
				t.Fatalf("legend %q, want %q", ch.Legend, want)
			}
			colors := map[string]bool{}
			for gi, v := range []string{"adam", "rmsprop", "sgd"} {
				g := ch.series(fmt.Sprint("group:", gi))
				if g == nil || g.Name != want[gi] {
					t.Fatalf("group %d: %+v, want %q", gi, g, want[gi])
				}
				colors[g.Color] = true
				// The mean of the members' values at each step: a member
				// counts up to its last finite value.
				var wantMean []float64
				for s := range steps {
					var sum float64
					var n int
					for _, i := range members[v] {
						if x, ok := trialLoss(i, s, steps); ok && !math.IsNaN(x) {
							sum, n = sum+x, n+1
						}
					}
					if n > 0 {
						wantMean = append(wantMean, sum/float64(n))
					}
				}
				if len(g.Data) != len(wantMean) {
					t.Fatalf("group %s: %d points, want %d", v, len(g.Data), len(wantMean))
				}
				for s, m := range wantMean {
					p := g.Data[s]
					if p[0] == nil || *p[0] != float64(s) || p[1] == nil || !near(*p[1], m) {
						t.Errorf("group %s, step %d: drawn %v, want mean %g", v, s, derefAll(p), m)
					}
				}
			}
			if len(colors) != 3 {
				t.Errorf("the three groups share colours: %v", colors)
			}
			// No run is drawn alone: every one has an optimizer.
			if ch.series("run:0") != nil {
				t.Error("a run is drawn alone beside the groups")
			}
			tb.screenshot(shots, "hpgroups-optimizer-"+c.name)

			// A numeric column instead: a group per value, coloured along
			// the gradient from its lowest value.
			eval[bool](tb, pageJS("hpgroups.js", "check", "optimizer"))
			eval[bool](tb, pageJS("hpgroups.js", "check", "learning_rate"))
			waitFor(tb, `location.hash.includes("hp=learning_rate") && !location.hash.includes("optimizer")`, stepTimeout, "hp=learning_rate in the URL")
			ch = readHPChart(t, tb, "loss")
			if len(ch.Legend) != runs || !strings.HasPrefix(ch.Legend[0], "learning_rate=0.0001 · ") {
				t.Fatalf("legend by learning rate: %q", ch.Legend)
			}
			first, last := ch.series("group:0"), ch.series(fmt.Sprint("group:", runs-1))
			if first == nil || last == nil || first.Color != "#0d0887" || last.Color == first.Color {
				t.Errorf("gradient colours: lowest %+v, highest %+v", first, last)
			}
			tb.screenshot(shots, "hpgroups-lr-"+c.name)
		})
	}
}

func derefAll(p []*float64) []any {
	out := make([]any, len(p))
	for i, v := range p {
		if v != nil {
			out[i] = *v
		}
	}
	return out
}

func TestBrowserBaselineOnTheCharts(t *testing.T) {
	t.Parallel()
	const steps = 20
	base := t.TempDir()
	writeTrials(t, base, 3, steps)
	logs := t.TempDir()
	writeTrials(t, logs, 4, steps)
	baseReport := buildReport(t, base)
	fromDir := buildReport(t, logs, "--baseline", base)
	fromSummary := buildReport(t, logs, "--baseline", filepath.Join(baseReport.site, "summary.json"))
	browser := startBrowser(t)
	shots := screenshotDir(t)

	t.Run("log directory", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(fromDir.site, "scalars.html"), "smoothing=0"))
		ch := readHPChart(t, tb, "loss")
		for i := range 3 {
			s := ch.series(fmt.Sprint("base:", i))
			name := fmt.Sprintf("baseline: trial%03d", i)
			if s == nil || s.Name != name || s.Line != "dashed" {
				t.Fatalf("baseline series %d: %+v, want %q dashed", i, s, name)
			}
			if !slices.Contains(ch.Legend, name) {
				t.Errorf("legend %q does not name %q", ch.Legend, name)
			}
			var n int
			for st := range steps {
				v, ok := trialLoss(i, st, steps)
				if !ok {
					break
				}
				n++
				if st >= len(s.Data) {
					break
				}
				p := s.Data[st]
				switch {
				case p[0] == nil || *p[0] != float64(st):
					t.Errorf("%s, point %d: x %v", name, st, derefAll(p))
				case math.IsNaN(v) && p[1] != nil:
					t.Errorf("%s, step %d: NaN drawn as %v", name, st, *p[1])
				case !math.IsNaN(v) && (p[1] == nil || *p[1] != v):
					t.Errorf("%s, step %d: drawn %v, want %g", name, st, derefAll(p), v)
				}
			}
			if len(s.Data) != n {
				t.Errorf("%s: %d points drawn, want %d", name, len(s.Data), n)
			}
		}
		if ch.series("base:3") != nil || ch.series("baseref") != nil {
			t.Error("more than the baseline's three runs, or reference lines, drawn from a log directory")
		}
		// The downloads hold the baseline's lines too, marked as such.
		checkBaselineDownloads(t, tb, ch, steps)
		tb.screenshot(shots, "baseline-dir")
		// The overview compares the runs of both.
		tb = openTab(t, browser, fileURL(filepath.Join(fromDir.site, "index.html"), ""))
		if txt := eval[string](tb, `document.body.textContent`); !strings.Contains(txt, "trial002") || !strings.Contains(strings.ToLower(txt), "baseline") {
			t.Error("the overview does not compare with the baseline")
		}
	})

	t.Run("summary.json", func(t *testing.T) {
		raw, err := os.ReadFile(filepath.Join(baseReport.site, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		var sum struct {
			Metrics map[string]map[string]struct {
				Last struct{ Value any } // a number, or "NaN"
				Min  *struct{ Value any }
			}
		}
		if err := json.Unmarshal(raw, &sum); err != nil {
			t.Fatal(err)
		}
		tb := openTab(t, browser, fileURL(filepath.Join(fromSummary.site, "scalars.html"), "smoothing=0"))
		ch := readHPChart(t, tb, "loss")
		ref := ch.series("baseref")
		if ref == nil {
			t.Fatal("no reference lines drawn from the baseline's summary.json")
		}
		if ch.series("base:0") != nil {
			t.Error("a baseline line drawn from a summary.json")
		}
		marks := map[string]float64{}
		for _, m := range ref.Marks {
			marks[m.Name] = m.Y
		}
		var n int
		for run, tags := range sum.Metrics {
			m, ok := tags["loss"]
			if !ok {
				continue
			}
			for _, w := range []struct {
				what string
				v    float64
				ok   bool
			}{{"last", jsonNumber(m.Last.Value), !math.IsNaN(jsonNumber(m.Last.Value))}, {"best", minValue(m.Min), m.Min != nil}} {
				if !w.ok {
					continue
				}
				n++
				key := fmt.Sprintf("baseline: %s %s ", run, w.what)
				found := false
				for name, y := range marks {
					if strings.HasPrefix(name, key) {
						found = true
						if y != w.v {
							t.Errorf("%s: line at %g, the summary says %g", key, y, w.v)
						}
					}
				}
				if !found {
					t.Errorf("no reference line %q among %v", key, marks)
				}
			}
		}
		if n == 0 || len(ref.Marks) != n {
			t.Errorf("%d reference lines, want %d", len(ref.Marks), n)
		}
		tb.screenshot(shots, "baseline-summary")
	})
}

func minValue(p *struct{ Value any }) float64 {
	if p == nil {
		return math.NaN()
	}
	return jsonNumber(p.Value)
}

// jsonNumber is a summary.json value: a number, or NaN for the string
// summary.json writes a non-finite value as.
func jsonNumber(v any) float64 {
	if f, ok := v.(float64); ok {
		return f
	}
	return math.NaN()
}

// checkBaselineDownloads checks that the CSV and JSON downloads of the
// loss chart hold each of the baseline's 3 runs, every point it draws,
// marked as the baseline's, after the report's own runs.
func checkBaselineDownloads(t *testing.T, tb *tab, ch hpChart, steps int) {
	t.Helper()
	csvDl := eval[sweepDownload](tb, pageJS("scalars.js", "download", "loss", "csv"))
	recs, err := csv.NewReader(strings.NewReader(stripComment(csvDl.Text))).ReadAll()
	if err != nil {
		t.Fatalf("CSV %q: %v", csvDl.Text, err)
	}
	if len(recs) == 0 || !slices.Equal(recs[0], []string{"run", "step", "wall_time", "value", "source"}) {
		t.Fatalf("CSV header %v, want a source column", recs[:min(1, len(recs))])
	}
	base := map[string][]string{} // run -> values, as written
	for _, r := range recs[1:] {
		if r[4] == "baseline" {
			base[r[0]] = append(base[r[0]], r[3])
		} else if r[4] != "report" {
			t.Errorf("CSV row %v: source %q", r, r[4])
		}
	}
	jsonDl := eval[sweepDownload](tb, pageJS("scalars.js", "download", "loss", "json"))
	var doc struct {
		Note     string
		Baseline struct {
			Source string
			Runs   map[string][][3]any
		}
	}
	if err := json.Unmarshal([]byte(jsonDl.Text), &doc); err != nil {
		t.Fatalf("JSON %q: %v", jsonDl.Text, err)
	}
	for i := range 3 {
		run := fmt.Sprintf("trial%03d", i)
		drawn := ch.series(fmt.Sprint("base:", i))
		if drawn == nil {
			t.Fatalf("no baseline line of %s", run)
		}
		if len(base[run]) != len(drawn.Data) || len(doc.Baseline.Runs[run]) != len(drawn.Data) {
			t.Errorf("baseline %s: %d CSV rows and %d JSON points, want the %d drawn", run, len(base[run]), len(doc.Baseline.Runs[run]), len(drawn.Data))
			continue
		}
		for k, p := range drawn.Data {
			if p[1] == nil {
				continue // a NaN, drawn as a gap
			}
			if got, _ := strconv.ParseFloat(base[run][k], 64); got != *p[1] {
				t.Errorf("baseline %s, point %d: CSV value %s, drawn %g", run, k, base[run][k], *p[1])
			}
			if got, _ := doc.Baseline.Runs[run][k][2].(float64); got != *p[1] {
				t.Errorf("baseline %s, point %d: JSON value %v, drawn %g", run, k, doc.Baseline.Runs[run][k][2], *p[1])
			}
		}
	}
	if doc.Baseline.Source == "" || !strings.Contains(doc.Note, "baseline") || !strings.Contains(csvDl.Title, "baseline") {
		t.Errorf("JSON source %q, note %q, CSV title %q: the baseline is not named", doc.Baseline.Source, doc.Note, csvDl.Title)
	}
}

// stripComment drops a CSV download's first line when it is a # note.
func stripComment(s string) string {
	if strings.HasPrefix(s, "#") {
		if _, rest, ok := strings.Cut(s, "\n"); ok {
			return rest
		}
	}
	return s
}

// TestBrowserHParamGroupsKeepSubsetsApart groups sessions by one numeric
// hyperparameter when each session logs a train and a validation run (as
// Keras does): a value's two groups share the value's colour and are told
// apart by their lines, the train group's solid and the validation
// group's dashed, in the chart and in its legend.
func TestBrowserHParamGroupsKeepSubsetsApart(t *testing.T) {
	t.Parallel()
	logs := t.TempDir()
	for i := range 4 {
		session := fmt.Sprintf("trial%d", i)
		writeEventFile(t, filepath.Join(logs, session, "events.out.tfevents.1700000000.host"), []*eventpb.Event{
			summaryEvent(0, 0, hparamsSummary(t, "_hparams_/session_start_info", &eventpb.HParamsPluginData{
				Data: &eventpb.HParamsPluginData_SessionStartInfo{SessionStartInfo: &eventpb.SessionStartInfo{
					Hparams: map[string]*structpb.Value{"lr": structpb.NewNumberValue([]float64{0.001, 0.1}[i%2])}, StartTimeSecs: 1.7e9}}})),
		})
		for k, subset := range []string{"train", "validation"} {
			var evs []*eventpb.Event
			for s := range 5 {
				evs = append(evs, summaryEvent(int64(s), 0, simpleValue("loss", float32(1+k+i)/float32(s+1))))
			}
			writeEventFile(t, filepath.Join(logs, session, subset, "events.out.tfevents.1700000001.host"), evs)
		}
	}
	r := buildReport(t, logs)
	browser := startBrowser(t)
	shots := screenshotDir(t)
	tb := openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), "smoothing=0"))
	eval[bool](tb, pageJS("hpgroups.js", "check", "lr"))
	waitFor(tb, `location.hash.includes("hp=lr")`, stepTimeout, "hp=lr in the URL")
	eval[bool](tb, `(() => { const l = document.querySelector('form[data-controls] input[name="legend"]'); if (l && !l.checked) l.click(); return true; })()`)
	ch := readHPChart(t, tb, "loss")
	type look struct{ color, line string }
	got := map[string]look{}
	for _, s := range ch.Series {
		if strings.HasPrefix(s.ID, "group:") {
			got[strings.SplitN(s.Name, " · mean", 2)[0]] = look{s.Color, s.Line}
		}
	}
	for _, lr := range []string{"0.001", "0.1"} {
		train, val := got["lr="+lr+" · train"], got["lr="+lr+" · validation"]
		if train.color == "" || val.color == "" {
			t.Fatalf("groups %v: want lr=%s's train and validation", got, lr)
		}
		if train.color != val.color || train.line != "solid" || val.line != "dashed" {
			t.Errorf("lr=%s: train %+v, validation %+v: want one colour, solid and dashed", lr, train, val)
		}
	}
	if got["lr=0.001 · train"].color == got["lr=0.1 · train"].color {
		t.Errorf("both values drawn in %s", got["lr=0.1 · train"].color)
	}
	dashes := eval[[]string](tb, `[...document.querySelectorAll('figure.chart-card[data-tag="loss"] ul.chart-legend li')].map(li => li.textContent + ":" + (li.querySelector('.legend-dot').style.borderTopStyle || "solid"))`)
	for _, want := range []string{"validation · mean ± std of 2 runs:dashed", "train · mean ± std of 2 runs:solid"} {
		if !slices.ContainsFunc(dashes, func(d string) bool { return strings.HasSuffix(d, want) }) {
			t.Errorf("legend %q has no entry ending %q", dashes, want)
		}
	}
	tb.screenshot(shots, "hpgroups-subsets")
	tb.assertClean()
}
