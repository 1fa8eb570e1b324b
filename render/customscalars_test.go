package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

func multiline(title string, patterns ...string) model.LayoutChart {
	return model.LayoutChart{Title: title, Multiline: patterns}
}

// The runs' layouts merge as TensorBoard's plugin merges them: runs by
// name, whatever their order in the report; categories by title, the
// first seen keeping its place and its closed flag; a chart equal to one
// its category has is not repeated, one that differs (by a pattern) is.
func TestMergeLayouts(t *testing.T) {
	runs := []*model.Run{
		{Name: "c", Layout: &model.Layout{Categories: []model.LayoutCategory{
			{Title: "B", Charts: []model.LayoutChart{multiline("z", "z")}},
			{Title: "A", Charts: []model.LayoutChart{multiline("y", "y.*"), multiline("x", "x")}},
		}}},
		{Name: "none"},
		{Name: "a", Layout: &model.Layout{Categories: []model.LayoutCategory{
			{Title: "A", Closed: true, Charts: []model.LayoutChart{multiline("x", "x"), multiline("y", "y")}},
		}}},
		{Name: "b", Layout: &model.Layout{Categories: []model.LayoutCategory{
			{Title: "B", Charts: []model.LayoutChart{{Title: "m", Margin: []model.MarginSeries{{Value: "v", Lower: "l", Upper: "u"}}}}},
		}}},
	}
	got := mergeLayouts(runs)
	type cat struct {
		title  string
		closed bool
		charts []string
	}
	var flat []cat
	for _, c := range got.Categories {
		fc := cat{title: c.Title, closed: c.Closed}
		for _, ch := range c.Charts {
			fc.charts = append(fc.charts, ch.Title+"="+string(mustJSON(t, ch)))
		}
		flat = append(flat, fc)
	}
	want := []cat{
		{"A", true, []string{
			"x=" + string(mustJSON(t, multiline("x", "x"))),
			"y=" + string(mustJSON(t, multiline("y", "y"))),
			"y=" + string(mustJSON(t, multiline("y", "y.*"))),
		}},
		{"B", false, []string{
			"m=" + string(mustJSON(t, model.LayoutChart{Title: "m", Margin: []model.MarginSeries{{Value: "v", Lower: "l", Upper: "u"}}})),
			"z=" + string(mustJSON(t, multiline("z", "z"))),
		}},
	}
	if len(flat) != len(want) {
		t.Fatalf("merged %+v, want %+v", flat, want)
	}
	for i := range want {
		if flat[i].title != want[i].title || flat[i].closed != want[i].closed || !slices.Equal(flat[i].charts, want[i].charts) {
			t.Errorf("category %d: %+v, want %+v", i, flat[i], want[i])
		}
	}
	// The runs' own layouts are left as they were.
	if n := len(runs[2].Layout.Categories[0].Charts); n != 2 {
		t.Errorf("run a's layout now has %d charts", n)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A multiline chart's patterns match at the start of a tag and not
// necessarily at its end (Python's re.match), in every run; a pattern
// RE2 refuses is noted and the others still match; a margin chart's tags
// are exact, and a missing bound is noted.
func TestLayoutChartMatches(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{
		"a": {"loss": {1}, "loss_ema": {1}, "val/loss": {1}, "acc": {1}},
		"b": {"loss": {1}, "lo": {1}, "hi": {1}},
	})
	rep.Runs[0].Layout = &model.Layout{Categories: []model.LayoutCategory{{Title: "c", Charts: []model.LayoutChart{
		multiline("m", "loss", `(?<!x)acc`, "nothing"),
		{Title: "band", Margin: []model.MarginSeries{{Value: "loss", Lower: "lo", Upper: "hi"}}},
	}}}}
	p, err := newReport(rep, Options{}).customScalarsPage(false)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Categories) != 1 || len(p.Categories[0].Charts) != 2 {
		t.Fatalf("page %+v", p)
	}
	series := func(c csChart) []csSeries {
		var d csChartData
		if err := json.Unmarshal([]byte(c.Data), &d); err != nil {
			t.Fatal(err)
		}
		return d.Series
	}
	m, band := p.Categories[0].Charts[0], p.Categories[0].Charts[1]
	if got, want := series(m), []csSeries{{Run: 0, Tag: "loss"}, {Run: 0, Tag: "loss_ema"}, {Run: 1, Tag: "loss"}}; !slices.Equal(got, want) {
		t.Errorf("multiline series %+v, want %+v", got, want)
	}
	if len(m.Notes) != 1 || m.Notes[0] == "" || m.Kind != "multiline" {
		t.Errorf("multiline notes %q, want one on the lookbehind", m.Notes)
	}
	if got, want := series(band), []csSeries{{Run: 0, Tag: "loss", Lower: "lo", Upper: "hi"}, {Run: 1, Tag: "loss", Lower: "lo", Upper: "hi"}}; !slices.Equal(got, want) {
		t.Errorf("margin series %+v, want %+v", got, want)
	}
	if want := []string{"Run a has no scalar tag lo: its band is drawn where both bounds are.",
		"Run a has no scalar tag hi: its band is drawn where both bounds are."}; !slices.Equal(band.Notes, want) {
		t.Errorf("margin notes %q, want %q", band.Notes, want)
	}
	// The index names every series' data file, its run's bundle; the single
	// file's, none.
	var idx customIndex
	if err := json.Unmarshal([]byte(p.Index), &idx); err != nil {
		t.Fatal(err)
	}
	r := newReport(rep, Options{})
	n := 0
	for _, tv := range r.tags {
		it := idx.Tags[tv.tag]
		if len(it.Runs) != len(tv.series) {
			t.Errorf("index of %s: runs %v, want %d", tv.tag, it.Runs, len(tv.series))
			continue
		}
		for k, sv := range tv.series {
			if got := idx.Runs[it.Runs[k]].Bundle; got != sv.file || idx.Runs[it.Runs[k]].Name != sv.run.Name {
				t.Errorf("index of %s, run %s: file %q, want %q", tv.tag, sv.run.Name, got, sv.file)
			}
			n++
		}
	}
	if n != 7 { // a's 4 tags, b's 3
		t.Errorf("the index names %d series, want 7", n)
	}
	ps, err := newReport(rep, Options{}).customScalarsPage(true)
	if err != nil {
		t.Fatal(err)
	}
	idx = customIndex{}
	if err := json.Unmarshal([]byte(ps.Index), &idx); err != nil {
		t.Fatal(err)
	}
	if it := idx.Tags["loss"]; len(it.Runs) != 2 || idx.Runs[0].Bundle != "" {
		t.Errorf("single file's index of loss %+v, runs %+v", it, idx.Runs)
	}
}

