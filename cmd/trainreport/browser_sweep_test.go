package main

// Browser test of the overview and the HParams page of a sweep: 600 runs
// written as hp.hparams and tf.summary write them (a session each, some
// failed, some diverged, some ending in NaN), opened from file:// with the
// network blocked, in the site and the single file. The runs table shows
// the right 50 rows as it pages, sorts and filters, each row's trends
// drawn from its data and only the sparkline files of the rows shown
// loaded; each histogram's bars are the runs' last values binned anew; the
// parallel chart holds a line per session and the paged sessions table
// links a run to its charts (testdata/js/sweep.js).

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// hparamsSummary is a summary value of the hparams plugin holding data.
func hparamsSummary(t *testing.T, tag string, data *eventpb.HParamsPluginData) *eventpb.SummaryValue {
	t.Helper()
	content, err := proto.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return &eventpb.SummaryValue{Tag: tag, Metadata: &eventpb.SummaryMetadata{
		PluginData: &eventpb.PluginData{PluginName: "hparams", Content: content}},
		Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_FLOAT,
			TensorShape: &eventpb.TensorShapeProto{}, FloatVal: []float32{0}}}}
}

// writeTrials writes runs trials of steps steps under dir: "loss" falls to
// a floor that depends on the trial, "accuracy" rises; trial i%20 == 0
// diverges (loss 1e6 at the end), i%50 == 0 ends its loss in NaN, i%10 ==
// 0 failed (its session's end status) and stopped half-way.
func writeTrials(t *testing.T, dir string, runs, steps int) {
	t.Helper()
	for i := range runs {
		var evs []*eventpb.Event
		evs = append(evs, &eventpb.Event{WallTime: 1.7e9, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}})
		evs = append(evs, summaryEvent(0, 0, hparamsSummary(t, "_hparams_/session_start_info", &eventpb.HParamsPluginData{
			Data: &eventpb.HParamsPluginData_SessionStartInfo{SessionStartInfo: &eventpb.SessionStartInfo{
				Hparams: map[string]*structpb.Value{
					"learning_rate": structpb.NewNumberValue(math.Pow(10, -4+float64(i%30)/10)),
					"optimizer":     structpb.NewStringValue([]string{"adam", "sgd", "rmsprop"}[i%3]),
				}, StartTimeSecs: 1.7e9}}})))
		floor := 0.1 + float64(i%97)/100
		n := steps
		status := eventpb.SessionEndInfo_STATUS_SUCCESS
		if i%10 == 0 {
			n, status = steps/2, eventpb.SessionEndInfo_STATUS_FAILURE
		}
		for s := range n {
			loss := floor + math.Exp(-3*float64(s)/float64(steps))
			switch {
			case s == n-1 && i%50 == 0:
				loss = math.NaN()
			case s == n-1 && i%20 == 0:
				loss = 1e6
			}
			acc := (1 - floor/2) * float64(s+1) / float64(steps)
			evs = append(evs, summaryEvent(int64(s), 0.5, simpleValue("loss", float32(loss)), simpleValue("accuracy", float32(acc))))
		}
		evs = append(evs, summaryEvent(int64(n), 0.9, hparamsSummary(t, "_hparams_/session_end_info", &eventpb.HParamsPluginData{
			Data: &eventpb.HParamsPluginData_SessionEndInfo{SessionEndInfo: &eventpb.SessionEndInfo{Status: status, EndTimeSecs: 1.7e9 + float64(n)}}})))
		writeEventFile(t, filepath.Join(dir, fmt.Sprintf("trial%03d", i), "events.out.tfevents.1700000000.host"), evs)
	}
}

type sweepCheck struct {
	Problems []string
	Shown    []int
}

