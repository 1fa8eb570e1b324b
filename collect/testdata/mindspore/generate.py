#!/usr/bin/env python3
"""Write small MindSpore summary directories with the real writer, as test data.

The summary and lineage files under this directory are written by MindSpore
itself (``mindspore.SummaryRecord`` and ``mindspore.SummaryCollector``), not
by our code, so the Go tests in ``collect`` check that we read what MindSpore
really puts on disk. The output is committed: ``go test`` needs no Python.

How to run (by hand; nothing in the build or CI runs this)::

    python3.11 -m venv .cache/msvenv
    .cache/msvenv/bin/pip install mindspore==2.10.0
    cd collect/testdata/mindspore
    ../../../.cache/msvenv/bin/python generate.py

It rewrites records/, train/ and expected.json from scratch.

Last run with (CPython 3.11.7, Linux x86_64): mindspore 2.10.0 (PyPI wheel,
CPU), numpy 2.4.6, protobuf 7.36.2.

What it writes:

records/    SummaryRecord.add_value, steps 0-9:
            scalar   loss (a decaying curve), lr, a hostile tag
                     "<script>alert(1)</script>" holding step * 2, and
                     "old/acc[:Scalar]", a tag as MindSpore 1.x's in-graph
                     ScalarSummary wrote it (read as "old/acc")
            image    digits: a 1x3x8x12 image (NCHW) every step
            tensor   weights: 2x3 float32 (step + i/10); counts: int32 [4];
                     doubles: float64 [3], every other step
                     (MindSpore refuses rank-0 tensors)
            histogram  activations: 200 normal values, plus NaN, +Inf,
                     -Inf from step 5 on (MindSpore counts them apart)
train/      Model.train of a two-layer Dense network on 64 random points
            (2 epochs, 8 steps each, batch 8), with SummaryCollector
            (collect_freq=4): the graph, the loss, histograms of every
            parameter, the train lineage (optimizer, learning rate, loss
            function, epochs, batch size, dataset), a custom lineage entry;
            Model.eval with the same collector writes the evaluation lineage
            (metrics). The network also holds in-graph summary operators
            (ScalarSummary "mean", HistogramSummary "hidden"); MindSpore
            2.10 writes their tags bare (1.x put "[:Scalar]" behind them).

expected.json holds every value written to records/ (by tag and step),
and, for train/, what the writer's own protobuf classes (mindspore.train.
summary_pb2 and lineage_pb2, shipped in the wheel) read back from the files:
each tag with its step list, the scalar values, the graph's node count and
the lineage fields.

Determinism: values come from fixed seeds and formulas; wall times, file
names (timestamp, host) and, in train/, the losses (MindSpore's CPU kernels
may round differently between versions) are not fixed, which is why train/
is checked against the files it produced rather than against formulas.
"""

import glob
import json
import math
import os
import shutil
import struct

import numpy as np

import mindspore as ms
from mindspore import nn, ops, Tensor, SummaryRecord, SummaryCollector, Model
import mindspore.dataset as ds
from mindspore.train import summary_pb2, lineage_pb2

HERE = os.path.dirname(os.path.abspath(__file__))


