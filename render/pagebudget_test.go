package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/histogram"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// everyKindReport is trialReport's sweep of n runs with, in every run, a
// few points of every kind the pages draw: two histogram tags, an image,
// an audio clip, text, a tensor and a PR curve; the first run declares a
// custom scalars layout.
func everyKindReport(t *testing.T, n int) *model.Report {
	t.Helper()
	rep := trialReport(n, 5, 1)
	pngRef, wavRef, _ := mediaBlobs(t)
	tensors := tensorFile(t, []int64{4}, [][]float32{{1, 2, 3, 4}, {4, 3, 2, 1}})
	for i, run := range rep.Runs {
		for _, tag := range []string{"layer1/weights", "layer2/weights"} {
			h := &model.Histogram{Tag: tag}
			for s := range 3 {
				rows := []model.Bucket{{Left: -1, Right: 0, Count: float64(s + i%7)}, {Left: 0, Right: 1, Count: 2}, {Left: 1, Right: 3, Count: 1}}
				h.Entries = append(h.Entries, model.HistogramEntry{WallTime: 1e9 + float64(s), Step: int64(s),
					Summary: histogram.Summarize(rows), Buckets: rows})
			}
			run.Histograms = append(run.Histograms, h)
		}
		run.Images = []*model.Image{{Tag: "samples", Entries: []model.ImageEntry{
			{Step: 4, WallTime: 1e9, Images: []model.ImageItem{{Width: 4, Height: 3, Format: "png", Data: pngRef}}}}}}
		run.Audio = []*model.Audio{{Tag: "speech", Entries: []model.AudioEntry{{Step: 4, WallTime: 1e9,
			Clips: []model.AudioClip{{SampleRate: 8000, Channels: 1, Frames: 100, ContentType: "audio/wav", Label: "clip", Data: wavRef}}}}}}
		run.Texts = []*model.Text{{Tag: "notes", Entries: []model.TextEntry{
			{Step: 0, WallTime: 1e9, Values: []string{"started **" + run.Name + "**"}},
			{Step: 4, WallTime: 1e9 + 4, Values: []string{"done"}}}}}
		run.Tensors = []*model.Tensor{{Tag: "activations", Entries: tensors}}
		run.PRCurves = []*model.PRCurve{{Tag: "pr", Entries: []model.PRCurveEntry{{Step: 4, WallTime: 1e9,
			Thresholds: []float64{0, 0.5, 1}, TP: []float64{5, 3, 1}, FP: []float64{5, 2, 0}, TN: []float64{0, 3, 5}, FN: []float64{0, 2, 4},
			Precision: []float64{0.5, 0.6, 1}, Recall: []float64{1, 0.6, 0.2}}}}}
	}
	rep.Runs[0].Layout = &model.Layout{Categories: []model.LayoutCategory{{Title: "Losses",
		Charts: []model.LayoutChart{{Title: "loss", Multiline: []string{"loss"}}, {Title: "accuracy", Multiline: []string{"accuracy"}}}}}}
	return rep
}

// pagesOf returns the site's pages among files, by name.
func pagesOf(files map[string][]byte) map[string][]byte {
	pages := map[string][]byte{}
	for name, b := range files {
		if strings.HasSuffix(name, ".html") && !strings.Contains(name, "/") {
			pages[name] = b
		}
	}
	return pages
}

// TestEveryPageStaysUnderItsByteBudget renders a sweep of 10,000 runs with
// every kind the pages draw and checks that every page of the site is
// under the default budget, and every page's section of the single file
// too (it has no data files to load from: it holds a page per section,
// each cut to the budget); then, with a budget of 200 KiB, that every page
// of a sweep of 1,000 runs is under it.
func TestEveryPageStaysUnderItsByteBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 runs")
	}
	want := []string{"index.html", "scalars.html", "custom_scalars.html", "histograms.html", "distributions.html",
		"images.html", "audio.html", "text.html", "tensors.html", "hparams.html", "pr_curves.html"}
	for _, c := range []struct {
		runs, budget int
	}{{10_000, DefaultMaxPageBytes}, {1_000, 200 << 10}} {
		t.Run(fmt.Sprintf("%d runs, %s", c.runs, fmtBytes(c.budget)), func(t *testing.T) {
			r := newReport(everyKindReport(t, c.runs), Options{MaxPageBytes: c.budget})
			pages := pagesOf(filesByName(t, r))
			for name := range pages {
				if !slices.Contains(want, name) {
					want = append(want, name)
				}
			}
			for _, name := range want {
				page, ok := pages[name]
				switch {
				case !ok:
					t.Errorf("%s: not written", name)
				case len(page) > c.budget:
					t.Errorf("%s: %s, over the budget of %s", name, fmtBytes(len(page)), fmtBytes(c.budget))
				default:
					t.Logf("%s: %s", name, fmtBytes(len(page)))
				}
			}
			// A page that leaves runs out says so on each tag, and holds
			// the cards its notes say.
			for name, card := range cutPages {
				page := pages[name]
				if card == "" { // a media page: its script draws the cards
					card = `{"name":`
				}
				notes := cutNoteRE.FindAllSubmatch(page, -1)
				if len(notes) == 0 {
					// At 200 KiB every one of them passes the budget (at 5
					// MiB the images page of 10,000 runs fits whole).
					if c.budget < DefaultMaxPageBytes {
						t.Errorf("%s: no note says what the page leaves out", name)
					}
					continue
				}
				shown := 0
				for _, m := range notes {
					n, _ := strconv.Atoi(strings.ReplaceAll(string(m[1]), ",", ""))
					shown += n
					if string(m[2]) != result.FormatCount(c.runs) {
						t.Errorf("%s: %q, want of %d runs", name, m[0], c.runs)
					}
				}
				if got := bytes.Count(page, []byte(card)); got != shown {
					t.Errorf("%s: %d cards, the notes say %d", name, got, shown)
				}
			}
			var single bytes.Buffer
			if err := r.WriteSingleFile(&single); err != nil {
				t.Fatal(err)
			}
			sections := pageSection.FindAllSubmatchIndex(single.Bytes(), -1)
			t.Logf("single file: %s in %d sections", fmtBytes(single.Len()), len(sections))
			for i, m := range sections {
				end := bytes.Index(single.Bytes()[m[0]:], []byte("</main>")) + m[0]
				if i+1 < len(sections) {
					end = sections[i+1][0]
				}
				if n := end - m[0]; n > c.budget {
					t.Errorf("single file, section %s: %s, over the budget of %s", single.Bytes()[m[2]:m[3]], fmtBytes(n), fmtBytes(c.budget))
				}
			}
		})
	}
}

