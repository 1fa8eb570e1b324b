#!/usr/bin/env python3
"""Dump what MindInsight's own loaders read from this directory, as the
oracle of TestAgreesWithMindInsight (collect/mindspore_test.go).

MindInsight is the viewer MindSpore's summaries are written for; its loader
(mindinsight.datavisual.data_transform.ms_data_loader.MSDataLoader) and its
lineage manager (mindinsight.lineagemgr.model.get_flattened_lineage) read
records/ and train/ here, and this script writes what they read to
mindinsight.json: per run and tag (MindInsight's tag, "<tag>/<plugin>"),
the step and value of every scalar, each histogram's buckets as written
("original", sorted by left edge) and as MindInsight's view re-bins them
onto one grid per tag ("view"), its count, min and max, each tensor's dimensions and values, each image's size, the graph's
node count, and the flattened lineage table.

How to run (by hand; MindInsight pins protobuf 3.20, which MindSpore 2.10
refuses, so it gets a venv of its own)::

    python3.11 -m venv .cache/mivenv
    .cache/mivenv/bin/pip install mindinsight==2.3.1
    cd collect/testdata/mindspore
    ../../../.cache/mivenv/bin/python dump_mindinsight.py

Last run with mindinsight 2.3.1, numpy 2.4.6, protobuf 3.20.1 (CPython
3.11.7, Linux x86_64).
"""

import json
import math
import os

from mindinsight.datavisual.data_transform.ms_data_loader import MSDataLoader
from mindinsight.lineagemgr.model import get_flattened_lineage

HERE = os.path.dirname(os.path.abspath(__file__))


def num(x):
    """x for JSON: NaN and infinities as strings."""
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        return str(x)
    return x


def dump_run(run):
    loader = MSDataLoader(os.path.join(HERE, run))
    loader.load()
    data = loader.get_events_data()
    out = {}
    for plugin, tags in sorted(data._tags_by_plugin.items()):
        for tag in sorted(tags):
            items = []
            for t in data.tensors(tag):
                v = t.value
                if plugin == "scalar":
                    items.append({"step": t.step, "value": num(v)})
                elif plugin == "histogram":
                    items.append({"step": t.step, "count": v.count, "min": num(v.min), "max": num(v.max),
                                  "original": [[num(b.left), num(b.width), b.count]
                                               for b in v.histogram._original_buckets],
                                  "view": [[num(l), num(w), c] for l, w, c in v.buckets()]})
                elif plugin == "tensor":
                    items.append({"step": t.step, "dims": list(v.dims),
                                  "values": [num(x) for x in v.get_ndarray(t.value.tensor_value).ravel()]
                                  if hasattr(v, "tensor_value") else None})
                elif plugin == "image":
                    items.append({"step": t.step, "width": v.width, "height": v.height})
                elif plugin == "graph":
                    items.append({"step": t.step, "leaf_nodes": len(v._leaf_nodes)})
            if items:
                out.setdefault(plugin, {})[tag] = items
    return out


def main():
    result = {run: dump_run(run) for run in ("records", "train")}
    table = get_flattened_lineage(summary_base_dir=HERE)
    result["lineage"] = {k: [num(x) if isinstance(x, float) else x for x in v] for k, v in table.items()}
    with open(os.path.join(HERE, "mindinsight.json"), "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
