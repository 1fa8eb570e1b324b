package event

import (
	"fmt"
	"unicode/utf8"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/trainreport/trainreport/collect/eventpb"
)

// Field numbers of TS-VIS's transformer values (docs/FORMATS.md section
// 17): Summary.Value.transformer = 10, a Transformer {attentionItem = 1
// (repeated AttentionItem {tag = 1, attn = 2, left = 3, right = 4}), ...}.
// No generated message declares them (TensorBoard's Summary.Value has no
// field 10), so no test checks them against a descriptor.
const (
	FieldTransformer   = 10
	FieldAttentionItem = 1
	FieldAttention     = 2
)

// maxItemTag bounds the bytes of an attention item's name.
const maxItemTag = 256

// AttentionItem is one item of a TS-VIS transformer value: the attention
// of a sentence between two lists of tokens (TS-VIS's "all", or "aa",
// "ab", ... for the halves of a sentence pair), a tensor of layers, heads,
// and the two lists' tokens.
type AttentionItem struct {
	Tag string
	// N is the item's place among the value's items, for a BlobRef.
	N    int
	Attn *eventpb.TensorProto
	// Left and Right are the tokens of the attention's rows and columns
	// (nil when the item has none, or they are not numpy text).
	Left, Right []string
}

// maxTokens bounds the tokens of one list.
const maxTokens = 1 << 14

// TransformerItems decodes the attention items of v's TS-VIS transformer
// field (10), which TensorBoard's Summary.Value lacks, so that v holds it
// as an unknown field; at most max items. ok is false when v has none.
func TransformerItems(v *eventpb.SummaryValue, max int) (items []AttentionItem, ok bool, err error) {
	if v.GetValue() != nil {
		return nil, false, nil
	}
	body, found, err := unknownField(v.ProtoReflect().GetUnknown(), FieldTransformer)
	if !found || err != nil {
		return nil, found, err
	}
	n := 0
	for b := body; len(b) > 0; {
		num, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return items, true, fmt.Errorf("transformer value: %w", protowire.ParseError(k))
		}
		b = b[k:]
		k = protowire.ConsumeFieldValue(num, typ, b)
		if k < 0 {
			return items, true, fmt.Errorf("transformer value: %w", protowire.ParseError(k))
		}
		if num == FieldAttentionItem && typ == protowire.BytesType {
			raw, _ := protowire.ConsumeBytes(b)
			if len(items) == max {
				return items, true, fmt.Errorf("transformer value of more than %d attention items: the rest skipped", max)
			}
			it, err := attentionItem(raw, n)
			if err != nil {
				return items, true, err
			}
			items = append(items, it)
			n++
		}
		b = b[k:]
	}
	return items, true, nil
}

func attentionItem(raw []byte, n int) (AttentionItem, error) {
	it := AttentionItem{N: n}
	name, _, err := unknownField(raw, 1)
	if err != nil {
		return it, fmt.Errorf("attention item %d: %w", n, err)
	}
	if len(name) > maxItemTag || !utf8.Valid(name) {
		return it, fmt.Errorf("attention item %d: its name is not UTF-8 text of at most %d bytes", n, maxItemTag)
	}
	it.Tag = string(name)
	attn, found, err := unknownField(raw, FieldAttention)
	if err != nil || !found {
		return it, fmt.Errorf("attention item %q: no attention tensor (%v)", it.Tag, err)
	}
	it.Attn = new(eventpb.TensorProto)
	if err := proto.Unmarshal(attn, it.Attn); err != nil {
		return it, fmt.Errorf("attention item %q: %w", it.Tag, err)
	}
	if !NumpyDType(it.Attn) && !IsNumeric(it.Attn.GetDtype()) {
		return it, fmt.Errorf("attention item %q: its tensor is not numeric", it.Tag)
	}
	it.Left, it.Right = tokens(raw, 3), tokens(raw, 4)
	return it, nil
}

// tokens returns the numpy text at field num of an attention item.
func tokens(raw []byte, num protowire.Number) []string {
	b, found, err := unknownField(raw, num)
	if !found || err != nil {
		return nil
	}
	var t eventpb.TensorProto
	if proto.Unmarshal(b, &t) != nil || !NumpyText(&t, maxTokens) {
		return nil
	}
	out := make([]string, len(t.GetStringVal()))
	for i, s := range t.GetStringVal() {
		out[i] = string(s)
	}
	return out
}

// unknownField returns the last length-delimited field num of the
// message b, as a decoder would keep it.
func unknownField(b []byte, num protowire.Number) (field []byte, found bool, err error) {
	for len(b) > 0 {
		n, typ, k := protowire.ConsumeTag(b)
		if k < 0 {
			return nil, false, protowire.ParseError(k)
		}
		b = b[k:]
		k = protowire.ConsumeFieldValue(n, typ, b)
		if k < 0 {
			return nil, false, protowire.ParseError(k)
		}
		if n == num && typ == protowire.BytesType {
			field, _ = protowire.ConsumeBytes(b)
			found = true
		}
		b = b[k:]
	}
	return field, found, nil
}
