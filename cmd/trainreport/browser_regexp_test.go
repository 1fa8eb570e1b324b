package main

// Browser tests of assets/regexp.js, the matcher of the pages' Runs, Tags
// and Group patterns: in headless chromium it agrees with Go's regexp
// (compiled with (?i)) on whether a pattern is valid, the leftmost match
// span and every match; it runs in time linear in the text; a pattern
// from a shared link that keeps a backtracking matcher busy for ever
// leaves the real pages working; and patterns it cannot match in linear
// time are marked invalid in the page.

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf16"

	"github.com/trainreport/trainreport/assets"
	"github.com/trainreport/trainreport/collect/eventpb"
)

// regexpCase is a pattern and texts to match it against. refused says why
// regexp.js rejects a pattern Go accepts; every other pattern must be
// valid in both or invalid in both.
type regexpCase struct {
	name    string
	pattern string
	texts   []string
	refused string
}

var regexpCases = []regexpCase{
	// Anchors.
	{"empty pattern matches everything", ``, []string{"", "abc", "😀"}, ""},
	{"^ is the start of the text", `^a`, []string{"a", "ba", "b\na"}, ""},
	{"$ is the end of the text, not before a final newline", `a$`, []string{"a", "a\n", "ab", "ba"}, ""},
	{"(?m) makes ^ and $ line anchors", `(?m)^b$`, []string{"a\nb\nc", "ab", "b"}, ""},
	{`\A and \z`, `\Aa|b\z`, []string{"a", "xa", "xb", "b\n"}, ""},
	{"anchors in alternation", `^a|b$`, []string{"xa", "ab", "b", "a"}, ""},
	{"repeated anchors", `^*a$+`, []string{"a", "ba"}, ""},
	{"anchor in a repeated group", `(?:^a)+`, []string{"aaa", "baa"}, ""},
	{"anchors alone", `^$`, []string{"", "a", "\n"}, ""},
	{"multi-line anchors find every line", `(?m)^\w+$`, []string{"ab\ncd\n\nef"}, ""},
	{"word boundaries", `\bfoo\b`, []string{"foo", "a foo b", "foobar", "_foo", "foo_"}, ""},
	{"not a word boundary", `\B`, []string{"abc", "a b", "", " "}, ""},
	{"word boundaries are ASCII", `\bé|é\b`, []string{"é", "aé", "éa"}, ""},
	{"every word boundary", `\b`, []string{"ab cd", "a"}, ""},

	// Alternation with empty branches.
	{"empty last branch", `a|`, []string{"b", "a", "ba"}, ""},
	{"empty first branch", `|a`, []string{"a", "b"}, ""},
	{"empty middle branch", `a||b`, []string{"b", "ab", "c"}, ""},
	{"empty branch first, repeated (golang.org/issue/46123)", `(|a)*`, []string{"aa", "baa"}, ""},
	{"empty branch first, one or more", `(|a)+`, []string{"aa"}, ""},
	{"empty branch last, repeated", `(a|)*`, []string{"aa", "b"}, ""},
	{"empty branch, lazy repetition", `(?:|a)*?b`, []string{"aab", "b"}, ""},
	{"alternation prefers the first branch", `a|ab`, []string{"ab"}, ""},
	{"alternation after a prefix", `x(a|ab)(c|bcd)`, []string{"xabcd", "xabc"}, ""},
	{"shared prefixes", `abc|abd|aef|bcx|bcy`, []string{"abd", "xbcy", "aefg"}, ""},

	// Nested quantifiers.
	{"nested plus at the end", `(a+)+$`, []string{"aaab", "aaa", strings.Repeat("a", 40) + "b"}, ""},
	{"nested stars", `(a*)*`, []string{"b", "aa", ""}, ""},
	{"nested star and plus", `(a*)+$`, []string{"aab", "aa"}, ""},
	{"alternatives of different lengths, repeated", `(a|aa)+`, []string{"aaa", "baaaa"}, ""},
	{"lazy star of an optional", `(?:a?)*?b`, []string{"aab", "b", "a"}, ""},
	{"lazy star inside a star", `(a*?)*`, []string{"aa"}, ""},
	{"star of a star of a group", `((a)*)*`, []string{"aab"}, ""},
	{"repeated alternatives then a literal", `(a+|b+)*c`, []string{"aabbc", "ab", "c"}, ""},
	{"two plus in a plus", `(x+x+)+y`, []string{"xxxxxxy", "xxxxxx", "xy"}, ""},
	{"plus of a non-capturing star", `(?:a*)+b`, []string{"aab", "b"}, ""},
	{"optional of an optional", `(?:a?)?b`, []string{"ab", "b"}, ""},
	{"star of a lazy star", `(?:a*?)*`, []string{"aaa"}, ""},
	{"counted repetition of a star", `(?:a*){3}b`, []string{"aab", "b"}, ""},
	{"counted repetition of an optional", `(?:a?){3}a{3}`, []string{"aaa", "aaaa", "aaaaaaa"}, ""},
	{"nested counted repetitions", `(?:(?:ab){2}c){2}`, []string{"ababcababc", "ababc"}, ""},
	{"empty group repeated", `(?:)*a()+`, []string{"a", "b"}, ""},
	{"dot star greediness", `a.*b`, []string{"axbxb", "ab"}, ""},
	{"dot star laziness", `a.*?b`, []string{"axbxb"}, ""},

	// Classes.
	{"class with ranges", `[a-z0-9_]+`, []string{"Run_01-x", "---"}, ""},
	{"negated class", `[^a-z]+`, []string{"ABC", "abc1", "é"}, ""},
	{"class with an escape", `[\d.]+`, []string{"v1.25", "x"}, ""},
	{"class with a Perl class and a dash", `[\w-]+`, []string{"lr=0.01/train", "a-b"}, ""},
	{"escaped dash and bracket", `[\-\]]+`, []string{"]-", "a"}, ""},
	{"] first is a literal", `[]a]+`, []string{"]a", "b"}, ""},
	{"] first after ^ is a literal", `[^]a]`, []string{"]a", "b"}, ""},
	{"dash last is a literal", `[a-]+`, []string{"-a", "b"}, ""},
	{"dash first is a literal", `[-a]+`, []string{"a-", "b"}, ""},
	{"dash after a Perl class is a literal", `[\d-z]+`, []string{"1-z", "y"}, ""},
	{"POSIX class", `[[:alpha:]]+`, []string{"ab1", "1"}, ""},
	{"negated POSIX class", `[[:^digit:]]+`, []string{"ab1", "1"}, ""},
	{"POSIX punct", `[[:punct:]]`, []string{"a=b", "ab"}, ""},
	{"POSIX word and xdigit", `[[:word:]][[:xdigit:]]`, []string{"_f", "_g"}, ""},
	{"a [ in a class", `[[]`, []string{"[", "]"}, ""},
	{"hex range in a class", `[\x41-\x43]+`, []string{"abcd", "d"}, ""},
	{"emoji range", `[\x{1F600}-\x{1F64F}]`, []string{"😀", "a"}, ""},
	{"non-ASCII range", `[é-ſ]`, []string{"é", "ſ", "S", "s", "É"}, ""},
	{"negated Perl class in a class", `[\W\d]`, []string{"a", "1", "-"}, ""},
	{"negated Perl class in a negated class", `[^\W]`, []string{"a", "-", "ſ", "\u212a"}, ""},
	{"empty-looking class", `[^\x00-\x{10FFFF}]`, []string{"a", ""}, ""},
	{"class of everything", `[\x00-\x{10FFFF}]`, []string{"a", "😀", ""}, ""},
	{"class with a newline", `[^x]`, []string{"\n"}, ""},
	{":] later in the pattern", `[[:a]b:]]`, []string{"a"}, ""},

	// Escapes.
	{`\d`, `\d+`, []string{"seed=12", "x"}, ""},
	{`\D`, `\D+`, []string{"12ab3"}, ""},
	{`\w`, `\w+`, []string{"lr=0.01", "é"}, ""},
	{`\W`, `\W+`, []string{"a=/b", "ab"}, ""},
	{`\s`, `\s+`, []string{"a \t\n\fb", "a\vb"}, ""},
	{`\S`, `\S+`, []string{" ab "}, ""},
	{`escaped dot`, `a\.b`, []string{"a.b", "axb"}, ""},
	{`escaped backslash`, `a\\b`, []string{`a\b`, "ab"}, ""},
	{`escaped slash`, `a\/b`, []string{"a/b"}, ""},
	{`escaped punctuation`, `\(\)\[\]\{\}\*\+\?\|\^\$\-\=\!\<\>\:\#\&\~\_`, []string{"()[]{}*+?|^$-=!<>:#&~_"}, ""},
	{`two-digit hex`, `\x41\x62`, []string{"Ab", "aB", "ac"}, ""},
	{`braced hex`, `\x{212A}\x{1F600}`, []string{"k😀", "K😀"}, ""},
	{`octal`, `\101\0`, []string{"a\x00", "A"}, ""},
	{`octal of two digits`, `\12`, []string{"\n"}, ""},
	{`C escapes`, `\a\f\t\n\r\v`, []string{"\a\f\t\n\r\v"}, ""},
	{`quoted text`, `\Qa.b\E+`, []string{"a.bb", "axb"}, ""},
	{`quoted text to the end`, `x\Q(a+)+$`, []string{"x(a+)+$", "xa"}, ""},
	{`quoted backslash`, `\Q\\E`, []string{`\`, `\\`}, ""},
	{`escaped space`, `a\ b`, []string{"a b"}, ""},

	// Counted repetition.
	{"exactly n", `a{2}`, []string{"aaa", "a"}, ""},
	{"at least n", `a{2,}`, []string{"aaaa", "a"}, ""},
	{"n to m", `a{1,3}`, []string{"aaaa", ""}, ""},
	{"zero times", `ba{0}c`, []string{"bc", "bac"}, ""},
	{"zero to zero", `a{0,0}b`, []string{"ab"}, ""},
	{"missing min is a literal", `a{,2}`, []string{"a{,2}", "aa"}, ""},
	{"unclosed is a literal", `a{2`, []string{"a{2"}, ""},
	{"brace alone is a literal", `{`, []string{"{"}, ""},
	{"brace with letters is a literal", `a{x}`, []string{"a{x}"}, ""},
	{"lazy counted", `a{2,4}?`, []string{"aaaa"}, ""},
	{"lazy counted group", `(ab){1,2}?`, []string{"ababab"}, ""},
	{"leading zero is a literal", `a{01}`, []string{"a{01}", "a"}, ""},
	{"one thousand", `a{1000}`, []string{strings.Repeat("a", 1000), strings.Repeat("a", 999)}, ""},
	{"nested counts multiply to 1000", `(?:a{10}){100}`, []string{strings.Repeat("a", 1000)}, ""},

	// Laziness and the ungreedy flag.
	{"lazy plus", `a+?`, []string{"aaa"}, ""},
	{"lazy star", `a*?`, []string{"aaa"}, ""},
	{"lazy optional", `a??b`, []string{"ab"}, ""},
	{"lazy dot", `<.+?>`, []string{"<a><b>"}, ""},
	{"(?U) flips greediness", `(?U)a+`, []string{"aaa"}, ""},
	{"(?U) and ? make greedy", `(?U)a+?`, []string{"aaa"}, ""},
	{"(?U) in a group", `(?U:a*)a*`, []string{"aaa"}, ""},

	// Case folding (Go's simple folding orbits).
	{"upper case pattern", `SEED`, []string{"seed=1", "Seed"}, ""},
	{"k matches the Kelvin sign", `k`, []string{"K", "\u212a"}, ""},
	{"the Kelvin sign matches k", "\u212a", []string{"k", "K"}, ""},
	{"s matches long s", `s`, []string{"ſ", "S"}, ""},
	{"long s matches S", `ſ`, []string{"S", "s"}, ""},
	{"sigma", `σ`, []string{"Σ", "ς"}, ""},
	{"accented", `é`, []string{"É", "e"}, ""},
	{"(?-i) is case-sensitive", `(?-i)a`, []string{"A", "a"}, ""},
	{"flag groups", `(?i:A)(?-i:b)`, []string{"aB", "ab"}, ""},
	{"flags to the end of the group", `(a(?-i)b)b`, []string{"AbB", "ABb"}, ""},
	{"folded range", `[a-z]+`, []string{"KELVIN\u212a", "ſ"}, ""},
	{`\w folds`, `\w`, []string{"\u212a", "ſ"}, ""},
	{"negated class folds before negating", `[^k]`, []string{"\u212a", "K"}, ""},
	{"title case", `ǅ`, []string{"Ǆ", "ǆ"}, ""},
	{"sharp s", `ß`, []string{"ẞ", "ss"}, ""},
	{"dotless i stays itself", `ı`, []string{"I", "i", "ı"}, ""},
	{"dotted capital I stays itself", `İ`, []string{"i", "I"}, ""},
	{"Greek orbit of four", `θ`, []string{"ϑ", "ϴ", "Θ"}, ""},
	{"Cherokee", `Ꭰ`, []string{"ꭰ"}, ""},
	{"Deseret (beyond the BMP)", `𐐀`, []string{"𐐨"}, ""},
	{"folded class range beyond the BMP", `[𐐀-𐐂]`, []string{"𐐩"}, ""},

	// Unicode text.
	{"dot is a code point", `.`, []string{"😀"}, ""},
	{"one emoji, anchored", `^.$`, []string{"😀", "😀😀"}, ""},
	{"dot between", `a.b`, []string{"a😀b", "a\nb"}, ""},
	{"repeated emoji", `😀+`, []string{"😀😀x"}, ""},
	{"emoji in a class", `[😀x]+`, []string{"a😀x"}, ""},
	{"beyond the BMP by escape", `\x{10FFFF}`, []string{"\U0010ffff"}, ""},
	{"no normalisation", `é`, []string{"e\u0301"}, ""},
	{"three code points", `.{3}`, []string{"日本語", "日本"}, ""},
	{"negated class and an emoji", `[^a]`, []string{"😀"}, ""},
	{"word boundary next to an emoji", `\B😀`, []string{"😀", "a😀"}, ""},
	{"every match in emoji text", `😀*`, []string{"a😀😀b😀"}, ""},

	// Dot and newlines.
	{"dot does not match a newline", `a.b`, []string{"a\nb"}, ""},
	{"(?s) dot matches a newline", `(?s)a.b`, []string{"a\nb"}, ""},
	{"(?s) in a group only", `(?s:.)\n.`, []string{"\n\nx", "\n\n\n"}, ""},

	// Groups and flags.
	{"flags alone", `(?i)`, []string{"", "a"}, ""},
	{"no flags", `(?)a`, []string{"a"}, ""},
	{"empty group", `(?:)`, []string{"a"}, ""},
	{"empty capture", `()`, []string{"a"}, ""},
	{"named capture, Python style", `(?P<seed>\d+)`, []string{"seed=42"}, ""},
	{"named capture, Perl style", `(?<seed>\d+)`, []string{"seed=42"}, ""},
	{"flags set mid-pattern", `a(?i)b`, []string{"aB"}, ""},
	{"clearing flags", `(?m-s:^.)`, []string{"x\ny"}, ""},
	{"repetition after a flag group", `ab(?i)*`, []string{"abbb", "a"}, ""},

	// The uses of the pages.
	{"group pattern", `seed=\d+`, []string{"ppo/seed=12", "ppo/seed=", "dqn/SEED=3/x"}, ""},
	{"group pattern with a slash", `/seed=\d+`, []string{"ppo/seed=1", "baseline"}, ""},
	{"every match is removed", `\d+`, []string{"lr=0.01/seed=3/run-7"}, ""},
	{"empty matches between characters", `a*`, []string{"baaac"}, ""},
	{"exact name", `^` + regexp.QuoteMeta("lr=0.01/train") + `$`, []string{"lr=0.01/train", "lr=0.01/train2"}, ""},
	{"run filter", `train|eval`, []string{"lr=0.003/eval", "baseline"}, ""},

	// Invalid in Go, and so here.
	{"backreference", `(a)\1`, []string{"aa"}, ""},
	{"backreference 9", `\9`, nil, ""},
	{"lookahead", `(?=a)`, nil, ""},
	{"negative lookahead", `a(?!b)`, nil, ""},
	{"lookbehind", `(?<=a)b`, nil, ""},
	{"negative lookbehind", `(?<!a)b`, nil, ""},
	{"unclosed group", `(`, nil, ""},
	{"unopened group", `a)`, nil, ""},
	{"nested repetition", `a**`, nil, ""},
	{"nested repetition, plus", `a*+`, nil, ""},
	{"nested counted repetition", `a{2}{3}`, nil, ""},
	{"lazy then repeat", `a*?+`, nil, ""},
	{"nothing to repeat", `*a`, nil, ""},
	{"nothing to repeat after |", `a|*`, nil, ""},
	{"nothing to repeat in a group", `(+)`, nil, ""},
	{"unclosed class", `[a`, nil, ""},
	{"empty unclosed class", `[]`, nil, ""},
	{"reversed range", `[z-a]`, nil, ""},
	{"range to a Perl class", `[a-\d]`, nil, ""},
	{"unknown escape", `\y`, nil, ""},
	{"escaped non-ASCII letter", `\é`, nil, ""},
	{"trailing backslash", `a\`, nil, ""},
	{"repeat count over 1000", `a{1001}`, nil, ""},
	{"repeat count over 1000, open", `a{1001,}`, nil, ""},
	{"huge repeat count", `a{100000000000}`, nil, ""},
	{"min over max", `a{3,2}`, nil, ""},
	{"nested counts over 1000", `(a{2}){501}`, nil, ""},
	{"empty capture name", `(?P<>a)`, nil, ""},
	{"bad capture name", `(?P<a-b>a)`, nil, ""},
	{"named backreference", `(?P=n)`, nil, ""},
	{"unknown POSIX class", `[[:foo:]]`, nil, ""},
	{`\C`, `\C`, nil, ""},
	{`\Z`, `a\Z`, nil, ""},
	{`\b in a class`, `[\b]`, nil, ""},
	{"unclosed flags", `(?i`, nil, ""},
	{"dash without flags", `(?-)`, nil, ""},
	{"dash after flags only", `(?i-)`, nil, ""},
	{"unknown flag", `(?x)a`, nil, ""},
	{"comment group", `(?#x)`, nil, ""},
	{"hex beyond Unicode", `\x{110000}`, nil, ""},
	{"long run of flags", "(?" + strings.Repeat("i", 1_000_000) + "x)", nil, ""},
	{"long POSIX class name", "[[:" + strings.Repeat("a", 1_000_000) + ":]]", nil, ""},
	{"bad hex", `\xZ1`, nil, ""},
	{"short hex", `\x4`, nil, ""},
	{"empty braced hex", `\x{}`, nil, ""},

	// Valid in Go, refused here.
	{"Unicode class", `\pL`, []string{"a"}, "Unicode classes need Unicode's tables"},
	{"Unicode script", `\p{Greek}`, []string{"α"}, "Unicode classes need Unicode's tables"},
	{"negated Unicode class", `\PN`, []string{"a"}, "Unicode classes need Unicode's tables"},
	{"Unicode class in a class", `[\p{Lu}]`, []string{"A"}, "Unicode classes need Unicode's tables"},
	{"program over 5,000 instructions", `a{1000}b{1000}c{1000}d{1000}e{1000}f`, []string{"f"}, "the program size is bounded"},
	{"100,000 literals", strings.Repeat("a", 100_000), []string{"a"}, "the program size is bounded"},
	{"a class of 100,000 items", "[" + strings.Repeat("a", 100_000) + "]", []string{"a"}, "the program size is bounded"},
	{"optional copies over 5,000 instructions", `(?:\w?){1000}(?:\d?){1000}(?:\s?){1000}`, []string{"x"}, "the program size is bounded"},
}

// regexpPair is one (pattern, text) question put to regexp.js.
type regexpPair struct {
	name, pattern, text, refused string
}

// jsMatch is regexp.js's answer: compile(pattern).valid and error, and for
// a valid pattern exec(text) (the leftmost match as UTF-16 offsets, or
// null), matchAll(text) and test(text).
type jsMatch struct {
	Valid bool
	Error string
	Span  []int
	All   [][]int
	Test  bool
}

// goMatch is what Go's regexp answers for (?i) and the pattern, with byte
// offsets turned into UTF-16 offsets.
func goMatch(pattern, text string) jsMatch {
	re, err := regexp.Compile("(?i)" + pattern)
	if err != nil {
		return jsMatch{Error: err.Error()}
	}
	m := jsMatch{Valid: true, Span: utf16Span(text, re.FindStringIndex(text))}
	m.Test = m.Span != nil
	for _, s := range re.FindAllStringIndex(text, -1) {
		m.All = append(m.All, utf16Span(text, s))
	}
	return m
}

// shorten keeps the long patterns of some cases readable in messages.
func shorten(s string) string {
	if r := []rune(s); len(r) > 60 {
		return fmt.Sprintf("%s...(%d characters)", string(r[:60]), len(r))
	}
	return s
}

func utf16Span(text string, s []int) []int {
	if s == nil {
		return nil
	}
	off := func(i int) int { return len(utf16.Encode([]rune(text[:i]))) }
	return []int{off(s[0]), off(s[1])}
}

// regexpPage writes a page that loads assets/regexp.js alone, copied from
// the embedded assets, and returns its file URL.
func regexpPage(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	js, err := assets.FS.ReadFile("regexp.js")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "assets"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "assets", "regexp.js"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	page := `<!doctype html><meta charset="utf-8"><title>regexp.js</title><script src="assets/regexp.js"></script>`
	if err := os.WriteFile(filepath.Join(dir, "regexp.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	return fileURL(filepath.Join(dir, "regexp.html"), "")
}

// askRegexpJS puts every pair to regexp.js in the tab, compiling each
// pattern once.
func askRegexpJS(t *testing.T, tb *tab, pairs []regexpPair) []jsMatch {
	t.Helper()
	qs := make([][2]string, len(pairs))
	for i, p := range pairs {
		qs[i] = [2]string{p.pattern, p.text}
	}
	q, err := json.Marshal(qs)
	if err != nil {
		t.Fatal(err)
	}
	var got []jsMatch
	if err := json.Unmarshal([]byte(eval[string](tb, pageJS("regexp.js", "ask", rawJS(q)))), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(pairs) {
		t.Fatalf("%d answers to %d questions", len(got), len(pairs))
	}
	return got
}

// checkAgainstGo compares regexp.js's answers with Go's, failing the test
// for each disagreement.
func checkAgainstGo(t *testing.T, pairs []regexpPair, got []jsMatch) {
	t.Helper()
	for i, p := range pairs {
		want, g := goMatch(p.pattern, p.text), got[i]
		where := fmt.Sprintf("%s: pattern %q, text %q", p.name, shorten(p.pattern), shorten(p.text))
		switch {
		case p.refused != "":
			if !want.Valid {
				t.Errorf("%s: Go rejects it (%s), but the case says regexp.js refuses what Go accepts", where, want.Error)
			}
			if g.Valid {
				t.Errorf("%s: regexp.js accepts it; it should refuse it (%s)", where, p.refused)
			}
		case want.Valid != g.Valid:
			t.Errorf("%s: Go valid %v (%s), regexp.js valid %v (%s)", where, want.Valid, want.Error, g.Valid, g.Error)
		case !g.Valid:
			if g.Error == "" {
				t.Errorf("%s: invalid without a reason", where)
			}
		default:
			if !slices.Equal(g.Span, want.Span) {
				t.Errorf("%s: match %v, Go %v", where, g.Span, want.Span)
			}
			if !slices.EqualFunc(g.All, want.All, slices.Equal) {
				t.Errorf("%s: every match %v, Go %v", where, g.All, want.All)
			}
			if g.Test != want.Test {
				t.Errorf("%s: test %v, Go %v", where, g.Test, want.Test)
			}
		}
	}
}

func TestBrowserRegexpAgreesWithGo(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	tb := openTab(t, browser, regexpPage(t))

	t.Run("cases", func(t *testing.T) {
		var pairs []regexpPair
		for _, c := range regexpCases {
			texts := c.texts
			if len(texts) == 0 {
				texts = []string{"a"}
			}
			for _, text := range texts {
				pairs = append(pairs, regexpPair{c.name, c.pattern, text, c.refused})
			}
		}
		start := time.Now()
		checkAgainstGo(t, pairs, askRegexpJS(t, tb, pairs))
		t.Logf("%d hand-written pairs in %v", len(pairs), time.Since(start).Round(time.Millisecond))
	})

	t.Run("random", func(t *testing.T) {
		r := rand.New(rand.NewPCG(2026, 7))
		var pairs []regexpPair
		for i := 0; i < 400; i++ {
			g := &patternGen{r: r}
			p := g.pattern(2)
			for range 3 {
				pairs = append(pairs, regexpPair{fmt.Sprint("random ", i), p, randomText(r), ""})
			}
		}
		start := time.Now()
		got := askRegexpJS(t, tb, pairs)
		checkAgainstGo(t, pairs, got)
		valid, matched := 0, 0
		for _, g := range got {
			if g.Valid {
				valid++
			}
			if g.Span != nil {
				matched++
			}
		}
		t.Logf("%d random pairs (%d valid, %d matching) in %v", len(pairs), valid, matched, time.Since(start).Round(time.Millisecond))
	})

	// Every case-fold orbit of Go's unicode tables: a member's escape, and
	// a class of another member, match each member, and the code point
	// after the first member only when Go says so.
	t.Run("fold orbits", func(t *testing.T) {
		var pairs []regexpPair
		seen := map[rune]bool{}
		orbits := 0
		for c := rune(0); c <= unicode.MaxRune; c++ {
			if seen[c] || unicode.SimpleFold(c) == c {
				continue
			}
			orbit := []rune{c}
			for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
				orbit = append(orbit, f)
			}
			orbits++
			name := fmt.Sprintf("orbit %U", orbit)
			first, last := fmt.Sprintf(`\x{%x}`, orbit[0]), fmt.Sprintf(`[\x{%x}]`, orbit[len(orbit)-1])
			for _, m := range orbit {
				seen[m] = true
				pairs = append(pairs, regexpPair{name, first, string(m), ""}, regexpPair{name, last, string(m), ""})
			}
			pairs = append(pairs, regexpPair{name, first, string(orbit[0] + 1), ""})
		}
		start := time.Now()
		checkAgainstGo(t, pairs, askRegexpJS(t, tb, pairs))
		t.Logf("%d orbits, %d pairs in %v", orbits, len(pairs), time.Since(start).Round(time.Millisecond))
	})

	// Patterns that take a backtracking matcher exponential time take
	// regexp.js time linear in the text.
	t.Run("linear time", func(t *testing.T) {
		type timing struct {
			Pattern string
			Length  int
			Ms      float64
			Match   bool
		}
		cases := [][3]any{
			{`(a+)+$`, "a", 10_000}, {`(a+)+$`, "a", 100_000}, {`(a|aa)+$`, "a", 10_000},
			{`(x+x+)+y`, "x", 10_000}, {`(?:a?){30}a{30}$`, "a", 10_000}, {`(.*a){20}$`, "a", 10_000},
			{`^(\w+\s?)*$`, "a", 10_000},
		}
		q, _ := json.Marshal(cases)
		got := eval[[]timing](tb, pageJS("regexp.js", "timings", rawJS(q)))
		for i, g := range got {
			text := strings.Repeat(cases[i][1].(string), cases[i][2].(int)) + "!"
			if want := regexp.MustCompile("(?i)" + g.Pattern).MatchString(text); g.Match != want {
				t.Errorf("%q on %d characters: match %v, Go %v", g.Pattern, g.Length, g.Match, want)
			}
			// Linear time is milliseconds here; a backtracking matcher
			// would take longer than the universe has.
			if limit := 2 * float64(g.Length) / 10_000 * 1000; g.Ms > limit {
				t.Errorf("%q on %d characters took %.0f ms (limit %.0f ms)", g.Pattern, g.Length, g.Ms, limit)
			}
			t.Logf("%-20q on %7d characters: %6.1f ms", g.Pattern, g.Length, g.Ms)
		}
	})
}

// patternGen writes random patterns over a small alphabet of what the
// syntax has, so that random texts over the same alphabet match often.
type patternGen struct{ r *rand.Rand }

var (
	genLiterals = []string{"a", "a", "b", "A", "B", "k", "s", "é", "É", "ſ", "\u212a", "😀", "1", "_", " ", "-", "σ", "Σ", "ς"}
	genEscapes  = []string{`\d`, `\w`, `\s`, `\D`, `\W`, `\S`, `\.`, `\-`, `.`, `\x41`, `\x{1F600}`, `\101`, `\Qa.\E`}
	genAsserts  = []string{`^`, `$`, `\b`, `\B`, `\A`, `\z`}
	genClass    = []string{"a-c", "A-Z", `\d`, `\w`, `\s`, `\W`, `\D`, "[:alpha:]", "[:^alpha:]", "[:upper:]", "é-ſ", `\-`}
	genGroups   = []string{"(", "(?:", "(?s:", "(?m:", "(?U:", "(?-i:", "(?P<n>"}
	genQuants   = []string{"*", "+", "?", "{2}", "{1,}", "{0,2}", "{1,3}", "{0}", "{2,}"}
	genText     = []string{"a", "a", "a", "b", "A", "B", "k", "K", "\u212a", "s", "S", "ſ", "é", "É", "1", "_", " ", "-", "\n", "😀", ".", "σ", "Σ", "ς"}
)

func (g *patternGen) pick(s []string) string { return s[g.r.IntN(len(s))] }

func (g *patternGen) atom(depth int) string {
	switch n := g.r.IntN(20); {
	case n < 8:
		return g.pick(genLiterals)
	case n < 11:
		return g.pick(genEscapes)
	case n < 12:
		return g.pick(genAsserts)
	case n < 15:
		s := "["
		if g.r.IntN(3) == 0 {
			s += "^"
		}
		for k := 1 + g.r.IntN(3); k > 0; k-- {
			if g.r.IntN(2) == 0 {
				s += g.pick(genClass)
			} else {
				s += g.pick(genLiterals)
			}
		}
		return s + "]"
	case depth > 0:
		return g.pick(genGroups) + g.pattern(depth-1) + ")"
	default:
		return "a"
	}
}

func (g *patternGen) concat(depth int) string {
	s := ""
	for k := g.r.IntN(4); k > 0; k-- {
		s += g.atom(depth)
		if g.r.IntN(3) == 0 {
			s += g.pick(genQuants)
			if g.r.IntN(3) == 0 {
				s += "?"
			}
		}
	}
	return s
}

func (g *patternGen) pattern(depth int) string {
	s := g.concat(depth)
	for g.r.IntN(3) == 0 {
		s += "|" + g.concat(depth)
	}
	return s
}

func randomText(r *rand.Rand) string {
	var b strings.Builder
	for k := r.IntN(16); k > 0; k-- {
		b.WriteString(genText[r.IntN(len(genText))])
	}
	return b.String()
}

// ---------------------------------------------------------------------------
// The pages

// evilName is a run and tag name that (a+)+$ does not match and that a
// backtracking matcher takes 2^40 steps to give up on.
var evilName = strings.Repeat("a", 40) + "b"

// evilPattern is that pattern. baa, the other run and tag, matches it.
const evilPattern = `(a+)+$`

// attackBudget bounds loading a page with the pattern in its URL and
// applying it: seconds, where a backtracking matcher takes for ever.
const attackBudget = 5 * time.Second

// writeAttackRuns writes two runs, evilName and baa, each with the scalar
// tags evilName and baa and the histogram tags hist/evilName and hist/baa.
func writeAttackRuns(t *testing.T, dir string) {
	t.Helper()
	for _, run := range []string{evilName, "baa"} {
		var events []*eventpb.Event
		for step := int64(0); step < 5; step++ {
			var vals []*eventpb.SummaryValue
			for i, tag := range []string{evilName, "baa"} {
				v := float64(step) + float64(i)
				vals = append(vals, simpleValue(tag, float32(v)),
					&eventpb.SummaryValue{Tag: "hist/" + tag, Value: &eventpb.SummaryValue_Histo{Histo: &eventpb.HistogramProto{
						Min: v - 1, Max: v + 1, Num: 4, Sum: 4 * v, SumSquares: 4*v*v + 2,
						BucketLimit: []float64{v - 1, v, v + 1, math.MaxFloat64}, Bucket: []float64{1, 1, 2, 0},
					}}})
			}
			events = append(events, summaryEvent(step, 0, vals...))
		}
		writeEventFile(t, filepath.Join(dir, run, "events.out.tfevents.1700000000.host"), events)
	}
}

// pageView is what a page shows after it applied its filters: the state of
// its pattern inputs, which tags and runs are shown, and for the scalars
// page the lines of each shown chart.
type pageView struct {
	Inputs []struct{ Name, Value, Invalid, Title string }
	Tags   []struct {
		Tag   string
		Shown bool
		Runs  []struct {
			Run   string
			Shown bool
		}
		Lines []string // scalars: names of the run and group lines
	}
}

func readPageView(t *testing.T, tb *tab, page string, within time.Duration) pageView {
	t.Helper()
	var v pageView
	if err := json.Unmarshal([]byte(evalWithin[string](tb, pageJS("regexp.js", "pageView", page), within)), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestBrowserRegexpAttack opens pages whose URL carries (a+)+$ as the
// runs, tags or group pattern, with a run and a tag called aaa...ab: each
// loads and applies the pattern within seconds, without an error.
func TestBrowserRegexpAttack(t *testing.T) {
	browser := startBrowser(t)
	logs := filepath.Join(t.TempDir(), "logs")
	writeAttackRuns(t, logs)
	r := buildReport(t, logs)
	evil := url.QueryEscape(evilPattern)
	type attack struct {
		name, url, page, field string
	}
	var attacks []attack
	for _, page := range []string{"scalars", "histograms"} {
		fields := []string{"runs", "tags"}
		if page == "scalars" {
			fields = append(fields, "group")
		}
		for _, field := range fields {
			attacks = append(attacks, attack{page + "-" + field, fileURL(filepath.Join(r.site, page+".html"), field+"="+evil), page, field})
		}
	}
	attacks = append(attacks,
		attack{"single-file-scalars-runs", fileURL(r.single, "page=scalars&runs="+evil), "scalars", "runs"},
		attack{"single-file-histograms-tags", fileURL(r.single, "page=histograms&tags="+evil), "histograms", "tags"})

	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			start := time.Now()
			tb := openTabWithin(t, browser, a.url, attackBudget)
			v := readPageView(t, tb, a.page, attackBudget-time.Since(start))
			took := time.Since(start)
			if took > attackBudget {
				t.Errorf("loading and filtering took %v, more than %v", took, attackBudget)
			}
			t.Logf("loaded and filtered in %v", took.Round(time.Millisecond))
			checkAttackView(t, a.page, a.field, v)
		})
	}
}

// checkAttackView checks that the page applied (a+)+$ as field: baa
// matches it, evilName does not.
func checkAttackView(t *testing.T, page, field string, v pageView) {
	t.Helper()
	for _, in := range v.Inputs {
		want := ""
		if in.Name == field {
			want = evilPattern
		}
		if in.Value != want || in.Invalid != "" {
			t.Errorf("input %s: value %q, aria-invalid %q; want %q, valid", in.Name, in.Value, in.Invalid, want)
		}
	}
	if len(v.Tags) == 0 {
		t.Fatal("the page shows no tags")
	}
	for _, tg := range v.Tags {
		tagShown := field != "tags" || strings.HasSuffix(tg.Tag, "baa")
		if tg.Shown != tagShown {
			t.Errorf("tag %q shown %v, want %v", tg.Tag, tg.Shown, tagShown)
		}
		if !tg.Shown {
			continue
		}
		for _, run := range tg.Runs {
			if want := field != "runs" || run.Run == "baa"; run.Shown != want {
				t.Errorf("tag %q: run %q shown %v, want %v", tg.Tag, run.Run, run.Shown, want)
			}
		}
		if page != "scalars" {
			continue
		}
		var lines []string
		switch field {
		case "runs":
			lines = []string{"baa"}
		case "tags":
			lines = []string{evilName, "baa"}
		case "group":
			// baa without what the pattern matches is b; evilName is
			// not grouped.
			lines = []string{evilName, "b · mean ± std of 1 run"}
		}
		if !slices.Equal(tg.Lines, lines) {
			t.Errorf("chart %q draws %q, want %q", tg.Tag, tg.Lines, lines)
		}
	}
}

// TestBrowserRegexpInvalid checks that patterns regexp.js cannot match in
// linear time, and others Go rejects, are marked invalid in the page, from
// the URL and typed, with the reason in the tooltip, and filter nothing.
func TestBrowserRegexpInvalid(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	logs := filepath.Join(t.TempDir(), "logs")
	writeAttackRuns(t, logs)
	r := buildReport(t, logs)
	bad := []string{`\1`, `(?=a)`, `a{2000}`, `(`}
	for _, page := range []string{"scalars", "histograms"} {
		t.Run(page, func(t *testing.T) {
			hash := func(p string) string {
				e := url.QueryEscape(p)
				h := "runs=" + e + "&tags=" + e
				if page == "scalars" {
					h += "&group=" + e
				}
				return h
			}
			tb := openTab(t, browser, fileURL(filepath.Join(r.site, page+".html"), hash(bad[0])))
			for i, p := range bad {
				if i > 0 {
					eval[bool](tb, fmt.Sprintf(`(location.hash = %q, true)`, hash(p)))
					waitFor(tb, fmt.Sprintf(`document.querySelector('input[name="runs"]').value === %q`, p), stepTimeout, "the pattern from the URL")
				}
				checkInvalidView(t, page, p, readPageView(t, tb, page, stepTimeout), "from the URL")
			}
			// Typed: each input in turn, the others cleared.
			eval[bool](tb, `(location.hash = "", true)`)
			waitFor(tb, `document.querySelector('input[name="runs"]').value === ""`, stepTimeout, "the cleared URL")
			for _, p := range bad {
				eval[bool](tb, pageJS("regexp.js", "typeAll", p))
				waitFor(tb, hashHas("runs", p), stepTimeout, "the typed pattern in the URL")
				checkInvalidView(t, page, p, readPageView(t, tb, page, stepTimeout), "typed")
			}
		})
	}
}

func checkInvalidView(t *testing.T, page, pattern string, v pageView, how string) {
	t.Helper()
	for _, in := range v.Inputs {
		if in.Value != pattern || in.Invalid != "true" || !strings.HasPrefix(in.Title, "Invalid regular expression: ") {
			t.Errorf("%q %s: input %s: value %q, aria-invalid %q, title %q; want it marked invalid with the reason",
				pattern, how, in.Name, in.Value, in.Invalid, in.Title)
		}
	}
	for _, tg := range v.Tags {
		if !tg.Shown {
			t.Errorf("%q %s: tag %q hidden", pattern, how, tg.Tag)
		}
		for _, run := range tg.Runs {
			if !run.Shown {
				t.Errorf("%q %s: tag %q: run %q hidden", pattern, how, tg.Tag, run.Run)
			}
		}
		if want := []string{evilName, "baa"}; page == "scalars" && !slices.Equal(tg.Lines, want) {
			t.Errorf("%q %s: chart %q draws %q, want %q", pattern, how, tg.Tag, tg.Lines, want)
		}
	}
}
