#!/usr/bin/env python3
"""Prints, as JSON, everything TensorBoard's own reader sees in a log directory.

    python dump_all.py [--purge] LOGDIR

collect's TestAgreesWithTensorBoard runs this with the interpreter named by
TRAINREPORT_PYTHON (`make test` makes a virtual environment holding
tensorboard==2.21.0) and compares the output with our reader's.

TensorBoard reads LOGDIR with its EventMultiplexer, sampling disabled (size
guidance 0 keeps every value) and orphaned data not purged, so the test
compares with our reader keeping every record; with --purge, orphaned data
is purged (TensorBoard's restart rule), and the test compares with our
reader under --restarts=tensorboard. Its loader migrates v1 values
to tensors (data_compat: simple_value to a scalar tensor, HistogramProto to a
float32 [k, 3] tensor, v1 Image to a string tensor [width, height, png], v1
Audio to a string tensor [k, 2] with empty labels) and sets data classes
(dataclass_compat, which also keeps only the first column of an audio tensor
whose tag has no data class: those labels are lost, "labels" is null).

Output:

    {"logdir": LOGDIR, "runs": {RUN: {
        "graph": bool, "meta_graph": bool, "run_metadata": [TAG, ...],
        "graph_sha256": hex or null, "graph_from_meta_graph": bool,
        "plugins": {PLUGIN: {TAG: [[wall_time, step, VALUE], ...]}},
        "no_plugin": {TAG: [[wall_time, step, VALUE], ...]},
        "hparams": {...}}}}

RUN is the run's path relative to LOGDIR ("." for LOGDIR itself). PLUGIN
comes from PluginRunToTagToContent (the plugin of the tag's first metadata in
the run); "no_plugin" holds the tensors of tags that never had a plugin. VALUE
depends on the plugin:

    scalars     the float
    histograms  {"dtype": "float32"|"float64", "rows": [[left, right, count], ...]}
    images      {"width": "W", "height": "H", "sha256": [hex per image]}
    audio       {"sha256": [hex per clip], "labels": [str per clip] or null}
    text        {"shape": [...], "values": [str, ...]} (row-major)
    pr_curves   {"shape": [6, n], "rows": [[...] * 6]}
    no_plugin   {"dtype": "string", "shape": [...], "values": [str, ...]} for strings,
    and mesh    else {"dtype": numpy name, "shape": [...], "values": [float, ...]}
                (values only for numeric dtypes, row-major)
    any other   {"dtype": numpy name, "shape": [...]}, plus "sha256" of the
                first string for the graph plugins (graphs, graph_keras_model,
                graph_run_metadata, graph_run_metadata_graph and
                graph_tagged_run_metadata, which the loader makes of
                tagged_run_metadata events, so "run_metadata" stays empty)

"hparams" holds what the hparams plugin reads from the first metadata of
each of its tags in the run: {"session_start_info": {"hparams": {NAME: JSON
value}, "group_name", "model_uri", "monitor_url", "start_time_secs"},
"session_end_info": {"status": "STATUS_SUCCESS"..., "end_time_secs"},
"experiment": {"name", "hparams": [NAME, ...], "metrics": [[group, tag], ...]}}.

Floats are float64 (float32 values widened exactly) written with repr, so
they read back exact; NaN and infinities are the strings "NaN", "Infinity"
and "-Infinity". Bytes are decoded as UTF-8 with replacement.
"""
import hashlib
import json
import logging
import math
import os
import sys

from google.protobuf import json_format
from tensorboard.backend.event_processing import plugin_event_multiplexer
from tensorboard.plugins.hparams import api_pb2
from tensorboard.plugins.hparams import metadata as hparams_metadata
from tensorboard.util import tensor_util

# TensorBoard's plugins: each keeps every value (0) instead of its default
# reservoir; the "tensors" size guidance 0 covers any other.
PLUGINS = (
    "scalars", "histograms", "images", "audio", "text", "pr_curves", "hparams",
    "custom_scalars", "mesh", "graphs", "graph_keras_model", "graph_run_metadata",
    "graph_run_metadata_graph", "graph_tagged_run_metadata", "projector",
    "debugger-v2", "npmi",
)

# Plugins whose values are graphs: a string tensor whose first string is
# the payload (Keras model JSON, RunMetadata, GraphDef).
GRAPH_PLUGINS = ("graphs", "graph_keras_model", "graph_run_metadata",
                 "graph_run_metadata_graph", "graph_tagged_run_metadata")


