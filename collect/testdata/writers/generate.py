#!/usr/bin/env python3
"""Write one small TensorBoard log directory per real writer, as test data.

The event files under this directory are produced by the writers themselves
(tensorboardX, TensorFlow 2 ``tf.summary``, Keras' TensorBoard callback and
``torch.utils.tensorboard``), not by our own code, so the Go tests in
``collect`` can check that we read what those writers really put on disk.
The output is committed: ``go test`` needs no Python.

How to run (by hand; nothing in the build or CI runs this)::

    python3 -m venv /tmp/writers-venv
    /tmp/writers-venv/bin/pip install tensorflow-cpu==2.21.0 tensorboard==2.21.0 \
        tensorboardX==2.6.5 torch==2.15.0 pillow soundfile
    cd collect/testdata/writers
    /tmp/writers-venv/bin/python generate.py            # all writers
    /tmp/writers-venv/bin/python generate.py tf2 keras  # only some
    /tmp/writers-venv/bin/python expected.py            # EXPECTED.md, expected.json

Each writer runs in its own child process (TensorFlow, Keras and torch keep
global state). A writer whose package does not import is skipped with a
message; the directories of the others are rewritten from scratch.

Last run with (CPython 3.11.7, Linux x86_64):
    tensorflow-cpu 2.21.0, keras 3.15.1, tensorboard 2.21.0,
    tensorboardX 2.6.5, torch 2.15.0 (PyPI wheel, CUDA build, run on CPU),
    numpy 2.4.6, pillow 13.0.0, protobuf 7.36.2.
    moviepy is not installed, so there is no add_video GIF.

Notes: tensorflow-cpu 2.21 no longer depends on tensorboard, and its
tf.summary ops raise without it: install tensorboard too. The torch wheel
from PyPI is the CUDA build (about 2.8 GB of downloads with its nvidia-*
dependencies); it runs on the CPU.

Determinism: every value comes from fixed seeds and formulas, so the data is
the same on every run; wall times, file names (timestamp, host name, pid),
the hparams sub-run names of tensorboardX/torch (the unix time) and the
session start times are not, since the writers take them from the clock.

What each log directory holds (EXPECTED.md lists every run and tag with its
count, as read back by TensorBoard's own EventMultiplexer):

tensorboardx/   tensorboardX.SummaryWriter
    .               scalars train/loss, train/acc (steps 0-14, then a second
                    SummaryWriter on the same directory, as after a restart from
                    a checkpoint, rewrites steps 10-19 into a second event file);
                    eval/metric with display_name and summary_description;
                    band/{mid,low,high} (for the margin chart); histograms
                    (bins='tensorflow' and bins='auto', add_histogram_raw);
                    images (add_image CHW, add_image HW grey, add_images of a
                    batch of 3 -> one grid image, add_image_with_boxes);
                    audio (0.5 s 440 Hz sine at 16 kHz); text (Markdown table
                    and fenced code; hostile text with <script>, a javascript:
                    link and an onerror attribute); add_pr_curve,
                    add_pr_curve_raw; add_mesh; add_custom_scalars (one
                    multiline and one margin chart); add_graph of a tiny torch
                    module (GraphDef + RunMetadata); add_embedding (20 points x
                    5 dims, 2 metadata columns with a header, 8x8 sprite):
                    projector_config.pbtxt and 00000/points/.
    lr/base, lr/warm    add_scalars('lr', ...): one sub-run per key.
    <unix time>/    add_hparams: experiment, session start/end, metric scalar.
    (No JPEG: tensorboardX always encodes PNG. No video: needs moviepy.
    tensorboardX pads its sprite to a square with np.ndarray, so the bottom
    rows of 00000/points/sprite.png hold uninitialised memory and change from
    run to run.)

tf2/            tensorflow 2 tf.summary in a custom loop
    train           scalar, histogram (default 30 buckets, buckets=5, a
                    constant tensor, an empty tensor), image (batch of 3,
                    max_outputs=3; one grey image), audio (batch of 2 clips),
                    text (rank 0, 1 and 2 string tensors, Markdown, hostile
                    text), PR curves (pr_curve.summary.pb and raw_data_pb,
                    written with tf.summary.experimental.write_raw_pb), custom
                    scalars layout (custom_scalar.summary.pb, write_raw_pb),
                    mesh (mesh.summary_v2), a plain tensor via tf.summary.write
                    with no plugin.
    trace           tf.summary.trace_on/trace_export of a tf.function
                    (graph_run_metadata_graph) and tf.summary.graph (GraphDef).
    hparam_tuning   hparams_config (RealInterval, Discrete int, Discrete bool,
                    Discrete string; one metric); run-0..run-2 below it each
                    hold hp.hparams and the metric scalar.
    projector       projector_config.pbtxt with two embeddings: "points"
                    from tensor_path tensors.tsv (20 x 5) with metadata.tsv (2
                    columns, header row) and sprite.png (8x8 thumbnails), and
                    "embedding/.ATTRIBUTES/VARIABLE_VALUE" from a TF2
                    checkpoint (embedding.ckpt-1.*), same metadata.

keras/          tf.keras (Keras 3) model.fit with callbacks.TensorBoard(
                histogram_freq=1, write_images=True, write_graph=True,
                update_freq='epoch'); 3 epochs on 64 random samples
    train           epoch scalars, weight histograms and weight images, the
                    Keras model config (graph_keras_model). No train-function
                    GraphDef: Keras 3 does not write it (its docstring says
                    write_graph is "not supported at this time").
    validation      epoch scalars and evaluation_*_vs_iterations.

keras_nested/   tf.keras (Keras 3) model.fit with callbacks.TensorBoard(
                write_graph=True, update_freq='epoch'), 1 epoch, of a
                Functional model "nested" whose layers include a Sequential
                sub-model ("encoder") and a Functional sub-model ("head")
                that itself holds a Sequential ("inner"), joined by an Add
                (a residual): the graphs page's nested scopes.
    train           epoch scalars and the Keras model config
                    (graph_keras_model).
    validation      epoch scalars.

torch/          torch.utils.tensorboard.SummaryWriter
    .               add_scalar default (simple_value), new_style=True (float
                    tensor) and new_style + double_precision (DT_DOUBLE);
                    add_histogram; add_image; add_text; add_graph of a tiny
                    nn.Module; add_pr_curve; add_embedding (as tensorboardX).
    <unix time>/    add_hparams with hparam_domain_discrete.
"""

