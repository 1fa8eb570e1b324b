package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// trialReport builds a sweep of n runs of steps steps: "loss" falls to a
// floor that depends on the run, "accuracy" rises; every 20th run
// diverges (its loss ends at 1e6), every 50th ends its loss in NaN, every
// 10th run's session failed, and every 7th run has no session. tags adds
// more tags ("extra/metricK") to every run.
func trialReport(n, steps, tags int) *model.Report {
	rep := &model.Report{Logdirs: []model.Logdir{{Name: "sweep", Path: "sweep"}}}
	for i := range n {
		name := fmt.Sprintf("trial%05d", i)
		run := &model.Run{Name: name, Logdir: "sweep", Path: name, HasEvents: true, Start: 1e9, End: 1e9 + float64(60+i%50),
			LastStep: int64(steps - 1), Files: []model.File{{Rel: name + "/events.out.tfevents.1.host", Size: 100, Records: 10, Status: "ok"}}}
		floor := 0.1 + float64(i%97)/100
		add := func(tag string, f func(s int) float64) {
			sc := &model.Scalar{Tag: tag}
			for s := range steps {
				sc.Points = append(sc.Points, model.Point{WallTime: 1e9 + float64(s), Step: int64(s), Value: f(s)})
			}
			run.Scalars = append(run.Scalars, sc)
		}
		add("loss", func(s int) float64 {
			switch {
			case s == steps-1 && i%50 == 0:
				return math.NaN()
			case s == steps-1 && i%20 == 0:
				return 1e6
			}
			return floor + math.Exp(-float64(s)/float64(steps))
		})
		add("accuracy", func(s int) float64 { return (1 - floor/2) * float64(s+1) / float64(steps) })
		for k := range tags {
			add(fmt.Sprintf("extra/metric%d", k), func(s int) float64 { return float64(k) + float64(s*i%13) })
		}
		metrics := map[string]model.MetricValue{"loss": {Value: floor, Run: name, Step: int64(steps - 1)},
			"accuracy": {Value: 1 - floor/2, Run: name, Step: int64(steps - 1)}}
		for k := range tags {
			metrics[fmt.Sprintf("extra/metric%d", k)] = model.MetricValue{Value: float64(k) + float64((steps-1)*i%13), Run: name, Step: int64(steps - 1)}
		}
		if i%7 != 0 {
			status := "success"
			if i%10 == 0 {
				status = "failure"
			}
			run.HParams = &model.HParams{Sessions: []*model.Session{{
				Start: model.SessionStart{HParams: map[string]model.HParamValue{
					"lr":         {Kind: model.NumberValue, Number: math.Pow(10, -4+float64(i%30)/10)},
					"optimizer":  {Kind: model.StringValue, Str: []string{"adam", "sgd", "rmsprop"}[i%3]},
					"batch_size": {Kind: model.NumberValue, Number: float64(int(32) << (i % 4))},
					"dropout":    {Kind: model.NumberValue, Number: float64(i%50) / 100},
				}},
				End:     &model.SessionEnd{Status: status},
				Metrics: metrics,
			}}}
		}
		rep.Runs = append(rep.Runs, run)
	}
	return rep
}

// dataCall returns the JSON a data script hands to trainreport.dataLoaded
// under name.
func dataCall(t *testing.T, script []byte, name string) []byte {
	t.Helper()
	prefix := "window.trainreport&&window.trainreport.dataLoaded(" + fmt.Sprintf("%q", name) + ","
	if !bytes.HasPrefix(script, []byte(prefix)) || !bytes.HasSuffix(script, []byte(");\n")) {
		t.Fatalf("%s is not a data script: %.100s", name, script)
	}
	return script[len(prefix) : len(script)-3]
}

type sweepRowsJSON struct {
	Tags   []string          `json:"tags"`
	Better []string          `json:"better"`
	Chunk  int               `json:"chunk"`
	Runs   []json.RawMessage `json:"runs"`
}

