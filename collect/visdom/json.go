package visdom

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
)

// Python's json module writes the floats nan, inf and -inf as the bare
// words NaN, Infinity and -Infinity (allow_nan is its default), which are
// not JSON: encoding/json refuses a whole document for one of them. Visdom
// 0.3 writes null instead (its NanSafeEncoder), but earlier versions, and
// files written by other means, hold them. encoding/json also refuses a
// document nested deeper than 10,000 levels.
//
// A document encoding/json refuses is read again after tolerate has
// replaced each such word, and each value nested too deep, by a stand-in
// of the same length: a JSON string of one byte that never occurs in UTF-8
// text (so that no string of a valid file is taken for one), padded with
// spaces. Every offset in the file stays where it was, so images are still
// found where the file holds them and problems still say where. The
// readers of numbers and strings (values, flexString) read the stand-ins
// back as Python reads the words: NaN, +Inf and -Inf.
var (
	nanMark    = []byte("\"\xfd\"")
	infMark    = []byte("\"\xfe\"")
	negInfMark = []byte("\"\xff\"")
	// deepMark stands for an array or object nested maxJSONDepth deep that
	// held another: left out, with a problem naming its window.
	deepMark = []byte("\"\xfc\"")
)

// maxJSONDepth is encoding/json's bound on nesting, which tolerate keeps.
const maxJSONDepth = 10_000

// deepProblem says that tolerate left a value of a window out.
const deepProblem = "a value nested more than 10,000 levels deep left out (as deep as encoding/json reads)"

// unmarshal is json.Unmarshal of a file's JSON as Python reads it: when
// encoding/json refuses data, it is read again with Python's NaN,
// Infinity and -Infinity and values nested too deep replaced (tolerate).
// It returns the bytes read (data, or the copy tolerate made) and
// whether a value nested too deep was left out.
func unmarshal(data []byte, v any) (read []byte, deep bool, err error) {
	err = json.Unmarshal(data, v)
	var se *json.SyntaxError
	if err == nil || !errors.As(err, &se) {
		return data, false, err
	}
	t, changed, deep := tolerate(data)
	if !changed { // nothing replaced: the error stands
		return data, false, err
	}
	return t, deep, json.Unmarshal(t, v)
}

// tolerate returns data with Python's NaN, Infinity and -Infinity outside
// strings replaced by their stand-ins, and every array or object nested
// maxJSONDepth deep that holds another replaced by deepMark; data itself
// when there is nothing to replace (changed is then false), else a copy.
// It reports whether it left a value out for its depth. It reads any
// bytes, JSON or not, in one pass.
func tolerate(data []byte) (out []byte, changed, deep bool) {
	out = data
	put := func(at, end int, mark []byte) {
		if !changed {
			out, changed = bytes.Clone(data), true
		}
		n := copy(out[at:end], mark)
		for i := at + n; i < end; i++ {
			out[i] = ' '
		}
	}
	depth := 0
	limit, cut := -1, -1 // starts of the container at maxJSONDepth, and of the one to cut
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			i = stringEnd(data, i) - 1
		case '[', '{':
			depth++
			switch {
			case depth == maxJSONDepth:
				limit = i
			case depth == maxJSONDepth+1 && cut < 0:
				cut = limit
			}
		case ']', '}':
			if depth == maxJSONDepth && cut >= 0 {
				put(cut, i+1, deepMark)
				cut, deep = -1, true
			}
			depth = max(depth-1, 0)
		case 'N':
			if bytes.HasPrefix(data[i:], []byte("NaN")) {
				put(i, i+3, nanMark)
				i += 2
			}
		case 'I':
			if bytes.HasPrefix(data[i:], []byte("Infinity")) {
				if i > 0 && data[i-1] == '-' {
					put(i-1, i+8, negInfMark)
				} else {
					put(i, i+8, infMark)
				}
				i += 7
			}
		}
	}
	return out, changed, deep
}

// stringEnd returns the offset just past the JSON string starting at
// data[i] (a quote), or len(data) when it does not end.
func stringEnd(data []byte, i int) int {
	for j := i + 1; ; j++ {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return len(data)
		}
		j += k
		// The quote ends the string unless an odd number of backslashes
		// escapes it.
		bs := 0
		for p := j - 1; p > i && data[p] == '\\'; p-- {
			bs++
		}
		if bs%2 == 0 {
			return j + 1
		}
	}
}