import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WRITERS = ["tensorboardx", "tf2", "keras", "keras_nested", "torch"]

# ---------------------------------------------------------------- shared data


def rng(seed=0):
    import numpy as np

    return np.random.default_rng(seed)


def loss_at(step):
    return round(2.0 * math.exp(-step / 8.0) + 0.05 * math.sin(step), 6)


def acc_at(step):
    return round(1.0 - 0.9 * math.exp(-step / 6.0), 6)


def pattern(h, w, c, k):
    """A uint8 HxWxC image: gradients and a moving square, k = variant."""
    import numpy as np

    y, x = np.mgrid[0:h, 0:w]
    img = np.zeros((h, w, c), dtype=np.uint8)
    img[..., 0] = (x * 255 // max(w - 1, 1)).astype(np.uint8)
    if c > 1:
        img[..., 1] = (y * 255 // max(h - 1, 1)).astype(np.uint8)
    if c > 2:
        img[..., 2] = (40 * k) % 256
    s = k % (w - 4)
    img[2:6, s : s + 4, :] = 255
    return img


def sine(seconds=0.5, rate=16000, freq=440.0, amp=0.5):
    import numpy as np

    t = np.arange(int(seconds * rate), dtype=np.float64) / rate
    return (amp * np.sin(2 * math.pi * freq * t)).astype(np.float32)


def embedding_points():
    """20 points x 5 dims in 4 clusters, 2 metadata columns, 20 8x8 thumbnails (NCHW, float 0..1)."""
    import numpy as np

    r = rng(7)
    centers = r.normal(0, 3, size=(4, 5))
    labels = [i % 4 for i in range(20)]
    mat = np.stack([centers[l] + r.normal(0, 0.3, size=5) for l in labels]).astype(np.float32)
    meta = [[f"p{i:02d}", f"cluster{labels[i]}"] for i in range(20)]
    imgs = np.zeros((20, 3, 8, 8), dtype=np.float32)
    colors = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)]
    for i, l in enumerate(labels):
        for ch in range(3):
            imgs[i, ch] = colors[l][ch] * (0.3 + 0.7 * (i + 1) / 20)
        imgs[i, :, 3:5, 3:5] = 1.0
    return mat, meta, imgs