func TestSweepOverview(t *testing.T) {
	const n, steps = 450, 30
	rep := trialReport(n, steps, 0)
	r := newReport(rep, Options{})
	files := filesByName(t, r)
	index := string(files["index.html"])
	if strings.Contains(index, `<table class="runs sortable">`) || strings.Contains(index, `<table class="metrics sortable">`) {
		t.Errorf("the overview of %d runs writes the runs or key-metrics table whole", n)
	}
	// Statuses: the session's where written, else none.
	want := map[string]int{}
	for i := range n {
		switch {
		case i%7 == 0:
			want["no status"]++
		case i%10 == 0:
			want["failure"]++
		default:
			want["success"]++
		}
	}
	for status, k := range want {
		if cell := fmt.Sprintf(`<span class="sweep-status-n" data-status="%s">%d</span>`, status, k); !strings.Contains(index, cell) {
			t.Errorf("index.html does not count %d runs %q", k, status)
		}
	}
	// The histograms: every run in one bar, the diverged ones apart, the
	// best named by direction.
	m := regexp.MustCompile(`<script type="application/json" class="sweep-charts">(.*?)</script>`).FindStringSubmatch(index)
	if m == nil {
		t.Fatal("no histogram data in index.html")
	}
	var tags []lastValues
	if err := json.Unmarshal([]byte(m[1]), &tags); err != nil {
		t.Fatal(err)
	}
	if len(tags) != 2 || tags[0].Tag != "accuracy" || tags[1].Tag != "loss" {
		t.Fatalf("histograms of %v, want accuracy and loss", tags)
	}
	for _, st := range tags {
		sum := st.Below + st.Above + st.NonFinite
		for _, c := range st.Counts {
			sum += c
		}
		if sum != n || st.Runs != n {
			t.Errorf("%s: %d runs in the histogram, %d counted, want %d", st.Tag, sum, st.Runs, n)
		}
	}
	loss := tags[1]
	if loss.Better != "lower" || loss.Best[0].Value != fmtValue(0.1+math.Exp(-float64(steps-1)/steps)) {
		t.Errorf("loss: better %q, best %v", loss.Better, loss.Best)
	}
	diverged, nan := 0, 0
	for i := range n {
		switch {
		case i%50 == 0:
			nan++
		case i%20 == 0:
			diverged++
		}
	}
	if loss.Above != diverged || loss.NonFinite != nan || loss.Max != 1e6 || loss.Worst[0].Value != fmtValue(1e6) {
		t.Errorf("loss: %d above the fence, %d non-finite, max %v, worst %v; want %d, %d, 1e6", loss.Above, loss.NonFinite, loss.Max, loss.Worst, diverged, nan)
	}
	if loss.Hi >= 1e6 || loss.Hi < 1.06 {
		t.Errorf("loss: binned up to %v, want the runs that did not diverge binned alone", loss.Hi)
	}

	// The table's data: a row per run with its last values; sparklines a
	// chunk of runs each, matching the series.
	var rows sweepRowsJSON
	if err := json.Unmarshal(dataCall(t, files["data/"+sweepRowsFile], sweepRowsFile), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows.Runs) != n || rows.Chunk != sparkChunkRuns || strings.Join(rows.Better, ",") != "higher,lower" {
		t.Fatalf("runs.js: %d rows, chunk %d, better %v", len(rows.Runs), rows.Chunk, rows.Better)
	}
	for _, i := range []int{1, 20, 50, 449} {
		var row []any
		if err := json.Unmarshal(rows.Runs[i], &row); err != nil {
			t.Fatal(err)
		}
		vals := row[5].([]any)
		lossLast := rep.Runs[i].Scalars[0].Points[steps-1].Value
		wantLoss := any(lossLast)
		if math.IsNaN(lossLast) {
			wantLoss = "NaN"
		}
		if row[0] != rep.Runs[i].Name || row[2] != float64(steps-1) || vals[1] != wantLoss {
			t.Errorf("row %d: %v, want %s, last step %d, loss %v", i, row, rep.Runs[i].Name, steps-1, wantLoss)
		}
	}
	chunks := (n + sparkChunkRuns - 1) / sparkChunkRuns
	for k := range chunks + 1 {
		name := fmt.Sprintf(sweepSparksFile, k)
		if files["data/"+name] == nil {
			if k < chunks {
				t.Errorf("%s not written", name)
			}
			continue
		}
		if k == chunks {
			t.Errorf("%s written: %d runs make %d chunks", name, n, chunks)
			continue
		}
		var sparks [][]*string
		if err := json.Unmarshal(dataCall(t, files["data/"+name], name), &sparks); err != nil {
			t.Fatal(err)
		}
		if want := min(sparkChunkRuns, n-k*sparkChunkRuns); len(sparks) != want {
			t.Errorf("%s: %d runs, want %d", name, len(sparks), want)
		}
		// accuracy rises evenly: its code climbs from 0 to the top.
		acc := *sparks[0][0]
		if acc[0] != sparkAlphabet[0] || acc[len(acc)-1] != sparkAlphabet[sparkLevels-1] || len(acc) != steps {
			t.Errorf("%s: accuracy of its first run drawn as %q", name, acc)
		}
		for j := 1; j < len(acc); j++ {
			if strings.IndexByte(sparkAlphabet, acc[j]) < strings.IndexByte(sparkAlphabet, acc[j-1]) {
				t.Errorf("%s: accuracy falls in %q", name, acc)
				break
			}
		}
	}

	// The single file carries the table and the sparklines inline.
	var single bytes.Buffer
	if err := r.WriteSingleFile(&single); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(single.String(), `<script type="application/json" class="sweep-rows">{"rows":{"tags":["accuracy","loss"]`) {
		t.Error("the single file does not inline the runs table")
	}
}

