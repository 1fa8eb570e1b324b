package anomaly

import (
	"context"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/internal/analysis/tensorstat"
)

// points makes a scalar series of vals at steps 0, 1, 2, ...
func points(vals ...float64) []model.Point {
	pts := make([]model.Point, len(vals))
	for i, v := range vals {
		pts[i] = model.Point{Step: int64(i), Value: v, WallTime: float64(i)}
	}
	return pts
}

// decay is a loss that falls from 2 towards 0.1 with a small, fixed
// wobble: what a healthy loss looks like to the rules.
func decay(n int) []float64 {
	vals := make([]float64, n)
	for i := range vals {
		vals[i] = 0.1 + 1.9*math.Exp(-float64(i)/30) + 0.01*math.Sin(float64(i)*1.7)
	}
	return vals
}

func scalarReport(tag string, vals []float64) *model.Report {
	return &model.Report{Runs: []*model.Run{{Name: "train", Scalars: []*model.Scalar{{Tag: tag, Points: points(vals...)}}}}}
}

// rulesOf returns rule -> (step, count) of what Find finds.
func rulesOf(t *testing.T, rep *model.Report) map[string][2]int64 {
	t.Helper()
	got := map[string][2]int64{}
	for _, a := range Find(context.Background(), rep, DefaultThresholds) {
		if _, dup := got[a.Rule]; dup {
			t.Errorf("rule %s fired twice on one series", a.Rule)
		}
		got[a.Rule] = [2]int64{a.Step, int64(a.Count)}
		if a.Message == "" || a.Detail == "" {
			t.Errorf("%s: no message", a.Rule)
		}
	}
	return got
}

