package collect

import (
	"fmt"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/eventpb"
)

// Bounds on a feature map batch: its images, and their sides.
const (
	maxFeatureMaps    = 256
	maxFeatureMapSide = 4096
)

// featureMapShape returns the images, height, width and channels of a
// tensor TS-VIS's featuremap plugin writes as a batch of images: (N, H,
// W, C) with C of 1, 3 or 4, in a numeric dtype, its bytes in
// tensor_content; ok is false for its other tensors (scores, labels).
func featureMapShape(t *eventpb.TensorProto) (n, h, w, c int, ok bool) {
	s := event.Shape(t)
	if len(s) != 4 || event.ElemSize(t.GetDtype()) == 0 {
		return 0, 0, 0, 0, false
	}
	if s[0] < 1 || s[0] > maxFeatureMaps || s[1] < 1 || s[1] > maxFeatureMapSide || s[2] < 1 || s[2] > maxFeatureMapSide ||
		(s[3] != 1 && s[3] != 3 && s[3] != 4) {
		return 0, 0, 0, 0, false
	}
	n, h, w, c = int(s[0]), int(s[1]), int(s[2]), int(s[3])
	return n, h, w, c, len(t.GetTensorContent()) == n*h*w*c*event.ElemSize(t.GetDtype())
}

// addFeatureMap keeps a TS-VIS feature map batch (plugin featuremap: a
// layer's images by Grad-CAM, guided backpropagation and the like) as an
// image step of the batch's images, each a reference to its pixel values
// in the tensor's bytes, which the report encodes as PNG.
func (rr *runReader) addFeatureMap(ev *eventpb.Event, v *eventpb.SummaryValue, ts *tagState, at locator) error {
	t := v.GetTensor()
	n, h, w, c, ok := featureMapShape(t)
	if !ok {
		return fmt.Errorf("feature map tensor of shape %v and dtype %s is not a batch of images; value skipped", event.Shape(t), event.DTypeName(t.GetDtype()))
	}
	ref, ok := at(event.Step{Num: eventpb.FieldValueTensor}, event.Step{Num: eventpb.FieldTensorContent})
	if !ok {
		return fmt.Errorf("cannot locate the feature map's bytes")
	}
	size := int64(h * w * c * event.ElemSize(t.GetDtype()))
	px := &model.Pixels{DType: event.DTypeName(t.GetDtype()), Channels: c}
	e := model.ImageEntry{WallTime: ev.WallTime, Step: ev.Step, Images: make([]model.ImageItem, n)}
	for k := range e.Images {
		e.Images[k] = model.ImageItem{Width: w, Height: h, Format: "png", Data: ref.Sub(int64(k)*size, size), Pixels: px}
	}
	keep(rr, ts, imageList, ev.Step, e)
	return nil
}