MD_TABLE = """### Results

| model | acc | loss |
|---|---:|---:|
| small | 0.91 | 0.23 |
| **large** | 0.95 | 0.12 |

```python
def double(x):
    return x * 2  # <b>not bold</b> & not a tag
```

- item with `code`
- item with [a link](https://example.com/)
"""

HOSTILE = (
    "Hostile text: <script>alert(1)</script> then "
    "[click me](javascript:alert(2)) and <img src=x onerror=alert(3)> "
    "and <a href=\"javascript:alert(4)\">raw link</a>."
)

# ---------------------------------------------------------------- tensorboardX


def gen_tensorboardx(out):
    import numpy as np
    from tensorboardX import SummaryWriter

    r = rng(1)
    d = str(out)

    # First session: steps 0..14 of the training scalars, everything else.
    w = SummaryWriter(logdir=d)
    for s in range(15):
        w.add_scalar("train/loss", loss_at(s), s)
        w.add_scalar("train/acc", acc_at(s), s)
    for s in range(20):
        w.add_scalars("lr", {"base": 0.1 * 0.9**s, "warm": 0.1 * min(1.0, (s + 1) / 5)}, s)
        mid = loss_at(s)
        w.add_scalar("band/mid", mid, s)
        w.add_scalar("band/low", mid - 0.1, s)
        w.add_scalar("band/high", mid + 0.1, s)
    for s in range(0, 20, 4):
        w.add_scalar("eval/metric", acc_at(s) - 0.05, s, display_name="Eval metric",
                     summary_description="Accuracy on the **held-out** set.")

    for s in range(5):
        w.add_histogram("weights/w1", r.normal(s * 0.2, 1.0, size=500), s)
        w.add_histogram("weights/w2_auto", r.uniform(-1 - s * 0.1, 1 + s * 0.1, size=200), s, bins="auto")
    w.add_histogram_raw("weights/raw", min=-1.0, max=3.0, num=10, sum=7.0, sum_squares=19.0,
                        bucket_limits=[0.0, 1.0, 2.0, 3.0], bucket_counts=[2, 3, 4, 1], global_step=0)

    for s in range(5):
        w.add_image("images/single", pattern(16, 16, 3, s).transpose(2, 0, 1), s)  # CHW uint8
        batch = np.stack([pattern(16, 16, 3, s + k).transpose(2, 0, 1) for k in range(3)])
        w.add_images("images/batch", batch.astype(np.float32) / 255.0, s)  # NCHW float -> grid
    w.add_image("images/gray", pattern(16, 16, 1, 3)[..., 0], 0, dataformats="HW")
    w.add_image_with_boxes("images/boxes", pattern(16, 16, 3, 1).transpose(2, 0, 1), np.array([[2, 2, 10, 10]]),
                           0, labels=["box"])

    for s in range(2):
        w.add_audio("audio/sine", sine(freq=440.0 * (s + 1)), s, sample_rate=16000)

    for s in range(2):
        w.add_text("text/markdown", MD_TABLE.replace("0.91", f"0.9{s}"), s)
    w.add_text("text/hostile", HOSTILE, 0)

    labels = (r.uniform(size=50) > 0.5).astype(np.int64)
    for s in range(5):
        preds = np.clip(labels * (0.3 + 0.1 * s) + r.uniform(0, 0.7 - 0.1 * s, size=50), 0, 1)
        w.add_pr_curve("pr/curve", labels, preds, s)
    tp = np.array([50, 40, 30, 10, 0], dtype=np.float64)
    fp = np.array([50, 20, 10, 5, 0], dtype=np.float64)
    tn = 50 - fp
    fn = 50 - tp
    prec = tp / np.maximum(tp + fp, 1)
    rec = tp / np.maximum(tp + fn, 1)
    w.add_pr_curve_raw("pr/raw", tp, fp, tn, fn, prec, rec, 0, num_thresholds=5)

    verts = np.array([[[1, 1, 1], [-1, -1, 1], [-1, 1, -1], [1, -1, -1]]], dtype=np.float32)
    faces = np.array([[[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]]], dtype=np.int32)
    colors = np.array([[[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0]]], dtype=np.uint8)
    for s in range(2):
        w.add_mesh("mesh/tetra", verts * (1 + 0.5 * s), colors=colors, faces=faces, global_step=s)

    w.add_custom_scalars({
        "Training": {
            "loss and acc": ["Multiline", [r"train/loss", r"train/acc"]],
            "loss band": ["Margin", ["band/mid", "band/low", "band/high"]],
        },
    })

    w.add_hparams({"lr": 0.01, "batch_size": 32, "optimizer": "adam", "nesterov": True},
                  {"hparam/accuracy": 0.93})

    mat, meta, imgs = embedding_points()
    w.add_embedding(mat, metadata=meta, label_img=imgs, global_step=0, tag="points",
                    metadata_header=["name", "cluster"])

    try:
        import torch

        torch.manual_seed(0)
        w.add_graph(_tiny_torch_module(), torch.zeros(1, 4))
    except ImportError as e:
        print(f"tensorboardx: no add_graph ({e})")
    w.close()

    # Second session after a "crash": resume from the checkpoint at step 10.
    time.sleep(1.5)  # tensorboardX names files by the second; a new second -> a new file
    w = SummaryWriter(logdir=d)
    for s in range(10, 20):
        w.add_scalar("train/loss", loss_at(s) + 0.01, s)
        w.add_scalar("train/acc", acc_at(s) - 0.01, s)
    w.close()