// markValue returns what a stand-in string stands for, and whether s (a
// JSON value as written) is one.
func markValue(s []byte) (float64, bool) {
	switch {
	case bytes.Equal(s, nanMark), bytes.Equal(s, deepMark):
		return math.NaN(), true
	case bytes.Equal(s, infMark):
		return math.Inf(1), true
	case bytes.Equal(s, negInfMark):
		return math.Inf(-1), true
	}
	return 0, false
}

// markString is a stand-in as Python's str() of a float would name it in
// the words of the file ("NaN", "Infinity", "-Infinity"), "" for a value
// left out.
func markString(s []byte) (string, bool) {
	switch {
	case bytes.Equal(s, nanMark):
		return "NaN", true
	case bytes.Equal(s, infMark):
		return "Infinity", true
	case bytes.Equal(s, negInfMark):
		return "-Infinity", true
	case bytes.Equal(s, deepMark):
		return "", true
	}
	return "", false
}

// The kinds of JSON value the array reader tells apart.
const (
	kBad    = iota // not JSON
	kNumber        // a number, or a stand-in for NaN and the infinities
	kString
	kNull
	kArray
	kOther // true, false, an object, a value left out for its depth
)

// scanner reads JSON values from b, which encoding/json has checked when
// it comes from a document; it never panics on other bytes.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// next skips the value at s.i, and the space around it, and returns its
// kind and where it starts and ends. An array is skipped whole when skip
// is set, else only its opening bracket.
func (s *scanner) next(skip bool) (kind, start, end int) {
	s.space()
	start = s.i
	if s.i >= len(s.b) {
		return kBad, start, start
	}
	switch c := s.b[s.i]; {
	case c == '"':
		s.i = stringEnd(s.b, s.i)
		if s.i > len(s.b) || s.b[s.i-1] != '"' || s.i-start < 2 {
			return kBad, start, s.i
		}
		kind = kString
		if _, ok := markValue(s.b[start:s.i]); ok {
			kind = kNumber
			if bytes.Equal(s.b[start:s.i], deepMark) {
				kind = kOther
			}
		}
	case c == '-' || '0' <= c && c <= '9':
		for s.i < len(s.b) && numberByte(s.b[s.i]) {
			s.i++
		}
		kind = kNumber
	case c == 'n' && bytes.HasPrefix(s.b[s.i:], []byte("null")):
		s.i += 4
		kind = kNull
	case c == 't' && bytes.HasPrefix(s.b[s.i:], []byte("true")):
		s.i += 4
		kind = kOther
	case c == 'f' && bytes.HasPrefix(s.b[s.i:], []byte("false")):
		s.i += 5
		kind = kOther
	case c == '[' && !skip:
		s.i++
		return kArray, start, s.i
	case c == '[' || c == '{':
		if !s.skipContainer() {
			return kBad, start, s.i
		}
		kind = kOther
		if c == '[' {
			kind = kArray
		}
	default:
		return kBad, start, s.i
	}
	end = s.i
	s.space()
	return kind, start, end
}

// skipContainer skips the array or object at s.i, whatever it holds.
func (s *scanner) skipContainer() bool {
	depth := 0
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case '"':
			s.i = stringEnd(s.b, s.i)
			continue
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				s.i++
				return true
			}
		}
		s.i++
	}
	return false
}

// elements calls f with each element of the array whose opening bracket
// s has just read, leaving arrays to f when skip is not set, and reports
// whether the array is well formed and f accepted every element.
func (s *scanner) elements(skip bool, f func(kind, start, end int) bool) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == ']' {
		s.i++
		return true
	}
	for {
		kind, start, end := s.next(skip)
		if kind == kBad || !f(kind, start, end) {
			return false
		}
		s.space()
		if s.i >= len(s.b) {
			return false
		}
		s.i++
		switch s.b[s.i-1] {
		case ']':
			return true
		case ',':
		default:
			return false
		}
	}
}

// number reads a number as Python's json does: past float64's range it is
// an infinity (or zero), which encoding/json refuses.
func number(b []byte) (float64, bool) {
	if v, ok := markValue(b); ok {
		return v, true
	}
	v, err := strconv.ParseFloat(string(b), 64)
	var ne *strconv.NumError
	if err != nil && !(errors.As(err, &ne) && ne.Err == strconv.ErrRange) {
		return 0, false
	}
	return v, true
}

