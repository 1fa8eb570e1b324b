// Package gate is the small expression language of --fail-on: a condition
// over a report's summary.json (package summary), and, with --baseline,
// over an earlier report's, that fails a CI job when it holds.
//
// The language (docs/GATES.md says it for users):
//
//	loss.last > 0.5                      a run's metric: TAG.FIELD
//	train/loss.min > 0.1                 a tag with /: names joined by it
//	"grad norm".min > 0.1                a tag with spaces (or -), quoted
//	run("lr_0.1").accuracy.max < 0.9     one run's metric
//	loss.last > baseline.loss.last * 1.02  the same run in the baseline
//	max(loss.last) > 1 or all(accuracy.max < 0.5)  over all runs
//	any(anomaly) or count(anomaly("scalar.nonfinite")) > 0 or any(damaged)
//
// An expression that names a metric of no particular run (loss.last, not
// run("x").loss.last) outside any, all, count, min, max and mean is
// evaluated for each run, and the gate fails when it holds for any run.
// A run lacking a value the expression reads (no such tag, no finite
// minimum, not in the baseline) is not evaluated; when no run could be,
// the gate fails, saying why: a gate on a renamed tag must not pass
// silently.
package gate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/internal/summary"
)

// Gate is a parsed expression.
type Gate struct {
	src      string
	root     node
	perRun   bool
	baseline bool
}

// Parse parses an expression; its errors are *SyntaxError, with the
// column.
func Parse(src string) (*Gate, error) {
	if len(src) > MaxLen {
		return nil, &SyntaxError{1, fmt.Sprintf("an expression of %d bytes: at most %d", len(src), MaxLen)}
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	if len(toks) == 1 {
		return nil, &SyntaxError{1, "empty expression"}
	}
	p := &parser{toks: toks, src: []rune(src)}
	root, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, &SyntaxError{t.col, fmt.Sprintf("unexpected %s", describe(t))}
	}
	if root.kind() != kBool {
		return nil, &SyntaxError{1, fmt.Sprintf("a gate is a condition (such as loss.last > 0.5), not %s", root.kind())}
	}
	g := &Gate{src: src, root: root, perRun: freeRun(root)}
	walk(root, func(n node) {
		if m, ok := n.(*metricRef); ok && m.baseline {
			g.baseline = true
		}
	})
	return g, nil
}

// String is the expression as given.
func (g *Gate) String() string { return g.src }

// UsesBaseline reports whether the expression reads the baseline.
func (g *Gate) UsesBaseline() bool { return g.baseline }

func walk(n node, f func(node)) {
	f(n)
	switch n := n.(type) {
	case *unary:
		walk(n.x, f)
	case *binary:
		walk(n.l, f)
		walk(n.r, f)
	case *call:
		walk(n.arg, f)
	}
}

// freeRun reports whether n reads a metric of the run being evaluated
// outside a function over runs.
func freeRun(n node) bool {
	switch n := n.(type) {
	case *metricRef:
		return n.run == nil
	case *unary:
		return freeRun(n.x)
	case *binary:
		return freeRun(n.l) || freeRun(n.r)
	case *call:
		if slices.Contains(overRuns, n.fn) && !n.list {
			return false
		}
		return freeRun(n.arg)
	}
	return false
}

// Result is a gate's verdict.
type Result struct {
	Expr string
	// Failed is set when the condition held (for a run, or for the
	// report), or could not be evaluated at all (Err says why).
	Failed bool
	// Held lists where the condition held, at most MaxHeld: the runs, or
	// one entry with no run for a condition on the whole report; Runs
	// counts them all.
	Held []Held
	Runs int
	Err  string
}

// MaxHeld bounds the runs a Result lists.
const MaxHeld = 10

// maxReasons bounds the reasons a gate that no run could be evaluated for
// gives, one per run.
const maxReasons = 5

// Held is where a condition held and the values it read there.
type Held struct {
	Run    string // "" for the whole report
	Values []string
}

