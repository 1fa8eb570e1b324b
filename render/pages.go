package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"

	"github.com/trainreport/trainreport/assets"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
	"github.com/trainreport/trainreport/templates"
)

// page is one page of the report: an entry of pageTable, which is all
// that wires a page into the report.
type page struct {
	// name is the page's file stem and names its template,
	// "main-<name>" in templates/<name>.html: "index", "scalars", ...
	name  string
	title string
	// kinds are the kinds of tag the page shows, which count counts.
	kinds []model.Kind
	// has reports whether the report holds anything for the page to
	// show: a page without is neither written nor linked.
	has func(*Report) bool
	// listed, when set, reports whether the navigation and the overview's
	// list of pages name the page: a page written for what a user may add
	// in the browser (Custom Scalars without a layout: the charts pinned
	// on Scalars) is not listed while it has nothing, and assets/
	// scalarchart.js shows its link once something is pinned. Nil: listed.
	listed func(*Report) bool
	// count is what the overview's list of pages says of the page ("3
	// tags in 2 runs"); nil for a page the list leaves out: the overview.
	count func(r *Report, kinds []model.Kind) countLine
	// body returns the data of the page's main template. single is set
	// for the single-file report, where the page must carry what the site
	// keeps in files of its own (images, clips) inline.
	body func(r *Report, single bool) (any, error)
	// data, when set, hands the page's files (its share of data/, and
	// media) to emit one at a time, so that memory holds one at a time,
	// and returns what data/index.json says of them.
	data func(r *Report, emit func(file) error) (*pageData, error)
	// scripts and styles are the page's own assets, loaded after
	// echarts.min.js, regexp.js, app.js and style.css.
	scripts, styles []string
}

// pageTable lists every page the report can have, in the order of the
// navigation, after pprof's table of output formats: the navigation, the
// overview's list of pages, the site's pages and data files and the
// single file all read it, so that a page is wired in by its line here,
// its builder, its template and its script (TestPageTable checks each
// entry against the templates and assets).
//
// It is filled in by init because the overview's builder lists the pages:
// an initializer would refer to the table through it.
var pageTable []page

