package main

// The hostile-records browser test opens a report of records that used to
// fail the whole report or draw nothing (an image and a clip with no
// bytes, a clip with a NaN sample rate, a scalar and a histogram whose
// range overflows float64) and checks that every page opens without an
// error, the histogram and distribution charts draw such ranges, and each
// record's note shows where it would be.

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/internal/testlog"
)

// writeHostileRecords writes the log directory of the test: one run.
func writeHostileRecords(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "logs")
	run := filepath.Join(dir, "run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	var p bytes.Buffer
	if err := png.Encode(&p, image.NewGray(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	wav := []byte("RIFF\x00\x00\x00\x00WAVEfmt ")
	wav = le.AppendUint32(wav, 16)
	wav = le.AppendUint16(le.AppendUint16(wav, 1), 1)
	wav = le.AppendUint32(le.AppendUint32(wav, 8000), 16000)
	wav = le.AppendUint16(le.AppendUint16(wav, 2), 16)
	wav = le.AppendUint32(append(wav, "data"...), 800)
	for i := range 400 {
		wav = le.AppendUint16(wav, uint16(int16(8000*math.Sin(float64(i)/5))))
	}
	scalar := func(v float64) *eventpb.SummaryValue {
		return &eventpb.SummaryValue{Tag: "extreme", Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "scalars"}},
			Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_DOUBLE, TensorShape: &eventpb.TensorShapeProto{}, DoubleVal: []float64{v}}}}
	}
	clip := func(tag string, rate float32, b []byte) *eventpb.SummaryValue {
		return &eventpb.SummaryValue{Tag: tag, Value: &eventpb.SummaryValue_Audio{Audio: &eventpb.Audio{SampleRate: rate,
			NumChannels: 1, LengthFrames: 400, EncodedAudioString: b, ContentType: "audio/wav"}}}
	}
	img := func(tag string, b []byte) *eventpb.SummaryValue {
		return &eventpb.SummaryValue{Tag: tag, Value: &eventpb.SummaryValue_Image{Image: &eventpb.Image{Height: 8, Width: 8, EncodedImageString: b}}}
	}
	hist := &eventpb.SummaryValue{Tag: "hist/extreme", Metadata: &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: "histograms"}},
		Value: &eventpb.SummaryValue_Tensor{Tensor: &eventpb.TensorProto{Dtype: eventpb.DataType_DT_DOUBLE,
			TensorShape: &eventpb.TensorShapeProto{Dim: []*eventpb.TensorShapeProto_Dim{{Size: 2}, {Size: 3}}},
			// Narrow buckets at either end: their range overflows float64,
			// but not collect's compression to basis points, whose
			// interpolation multiplies a bucket's width by up to 10,000.
			DoubleVal: []float64{-1e308, -0.99999999e308, 5, 0.99999999e308, 1e308, 7}}}}
	events := []*eventpb.Event{{WallTime: 1.7e9, What: &eventpb.Event_FileVersion{FileVersion: "brain.Event:2"}}}
	for step, values := range [][]*eventpb.SummaryValue{
		{scalar(1e308), img("image/ok", p.Bytes()), img("image/empty", nil), clip("audio/ok", 8000, wav),
			clip("audio/empty", 8000, nil), clip("audio/nan-rate", float32(math.NaN()), wav), hist},
		{scalar(-1e308), hist},
		{scalar(0), hist},
	} {
		events = append(events, &eventpb.Event{WallTime: 1.7e9 + float64(step), Step: int64(step),
			What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: values}}})
	}
	testlog.Write(t, filepath.Join(run, "events.out.tfevents.1700000000.host"), events...)
	return dir
}

