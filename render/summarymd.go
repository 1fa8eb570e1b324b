package render

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// MarkdownForm is what summary.md is written for: each has its own limit
// on size, and what does not fit is left out, saying so.
type MarkdownForm int

const (
	// MarkdownComment, the default, fits a pull-request comment, which
	// GitHub cuts at 65,536 characters: the headline, the runs, the
	// metrics that matter (each run's table for a few runs; for a sweep,
	// per metric the top and bottom runs), the best hparams sessions and
	// the first warnings, each bounded.
	MarkdownComment MarkdownForm = iota
	// MarkdownJob is the full form for a CI job summary, which GitHub
	// takes up to 1 MiB: every run and every (tag, run) row, every
	// warning, as many as fit.
	MarkdownJob
)

// ParseMarkdownForm reads a form's name: "comment" or "job".
func ParseMarkdownForm(s string) (MarkdownForm, error) {
	switch s {
	case "comment":
		return MarkdownComment, nil
	case "job":
		return MarkdownJob, nil
	}
	return 0, fmt.Errorf("unknown Markdown form %q: want comment or job", s)
}

func (f MarkdownForm) String() string {
	if f == MarkdownJob {
		return "job"
	}
	return "comment"
}

// Limits of summary.md. GitHub counts a comment's characters, as the
// browser does: UTF-16 code units (a character beyond the BMP, an emoji,
// counts two). The budgets leave a margin under each limit for what a CI
// step adds around the file (a heading, a link to the artifact).
const (
	commentLimit  = 65_536
	commentBudget = 60_000    // UTF-16 code units
	jobBudget     = 1_000_000 // bytes, under 1 MiB (1,048,576)
	// closingReserve is kept for the closing line, which says what was
	// left out: it names no run or tag, so it is short.
	closingReserve = 1_000
)

// Bounds of the comment form's sections, beyond the budget that bounds
// them all.
const (
	// sweepRuns: with more runs holding scalars than this, the metrics
	// are shown per tag as the top and bottom runs, not as a table per
	// run.
	sweepRuns = 8
	// rankedRuns is how many runs each end of a sweep's ranking shows.
	rankedRuns = 5
	// commentRunRows, commentTagRows, commentSessions, commentWarnings
	// and commentSkipped bound the rows of the runs table, of each run's
	// metrics table, of the hparams table, and the warnings and skipped
	// files listed.
	commentRunRows  = 20
	commentTagRows  = 40
	commentSessions = 10
	commentWarnings = 10
	commentSkipped  = 10
	// maxNonFiniteNamed bounds the series the headline names as having no
	// finite value.
	maxNonFiniteNamed = 10
	// maxHParamCols bounds the varying hyperparameters the hparams table
	// shows; jobSessions its sessions in the job form.
	maxHParamCols = 6
	jobSessions   = 100
	// commentNameRunes and jobNameRunes bound a name (run, tag,
	// hyperparameter value) as written: names come from logs, and one
	// name must not use the whole budget.
	commentNameRunes = 120
	jobNameRunes     = 1_000
)

// mdWriter writes summary.md within a budget, counting what it leaves out.
type mdWriter struct {
	b       strings.Builder
	used    int
	budget  int
	measure func(string) int
	// nameRunes bounds each name written.
	nameRunes int
	// left lists what was left out, for the closing line: how many of
	// each unit, in the order first left out.
	left []leftOut
}

type leftOut struct {
	n    int
	unit string
}

// write writes s if it fits in the budget and reports whether it did.
func (w *mdWriter) write(s string) bool {
	n := w.measure(s)
	if w.used+n > w.budget {
		return false
	}
	w.b.WriteString(s)
	w.used += n
	return true
}

// leave records that n things (unit, in the plural) were left out.
func (w *mdWriter) leave(n int, unit string) {
	if n <= 0 {
		return
	}
	if i := slices.IndexFunc(w.left, func(l leftOut) bool { return l.unit == unit }); i >= 0 {
		w.left[i].n += n
		return
	}
	w.left = append(w.left, leftOut{n, unit})
}

// leftText says what was left out: "5 runs of the runs table; 3 warnings".
func (w *mdWriter) leftText() string {
	parts := make([]string, len(w.left))
	for i, l := range w.left {
		parts[i] = result.FormatCount(l.n) + " " + l.unit
	}
	return strings.Join(parts, "; ")
}

// name escapes an untrusted name for Markdown text or a table cell, cut to
// the form's bound.
func (w *mdWriter) name(s string) string {
	if utf8.RuneCountInString(s) > w.nameRunes {
		s = string([]rune(s)[:w.nameRunes]) + "…"
	}
	return mdText(s)
}