// BenchmarkCustomScalarsPage builds the page of 20,000 tags in 2 runs with
// a layout of 100 multiline charts, each matching its patterns against
// every tag of every run, and reports the page's data size.
func BenchmarkCustomScalarsPage(b *testing.B) {
	runs := map[string]map[string][]float64{"a": {}, "b": {}}
	for i := range 20000 {
		tag := fmt.Sprintf("group%d/tag%05d", i%50, i)
		runs["a"][tag], runs["b"][tag] = []float64{1, 2, 3}, []float64{3, 2, 1}
	}
	rep := synthetic(runs)
	var charts []model.LayoutChart
	for i := range 100 {
		charts = append(charts, multiline(fmt.Sprint(i), fmt.Sprintf(`group%d/`, i%50), fmt.Sprintf(`.*/tag0%d.*`, i%10)))
	}
	rep.Runs[0].Layout = &model.Layout{Categories: []model.LayoutCategory{{Title: "c", Charts: charts}}}
	r := newReport(rep, Options{})
	b.ResetTimer()
	for range b.N {
		p, err := r.customScalarsPage(false)
		if err != nil {
			b.Fatal(err)
		}
		n := len(p.Index)
		for _, c := range p.Categories[0].Charts {
			n += len(c.Data)
		}
		b.ReportMetric(float64(n), "bytes/page")
	}
}

// The overview's list of pages counts the layout's charts and the runs
// that wrote one; without a layout the page, which then holds nothing but
// what a user pins, is not listed, nor linked in the navigation but
// hidden (scalarchart.js shows the link once a chart is pinned).
func TestOverviewCountsLayoutCharts(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{"a": {"loss": {1, 2}}, "b": {"loss": {3}}})
	line := func() string {
		idx := string(filesByName(t, newReport(rep, Options{}))["index.html"])
		_, after, ok := strings.Cut(idx, `href="custom_scalars.html">Custom Scalars</a> <span class="muted">`)
		if !ok {
			return ""
		}
		line, _, _ := strings.Cut(after, "<")
		return line
	}
	files := filesByName(t, newReport(rep, Options{}))
	if _, ok := files["custom_scalars.html"]; !ok {
		t.Fatalf("without a layout the page is not written: a chart pinned on Scalars has nowhere to go")
	}
	if got := line(); got != "" {
		t.Errorf("without a layout the overview lists the page: %q", got)
	}
	if nav := `<a href="custom_scalars.html" data-page="custom_scalars" data-unlisted hidden>`; !strings.Contains(string(files["scalars.html"]), nav) {
		t.Errorf("without a layout the navigation lacks the hidden link %s", nav)
	}
	rep.Runs[0].Layout = &model.Layout{Categories: []model.LayoutCategory{{Title: "c", Charts: []model.LayoutChart{multiline("x", "loss"), multiline("y", "l.*")}}}}
	if got := line(); got != "2 layout charts in 1 run" {
		t.Errorf("with a layout: %q", got)
	}
}

