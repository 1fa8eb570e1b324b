package gate

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/internal/summary"
)

func readSummary(t *testing.T, name string) *summary.File {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	f, err := summary.Read(b)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestEval evaluates expressions against a fixed summary.json (and a
// baseline), each with the verdict and the runs it holds for.
func TestEval(t *testing.T) {
	cur := readSummary(t, "testdata/summary.json")
	base := readSummary(t, "testdata/baseline.json")
	for _, tc := range []struct {
		expr   string
		failed bool
		runs   []string // where it held; "" for the report
		err    string   // a part of the reason it cannot be evaluated
		noBase bool
	}{
		{expr: "loss.last > 0.5"}, // b's last is NaN: no comparison with NaN holds
		{expr: "loss.last > 0.39", failed: true, runs: []string{"a"}},
		{expr: "not isfinite(loss.last)", failed: true, runs: []string{"b"}},
		{expr: "isnan(loss.last)", failed: true, runs: []string{"b"}},
		{expr: "accuracy.max < 0.9", failed: true, err: `"accuracy" could be train/accuracy or val/accuracy`},
		{expr: `"train/accuracy".max < 0.9`, failed: true, runs: []string{"b"}},
		{expr: `run("a")."train/accuracy".max < 0.9`},
		{expr: `run("b")."train/accuracy".max < 0.9`, failed: true, runs: []string{""}},
		{expr: "any(anomaly)", failed: true, runs: []string{""}},
		{expr: `any(anomaly("scalar.diverged"))`},
		{expr: `count(anomaly("scalar.nonfinite")) > 0`, failed: true, runs: []string{""}},
		{expr: "any(damaged)", failed: true, runs: []string{""}},
		{expr: "count(warning) > 1"},
		{expr: "loss.last > baseline.loss.last * 1.02", failed: true, runs: []string{"a"}},
		{expr: "loss.best > baseline.loss.best * 1.1", failed: true, runs: []string{"b"}},
		{expr: "loss.step < baseline.loss.step", failed: true, runs: []string{"b"}},
		{expr: "loss.last > baseline.loss.last", failed: true, noBase: true, err: "no --baseline was given"},
		{expr: "max(loss.max) > 2", failed: true, runs: []string{""}},
		{expr: "mean(loss.min) > 0.5"}, // (0.35 + 0.6) / 2
		{expr: "mean(loss.min) > 0.47", failed: true, runs: []string{""}},
		{expr: `all("train/accuracy".last > 0.5)`, failed: true, runs: []string{""}},
		{expr: `all("train/accuracy".last > 0.8)`},
		{expr: "count(loss.last < 1) >= 2"}, // NaN < 1 does not hold
		{expr: "nope.last > 1", failed: true, err: `no tag "nope"`},
		{expr: "lr.best < 0", failed: true, err: "which way"},
		{expr: `"grad norm".min > 0`, failed: true, err: "no finite value"},
		{expr: `"grad norm".non_finite > 0`, failed: true, runs: []string{"c d"}},
		{expr: "-loss.min * 2 + 1 > 0.2 and not (loss.points == 50)", failed: true, runs: []string{"a"}},
		{expr: "loss.min_step == 30 || loss.max_step != 0", failed: true, runs: []string{"b"}},
		{expr: `run("zz").loss.last > 0`, failed: true, err: `no metrics of run "zz"`},
		{expr: "loss.last > 0.3 or any(anomaly)", failed: true, runs: []string{"a", "b"}},
		{expr: `loss.last > 0.3 and any(anomaly("scalar.nonfinite"))`}, // a has no nonfinite anomaly; b's NaN > 0.3 fails
		{expr: "abs(loss.last - baseline.loss.last) >= 0.02", failed: true, runs: []string{"a"}},
		{expr: "any(regression)", failed: true, runs: []string{""}},
		{expr: "count(regression) > 1"},
		{expr: "loss.points > 0 and any(regression)", failed: true, runs: []string{"a"}}, // per run: a's own
	} {
		g, err := Parse(tc.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.expr, err)
			continue
		}
		b := base
		if tc.noBase {
			b = nil
		}
		res := g.Eval(cur, b)
		var runs []string
		for _, h := range res.Held {
			runs = append(runs, h.Run)
		}
		if res.Failed != tc.failed || !slices.Equal(runs, tc.runs) || !strings.Contains(res.Err, tc.err) || (tc.err == "") != (res.Err == "") {
			t.Errorf("%s: got failed=%v runs=%q err=%q, want failed=%v runs=%q err~%q\n%s", tc.expr, res.Failed, runs, res.Err, tc.failed, tc.runs, tc.err, res)
		}
	}
}

// TestSyntaxErrors checks each error's column.
func TestSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		expr string
		col  int
		msg  string
	}{
		{"loss.last >", 12, "want a number"},
		{"loss.lst > 1", 6, "unknown field"},
		{"loss.last > 0.5 extra", 17, "unexpected"},
		{"loss.last", 1, "a gate is a condition"},
		{`"train/loss.last > 1`, 1, "not closed"},
		{"any(anomaly) > 1", 1, "wants a number"},
		{"1 < 2 < 3", 7, "do not chain"},
		{"foo(1) > 0", 1, "unknown function"},
		{"loss.last $ 1", 11, "unexpected character"},
		{"loss.last > 1 and 2", 19, "wants a condition"},
		{"loss > 1", 6, "want .FIELD"},
		{"run(a).loss.last > 1", 5, "in quotes"},
		{"", 1, "empty"},
		{"max(loss.last, 2) > 1", 14, "one argument"},
		{`"a\q".last > 1`, 3, `escapes only`},
		{"anomaly > 1", 1, "wants a number"},
		{"1e > 0", 1, "bad number"},
		// A tag with a character a name cannot have: the quoted form.
		{"train/loss-2.last > 1", 11, `the tag "train/loss" (one of [last min max best step min_step max_step best_step points non_finite]); a tag that is not a plain name is quoted whole: "train/loss-2".last`},
		{"train / loss.last > 1", 7, `the tag "train" (one of [last min max best step min_step max_step best_step points non_finite])`},
		{"train/ loss.last > 1", 6, `quoted whole, as in "train/loss-2".last`},
		{"eval/top-5.max < 0.9", 9, `quoted whole: "eval/top-5".max`},
		{"train/loss-x > 1", 11, `quoted whole, as in "train/loss-2".last`},
		{"loss > 1", 6, `non_finite])`},
		{`"train/loss" > 1`, 14, `(one of [last min max best step min_step max_step best_step points non_finite])`},
	} {
		_, err := Parse(tc.expr)
		var se *SyntaxError
		if !errors.As(err, &se) || se.Col != tc.col || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("Parse(%q) = %v, want column %d: ...%s...", tc.expr, err, tc.col, tc.msg)
		}
	}
}