func TestScalarRules(t *testing.T) {
	nan := math.NaN()
	spiky := decay(200)
	spiky[90] *= 10
	spiky[150] += 5
	diverging := decay(200)
	for i := 120; i < 200; i++ {
		diverging[i] = diverging[119] + float64(i-119)*0.05 // back up by 4 after falling 1.9
	}
	overfit := decay(200) // a validation loss creeping up by a tenth of its minimum
	for i := 150; i < 200; i++ {
		overfit[i] = overfit[149] + float64(i-149)*0.0002
	}
	lrSteps := make([]float64, 200) // a step schedule: levels, no spikes
	for i := range lrSteps {
		lrSteps[i] = 0.1 / math.Pow(10, float64(i/50))
	}
	lrZero := []float64{0, 0.1, 0.1, 0.1, 0, 0, 0, 0.1}
	flat := make([]float64, 40)
	for i := range flat {
		flat[i] = 2.302585 + 1e-5*float64(i%3)
	}
	for _, tc := range []struct {
		name, tag string
		vals      []float64
		want      map[string][2]int64
	}{
		{"healthy loss", "loss", decay(200), map[string][2]int64{}},
		{"first NaN", "loss", append(decay(30), 0.5, nan, math.Inf(1), 0.4), map[string][2]int64{"scalar.nonfinite": {31, 2}}},
		{"two spikes", "loss", spiky, map[string][2]int64{"scalar.spike": {90, 2}}},
		{"diverged", "train/loss", diverging, map[string][2]int64{"scalar.diverged": {199, 1}}},
		{"overfitting is not divergence", "val_loss", overfit, map[string][2]int64{}},
		{"a step schedule has no spikes", "lr", lrSteps, map[string][2]int64{}},
		{"plateau", "loss", flat, map[string][2]int64{"scalar.plateau": {0, 40}}},
		{"flat accuracy is no plateau rule's", "accuracy", flat, map[string][2]int64{}},
		{"learning rate zero", "lr-Adam", lrZero, map[string][2]int64{"scalar.lr_zero": {4, 3}}},
		{"warm-up from zero", "learning_rate", []float64{0, 0.01, 0.1, 0.1, 0}, map[string][2]int64{}},
		{"zero but not a learning rate", "clr_loss_weight", []float64{0, 0, 0, 0}, map[string][2]int64{}},
		{"always zero", "optim/lr", []float64{0, 0}, map[string][2]int64{"scalar.lr_zero": {0, 2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := rulesOf(t, scalarReport(tc.tag, tc.vals))
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for rule, w := range tc.want {
				if got[rule] != w {
					t.Errorf("%s: (step, count) = %v, want %v", rule, got[rule], w)
				}
			}
		})
	}
}

func histogramReport(entries ...model.HistogramEntry) *model.Report {
	return &model.Report{Runs: []*model.Run{{Name: "r", Histograms: []*model.Histogram{{Tag: "w", Entries: entries}}}}}
}

func hist(step int64, lo, hi float64) model.HistogramEntry {
	return model.HistogramEntry{Step: step, Summary: model.Summary{Min: lo, Max: hi, Count: 100, Sum: (lo + hi) * 50},
		Buckets: []model.Bucket{{Left: lo, Right: hi, Count: 100}}}
}

func TestHistogramRules(t *testing.T) {
	for _, tc := range []struct {
		name    string
		entries []model.HistogramEntry
		want    map[string][2]int64
	}{
		{"healthy", []model.HistogramEntry{hist(0, -1, 1), hist(1, -1.2, 1.1), hist(2, -1.3, 1.2)}, map[string][2]int64{}},
		{"NaN appears", []model.HistogramEntry{hist(0, -1, 1), hist(1, math.NaN(), 1), hist(2, math.NaN(), math.NaN())}, map[string][2]int64{"histogram.nonfinite": {1, 2}}},
		{"zero at the end", []model.HistogramEntry{hist(0, -1, 1), hist(5, 0, 0)}, map[string][2]int64{"histogram.all_zero": {5, 100}}},
		{"zero at init only", []model.HistogramEntry{hist(0, 0, 0), hist(5, -0.1, 0.1)}, map[string][2]int64{}},
		{"constant", []model.HistogramEntry{hist(0, 0.9, 1.1), hist(5, 1, 1)}, map[string][2]int64{"histogram.constant": {5, 100}}},
		{"exploding", []model.HistogramEntry{hist(0, -1, 1), hist(1, -10, 10), hist(2, -5000, 2)}, map[string][2]int64{"histogram.exploding": {2, 1}}},
		{"vanishing", []model.HistogramEntry{hist(0, -1, 1), hist(1, -1e-4, 1e-4)}, map[string][2]int64{"histogram.vanishing": {1, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := rulesOf(t, histogramReport(tc.entries...))
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for rule, w := range tc.want {
				if got[rule] != w {
					t.Errorf("%s: (step, count) = %v, want %v", rule, got[rule], w)
				}
			}
		})
	}
}

func TestRunRules(t *testing.T) {
	run := func(name string, last int64) *model.Run {
		return &model.Run{Name: name, Logdir: "d", Path: name, Scalars: []*model.Scalar{{Tag: "loss", Points: points(make([]float64, last+1)...)}}}
	}
	short := run("c", 30)
	short.Files = []model.File{{Rel: "c/a", Status: "ok"}, {Rel: "c/b", Status: "truncated"}}
	restarted := run("b", 100)
	restarted.Attempts = []model.Attempt{{Superseded: 5}, {}}
	rep := &model.Report{Runs: []*model.Run{run("a", 100), restarted, short, run("d", 90)}}
	want := map[string]string{"run.stopped_early": "c", "run.restarted": "b", "run.damaged_files": "c"}
	got := map[string]string{}
	for _, a := range Find(context.Background(), rep, DefaultThresholds) {
		if a.Kind == result.KindRun {
			got[a.Rule] += a.Run
		}
	}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s fired on %q, want %q", k, got[k], v)
		}
	}
}