func init() {
	pageTable = []page{
		{name: "index", title: "Overview", has: func(*Report) bool { return true },
			body: func(r *Report, single bool) (any, error) { return r.overviewPage(single), nil },
			data: (*Report).overviewData, scripts: []string{"overview.js"}, styles: []string{"overview.css"}},
		{name: "scalars", title: "Scalars", kinds: []model.Kind{model.KindScalar}, has: hasAny(runScalars), count: countTags,
			body: bodyOf((*Report).scalarsPage), data: (*Report).scalarsData,
			scripts: []string{"scalarchart.js", "scalarsweep.js", "scalars.js"}, styles: []string{"scalarsweep.css"}},
		{name: "custom_scalars", title: "Custom Scalars", kinds: []model.Kind{model.KindCustomScalars}, has: (*Report).hasCustomScalars, listed: (*Report).hasLayout, count: countLayoutCharts,
			body: bodyOf((*Report).customScalarsPage), scripts: []string{"scalarchart.js", "custom_scalars.js"},
			styles: []string{"custom_scalars.css"}},
		{name: "histograms", title: "Histograms", kinds: []model.Kind{model.KindHistogram}, has: hasAny(runHistograms), count: countTags,
			body: bodyOf((*Report).histogramsPage), data: (*Report).histogramsData,
			scripts: []string{"histograms.js"}, styles: []string{"histograms.css"}},
		{name: "distributions", title: "Distributions", kinds: []model.Kind{model.KindHistogram}, has: hasAny(runHistograms), count: countTags,
			body: bodyOf((*Report).distributionsPage), data: (*Report).distributionsData,
			scripts: []string{"histograms.js"}, styles: []string{"histograms.css"}},
		{name: "images", title: "Images", kinds: []model.Kind{model.KindImage}, has: hasAny(runImages), count: countTags,
			body: bodyOf((*Report).imagesPage), data: (*Report).imagesData,
			scripts: []string{"media.js", "images.js"}, styles: []string{"media.css"}},
		{name: "audio", title: "Audio", kinds: []model.Kind{model.KindAudio}, has: hasAny(runAudio), count: countTags,
			body: bodyOf((*Report).audioPage), data: (*Report).audioData,
			scripts: []string{"media.js", "audio.js"}, styles: []string{"media.css"}},
		{name: "text", title: "Text", kinds: []model.Kind{model.KindText}, has: hasAny(runTexts), count: countTags,
			body: bodyOf((*Report).textPage), data: (*Report).textData,
			scripts: []string{"text.js"}, styles: []string{"text.css"}},
		{name: "tensors", title: "Tensors", kinds: []model.Kind{model.KindTensor}, has: hasAny(runTensors), count: countTags,
			body: bodyOf((*Report).tensorsPage), data: (*Report).tensorsData,
			scripts: []string{"tensors.js"}, styles: []string{"tensors.css"}},
		{name: "exceptions", title: "Exceptions", kinds: []model.Kind{result.ExceptionKind}, has: hasExceptions, count: countExceptions,
			body: bodyOf((*Report).exceptionsPage), data: (*Report).exceptionsData,
			scripts: []string{"exceptions.js"}, styles: []string{"exceptions.css"}},
		{name: "hparams", title: "HParams", kinds: []model.Kind{model.KindHParams}, has: (*Report).hasHParams, count: countSessions,
			body: sameBody((*Report).hparamsPage), data: (*Report).hparamsData,
			scripts: []string{"hparams.js"}, styles: []string{"hparams.css"}},
		{name: "pr_curves", title: "PR curves", kinds: []model.Kind{model.KindPRCurve}, has: hasAny(runPRCurves), count: countTags,
			body: bodyOf((*Report).prCurvesPage), data: (*Report).prCurvesData,
			scripts: []string{"prcurves.js"}, styles: []string{"histograms.css"}},
		{name: "graphs", title: "Graphs", kinds: []model.Kind{model.KindGraph}, has: hasAny(runGraphs), count: countItems("graph", runGraphs),
			body: bodyOf((*Report).graphsPage), data: (*Report).graphsData,
			scripts: []string{"graphs.js"}, styles: []string{"graphs.css"}},
		{name: "visdom", title: "Visdom", kinds: []model.Kind{model.KindVisdom}, has: hasAny(runVisdom), count: countItems("window", runVisdom),
			body: bodyOf((*Report).visdomPage), data: (*Report).visdomData,
			scripts: []string{"visdom.js"}, styles: []string{"histograms.css", "visdom.css"}},
		{name: "meshes", title: "Meshes", kinds: []model.Kind{model.KindMesh}, has: (*Report).hasMeshes, count: countMeshes,
			body: bodyOf((*Report).meshesPage), data: (*Report).meshesData,
			scripts: []string{"meshes.js"}, styles: []string{"meshes.css"}},
		{name: "embeddings", title: "Embeddings", kinds: []model.Kind{result.EmbeddingKind}, has: hasAny(runEmbeddings), count: countEmbeddings,
			body: bodyOf((*Report).embeddingsPage), data: (*Report).embeddingsData,
			scripts: []string{"echarts-gl.min.js", "embeddings.js"}, styles: []string{"embeddings.css"}},
	}
}

// bodyOf adapts a page's builder to page.body.
func bodyOf[P any](build func(*Report, bool) (P, error)) func(*Report, bool) (any, error) {
	return func(r *Report, single bool) (any, error) { return build(r, single) }
}

// sameBody adapts the builder of a page that is the same in the site and
// the single file (it refers to no media file) to page.body.
func sameBody[P any](build func(*Report) (P, error)) func(*Report, bool) (any, error) {
	return func(r *Report, _ bool) (any, error) { return build(r) }
}

