#!/usr/bin/env python3
"""Dumps the hparams sessions TensorBoard's own hparams plugin sees in corpus
directories: per session (run), its hyperparameters, status and metric values.

Run by hand (pip install tensorboard==2.21.0), from this directory:

    python3 dump_sessions.py ../../../../shared/corpus > corpus_sessions.json

The output is committed, so `go test` compares our metric join with
TensorBoard's without needing Python. The entries are the corpus directories
TensorBoard reads hparams from (TS-VIS's files are not named *tfevents*, so
TensorBoard ignores them). Metric keys are "group/tag", or "tag" when the
group is empty; numbers are written with repr() so the Go side compares
exactly.
"""
import json
import math
import os
import sys

from tensorboard import context
from tensorboard.backend.event_processing import data_provider
from tensorboard.backend.event_processing import plugin_event_multiplexer
from tensorboard.plugins import base_plugin
from tensorboard.plugins.hparams import api_pb2
from tensorboard.plugins.hparams import backend_context
from tensorboard.plugins.hparams import list_session_groups

ENTRIES = [
    "lightning-hparams-only",
    "lightning-scalars-hparams",
    "lightning-tbx-sweep",
    "tf2-hparams-api-experiment",
    "tf2-hparams-keras",
]


def number(x):
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def value(v):
    kind = v.WhichOneof("kind")
    if kind == "number_value":
        return number(v.number_value)
    if kind in ("string_value", "bool_value"):
        return getattr(v, kind)
    return None


def sessions(root):
    mux = plugin_event_multiplexer.EventMultiplexer(
        size_guidance={"tensors": 0}, tensor_size_guidance={"scalars": 0})
    mux.AddRunsFromDirectory(root)
    mux.Reload()
    provider = data_provider.MultiplexerDataProvider(mux, root)
    ctx = backend_context.Context(base_plugin.TBContext(data_provider=provider, multiplexer=mux, logdir=root))
    request = api_pb2.ListSessionGroupsRequest(start_index=0, slice_size=100000, allowed_statuses=[
        api_pb2.STATUS_UNKNOWN, api_pb2.STATUS_SUCCESS, api_pb2.STATUS_FAILURE, api_pb2.STATUS_RUNNING])
    response = list_session_groups.Handler(context.RequestContext(), ctx, "", request).run()
    out = {}
    for group in response.session_groups:
        for s in group.sessions:
            metrics = {}
            for m in s.metric_values:
                key = m.name.tag if not m.name.group else m.name.group.strip("/") + "/" + m.name.tag
                metrics[key] = [number(m.value), m.training_step, m.wall_time_secs]
            out[s.name] = {
                "hparams": {k: value(v) for k, v in group.hparams.items()},
                "status": api_pb2.Status.Name(s.status),
                "metrics": metrics,
            }
    return out


def main(corpus):
    out = {entry: sessions(os.path.join(corpus, entry)) for entry in ENTRIES}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
