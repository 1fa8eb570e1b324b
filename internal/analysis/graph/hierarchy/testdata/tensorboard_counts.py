"""Node and edge counts of the corpus graphs as TensorBoard's graph plugin
serves them, for hierarchy's TestAgreesWithTensorBoard.

Run from the repository root with the TensorBoard venv (make test-python):

    .cache/venv/bin/python internal/analysis/graph/hierarchy/testdata/tensorboard_counts.py \
        /work/shared/corpus > internal/analysis/graph/hierarchy/testdata/tensorboard_counts.json

For every corpus directory, every run and every graph the plugin lists
(op graph, conceptual graph, tagged run metadata), it asks the plugin for
the graph as the dashboard does (graph_impl), parses the GraphDef it
returns and counts its nodes and its edges: the inputs, data and
control, that name a node of the graph other than the node itself. It
also counts, with TensorBoard's loader and protos, the last GraphDef and
the last meta graph of each run, the ones the report keeps.
"""
import json
import os
import sys

from google.protobuf import text_format
from tensorboard import context
from tensorboard.backend.event_processing import data_provider, event_file_loader, plugin_event_multiplexer
from tensorboard.compat.proto import graph_pb2, meta_graph_pb2
from tensorboard.plugins import base_plugin
from tensorboard.plugins.graph import graphs_plugin

DIRS = [
    "keras-tf21-standard-profile",
    "keras-tf22-images",
    "tbx12-2018-no-file-version",
    "tf1-estimator-truncated",
    "tf2-custom-loop-tensors",
    "tsvis-oneflow-logs",
]


def counts(body):
    g = graph_pb2.GraphDef()
    text_format.Parse(body, g)
    names = {n.name for n in g.node}
    edges = 0
    for n in g.node:
        for i in n.input:
            src = i[1:] if i.startswith("^") else i
            src = src.split(":")[0]
            if src in names and src != n.name:
                edges += 1
    return len(g.node), edges


def main(root):
    out = []
    for d in DIRS:
        logdir = os.path.join(root, d)
        mux = plugin_event_multiplexer.EventMultiplexer()
        mux.AddRunsFromDirectory(logdir)
        mux.Reload()
        provider = data_provider.MultiplexerDataProvider(mux, logdir)
        plugin = graphs_plugin.GraphsPlugin(base_plugin.TBContext(logdir=logdir, multiplexer=mux, data_provider=provider))
        ctx = context.RequestContext()
        info = plugin.info_impl(ctx, "")
        for run in sorted(info):
            r = info[run]
            if r.get("run_graph"):
                body, _ = plugin.graph_impl(ctx, run, None, False, "")
                n, e = counts(body)
                out.append({"dir": d, "run": run, "kind": "op", "tag": "", "nodes": n, "edges": e})
            for tag in sorted(r.get("tags", {})):
                t = r["tags"][tag]
                if t.get("conceptual_graph"):
                    body, _ = plugin.graph_impl(ctx, run, tag, True, "")
                    n, e = counts(body)
                    out.append({"dir": d, "run": run, "kind": "conceptual", "tag": tag, "nodes": n, "edges": e})
                if t.get("op_graph"):
                    body, _ = plugin.graph_impl(ctx, run, tag, False, "")
                    if body is None:
                        continue
                    n, e = counts(body)
                    out.append({"dir": d, "run": run, "kind": "tagged", "tag": tag, "nodes": n, "edges": e})
        # The plugin serves one op graph per run; the report keeps the last
        # GraphDef and the last meta graph of each run: count those too,
        # parsed by TensorBoard's loader and protos.
        for run, path in sorted(mux.RunPaths().items()):
            last = {}
            files = sorted(f for f in os.listdir(path) if "tfevents" in f)
            for f in files:
                for ev in event_file_loader.LegacyEventFileLoader(os.path.join(path, f)).Load():
                    if ev.HasField("graph_def"):
                        g = graph_pb2.GraphDef()
                        g.ParseFromString(ev.graph_def)
                        last["graph_def"] = g
                    if ev.HasField("meta_graph_def"):
                        m = meta_graph_pb2.MetaGraphDef()
                        m.ParseFromString(ev.meta_graph_def)
                        last["meta_graph_def"] = m.graph_def
            for kind, g in sorted(last.items()):
                n, e = counts(text_format.MessageToString(g))
                out.append({"dir": d, "run": run, "kind": kind, "tag": "", "nodes": n, "edges": e})
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