// TestSweepBelowThreshold: up to sweepOverviewRuns runs, the overview is
// as it was, its tables whole, and no data file of its own.
func TestSweepBelowThreshold(t *testing.T) {
	r := newReport(trialReport(sweepOverviewRuns, 5, 0), Options{})
	files := filesByName(t, r)
	index := string(files["index.html"])
	if !strings.Contains(index, `<table class="runs sortable">`) || strings.Contains(index, `id="sweep"`) {
		t.Error("the overview of few runs is a sweep's")
	}
	for name := range files {
		if strings.HasPrefix(name, "data/overview/") {
			t.Errorf("%s written for %d runs", name, sweepOverviewRuns)
		}
	}
}

// TestSweepPageBudget: at 10,000 runs of 5 tags with hparams sessions, the
// overview and the HParams page stay under the page budget.
func TestSweepPageBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 runs")
	}
	r := newReport(trialReport(10_000, 5, 3), Options{})
	files := filesByName(t, r)
	for _, name := range []string{"index.html", "hparams.html"} {
		if got := len(files[name]); got == 0 || got > DefaultMaxPageBytes {
			t.Errorf("%s: %d bytes, want under %d", name, got, DefaultMaxPageBytes)
		} else {
			t.Logf("%s: %d bytes", name, got)
		}
	}
}

// TestHParamsPageBytes: a page budget too small for every session keeps
// the first sessions that fit, and says so.
func TestHParamsPageBytes(t *testing.T) {
	const budget = 200 << 10
	r := newReport(trialReport(3000, 3, 3), Options{MaxPageBytes: budget})
	files := filesByName(t, r)
	page := files["hparams.html"]
	if len(page) > budget {
		t.Errorf("hparams.html: %d bytes, over the budget of %d", len(page), budget)
	}
	p, err := r.hparamsPage()
	if err != nil {
		t.Fatal(err)
	}
	var pd hparamsPageJSON
	if err := json.Unmarshal([]byte(p.Data), &pd); err != nil {
		t.Fatal(err)
	}
	all := len(r.hparamSessions())
	if len(pd.Sessions) == 0 || len(pd.Sessions) >= all || pd.Omitted == nil || pd.Omitted.Sessions != all-len(pd.Sessions) {
		t.Errorf("%d of %d sessions on the page, omitted %+v", len(pd.Sessions), all, pd.Omitted)
	}
	if !strings.Contains(p.Cut, "byte budget") {
		t.Errorf("the page does not say what it left out: %q (%d of %d sessions, omitted %+v)", p.Cut, len(pd.Sessions), all, pd.Omitted)
	}
}