def _tiny_torch_module():
    import torch.nn as nn

    class Tiny(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(4, 8)
            self.act = nn.ReLU()
            self.fc2 = nn.Linear(8, 2)

        def forward(self, x):
            return self.fc2(self.act(self.fc1(x)))

    return Tiny()


# ---------------------------------------------------------------- TF2


def gen_tf2(out):
    import numpy as np
    import tensorflow as tf
    from tensorboard.plugins import projector
    from tensorboard.plugins.custom_scalar import layout_pb2
    from tensorboard.plugins.custom_scalar import summary as cs_summary
    from tensorboard.plugins.hparams import api as hp
    from tensorboard.plugins.mesh import summary_v2 as mesh_summary
    from tensorboard.plugins.pr_curve import summary as pr_summary

    tf.random.set_seed(0)
    r = rng(2)

    # ---- train: every kind written by tf.summary in a custom loop
    w = tf.summary.create_file_writer(str(out / "train"))
    labels = r.uniform(size=50) > 0.5
    with w.as_default():
        layout = layout_pb2.Layout(category=[
            layout_pb2.Category(title="Training", chart=[
                layout_pb2.Chart(title="losses", multiline=layout_pb2.MultilineChartContent(
                    tag=[r"loss", r"acc.*"])),
                layout_pb2.Chart(title="loss band", margin=layout_pb2.MarginChartContent(series=[
                    layout_pb2.MarginChartContent.Series(value="band/mid", lower="band/low", upper="band/high")])),
            ]),
        ])
        tf.summary.experimental.write_raw_pb(cs_summary.pb(layout).SerializeToString(), step=0)
        for s in range(20):
            tf.summary.scalar("loss", loss_at(s), step=s)
            tf.summary.scalar("accuracy", acc_at(s), step=s)
            tf.summary.scalar("band/mid", loss_at(s), step=s)
            tf.summary.scalar("band/low", loss_at(s) - 0.1, step=s)
            tf.summary.scalar("band/high", loss_at(s) + 0.1, step=s)
        for s in range(5):
            tf.summary.histogram("weights/dense", r.normal(s * 0.2, 1.0, size=500).astype(np.float32), step=s)
            tf.summary.histogram("weights/buckets5", r.uniform(-1, 1, size=100), step=s, buckets=5)
            batch = np.stack([pattern(16, 16, 3, s + k) for k in range(3)])
            tf.summary.image("images/batch", batch, step=s, max_outputs=3)
        tf.summary.histogram("weights/constant", np.full(10, 0.5, dtype=np.float32), step=0)
        tf.summary.histogram("weights/empty", np.zeros(0, dtype=np.float32), step=0)
        tf.summary.image("images/gray", pattern(16, 16, 1, 2)[None].astype(np.float32) / 255.0, step=0)
        for s in range(2):
            clips = np.stack([sine(freq=330.0 * (s + 1)), sine(freq=550.0 * (s + 1))])[..., None]
            tf.summary.audio("audio/sine", clips, sample_rate=16000, step=s, max_outputs=2)
        for s in range(2):
            tf.summary.text("text/rank0", tf.constant(MD_TABLE), step=s)
        tf.summary.text("text/rank1", tf.constant(["first **paragraph**", "second `paragraph`", HOSTILE]), step=0)
        tf.summary.text("text/rank2", tf.constant([["metric", "value"], ["**acc**", "0.93"],
                                                   ["xss", "<script>alert(1)</script>"]]), step=0)
        tf.summary.text("text/hostile", tf.constant(HOSTILE), step=0)
        for s in range(5):
            preds = np.clip(labels * (0.3 + 0.1 * s) + r.uniform(0, 0.7 - 0.1 * s, size=50), 0, 1).astype(np.float32)
            pb = pr_summary.pb("pr/curve", labels=labels, predictions=preds, num_thresholds=11)
            tf.summary.experimental.write_raw_pb(pb.SerializeToString(), step=s)
        tp = np.array([50, 40, 30, 10, 0], dtype=np.float32)
        fp = np.array([50, 20, 10, 5, 0], dtype=np.float32)
        pb = pr_summary.raw_data_pb("pr/raw", tp, fp, 50 - fp, 50 - tp, tp / np.maximum(tp + fp, 1),
                                    tp / 50.0, num_thresholds=5)
        tf.summary.experimental.write_raw_pb(pb.SerializeToString(), step=0)
        verts = np.array([[[1, 1, 1], [-1, -1, 1], [-1, 1, -1], [1, -1, -1]]], dtype=np.float32)
        faces = np.array([[[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]]], dtype=np.int32)
        colors = np.array([[[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0]]], dtype=np.uint8)
        for s in range(2):
            mesh_summary.mesh("mesh/tetra", vertices=verts * (1 + 0.5 * s), faces=faces, colors=colors, step=s)
        tf.summary.write("raw/matrix", tf.constant([[1, 2, 3], [4, 5, 6]], dtype=tf.int32), step=0)
    w.close()

    # ---- trace: a traced tf.function graph, and a plain GraphDef
    @tf.function
    def affine(x, wt, b):
        return tf.nn.relu(tf.matmul(x, wt) + b)

    w = tf.summary.create_file_writer(str(out / "trace"))
    tf.summary.trace_on(graph=True, profiler=False)
    affine(tf.ones([2, 3]), tf.ones([3, 4]), tf.zeros([4]))
    with w.as_default():
        tf.summary.trace_export(name="affine_trace", step=0)
        g = affine.get_concrete_function(tf.TensorSpec([None, 3]), tf.TensorSpec([3, 4]),
                                         tf.TensorSpec([4])).graph
        tf.summary.graph(g)
    w.close()

    # ---- hparams: experiment config + 3 sessions
    hp_lr = hp.HParam("learning_rate", hp.RealInterval(1e-4, 1e-1))
    hp_units = hp.HParam("units", hp.Discrete([8, 16]))
    hp_bn = hp.HParam("batch_norm", hp.Discrete([False, True]))
    hp_opt = hp.HParam("optimizer", hp.Discrete(["adam", "sgd"]))
    base = out / "hparam_tuning"
    with tf.summary.create_file_writer(str(base)).as_default():
        hp.hparams_config(hparams=[hp_lr, hp_units, hp_bn, hp_opt],
                          metrics=[hp.Metric("accuracy", display_name="Accuracy")])
    trials = [(0.001, 8, False, "adam"), (0.01, 16, True, "sgd"), (0.05, 16, False, "adam")]
    for i, (lr, units, bn, opt) in enumerate(trials):
        with tf.summary.create_file_writer(str(base / f"run-{i}")).as_default():
            hp.hparams({hp_lr: lr, hp_units: units, hp_bn: bn, hp_opt: opt}, trial_id=f"run-{i}")
            for s in range(5):
                tf.summary.scalar("accuracy", acc_at(s) * (0.9 + 0.03 * i), step=s)

    # ---- projector: tensor_path TSV + checkpoint, metadata with header, sprite
    pdir = out / "projector"
    pdir.mkdir(parents=True)
    mat, meta, imgs = embedding_points()
    with open(pdir / "tensors.tsv", "w") as f:
        for row in mat:
            f.write("\t".join(f"{v:.6g}" for v in row) + "\n")
    with open(pdir / "metadata.tsv", "w") as f:
        f.write("name\tcluster\n")
        for row in meta:
            f.write("\t".join(row) + "\n")
    _write_sprite(imgs, pdir / "sprite.png")
    emb_var = tf.Variable(mat, name="embedding")
    tf.train.Checkpoint(embedding=emb_var).save(str(pdir / "embedding.ckpt"))
    config = projector.ProjectorConfig()
    e = config.embeddings.add()
    e.tensor_name = "points"
    e.tensor_path = "tensors.tsv"
    e.tensor_shape.extend(list(mat.shape))
    e.metadata_path = "metadata.tsv"
    e.sprite.image_path = "sprite.png"
    e.sprite.single_image_dim.extend([8, 8])
    e = config.embeddings.add()
    e.tensor_name = "embedding/.ATTRIBUTES/VARIABLE_VALUE"
    e.metadata_path = "metadata.tsv"
    e.sprite.image_path = "sprite.png"
    e.sprite.single_image_dim.extend([8, 8])
    projector.visualize_embeddings(str(pdir), config)


def _write_sprite(imgs, path):
    """Sprite like TensorBoard's tutorials: a square grid, row-major, NCHW floats in 0..1."""
    import numpy as np
    from PIL import Image

    n, c, h, w = imgs.shape
    k = int(math.ceil(math.sqrt(n)))
    grid = np.zeros((k * h, k * w, 3), dtype=np.uint8)
    for i in range(n):
        y, x = divmod(i, k)
        grid[y * h:(y + 1) * h, x * w:(x + 1) * w] = (imgs[i].transpose(1, 2, 0) * 255).astype(np.uint8)
    Image.fromarray(grid).save(path)


# ---------------------------------------------------------------- Keras


def gen_keras(out):
    import numpy as np
    import tensorflow as tf

    tf.keras.utils.set_random_seed(0)
    tf.config.experimental.enable_op_determinism()
    r = rng(3)
    x = r.normal(size=(64, 4)).astype(np.float32)
    y = (x.sum(axis=1) > 0).astype(np.float32)
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(4,)),
        tf.keras.layers.Dense(8, activation="relu", name="hidden"),
        tf.keras.layers.Dense(1, activation="sigmoid", name="out"),
    ], name="tiny")
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    cb = tf.keras.callbacks.TensorBoard(log_dir=str(out), histogram_freq=1, write_images=True,
                                        write_graph=True, update_freq="epoch")
    model.fit(x, y, epochs=3, batch_size=16, validation_split=0.25, callbacks=[cb], verbose=0, shuffle=False)


