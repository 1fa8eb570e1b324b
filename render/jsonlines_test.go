package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/internal/summary"
)

// lineFormTypes are the outputs written in the line form (jsonLines), each
// with the Go type of its shape, whose json.MarshalIndent form the file
// had before.
var lineFormTypes = map[string]func() any{
	"summary.json":      func() any { return new(summary.JSON) },
	"data/index.json":   func() any { return new(dataIndex) },
	"data/hparams.json": func() any { return new(hparamsJSON) },
}

// checkLineForm checks that data, the site file name, written in the line
// form, holds what json.MarshalIndent(v, "", " ") of its type wrote:
// decoded into the type (no member unknown to it) and marshalled again,
// it is the same bytes but for whitespace, so the same members in the same
// order, maps' keys sorted, omitted and null members alike; and any JSON
// parser reads the same values from both.
func checkLineForm(t *testing.T, name string, data []byte) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber() // the `any` values keep their text
	v := lineFormTypes[name]()
	if err := dec.Decode(v); err != nil {
		t.Errorf("%s does not decode into %T: %v", name, v, err)
		return
	}
	indented, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := json.Compact(&a, data); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	json.Compact(&b, indented)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("%s differs from json.MarshalIndent's form of its values but for whitespace:\n%.300s\n%.300s", name, a.Bytes(), b.Bytes())
	}
	var x, y any
	json.Unmarshal(data, &x)
	json.Unmarshal(indented, &y)
	if !reflect.DeepEqual(x, y) {
		t.Errorf("%s reads as other values than json.MarshalIndent's form", name)
	}
	if len(data) > len(indented)+1 {
		t.Errorf("%s is %d bytes, json.MarshalIndent's form %d", name, len(data), len(indented)+1)
	}
}

// The line form writes the values json.MarshalIndent wrote, the
// containers opened with open a line an element, every other value compact
// on its line: empty containers as [] and {}, keys escaped as
// encoding/json escapes them (HTML too), nil as null.
func TestJSONLinesIsMarshalIndentsValuesALineAnElement(t *testing.T) {
	var b bytes.Buffer
	j := newJSONLines(&b, '{')
	j.value("title", "a <b> & \"c\"")
	j.open("runs", '[')
	j.value("", map[string]any{"name": "r1", "files": []int{1, 2}})
	j.value("", map[string]any{"name": "r2", "files": []int{}})
	j.close()
	j.open("empty", '{')
	j.close()
	j.open("metrics", '{')
	j.open("</script>", '{')
	j.value("loss", 0.5)
	j.close()
	j.value("r2", nil)
	j.close()
	if err := j.end(); err != nil {
		t.Fatal(err)
	}
	want := `{
 "title": "a \u003cb\u003e \u0026 \"c\"",
 "runs": [
  {"files":[1,2],"name":"r1"},
  {"files":[],"name":"r2"}
 ],
 "empty": {},
 "metrics": {
  "\u003c/script\u003e": {
   "loss": 0.5
  },
  "r2": null
 }
}
`
	if b.String() != want {
		t.Errorf("line form:\n%s\nwant:\n%s", b.String(), want)
	}
}

// An error of a value sticks: nothing more is written and end returns it.
func TestJSONLinesReturnsTheFirstError(t *testing.T) {
	var b bytes.Buffer
	j := newJSONLines(&b, '[')
	j.value("", 1)
	j.value("", func() {}) // encoding/json cannot write a func
	j.value("", 2)
	if err := j.end(); err == nil {
		t.Errorf("end returned no error for a value encoding/json cannot write")
	}
}

// largestWrite records the largest single Write it was given.
type largestWrite struct {
	n, largest int
}

func (w *largestWrite) Write(p []byte) (int, error) {
	w.n += len(p)
	w.largest = max(w.largest, len(p))
	return len(p), nil
}

// summary.json and data/index.json of a sweep are a line per run, a
// fourth and a sixth smaller than json.MarshalIndent's form of the same
// values (the values' own bytes are the rest), and are
// streamed: the writer never gets the document whole but pieces of the
// 64 KB buffer (here 2,000 runs, 1.5 MB).
func TestSweepOutputsAreALineARunAndStreamed(t *testing.T) {
	const runs = 2000
	rep := synthetic(grid(runs, 3, 3, func(r int) string { return fmt.Sprintf("trial%04d", r) },
		func(g int) string { return fmt.Sprintf("group%d/metric%d", g%2, g) }))
	r := newReport(rep, Options{Title: "sweep"})
	files := filesByName(t, r)
	for _, name := range []string{"summary.json", "data/index.json"} {
		data := files[name]
		checkLineForm(t, name, data)
		// Runs, metrics (summary.json); runs, scalar, scalar_bundles
		// (data/index.json): each a line a run, and a few lines more.
		perRun := map[string]int{"summary.json": 2, "data/index.json": 3}[name]
		if n := bytes.Count(data, []byte{'\n'}); n < perRun*runs || n > perRun*runs+40 {
			t.Errorf("%s has %d lines for %d runs, want %d a run and a few more", name, n, runs, perRun)
		}
		var v any
		json.Unmarshal(data, &v)
		indented, _ := json.MarshalIndent(v, "", " ")
		if most := map[string]int{"summary.json": 75, "data/index.json": 85}[name]; len(data) > len(indented)*most/100 {
			t.Errorf("%s is %d bytes, %d%% of the indented form's %d", name, len(data), len(data)*100/len(indented), len(indented))
		}
	}

	var w largestWrite
	if err := r.WriteSummaryJSON(&w); err != nil {
		t.Fatal(err)
	}
	if w.n != len(files["summary.json"]) {
		t.Fatalf("WriteSummaryJSON wrote %d bytes, the site's summary.json is %d", w.n, len(files["summary.json"]))
	}
	if w.n < 8<<16 || w.largest > 64<<10 {
		t.Errorf("summary.json of %d bytes was written in pieces of up to %d bytes, want at most 64 KB", w.n, w.largest)
	}
	var ix largestWrite
	if err := r.dataIndex(nil).write(&ix); err != nil {
		t.Fatal(err)
	}
	if ix.n < 2<<16 || ix.largest > 64<<10 {
		t.Errorf("data/index.json of %d bytes was written in pieces of up to %d bytes, want at most 64 KB", ix.n, ix.largest)
	}
	if !strings.HasPrefix(string(files["summary.json"]), "{\n \"title\": \"sweep\",\n \"restarts\": ") {
		t.Errorf("summary.json begins %.60q", files["summary.json"])
	}
}
