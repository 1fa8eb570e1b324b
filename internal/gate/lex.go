package gate

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxLen bounds an expression: a gate is a line of a CI script.
const MaxLen = 4096

// tokKind is the kind of a token.
type tokKind int

const (
	tEOF tokKind = iota
	tNum
	tIdent
	tString
	tOp // one of the operators and punctuation below
)

type token struct {
	kind tokKind
	text string  // the operator, identifier or unquoted string
	num  float64 // a number's value
	col  int     // 1-based column of the first character, in characters
}

// operators, longest first so that "<=" is not read as "<".
var operators = []string{"&&", "||", "<=", ">=", "==", "!=", "<", ">", "+", "-", "*", "/", "(", ")", ",", ".", "!"}

// SyntaxError is an error of an expression, at a column (1-based,
// counting characters).
type SyntaxError struct {
	Col int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// lex splits src into tokens.
func lex(src string) ([]token, error) {
	var toks []token
	col := 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case r == ' ' || r == '\t':
			i += size
			col++
			continue
		case r >= '0' && r <= '9' || r == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9' && !afterOperand(toks):
			j := i
			for j < len(src) && (isDigit(src[j]) || src[j] == '.' || src[j] == 'e' || src[j] == 'E' ||
				(src[j] == '+' || src[j] == '-') && j > i && (src[j-1] == 'e' || src[j-1] == 'E')) {
				j++
			}
			v, err := strconv.ParseFloat(src[i:j], 64)
			if err != nil {
				return nil, &SyntaxError{col, fmt.Sprintf("bad number %q", src[i:j])}
			}
			toks = append(toks, token{kind: tNum, text: src[i:j], num: v, col: col})
			col += j - i
			i = j
			continue
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			j := i
			for j < len(src) && (src[j] == '_' || isDigit(src[j]) || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z') {
				j++
			}
			toks = append(toks, token{kind: tIdent, text: src[i:j], col: col})
			col += j - i
			i = j
			continue
		case r == '"':
			s, n, err := unquote(src[i:], col)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{kind: tString, text: s, col: col})
			col += utf8.RuneCountInString(src[i : i+n])
			i += n
			continue
		}
		op := ""
		for _, o := range operators {
			if strings.HasPrefix(src[i:], o) {
				op = o
				break
			}
		}
		if op == "" {
			return nil, &SyntaxError{col, fmt.Sprintf("unexpected character %q", r)}
		}
		toks = append(toks, token{kind: tOp, text: op, col: col})
		col += len(op)
		i += len(op)
	}
	return append(toks, token{kind: tEOF, col: col}), nil
}

// afterOperand reports whether the last token ends an operand, after
// which a "." is a field's dot, not a number's.
func afterOperand(toks []token) bool {
	if len(toks) == 0 {
		return false
	}
	t := toks[len(toks)-1]
	return t.kind == tIdent || t.kind == tString || t.kind == tOp && t.text == ")"
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// unquote reads a double-quoted string at the start of s, with \" and \\
// the only escapes, and returns it and how many bytes it took.
func unquote(s string, col int) (string, int, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '"':
			return b.String(), i + 1, nil
		case '\\':
			if i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
				b.WriteByte(s[i+1])
				i++
				continue
			}
			return "", 0, &SyntaxError{col + utf8.RuneCountInString(s[:i]), `in a quoted name, \ escapes only " and \`}
		}
		b.WriteByte(s[i])
	}
	return "", 0, &SyntaxError{col, "quoted name not closed"}
}
