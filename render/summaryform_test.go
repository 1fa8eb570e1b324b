package render

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"
)

// grid builds runs x tags series of points values each, names from
// runName and tagName.
func grid(runs, tags, points int, runName, tagName func(int) string) map[string]map[string][]float64 {
	m := map[string]map[string][]float64{}
	for r := range runs {
		t := map[string][]float64{}
		for g := range tags {
			vals := make([]float64, points)
			for i := range vals {
				vals[i] = float64(r+1)*math.Sin(float64(i+g)) + float64(i)/float64(points)
			}
			t[tagName(g)] = vals
		}
		m[runName(r)] = t
	}
	return m
}

func markdownOf(t *testing.T, rep *model.Report, form MarkdownForm) string {
	t.Helper()
	var md bytes.Buffer
	if err := newReport(rep, Options{Title: "sweep", MarkdownForm: form}).WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	return md.String()
}

// The default summary.md fits a pull-request comment, which GitHub cuts
// at 65,536 characters (counted as UTF-16 code units), whatever the logs:
// 32 runs x 20 tags (97,923 characters before), long names, names that
// need escaping and characters beyond the BMP, thousands of series, a
// few runs with hundreds of tags, thousands of warnings.
func TestSummaryMarkdownFitsAPullRequestComment(t *testing.T) {
	long := strings.Repeat("_*|@#😀", 100) // 600 runes; each escapes, or counts two
	many := func(n int) []model.Warning {
		w := make([]model.Warning, n)
		for i := range w {
			w[i] = model.Warning{File: fmt.Sprintf("run/events.%d", i), Offset: int64(i), Msg: strings.Repeat("bad record ", 30)}
		}
		return w
	}
	tests := []struct {
		name string
		rep  *model.Report
	}{
		{"32 runs x 20 tags", synthetic(grid(32, 20, 200,
			func(r int) string { return fmt.Sprintf("sweep/lr=0.00%d,batch=64,seed=%d", r%4+1, r) },
			func(g int) string { return fmt.Sprintf("train/metric_number_%02d", g) }))},
		{"32 runs x 20 tags, long names to escape", synthetic(grid(32, 20, 20,
			func(r int) string { return fmt.Sprint(r, long) }, func(g int) string { return fmt.Sprint(g, long) }))},
		{"300 runs x 50 tags", synthetic(grid(300, 50, 3,
			func(r int) string { return fmt.Sprintf("run-%03d", r) }, func(g int) string { return fmt.Sprintf("loss/%02d", g) }))},
		{"5 runs x 300 tags", synthetic(grid(5, 300, 3,
			func(r int) string { return fmt.Sprint("run", r, long) }, func(g int) string { return fmt.Sprintf("acc/%03d", g) }))},
		{"5000 warnings", func() *model.Report {
			rep := synthetic(grid(5, 2, 3, func(r int) string { return fmt.Sprint("run", r) }, func(g int) string { return fmt.Sprint("tag", g) }))
			for _, run := range rep.Runs {
				run.Warnings = many(1000)
			}
			rep.Warnings = many(10)
			return rep
		}()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			md := markdownOf(t, tc.rep, MarkdownComment)
			if n := utf16Len(md); n > commentLimit {
				t.Errorf("summary.md is %d characters, past the %d of a comment", n, commentLimit)
			} else if n > commentBudget {
				t.Errorf("summary.md is %d characters, past its budget of %d", n, commentBudget)
			}
			if !strings.Contains(md, "summary.json") {
				t.Errorf("summary.md does not say where the full data is")
			}
			if strings.Contains(md, "data:") {
				t.Errorf("summary.md holds a data: URI")
			}
		})
	}
}