// String says what failed: `loss.last > 0.5: holds for run "a" (loss.last = 0.73)`.
func (r Result) String() string {
	switch {
	case r.Err != "":
		return fmt.Sprintf("%s: cannot be evaluated: %s", r.Expr, r.Err)
	case !r.Failed:
		return r.Expr + ": passes"
	}
	var parts []string
	for _, h := range r.Held {
		s := "the report"
		if h.Run != "" {
			s = "run " + strconv.Quote(h.Run)
		}
		if len(h.Values) > 0 {
			s += " (" + strings.Join(h.Values, ", ") + ")"
		}
		parts = append(parts, s)
	}
	s := r.Expr + ": holds for " + strings.Join(parts, "; ")
	if more := r.Runs - len(r.Held); more > 0 {
		s += fmt.Sprintf(" and %d more runs", more)
	}
	return s
}

// missing is a value the expression reads that is not there.
type missing struct{ msg string }

func (m *missing) Error() string { return m.msg }

// env is what an evaluation reads.
type env struct {
	cur, base *summary.File
	run       string // the run being evaluated; "" when none is
	bound     bool
	values    *[]string // what the references read, for Held
}

// Eval evaluates the gate over cur and base (nil without --baseline: a
// gate reading the baseline then cannot be evaluated).
func (g *Gate) Eval(cur, base *summary.File) Result {
	res := Result{Expr: g.src}
	if !g.perRun {
		var vals []string
		v, err := eval(g.root, env{cur: cur, base: base, values: &vals})
		if err != nil {
			res.Failed, res.Err = true, err.Error()
			return res
		}
		if v.b {
			res.Failed, res.Runs = true, 1
			res.Held = []Held{{Values: vals}}
		}
		return res
	}
	var reasons []string
	evaluated := 0
	for _, run := range runsOf(cur) {
		var vals []string
		v, err := eval(g.root, env{cur: cur, base: base, run: run, bound: true, values: &vals})
		var m *missing
		if errors.As(err, &m) {
			if len(reasons) < maxReasons {
				reasons = append(reasons, err.Error())
			}
			continue
		}
		if err != nil {
			res.Failed, res.Err = true, err.Error()
			return res
		}
		evaluated++
		if v.b {
			res.Failed = true
			res.Runs++
			if len(res.Held) < MaxHeld {
				res.Held = append(res.Held, Held{Run: run, Values: vals})
			}
		}
	}
	if evaluated == 0 {
		res.Failed = true
		res.Err = "no run has what it reads"
		if len(reasons) > 0 {
			res.Err = "no run has what it reads: " + strings.Join(reasons, "; ")
		}
	}
	return res
}