// bold shows an untrusted name in bold, as name does; with no space
// inside the **, or it shows as text.
func (w *mdWriter) bold(s string) string {
	if t := strings.TrimSpace(w.name(s)); t != "" {
		return "**" + t + "**"
	}
	return ""
}

// code shows untrusted text as inline code (see mdCode), cut to the form's
// bound.
func (w *mdWriter) code(s string) string {
	if limit := 4 * w.nameRunes; utf8.RuneCountInString(s) > limit {
		s = string([]rune(s)[:limit]) + "…"
	}
	return mdCode(s)
}

// table writes a section: head (its heading and the table's header) then
// rows while they fit, at most limit of them (0: no limit). It writes
// nothing when not even the first row fits, and says what it left out
// (unit: what a row is, in the plural).
func (w *mdWriter) table(head string, rows []string, limit int, unit string) {
	n := len(rows)
	if limit > 0 {
		n = min(n, limit)
	}
	if len(rows) == 0 || !w.fitsTogether(head, rows[0]) {
		w.leave(len(rows), unit)
		return
	}
	w.write(head)
	kept := 0
	for _, row := range rows[:n] {
		if !w.write(row) {
			break
		}
		kept++
	}
	w.write("\n")
	w.leave(len(rows)-kept, unit)
}

// within runs section with at most share of the whole budget left to
// it (and never more than what is left), so that one section cannot
// starve those after it.
func (w *mdWriter) within(share float64, section func()) {
	whole := w.budget
	w.budget = min(whole, w.used+int(share*float64(whole)))
	section()
	w.budget = whole
}

// fitsTogether reports whether a and b fit in the budget together.
func (w *mdWriter) fitsTogether(a, b string) bool {
	return w.used+w.measure(a)+w.measure(b)+1 <= w.budget
}

// utf16Len counts s as GitHub counts a comment: in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

func byteLen(s string) int { return len(s) }

// WriteMarkdown writes summary.md, for a pull-request comment or a CI job
// summary (Options.MarkdownForm): the headline (runs, files, tags, points,
// every warning, files skipped, series with no finite value), the runs,
// key metrics with Unicode sparklines, the best hparams sessions and the
// warnings. It holds no data: URIs, and stays within its form's limit,
// listing fewer rows and saying what it left out and where the rest is.
func (r *Report) WriteMarkdown(w io.Writer) error {
	prefix := ChartsDir
	if r.opt.ChartsURL != "" {
		prefix = r.opt.ChartsURL
	}
	return r.writeMarkdown(w, r.opt.MarkdownForm, func(c StaticChart) string { return prefix + c.Name + ".svg" }, r.whereEverything(false))
}

// MarkdownWithCharts is WriteMarkdown for a summary.md written elsewhere
// than in the site (--markdown FILE): its charts are named by prefix (the
// site's charts folder as seen from the file's), then their name.
func (r *Report) MarkdownWithCharts(prefix string) func(io.Writer) error {
	if r.opt.ChartsURL != "" {
		prefix = r.opt.ChartsURL
	}
	return func(w io.Writer) error {
		return r.writeMarkdown(w, r.opt.MarkdownForm, func(c StaticChart) string { return prefix + c.Name + ".svg" }, r.whereEverything(false))
	}
}

// siteURL is the address of the report's site when --charts-url names
// its charts folder (".../charts/", as docs/GATES.md asks to upload
// it): the folder above, where the site is taken to be uploaded whole;
// else "". The flag's URL holds nothing that could end a Markdown link.
func (r *Report) siteURL() string {
	// Twice in the closing line, within what is kept for it.
	if len(r.opt.ChartsURL) > closingReserve/4 {
		return ""
	}
	if u, ok := strings.CutSuffix(r.opt.ChartsURL, "/"+ChartsDir); ok {
		return u + "/"
	}
	return ""
}

// whereEverything is the summary's last sentence, saying where every run
// and metric is: a link to the site's pages when siteURL knows them; else
// beside summary.md, its index.html (relative: where the file is read in
// the site), or, in an email, which has no file beside it, the folder the
// report was written to.
func (r *Report) whereEverything(email bool) string {
	switch site := r.siteURL(); {
	case site != "":
		return fmt.Sprintf("Every run and metric is on [the report's pages](%sindex.html) and in its [summary.json](%ssummary.json).", site, site)
	case email:
		return "Every run and metric is on the report's pages and in its summary.json, in the folder the report was written to (open its index.html): this email carries the summary only."
	}
	return "Every run and metric is in summary.json and on the report's pages (index.html)."
}

// writeMarkdown writes summary.md in form, each chart's image at
// chartURL, ending with where, the sentence saying where the rest is.
func (r *Report) writeMarkdown(w io.Writer, form MarkdownForm, chartURL func(StaticChart) string, where string) error {
	return r.writeMarkdownWithin(w, form, chartURL, where, 0)
}