// cutPages are the pages that leave runs out at 1,000 runs and 200 KiB,
// and what begins each card they draw (or each run in a media page's data).
var cutPages = map[string]string{
	"histograms.html": `<figure class="stat-card"`, "distributions.html": `<figure class="stat-card"`,
	"text.html": `<article class="text-card"`, "tensors.html": `<article class="tensor-card"`,
	"pr_curves.html": `<figure class="stat-card pr-card"`, "exceptions.html": `<article class="exc-card"`,
	"images.html": "", "audio.html": "",
}

var cutNoteRE = regexp.MustCompile(`This tag shows the first ([\d,]+) of ([\d,]+) runs`)

// pageSection finds each page's section of the single file.
var pageSection = regexp.MustCompile(`<main class="page" data-page="([a-z_]+)"`)

// TestRunsPerTag: the most runs each tag keeps is the largest count whose
// first runs of every tag fit, tags shorter than it keeping all theirs.
func TestRunsPerTag(t *testing.T) {
	for _, c := range []struct {
		sizes     [][]int
		room, max int
	}{
		{[][]int{{10, 10, 10}, {10, 10, 10}}, 60, 3},
		{[][]int{{10, 10, 10}, {10, 10, 10}}, 59, 2},
		{[][]int{{10, 10, 10}, {10, 10, 10}}, 19, 0},
		{[][]int{{10}, {10, 10, 10, 10}}, 40, 3},
		{[][]int{{10}, {10, 10, 10, 10}}, 1000, 4},
		{[][]int{{50, 1, 1}, {1, 1, 1}}, 53, 2},
		{nil, 0, 0},
	} {
		if got := runsPerTag(c.sizes, c.room); got != c.max {
			t.Errorf("runsPerTag(%v, %d) = %d, want %d", c.sizes, c.room, got, c.max)
		}
	}
	if got := keepCards([][]int{{10, 10}, {10}}, func(n int) int { return n }, 40, 5); got != math.MaxInt {
		t.Errorf("keepCards of cards that fit = %d, want every card", got)
	}
}

// TestRunListBounded: the list of run names every page holds keeps to a
// 64th of the page budget, the first runs in order, and the page says
// how many it leaves out (app.js colours those by name).
func TestRunListBounded(t *testing.T) {
	const budget = 64 << 10
	r := newReport(trialReport(3000, 2, 0), Options{MaxPageBytes: budget})
	js, cut, err := r.runNames()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	if err := json.Unmarshal([]byte(js), &names); err != nil {
		t.Fatal(err)
	}
	if len(js) > budget/64 || cut != 3000-len(names) || len(names) == 0 || cut == 0 {
		t.Fatalf("%d bytes, %d names, %d cut, want under %d bytes and some cut", len(js), len(names), cut, budget/64)
	}
	for i, n := range names {
		if n != r.rep.Runs[i].Name {
			t.Fatalf("name %d is %q, want %q", i, n, r.rep.Runs[i].Name)
		}
	}
	page := filesByName(t, r)["index.html"]
	if want := fmt.Sprintf(`id="trainreport-runs" data-cut="%d">`, cut); !bytes.Contains(page, []byte(want)) {
		t.Errorf("index.html lacks %s", want)
	}
	// Below the bound, the list names every run and the element is as before.
	small := newReport(trialReport(10, 2, 0), Options{})
	if _, cut, _ := small.runNames(); cut != 0 || bytes.Contains(filesByName(t, small)["index.html"], []byte("data-cut")) {
		t.Errorf("a list of 10 runs is cut: %d", cut)
	}
}
