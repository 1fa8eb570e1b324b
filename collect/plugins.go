package collect

import (
	"github.com/trainreport/trainreport/collect/eventpb"
)

// addHParams reads a value of the hparams plugin (FORMATS.md section 5).
func (rr *runReader) addHParams(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState, tag string) error {
	return nil
}

// addLayout reads a custom-scalars layout (FORMATS.md section 6).
func (rr *runReader) addLayout(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState) error {
	return nil
}

// addGraphValue reads a graph carried by a summary value: a Keras model
// (JSON) or a TF2 trace (RunMetadata, GraphDef).
func (rr *runReader) addGraphValue(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState, tag string, at locator) error {
	return nil
}

// addGraphEvent reads a graph_def, meta_graph_def or tagged_run_metadata
// event.
func (rr *runReader) addGraphEvent(ev *eventpb.Event, rec record, offset int64) {}

// finishPlugins completes what the plugins gathered once every file of the
// run is read.
func (rr *runReader) finishPlugins() {}