// runsOf lists the runs holding metrics, in the report's order.
func runsOf(f *summary.File) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range f.Runs {
		if _, ok := f.Metrics[r]; ok && !seen[r] {
			out = append(out, r)
			seen[r] = true
		}
	}
	// Metrics of runs the runs list does not name (a summary.json made
	// by hand), in name order.
	var rest []string
	for r := range f.Metrics {
		if !seen[r] {
			rest = append(rest, r)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// value is a number or a condition.
type value struct {
	n float64
	b bool
}

func eval(n node, e env) (value, error) {
	switch n := n.(type) {
	case *numLit:
		return value{n: n.v}, nil
	case *metricRef:
		v, err := e.metric(n)
		return value{n: v}, err
	case *unary:
		x, err := eval(n.x, e)
		if err != nil {
			return x, err
		}
		if n.op == "not" {
			return value{b: !x.b}, nil
		}
		return value{n: -x.n}, nil
	case *binary:
		return evalBinary(n, e)
	case *call:
		return evalCall(n, e)
	}
	return value{}, fmt.Errorf("cannot evaluate %T", n)
}

func evalBinary(n *binary, e env) (value, error) {
	l, err := eval(n.l, e)
	if err != nil {
		return l, err
	}
	// and and or need their right side only when the left does not
	// decide, as a reader expects: "any(anomaly) or loss.last > 1".
	switch {
	case n.op == "and" && !l.b:
		return value{b: false}, nil
	case n.op == "or" && l.b:
		return value{b: true}, nil
	}
	r, err := eval(n.r, e)
	if err != nil {
		return r, err
	}
	switch n.op {
	case "and", "or":
		return value{b: r.b}, nil
	case "+":
		return value{n: l.n + r.n}, nil
	case "-":
		return value{n: l.n - r.n}, nil
	case "*":
		return value{n: l.n * r.n}, nil
	case "/":
		return value{n: l.n / r.n}, nil
	case "<":
		return value{b: l.n < r.n}, nil
	case "<=":
		return value{b: l.n <= r.n}, nil
	case ">":
		return value{b: l.n > r.n}, nil
	case ">=":
		return value{b: l.n >= r.n}, nil
	case "==":
		return value{b: l.n == r.n}, nil
	case "!=":
		return value{b: l.n != r.n}, nil
	}
	return value{}, fmt.Errorf("unknown operator %q", n.op)
}

func evalCall(n *call, e env) (value, error) {
	if n.list {
		items := e.list(n.arg.(*listRef))
		if n.fn == "any" {
			if items > 0 {
				*e.values = append(*e.values, fmt.Sprintf("%s: %d", listText(n.arg.(*listRef)), items))
			}
			return value{b: items > 0}, nil
		}
		*e.values = append(*e.values, fmt.Sprintf("%s: %d", listText(n.arg.(*listRef)), items))
		return value{n: float64(items)}, nil
	}
	switch n.fn {
	case "abs", "isnan", "isfinite":
		x, err := eval(n.arg, e)
		if err != nil {
			return x, err
		}
		switch n.fn {
		case "abs":
			return value{n: math.Abs(x.n)}, nil
		case "isnan":
			return value{b: math.IsNaN(x.n)}, nil
		}
		return value{b: !math.IsNaN(x.n) && !math.IsInf(x.n, 0)}, nil
	}
	// Over runs: each run with what the argument reads.
	var got []value
	var firstMissing error
	for _, run := range runsOf(e.cur) {
		inner := e
		inner.run, inner.bound = run, true
		var vals []string
		inner.values = &vals
		v, err := eval(n.arg, inner)
		var m *missing
		if errors.As(err, &m) {
			firstMissing = cmpOr(firstMissing, err)
			continue
		}
		if err != nil {
			return v, err
		}
		got = append(got, v)
	}
	if len(got) == 0 {
		if firstMissing == nil {
			firstMissing = &missing{"no run has metrics"}
		}
		return value{}, &missing{fmt.Sprintf("%s(...): %v", n.fn, firstMissing)}
	}
	var out value
	switch n.fn {
	case "any":
		out.b = slices.ContainsFunc(got, func(v value) bool { return v.b })
	case "all":
		out.b = !slices.ContainsFunc(got, func(v value) bool { return !v.b })
	case "count":
		for _, v := range got {
			if v.b {
				out.n++
			}
		}
	case "min", "max", "mean":
		out.n = got[0].n
		sum := 0.0
		for _, v := range got {
			sum += v.n
			if n.fn == "min" && v.n < out.n || n.fn == "max" && v.n > out.n || math.IsNaN(v.n) {
				out.n = v.n
			}
		}
		if n.fn == "mean" {
			out.n = sum / float64(len(got))
		}
	}
	switch n.fn {
	case "any", "all", "count":
		held := 0
		for _, v := range got {
			if v.b {
				held++
			}
		}
		*e.values = append(*e.values, fmt.Sprintf("%s(...): holds for %d of %d runs", n.fn, held, len(got)))
	default:
		*e.values = append(*e.values, fmt.Sprintf("%s(...) over %d runs = %s", n.fn, len(got), fmtNum(out.n)))
	}
	return out, nil
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

func listText(l *listRef) string {
	if l.rule != nil {
		return fmt.Sprintf("anomaly(%q)", *l.rule)
	}
	return l.what
}

// list counts the anomalies, warnings or damaged files a list names: the
// run's when a run is being evaluated, else the report's.
func (e env) list(l *listRef) int {
	switch l.what {
	case "warning":
		return e.cur.Warnings
	case "damaged":
		return e.cur.Damaged
	case "regression":
		n := 0
		for _, r := range e.cur.Regressions {
			if !e.bound || r.Run == e.run {
				n++
			}
		}
		return n
	}
	n := 0
	for _, a := range e.cur.Anomalies {
		if l.rule != nil && a.Rule != *l.rule {
			continue
		}
		if e.bound && a.Run != e.run {
			continue
		}
		n++
	}
	return n
}

// metric reads a metric's field.
func (e env) metric(m *metricRef) (float64, error) {
	f, which := e.cur, "the report"
	if m.baseline {
		if e.base == nil {
			return 0, errors.New("it reads the baseline, and no --baseline was given")
		}
		f, which = e.base, "the baseline"
	}
	run := e.run
	if m.run != nil {
		run = *m.run
	} else if !e.bound {
		return 0, fmt.Errorf("%s: no run to read it of", m.text)
	}
	tags, ok := f.Metrics[run]
	if !ok {
		return 0, &missing{fmt.Sprintf("%s: %s has no metrics of run %q", m.text, which, run)}
	}
	tag, err := resolveTag(tags, m.tag)
	var amb *ambiguous
	switch {
	case errors.As(err, &amb):
		return 0, fmt.Errorf("%s: run %q of %s: %w", m.text, run, which, err)
	case err != nil:
		return 0, &missing{fmt.Sprintf("%s: run %q of %s: %v", m.text, run, which, err)}
	}
	mt := tags[tag]
	var p *summary.Point
	v := math.NaN()
	switch m.field {
	case "last", "step":
		p = &mt.Last
	case "min", "min_step":
		p = mt.Min
	case "max", "max_step":
		p = mt.Max
	case "best", "best_step":
		p = mt.Best()
		if p == nil && mt.Better == "" {
			return 0, &missing{fmt.Sprintf("%s: which way %q is better is not known (its name says neither)", m.text, tag)}
		}
	case "points":
		v = float64(mt.Points)
	case "non_finite":
		v = float64(mt.NonFinite)
	}
	if math.IsNaN(v) && m.field != "points" && m.field != "non_finite" {
		if p == nil {
			return 0, &missing{fmt.Sprintf("%s: run %q of %s has no finite value of %q", m.text, run, which, tag)}
		}
		v = p.Value
		if strings.HasSuffix(m.field, "step") {
			v = float64(p.Step)
		}
	}
	name := m.text
	if tag != m.tag {
		name += " (" + tag + ")"
	}
	*e.values = append(*e.values, name+" = "+fmtNum(v))
	return v, nil
}

// resolveTag finds the tag a name means in a run: the tag of that name,
// else the one tag whose last /-separated part it is (loss for
// metrics/loss).
func resolveTag(tags map[string]summary.Metric, name string) (string, error) {
	if _, ok := tags[name]; ok {
		return name, nil
	}
	var found []string
	for t := range tags {
		if i := strings.LastIndexByte(t, '/'); i >= 0 && t[i+1:] == name {
			found = append(found, t)
		}
	}
	slices.Sort(found)
	switch len(found) {
	case 0:
		return "", fmt.Errorf("no tag %q", name)
	case 1:
		return found[0], nil
	}
	return "", &ambiguous{fmt.Sprintf("%q could be %s: quote the whole tag", name, strings.Join(found, " or "))}
}

// ambiguous is a name that could be several tags: an error of the gate,
// not a value missing from a run.
type ambiguous struct{ msg string }

func (a *ambiguous) Error() string { return a.msg }

func fmtNum(v float64) string {
	return strconv.FormatFloat(v, 'g', 6, 64)
}