// writeMarkdownWithin is writeMarkdown within budget units of the form's
// measure, closing line included, rather than the form's own budget (0):
// for the email, whose HTML must stay under what mail clients show
// whole.
func (r *Report) writeMarkdownWithin(w io.Writer, form MarkdownForm, chartURL func(StaticChart) string, where string, budget int) error {
	md := &mdWriter{budget: commentBudget - closingReserve, measure: utf16Len, nameRunes: commentNameRunes}
	comment := form != MarkdownJob
	if !comment {
		md.budget, md.measure, md.nameRunes = jobBudget-closingReserve, byteLen, jobNameRunes
	}
	if budget > 0 {
		md.budget = max(budget-closingReserve, 0)
	}
	bound := func(comment, job int) int {
		if form == MarkdownJob {
			return job
		}
		return comment
	}
	md.write(fmt.Sprintf("# %s\n\n", mdText(r.opt.Title))) // the user's own, not the logs'
	// The author's notes come first, under the title, as they come first
	// on the overview: a quarter of a comment at most.
	r.mdNotes(md, bound(md.budget/4, md.budget))
	r.mdHeadline(md)
	// What a CI user reads first, after the one-line headline: the
	// verdicts, what went wrong, then the comparison.
	// A verdict names at most gate.MaxHeld runs (the analysis's): the
	// job summary names them all.
	md.within(sectionShare, func() { r.mdGates(md, bound(commentGateRuns, 0)) })
	md.within(sectionShare, func() { r.mdAnomalies(md, bound(commentAnomalies, 0)) })
	md.within(sectionShare, func() { r.mdBaseline(md, bound(commentDeltaRows, 0)) })
	r.mdCharts(md, chartURL)
	sk := skippedFiles(r.rep)
	r.mdSkipped(md, sk, bound(commentSkipped, maxSkippedListed))
	if r.scalarRuns() > sweepRuns {
		r.mdSweepStatus(md)
	}
	r.mdRuns(md, bound(commentRunRows, 0))
	switch {
	case !comment:
		r.mdMetricsTable(md)
	case r.scalarRuns() > sweepRuns:
		r.mdSweep(md)
	default:
		r.mdRunTables(md)
	}
	r.mdHParams(md, bound(commentSessions, jobSessions))
	r.mdWarnings(md, bound(commentWarnings, 0))

	md.budget += closingReserve
	switch {
	case len(md.left) > 0 && comment:
		md.write(fmt.Sprintf("To fit a pull-request comment (%s characters), this summary left out %s. %s The option --markdown-form job writes the full form.\n",
			result.FormatCount(commentLimit), md.leftText(), where))
	case len(md.left) > 0:
		md.write(fmt.Sprintf("To stay under 1 MiB, this summary left out %s. %s\n", md.leftText(), where))
	default:
		md.write(where + "\n")
	}
	_, err := io.WriteString(w, md.b.String())
	return err
}

// warningCount is how many warnings w stands for: collect lists at most a
// few warnings per file and then one "N more warnings not shown"
// (collect/read.go), which stands for N.
func warningCount(w model.Warning) int {
	var n int
	var rest string
	if k, _ := fmt.Sscanf(w.Msg, "%d more warnings not shown%s", &n, &rest); k == 1 && n > 0 {
		return n
	}
	return 1
}