def gen_keras_nested(out):
    import numpy as np
    import tensorflow as tf

    keras = tf.keras
    layers = keras.layers
    tf.keras.utils.set_random_seed(0)
    r = rng(5)
    x = r.normal(size=(32, 4)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.float32)
    inp = keras.Input(shape=(4,), name="features")
    encoder = keras.Sequential([
        keras.Input(shape=(4,)),
        layers.Dense(8, activation="relu", name="enc_dense"),
        layers.Dense(4, name="enc_out"),
    ], name="encoder")
    head_in = keras.Input(shape=(4,), name="head_in")
    h = layers.Dense(4, activation="relu", name="head_dense")(head_in)
    inner = keras.Sequential([keras.Input(shape=(4,)), layers.Dense(2, name="inner_dense")], name="inner")
    head = keras.Model(head_in, layers.Dense(1, activation="sigmoid", name="head_out")(inner(h)), name="head")
    z = layers.Add(name="residual")([encoder(inp), inp])
    model = keras.Model(inp, head(z), name="nested")
    model.compile(optimizer="adam", loss="binary_crossentropy")
    cb = tf.keras.callbacks.TensorBoard(log_dir=str(out), histogram_freq=0, write_graph=True, update_freq="epoch")
    model.fit(x, y, epochs=1, batch_size=16, validation_split=0.25, callbacks=[cb], verbose=0, shuffle=False)


