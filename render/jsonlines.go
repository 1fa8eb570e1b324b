package render

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
)

// The outputs that grow with the runs and that no page loads
// (summary.json, data/index.json, data/hparams.json) are written in their
// line form (docs/OUTPUTS.md, "The line form"): the values and shapes
// json.MarshalIndent(v, "", " ") wrote, but only the containers that grow
// with the runs indented, each of their elements one line written
// compact, as json.Marshal writes it. At 100,000 runs the indentation was
// most of the bytes (summary.json 228 MB, data/index.json 89.5 MB), while
// a line per run keeps a file readable in a pager, greppable by run and
// diffable run by run. The file is streamed: one element in memory at a
// time, never the whole document.

// jsonLines writes a JSON document in the line form through a buffer:
// open and close a container whose elements each take a line of their
// own, value an element written compact on one line. Each level is
// indented one space further, as json.MarshalIndent's " " does, and an
// object's key is followed by ": " as there. The first error sticks:
// later calls do nothing and end returns it.
type jsonLines struct {
	w   *bufio.Writer
	err error
	// levels are the open containers, innermost last.
	levels []jsonLevel
}

type jsonLevel struct {
	object bool // an object: its elements have keys
	empty  bool // no element written yet
	end    byte // its closing bracket
}

// newJSONLines starts a document of w, a container opened with bracket
// ('{' or '[') at its root.
func newJSONLines(w io.Writer, bracket byte) *jsonLines {
	j := &jsonLines{w: bufio.NewWriterSize(w, 64<<10)}
	j.push(bracket)
	return j
}

func (j *jsonLines) push(bracket byte) {
	end := byte(']')
	if bracket == '{' {
		end = '}'
	}
	j.w.WriteByte(bracket)
	j.levels = append(j.levels, jsonLevel{object: bracket == '{', empty: true, end: end})
}

// next starts the innermost container's next element on a line of its
// own, with its key when the container is an object.
func (j *jsonLines) next(key string) {
	l := &j.levels[len(j.levels)-1]
	if !l.empty {
		j.w.WriteByte(',')
	}
	l.empty = false
	j.w.WriteByte('\n')
	j.w.WriteString(strings.Repeat(" ", len(j.levels)))
	if l.object {
		j.write(key)
		j.w.WriteString(": ")
	}
}

// write appends v compact, as json.Marshal writes it (HTML-escaped, map
// keys sorted).
func (j *jsonLines) write(v any) {
	if j.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		j.err = err
		return
	}
	j.w.Write(b)
}

// value writes v, compact on one line, as the next element (key ignored
// in an array).
func (j *jsonLines) value(key string, v any) {
	if j.err != nil {
		return
	}
	j.next(key)
	j.write(v)
}

// open starts a container as the next element (key ignored in an array),
// its own elements a line each.
func (j *jsonLines) open(key string, bracket byte) {
	if j.err != nil {
		return
	}
	j.next(key)
	j.push(bracket)
}

// close ends the innermost container: an empty one as "[]" or "{}", as
// json.MarshalIndent writes it, a full one with its bracket on a line of
// its own.
func (j *jsonLines) close() {
	if j.err != nil {
		return
	}
	l := j.levels[len(j.levels)-1]
	j.levels = j.levels[:len(j.levels)-1]
	if !l.empty {
		j.w.WriteByte('\n')
		j.w.WriteString(strings.Repeat(" ", len(j.levels)))
	}
	j.w.WriteByte(l.end)
}

// end closes the containers left open, ends the document with a line
// break and flushes it, returning the first error.
func (j *jsonLines) end() error {
	for len(j.levels) > 0 && j.err == nil {
		j.close()
	}
	if j.err != nil {
		return j.err
	}
	j.w.WriteByte('\n')
	return j.w.Flush()
}