// The job form keeps every run and every (tag, run) row when they fit in
// 1 MiB, and stays under 1 MiB, saying what it left out, when not.
func TestSummaryMarkdownJobFormKeepsEveryRow(t *testing.T) {
	runs := grid(32, 20, 50, func(r int) string { return fmt.Sprintf("run%02d", r) }, func(g int) string { return fmt.Sprintf("tag%02d", g) })
	md := markdownOf(t, synthetic(runs), MarkdownJob)
	for run, tags := range runs {
		if !strings.Contains(md, "\n| "+run+" | 1 ok |") {
			t.Errorf("runs table has no row for %s", run)
		}
		for tag := range tags {
			if !strings.Contains(md, "\n| "+tag+" | "+run+" | ") {
				t.Errorf("key metrics have no row for %s, %s", tag, run)
			}
		}
	}
	if strings.Contains(md, "left out") {
		t.Errorf("the job form left rows out of a summary that fits")
	}

	big := markdownOf(t, synthetic(grid(40, 400, 4, func(r int) string { return fmt.Sprintf("run%02d", r) },
		func(g int) string { return fmt.Sprintf("group%d/tag%d", g%7, g) })), MarkdownJob)
	if len(big) > 1<<20 {
		t.Errorf("job summary.md is %d bytes, past 1 MiB", len(big))
	}
	if len(big) < 900_000 {
		t.Errorf("job summary.md is %d bytes: it should fill its 1 MiB before leaving rows out", len(big))
	}
	if !strings.Contains(big, "left out") || !strings.Contains(big, "rows of the key-metrics table") {
		t.Errorf("a cut job summary does not say what it left out:\n%s", big[len(big)-500:])
	}
}

// The headline counts every warning (by run and log directory, the ones a
// "N more warnings not shown" stands for too), the files skipped or read
// in part, and names the series that hold no finite value.
func TestSummaryMarkdownHeadlineCounts(t *testing.T) {
	rep := synthetic(map[string]map[string][]float64{
		"a": {"loss": {1, 2}},
		"b": {"loss": {math.NaN(), math.Inf(1)}, "acc": {0.5}},
	})
	rep.Warnings = []model.Warning{{File: "logs/a/link", Offset: -1, Msg: "not a regular file (symbolic link): not read"}}
	a, b := rep.Runs[0], rep.Runs[1]
	a.Warnings = []model.Warning{{File: "a/f", Offset: 10, Msg: "data checksum mismatch"}, {File: "a/f", Offset: -1, Msg: "7 more warnings not shown"}}
	b.Warnings = []model.Warning{{File: "b/g", Offset: 5, Msg: "truncated record"}}
	a.Files = append(a.Files, model.File{Rel: "a/events.out.tfevents.2.host", Status: "empty"})
	b.Files[0].Status = "truncated"
	md := markdownOf(t, rep, MarkdownComment)
	head := strings.SplitN(md, "\n\n", 4)
	want := "2 runs · 3 event files · 2 scalar tags · 5 points · 10 warnings (9 in 2 runs, 1 about the log directories) · " +
		"3 files skipped or read in part (1 empty, 1 truncated, 1 not read) · 1 series with no finite value"
	if head[1] != want {
		t.Errorf("headline\n%s\nwant\n%s", head[1], want)
	}
	if want := "No finite value (NaN or ±Inf only): **loss** in b."; head[2] != want {
		t.Errorf("non-finite line %q, want %q", head[2], want)
	}
}

// rankedRuns reads the run column of the ranking under the heading of tag.
func rankedRunsOf(t *testing.T, md, tag string) (intro string, runs []string) {
	t.Helper()
	i := strings.Index(md, "### "+tag+"\n\n")
	if i < 0 {
		t.Fatalf("no section for %s:\n%s", tag, md)
	}
	sec := md[i+len("### "+tag+"\n\n"):]
	sec = sec[:strings.Index(sec, "\n\n|")+2+strings.Index(sec[strings.Index(sec, "\n\n|")+2:], "\n\n")]
	lines := strings.Split(sec, "\n")
	intro = lines[0]
	row := regexp.MustCompile(`^\| (\d+|…) \| ([^|]+) \|`)
	for _, l := range lines[1:] {
		if m := row.FindStringSubmatch(l); m != nil && m[1] != "…" {
			runs = append(runs, strings.TrimSpace(m[2]))
		}
	}
	return intro, runs
}