// pageData is what data/index.json says of a page's share of data/: its
// category and run -> tag -> file (relative to data/).
type pageData struct {
	// category names the data in data/index.json ("histogram", "image").
	// Section, when set, is the Tianshu group that holds the category in
	// each run's category index ("media" for image, audio and text;
	// "statistic" for histogram).
	category, section string
	index             map[string]map[string]string
	// notes list the data left out, and why.
	notes []dataNote
	// downsampled lists the series whose data files hold fewer points
	// than the logs.
	downsampled []downsampledNote
	// superseded maps run -> tag -> the data file of the scalar points
	// later attempts superseded (scalars only).
	superseded map[string]map[string]string
	// bundles maps run -> its scalar bundle (scalars only).
	bundles map[string]string
}

func (d *pageData) addSuperseded(run, tag, name string) {
	if d.superseded == nil {
		d.superseded = map[string]map[string]string{}
	}
	if d.superseded[run] == nil {
		d.superseded[run] = map[string]string{}
	}
	d.superseded[run][tag] = name
}

// emitTagFile writes a data file {tag: [entry, ...]} of run under name
// (relative to data/) and records it; entries that cannot be encoded (no
// value of ours fails to, but they come from logs) leave the file out
// with a note in data/index.json. Only an error of emit is returned.
func emitTagFile[E any](d *pageData, emit func(file) error, run, tag, name string, entries []E) error {
	b, err := tagFile(tag, entries)
	if err != nil {
		d.note(run, tag, fmt.Errorf("data file not written: %w", err))
		return nil
	}
	if err := emit(file{"data/" + name, b}); err != nil {
		return err
	}
	d.add(run, tag, name)
	return nil
}

// note records in data/index.json that the data of tag of run is not
// complete, and why.
func (d *pageData) note(run, tag string, err error) {
	d.notes = append(d.notes, dataNote{Category: d.category, Run: run, Tag: tag, Error: err.Error()})
}

// add records that tag of run has its data in file.
func (d *pageData) add(run, tag, file string) {
	if d.index[run] == nil {
		d.index[run] = map[string]string{}
	}
	d.index[run][tag] = file
}

func (p *page) file() string { return p.name + ".html" }

// isListed reports whether the navigation and the overview name p.
func (p *page) isListed(r *Report) bool { return p.listed == nil || p.listed(r) }

// anyRun reports whether some run of the report has has, which tells
// whether a category's page is made.
func (r *Report) anyRun(has func(*model.Run) bool) bool {
	return slices.ContainsFunc(r.rep.Runs, has)
}

// pages lists the report's pages: those of pageTable with data, the
// overview first.
func (r *Report) pages() []*page {
	var ps []*page
	for i := range pageTable {
		if p := &pageTable[i]; p.has(r) {
			ps = append(ps, p)
		}
	}
	return ps
}

// layout is what templates/layout.html draws around the pages' content.
type layout struct {
	Title     string // the report's
	PageTitle string
	// Runs names the runs in report order, for app.js to give each run
	// the same colour on every page: the first that fit its bound, RunsCut
	// counting the others.
	Runs    template.JS
	RunsCut int
	Nav     []navLink
	Mains   []mainSection
	Single  bool
	// PageScripts and PageStyles are the page's own asset files.
	PageScripts, PageStyles []string
	// Inlined assets, in single-file mode.
	Style   template.CSS
	Scripts []template.JS
}

type navLink struct {
	Name, Title, Href string
	Current           bool
	// Unlisted links are written hidden (page.listed).
	Unlisted bool
}

type mainSection struct {
	Name   string
	Hidden bool
	HTML   template.HTML
}

