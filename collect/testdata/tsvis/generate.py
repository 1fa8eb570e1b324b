"""Writes the TS-VIS fixture of trainreport's own kinds: feature maps,
hidden states and attention, as TS-VIS's SummaryWriter writes them.

The pip package (tsvis 0.4.2, the only release) predates these kinds; its
later source (github.com/iGame-Lab/TS-VIS, tsvis/logger/summary.py and
summary_writer.py: make_tensor2, state, featuremap_*, add_attention,
add_attentionmap) builds each from a torch model. This generator writes
the same values from small numpy arrays with the pip package's own event
writer and protos (TensorProto with numpy's dtype name as a string at
field 1, the array's bytes at field 4), and TS-VIS's Summary.Transformer
(Value field 10) from its published descriptor, which the pip protos lack.

Run by hand, in a venv with the wheel and its light dependencies:
    python -m venv .cache/tsvis-venv
    .cache/tsvis-venv/bin/pip install numpy 'protobuf<4' crc32c six pillow
    .cache/tsvis-venv/bin/pip install --no-deps tsvis==0.4.2
    .cache/tsvis-venv/bin/python collect/testdata/tsvis/generate.py collect/testdata/tsvis/run
Then expected.json beside this file says what was written.
"""
import json
import os
import sys

import numpy as np
from google.protobuf.internal.encoder import _VarintBytes

from tsvis.logger.writer import EventFileWriter
from tsvis.proto.summary_pb2 import Summary, SummaryMetadata
from tsvis.proto.tensor_pb2 import TensorProto, TensorShapeProto


def make_tensor2(a):
    """TS-VIS's make_tensor2: dtype as numpy names it, C-order bytes."""
    shape = TensorShapeProto(dim=[TensorShapeProto.Dim(size=d) for d in a.shape])
    return TensorProto(dtype=str(a.dtype), tensor_shape=shape, tensor_content=a.tobytes())


def value(tag, plugin, tensor):
    md = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name=plugin))
    return Summary(value=[Summary.Value(tag=tag, tensor=make_tensor2(tensor), metadata=md)])


def field(num, payload):
    """A length-delimited protobuf field."""
    return _VarintBytes(num << 3 | 2) + _VarintBytes(len(payload)) + payload


def varint_field(num, v):
    return _VarintBytes(num << 3) + _VarintBytes(v)


def transformer_value(tag, items, default_filter, bidirectional, display_mode, layer, head):
    """Summary{value: Value{tag, metadata, transformer (field 10)}} with
    Transformer {attentionItem = 1 (AttentionItem {tag = 1, attn = 2,
    left = 3, right = 4}); default_filter = 2; bidirectional = 3 (a
    string); displayMode = 4; layer = 5; head = 6}, TS-VIS's
    add_attention."""
    body = b''
    for name, attn, left, right in items:
        item = (field(1, name.encode()) + field(2, make_tensor2(attn).SerializeToString()) +
                field(3, make_tensor2(left).SerializeToString()) + field(4, make_tensor2(right).SerializeToString()))
        body += field(1, item)
    body += field(2, default_filter.encode()) + field(3, bidirectional.encode()) + field(4, display_mode.encode())
    if layer:
        body += varint_field(5, layer)
    if head:
        body += varint_field(6, head)
    md = SummaryMetadata(plugin_data=SummaryMetadata.PluginData(plugin_name='transformer'))
    v = Summary.Value(tag=tag, metadata=md).SerializeToString() + field(10, body)
    return Summary.FromString(field(1, v))


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(16)
    w = EventFileWriter(out)
    expected = {}

    # add_hidden_state(hidden_state, word): state() of each, plugin
    # "hiddenstate", no step. Rows are positions of the text, columns units.
    hidden = np.tanh(rng.normal(size=(12, 8))).astype(np.float32)
    word = 'the cat sat on the mat'
    w.add_summary(value('hidden_state', 'hiddenstate', hidden))
    w.add_summary(value('hidden_state_word', 'hiddenstate', np.array([word])))
    expected['hidden_state'] = {'dtype': 'float32', 'shape': list(hidden.shape), 'values': hidden.ravel().tolist()}
    expected['hidden_state_word'] = {'text': [word]}

    # add_featuremap(model, inputs, 'Classification'): per layer and method
    # a batch of RGB images, (N, H, W, 3) float64 in 0..255 (PFV, GradCam,
    # Gray, guidedbp), the softmax scores and the labels; plugin
    # "featuremap", no step.
    n, h, wd = 3, 8, 8
    yy, xx = np.mgrid[0:h, 0:wd]
    for layer, method in [('conv1', 'GradCam'), ('conv2', 'GradCam'), ('conv2', 'Gray'), ('fc', 'PFV')]:
        imgs = np.stack([np.stack([(xx * (k + 1) * 31) % 256, (yy * 29 + k * 50) % 256,
                                   ((xx + yy) * 17 + layer.__len__() * 40) % 256], axis=-1)
                         for k in range(n)]).astype(np.float64)
        tag = f'{layer}-{method}'
        w.add_summary(value(tag, 'featuremap', imgs))
        expected[tag] = {'dtype': 'float64', 'shape': list(imgs.shape), 'values': imgs.ravel().tolist()}
    scores = np.array([[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.3, 0.3, 0.4]], dtype=np.float32)
    labels = np.array([0, 1, 2], dtype=np.int64)
    w.add_summary(value('Classification-sorce', 'featuremap', scores))
    w.add_summary(value('Classification-label', 'featuremap', labels))
    expected['Classification-sorce'] = {'dtype': 'float32', 'shape': [3, 3], 'values': scores.ravel().tolist()}
    expected['Classification-label'] = {'dtype': 'int64', 'shape': [3], 'values': labels.tolist()}

    # add_attention(tag, texts, tokens, attention): per sentence a
    # Transformer value of its attention (layers, heads, tokens, tokens)
    # between its tokens, then the sentences; plugin "transformer".
    tokens = ['[CLS]', 'the', 'cat', 'sat', '[SEP]']
    t = len(tokens)
    logits = rng.normal(size=(2, 2, t, t))
    attn = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    tok = np.array(tokens)
    w.add_summary(transformer_value('bert-transformertext-0', [('all', attn, tok, tok)], 'all', 'True', 'light', 0, 0))
    w.add_summary(value('bert-transformertext-sentence', 'transformer', np.array(['the cat sat'])))
    expected['bert-transformertext-0/all'] = {'dtype': 'float64', 'shape': list(attn.shape), 'values': attn.ravel().tolist(),
                                              'left': tokens, 'right': tokens}
    expected['bert-transformertext-sentence'] = {'text': ['the cat sat']}

    # add_attentionmap(images, attn_map): per image its attention map,
    # (layers, heads, h, w, h, w) float16 over a grid of patches, and the
    # image, (256, 256, 3) float32 after TS-VIS's resize (16 x 16 here).
    am = rng.uniform(size=(1, 2, 2, 2, 2, 2)).astype(np.float16)
    img = (rng.uniform(size=(16, 16, 3))).astype(np.float32)
    w.add_summary(value('vit-img0-am', 'transformer', am))
    w.add_summary(value('vit-img0', 'transformer', img))
    expected['vit-img0-am'] = {'dtype': 'float16', 'shape': list(am.shape), 'values': am.astype(np.float64).ravel().tolist()}
    expected['vit-img0'] = {'dtype': 'float32', 'shape': list(img.shape), 'values': img.astype(np.float64).ravel().tolist()}

    w.close()
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'expected.json'), 'w') as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write('\n')


if __name__ == '__main__':
    main(sys.argv[1])