// TestSweepMarkdown: summary.md of a sweep of 10,000 runs says how the
// runs ended, and per metric the distribution of the last values and the
// best and worst runs by the direction of its name, under the comment
// limit; the job form under its 1 MiB.
func TestSweepMarkdown(t *testing.T) {
	const n = 10_000
	rep := trialReport(n, 5, 3)
	for _, form := range []MarkdownForm{MarkdownComment, MarkdownJob} {
		r := newReport(rep, Options{MarkdownForm: form})
		var b bytes.Buffer
		if err := r.WriteMarkdown(&b); err != nil {
			t.Fatal(err)
		}
		md := b.String()
		t.Logf("%s form: %d bytes, %d UTF-16 units", form, len(md), utf16Len(md))
		if form == MarkdownComment && utf16Len(md) > commentLimit || form == MarkdownJob && len(md) > jobBudget {
			t.Errorf("%s form: %d bytes, over its limit", form, len(md))
		}
		want := map[string]int{}
		for i := range n {
			switch {
			case i%7 == 0:
				want["no status"]++
			case i%10 == 0:
				want["failure"]++
			default:
				want["success"]++
			}
		}
		status := fmt.Sprintf("success %s · no status %s · failure %s.", result.FormatCount(want["success"]), result.FormatCount(want["no status"]), result.FormatCount(want["failure"]))
		if !strings.Contains(md, "## Sweep\n\n10,000 runs by how they ended") || !strings.Contains(md, status) {
			t.Errorf("%s form: no status line %q", form, status)
		}
		if form == MarkdownJob {
			continue
		}
		// loss: lower is better; the best runs are those of the lowest
		// floor, the worst the diverged ones (1e6).
		i := strings.Index(md, "### loss\n")
		if i < 0 {
			t.Fatal("no ranking of loss")
		}
		sec := md[i:]
		sec = sec[:strings.Index(sec[1:], "###")+1]
		best := fmtValue(float64(float32(0.1 + math.Exp(-4.0/5))))
		if !strings.Contains(sec, "lower is better") || !strings.Contains(sec, "Last values: min ") ||
			!strings.Contains(sec, "| 1 | trial00000 |") && !strings.Contains(sec, "| 1 | trial00097 |") ||
			!strings.Contains(sec, "| 1e+06 @ 4 |") {
			t.Errorf("loss ranking:\n%s (best %s)", sec, best)
		}
	}
}

// TestSweepRestartsBounded: the overview lists the first maxRestartRuns
// runs that restarted and counts the others.
func TestSweepRestartsBounded(t *testing.T) {
	rep := trialReport(maxRestartRuns+50, 3, 0)
	for _, run := range rep.Runs {
		run.Attempts = []model.Attempt{{Files: []string{"a"}, Points: 1}, {Files: []string{"b"}, Points: 2}}
	}
	p := newReport(rep, Options{}).overviewPage(false)
	if p.Restarts == nil || len(p.Restarts.Runs) != maxRestartRuns || p.Restarts.MoreRuns != 50 {
		t.Fatalf("restarts: %+v", p.Restarts)
	}
	index := string(filesByName(t, newReport(rep, Options{}))["index.html"])
	if !strings.Contains(index, "and 50 more runs that restarted") {
		t.Error("index.html does not count the runs it leaves out of Restarts")
	}
}