func (r *Report) nav(current string, single bool) []navLink {
	var links []navLink
	for _, p := range r.pages() {
		href := p.file()
		if single {
			href = "#page=" + p.name
		}
		links = append(links, navLink{Name: p.name, Title: p.title, Href: href, Current: p.name == current, Unlisted: !p.isListed(r)})
	}
	return links
}

// main executes a page's own template. A page whose data cannot be built
// or drawn (every builder turns what it cannot show of the logs into
// notes, so this is a last resort) is written with a note saying so, so
// that the rest of the report still is.
func (r *Report) main(t *template.Template, p *page, single bool) template.HTML {
	data, err := r.body(p, single)
	if err != nil {
		return pageError(t, p, err)
	}
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "main-"+p.name, data); err != nil {
		return pageError(t, p, err)
	}
	return template.HTML(b.String()) // the output of html/template
}

// body returns the data of a page's own template, built once for the
// single file. The site writes each page once: its data (for a sweep's
// scalars page, as big as the page) is let go as soon as the page is
// written, not kept as long as the report.
func (r *Report) body(p *page, single bool) (any, error) {
	key := bodyKey{p.name, single}
	if data, ok := r.bodies[key]; ok {
		return data, nil
	}
	data, err := p.body(r, single)
	if err == nil && single {
		r.bodies[key] = data
	}
	return data, err
}

// pageError is the content of a page that could not be built.
func pageError(t *template.Template, p *page, err error) template.HTML {
	var b bytes.Buffer
	if t.ExecuteTemplate(&b, "page-error", struct{ Title, Error string }{p.title, err.Error()}) != nil {
		return "" // the templates are embedded and tested: cannot fail
	}
	return template.HTML(b.String())
}

// templates returns the page templates, parsed once for the report: each
// page written (and the single file) parsed them all again, some 3 ms of
// CPU a page, and html/template escaped the layout again in each new set
// at its first execution. A parsed set is safe for concurrent execution.
func (r *Report) templates() (*template.Template, error) {
	r.parsed.Do(func() {
		r.tmpl, r.tmplErr = templates.Parse(template.FuncMap{
			"count": result.FormatCount,
			// plural writes "1 run", "2 runs", "1,234 points".
			"plural": result.CountOf,
		})
	})
	return r.tmpl, r.tmplErr
}

// writePage writes one page of the site: its layout around its own
// content, streamed into w as the template makes it, not held (for a
// sweep, the scalars page is hundreds of MB). The layout is executed with
// mainMark in the content's place and cut there. When the content cannot
// be made (see main), writePage returns a contentError after writing part
// of it: the caller writes the page again with failed set to that error,
// and writePage writes the note main would have written instead.
func (r *Report) writePage(w io.Writer, p *page, failed error) error {
	_, _, err := r.writePageBody(w, p, failed)
	return err
}

// writePageBody is writePage, returning the templates and the page's
// body it wrote (nil when it wrote a note instead), for the scripts of
// the runs a card page leaves out (writeCutScripts).
func (r *Report) writePageBody(w io.Writer, p *page, failed error) (*template.Template, any, error) {
	t, err := r.templates()
	if err != nil {
		return nil, nil, err
	}
	runs, cut, err := r.runNames()
	if err != nil {
		return nil, nil, err
	}
	var frame bytes.Buffer
	err = t.ExecuteTemplate(&frame, "layout", layout{
		Title: r.opt.Title, PageTitle: p.title, Runs: runs, RunsCut: cut, Nav: r.nav(p.name, false),
		Mains: []mainSection{{Name: p.name, HTML: mainMark}}, PageScripts: p.scripts, PageStyles: p.styles,
	})
	if err != nil {
		return nil, nil, err
	}
	head, tail, ok := bytes.Cut(frame.Bytes(), []byte(mainMark))
	if !ok || bytes.Contains(tail, []byte(mainMark)) {
		// The layout writes the page's content once, as is; the mark is
		// no text a title or run name can hold (they are escaped).
		return nil, nil, fmt.Errorf("page %s: the layout does not hold its content once", p.name)
	}
	if _, err := w.Write(head); err != nil {
		return nil, nil, err
	}
	var data any
	if failed == nil {
		data, failed = r.body(p, false)
	}
	if failed != nil {
		data = nil
		if _, err := io.WriteString(w, string(pageError(t, p, failed))); err != nil {
			return nil, nil, err
		}
	} else {
		ew := &errWriter{w: w}
		marked, out := spliceCharts(data, ew)
		if err := t.ExecuteTemplate(out, "main-"+p.name, marked); err != nil {
			if ew.err != nil {
				return nil, nil, ew.err
			}
			return nil, nil, contentError{err}
		}
	}
	_, err = w.Write(tail)
	return t, data, err
}