func TestBrowserSweep(t *testing.T) {
	t.Parallel()
	const runs = 600 // sharedTrials'
	r := sharedTrials(t)
	browser := startBrowser(t)
	shots := screenshotDir(t)
	for _, c := range []struct{ name, index, hparams string }{
		{"site", fileURL(filepath.Join(r.site, "index.html"), ""), fileURL(filepath.Join(r.site, "hparams.html"), "")},
		{"single-file", fileURL(r.single, "page=index"), fileURL(r.single, "page=hparams")},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := openTab(t, browser, c.index)
			waitFor(tb, `!!document.querySelector('table.sweep-runs tbody tr')`, 20*time.Second, "the runs table")
			// seen holds every row shown so far: only the sparkline files
			// of their chunks may have been loaded (the page's and the
			// check's own reads of the truth load the same).
			seen := map[string]bool{}
			checkNow := func(what string, page, col int, desc bool, re string) {
				t.Helper()
				got := eval[sweepCheck](tb, pageJS("sweep.js", "check", page, col, desc, re))
				for _, p := range got.Problems {
					t.Errorf("%s: %s", what, p)
				}
				for _, i := range got.Shown {
					seen[fmt.Sprintf("sparks-%04d.js", i/100)] = true
				}
				if c.name == "single-file" {
					return
				}
				loaded := map[string]bool{}
				tb.mu.Lock()
				for _, u := range tb.local {
					if i := strings.LastIndex(u, "/sparks-"); i >= 0 {
						loaded[u[i+1:]] = true
					}
				}
				tb.mu.Unlock()
				if !maps.Equal(loaded, seen) {
					t.Errorf("%s: sparkline files loaded %v, want those of the rows shown so far %v", what, slices.Sorted(maps.Keys(loaded)), slices.Sorted(maps.Keys(seen)))
				}
			}
			// The first page in run order needs the first file of rows
			// alone: the others (rows past the 500th, render's
			// rowChunkRuns) load to sort, filter or page past it.
			eval[any](tb, pageJS("sweep.js", "settled"))
			if c.name == "site" {
				tb.mu.Lock()
				for _, u := range tb.local {
					if strings.Contains(u, "/overview/runs-") {
						t.Errorf("the first page loaded %s", shortURL(u))
					}
				}
				tb.mu.Unlock()
			}
			checkNow("first page", 0, -1, false, "")
			for _, p := range eval[[]string](tb, pageJS("sweep.js", "histograms")) {
				t.Errorf("histograms: %s", p)
			}
			tb.screenshot(shots, "sweep-index-"+c.name)
			eval[any](tb, pageJS("sweep.js", "click", ".sweep-next"))
			checkNow("second page", 1, -1, false, "")
			eval[any](tb, pageJS("sweep.js", "click", ".sweep-next"))
			checkNow("third page", 2, -1, false, "")
			// Sorted by loss (the second metric column), ascending then
			// descending; by status; filtered.
			eval[any](tb, pageJS("sweep.js", "sortBy", 6))
			checkNow("sorted by loss", 0, 6, false, "")
			eval[any](tb, pageJS("sweep.js", "sortBy", 6))
			checkNow("sorted by loss, descending", 0, 6, true, "")
			eval[any](tb, pageJS("sweep.js", "sortBy", 1))
			checkNow("sorted by status", 0, 1, false, "")
			eval[any](tb, pageJS("sweep.js", "filter", "^trial1[0-4]"))
			// The filter applies when typing pauses, then the URL holds it.
			waitFor(tb, hashHas("runs", "^trial1[0-4]"), stepTimeout, "the filter in the URL")
			checkNow("filtered", 0, 1, false, "^trial1[0-4]")
			tb.screenshot(shots, "sweep-index-sorted-"+c.name)

			type hp struct {
				Sessions, Lines, Rows int
				Paged                 bool
				First, Link, Info     string
			}
			hb := openTab(t, browser, c.hparams)
			h := eval[hp](hb, pageJS("sweep.js", "hparams"))
			if h.Sessions != runs || h.Lines != runs || !h.Paged || h.Rows != 50 || h.First != "trial000" {
				t.Errorf("hparams: %+v, want %d sessions and lines, a paged table of 50 rows from trial000", h, runs)
			}
			wantLink := "scalars.html#runs=%5Etrial000%24"
			if c.name == "single-file" {
				wantLink = "#page=scalars&runs=%5Etrial000%24"
			}
			if h.Link != wantLink || !strings.HasPrefix(h.Info, fmt.Sprintf("Sessions 1\u201350 of %d", runs)) {
				t.Errorf("hparams: link %q, info %q; want %q", h.Link, h.Info, wantLink)
			}
			// The sweep's learning rates span three orders of magnitude: the
			// geometry check holds its axis to a logarithmic placing.
			for _, p := range eval[[]string](hb, pageJS("hparams.js", "geometry")) {
				t.Errorf("hparams lines: %s", p)
			}
			for _, p := range eval[[]string](hb, pageJS("sweep.js", "brushPaged")) {
				t.Errorf("hparams brushed: %s", p)
			}
			hb.screenshot(shots, "sweep-hparams-"+c.name)
		})
	}
}