# ---------------------------------------------------------------- torch


def gen_torch(out):
    import numpy as np
    import torch
    from torch.utils.tensorboard import SummaryWriter

    torch.manual_seed(0)
    r = rng(4)
    w = SummaryWriter(log_dir=str(out))
    for s in range(20):
        w.add_scalar("train/loss", loss_at(s), s)
        w.add_scalar("train/loss_new_style", loss_at(s), s, new_style=True)
        w.add_scalar("train/loss_double", loss_at(s), s, new_style=True, double_precision=True)
    for s in range(5):
        w.add_histogram("weights/fc1", torch.randn(500) * (1 + 0.1 * s) + 0.2 * s, s)
        w.add_image("images/sample", torch.from_numpy(pattern(16, 16, 3, s).transpose(2, 0, 1).copy()), s)
    for s in range(2):
        w.add_text("text/markdown", MD_TABLE, s)
    w.add_text("text/hostile", HOSTILE, 0)
    labels = torch.from_numpy((r.uniform(size=50) > 0.5).astype(np.int64))
    for s in range(3):
        preds = torch.clamp(labels * (0.3 + 0.1 * s) + torch.rand(50) * (0.7 - 0.1 * s), 0, 1)
        w.add_pr_curve("pr/curve", labels, preds, s, num_thresholds=21)
    w.add_graph(_tiny_torch_module(), torch.zeros(1, 4))
    mat, meta, imgs = embedding_points()
    w.add_embedding(torch.from_numpy(mat), metadata=meta, label_img=torch.from_numpy(imgs), global_step=0,
                    tag="points", metadata_header=["name", "cluster"])
    w.add_hparams({"lr": 0.01, "batch_size": 32, "optimizer": "adam", "batch_norm": True},
                  {"hparam/accuracy": 0.91, "hparam/loss": 0.2},
                  hparam_domain_discrete={"optimizer": ["adam", "sgd"], "batch_size": [16, 32]})
    w.close()


# ---------------------------------------------------------------- driver

GENERATORS = {"tensorboardx": gen_tensorboardx, "tf2": gen_tf2, "keras": gen_keras, "keras_nested": gen_keras_nested,
              "torch": gen_torch}


def run_one(name):
    out = HERE / name
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    GENERATORS[name](out)


def main(argv):
    if len(argv) == 3 and argv[1] == "--child":
        run_one(argv[2])
        return 0
    names = argv[1:] or WRITERS
    bad = [n for n in names if n not in GENERATORS]
    if bad:
        print(f"unknown writer(s) {bad}; known: {WRITERS}", file=sys.stderr)
        return 2
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2", CUDA_VISIBLE_DEVICES="", PYTHONHASHSEED="0")
    failed = []
    for n in names:
        print(f"== {n}", flush=True)
        rc = subprocess.call([sys.executable, __file__, "--child", n], env=env)
        if rc != 0:
            print(f"== {n}: FAILED (exit {rc}); its directory may be partial", flush=True)
            failed.append(n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