// mdHeadline writes the headline: runs, files, tags and points; every
// warning, by run and by log directory; files skipped or read in part; and
// the series that hold no finite value, named.
func (r *Report) mdHeadline(md *mdWriter) {
	files, points := 0, 0
	runWarnings, warnedRuns, dirWarnings := 0, 0, 0
	for _, w := range r.rep.Warnings {
		dirWarnings += warningCount(w)
	}
	for _, run := range r.rep.Runs {
		files += len(run.LogFiles())
		n := 0
		for _, w := range run.Warnings {
			n += warningCount(w)
		}
		if n > 0 {
			runWarnings += n
			warnedRuns++
		}
	}
	var nonFinite []string
	nNonFinite := 0
	for _, tv := range r.tags {
		for _, sv := range tv.series {
			points += sv.stats.Count
			if !sv.stats.HasFinite {
				nNonFinite++
				if len(nonFinite) < maxNonFiniteNamed {
					nonFinite = append(nonFinite, fmt.Sprintf("%s in %s", md.bold(tv.tag), md.name(sv.run.Name)))
				}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s · %s · %s · %s · %s", result.CountOf(len(r.rep.Runs), "run", "runs"), filesPlural(r.rep, files),
		result.CountOf(len(r.tags), "scalar tag", "scalar tags"), result.CountOf(points, "point", "points"), result.CountOf(runWarnings+dirWarnings, "warning", "warnings"))
	var where []string
	if runWarnings > 0 {
		where = append(where, fmt.Sprintf("%s in %s", result.FormatCount(runWarnings), result.CountOf(warnedRuns, "run", "runs")))
	}
	if dirWarnings > 0 {
		where = append(where, fmt.Sprintf("%s about the log directories", result.FormatCount(dirWarnings)))
	}
	if len(where) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(where, ", "))
	}
	if sk := skippedFiles(r.rep); sk.Total > 0 {
		fmt.Fprintf(&b, " · %s skipped or read in part (%s)", result.CountOf(sk.Total, "file", "files"), sk.ByStatus)
	}
	if nNonFinite > 0 {
		fmt.Fprintf(&b, " · %s with no finite value", result.CountOf(nNonFinite, "series", "series"))
	}
	if rs := RestartsLine(r.rep); rs != "" {
		b.WriteString(" · " + rs)
	}
	b.WriteString("\n\n")
	if nNonFinite > 0 {
		fmt.Fprintf(&b, "No finite value (NaN or ±Inf only): %s", strings.Join(nonFinite, ", "))
		if more := nNonFinite - len(nonFinite); more > 0 {
			fmt.Fprintf(&b, " and %s more", result.FormatCount(more))
		}
		b.WriteString(".\n\n")
	}
	md.write(b.String())
}

// RestartsLine says of restarts what summary.md's headline and the
// command's progress line say: how many runs restarted (more than one
// attempt) and what became of the scalar points later attempts took off
// their lines under the report's rule, "" when no run restarted nor lost a
// point to a rewrite.
func RestartsLine(rep *model.Report) string {
	restarted, _, superseded := rep.RestartTotals()
	if restarted == 0 && superseded == 0 {
		return ""
	}
	var s string
	if restarted > 0 {
		s = result.CountOf(restarted, "run", "runs") + " restarted"
		if superseded == 0 {
			return s
		}
		s += ": "
	}
	switch rep.RestartRule {
	case model.RestartsAttempts:
		return s + result.CountOf(superseded, "superseded point", "superseded points") + " kept, drawn faded"
	case model.RestartsTensorBoard:
		return s + result.CountOf(superseded, "point", "points") + " purged by TensorBoard's rule (--restarts=tensorboard)"
	default:
		return s + result.CountOf(superseded, "superseded point", "superseded points") + " left out (--restarts=latest)"
	}
}

// mdSkipped lists the files skipped or read in part, at most limit.
func (r *Report) mdSkipped(md *mdWriter, sk skippedList, limit int) {
	var rows []string
	for _, g := range sk.Groups {
		for _, f := range g.Files {
			run := "**log directories**"
			if g.Run != "" {
				run = md.bold(g.Run)
			}
			rows = append(rows, fmt.Sprintf("- %s: %s (%s)\n", run, md.code(f.Path), f.Status))
		}
	}
	// The rows past limit and the files the list does not hold (past the
	// overview's bound) are left out alike.
	if cut := len(rows) - min(len(rows), limit) + sk.More; cut > 0 {
		md.leave(cut, "skipped files (the overview names the first 50)")
		rows = rows[:min(len(rows), limit)]
	}
	md.table("## Files skipped or read in part\n\n", rows, 0, "skipped files")
}

