package main

// Browser test of the HParams page, from file:// with the network blocked,
// in the site and in the single-file report, on the corpus's hparams logs
// and the writers' fixtures. What is drawn is checked against the page's
// data (testdata/js/hparams.js): every session's line passes through every
// axis inside it at its value's place, whatever session comes first; the
// columns shown at first are the hyperparameters that vary and the
// metrics; unticking a column takes away its axis, table column and
// matrix charts; brushing an axis leaves exactly the sessions within it in
// the table; the scatter matrix plots each metric against each varying
// hyperparameter, a point per session; tooltips name the session's run;
// no two texts of a chart touch or leave it, every axis, matrix row and
// column is named whole (a hyperparameter and a metric of one name apart),
// and every category of a matrix axis has its label drawn.

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/trainreport/trainreport/collect/eventpb"
)

func TestBrowserHParams(t *testing.T) {
	t.Parallel()
	shots := screenshotDir(t)
	writers := filepath.Join(repoRoot(t), "collect", "testdata", "writers")
	crowded := t.TempDir()
	writeCrowdedHParams(t, crowded)
	for _, in := range []struct {
		name string
		logs []string // the first is the log directory, the others are given before it
		// constant is set when the logs hold hyperparameters with one
		// value in every session, which the page must leave out at first.
		constant bool
	}{
		// Sessions of three writers: many values missing, booleans, strings.
		{"mixed", []string{sharedCorpus(t, "tf2-hparams-api-experiment"), filepath.Join(writers, "tensorboardx"), filepath.Join(writers, "torch")}, false},
		{"keras", []string{sharedCorpus(t, "tf2-hparams-keras")}, false},
		// 25 sessions of 49 hyperparameters, paths among them, some constant.
		{"sweep", []string{sharedCorpus(t, "lightning-tbx-sweep")}, true},
		// Labels that crowd: see writeCrowdedHParams.
		{"crowded", []string{crowded}, false},
	} {
		// The inputs and their two documents side by side, each in a
		// browser context of its own (58 s in a row on the busy machine).
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			r := buildReport(t, in.logs[0], in.logs[1:]...)
			for _, c := range []struct{ name, url string }{
				{"site", fileURL(filepath.Join(r.site, "hparams.html"), "")},
				{"single-file", fileURL(r.single, "page=hparams")},
			} {
				t.Run(c.name, func(t *testing.T) {
					t.Parallel()
					tb := openTab(t, startBrowser(t), c.url)
					waitFor(tb, pageJS("hparams.js", "chart"), 10*time.Second, "the charts")
					check := func(what string, problems []string) {
						t.Helper()
						for _, p := range problems {
							t.Errorf("%s: %s", what, p)
						}
					}
					check("lines on the axes", eval[[]string](tb, pageJS("hparams.js", "geometry")))
					type defaults struct {
						Problems []string
						Hidden   int
					}
					d := eval[defaults](tb, pageJS("hparams.js", "defaults"))
					check("default columns", d.Problems)
					if in.constant && d.Hidden == 0 {
						t.Errorf("default columns: every column shown, want the constant hyperparameters left out")
					}
					check("scatter matrix", eval[[]string](tb, pageJS("hparams.js", "matrix")))
					check("labels", eval[[]string](tb, pageJS("hparams.js", "labels")))
					check("tooltips", eval[[]string](tb, pageJS("hparams.js", "tooltips")))
					check("column chooser", eval[[]string](tb, pageJS("hparams.js", "toggle")))
					check("brushing", eval[[]string](tb, pageJS("hparams.js", "brush")))
					sorted := eval[[]float64](tb, pageJS("hparams.js", "sort"))
					if len(sorted) < 2 {
						t.Errorf("sorted metric column holds %v", sorted)
					}
					for i := 1; i < len(sorted); i++ {
						if sorted[i] < sorted[i-1] {
							t.Errorf("metric column not sorted ascending: %v", sorted)
							break
						}
					}
					tb.screenshot(shots, "hparams-"+in.name+"-"+c.name)
				})
			}
		})
	}
}

// writeCrowdedHParams writes sessions whose columns crowd the page's axes,
// as a sweep's real logs do: a learning rate from 0.13 to 0.153 and a
// weight decay in steps of 0.0001 (ticks "0.13", "0.135", ... or
// "0.0001", "0.0002", ... that run together on a narrow axis), an optimizer
// of three values (the middle one, "adam", dropped when labels overlap),
// long scalar names ("validation/epoch_accuracy", cut to
// "validation/epoc…"), and a hyperparameter and a metric both named
// "loss" (the loss function chosen and the loss reached).
func writeCrowdedHParams(t *testing.T, dir string) {
	t.Helper()
	for i := range 9 {
		evs := []*eventpb.Event{{WallTime: 1.7e9, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}}}
		evs = append(evs, summaryEvent(0, 0, hparamsSummary(t, "_hparams_/session_start_info", &eventpb.HParamsPluginData{
			Data: &eventpb.HParamsPluginData_SessionStartInfo{SessionStartInfo: &eventpb.SessionStartInfo{
				Hparams: map[string]*structpb.Value{
					"learning_rate":             structpb.NewNumberValue(0.13 + 0.0057*float64(i%5)),
					"optimizer":                 structpb.NewStringValue([]string{"RMSprop", "adam", "sgd"}[i%3]),
					"loss":                      structpb.NewStringValue([]string{"mse", "huber"}[i%2]),
					"model/encoder/hidden_size": structpb.NewNumberValue(float64(1000 + 250*(i%4))),
					"weight_decay":              structpb.NewNumberValue(0.0001 * float64(1+i%5)),
				}, StartTimeSecs: 1.7e9}}})))
		for s := range 4 {
			f := float32(s+1) / 4
			evs = append(evs, summaryEvent(int64(s), 0.5,
				simpleValue("loss", float32(0.5+0.05*float64(i))/f),
				simpleValue("validation/epoch_accuracy", 0.5+0.04*float32(i)*f),
				simpleValue("train/epoch_learning_rate_after_warmup", 0.001*float32(i+1))))
		}
		evs = append(evs, summaryEvent(4, 0.9, hparamsSummary(t, "_hparams_/session_end_info", &eventpb.HParamsPluginData{
			Data: &eventpb.HParamsPluginData_SessionEndInfo{SessionEndInfo: &eventpb.SessionEndInfo{Status: eventpb.SessionEndInfo_STATUS_SUCCESS, EndTimeSecs: 1.7e9 + 4}}})))
		writeEventFile(t, filepath.Join(dir, fmt.Sprintf("run-%d", i), "events.out.tfevents.1700000000.host"), evs)
	}
}
