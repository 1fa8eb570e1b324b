package render

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/collect/model"
)

// A run whose steps go back (a second fit() in its file) and whose image
// tag is written twice at one step: the overview says how many attempts
// and which file, how many points are superseded, and how many image
// entries are not drawn; the superseded points are in the run's bundle,
// listed in data/index.json, by attempt, under a tag that no key of the
// bundle can collide with.
func TestRestartsOnTheOverviewAndInTheData(t *testing.T) {
	pngRef, _, _ := mediaBlobs(t)
	png, err := pngRef.Read()
	if err != nil {
		t.Fatal(err)
	}
	const tag = `attempts"}` // a tag that would break a hand-made key
	loss := func(step int64, v float32) *eventpb.Event {
		return summaryEvent(step, &eventpb.SummaryValue{Tag: tag, Value: &eventpb.SummaryValue_SimpleValue{SimpleValue: v}})
	}
	image := func(step int64) *eventpb.Event {
		return summaryEvent(step, &eventpb.SummaryValue{Tag: "sample", Value: &eventpb.SummaryValue_Image{Image: &eventpb.Image{Height: 3, Width: 4, EncodedImageString: png}}})
	}
	dir := t.TempDir()
	writeEvents(t, dir, "run", loss(0, 1), loss(1, 2), loss(2, 3), image(2), loss(0, 10), loss(1, 20), image(2))
	rep := collectDir(t, "logs", dir)
	defer rep.Close()
	files := filesByName(t, newReport(rep, Options{}))

	index := string(files["index.html"])
	for _, want := range []string{`2 attempts</a>`, `<h2 id="restarts">Restarts</h2>`, `run/events.out.tfevents.1000000000.test`,
		`<td class="num">0..2</td>`, `<b>run</b>: 1 image entry`} {
		if !strings.Contains(index, want) {
			t.Errorf("overview lacks %q", want)
		}
	}

	var idx dataIndex
	if err := json.Unmarshal(files["data/index.json"], &idx); err != nil {
		t.Fatal(err)
	}
	name := idx.Superseded["run"][tag]
	if name != idx.Scalars["run"][tag] || name != idx.Bundles["run"] || name != bundleFile("run") {
		t.Fatalf("data/index.json lists %q for the superseded points, %q for the line, %q for the run", name, idx.Scalars["run"][tag], idx.Bundles["run"])
	}
	doc := readRunBundle(t, name, files["data/"+name], "run")
	sup := doc.Superseded[tag]
	if len(sup) != 1 {
		t.Fatalf("superseded data: %s", sup)
	}
	var a bundleColumns
	if err := json.Unmarshal(sup[0], &a); err != nil {
		t.Fatal(err)
	}
	if pts := a.decode(t); a.Attempt == nil || *a.Attempt != 1 || a.Total == nil || *a.Total != 3 || len(pts.values) != 3 ||
		pts.steps[2] != 2 || fmt.Sprint(pts.values[2]) != "3" {
		t.Errorf("superseded data: %s", sup[0])
	}
	if pts := doc.Scalars[tag].decode(t); len(pts.values) != 2 || fmt.Sprint(pts.values[0]) != "10" || fmt.Sprint(pts.values[1]) != "20" {
		t.Errorf("line data: %+v", pts)
	}
	if page := string(files["scalars.html"]); !strings.Contains(page, `"superseded_script":`) {
		t.Errorf("the scalars page does not name the superseded points' script")
	}
}

// The headline of summary.md, in both forms, says how many runs restarted
// and what became of their superseded points under the report's rule: a
// restart at step 0 supersedes what the attempt before wrote from step 0
// on (a: steps 0..2, b: 0..1).
func TestSummaryMarkdownHeadlineSaysRunsRestarted(t *testing.T) {
	loss := func(step int64, v float32) *eventpb.Event {
		return summaryEvent(step, &eventpb.SummaryValue{Tag: "loss", Value: &eventpb.SummaryValue_SimpleValue{SimpleValue: v}})
	}
	dir := t.TempDir()
	writeEvents(t, dir, "a", loss(0, 1), loss(1, 2), loss(2, 3), loss(0, 10), loss(1, 20))
	writeEvents(t, dir, "b", loss(0, 1), loss(1, 2), loss(0, 10))
	writeEvents(t, dir, "c", loss(0, 1), loss(1, 2))
	for _, c := range []struct {
		rule model.RestartRule
		want string
	}{
		{model.RestartsAttempts, " · 2 runs restarted: 5 superseded points kept, drawn faded\n"},
		{model.RestartsLatest, " · 2 runs restarted: 5 superseded points left out (--restarts=latest)\n"},
	} {
		rep, err := collect.Collect(context.Background(), []model.Logdir{{Name: "logs", Path: dir}}, collect.Options{Restarts: c.rule})
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range []MarkdownForm{MarkdownComment, MarkdownJob} {
			var md strings.Builder
			if err := newReport(rep, Options{Title: "t", MarkdownForm: form}).WriteMarkdown(&md); err != nil {
				t.Fatal(err)
			}
			headline := strings.SplitAfter(md.String(), "\n")[2]
			if !strings.HasPrefix(headline, "3 runs · ") || !strings.HasSuffix(headline, c.want) {
				t.Errorf("%s, %s form: headline %q, want it to end %q", c.rule, form, headline, c.want)
			}
		}
		rep.Close()
	}
}

// A step written twice within one attempt (Lightning logs epoch twice at
// an epoch's last step) supersedes a point: the chart's caption says
// "later writes", not "later attempts", since the run has one.
func TestSupersededCaptionClaimsNoAttemptsOfARewrite(t *testing.T) {
	loss := func(step int64, v float32) *eventpb.Event {
		return summaryEvent(step, &eventpb.SummaryValue{Tag: "loss", Value: &eventpb.SummaryValue_SimpleValue{SimpleValue: v}})
	}
	dir := t.TempDir()
	writeEvents(t, dir, "run", loss(0, 1), loss(1, 2), loss(1, 3), loss(2, 4))
	rep := collectDir(t, "logs", dir)
	defer rep.Close()
	if n := len(rep.Runs[0].Attempts); n > 1 {
		t.Fatalf("%d attempts, want one", n)
	}
	page := string(filesByName(t, newReport(rep, Options{}))["scalars.html"])
	if !strings.Contains(page, "1 superseded by later writes, drawn faded") || strings.Contains(page, "later attempts") {
		i := strings.Index(page, "superseded")
		t.Errorf("caption %q, want \"1 superseded by later writes, drawn faded\"", page[max(0, i-80):min(len(page), i+80)])
	}
}

func TestSummaryJSONNamesTheRestartRule(t *testing.T) {
	for _, tc := range []struct {
		rep  model.Report
		want string
	}{
		{model.Report{RestartRule: model.RestartsAttempts}, "attempts"},
		{model.Report{RestartRule: model.RestartsLatest}, "latest"},
		{model.Report{RestartRule: model.RestartsTensorBoard}, "tensorboard"},
		{model.Report{KeepAllRecords: true}, "keep-all-records"},
		{model.Report{}, "latest"},
	} {
		b, err := newReport(&tc.rep, Options{}).SummaryJSON()
		if err != nil {
			t.Fatal(err)
		}
		var s struct{ Restarts string }
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if s.Restarts != tc.want {
			t.Errorf("%+v: summary.json says restarts %q, want %q", tc.rep, s.Restarts, tc.want)
		}
	}
}
