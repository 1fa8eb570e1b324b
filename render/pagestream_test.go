package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
)

// A page is written as its template makes it; when the template fails
// part way, the page written again holds the note main writes, exactly,
// and nothing of the failed attempt.
func TestWritePageNoteAfterTemplateFails(t *testing.T) {
	r := newReport(synthetic(map[string]map[string][]float64{"a": {"loss": {3, 2, 1}}}), Options{})
	p := *r.pages()[1]
	if p.name != "scalars" {
		t.Fatalf("page %s, want scalars", p.name)
	}
	p.body = func(*Report, bool) (any, error) { return struct{ Runs int }{1}, nil } // no RunNames: the template fails
	var first bytes.Buffer
	err := r.writePage(&first, &p, nil)
	var c contentError
	if !errors.As(err, &c) {
		t.Fatalf("writePage = %v, want a contentError", err)
	}
	var again bytes.Buffer
	if err := r.writePage(&again, &p, c.err); err != nil {
		t.Fatal(err)
	}
	tmpl, err := r.templates()
	if err != nil {
		t.Fatal(err)
	}
	note := string(r.main(tmpl, &p, false))
	if !strings.Contains(note, "could not be built") || !strings.Contains(again.String(), note) {
		t.Errorf("page written again does not hold main's note %q", note)
	}
	if strings.Contains(again.String(), string(mainMark)) || strings.Count(again.String(), "</html>") != 1 {
		t.Errorf("page written again is not one whole page:\n%s", again.String())
	}
}

// The site's pages, streamed, are byte for byte the layout executed
// around main's content, as the single file's sections are made.
func TestWritePageEqualsLayoutAroundMain(t *testing.T) {
	r := newReport(synthetic(map[string]map[string][]float64{"a": {"loss": {3, 2, 1}, "acc": {1, 2}}, "b<i>": {"loss": {1}}}), Options{})
	tmpl, err := r.templates()
	if err != nil {
		t.Fatal(err)
	}
	runs, cut, err := r.runNames()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range r.pages() {
		var want bytes.Buffer
		err := tmpl.ExecuteTemplate(&want, "layout", layout{
			Title: r.opt.Title, PageTitle: p.title, Runs: runs, RunsCut: cut, Nav: r.nav(p.name, false),
			Mains: []mainSection{{Name: p.name, HTML: r.main(tmpl, p, false)}}, PageScripts: p.scripts, PageStyles: p.styles,
		})
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := r.writePage(&got, p, nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("page %s: streamed page differs from the layout around main", p.name)
		}
	}
}

// TestPagesShareParsedTemplates checks that a report parses its templates
// once (each page written parsed them all again), and that a page written
// with the set another page ran first is the page a fresh set writes.
func TestPagesShareParsedTemplates(t *testing.T) {
	r := newReport(synthetic(map[string]map[string][]float64{"a": {"loss": {3, 2, 1}}, "b": {"loss": {4, 2, 2}}}), Options{})
	first, err := r.templates()
	if err != nil {
		t.Fatal(err)
	}
	var pages [][]byte
	for _, p := range r.pages() {
		var b bytes.Buffer
		if err := r.writePage(&b, p, nil); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, b.Bytes())
	}
	if again, _ := r.templates(); again != first {
		t.Fatal("the templates were parsed again")
	}
	for i, p := range r.pages() {
		fresh := newReport(r.rep, Options{})
		var b bytes.Buffer
		if err := fresh.writePage(&b, fresh.pages()[i], nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), pages[i]) {
			t.Errorf("page %s differs when its templates ran other pages first", p.name)
		}
	}
}

// countingWriter counts the writes and bytes handed to it.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.Buffer.Write(p)
}

// TestPagesAreWrittenInFewWrites checks that the site's pages reach the
// stream in few writes, not one for each piece of their templates (the
// 8 M-point log's overview took some 3,800 system calls of a few bytes):
// at most one for each KB, and a few more, and the same bytes as
// writePage's.
func TestPagesAreWrittenInFewWrites(t *testing.T) {
	runs := map[string]map[string][]float64{}
	for k := range 30 {
		runs[fmt.Sprintf("run-%02d", k)] = map[string][]float64{"loss": {3, 2, 1, float64(k)}, "acc": {0.1, 0.5, 0.9}}
	}
	r := newReport(synthetic(runs), Options{})
	counts := map[string]*countingWriter{}
	var mu sync.Mutex
	err := r.eachFile(func(file) error { return nil }, func(name string, write func(io.Writer) error) error {
		c := &countingWriter{}
		mu.Lock()
		counts[name] = c
		mu.Unlock()
		return write(c)
	})
	if err != nil {
		t.Fatal(err)
	}
	fresh := newReport(r.rep, Options{})
	for i, p := range r.pages() {
		c := counts[p.file()]
		if c == nil {
			t.Fatalf("page %s not written", p.name)
		}
		if c.writes > c.Len()/1024+4 {
			t.Errorf("page %s: %d bytes in %d writes", p.name, c.Len(), c.writes)
		}
		var want bytes.Buffer
		if err := fresh.writePage(&want, fresh.pages()[i], nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(c.Bytes(), want.Bytes()) {
			t.Errorf("page %s: the bytes written differ from writePage's", p.name)
		}
	}
}

// stringCountingWriter counts the bytes written to it as strings.
type stringCountingWriter struct {
	bytes.Buffer
	strings int
}

func (w *stringCountingWriter) WriteString(s string) (int, error) {
	w.strings += len(s)
	return w.Buffer.WriteString(s)
}

// TestChartDataSplicedWhole checks that a scalars page's charts' data
// reach the writer whole, as the strings they are (spliceCharts: not
// copied through fmt first), every-run and sweep pages alike, and that
// the page is the layout around main, which executes the template with
// the data itself.
func TestChartDataSplicedWhole(t *testing.T) {
	for _, n := range []int{3, sweepPageRuns + 5} {
		runs := map[string]map[string][]float64{}
		for k := range n {
			runs[fmt.Sprintf("run-%03d", k)] = map[string][]float64{"loss": {3, 2, 1, float64(k)}, "acc": {0.1, 0.5, float64(k) / 100}}
		}
		r := newReport(synthetic(runs), Options{})
		tmpl, err := r.templates()
		if err != nil {
			t.Fatal(err)
		}
		p := r.pages()[1]
		body, err := r.body(p, false)
		if err != nil {
			t.Fatal(err)
		}
		sp := body.(*scalarsPage)
		data := 0
		for _, g := range sp.Groups {
			for _, c := range g.Charts {
				data += len(c.Data)
			}
		}
		var got stringCountingWriter
		if err := r.writePage(&got, p, nil); err != nil {
			t.Fatal(err)
		}
		if data == 0 || got.strings < data {
			t.Errorf("%d runs: %d bytes of the charts' %d written as strings", n, got.strings, data)
		}
		runNames, cut, err := r.runNames()
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		err = tmpl.ExecuteTemplate(&want, "layout", layout{
			Title: r.opt.Title, PageTitle: p.title, Runs: runNames, RunsCut: cut, Nav: r.nav(p.name, false),
			Mains: []mainSection{{Name: p.name, HTML: r.main(tmpl, p, false)}}, PageScripts: p.scripts, PageStyles: p.styles,
		})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%d runs: the page with its charts spliced differs from the layout around main", n)
		}
		if (sp.Sweep != nil) != (n > sweepPageRuns) {
			t.Errorf("%d runs: sweep page %v", n, sp.Sweep != nil)
		}
	}
}