def num(x):
    x = float(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def nums(a):
    if isinstance(a, list):
        return [nums(x) for x in a]
    return num(a)


def text(b):
    if isinstance(b, bytes):
        return b.decode("utf-8", errors="replace")
    return str(b)


def sha(b):
    return hashlib.sha256(b).hexdigest()


def dtype_name(tp):
    try:
        return tensor_util.make_ndarray(tp).dtype.name
    except Exception:  # noqa: BLE001 - a dtype numpy has no name for
        return "dtype%d" % tp.dtype


def shape_of(tp):
    return [d.size for d in tp.tensor_shape.dim]


def value_of(plugin, tp):
    if plugin == "scalars":
        return num(tensor_util.make_ndarray(tp).item())
    if plugin == "histograms":
        a = tensor_util.make_ndarray(tp)
        return {"dtype": a.dtype.name, "rows": nums(a.tolist())}
    if plugin == "images":
        s = list(tp.string_val)
        return {
            "width": text(s[0]) if len(s) > 0 else None,
            "height": text(s[1]) if len(s) > 1 else None,
            "sha256": [sha(b) for b in s[2:]],
        }
    if plugin == "audio":
        s, shape = list(tp.string_val), shape_of(tp)
        if len(shape) == 2 and shape[1] == 2:
            return {"sha256": [sha(b) for b in s[0::2]], "labels": [text(b) for b in s[1::2]]}
        return {"sha256": [sha(b) for b in s], "labels": None}
    if plugin in ("text", None):
        if plugin is None and tp.dtype != 7:  # not DT_STRING
            return numeric(tp)
        a = tensor_util.make_ndarray(tp)
        out = {"shape": list(a.shape), "values": [text(b) for b in a.reshape(-1).tolist()]}
        if plugin is None:
            out["dtype"] = "string"
        return out
    if plugin == "pr_curves":
        a = tensor_util.make_ndarray(tp)
        return {"shape": list(a.shape), "rows": nums(a.tolist())}
    if plugin == "mesh":
        return numeric(tp)
    out = {"dtype": dtype_name(tp), "shape": shape_of(tp)}
    if plugin in GRAPH_PLUGINS and tp.string_val:
        out["sha256"] = sha(tp.string_val[0])
    return out


def numeric(tp):
    """A numeric tensor's dtype, shape and values (row-major, as float64)."""
    try:
        a = tensor_util.make_ndarray(tp)
    except Exception:  # noqa: BLE001 - a dtype numpy cannot read
        return {"dtype": "dtype%d" % tp.dtype, "shape": shape_of(tp)}
    out = {"dtype": a.dtype.name, "shape": list(a.shape)}
    if a.dtype.kind in "biuf":
        out["values"] = [num(x) for x in a.reshape(-1).tolist()]
    return out


def hparams_of(tag_to_content):
    out = {}
    for tag, content in tag_to_content.items():
        try:
            if tag == hparams_metadata.SESSION_START_INFO_TAG:
                info = hparams_metadata.parse_session_start_info_plugin_data(content)
                out["session_start_info"] = {
                    "hparams": {k: json_format.MessageToDict(v) for k, v in info.hparams.items()},
                    "group_name": info.group_name,
                    "model_uri": info.model_uri,
                    "monitor_url": info.monitor_url,
                    "start_time_secs": num(info.start_time_secs),
                }
            elif tag == hparams_metadata.SESSION_END_INFO_TAG:
                info = hparams_metadata.parse_session_end_info_plugin_data(content)
                out["session_end_info"] = {
                    "status": api_pb2.Status.Name(info.status),
                    "end_time_secs": num(info.end_time_secs),
                }
            elif tag == hparams_metadata.EXPERIMENT_TAG:
                info = hparams_metadata.parse_experiment_plugin_data(content)
                out["experiment"] = {
                    "name": info.name,
                    "hparams": [h.name for h in info.hparam_infos],
                    "metrics": [[m.name.group, m.name.tag] for m in info.metric_infos],
                }
        except Exception as e:  # noqa: BLE001 - TensorBoard's plugin ignores it too
            out.setdefault("errors", []).append("%s: %s" % (tag, e))
    return out


def events(plugin, evs):
    return [[num(e.wall_time), e.step, value_of(plugin, e.tensor_proto)] for e in evs]


def main(logdir, purge=False):
    logging.disable(logging.WARNING)
    mux = plugin_event_multiplexer.EventMultiplexer(
        size_guidance={"tensors": 0, "scalars": 0, "histograms": 0, "images": 0,
                       "audio": 0, "compressedHistograms": 0},
        tensor_size_guidance={p: 0 for p in PLUGINS},
        purge_orphaned_data=purge,
    )
    mux.AddRunsFromDirectory(logdir)
    mux.Reload()
    runs = {}
    for run, tags in sorted(mux.Runs().items()):
        acc = mux.GetAccumulator(run)
        r = {
            "graph": bool(tags.get("graph")),
            "meta_graph": bool(tags.get("meta_graph")),
            "run_metadata": sorted(tags.get("run_metadata", [])),
            # The graph TensorBoard shows: the last graph_def event's bytes,
            # or else the graph_def inside the last meta_graph_def.
            "graph_sha256": sha(acc.SerializedGraph()) if acc.SerializedGraph() is not None else None,
            "graph_from_meta_graph": bool(acc._graph_from_metagraph),
            "plugins": {},
            "no_plugin": {},
        }
        claimed = set()
        for plugin in sorted(acc.ActivePlugins()):
            contents = acc.PluginTagToContent(plugin)
            out = {}
            for tag in sorted(contents):
                claimed.add(tag)
                try:
                    evs = acc.Tensors(tag)
                except KeyError:  # metadata without any tensor
                    evs = []
                out[tag] = events(plugin, evs)
            r["plugins"][plugin] = out
            if plugin == hparams_metadata.PLUGIN_NAME:
                r["hparams"] = hparams_of(contents)
        for tag in sorted(set(tags.get("tensors", [])) - claimed):
            r["no_plugin"][tag] = events(None, acc.Tensors(tag))
        runs[run] = r
    json.dump({"logdir": os.path.abspath(logdir), "runs": runs}, sys.stdout,
              separators=(",", ":"), sort_keys=True, allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    args = sys.argv[1:]
    purge = args[:1] == ["--purge"]
    if purge:
        args = args[1:]
    if len(args) != 1:
        sys.exit("usage: dump_all.py [--purge] LOGDIR")
    main(args[0], purge)
