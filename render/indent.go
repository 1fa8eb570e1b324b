package render

import (
	"bytes"
	"encoding/json"
)

// marshalIndent is json.MarshalIndent(v, "", " "): the same bytes, the
// indenting done by appendIndentJSON.
func marshalIndent(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	// The indented document of a report's JSON is about twice its
	// compact form.
	return appendIndentJSON(make([]byte, 0, 2*len(b)), b, "", " "), nil
}

// appendIndentJSON appends src, compact JSON as json.Marshal writes it
// (no space outside strings), indented as json.Indent indents it with
// prefix and indent: the same bytes, each element and member on a line
// of its own, an empty object or array as {} or [].
//
// Why not json.Indent: it steps its scanner's state machine through every
// byte, strings' included, and the report's indented documents are large
// (summary.json: 4.6 MB on a 2,000-run sweep, 228 MB at 100,000 runs); a
// string's bytes are copied here in one piece, found by IndexByte.
func appendIndentJSON(dst, src []byte, prefix, indent string) []byte {
	depth := 0
	open := false // after { or [, whose first element starts a line
	for i := 0; i < len(src); i++ {
		c := src[i]
		if open && c != '}' && c != ']' {
			open = false
			depth++
			dst = appendJSONNewline(dst, prefix, indent, depth)
		}
		switch c {
		case '"':
			j := stringEnd(src, i)
			dst = append(dst, src[i:j]...)
			i = j - 1
		case '{', '[':
			open = true
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			dst = appendJSONNewline(dst, prefix, indent, depth)
		case ':':
			dst = append(dst, c, ' ')
		case '}', ']':
			if open {
				open = false // empty: {} or []
			} else {
				depth--
				dst = appendJSONNewline(dst, prefix, indent, depth)
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// stringEnd returns the index just after the string that starts at
// src[i] (a quote): its closing quote is the first one not escaped, that
// is not after an odd run of backslashes. An unterminated string ends
// with src.
func stringEnd(src []byte, i int) int {
	j := i + 1
	for {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src)
		}
		j += k
		back := 0
		for back < j-i-1 && src[j-1-back] == '\\' {
			back++
		}
		if back%2 == 0 {
			return j + 1
		}
		j++
	}
}

// appendJSONNewline starts a line at depth, as json.Indent does.
func appendJSONNewline(dst []byte, prefix, indent string, depth int) []byte {
	dst = append(dst, '\n')
	dst = append(dst, prefix...)
	for range depth {
		dst = append(dst, indent...)
	}
	return dst
}
