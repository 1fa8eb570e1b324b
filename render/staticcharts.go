package render

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/go-analyze/charts"

	"github.com/trainreport/trainreport/collect/model"
)

// Static charts are small pictures of the key metrics for where no script
// runs: summary.md (SVG files beside it, charts/) and the email body
// (PNG parts). They are drawn in Go by go-analyze/charts, which draws in
// ECharts' style, with the pages' run colours (assets/app.js, colorOf).
// Its x axis is one of categories, so each chart resamples its lines onto
// chartColumns evenly spaced steps (docs/OUTPUTS.md).
const (
	// maxStaticCharts is how many tags get a chart: the first of
	// orderedTags, whose better direction is known first.
	maxStaticCharts = 4
	// maxChartRuns bounds the lines of a chart: the first runs, in the
	// report's order.
	maxChartRuns = 10
	// chartColumns is how many steps a chart's lines are resampled at.
	chartColumns = 120
	chartWidth   = 560
	chartHeight  = 300
	// chartNameRunes bounds a name (title, legend) drawn on a chart.
	chartNameRunes = 40
)

// palette is assets/app.js's PALETTE: the first runs' colours on every
// page (TestPaletteMatchesApp checks the two agree).
var palette = []string{
	"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf",
	"#bcbd22", "#7f7f7f", "#d62728", "#393b79", "#637939", "#8c6d31", "#843c39",
	"#7b4173", "#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363",
}

// colorAt is the colour of the i-th run of the report, as app.js's
// colorAt gives it: the palette, then hues spread by the golden angle.
func colorAt(i int) string {
	if i < len(palette) {
		return palette[i]
	}
	k := i - len(palette)
	s, l := 0.65, 0.45
	if k%2 == 1 {
		s = 0.45
	}
	if k%3 == 1 {
		l = 0.35
	}
	return hslHex(math.Mod(float64(k)*137.508+15, 360), s, l)
}

// hslHex is app.js's hslHex: HSL to #rrggbb.
func hslHex(h, s, l float64) string {
	a := s * min(l, 1-l)
	f := func(n float64) string {
		k := math.Mod(n+h/30, 12)
		c := l - a*max(-1, min(k-3, 9-k, 1))
		return fmt.Sprintf("%02x", int(math.Floor(c*255+0.5)))
	}
	return "#" + f(0) + f(8) + f(4)
}

// StaticChart is one chart of a key metric.
type StaticChart struct {
	// Tag is the metric drawn; Name is its file's base name without the
	// extension (chart-1, chart-2...: names from the logs make no file
	// name).
	Tag, Name string
	// Runs counts the runs drawn; LeftOut those beyond maxChartRuns.
	Runs, LeftOut int
	tv            *tagView
}

// StaticCharts lists the charts summary.md and the email carry: the first
// maxStaticCharts tags with a series of two finite values or more.
func (r *Report) StaticCharts() []StaticChart {
	var out []StaticChart
	for _, tv := range r.orderedTags() {
		if len(out) == maxStaticCharts {
			break
		}
		// A line needs two points: a tag logged once (hp_metric) is a
		// number, which the tables show.
		if !slices.ContainsFunc(tv.series, func(sv *seriesView) bool { return sv.stats.HasFinite && sv.stats.Count-sv.stats.NonFinite >= 2 }) {
			continue
		}
		n := min(len(tv.series), maxChartRuns)
		out = append(out, StaticChart{Tag: tv.tag, Name: "chart-" + strconv.Itoa(len(out)+1), Runs: n, LeftOut: len(tv.series) - n, tv: tv})
	}
	return out
}

// Chart draws c as "svg" or "png".
func (r *Report) Chart(c StaticChart, format string) ([]byte, error) {
	runIndex := map[*model.Run]int{}
	for i, run := range r.rep.Runs {
		runIndex[run] = i
	}
	series := c.tv.series[:c.Runs]
	drawn := make([][]model.Point, len(series))
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for k, sv := range series {
		sv.mustDraw(sv.draw)
		drawn[k] = drawnOf(sv)
		for _, p := range drawn[k] {
			lo, hi = min(lo, p.Step), max(hi, p.Step)
		}
	}
	if lo > hi {
		return nil, fmt.Errorf("chart of %q: no point", c.Tag)
	}
	cols, labels, nLabels := stepGrid(lo, hi, chartColumns)
	var values [][]float64
	var names []string
	var colors []charts.Color
	for k, sv := range series {
		values = append(values, resample(drawn[k], cols))
		names = append(names, cutName(sv.run.Name))
		colors = append(colors, charts.ColorFromHex(colorAt(runIndex[sv.run])))
	}
	theme := charts.GetTheme(charts.ThemeLight).WithSeriesColors(colors)
	opt := charts.NewLineChartOptionWithData(values)
	opt.Theme = theme
	opt.Title.Text = cutName(c.Tag)
	opt.Title.FontStyle.FontSize = 13
	opt.Legend.SeriesNames = names
	opt.Legend.Offset = charts.OffsetStr{Left: "center", Top: "bottom"}
	opt.Legend.FontStyle.FontSize = 9
	opt.XAxis.Labels = labels
	opt.XAxis.LabelCount = nLabels
	opt.XAxis.BoundaryGap = charts.Ptr(false)
	opt.Symbol = charts.Symbol{Shape: charts.SymbolNone}
	opt.LineStrokeWidth = 1.5
	opt.YAxis = []charts.YAxisOption{{ValueFormatter: func(v float64) string { return fmtValue(v) }}}
	out := charts.ChartOutputPNG
	if format == "svg" {
		out = charts.ChartOutputSVG
	}
	p := charts.NewPainter(charts.PainterOptions{OutputFormat: out, Width: chartWidth, Height: chartHeight})
	if err := p.LineChart(opt); err != nil {
		return nil, fmt.Errorf("chart of %q: %w", c.Tag, err)
	}
	b, err := p.Bytes()
	if err != nil || format != "svg" {
		return b, err
	}
	// The SVG has a viewBox only, and an image of it would fill the
	// width of a page: give it its size.
	box := fmt.Sprintf(`viewBox="0 0 %d %d"`, chartWidth, chartHeight)
	return bytes.Replace(b, []byte(box), []byte(fmt.Sprintf(`width="%d" height="%d" %s`, chartWidth, chartHeight, box)), 1), nil
}