func TestBrowserHostileRecords(t *testing.T) {
	t.Parallel()
	browser := startBrowser(t)
	shots := screenshotDir(t)
	r := buildReport(t, writeHostileRecords(t))
	// The records collect skipped are named on the overview.
	if index, err := os.ReadFile(filepath.Join(r.site, "index.html")); err != nil {
		t.Fatal(err)
	} else {
		for _, tag := range []string{"image/empty", "audio/empty", "audio/nan-rate"} {
			if !bytes.Contains(index, []byte(tag)) {
				t.Errorf("the overview names no warning of %s", tag)
			}
		}
	}

	// The scalar chart of 1e308, -1e308 and 0 opens without an error and
	// holds its three points. (ECharts draws an empty plot for it: its
	// value axis cannot map a span wider than float64 holds. The
	// histograms and distributions pages draw such spans in halves;
	// assets/scalarchart.js does not yet.)
	t.Run("scalars", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "scalars.html"), ""))
		figs := eval[[]figureInfo](tb, pageJS("hostile.js", "scalarFigures"))
		if len(figs) != 1 || !figs[0].HasInstance || len(figs[0].Series) != 1 || figs[0].Series[0].Finite != 3 {
			t.Errorf("the chart of 1e308, -1e308, 0: %+v", figs)
		}
		tb.screenshot(shots, "hostile-scalars")
	})
	t.Run("histograms", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "histograms.html"), ""))
		waitFor(tb, `!!document.querySelector("figure.stat-card[data-drawn]")`, 10*time.Second, "the chart draws")
		// The tooltip of the tallest bin of the last step: its range is
		// computed on halves, as the page computes it.
		tip := eval[string](tb, pageJS("hostile.js", "histogramTip"))
		t.Logf("tooltip: %q", tip)
		if !strings.Contains(tip, "step 2") || !strings.Contains(tip, "[9.3333e+307, 1e+308): 7 ") || strings.Contains(tip, "NaN") ||
			strings.Contains(tip, "Infinity") || !strings.HasSuffix(tip, "items 3") {
			t.Errorf("tooltip %q: want step 2, a finite bin range and 3 steps drawn", tip)
		}
		tb.screenshot(shots, "hostile-histograms")
	})
	t.Run("distributions", func(t *testing.T) {
		tb := openTab(t, browser, fileURL(filepath.Join(r.site, "distributions.html"), ""))
		waitFor(tb, `!!document.querySelector("figure.stat-card[data-drawn]")`, 10*time.Second, "the chart draws")
		// The outer basis points of the last step (-1e308 and 1e308) map to
		// points in the chart, on a y axis that spans them. (The inner ones
		// are NaN: collect's compression, like TensorBoard's, interpolates
		// across the gap between the buckets, whose width overflows.)
		got := eval[string](tb, pageJS("hostile.js", "distributionSpan"))
		if got != "true true" {
			t.Errorf("outer basis points map to points, y axis spans -1e308 to 1e308: %q, want true true", got)
		}
		tb.screenshot(shots, "hostile-distributions")
	})
	for _, c := range []struct {
		page, cells string
	}{
		// Collect skips the image and the clip of no bytes, each with a
		// warning at its record (the overview lists them); the page shows
		// the rest, with no note of its own.
		{"images", "1"},
		{"audio", "2"},
	} {
		for _, single := range []bool{false, true} {
			name := c.page
			url := fileURL(filepath.Join(r.site, c.page+".html"), "")
			if single {
				name, url = "single-"+c.page, fileURL(r.single, "page="+c.page)
			}
			t.Run(name, func(t *testing.T) {
				tb := openTab(t, browser, url)
				waitFor(tb, `document.querySelectorAll('main.page[data-page="`+c.page+`"] .media-cell').length === `+c.cells, 10*time.Second, "every tag's cell shows")
				errs := eval[[]string](tb, `[...document.querySelectorAll('main.page[data-page="`+c.page+`"] .media-error')].map(e => e.textContent)`)
				if len(errs) != 0 {
					t.Errorf("notes %q, want none", errs)
				}
				if c.page == "audio" {
					// The clip of NaN rate plays, with its previews, at the WAV's rate.
					info := eval[string](tb, pageJS("hostile.js", "mediaInfo"))
					if strings.Count(info, "1:") != 2 || strings.Contains(info, "0:") {
						t.Errorf("players and info per clip: %s", info)
					}
				}
				tb.screenshot(shots, "hostile-"+name)
			})
		}
	}
}