// The overview loads runs.js first: the table's columns and the first
// rowChunkRuns rows, the same bytes at 1,200 runs as at 2,400 (but the
// total's digits); the other rows are in files of rowChunkRuns runs, in
// run order, every run once. The single file inlines every row.
func TestSweepOverviewLoadsTheFirstRowsOnly(t *testing.T) {
	sizes := map[int]int{}
	for _, n := range []int{1_200, 2_400} {
		rep := trialReport(n, 3, 0)
		r := newReport(rep, Options{})
		files := map[string][]byte{}
		if _, err := r.overviewData(func(f file) error { files[f.name] = f.data; return nil }); err != nil {
			t.Fatal(err)
		}
		var head struct {
			sweepRowsJSON
			Total     int `json:"total"`
			RowsChunk int `json:"rows_chunk"`
		}
		if err := json.Unmarshal(dataCall(t, files["data/"+sweepRowsFile], sweepRowsFile), &head); err != nil {
			t.Fatal(err)
		}
		if len(head.Runs) != rowChunkRuns || head.Total != n || head.RowsChunk != rowChunkRuns {
			t.Fatalf("%d runs: runs.js holds %d rows, total %d, rows_chunk %d", n, len(head.Runs), head.Total, head.RowsChunk)
		}
		rows := head.Runs
		chunks := (n + rowChunkRuns - 1) / rowChunkRuns
		for k := 1; k <= chunks; k++ {
			name := fmt.Sprintf(sweepRowChunksFile, k)
			if k == chunks {
				if files["data/"+name] != nil {
					t.Errorf("%d runs: %s written", n, name)
				}
				continue
			}
			var more []json.RawMessage
			if err := json.Unmarshal(dataCall(t, files["data/"+name], name), &more); err != nil {
				t.Fatalf("%d runs: %s: %v", n, name, err)
			}
			if want := min(rowChunkRuns, n-k*rowChunkRuns); len(more) != want {
				t.Errorf("%d runs: %s holds %d rows, want %d", n, name, len(more), want)
			}
			rows = append(rows, more...)
		}
		if len(rows) != n {
			t.Fatalf("%d runs: %d rows in the files", n, len(rows))
		}
		for i, raw := range rows {
			var row []any
			if err := json.Unmarshal(raw, &row); err != nil {
				t.Fatal(err)
			}
			if row[0] != rep.Runs[i].Name {
				t.Fatalf("%d runs: row %d is %v, want run %s", n, i, row[0], rep.Runs[i].Name)
			}
		}
		sizes[n] = len(files["data/"+sweepRowsFile])
		if n == 1_200 {
			// The overview's list of pages counts in full, with separators
			// (the runs without i%7 have a session: trialReport).
			if page := filesByName(t, r)["index.html"]; !bytes.Contains(page, []byte(`1,028 sessions in 1,028 runs</span>`)) {
				i := bytes.Index(page, []byte(`class="contents"`))
				t.Errorf(`index.html's list of pages: %.300s`, page[max(i, 0):])
			}
			s, err := r.sweepSection(true)
			if err != nil {
				t.Fatal(err)
			}
			var inline struct {
				Rows struct {
					Total int               `json:"total"`
					Runs  []json.RawMessage `json:"runs"`
				} `json:"rows"`
			}
			if err := json.Unmarshal([]byte(s.Inline), &inline); err != nil {
				t.Fatal(err)
			}
			if len(inline.Rows.Runs) != n || inline.Rows.Total != 0 {
				t.Errorf("the single file inlines %d rows (total %d), want %d", len(inline.Rows.Runs), inline.Rows.Total, n)
			}
		}
	}
	if d := sizes[2_400] - sizes[1_200]; d != 0 {
		t.Errorf("runs.js: %d bytes at 1,200 runs, %d at 2,400", sizes[1_200], sizes[2_400])
	}
}
