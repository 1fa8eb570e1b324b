package gate

import (
	"fmt"
	"slices"
	"strings"
)

// kind is what an expression yields: a number, a condition, or a list
// (of anomalies or warnings) that only any and count take.
type kind int

const (
	kNum kind = iota
	kBool
	kList
)

func (k kind) String() string {
	return [...]string{"a number", "a condition", "a list"}[k]
}

// node is a parsed expression.
type node interface {
	kind() kind
	col() int
}

type numLit struct {
	v float64
	c int
}

// metricRef is [baseline.][run("NAME").]TAG.FIELD.
type metricRef struct {
	baseline bool
	run      *string // nil: the run being evaluated
	tag      string
	field    string
	text     string // as written, for what a failure prints
	c        int
}

// listRef is anomaly, anomaly("RULE"), warning, damaged or regression.
type listRef struct {
	what string
	rule *string
	c    int
}

type unary struct {
	op string // "-" or "not"
	x  node
	c  int
}

type binary struct {
	op   string
	l, r node
	c    int
}

type call struct {
	fn   string
	arg  node
	c    int
	list bool // any or count over a list, not over runs
}

func (n *numLit) kind() kind    { return kNum }
func (n *metricRef) kind() kind { return kNum }
func (n *listRef) kind() kind   { return kList }
func (n *unary) kind() kind {
	if n.op == "not" {
		return kBool
	}
	return kNum
}
func (n *binary) kind() kind {
	switch n.op {
	case "+", "-", "*", "/":
		return kNum
	}
	return kBool
}
func (n *call) kind() kind {
	switch n.fn {
	case "any", "all", "isnan", "isfinite":
		return kBool
	}
	return kNum
}

func (n *numLit) col() int    { return n.c }
func (n *metricRef) col() int { return n.c }
func (n *listRef) col() int   { return n.c }
func (n *unary) col() int     { return n.c }
func (n *binary) col() int    { return n.c }
func (n *call) col() int      { return n.c }

// Fields of a metric a gate can read.
var fields = []string{"last", "min", "max", "best", "step", "min_step", "max_step", "best_step", "points", "non_finite"}

// Functions: over runs (any, all, count of a condition; min, max, mean of
// a number), over a list (any, count), and of a number (abs, isnan,
// isfinite).
var (
	overRuns  = []string{"any", "all", "count", "min", "max", "mean"}
	ofNumber  = []string{"abs", "isnan", "isfinite"}
	listNames = []string{"anomaly", "warning", "damaged", "regression"}
)

