package render

import (
	"path/filepath"
	"testing"

	"github.com/trainreport/trainreport/collect/eventpb"
	"github.com/trainreport/trainreport/internal/testlog"
)

// writeEvents writes the events as one event file of run under logdir,
// framed as TensorFlow's writers frame them, after the file_version
// record every writer puts first.
func writeEvents(t testing.TB, logdir, run string, events ...*eventpb.Event) {
	t.Helper()
	testlog.Write(t, filepath.Join(logdir, filepath.FromSlash(run), "events.out.tfevents.1000000000.test"),
		append([]*eventpb.Event{testlog.FileVersion()}, events...)...)
}

// summaryEvent is an event of one summary value at step.
func summaryEvent(step int64, v *eventpb.SummaryValue) *eventpb.Event {
	return &eventpb.Event{WallTime: 1e9 + float64(step), Step: step,
		What: &eventpb.Event_Summary{Summary: &eventpb.Summary{Value: []*eventpb.SummaryValue{v}}}}
}

// pluginMeta is summary metadata naming a plugin.
func pluginMeta(name string) *eventpb.SummaryMetadata {
	return &eventpb.SummaryMetadata{PluginData: &eventpb.PluginData{PluginName: name}}
}