// Every rule Find can name is in Rules, which docs/ANOMALIES.md documents.
// TestRulesListed checks that docs/ANOMALIES.md documents every rule
// Rules returns, with its severity, and no rule that is not there: a
// bullet "- `scalar.spike` (warning): ..." per rule, "`*.nonfinite`" standing
// for the rule of that name of each kind the doc names as "`histogram.*`".
func TestRulesListed(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "ANOMALIES.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	var kinds []string
	for _, m := range regexp.MustCompile("`([a-z]+)\\.\\*`").FindAllStringSubmatch(doc, -1) {
		kinds = append(kinds, m[1])
	}
	documented := map[string]result.Severity{}
	for _, m := range regexp.MustCompile("(?m)^- `([a-z*]+)\\.([a-z_]+)` \\((error|warning)\\)").FindAllStringSubmatch(doc, -1) {
		prefixes := []string{m[1]}
		if m[1] == "*" {
			prefixes = kinds
		}
		for _, p := range prefixes {
			documented[p+"."+m[2]] = result.Severity(m[3])
		}
	}
	rules := map[string]result.Severity{}
	for _, r := range Rules() {
		if _, ok := rules[r.Name]; ok {
			t.Errorf("rule %s listed twice", r.Name)
		}
		rules[r.Name] = r.Severity
		if sev, ok := documented[r.Name]; !ok {
			t.Errorf("rule %s is not in docs/ANOMALIES.md", r.Name)
		} else if sev != r.Severity {
			t.Errorf("rule %s: %s in docs/ANOMALIES.md, %s in Rules", r.Name, sev, r.Severity)
		}
	}
	for name := range documented {
		if _, ok := rules[name]; !ok {
			t.Errorf("docs/ANOMALIES.md documents %s, which Rules does not return", name)
		}
	}
}

// Every entry of Rules carries the check of its kind and no other: the
// runner of that kind is the only one that runs it.
func TestEveryRuleHasTheCheckOfItsKind(t *testing.T) {
	for _, r := range Rules() {
		has := map[result.Kind]bool{
			result.KindScalar:    r.scalar != nil,
			result.KindHistogram: r.steps != nil,
			result.KindTensor:    r.steps != nil,
			result.KindException: r.steps != nil,
			result.KindRun:       r.run != nil,
		}
		checks := 0
		for _, c := range []bool{r.scalar != nil, r.steps != nil, r.run != nil} {
			if c {
				checks++
			}
		}
		if !has[r.Kind] || checks != 1 {
			t.Errorf("rule %s of kind %q: scalar %v, steps %v, run %v check", r.Name, r.Kind, r.scalar != nil, r.steps != nil, r.run != nil)
		}
	}
}

// fixed returns r with a check, of r's signature, that fires on anything
// when fires is set and never otherwise.
func fixed(r Rule, fires bool) Rule {
	var a *result.Anomaly
	if fires {
		a = &result.Anomaly{Detail: "fired"}
	}
	switch {
	case r.scalar != nil:
		r.scalar = func(*scalarSeries, Thresholds) *result.Anomaly { return a }
	case r.steps != nil:
		r.steps = func([]stepStats, Thresholds) *result.Anomaly { return a }
	case r.run != nil:
		r.run = func(*model.Run, siblings, Thresholds) *result.Anomaly { return a }
	}
	return r
}

// Each rule of the table is run: made to fire on anything, the others
// never, it is the one finding of find on a report holding a series of
// every kind, with its name, kind and severity. A rule no runner
// dispatches fails here.
func TestEveryRuleInTheTableRuns(t *testing.T) {
	tensor := &model.Tensor{Tag: "t", Entries: []model.TensorEntry{{Step: 1}}}
	exc := &model.Exception{Tag: "x", Entries: []model.ExceptionEntry{{Step: 1}}}
	one := TensorSteps{Steps: []int64{1}, Stats: []tensorstat.Stats{tensorstat.Of([]float64{1, 2})}}
	d := &Decoded{Tensors: map[*model.Tensor]TensorSteps{tensor: one}, Exceptions: map[*model.Exception]TensorSteps{exc: one}}
	rep := &model.Report{Runs: []*model.Run{{Name: "r",
		Scalars:    []*model.Scalar{{Tag: "s", Points: points(1, 2, 3)}},
		Histograms: []*model.Histogram{{Tag: "h", Entries: []model.HistogramEntry{hist(1, -1, 1)}}},
		Tensors:    []*model.Tensor{tensor},
		Exceptions: []*model.Exception{exc},
	}}}
	tags := map[result.Kind]string{result.KindScalar: "s", result.KindHistogram: "h", result.KindTensor: "t", result.KindException: "x", result.KindRun: ""}
	rules := Rules()
	if len(rules) == 0 {
		t.Fatal("no rule")
	}
	for i, r := range rules {
		t.Run(r.Name, func(t *testing.T) {
			table := Rules()
			for j := range table {
				table[j] = fixed(table[j], j == i)
			}
			as := find(context.Background(), rep, DefaultThresholds, d, table, nil)
			if len(as) != 1 {
				t.Fatalf("found %v, want one finding of %s", as, r.Name)
			}
			a := as[0]
			if a.Rule != r.Name || a.Kind != r.Kind || a.Severity != r.Severity || a.Run != "r" || a.Tag != tags[r.Kind] || a.Message == "" {
				t.Errorf("found %+v, want rule %s (%s, %s) on tag %q of run r", a, r.Name, r.Kind, r.Severity, tags[r.Kind])
			}
		})
	}
}

