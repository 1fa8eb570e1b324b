package collect

import (
	"errors"
	"fmt"

	"github.com/trainreport/trainreport/collect/model"

	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// layoutTag is the tag of the custom-scalars layout.
const layoutTag = "custom_scalars__config__"

// addLayout reads a custom-scalars layout: a string tensor whose first
// string is a serialized Layout. A run that writes several keeps the last
// one, as TensorBoard reads only the latest value of the tag in each run
// (it then merges the runs' layouts, joining categories of the same
// title; that is left to whoever shows them).
func (rr *runReader) addLayout(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState) error {
	if v.GetTag() != layoutTag {
		return fmt.Errorf("custom_scalars value outside the tag %q; ignored", layoutTag)
	}
	s := v.GetTensor().GetStringVal()
	if len(s) == 0 {
		return errors.New("custom scalars layout: no serialized layout in the tensor")
	}
	l, err := decodeLayout(s[0])
	if err != nil {
		return err
	}
	rr.run.Layout = l
	return nil
}

// decodeLayout decodes a serialized Layout.
func decodeLayout(b []byte) (*model.Layout, error) {
	var pl eventpb.Layout
	if err := proto.Unmarshal(b, &pl); err != nil {
		return nil, fmt.Errorf("custom scalars layout: %w", err)
	}
	l := &model.Layout{Categories: []model.LayoutCategory{}}
	for _, c := range pl.GetCategory() {
		cat := model.LayoutCategory{Title: c.GetTitle(), Closed: c.GetClosed(), Charts: []model.LayoutChart{}}
		for _, ch := range c.GetChart() {
			chart := model.LayoutChart{Title: ch.GetTitle()}
			switch x := ch.GetContent().(type) {
			case *eventpb.Chart_Multiline:
				chart.Multiline = append([]string{}, x.Multiline.GetTag()...)
			case *eventpb.Chart_Margin:
				chart.Margin = []model.MarginSeries{}
				for _, s := range x.Margin.GetSeries() {
					chart.Margin = append(chart.Margin, model.MarginSeries{Value: s.GetValue(), Lower: s.GetLower(), Upper: s.GetUpper()})
				}
			}
			cat.Charts = append(cat.Charts, chart)
		}
		l.Categories = append(l.Categories, cat)
	}
	return l, nil
}
