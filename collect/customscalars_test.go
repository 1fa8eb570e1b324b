package collect

import (
	"reflect"
	"strings"
	"testing"

	"github.com/trainreport/trainreport/collect/model"

	pb "github.com/trainreport/trainreport/collect/eventpb"
)

// layoutValue is a custom-scalars layout as tensorboardX and PyTorch write
// it: a string tensor holding the serialized Layout.
func layoutValue(tag string, strs ...[]byte) *pb.SummaryValue {
	return &pb.SummaryValue{Tag: tag,
		Metadata: &pb.SummaryMetadata{PluginData: &pb.PluginData{PluginName: "custom_scalars"}},
		Value: &pb.SummaryValue_Tensor{Tensor: &pb.TensorProto{Dtype: pb.DataType_DT_STRING,
			TensorShape: &pb.TensorShapeProto{}, StringVal: strs}}}
}

func TestLayout(t *testing.T) {
	full := &pb.Layout{Category: []*pb.Category{
		{Title: "Losses", Chart: []*pb.Chart{
			{Title: "all losses", Content: &pb.Chart_Multiline{Multiline: &pb.MultilineChartContent{Tag: []string{`loss/.*`, `^val_loss$`}}}},
			{Title: "band", Content: &pb.Chart_Margin{Margin: &pb.MarginChartContent{Series: []*pb.MarginChartContent_Series{
				{Value: "acc", Lower: "acc/lo", Upper: "acc/hi"}, {Value: "f1"}}}}},
			{Title: "empty chart"},
		}},
		{Title: "Hidden", Closed: true},
	}}
	wantFull := &model.Layout{Categories: []model.LayoutCategory{
		{Title: "Losses", Charts: []model.LayoutChart{
			{Title: "all losses", Multiline: []string{`loss/.*`, `^val_loss$`}},
			{Title: "band", Margin: []model.MarginSeries{{Value: "acc", Lower: "acc/lo", Upper: "acc/hi"}, {Value: "f1"}}},
			{Title: "empty chart"},
		}},
		{Title: "Hidden", Closed: true, Charts: []model.LayoutChart{}},
	}}
	small := &pb.Layout{Category: []*pb.Category{{Title: "Only"}}}
	wantSmall := &model.Layout{Categories: []model.LayoutCategory{{Title: "Only", Charts: []model.LayoutChart{}}}}

	tests := []struct {
		name    string
		values  []*pb.SummaryValue
		want    *model.Layout
		warning string
	}{
		{"categories, multiline and margin charts", []*pb.SummaryValue{layoutValue(layoutTag, hpMarshal(t, full))}, wantFull, ""},
		{"the last layout wins", []*pb.SummaryValue{layoutValue(layoutTag, hpMarshal(t, full)), layoutValue(layoutTag, hpMarshal(t, small))}, wantSmall, ""},
		{"an empty layout", []*pb.SummaryValue{layoutValue(layoutTag, nil)}, &model.Layout{Categories: []model.LayoutCategory{}}, ""},
		{"no string in the tensor", []*pb.SummaryValue{layoutValue(layoutTag)}, nil, "no serialized layout"},
		{"bytes that are not a layout", []*pb.SummaryValue{layoutValue(layoutTag, []byte{0xff, 0xff})}, nil, "custom scalars layout"},
		{"another tag of the plugin", []*pb.SummaryValue{layoutValue("other", hpMarshal(t, full))}, nil, "outside the tag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs := []*pb.Event{fileVersion()}
			for i, v := range tt.values {
				evs = append(evs, summary(int64(i), v))
			}
			r := collectOne(t, []file{{ev100, eventFile(t, evs...)}})
			if !reflect.DeepEqual(r.Layout, tt.want) {
				t.Errorf("layout\n%+v\nwant\n%+v", r.Layout, tt.want)
			}
			switch {
			case tt.warning == "" && len(r.Warnings) > 0:
				t.Errorf("warnings %v", r.Warnings)
			case tt.warning != "" && (len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0].Msg, tt.warning)):
				t.Errorf("warnings %v, want %q", r.Warnings, tt.warning)
			}
		})
	}
}

// TestLayoutTensorBoardX reads the layout tensorboardX's add_custom_scalars
// wrote (testdata/hparams/gen_tbx.py).
func TestLayoutTensorBoardX(t *testing.T) {
	rep := collectDir(t, "testdata/hparams/tbx", Options{})
	r := findRun(rep, "run")
	if r == nil {
		t.Fatalf("runs %v", runNames(rep))
	}
	want := &model.Layout{Categories: []model.LayoutCategory{
		{Title: "Losses", Charts: []model.LayoutChart{{Title: "all losses", Multiline: []string{"loss/.*"}}}},
		{Title: "Accuracy", Charts: []model.LayoutChart{{Title: "band", Margin: []model.MarginSeries{{Value: "acc", Lower: "acc_lo", Upper: "acc_hi"}}}}},
	}}
	if !reflect.DeepEqual(r.Layout, want) || len(r.Warnings) > 0 {
		t.Errorf("layout\n%+v\nwant\n%+v\nwarnings %v", r.Layout, want, r.Warnings)
	}
}