// spliceCharts returns data for the page's template and the writer it
// writes to: for a scalars page, a copy whose charts' data are marks and
// a writer that writes each chart's data in its mark's place, straight
// from its string (a template prints a value through fmt, which copied
// each chart's data into a buffer of its own first: some 5 MB on the
// 8 M-point log's page); otherwise data and w. A mark is a value the
// template prints in one write, holding NUL bytes, which no text or
// escaped value of a page holds: a write equal to one is that chart's.
func spliceCharts(data any, w io.Writer) (any, io.Writer) {
	sp, ok := data.(*scalarsPage)
	if !ok {
		return data, w
	}
	marked := *sp
	marked.Groups = make([]scalarGroup, len(sp.Groups))
	s := &chartSplicer{w: w, data: map[string]string{}}
	for gi, g := range sp.Groups {
		marked.Groups[gi] = g
		marked.Groups[gi].Charts = make([]scalarChart, len(g.Charts))
		for ci, c := range g.Charts {
			mark := "\x00trainreport-chart-" + strconv.Itoa(len(s.data)) + "\x00"
			s.data[mark] = string(c.Data)
			c.Data = template.JS(mark)
			marked.Groups[gi].Charts[ci] = c
		}
	}
	return &marked, s
}

// chartSplicer writes to w, a chart's data in place of each write equal
// to its mark (spliceCharts).
type chartSplicer struct {
	w    io.Writer
	data map[string]string
}

func (s *chartSplicer) Write(p []byte) (int, error) {
	if len(p) > 0 && p[0] == 0 {
		if d, ok := s.data[string(p)]; ok {
			if _, err := io.WriteString(s.w, d); err != nil {
				return 0, err
			}
			return len(p), nil
		}
	}
	return s.w.Write(p)
}

// contentError is an error of a page's own template, which writePage
// writes as a note on the page when called again with it.
type contentError struct{ err error }

func (e contentError) Error() string { return e.err.Error() }

// errWriter remembers the error of a write, to tell an error of the
// output from one of the template.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	n, err := e.w.Write(b)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}

// WriteString is Write of s, with no copy of it where w takes strings
// (a chart's data, chartSplicer).
func (e *errWriter) WriteString(s string) (int, error) {
	n, err := io.WriteString(e.w, s)
	if err != nil && e.err == nil {
		e.err = err
	}
	return n, err
}

// mainMark stands for a page's content in its layout (writePage): a
// comment holding a NUL, which html/template writes escaped in any text.
const mainMark template.HTML = "<!--\x00trainreport-main\x00-->"

