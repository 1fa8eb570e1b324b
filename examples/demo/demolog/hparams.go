package demolog

import (
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// hparamsTag is the tag TensorBoard's hparams summaries use for a
// session's start and end.
const (
	sessionStartTag = "_hparams_/session_start_info"
	sessionEndTag   = "_hparams_/session_end_info"
)

// hparamsStart records the job's hyperparameters at the start of its
// train run, as TensorBoard's hparams API (hp.hparams) writes them: a
// summary value with no value of its own and the hparams plugin's
// session_start_info as its metadata's content. With no experiment
// declared, every scalar of the run is a metric of the session.
func (ef *eventFile) hparamsStart(j *job, wall float64) {
	ef.hparams(wall, sessionStartTag, &eventpb.HParamsPluginData{Data: &eventpb.HParamsPluginData_SessionStartInfo{
		SessionStartInfo: &eventpb.SessionStartInfo{
			StartTimeSecs: wall,
			Hparams: map[string]*structpb.Value{
				"learning_rate": structpb.NewNumberValue(j.peakLR),
				"warmup_steps":  structpb.NewNumberValue(warmup),
				"batch_size":    structpb.NewNumberValue(128),
				"optimizer":     structpb.NewStringValue("sgd"),
				"nesterov":      structpb.NewBoolValue(j.peakLR < 0.005),
			},
		}}})
}

// hparamsEnd records that the job's session ended well.
func (ef *eventFile) hparamsEnd(wall float64) {
	ef.hparams(wall, sessionEndTag, &eventpb.HParamsPluginData{Data: &eventpb.HParamsPluginData_SessionEndInfo{
		SessionEndInfo: &eventpb.SessionEndInfo{Status: eventpb.SessionEndInfo_STATUS_SUCCESS, EndTimeSecs: wall}}})
}

func (ef *eventFile) hparams(wall float64, tag string, data *eventpb.HParamsPluginData) {
	if ef.err != nil {
		return
	}
	content, err := proto.MarshalOptions{Deterministic: true}.Marshal(data)
	if err != nil {
		ef.err = err
		return
	}
	ef.write(&eventpb.Event{WallTime: wall, What: &eventpb.Event_Summary{Summary: &eventpb.Summary{
		Value: []*eventpb.SummaryValue{{Tag: tag, Metadata: &eventpb.SummaryMetadata{
			PluginData: &eventpb.PluginData{PluginName: "hparams", Content: content}}}},
	}}})
}