// For a sweep, each tag shows its top and bottom runs by last value: best
// first where the name says which way is better (a loss goes down, an
// accuracy up), highest first otherwise; runs ending in a non-finite
// value are counted apart.
func TestSummaryMarkdownSweepRanksTopAndBottom(t *testing.T) {
	runs := map[string]map[string][]float64{}
	// Last values: run i ends at (i*7)%12, a permutation of 0..11.
	for i := range 12 {
		v := float64((i * 7) % 12)
		runs[fmt.Sprintf("r%02d", i)] = map[string][]float64{"val/loss": {100, v}, "val/acc": {0, v}, "lr": {v}}
	}
	runs["r12"] = map[string][]float64{"val/loss": {1, math.NaN()}}
	md := markdownOf(t, synthetic(runs), MarkdownComment)
	byValue := make([]string, 12) // runs by last value, lowest first
	for i := range 12 {
		byValue[(i*7)%12] = fmt.Sprintf("r%02d", i)
	}
	reversed := make([]string, 12)
	for i, r := range byValue {
		reversed[11-i] = r
	}
	topBottom := func(order []string) []string { return append(append([]string{}, order[:5]...), order[7:]...) }
	for _, tc := range []struct {
		tag, intro string
		want       []string
	}{
		{"val/loss", "13 runs, lower is better (by its name), best first; 1 with a non-finite last value, not ranked.", topBottom(byValue)},
		{"val/acc", "12 runs, higher is better (by its name), best first.", topBottom(reversed)},
		{"lr", "12 runs, highest first (which is better is not known).", topBottom(reversed)},
	} {
		intro, got := rankedRunsOf(t, md, tc.tag)
		if intro != tc.intro {
			t.Errorf("%s: %q, want %q", tc.tag, intro, tc.intro)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s ranks %v, want %v", tc.tag, got, tc.want)
		}
	}
	// The metrics whose better direction is known come first.
	if strings.Index(md, "### lr") < strings.Index(md, "### val/loss") {
		t.Errorf("lr is ranked before val/loss")
	}
}

func TestBetterOf(t *testing.T) {
	for name, want := range map[string]direction{
		"loss": lowerBetter, "val/loss": lowerBetter, "train_error": lowerBetter, "valLoss": lowerBetter, "eval/wer": lowerBetter,
		"accuracy": higherBetter, "epoch_accuracy": higherBetter, "val_acc": higherBetter, "eval/f1": higherBetter, "mAP": unknownBetter,
		"lr": unknownBetter, "epoch": unknownBetter, "accuracy_loss": unknownBetter, "glossary": unknownBetter, "across": unknownBetter,
	} {
		if got := betterOf(name); got != want {
			t.Errorf("betterOf(%q) = %d, want %d", name, got, want)
		}
	}
}

// With hparams sessions, summary.md shows the best sessions by the first
// metric whose better direction is known, with the hyperparameters that
// differ between sessions only; those without a finite value of it last.
func TestSummaryMarkdownHParamsShowsBestSessions(t *testing.T) {
	runs := map[string]map[string][]float64{}
	losses := []float64{0.5, 0.2, math.NaN(), 0.9, 0.1}
	for i := range losses {
		runs[fmt.Sprintf("s%d", i)] = map[string][]float64{"epoch": {1, 2}}
	}
	rep := synthetic(runs)
	for i, run := range rep.Runs {
		run.HParams = &model.HParams{Sessions: []*model.Session{{
			Start: model.SessionStart{HParams: map[string]model.HParamValue{
				"lr":        {Kind: model.NumberValue, Number: float64(i) / 100},
				"optimizer": {Kind: model.StringValue, Str: "adam"},
			}},
			Metrics: map[string]model.MetricValue{
				"epoch":    {Value: 2, Run: run.Name},
				"val_loss": {Value: losses[i], Run: run.Name},
			},
		}}}
	}
	md := markdownOf(t, rep, MarkdownComment)
	i := strings.Index(md, "## HParams\n\n")
	if i < 0 {
		t.Fatalf("no hparams section:\n%s", md)
	}
	want := "## HParams\n\n5 sessions by **val\\_loss**, lower is better (by its name), best first; 1 without a finite value of it, listed last; " +
		"the hyperparameters that differ between them.\n\n" +
		"| Run | lr | val\\_loss |\n|---|---|--:|\n" +
		"| s4 | 0.04 | 0.1 |\n| s1 | 0.01 | 0.2 |\n| s0 | 0 | 0.5 |\n| s3 | 0.03 | 0.9 |\n| s2 | 0.02 | NaN |\n\n"
	if got := md[i:min(len(md), i+len(want))]; got != want {
		t.Errorf("hparams section\n%s\nwant\n%s", got, want)
	}
}
