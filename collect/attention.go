package collect

import (
	"slices"

	"github.com/trainreport/trainreport/collect/model"

	"github.com/trainreport/trainreport/collect/event"
	"github.com/trainreport/trainreport/collect/eventpb"
)

// maxAttentionItems bounds the attention items of one TS-VIS transformer
// value (TS-VIS writes one, "all", or five for a sentence pair).
const maxAttentionItems = 64

// addAttention keeps a TS-VIS transformer value (Value field 10, which
// TensorBoard's Value lacks): each attention item's tensor, of layers,
// heads and tokens, as a tensor of the tag "<tag>/<item>", drawn on the
// Tensors page with the other tensors, and its tokens as text of the tag
// "<tag>/<item>/tokens" (the rows'; "/tokens_right" for the columns' when
// they differ). It reports whether v was one.
func (rr *runReader) addAttention(ev *eventpb.Event, v *eventpb.SummaryValue, tag string, rec record, idx int, offset int64) bool {
	items, ok, err := event.TransformerItems(v, maxAttentionItems)
	if !ok {
		return false
	}
	if err != nil {
		rr.warn(offset, "tag %q at step %d: %v", tag, ev.Step, err)
	}
	for _, it := range items {
		name := tag + "/" + it.Tag
		ts, ok := rr.transformerTag(ev, name, model.KindTensor, "attention", offset)
		if !ok {
			continue
		}
		ref, ok := rec.blob(event.Step{Num: eventpb.FieldEventSummary}, event.Step{Num: eventpb.FieldSummaryValue, N: idx}, event.Step{Num: event.FieldTransformer},
			event.Step{Num: event.FieldAttentionItem, N: it.N}, event.Step{Num: event.FieldAttention})
		if !ok {
			rr.warn(offset, "tag %q at step %d: cannot locate the attention tensor; value skipped", name, ev.Step)
			continue
		}
		keep(rr, ts, tensorList, ev.Step, model.TensorEntry{WallTime: ev.WallTime, Step: ev.Step,
			DType: event.DTypeName(it.Attn.GetDtype()), Shape: event.Shape(it.Attn), Data: ref})
		rr.keepTokens(ev, name+"/tokens", it.Left, offset)
		if !slices.Equal(it.Left, it.Right) {
			rr.keepTokens(ev, name+"/tokens_right", it.Right, offset)
		}
	}
	return true
}

// keepTokens keeps an attention item's tokens as a text of tag.
func (rr *runReader) keepTokens(ev *eventpb.Event, tag string, tokens []string, offset int64) {
	if tokens == nil {
		return
	}
	ts, ok := rr.transformerTag(ev, tag, model.KindText, "tokens", offset)
	if !ok {
		return
	}
	keep(rr, ts, textList, ev.Step, model.TextEntry{WallTime: ev.WallTime, Step: ev.Step, Shape: []int64{int64(len(tokens))}, Values: tokens})
}

// transformerTag is the state of tag, a tag the transformer plugin's values
// make (of kind), seen at ev; false, with a warning, when the tag already
// holds values of another kind.
func (rr *runReader) transformerTag(ev *eventpb.Event, tag string, kind model.Kind, what string, offset int64) (*tagState, bool) {
	ts := rr.tags[tag]
	if ts == nil {
		if !rr.tagRoom(tag, offset) {
			return nil, false
		}
		ts = &tagState{name: tag, metadata: true, plugin: "transformer", kind: kind}
		rr.tags[tag] = ts
	}
	ts.saw(ev.Step, ev.WallTime)
	if ts.kind != kind {
		rr.warn(offset, "tag %q at step %d holds %s after %s values; value skipped", tag, ev.Step, what, ts.kind)
		return nil, false
	}
	return ts, true
}