// TestQuoteHintOnlyWhereTheNameGoesOn: the quoted form is suggested
// when a name goes on in a character a name cannot have, not when what
// follows it is spaced apart.
func TestQuoteHintOnlyWhereTheNameGoesOn(t *testing.T) {
	for expr, hint := range map[string]bool{"loss > 1": false, "train / loss.last > 1": false, "train/loss": false,
		"a-b.last > 1": true, "train/loss-x > 1": true} {
		_, err := Parse(expr)
		if err == nil || strings.Contains(err.Error(), "quoted whole") != hint {
			t.Errorf("Parse(%q) = %v; want a quoting hint: %v", expr, err, hint)
		}
	}
}

// TestSlashedTags: names joined by "/" with no space around it are one
// tag (almost every real tag has a "/"), and a division still divides.
func TestSlashedTags(t *testing.T) {
	for _, tc := range []struct {
		expr string
		tags []string // of the metrics read, in order
		text string   // the references as a failure prints them
	}{
		{"train/loss.last > 1", []string{"train/loss"}, `"train/loss".last`},
		{"layer/0/kernel.max > 1", []string{"layer/0/kernel"}, `"layer/0/kernel".max`},
		{`run("a").train/loss.last > baseline.eval/acc.best`, []string{"train/loss", "eval/acc"}, `run("a")."train/loss".last`},
		{"loss.last/acc.last > 1", []string{"loss", "acc"}, "loss.last"},
		{"loss.last / acc.last > 1", []string{"loss", "acc"}, "loss.last"},
		{"a/b.last/c/d.min > 1", []string{"a/b", "c/d"}, `"a/b".last`},
	} {
		g, err := Parse(tc.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.expr, err)
			continue
		}
		var tags []string
		var first string
		walk(g.root, func(n node) {
			if m, ok := n.(*metricRef); ok {
				if first == "" {
					first = m.text
				}
				tags = append(tags, m.tag)
			}
		})
		if !slices.Equal(tags, tc.tags) || first != tc.text {
			t.Errorf("Parse(%q): tags %q (first %s), want %q (first %s)", tc.expr, tags, first, tc.tags, tc.text)
		}
	}
}

// TestQuoteRoundTrip: a reference printed back reads the same tag.
func TestQuoteRoundTrip(t *testing.T) {
	for _, tag := range []string{"loss", "train/loss", "a b", `q"uote\`, "run", "anomaly", "9lives"} {
		src := quote(tag) + ".last > 0"
		g, err := Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		m := g.root.(*binary).l.(*metricRef)
		if m.tag != tag {
			t.Errorf("%s: tag %q, want %q", src, m.tag, tag)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"loss.last > 0.5", `run("a")."x y".min <= baseline.loss.best * 1.02`, "any(anomaly) or not all(acc.max > .9)", "count(anomaly(\"x\")) > -1e-3",
		"train/loss.last > 1", "layer/0/k.max/a/b.min > 1", "eval/top-5.max < 0.9"} {
		f.Add(s)
	}
	cur := &summary.File{Metrics: map[string]map[string]summary.Metric{"a": {"loss": {Points: 1}}}, Runs: []string{"a"}}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := Parse(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Col < 1 {
				t.Fatalf("Parse(%q): %v, not a SyntaxError with a column", s, err)
			}
			return
		}
		g.Eval(cur, cur)
	})
}