// The page's index and run selector name the runs a chart of the page can
// draw, the first maxPinnedRuns of each tag and those of the layout's
// charts, not every run: their bytes are the same at 300 runs and at 1,200
// (a 15 MB page at 100,000 runs before), each tag counts all its runs, and
// the series of the layout charts name the same runs after the renumbering.
func TestCustomScalarsIndexDoesNotGrowWithRuns(t *testing.T) {
	sizes := map[int]int{}
	for _, n := range []int{150, 300, 1200} {
		rep := trialReport(n, 3, 0)
		// A tag only the last two runs have: a pin of it draws them.
		for _, run := range rep.Runs[n-2:] {
			run.Scalars = append(run.Scalars, &model.Scalar{Tag: "late", Points: []model.Point{{Step: 1, Value: 2}}})
		}
		rep.Runs[0].Layout = &model.Layout{Categories: []model.LayoutCategory{{Title: "c", Charts: []model.LayoutChart{
			multiline("late", "late"), {Title: "band", Margin: []model.MarginSeries{{Value: "late", Lower: "late", Upper: "late"}}}}}}}
		r := newReport(rep, Options{})
		p, err := r.customScalarsPage(false)
		if err != nil {
			t.Fatal(err)
		}
		fileOf := map[string]string{} // run name -> its bundle (data layout 3 packs runs)
		for run, f := range r.bundleOf {
			fileOf[run.Name] = f
		}
		var idx customIndex
		var names []string
		if err := json.Unmarshal([]byte(p.Index), &idx); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(p.RunNames), &names); err != nil {
			t.Fatal(err)
		}
		listed := min(n, maxPinnedRuns+2)
		if len(idx.Runs) != listed || len(names) != listed || p.RunsListed != listed || p.RunsCut != n-listed {
			t.Fatalf("%d runs: index of %d runs, selector of %d, listed %d, cut %d; want %d and %d", n, len(idx.Runs), len(names), p.RunsListed, p.RunsCut, listed, n-listed)
		}
		if (p.RunsNote == "") != (n == listed) {
			t.Errorf("%d runs: note %q", n, p.RunsNote)
		}
		for i, ir := range idx.Runs {
			if names[i] != ir.Name || ir.Bundle == "" || ir.Bundle != fileOf[ir.Name] {
				t.Fatalf("%d runs: index run %d is %+v, selector says %s", n, i, ir, names[i])
			}
		}
		loss, late := idx.Tags["loss"], idx.Tags["late"]
		if len(loss.Runs) != listed || (n > maxPinnedRuns) != (loss.N == n) || len(late.Runs) != 2 || late.N != 0 {
			t.Errorf("%d runs: loss lists %d runs and counts %d, late %v and %d", n, len(loss.Runs), loss.N, late.Runs, late.N)
		}
		for _, i := range late.Runs {
			if name := idx.Runs[i].Name; name != rep.Runs[n-2].Name && name != rep.Runs[n-1].Name {
				t.Errorf("%d runs: late names run %s", n, name)
			}
		}
		for _, c := range p.Categories[0].Charts {
			var d csChartData
			if err := json.Unmarshal([]byte(c.Data), &d); err != nil {
				t.Fatal(err)
			}
			if len(d.Series) != 2 {
				t.Fatalf("%d runs: chart %s draws %d series, want the last two runs", n, c.Title, len(d.Series))
			}
			for k, s := range d.Series {
				if got, want := idx.Runs[s.Run].Name, rep.Runs[n-2+k].Name; got != want {
					t.Errorf("%d runs: chart %s series %d names %s, want %s", n, c.Title, k, got, want)
				}
			}
		}
		sizes[n] = len(p.Index) + len(p.RunNames)
	}
	if d := sizes[1200] - sizes[300]; d < 0 || d > 8 {
		t.Errorf("index and selector: %d bytes at 300 runs, %d at 1,200", sizes[300], sizes[1200])
	}
}