type parser struct {
	toks []token
	i    int
	src  []rune // the expression, for what an error suggests
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// isOp reports whether the next token is one of ops (operators or
// keywords), without taking it.
func (p *parser) isOp(ops ...string) bool {
	t := p.peek()
	return (t.kind == tOp || t.kind == tIdent) && slices.Contains(ops, t.text)
}

func (p *parser) expect(op string) (token, error) {
	t := p.next()
	if t.kind != tOp || t.text != op {
		return t, &SyntaxError{t.col, fmt.Sprintf("want %q, found %s", op, describe(t))}
	}
	return t, nil
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "the end"
	case tString:
		return fmt.Sprintf("the quoted name %q", t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

// want checks that n yields k, for what (the operator or function).
func want(n node, k kind, what string) error {
	if n.kind() != k {
		return &SyntaxError{n.col(), fmt.Sprintf("%s wants %s here, not %s", what, k, n.kind())}
	}
	return nil
}

func (p *parser) or() (node, error) { return p.logical("or", []string{"or", "||"}, p.and) }

func (p *parser) and() (node, error) { return p.logical("and", []string{"and", "&&"}, p.not) }

// logical parses a left-associative chain of operands (of next) joined by
// one of the spellings of the boolean operator op.
func (p *parser) logical(op string, spellings []string, next func() (node, error)) (node, error) {
	l, err := next()
	if err != nil {
		return nil, err
	}
	for p.isOp(spellings...) {
		t := p.next()
		r, err := next()
		if err != nil {
			return nil, err
		}
		if err := bothBool(l, r, t.text); err != nil {
			return nil, err
		}
		l = &binary{op, l, r, t.col}
	}
	return l, nil
}

func bothBool(l, r node, op string) error {
	if err := want(l, kBool, fmt.Sprintf("%q", op)); err != nil {
		return err
	}
	return want(r, kBool, fmt.Sprintf("%q", op))
}

func (p *parser) not() (node, error) {
	if p.isOp("not", "!") {
		t := p.next()
		x, err := p.not()
		if err != nil {
			return nil, err
		}
		if err := want(x, kBool, fmt.Sprintf("%q", t.text)); err != nil {
			return nil, err
		}
		return &unary{"not", x, t.col}, nil
	}
	return p.cmp()
}

func (p *parser) cmp() (node, error) {
	l, err := p.sum()
	if err != nil {
		return nil, err
	}
	if !p.isOp("<", "<=", ">", ">=", "==", "!=") {
		return l, nil
	}
	t := p.next()
	r, err := p.sum()
	if err != nil {
		return nil, err
	}
	for _, n := range []node{l, r} {
		if err := want(n, kNum, fmt.Sprintf("%q", t.text)); err != nil {
			return nil, err
		}
	}
	if p.isOp("<", "<=", ">", ">=", "==", "!=") {
		return nil, &SyntaxError{p.peek().col, "comparisons do not chain: join them with and"}
	}
	return &binary{t.text, l, r, t.col}, nil
}

func (p *parser) sum() (node, error) {
	l, err := p.prod()
	if err != nil {
		return nil, err
	}
	for p.isOp("+", "-") {
		t := p.next()
		r, err := p.prod()
		if err != nil {
			return nil, err
		}
		if err := bothNum(l, r, t.text); err != nil {
			return nil, err
		}
		l = &binary{t.text, l, r, t.col}
	}
	return l, nil
}

func (p *parser) prod() (node, error) {
	l, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.isOp("*", "/") {
		t := p.next()
		r, err := p.unary()
		if err != nil {
			return nil, err
		}
		if err := bothNum(l, r, t.text); err != nil {
			return nil, err
		}
		l = &binary{t.text, l, r, t.col}
	}
	return l, nil
}

func bothNum(l, r node, op string) error {
	if err := want(l, kNum, fmt.Sprintf("%q", op)); err != nil {
		return err
	}
	return want(r, kNum, fmt.Sprintf("%q", op))
}

func (p *parser) unary() (node, error) {
	if p.isOp("-") {
		t := p.next()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		if err := want(x, kNum, `"-"`); err != nil {
			return nil, err
		}
		return &unary{"-", x, t.col}, nil
	}
	return p.primary()
}

func (p *parser) primary() (node, error) {
	t := p.peek()
	switch {
	case t.kind == tNum:
		p.next()
		return &numLit{t.num, t.col}, nil
	case t.kind == tOp && t.text == "(":
		p.next()
		x, err := p.or()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(")"); err != nil {
			return nil, err
		}
		return x, nil
	case t.kind == tIdent && p.toks[p.i+1].kind == tOp && p.toks[p.i+1].text == "(" && t.text != "run":
		return p.call()
	case t.kind == tIdent && slices.Contains(listNames, t.text):
		p.next()
		return &listRef{what: t.text, c: t.col}, nil
	case t.kind == tIdent || t.kind == tString:
		return p.metric()
	}
	return nil, &SyntaxError{t.col, fmt.Sprintf("want a number, a metric or a function, found %s", describe(t))}
}

// call parses a function's call; the name is the next token.
func (p *parser) call() (node, error) {
	t := p.next()
	p.next() // (
	switch {
	case t.text == "anomaly":
		s := p.next()
		if s.kind != tString {
			return nil, &SyntaxError{s.col, fmt.Sprintf(`anomaly( wants a rule's name in quotes, found %s`, describe(s))}
		}
		if _, err := p.expect(")"); err != nil {
			return nil, err
		}
		rule := s.text
		return &listRef{what: "anomaly", rule: &rule, c: t.col}, nil
	case !slices.Contains(overRuns, t.text) && !slices.Contains(ofNumber, t.text):
		return nil, &SyntaxError{t.col, fmt.Sprintf("unknown function %q: want one of any, all, count, min, max, mean, abs, isnan, isfinite, anomaly, run", t.text)}
	}
	arg, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.isOp(",") {
		return nil, &SyntaxError{p.peek().col, fmt.Sprintf("%s takes one argument", t.text)}
	}
	if _, err := p.expect(")"); err != nil {
		return nil, err
	}
	c := &call{fn: t.text, arg: arg, c: t.col}
	switch t.text {
	case "any", "count":
		if arg.kind() == kList {
			c.list = true
			return c, nil
		}
		return c, want(arg, kBool, t.text)
	case "all":
		return c, want(arg, kBool, t.text)
	default:
		return c, want(arg, kNum, t.text)
	}
}

// metric parses [baseline.][run("NAME").]TAG.FIELD.
func (p *parser) metric() (node, error) {
	start := p.peek()
	m := &metricRef{c: start.col}
	if start.kind == tIdent && start.text == "baseline" && p.toks[p.i+1].text == "." && p.toks[p.i+1].kind == tOp {
		p.next()
		p.next()
		m.baseline = true
	}
	if t := p.peek(); t.kind == tIdent && t.text == "run" && p.toks[p.i+1].kind == tOp && p.toks[p.i+1].text == "(" {
		p.next()
		p.next()
		s := p.next()
		if s.kind != tString {
			return nil, &SyntaxError{s.col, fmt.Sprintf(`run( wants a run's name in quotes, found %s`, describe(s))}
		}
		if _, err := p.expect(")"); err != nil {
			return nil, err
		}
		if _, err := p.expect("."); err != nil {
			return nil, err
		}
		name := s.text
		m.run = &name
	}
	tag := p.next()
	if tag.kind != tIdent && tag.kind != tString {
		return nil, &SyntaxError{tag.col, fmt.Sprintf("want a tag (a name, or a quoted name such as \"train/loss\"), found %s", describe(tag))}
	}
	m.tag = tag.text
	if tag.kind == tIdent {
		m.tag = p.slashed(tag)
	}
	if t := p.peek(); t.kind != tOp || t.text != "." {
		hint := ""
		if t.kind != tEOF && t.col == tag.col+len(m.tag) { // names are ASCII
			// The name goes on, in a character a name cannot have.
			hint = p.quoteHint(tag)
		}
		return nil, &SyntaxError{t.col, fmt.Sprintf("want .FIELD after the tag %q (one of %v)%s", m.tag, fields, hint)}
	}
	p.next()
	f := p.next()
	if f.kind != tIdent || !slices.Contains(fields, f.text) {
		return nil, &SyntaxError{f.col, fmt.Sprintf("unknown field %s: want one of %v", describe(f), fields)}
	}
	m.field = f.text
	m.text = describeRef(m)
	return m, nil
}

// slashed returns the tag that starts with tag, a name: almost every real
// tag has a "/" (train/loss), so names joined by "/" with no space
// around it are one tag, as in train/loss.last or layer/0/kernel.max.
// A name alone cannot be divided (a tag needs its .FIELD), so this reads
// no division differently: loss.last/acc.last ends its tag at the dot.
func (p *parser) slashed(tag token) string {
	s, end := tag.text, tag.col+len(tag.text)
	for {
		slash, seg := p.peek(), p.toks[min(p.i+1, len(p.toks)-1)]
		if slash.kind != tOp || slash.text != "/" || slash.col != end || seg.col != end+1 ||
			!(seg.kind == tIdent || seg.kind == tNum && digits(seg.text)) {
			return s
		}
		p.next()
		p.next()
		s += "/" + seg.text
		end = seg.col + len(seg.text)
	}
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// quoteHint suggests the quoted form of a tag starting at token tag, a
// name, that goes on in a character a name cannot have: the text from it to the first
// "." followed by a field, quoted (as in "train/loss-2".last), when no
// space or operator of comparison, logic or grouping comes before; else
// the form in general.
func (p *parser) quoteHint(tag token) string {
	const general = `; a tag that is not a plain name is quoted whole, as in "train/loss-2".last`
	if tag.kind != tIdent || tag.col < 1 || tag.col > len(p.src) {
		return ""
	}
	for i := tag.col - 1; i < len(p.src); i++ {
		c := p.src[i]
		if strings.ContainsRune(" \t<>=!()&|,\"", c) {
			return general
		}
		if c != '.' {
			continue
		}
		j := i + 1
		for j < len(p.src) && (p.src[j] == '_' || p.src[j] >= 'a' && p.src[j] <= 'z') {
			j++
		}
		if f := string(p.src[i+1 : j]); slices.Contains(fields, f) && (j == len(p.src) || !isNameRune(p.src[j])) {
			return fmt.Sprintf("; a tag that is not a plain name is quoted whole: %s.%s", quote(string(p.src[tag.col-1:i])), f)
		}
	}
	return general
}

func isNameRune(r rune) bool {
	return r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

// describeRef writes a reference back, quoting the tag when it needs it.
func describeRef(m *metricRef) string {
	s := ""
	if m.baseline {
		s = "baseline."
	}
	if m.run != nil {
		// A run's name is always quoted: run( reads only that.
		s += fmt.Sprintf("run(%s).", quoteAlways(*m.run))
	}
	return s + quote(m.tag) + "." + m.field
}

// quote quotes a name unless it is an identifier that is not a word of the
// language.
func quote(s string) string {
	plain := s != "" && !slices.Contains([]string{"baseline", "run", "and", "or", "not"}, s) && !slices.Contains(listNames, s)
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && isDigit(c)
	}
	if plain {
		return s
	}
	return quoteAlways(s)
}

// quoteAlways quotes a name, escaping " and \.
func quoteAlways(s string) string {
	b := []byte{'"'}
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return string(append(b, '"'))
}
