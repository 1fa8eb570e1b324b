"""Writes compress.json: histograms and what TensorBoard's own compressor
(tensorboard.plugins.distribution.compressor) makes of them, so that the Go
tests of Compress need no Python.

    /work/main/.cache/venv/bin/python collect/histogram/testdata/compress.py \
        /work/shared/corpus > collect/histogram/testdata/compress.json

Row cases go through compress_histogram (what the distributions plugin calls
on [left, right, count] rows); proto cases, a few real HistogramProto values
from the corpus, through compress_histogram_proto.
"""

import glob
import json
import os
import sys

from tensorboard.backend.event_processing import event_file_loader
from tensorboard.plugins.distribution import compressor
from tensorboard.util import tensor_util

HAND = [
    ("empty histogram", []),
    ("single bucket", [[0.0, 1.0, 5.0]]),
    ("single bucket of zero width", [[1.5, 1.5, 3.0]]),
    ("all mass in one bucket", [[0.0, 1.0, 0.0], [1.0, 2.0, 10.0], [2.0, 3.0, 0.0]]),
    ("all mass in the first bucket", [[-1.0, 0.0, 7.0], [0.0, 1.0, 0.0], [1.0, 2.0, 0.0]]),
    ("all mass in the last bucket", [[-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 2.0, 4.0]]),
    ("no counts at all", [[0.0, 1.0, 0.0], [1.0, 2.0, 0.0]]),
    ("negative range", [[-5.0, -3.0, 2.0], [-3.0, -1.0, 7.0], [-1.0, -0.5, 1.0]]),
    ("empty buckets inside", [[0.0, 1.0, 3.0], [1.0, 2.0, 0.0], [2.0, 3.0, 0.0], [3.0, 4.0, 3.0]]),
    ("fractional counts", [[-0.3, 0.1, 0.25], [0.1, 0.5, 1.5], [0.5, 0.9, 0.125]]),
    ("uneven widths", [[-100.0, -1.0, 1.0], [-1.0, 1.0, 50.0], [1.0, 1e6, 1.0]]),
]


def many(n):
    """n buckets of fractional counts: numpy adds them pairwise."""
    return [[i / 10.0, (i + 1) / 10.0, ((i * 7919) % 13) / 3.0] for i in range(n)]


def tensor_histograms(path, limit):
    out = []
    for ev in event_file_loader.EventFileLoader(path).Load():
        for v in ev.summary.value:
            if v.metadata.plugin_data.plugin_name == "histograms" and v.HasField("tensor"):
                rows = tensor_util.make_ndarray(v.tensor).tolist()
                out.append(("%s step %d" % (v.tag, ev.step), rows))
                if len(out) >= limit:
                    return out
    return out


def proto_histograms(path, limit):
    out = []
    for ev in event_file_loader.LegacyEventFileLoader(path).Load():
        for v in ev.summary.value:
            if v.HasField("histo"):
                out.append(("%s step %d" % (v.tag, ev.step), v.histo))
                if len(out) >= limit:
                    return out
    return out


def main(corpus):
    cases = []
    for name, rows in HAND + [("9 buckets", many(9)), ("130 buckets", many(130)), ("300 buckets", many(300))]:
        cases.append({"name": name, "rows": rows,
                      "want": [v for _, v in compressor.compress_histogram(rows)]})
    tf2 = glob.glob(os.path.join(corpus, "tf2-custom-loop-tensors/logs/*/*/events.out.tfevents.*"))[0]
    for name, rows in tensor_histograms(tf2, 4):
        cases.append({"name": "tf2-custom-loop-tensors " + name, "rows": rows,
                      "want": [v for _, v in compressor.compress_histogram(rows)]})
    keras = glob.glob(os.path.join(corpus, "keras-tf21-standard-profile/logs/*/*/train/events.out.tfevents.*.v2"))[0]
    for name, h in proto_histograms(keras, 4):
        cases.append({"name": "keras-tf21-standard-profile " + name,
                      "proto": {"min": h.min, "max": h.max, "num": h.num, "sum": h.sum,
                                "bucket_limit": list(h.bucket_limit), "bucket": list(h.bucket)},
                      "want": [v for _, v in compressor.compress_histogram_proto(h)]})
    json.dump({"basis_points": list(compressor.NORMAL_HISTOGRAM_BPS), "cases": cases}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