// drawnOf returns the drawn points of sv, in its draw's order, copied out
// of its points: a chart reads them twice (the steps' range, then
// resample), and read where they lie, one of every few dozen points of
// series no longer in any cache (the 8 M-point log's: 2,000 of 100,000
// a series), each load waited for memory inside the loops, half of the
// static charts' CPU. The copy's loads are independent of one another,
// so that many are in flight at once.
func drawnOf(sv *seriesView) []model.Point {
	pts := make([]model.Point, len(sv.draw))
	for i, j := range sv.draw {
		pts[i] = sv.scalar.Points[j]
	}
	return pts
}

// resample gives a series' value at each column from its drawn points
// pts (drawnOf): the mean of its finite drawn points nearest that column
// (those closer to it than to the next and previous columns), linearly
// interpolated between columns that have some, null outside the series'
// steps and where its values are not finite.
func resample(pts []model.Point, cols []int64) []float64 {
	null := charts.GetNullValue()
	sums := make([]float64, len(cols))
	counts := make([]int, len(cols))
	first, last := int64(math.MaxInt64), int64(math.MinInt64)
	for _, p := range pts {
		first, last = min(first, p.Step), max(last, p.Step)
		if math.IsNaN(p.Value) || math.IsInf(p.Value, 0) {
			continue
		}
		i, _ := slices.BinarySearch(cols, p.Step)
		if i == len(cols) || i > 0 && p.Step-cols[i-1] < cols[i]-p.Step {
			i--
		}
		sums[i] += p.Value
		counts[i]++
	}
	out := make([]float64, len(cols))
	prev := -1
	for i := range cols {
		out[i] = null
		if counts[i] == 0 {
			continue
		}
		out[i] = sums[i] / float64(counts[i])
		if prev >= 0 {
			for k := prev + 1; k < i; k++ {
				if cols[k] >= first && cols[k] <= last {
					t := float64(k-prev) / float64(i-prev)
					out[k] = out[prev] + t*(out[i]-out[prev])
				}
			}
		}
		prev = i
	}
	return out
}

// stepGrid lays the columns over [lo, hi] so that round steps (about 5:
// 0, 5k, 10k...) fall on every m-th column, evenly spaced as the x axis
// spaces its labels, and returns the columns, their labels (blank but at
// the round steps) and how many labels there are.
func stepGrid(lo, hi int64, columns int) (cols []int64, labels []string, nLabels int) {
	if hi <= lo {
		return []int64{lo}, []string{fmtStep(lo)}, 1
	}
	tick := niceStep(float64(hi-lo) / 5)
	t0 := math.Floor(float64(lo)/tick) * tick
	t1 := math.Ceil(float64(hi)/tick) * tick
	k := int(math.Round((t1-t0)/tick)) + 1
	m := max(1, (columns-1)/(k-1))
	n := (k-1)*m + 1
	for i := range n {
		c := int64(math.Round(t0 + tick*float64(i)/float64(m)))
		cols = append(cols, c)
		l := ""
		if i%m == 0 {
			l = fmtStep(c)
		}
		labels = append(labels, l)
	}
	return cols, labels, k
}

// niceStep rounds x up to 1, 2 or 5 times a power of ten.
func niceStep(x float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// fmtStep writes a step short: 1200, 15k, 2.5M.
func fmtStep(s int64) string {
	a := math.Abs(float64(s))
	switch {
	case a >= 1e6:
		return strconv.FormatFloat(float64(s)/1e6, 'f', -1, 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(math.Round(float64(s)/100)/10, 'f', -1, 64) + "k"
	}
	return strconv.FormatInt(s, 10)
}

// cutName bounds a name drawn on a chart, its control characters
// (a line break starts a new line of a title) made spaces.
func cutName(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > chartNameRunes {
		return string([]rune(s)[:chartNameRunes-1]) + "…"
	}
	return s
}

// ChartsDir is the site's folder of static charts, beside summary.md.
const ChartsDir = "charts/"

// mdCharts writes the static charts as images, chartURL giving each
// one's address.
func (r *Report) mdCharts(md *mdWriter, chartURL func(StaticChart) string) {
	cs := r.StaticCharts()
	if len(cs) == 0 || chartURL == nil {
		return
	}
	var rows []string
	for _, c := range cs {
		// The chart's title names the tag: the alt text is ours, so that
		// no name from the logs is inside an image's markup.
		row := fmt.Sprintf("![%s](%s)", c.Name, chartURL(c))
		if c.LeftOut > 0 {
			row += fmt.Sprintf(" (the first %d runs of %d)", c.Runs, c.Runs+c.LeftOut)
		}
		rows = append(rows, row+"\n")
	}
	md.table("## Charts\n\n", rows, 0, "charts")
}