// mdRuns writes the runs table, at most limit rows (0: every run).
func (r *Report) mdRuns(md *mdWriter, limit int) {
	var rows []string
	for _, run := range r.rep.Runs {
		status := map[string]int{}
		for _, f := range run.LogFiles() {
			status[f.Status]++
		}
		var files []string
		for _, st := range append([]string{"ok"}, skippedStatuses...) {
			if n := status[st]; n > 0 {
				files = append(files, fmt.Sprintf("%d %s", n, st))
			}
		}
		steps, start, dur := "", "", ""
		if run.HasEvents {
			steps = fmt.Sprintf("%d–%d", run.FirstStep, run.LastStep)
			start, dur = fmtTime(run.Start), fmtDuration(run.End-run.Start)
		}
		n := 0
		for _, w := range run.Warnings {
			n += warningCount(w)
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | %s | %s | %s | %d |\n", md.name(run.Name), strings.Join(files, ", "), steps, start, dur, n))
	}
	md.table("## Runs\n\n| Run | Files | Steps | Start (UTC) | Duration | Warnings |\n|---|---|--:|---|--:|--:|\n", rows, limit, "runs of the runs table")
}

// metricCells are the cells of a series' key metrics: last value with its
// step, minimum and maximum with theirs, and the sparkline.
func metricCells(sv *seriesView) string {
	st := sv.stats
	mn, mx := "", ""
	if st.HasFinite {
		mn = fmt.Sprintf("%s (%d)", fmtValue(st.Min.Value), st.Min.Step)
		mx = fmt.Sprintf("%s (%d)", fmtValue(st.Max.Value), st.Max.Step)
	}
	return fmt.Sprintf("%s @ %d | %s | %s | %s", fmtValue(st.Last.Value), st.Last.Step, mn, mx, sparkText(sv))
}

// mdMetricsTable writes every (tag, run) series in one table: the job form.
func (r *Report) mdMetricsTable(md *mdWriter) {
	var rows []string
	for _, tv := range r.tags {
		for _, sv := range tv.series {
			rows = append(rows, fmt.Sprintf("| %s | %s | %s |\n", md.name(tv.tag), md.name(sv.run.Name), metricCells(sv)))
		}
	}
	md.table("## Key metrics\n\n| Tag | Run | Last | Min (step) | Max (step) | Trend |\n|---|---|--:|--:|--:|---|\n", rows, 0, "rows of the key-metrics table")
}

// scalarRuns counts the runs that hold scalars.
func (r *Report) scalarRuns() int {
	n := 0
	for _, run := range r.rep.Runs {
		if len(runScalars(run)) > 0 {
			n++
		}
	}
	return n
}

// mdRunTables writes a table of key metrics per run, for a few runs: the
// comment form.
func (r *Report) mdRunTables(md *mdWriter) {
	byRun := map[*model.Run][]string{}
	for _, tv := range r.orderedTags() {
		for _, sv := range tv.series {
			byRun[sv.run] = append(byRun[sv.run], fmt.Sprintf("| %s | %s |\n", md.name(tv.tag), metricCells(sv)))
		}
	}
	first := true
	for _, run := range r.rep.Runs {
		rows := byRun[run]
		if len(rows) == 0 {
			continue
		}
		head := fmt.Sprintf("### %s\n\n| Tag | Last | Min (step) | Max (step) | Trend |\n|---|--:|--:|--:|---|\n", md.name(run.Name))
		if first {
			head = "## Key metrics\n\n" + head
			first = false
		}
		md.table(head, rows, commentTagRows, "key-metric rows")
	}
}

// orderedTags are the scalar tags with the metrics whose direction is
// known first (losses, accuracies: the metrics that matter), each part in
// tag order.
func (r *Report) orderedTags() []*tagView {
	tags := slices.Clone(r.tags)
	slices.SortStableFunc(tags, func(a, b *tagView) int {
		ka, kb := betterOf(a.tag) == unknownBetter, betterOf(b.tag) == unknownBetter
		switch {
		case ka == kb:
			return 0
		case kb:
			return -1
		}
		return 1
	})
	return tags
}

// rankByLast orders the series with a finite last value best first (or
// highest first, when which is better is not known), ties in run order,
// and returns them with the count of those without a finite last value.
func rankByLast(series []*seriesView, dir direction) (ranked []*seriesView, nonFinite int) {
	for _, sv := range series {
		if v := sv.stats.Last.Value; math.IsNaN(v) || math.IsInf(v, 0) {
			nonFinite++
			continue
		}
		ranked = append(ranked, sv)
	}
	slices.SortStableFunc(ranked, func(a, b *seriesView) int {
		c := cmp.Compare(a.stats.Last.Value, b.stats.Last.Value)
		if dir != lowerBetter {
			c = -c
		}
		return c
	})
	return ranked, nonFinite
}

// lastValueQuantiles are the quantiles summary.md gives of a sweep's last
// values, per metric.
var lastValueQuantiles = []struct {
	name string
	q    float64
}{{"min", 0}, {"p10", 0.1}, {"p25", 0.25}, {"median", 0.5}, {"p75", 0.75}, {"p90", 0.9}, {"max", 1}}

// lastQuantiles is the line giving the distribution of the finite last
// values of the ranked series (any order), "" for none: quantiles
// interpolated between the closest ranks, as numpy's default.
func lastQuantiles(ranked []*seriesView) string {
	if len(ranked) == 0 {
		return ""
	}
	vals := make([]float64, len(ranked))
	for i, sv := range ranked {
		vals[i] = sv.stats.Last.Value
	}
	slices.Sort(vals)
	var parts []string
	for _, q := range lastValueQuantiles {
		parts = append(parts, fmt.Sprintf("%s %s", q.name, fmtValue(quantile(vals, q.q))))
	}
	return "Last values: " + strings.Join(parts, " · ") + ".\n\n"
}

// mdSweepStatus writes how a sweep's runs ended (runStatus), most
// frequent first: a line, whatever the run count.
func (r *Report) mdSweepStatus(md *mdWriter) {
	_, counts := r.runStatuses()
	var parts []string
	for _, c := range counts {
		parts = append(parts, fmt.Sprintf("%s %s", mdText(c.Status), result.FormatCount(c.N)))
	}
	md.write(fmt.Sprintf("## Sweep\n\n%s runs by how they ended (the end status of their hparams session, else what the build's checks say): %s.\n\n",
		result.FormatCount(len(r.rep.Runs)), strings.Join(parts, " · ")))
}

// mdSweep writes, per scalar tag, the top and bottom rankedRuns runs by
// last value: the comment form for many runs.
func (r *Report) mdSweep(md *mdWriter) {
	md.write(fmt.Sprintf("## Key metrics\n\nThe distribution of each tag's last values, and the top and bottom %d runs by last value.\n\n", rankedRuns))
	tags := r.orderedTags()
	for i, tv := range tags {
		dir := betterOf(tv.tag)
		ranked, nonFinite := rankByLast(tv.series, dir)
		how := dir.order()
		head := fmt.Sprintf("### %s\n\n%s runs, %s", md.name(tv.tag), result.FormatCount(len(tv.series)), how)
		if nonFinite > 0 {
			head += fmt.Sprintf("; %s with a non-finite last value, not ranked", result.FormatCount(nonFinite))
		}
		head += ".\n\n" + lastQuantiles(ranked)
		head += "| # | Run | Last | Min (step) | Max (step) | Trend |\n|--:|---|--:|--:|--:|---|\n"
		var rows []string
		row := func(rank int) string {
			sv := ranked[rank]
			return fmt.Sprintf("| %d | %s | %s |\n", rank+1, md.name(sv.run.Name), metricCells(sv))
		}
		if len(ranked) <= 2*rankedRuns {
			for k := range ranked {
				rows = append(rows, row(k))
			}
		} else {
			for k := range rankedRuns {
				rows = append(rows, row(k))
			}
			rows = append(rows, fmt.Sprintf("| … | %s more | | | | |\n", result.FormatCount(len(ranked)-2*rankedRuns)))
			for k := len(ranked) - rankedRuns; k < len(ranked); k++ {
				rows = append(rows, row(k))
			}
		}
		if len(rows) == 0 { // every run ends in a non-finite value
			md.write(head[:strings.Index(head, "| #")])
			continue
		}
		if !md.fitsTogether(head, rows[0]) { // nor, then, the tags after it
			md.leave(len(tags)-i, "tags' rankings")
			return
		}
		md.table(head, rows, 0, "ranked rows")
	}
}

// mdHParams writes the best limit hparams sessions by the first metric
// whose better direction is known (else the first metric), with the
// hyperparameters whose values differ between sessions.
func (r *Report) mdHParams(md *mdWriter, limit int) {
	if !r.hasHParams() {
		return
	}
	j, sessions := r.hparamsModel(maxPageCells)
	var varying []int // indices into j.HParams
	for i, c := range j.HParams {
		seen := map[string]bool{}
		for _, hs := range sessions {
			v, ok := hs.s.Start.HParams[c.Name]
			k := "\x00missing"
			if ok {
				k = v.String()
			}
			seen[k] = true
		}
		if len(seen) > 1 || len(sessions) == 1 { // one session: all of them
			varying = append(varying, i)
		}
	}
	cutCols := 0
	if len(varying) > maxHParamCols {
		cutCols, varying = len(varying)-maxHParamCols, varying[:maxHParamCols]
	}
	order := make([]int, len(sessions))
	for i := range order {
		order[i] = i
	}
	var intro string
	metric := ""
	unranked := 0
	if len(j.Metrics) > 0 {
		// The first metric whose better direction is known (a loss, an
		// accuracy), else the first: ranking by "epoch" says nothing.
		metric = j.Metrics[0].Name
		for _, c := range j.Metrics {
			if betterOf(c.Name) != unknownBetter {
				metric = c.Name
				break
			}
		}
		dir := betterOf(metric)
		val := func(i int) (float64, bool) {
			m, ok := sessions[i].s.Metrics[metric]
			return m.Value, ok && !math.IsNaN(m.Value) && !math.IsInf(m.Value, 0)
		}
		// Sessions without a finite value of the metric come last, in
		// run order: listed, not ranked.
		slices.SortStableFunc(order, func(a, b int) int {
			va, oka := val(a)
			vb, okb := val(b)
			switch {
			case oka != okb && oka:
				return -1
			case oka != okb:
				return 1
			case !oka:
				return 0
			case dir == lowerBetter:
				return cmp.Compare(va, vb)
			}
			return cmp.Compare(vb, va)
		})
		for i := range sessions {
			if _, ok := val(i); !ok {
				unranked++
			}
		}
		how := dir.order()
		intro = fmt.Sprintf("%s by %s, %s", result.CountOf(len(sessions), "session", "sessions"), md.bold(metric), how)
		if unranked > 0 {
			intro += fmt.Sprintf("; %s without a finite value of it, listed last", result.FormatCount(unranked))
		}
	} else {
		intro = result.CountOf(len(sessions), "session", "sessions") + ", in run order (no metric to rank them by)"
	}
	switch {
	case len(sessions) == 1:
		intro += "; its hyperparameters"
	case len(varying) == 0:
		intro += "; no hyperparameter differs between them"
	default:
		intro += "; the hyperparameters that differ between them"
	}
	if cutCols > 0 {
		intro += fmt.Sprintf(" (the first %d of %d)", len(varying), len(varying)+cutCols)
	}
	var head, sep strings.Builder
	head.WriteString("| Run |")
	sep.WriteString("|---|")
	for _, i := range varying {
		fmt.Fprintf(&head, " %s |", md.name(j.HParams[i].Name))
		sep.WriteString("---|")
	}
	if metric != "" {
		fmt.Fprintf(&head, " %s |", md.name(metric))
		sep.WriteString("--:|")
	}
	var rows []string
	for _, i := range order {
		hs := sessions[i]
		var b strings.Builder
		fmt.Fprintf(&b, "| %s |", md.name(hs.run.Name))
		for _, c := range varying {
			v, ok := hs.s.Start.HParams[j.HParams[c].Name]
			cell := ""
			if ok && v.Kind != model.NullValue {
				cell = md.name(v.String())
			}
			fmt.Fprintf(&b, " %s |", cell)
		}
		if m, ok := hs.s.Metrics[metric]; ok && metric != "" {
			fmt.Fprintf(&b, " %s |", fmtValue(m.Value))
		} else if metric != "" {
			b.WriteString("  |")
		}
		b.WriteString("\n")
		rows = append(rows, b.String())
	}
	md.table(fmt.Sprintf("## HParams\n\n%s.\n\n%s\n%s\n", intro, head.String(), sep.String()), rows, limit, "hparams sessions")
}

// mdWarnings lists the warnings, at most limit (0: every one).
func (r *Report) mdWarnings(md *mdWriter, limit int) {
	var rows []string
	for _, w := range r.rep.Warnings {
		rows = append(rows, fmt.Sprintf("- %s\n", md.code(w.String())))
	}
	for _, run := range r.rep.Runs {
		for _, w := range run.Warnings {
			prefix := ""
			if name := md.bold(run.Name); name != "" {
				prefix = name + ": "
			}
			rows = append(rows, fmt.Sprintf("- %s%s\n", prefix, md.code(w.String())))
		}
	}
	if limit > 0 && len(rows) > limit {
		md.leave(len(rows)-limit, "warnings (the overview lists them all)")
		rows = rows[:limit]
	}
	md.table("## Warnings\n\n", rows, 0, "warnings")
}

// zwj, U+200D ZERO WIDTH JOINER, is invisible between the characters
// mdText puts it between, and breaks what GitHub would otherwise turn into
// a link or a notification in a pull-request comment or job summary (see
// mdText).
const zwj = "\u200d"

// mdText escapes untrusted text (run and tag names, titles) for Markdown
// that GitHub renders, so that it shows as the literal text:
//
//   - the punctuation that means something inside a line of Markdown
//     (mdSpecial) is backslash-escaped, and '<' and '>' are written as
//     entities: no emphasis, code, link, image, HTML, entity, table cell
//     break, strikethrough, math or closing '#' of a heading can start in
//     it (the rest of ASCII punctuation, such as '-', '+', '.' and '/',
//     means something only at the start of a line, where mdText's output
//     never is: it goes after "# ", "| " or "**");
//   - control characters, line and paragraph separators and bidirectional
//     overrides become spaces: a newline would end a table row;
//   - a zero-width joiner goes where GitHub would otherwise link or notify,
//     since backslash escapes do not stop it (its autolinker and reference
//     filters read the text after escapes are undone), and only there, so
//     that a number or a name copied from the page reads as itself:
//     after '@' before a letter or digit (@user, which notifies, and
//     a@b.example), after '#' before a digit (#123), after the '-' of
//     "gh-" or of an upper-case word before a digit (GH-123, and a
//     repository's autolink such as JIRA-123; not 20200326-221129 nor
//     -0.5), after a ':' before a '/' or what an emoji's name starts with,
//     unless digits stand on both sides (https://, :emoji:; not 12:30, nor
//     "restarted: 2"), before the '.' of "www.", and into a run of 7
//     to 40 hex digits where GitHub reads a commit: at the start, after a
//     space, '(', '[', '{', '@' or "..", and not followed by a letter,
//     digit or '_' (not 1671085786 in events.1671085786.host, nor the
//     digits of 0.001234567).
//
// The joiners are invisible: a name such as "resnet-50.lr_0.1" copies back
// as itself.
func mdText(s string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	rs := []rune(s)
	for i := range rs {
		if breaksText(rs[i]) {
			rs[i] = ' '
		}
	}
	sha := shaRuns(rs)
	for i, r := range rs {
		var prev, next rune
		if i > 0 {
			prev = rs[i-1]
		}
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		if sha[i] {
			b.WriteString(zwj)
		}
		switch {
		case r == '.' && i >= 3 && strings.EqualFold(string(rs[i-3:i]), "www"):
			b.WriteString(zwj + ".")
		case r == '<': // as entities: no "<tag" appears in the file at all
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case strings.ContainsRune(mdSpecial, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
		switch {
		case r == ':' && (next == '/' || next == '_' || next == '+' || next == '-' || unicode.IsLetter(next) || isDigit(next)) &&
			!(isDigit(prev) && isDigit(next)),
			r == '@' && (unicode.IsLetter(next) || unicode.IsDigit(next)),
			r == '#' && isDigit(next),
			r == '-' && isDigit(next) && (prev >= 'A' && prev <= 'Z' || i >= 2 && strings.EqualFold(string(rs[i-2:i]), "gh")):
			b.WriteString(zwj)
		}
	}
	return b.String()
}

// shaRuns marks, in rs, where a joiner goes into a run of hex digits that
// GitHub would read as a commit: after its sixth digit (and after every
// sixth), in a run of 7 to 40 at the start or after a space, '(', '[',
// '{', '@' or "..", that no letter, digit or '_' follows.
func shaRuns(rs []rune) []bool {
	var at []bool
	for i := 0; i < len(rs); {
		if !isHexDigit(rs[i]) {
			i++
			continue
		}
		j := i
		for j < len(rs) && isHexDigit(rs[j]) {
			j++
		}
		lead := i == 0 || unicode.IsSpace(rs[i-1]) || strings.ContainsRune("([{@", rs[i-1]) ||
			i >= 2 && rs[i-1] == '.' && rs[i-2] == '.'
		end := j == len(rs) || !(rs[j] == '_' || unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]))
		if n := j - i; lead && end && n >= 7 && n <= 40 {
			if at == nil {
				at = make([]bool, len(rs))
			}
			for k := i + 6; k < j; k += 6 {
				at[k] = true
			}
		}
		i = j
	}
	if at == nil {
		return make([]bool, len(rs))
	}
	return at
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// mdSpecial is the punctuation mdText backslash-escapes.
const mdSpecial = "\\`*_[]#|!&~$"

// breaksText reports whether r is a control character, a line or
// paragraph separator or a bidirectional control, which mdText shows as a
// space: each would break a table row or reorder what follows it.
func breaksText(r rune) bool {
	switch {
	case unicode.IsControl(r), r == '\u2028', r == '\u2029':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069', r == '\u200e', r == '\u200f':
		return true
	}
	return false
}

func isHexDigit(r rune) bool {
	return r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F'
}

// mdCode shows untrusted text as inline code, with a fence longer than any
// run of backticks inside it. Inside code nothing is a link, a mention or
// markup, and escapes are not undone (so none are added); control
// characters become spaces, as in mdText.
func mdCode(s string) string {
	s = strings.Map(func(r rune) rune {
		if breaksText(r) {
			return ' '
		}
		return r
	}, s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + " " + s + " " + fence
}

// sparkText draws a series as eight levels of Unicode block characters.
func sparkText(sv *seriesView) string {
	const levels = "▁▂▃▄▅▆▇█"
	vals := sv.sampleValues(24)
	if len(vals) > 24 { // the downsampler may keep a few more; thin evenly
		thin := make([]float64, 24)
		for i := range thin {
			thin[i] = vals[i*len(vals)/24]
		}
		vals = thin
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	blocks := []rune(levels)
	var b strings.Builder
	for _, v := range vals {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			b.WriteRune('×')
		case hi == lo:
			b.WriteRune(blocks[3])
		default:
			b.WriteRune(blocks[int(math.Round(fraction(v, lo, hi)*7))])
		}
	}
	return b.String()
}

// filesPlural counts a report's files as "event files", or as "log files"
// when Visdom's files are among them.
func filesPlural(rep *model.Report, n int) string {
	if hasVisdom(rep) {
		return result.CountOf(n, "log file", "log files")
	}
	return result.CountOf(n, "event file", "event files")
}

func hasVisdom(rep *model.Report) bool {
	return slices.ContainsFunc(rep.Runs, func(r *model.Run) bool { return len(r.Visdom) > 0 })
}