// The rules on tensors and exception tensors look at the statistics of
// each step's values.
func TestTensorRules(t *testing.T) {
	steps := func(vals ...[]float64) []stepStats {
		out := make([]stepStats, len(vals))
		for i, v := range vals {
			out[i] = fromTensorStats(int64(10*i), tensorstat.Of(v))
		}
		return out
	}
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct {
		name  string
		steps []stepStats
		want  map[string][2]int64
	}{
		{"healthy", steps([]float64{-1, 0, 1}, []float64{-0.5, 0.2, 0.7}), map[string][2]int64{}},
		{"Inf then NaN", steps([]float64{1, 2}, []float64{1, inf}, []float64{nan, 1}), map[string][2]int64{"tensor.nonfinite": {10, 2}}},
		{"all zero", steps([]float64{0.1, -0.2}, []float64{0, 0, 0}), map[string][2]int64{"tensor.all_zero": {10, 3}}},
		{"constant", steps([]float64{0.1, -0.2}, []float64{7, 7}), map[string][2]int64{"tensor.constant": {10, 2}}},
		{"one value is no constant", steps([]float64{0.1}, []float64{7}), map[string][2]int64{}},
		{"exploding", steps([]float64{0.01, -0.02}, []float64{1, -30}), map[string][2]int64{"tensor.exploding": {10, 1}}},
		{"vanishing", steps([]float64{1, -2}, []float64{1e-4, -1e-3}, []float64{1e-6, 1e-7}), map[string][2]int64{"tensor.vanishing": {20, 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string][2]int64{}
			for _, a := range stepRules(tableOf(Rules()).steps[result.KindTensor], "r", "w", tc.steps, DefaultThresholds) {
				got[a.Rule] = [2]int64{a.Step, int64(a.Count)}
			}
			if !maps.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// The exception fixture (collect/testdata/oneflow-exceptions) holds one
// NaN step in one of its two OneFlow gradients and a TS-VIS gradient all
// zero at its last step, and nothing else the rules look for.
func TestExceptionFixture(t *testing.T) {
	rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "exc", Path: filepath.Join("..", "..", "..", "collect", "testdata", "oneflow-exceptions", "logs")}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Close()
	as := Find(context.Background(), rep, DefaultThresholds)
	if len(as) != 2 {
		t.Fatalf("found %+v, want 2", as)
	}
	if a := as[0]; a.Rule != "exception.nonfinite" || a.Run != "." || a.Tag != "conv1.weight.grad" || a.Step != 10 || a.Count != 1 || !math.IsNaN(a.Value) {
		t.Errorf("found %+v, want exception.nonfinite on conv1.weight.grad at step 10", a)
	}
	if a := as[1]; a.Rule != "exception.all_zero" || a.Run != "tsvis" || a.Tag != "layer2.grad" || a.Step != 7 || a.Count != 60 {
		t.Errorf("found %+v, want exception.all_zero on layer2.grad at step 7", a)
	}
}