// WriteSingleFile writes the whole report as one HTML document with every
// page, script, style and datum inlined, for mail and artifact viewers.
func (r *Report) WriteSingleFile(w io.Writer) error {
	t, err := r.templates()
	if err != nil {
		return err
	}
	runs, cut, err := r.runNames()
	if err != nil {
		return err
	}
	l := layout{Title: r.opt.Title, PageTitle: "Overview", Runs: runs, RunsCut: cut, Nav: r.nav("index", true), Single: true}
	// regexp.js before app.js, which takes the matcher it publishes
	// (templates/layout.html loads the site's pages in the same order).
	scripts, styles := []string{"echarts.min.js", "regexp.js", "app.js"}, []string{"style.css"}
	// users lists, by script, the pages whose scripts name it: a script of
	// one page only goes when the budget leaves the page out.
	users := map[string][]int{}
	for i, p := range r.pages() {
		for _, name := range p.scripts {
			users[name] = append(users[name], i)
			if !slices.Contains(scripts, name) { // pages may share a file
				scripts = append(scripts, name)
			}
		}
		for _, name := range p.styles {
			if !slices.Contains(styles, name) {
				styles = append(styles, name)
			}
		}
		l.Mains = append(l.Mains, mainSection{Name: p.name, HTML: r.main(t, p, true), Hidden: i > 0})
	}
	var css []byte
	for _, name := range styles {
		b, err := assets.FS.ReadFile(name)
		if err != nil {
			return err
		}
		css = append(append(css, b...), '\n')
	}
	l.Style = template.CSS(closingTag.ReplaceAll(css, []byte(`<\/$1`)))
	own := make([][]int, len(l.Mains))
	for k, name := range scripts {
		js, err := assets.FS.ReadFile(name)
		if err != nil {
			return err
		}
		l.Scripts = append(l.Scripts, template.JS(closingTag.ReplaceAll(js, []byte(`<\/$1`))))
		if u := users[name]; len(u) == 1 {
			own[u[0]] = append(own[u[0]], k)
		}
	}
	if err := r.fitSingleFile(t, &l, own); err != nil {
		return err
	}
	return t.ExecuteTemplate(w, "layout", l)
}

// fitSingleFile keeps the single file l within its budget: it leaves out
// the sections of the pages that do not fit, in the navigation's order
// (the overview and the scalars first), each replaced by a note saying
// so and that the site has the page, and notes on the overview which
// pages it left out. A page left out takes the scripts only it uses
// (own, by section: indices into l.Scripts) with it: the Embeddings
// page's echarts-gl.min.js alone is 640 KB. The sizes are exact: l is
// executed with every page and those scripts left out, and a page adds
// its content less its note, and its own scripts.
func (r *Report) fitSingleFile(t *template.Template, l *layout, own [][]int) error {
	budget := r.maxSingleFileBytes()
	if budget == math.MaxInt {
		return nil
	}
	full, scripts := slices.Clone(l.Mains), l.Scripts
	owner := make([]int, len(scripts)) // the section a script is only for, or -1
	for k := range owner {
		owner[k] = -1
	}
	for i, ks := range own {
		for _, k := range ks {
			owner[k] = i
		}
	}
	// keepScripts sets l's scripts, in their order: every shared one, and
	// those of the sections kept.
	keepScripts := func(kept []bool) {
		l.Scripts = nil
		for k, js := range scripts {
			if owner[k] < 0 || kept[owner[k]] {
				l.Scripts = append(l.Scripts, js)
			}
		}
	}
	// scriptBytes is what the section's own scripts add to the file: each
	// is written as <script>...</script> and a newline.
	scriptBytes := func(i int) int {
		n := 0
		for _, k := range own[i] {
			n += len(scripts[k]) + len("<script></script>\n")
		}
		return n
	}
	keepScripts(make([]bool, len(full)))
	notes := make([]template.HTML, len(full))
	for i, m := range full {
		var b bytes.Buffer
		err := t.ExecuteTemplate(&b, "single-cut", singleCut{Title: r.pageTitle(m.Name), Size: fmtBytes(len(m.HTML)),
			Budget: fmtBytes(budget), File: m.Name + ".html"})
		if err != nil {
			return err
		}
		notes[i] = template.HTML(b.String()) // the output of html/template
		l.Mains[i].HTML = notes[i]
	}
	var size countWriter
	if err := t.ExecuteTemplate(&size, "layout", l); err != nil {
		return err
	}
	total := int(size)
	for i, m := range full {
		total += len(m.HTML) - len(notes[i]) + scriptBytes(i)
	}
	if total <= budget {
		copy(l.Mains, full)
		l.Scripts = scripts
		return nil
	}
	// Room for the overview's note on what the file leaves out.
	room := budget - int(size) - singleNoteBytes - 128*len(full)
	var left []string
	kept := make([]bool, len(full))
	for i, m := range full {
		if extra := len(m.HTML) - len(notes[i]) + scriptBytes(i); extra <= room {
			l.Mains[i].HTML = m.HTML
			kept[i] = true
			room -= extra
		} else {
			left = append(left, r.pageTitle(m.Name))
		}
	}
	keepScripts(kept)
	if len(left) == 0 || len(left) == len(full) || r.pageTitle(full[0].Name) == left[0] {
		return nil // nothing left out, or no overview to say so
	}
	var b bytes.Buffer
	err := t.ExecuteTemplate(&b, "single-cut-list", struct {
		Pages  []string
		Budget string
	}{left, fmtBytes(budget)})
	if err != nil {
		return err
	}
	l.Mains[0].HTML = template.HTML(b.String()) + l.Mains[0].HTML // both the output of html/template
	return nil
}

