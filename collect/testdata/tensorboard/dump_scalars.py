#!/usr/bin/env python3
"""Dumps the scalars TensorBoard's own reader sees in each corpus directory.

Run by hand (pip install tensorboard==2.21.0), from this directory:

    python3 dump_scalars.py ../../../../shared/corpus > corpus_scalars.json

The output is committed, so `go test` compares our reader with TensorBoard's
without needing Python. Sampling is disabled (size guidance 0 keeps every
value) and orphaned data is not purged: the test compares with our reader
keeping every record, since TensorBoard's purge differs from our restart rule
(for files with file_version 2 it purges only on SessionLog START, and
otherwise only on steps strictly below the run's last step). Values are
written with repr() of the float32 TensorBoard holds, as float64, so the Go
side compares exactly.
"""
import json
import math
import os
import sys

from tensorboard.backend.event_processing import plugin_event_multiplexer
from tensorboard.util import tensor_util


def value(x):
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def main(corpus):
    out = {}
    for entry in sorted(os.listdir(corpus)):
        root = os.path.join(corpus, entry)
        if not os.path.isdir(root):
            continue
        mux = plugin_event_multiplexer.EventMultiplexer(
            size_guidance={"tensors": 0}, tensor_size_guidance={"scalars": 0}, purge_orphaned_data=False)
        mux.AddRunsFromDirectory(root)
        mux.Reload()
        runs = {}
        for run in sorted(mux.Runs()):
            tags = {}
            for tag in sorted(mux.GetAccumulator(run).ActivePlugins() and mux.PluginRunToTagToContent("scalars").get(run, {})):
                tags[tag] = [
                    [e.wall_time, e.step, value(tensor_util.make_ndarray(e.tensor_proto).item())]
                    for e in mux.Tensors(run, tag)
                ]
            if tags:
                runs[run] = tags
        out[entry] = runs
    json.dump(out, sys.stdout, indent=None, separators=(",", ":"), sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
