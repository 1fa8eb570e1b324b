package render

import (
	"fmt"
	"strings"

	"github.com/trainreport/trainreport/internal/analysis/result"
)

// Goldmark's parser is linear on ordinary text but not on every input: a
// line of deeply nested containers (">>>>...", "> - > - ...", "1. 1. 1.
// ...") costs time quadratic in its depth, and each unclosed link
// destination ("[a](" repeated) scans the rest of its paragraph, so 200 KB
// of either took 17 to 26 s. mdPathology is a linear pre-scan that sends
// such a text to plain text before goldmark sees it; mdPageBytes bounds,
// besides, what goldmark parses per page, since 1 MB of logs may hold many
// steps.
const (
	// mdMaxNesting bounds the containers (block quotes, list items)
	// opened on one line. Real documents nest a handful deep; at 32 the
	// parser's work per line is a small multiple of the line.
	mdMaxNesting = 32
	// mdMaxLinkScan bounds, summed over the paragraphs of a text, the
	// link destinations opened ("](") and lines that may define a link
	// reference ("[a]: b") times the bytes of their paragraph: what the
	// parser may scan for their ends. 16M is some
	// 40 ms of scanning; a 64 KiB paragraph with 250 links, or a 4 KiB one
	// with 4,000, fits.
	mdMaxLinkScan = 16 << 20
	// mdPageBytes bounds the Markdown source one page parses with
	// goldmark. Once mdPathology has passed a text, the slowest inputs
	// measured parse at about a microsecond a byte (runs of "[" or "_a"),
	// so this is two seconds at most; the text page of a 1 MB input
	// parses all of it.
	mdPageBytes = 2 << 20
)

// mdPathology returns why src would make goldmark's work superlinear, or
// "" when it would not.
func mdPathology(src string) string {
	scan, opens, para := 0, 0, 0
	for len(src) > 0 {
		line := src
		if i := strings.IndexByte(src, '\n'); i >= 0 {
			line, src = src[:i], src[i+1:]
		} else {
			src = ""
		}
		if d := lineNesting(line); d > mdMaxNesting {
			return fmt.Sprintf("a line opens %s block quotes or list items, more than %d", result.FormatCount(d), mdMaxNesting)
		}
		if strings.TrimSpace(line) == "" { // a paragraph ends
			scan += opens * para
			opens, para = 0, 0
			continue
		}
		opens += strings.Count(line, "](")
		// A line that may start a link reference definition ("[a]: b"):
		// the parser tries each on the rest of its paragraph.
		if t := strings.TrimLeft(line, " \t"); strings.HasPrefix(t, "[") {
			opens++
		}
		para += len(line) + 1
		if scan+opens*para > mdMaxLinkScan {
			return fmt.Sprintf("it opens %s link destinations in %s", result.FormatCount(opens), fmtBytes(para))
		}
	}
	return ""
}

// lineNesting counts the container markers at the start of line: block
// quote markers (">") and list item markers ("-", "+", "*" or a number
// with "." or ")", then a space), each after at most 3 spaces. A thematic
// break ("* * *") counts too: an overestimate only for a line of more
// stars than any document draws.
func lineNesting(line string) int {
	// Lists also nest by indentation, some 2 columns a level, and the
	// parser's work per line grows with the depth: a list marker after
	// more indentation than mdMaxNesting levels take counts as that deep.
	w := 0
	for _, c := range []byte(line) {
		if c == ' ' {
			w++
		} else if c == '\t' {
			w += 4
		} else {
			break
		}
	}
	if w > 4*mdMaxNesting && lineNesting(strings.TrimLeft(line, " \t")) > 0 {
		return w / 2
	}
	depth := 0
	for {
		j := 0
		for j < len(line) && j < 4 && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		if j >= len(line) {
			return depth
		}
		space := func(k int) bool { return k < len(line) && (line[k] == ' ' || line[k] == '\t') }
		switch c := line[j]; {
		case c == '>':
			depth, line = depth+1, line[j+1:]
			continue
		case (c == '-' || c == '+' || c == '*') && space(j+1):
			depth, line = depth+1, line[j+2:]
			continue
		case c >= '0' && c <= '9':
			k := j
			for k < len(line) && k-j < 9 && line[k] >= '0' && line[k] <= '9' {
				k++
			}
			if k < len(line) && (line[k] == '.' || line[k] == ')') && space(k+1) {
				depth, line = depth+1, line[k+2:]
				continue
			}
		}
		return depth
	}
}