// str reads a JSON string as encoding/json does.
func str(b []byte) string {
	if s, ok := markString(b); ok {
		return s
	}
	in := b[1 : len(b)-1]
	if bytes.IndexByte(in, '\\') < 0 && utf8.Valid(in) {
		return string(in)
	}
	var s string
	json.Unmarshal(b, &s)
	return s
}

// grid is the shape of an array of arrays of numbers.
type grid struct {
	rows, cols int // cols is the widest row's length
	cells      int // the numbers the rows hold
}

// padded is how many cells the grid has once every row is padded to the
// widest: rows * cols, or -1 past the int range.
func (g grid) padded() int {
	if g.cols > 0 && g.rows > math.MaxInt/g.cols {
		return -1
	}
	return g.rows * g.cols
}

// decodeValues reads Plotly's x, y or z (or a pie's labels and values), b
// as written: a list of numbers (null for NaN), of names, of lists of
// numbers (a grid), or of names and numbers mixed (names). It allocates
// only what the file holds, and pads a ragged grid (Plotly draws the
// missing cells as gaps) only when pad allows its shape; otherwise it
// returns the grid's shape and no values.
func decodeValues(b []byte, pad func(grid) bool) (values, grid, bool) {
	s := &scanner{b: b}
	kind, _, _ := s.next(false)
	switch kind {
	case kNull, kBad:
		return values{}, grid{}, true // absent, null: nothing to draw
	case kArray:
	default:
		return values{bad: true}, grid{}, true // a number, a string: not drawn
	}
	body := s.i
	// First the kinds of the elements, and a grid's shape; then what they
	// hold, once it is known to fit.
	n, nums, names, rows := 0, true, true, true
	var g grid
	ok := s.elements(false, func(kind, start, end int) bool {
		n++
		switch kind {
		case kNull:
			g.rows++
		case kNumber:
			names, rows = false, false
		case kString:
			nums, rows = false, false
		case kArray:
			nums, names = false, false
			cols, numeric := 0, true
			if !s.elements(true, func(kind, _, _ int) bool {
				cols++
				numeric = numeric && (kind == kNumber || kind == kNull)
				return true
			}) {
				return false
			}
			rows = rows && numeric
			g.rows, g.cols, g.cells = g.rows+1, max(g.cols, cols), g.cells+cols
		default:
			nums, names, rows = false, false, false
		}
		return true
	})
	if !ok {
		return values{bad: true}, grid{}, true
	}
	var v values
	s.i = body
	switch {
	case nums:
		v.nums = make([]float64, 0, n)
		ok = s.elements(true, func(kind, start, end int) bool {
			x, good := math.NaN(), true
			if kind == kNumber {
				x, good = number(b[start:end])
			}
			v.nums = append(v.nums, x)
			return good
		})
	case names:
		v.names = make([]string, 0, n)
		s.elements(true, func(kind, start, end int) bool {
			name := ""
			if kind == kString {
				name = str(b[start:end])
			}
			v.names = append(v.names, name)
			return true
		})
	case rows:
		size := g.padded()
		if g.cells < size && !pad(g) {
			return values{}, g, false
		}
		v.rows, v.cols = g.rows, g.cols
		v.nums = make([]float64, 0, size)
		ok = s.elements(false, func(kind, _, _ int) bool {
			k, good := 0, true
			if kind == kArray {
				s.elements(true, func(kind, start, end int) bool {
					x := math.NaN()
					if kind == kNumber {
						x, good = number(b[start:end])
					}
					v.nums = append(v.nums, x)
					k++
					return good
				})
			}
			for ; k < v.cols; k++ { // a ragged row padded
				v.nums = append(v.nums, math.NaN())
			}
			return good
		})
	default: // names and numbers mixed: names
		v.names = make([]string, 0, n)
		ok = s.elements(true, func(kind, start, end int) bool {
			name, good := "", true
			switch kind {
			case kString:
				name = str(b[start:end])
			case kNumber:
				var x float64
				x, good = number(b[start:end])
				name = strconv.FormatFloat(x, 'g', -1, 64)
			}
			v.names = append(v.names, name)
			return good
		})
	}
	if !ok {
		return values{bad: true}, grid{}, true
	}
	return v, g, true
}

// numberByte reports whether c may be part of a JSON number.
func numberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}
