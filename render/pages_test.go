package render

import (
	"bytes"
	"context"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/assets"
	"github.com/trainreport/trainreport/collect"
)

// TestPageTable walks pageTable, which is all that wires a page into the
// report: every entry has its template and its assets, no two share a
// name, title, file or data category, and a page with data is written,
// listed by the overview and linked by every page's navigation, in the
// site and in the single file, while a page without is none of these.
func TestPageTable(t *testing.T) {
	tmpl, err := newReport(&model.Report{}, Options{}).templates()
	if err != nil {
		t.Fatal(err)
	}
	if len(pageTable) == 0 || pageTable[0].name != "index" || pageTable[0].count != nil {
		t.Fatal("the overview is not the first page, or lists itself")
	}
	seen := map[string]string{} // name, title or file -> page
	for _, p := range pageTable {
		for _, key := range []string{"name " + p.name, "title " + p.title, "file " + p.file()} {
			if other, dup := seen[key]; dup {
				t.Errorf("pages %s and %s share the %s", other, p.name, key)
			}
			seen[key] = p.name
		}
		if p.has == nil || p.body == nil {
			t.Errorf("%s: no has-data test or no body", p.name)
		}
		if p.count != nil && len(p.kinds) == 0 {
			t.Errorf("%s: counted in the overview, but shows no kind of tag", p.name)
		}
		if _, err := os.Stat(filepath.Join("..", "templates", p.file())); err != nil {
			t.Errorf("%s: no template: %v", p.name, err)
		}
		if tmpl.Lookup("main-"+p.name) == nil {
			t.Errorf("%s: no template defines main-%s", p.name, p.name)
		}
		for _, a := range slices.Concat(p.scripts, p.styles) {
			if _, err := fs.Stat(assets.FS, a); err != nil {
				t.Errorf("%s: asset %s: %v", p.name, a, err)
			}
		}
	}

	// The TF2 writers' fixture and Visdom's have data for every page.
	rep, err := collect.Collect(context.Background(), []model.Logdir{
		{Name: "tf2", Path: filepath.Join("..", "collect", "testdata", "writers", "tf2")},
		{Name: "visdom", Path: filepath.Join("..", "collect", "visdom", "testdata")}}, collect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := newReport(rep, Options{})
	files := filesByName(t, r)
	var single bytes.Buffer
	if err := r.WriteSingleFile(&single); err != nil {
		t.Fatal(err)
	}
	categories := map[string]string{}
	for _, p := range pageTable {
		if !p.has(r) {
			t.Errorf("%s: the fixture has no data for it: give it some, so that this test covers the page", p.name)
			continue
		}
		if files[p.file()] == nil {
			t.Errorf("%s: not written", p.name)
		}
		if p.count != nil {
			for _, c := range []struct{ where, html, href string }{
				{"index.html", string(files["index.html"]), p.file()},
				{"the single file", single.String(), "#page=" + p.name},
			} {
				if want := fmt.Sprintf(`<li><a href="%s">%s</a>`, c.href, html.EscapeString(p.title)); !bytes.Contains([]byte(c.html), []byte(want)) {
					t.Errorf("%s: the overview of %s does not list it (%s)", p.name, c.where, want)
				}
			}
		}
		for _, q := range pageTable {
			if link := fmt.Sprintf(`<a href="%s" data-page="%s"`, p.file(), p.name); !bytes.Contains(files[q.file()], []byte(link)) {
				t.Errorf("%s: the navigation of %s does not link it", p.name, q.file())
			}
		}
		if link := fmt.Sprintf(`<a href="#page=%s" data-page="%s"`, p.name, p.name); !bytes.Contains(single.Bytes(), []byte(link)) {
			t.Errorf("%s: the single file's navigation does not link it", p.name)
		}
		if main := fmt.Sprintf(`<main class="page" data-page="%s"`, p.name); !bytes.Contains(single.Bytes(), []byte(main)) {
			t.Errorf("%s: not in the single file", p.name)
		}
		if p.data != nil {
			d, err := p.data(r, func(file) error { return nil })
			if err != nil {
				t.Fatalf("%s: data: %v", p.name, err)
			}
			if d == nil { // no data files this time: the overview of few runs
				continue
			}
			if other, dup := categories[d.category]; dup {
				t.Errorf("pages %s and %s share the data category %s", other, p.name, d.category)
			}
			categories[d.category] = p.name
		}
	}

	// A report of scalars alone has the overview, the scalars page and
	// the custom scalars page, where the charts pinned on it go.
	r = newReport(synthetic(map[string]map[string][]float64{"a": {"loss": {1, 2}}}), Options{})
	files = filesByName(t, r)
	for _, p := range pageTable {
		want := p.name == "index" || p.name == "scalars" || p.name == "custom_scalars"
		if p.has(r) != want || (files[p.file()] != nil) != want {
			t.Errorf("%s: has data %v, written %v; want %v", p.name, p.has(r), files[p.file()] != nil, want)
		}
		if link := fmt.Sprintf(`href="%s"`, p.file()); bytes.Contains(files["index.html"], []byte(link)) != want {
			t.Errorf("%s: the overview links it: %v, want %v", p.name, !want, want)
		}
	}
}

// TestByTag pins the order byTag gives: tags sorted, each tag's series in
// run order, whatever order the runs list their series in.
func TestByTag(t *testing.T) {
	type s struct{ tag, id string }
	runs := []*model.Run{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	of := map[string][]s{
		"a": {{"z", "a/z"}, {"m", "a/m"}},
		"b": {},
		"c": {{"m", "c/m"}, {"a", "c/a"}, {"z", "c/z"}},
	}
	got := byTag(runs, func(run *model.Run) []s { return of[run.Name] }, func(x s) string { return x.tag })
	var out []string
	for _, ts := range got {
		line := ts.tag + ":"
		for _, rs := range ts.runs {
			if rs.run.Name+"/"+ts.tag != rs.series.id {
				t.Errorf("series %s paired with run %s", rs.series.id, rs.run.Name)
			}
			line += " " + rs.series.id
		}
		out = append(out, line)
	}
	want := []string{"a: c/a", "m: a/m c/m", "z: a/z c/z"}
	if !slices.Equal(out, want) {
		t.Errorf("byTag = %q, want %q", out, want)
	}
	if n := countSeries(got); n != 5 {
		t.Errorf("countSeries = %d, want 5", n)
	}
	if got := byTag(nil, func(*model.Run) []s { return nil }, func(x s) string { return x.tag }); len(got) != 0 {
		t.Errorf("byTag of no runs = %v", got)
	}
}