// singleNoteBytes bounds the overview's note on the pages the single file
// leaves out, besides their titles.
const singleNoteBytes = 512

// singleCut is what a page's section of the single file says when the
// file leaves the page out (templates/layout.html's single-cut).
type singleCut struct{ Title, Size, Budget, File string }

// pageTitle is the title of the page named name.
func (r *Report) pageTitle(name string) string {
	for _, p := range pageTable {
		if p.name == name {
			return p.title
		}
	}
	return name
}

// countWriter counts the bytes written to it.
type countWriter int

func (c *countWriter) Write(b []byte) (int, error) {
	*c += countWriter(len(b))
	return len(b), nil
}

// bodyKey names a page's template data: pages differ between the site and
// the single file only in how they refer to media.
type bodyKey struct {
	page   string
	single bool
}

// runNames is the list of the report's run names every page holds, for
// app.js to give each run its colour: the first runs whose names fit in
// a 64th of the page budget (runListBytes), and how many it leaves out
// (those app.js colours by their name's hash).
func (r *Report) runNames() (template.JS, int, error) {
	names := make([]string, 0, len(r.rep.Runs))
	n := 2
	for _, run := range r.rep.Runs {
		// A name takes its length and quotes and comma, or up to six
		// bytes a byte when escaped: counted exactly by scriptJSON below.
		if n += len(run.Name) + 3; n > r.runListBytes() {
			break
		}
		names = append(names, run.Name)
	}
	for {
		js, err := scriptJSON(names)
		if err != nil || len(js) <= r.runListBytes() || len(names) == 0 {
			return js, len(r.rep.Runs) - len(names), err
		}
		names = names[:len(names)*9/10]
	}
}

// runListBytes bounds the list of run names every page holds: a 64th of
// the page budget, 80 KiB by default, some 6,000 names of ten characters:
// every run of a report whose runs a chart draws a line each. It was an
// eighth: at 100,000 runs, 655 KB and 50,412 names on every page, which
// the browser parsed and mapped before the first chart, for a sweep's
// pages that colour a few runs.
func (r *Report) runListBytes() int { return r.maxPageBytes() / 64 }

// scriptJSON encodes v for a <script type="application/json"> element,
// the way pages carry their data: HTML-escaped, so that no string in it
// (a tag named "</script>") can end the element early.
func scriptJSON(v any) (template.JS, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return template.JS(bytes.TrimSpace(b.Bytes())), nil
}

// closingTag matches what would end an inlined <script> or <style> early.
// In scripts and styles "<\/" means the same as "</" where it can occur:
// inside strings, regular expressions and comments.
var closingTag = regexp.MustCompile(`(?i)</(script|style)`)