def f32(x):
    """x as a float32 reads back, as a Python float."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def write_records(out, expected):
    rng = np.random.default_rng(7)
    exp = {"scalars": {}, "tensors": {}, "histograms": {}, "images": {}}
    hostile = "<script>alert(1)</script>"
    with SummaryRecord(out) as rec:
        for step in range(10):
            loss = 2.0 * math.exp(-step / 4) + 0.05
            lr = 0.1 * (0.9 ** step)
            rec.add_value("scalar", "loss", Tensor(loss, ms.float32))
            rec.add_value("scalar", "lr", Tensor(lr, ms.float32))
            rec.add_value("scalar", hostile, Tensor(float(step * 2), ms.float32))
            # MindSpore 1.x wrote in-graph summaries with the operator's kind
            # behind the tag; 2.x strips it before writing, so an old file's
            # tag is written here as such.
            rec.add_value("scalar", "old/acc[:Scalar]", Tensor(step / 10, ms.float32))
            for tag, v in (("loss", loss), ("lr", lr), (hostile, float(step * 2)), ("old/acc", step / 10)):
                exp["scalars"].setdefault(tag, []).append([step, f32(v)])

            img = np.zeros((1, 3, 8, 12), np.float32)
            img[0, 0, :, : step + 1] = 1.0
            img[0, 1, : (step % 8) + 1, :] = 0.5
            img[0, 2] = (np.arange(12) / 11.0)[None, :]
            rec.add_value("image", "digits", Tensor(img))
            exp["images"].setdefault("digits", []).append({"step": step, "width": 12, "height": 8})

            w = (step + np.arange(6, dtype=np.float32).reshape(2, 3) / 10).astype(np.float32)
            rec.add_value("tensor", "weights", Tensor(w))
            exp["tensors"].setdefault("weights", []).append(
                {"step": step, "dtype": "float32", "shape": [2, 3], "values": [float(x) for x in w.ravel()]})
            c = np.array([step, -step, step * step, 7], np.int32)
            rec.add_value("tensor", "counts", Tensor(c))
            exp["tensors"].setdefault("counts", []).append(
                {"step": step, "dtype": "int32", "shape": [4], "values": [int(x) for x in c]})
            if step % 2 == 0:
                d = np.array([step / 3, -0.5, 1e300], np.float64)
                rec.add_value("tensor", "doubles", Tensor(d))
                exp["tensors"].setdefault("doubles", []).append(
                    {"step": step, "dtype": "float64", "shape": [3], "values": [float(x) for x in d]})

            a = rng.normal(step / 5, 1.0, 200).astype(np.float32)
            if step >= 5:
                a = np.concatenate([a, np.array([np.nan, np.inf, -np.inf, np.inf], np.float32)])
            rec.add_value("histogram", "activations", Tensor(a))
            fin = a[np.isfinite(a)]
            exp["histograms"].setdefault("activations", []).append({
                "step": step, "count": int(a.size), "finite": int(fin.size),
                "min": float(fin.min()), "max": float(fin.max()), "sum": float(fin.astype(np.float64).sum()),
                "nan": int(np.isnan(a).sum()), "pos_inf": int(np.isposinf(a).sum()), "neg_inf": int(np.isneginf(a).sum())})
            rec.record(step)
    expected["records"] = exp


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(4, 8)
        self.relu = nn.ReLU()
        self.fc2 = nn.Dense(8, 2)
        self.scalar_summary = ops.ScalarSummary()
        self.histogram_summary = ops.HistogramSummary()
        self.mean = ops.ReduceMean()

    def construct(self, x):
        h = self.relu(self.fc1(x))
        self.histogram_summary("hidden", h)
        self.scalar_summary("mean", self.mean(h))
        return self.fc2(h)


def dataset(seed, n=64):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4)).astype(np.float32)
    y = (x[:, 0] + x[:, 1] > 0).astype(np.int32)
    return ds.NumpySlicesDataset({"data": x, "label": y}, shuffle=False).batch(8)


def write_train(out, expected):
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")  # the graph is only collected in graph mode
    ms.set_seed(1)
    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    model = Model(net, loss_fn=loss, optimizer=opt, metrics={"accuracy": nn.Accuracy(), "loss": nn.Loss()})
    collector = SummaryCollector(out, collect_freq=4, keep_default_action=True,
                                 collect_specified_data={"collect_graph": True, "collect_train_lineage": True,
                                                         "collect_eval_lineage": True,
                                                         "histogram_regular": "^fc"},
                                 custom_lineage_data={"note": "fixture", "seed": 1})
    model.train(2, dataset(1), callbacks=[collector], dataset_sink_mode=False)
    metrics = model.eval(dataset(2), callbacks=[collector], dataset_sink_mode=False)
    print("eval metrics", metrics)
    # Checkpoints the collector leaves for the lineage's model size: not
    # summaries, and not test data.
    shutil.rmtree(os.path.join(out, "ckpt_dir"), ignore_errors=True)
    expected["train"] = read_back(out)
    expected["train"]["eval_metrics"] = {k: float(v) for k, v in metrics.items()}


def frames(path):
    """The records of a file, by its framing (CRCs not checked here: the Go
    reader checks them)."""
    with open(path, "rb") as f:
        b = f.read()
    i = 0
    while i + 12 <= len(b):
        (n,) = struct.unpack_from("<Q", b, i)
        yield b[i + 12:i + 12 + n]
        i += 12 + n + 4


def read_back(out):
    """What MindSpore's own protobuf classes read from the files of out."""
    got = {"tags": {}, "scalars": {}, "graph_nodes": None, "lineage": {}}
    for p in sorted(glob.glob(os.path.join(out, "**", "*.summary.*"), recursive=True)):
        if p.endswith("_lineage"):
            for rec in frames(p):
                ev = lineage_pb2.LineageEvent.FromString(rec)
                which = ev.WhichOneof("what")
                if which == "train_lineage":
                    h = ev.train_lineage.hyper_parameters
                    got["lineage"]["train"] = {
                        "optimizer": h.optimizer, "learning_rate": h.learning_rate, "loss_function": h.loss_function,
                        "epoch": h.epoch, "batch_size": h.batch_size, "device_num": h.device_num,
                        "parallel_mode": h.parallel_mode,
                        "train_dataset_path": ev.train_lineage.train_dataset.train_dataset_path,
                        "train_dataset_size": ev.train_lineage.train_dataset.train_dataset_size,
                        "network": ev.train_lineage.algorithm.network, "loss": ev.train_lineage.algorithm.loss,
                        "model_size": ev.train_lineage.model.size}
                elif which == "evaluation_lineage":
                    got["lineage"]["eval"] = {"metric": json.loads(ev.evaluation_lineage.metric),
                                              "valid_dataset_size": ev.evaluation_lineage.valid_dataset.valid_dataset_size}
                elif which == "user_defined_info":
                    u = ev.user_defined_info
                    got["lineage"].setdefault("user", {})
                    for info in u.user_info:
                        for m in (info.map_str, info.map_int32, info.map_double):
                            got["lineage"]["user"].update(m.items())
            continue
        for rec in frames(p):
            ev = summary_pb2.Event.FromString(rec)
            which = ev.WhichOneof("what")
            if which == "graph_def":
                got["graph_nodes"] = len(ev.graph_def.node)
            elif which == "summary":
                for v in ev.summary.value:
                    kind = v.WhichOneof("value")
                    got["tags"].setdefault(v.tag, {"kind": kind, "steps": []})["steps"].append(ev.step)
                    if kind == "scalar_value":
                        got["scalars"].setdefault(v.tag, []).append([ev.step, v.scalar_value])
    return got


def main():
    expected = {"mindspore": ms.__version__}
    for name, fn in (("records", write_records), ("train", write_train)):
        out = os.path.join(HERE, name)
        shutil.rmtree(out, ignore_errors=True)
        fn(out, expected)
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
