#!/usr/bin/env python3
"""Read the log directories written by generate.py back with TensorBoard's own
reader and write EXPECTED.md and expected.json beside this file.

Run it with the same environment as generate.py (see its docstring)::

    /tmp/writers-venv/bin/python expected.py

What is counted, per writer directory (tensorboardx/, tf2/, keras/, keras_nested/, torch/):

* Every run and tag that TensorBoard's EventMultiplexer (the Python one, with
  size_guidance 0 = keep everything, purge_orphaned_data=False) reports through
  PluginRunToTagToContent(plugin) for each active plugin, plus tensors that
  carry no plugin name; "count" is len(Tensors(run, tag)) and "steps" the steps
  of those values in the order read. TensorBoard converts legacy values
  (simple_value, histo, image, audio) into its tensor form on load; the
  "encoding" field shows what the file itself holds instead (read with
  LegacyEventFileLoader, which does not convert): the Summary.Value field
  used, the dtype and shape of tensors and which TensorProto field holds the
  values, the image format. "data_class" is SummaryMetadata.data_class of the
  first value that has metadata (0 when never set).
* Graphs: TensorBoard itself turns Event.graph_def into tag "__run_graph__"
  of plugin "graphs" ("nodes" = nodes of the GraphDef it keeps, "events" =
  graph_def events in the run) and Event.tagged_run_metadata into plugin
  "graph_tagged_run_metadata" under the RunMetadata's tag; an
  Event.meta_graph_def would be "__meta_graph__". All are kind "graph".
  "plugin_in_file" is the plugin name found in the file's metadata when it
  differs from TensorBoard's (null: the file has no metadata for the tag).
* Embeddings: TensorBoard's projector plugin (ProjectorPlugin) is asked for
  its configs; each embedding is a tag under the run whose directory holds
  projector_config.pbtxt, plugin "projector", kind "embedding", count = the
  number of points TensorBoard reads (tensor_path TSV or checkpoint).

expected.json: {writer: {run: {tag: {"plugin", "kind", "count", "steps",
"encoding", "data_class", ...}}}}.
"""

import json
import logging
import os
import sys
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

HERE = Path(__file__).resolve().parent
WRITERS = ["tensorboardx", "tf2", "keras", "keras_nested", "torch"]

KIND = {
    "scalars": "scalar",
    "histograms": "histogram",
    "images": "image",
    "audio": "audio",
    "text": "text",
    "pr_curves": "pr_curve",
    "hparams": "hparams",
    "custom_scalars": "custom_scalars",
    "graph_run_metadata": "graph",
    "graph_run_metadata_graph": "graph",
    "graph_keras_model": "graph",
    "graph_tagged_run_metadata": "graph",
    "graphs": "graph",
    "mesh": "mesh",
    "": "tensor",
}


class _Collect(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(f"{record.levelname} {record.name}: {record.getMessage()}")


def _image_format(b):
    if b.startswith(b"\x89PNG"):
        return "PNG"
    if b.startswith(b"GIF8"):
        return "GIF"
    if b.startswith(b"\xff\xd8"):
        return "JPEG"
    if b.startswith(b"RIFF"):
        return "WAV"
    return "bytes"


def _encoding(value):
    from tensorboard.compat.proto import types_pb2

    which = value.WhichOneof("value")
    if which is None:
        return "no value (metadata only)"
    if which == "simple_value":
        return "simple_value"
    if which == "histo":
        return f"histo (HistogramProto, {len(value.histo.bucket)} buckets)"
    if which == "image":
        im = value.image
        return f"image {_image_format(im.encoded_image_string)} {im.width}x{im.height} colorspace {im.colorspace}"
    if which == "audio":
        a = value.audio
        return (f"audio {a.content_type or '?'} {a.sample_rate:g} Hz, {a.num_channels} ch, "
                f"{a.length_frames} frames")
    if which == "tensor":
        t = value.tensor
        dt = types_pb2.DataType.Name(t.dtype)
        shape = "[" + ",".join(str(d.size) for d in t.tensor_shape.dim) + "]"
        if t.tensor_content:
            field = f"tensor_content {len(t.tensor_content)} B"
        else:
            field = "empty"
            for f, v in t.ListFields():
                if f.name.endswith("_val"):
                    field = f"{f.name} x{len(v)}"
                    break
        extra = ""
        if t.dtype == types_pb2.DT_STRING and t.string_val:
            fmts = sorted({_image_format(s) for s in t.string_val if len(s) > 8})
            if fmts and fmts != ["bytes"]:
                extra = " (" + "/".join(fmts) + " inside)"
        return f"tensor {dt}{shape} {field}{extra}"
    return which


def _compress_steps(steps):
    out, i = [], 0
    while i < len(steps):
        j = i
        while j + 1 < len(steps) and steps[j + 1] == steps[j] + 1:
            j += 1
        out.append(str(steps[i]) if i == j else f"{steps[i]}-{steps[j]}")
        i = j + 1
    return ",".join(out)


def _raw_scan(run_dir):
    """Per tag: first encoding, distinct encodings, data_class, plugin from the file; per run: event kinds."""
    from tensorboard.backend.event_processing import event_file_loader

    tags, events, files = {}, {}, []
    for name in sorted(os.listdir(run_dir)):
        p = os.path.join(run_dir, name)
        if "tfevents" not in name or not os.path.isfile(p):
            continue
        n = 0
        for ev in event_file_loader.LegacyEventFileLoader(p).Load():
            n += 1
            kind = ev.WhichOneof("what")
            events[kind] = events.get(kind, 0) + 1
            if kind == "tagged_run_metadata":
                tags.setdefault(ev.tagged_run_metadata.tag, {"encodings": ["Event.tagged_run_metadata"]})
            if kind != "summary":
                continue
            for v in ev.summary.value:
                t = tags.setdefault(v.tag, {"encodings": [], "data_class": 0, "file_plugin": None})
                enc = _encoding(v)
                if enc not in t["encodings"]:
                    t["encodings"].append(enc)
                if v.HasField("metadata"):
                    if not t.get("data_class"):
                        t["data_class"] = v.metadata.data_class
                    if t.get("file_plugin") is None:
                        t["file_plugin"] = v.metadata.plugin_data.plugin_name
        files.append({"file": name, "bytes": os.path.getsize(p), "records": n})
    return tags, events, files


def _projector(logdir, mux):
    """Embeddings as TensorBoard's projector plugin sees them with --logdir=logdir."""
    from tensorboard.backend.event_processing import data_provider
    from tensorboard.plugins import base_plugin
    from tensorboard.plugins.projector import projector_plugin

    ctx = base_plugin.TBContext(logdir=str(logdir), multiplexer=mux,
                                data_provider=data_provider.MultiplexerDataProvider(mux, str(logdir)))
    plugin = projector_plugin.ProjectorPlugin(ctx)
    plugin._update_configs()
    found = {}
    for run, config in sorted(plugin._configs.items()):
        for emb in config.embeddings:
            if emb.tensor_path:
                fpath = projector_plugin._rel_to_abs_asset_path(emb.tensor_path, plugin.config_fpaths[run])
                try:
                    tensor = projector_plugin._read_tensor_tsv_file(fpath)
                except UnicodeDecodeError:
                    tensor = projector_plugin._read_tensor_binary_file(fpath, emb.tensor_shape)
                source = f"tensor_path {emb.tensor_path}"
            else:
                tensor = plugin._get_reader_for_run(run).get_tensor(emb.tensor_name)
                source = f"checkpoint {os.path.basename(config.model_checkpoint_path)}"
            meta_rows = None
            if emb.metadata_path:
                mpath = projector_plugin._rel_to_abs_asset_path(emb.metadata_path, plugin.config_fpaths[run])
                with open(mpath) as f:
                    meta_rows = [line.rstrip("\n").split("\t") for line in f if line.strip()]
            found.setdefault(run, {})[emb.tensor_name] = {
                "plugin": "projector",
                "kind": "embedding",
                "count": int(len(tensor)),
                "steps": [],
                "encoding": f"{source}, {len(tensor)}x{len(tensor[0])}"
                            + (f", metadata {len(meta_rows)} lines x {len(meta_rows[0])} cols" if meta_rows else "")
                            + (f", sprite {emb.sprite.image_path} {list(emb.sprite.single_image_dim)}"
                               if emb.sprite.image_path else ""),
                "data_class": 0,
            }
    return found


def read_writer(logdir):
    from tensorboard.backend.event_processing import plugin_event_multiplexer as pem
    from tensorboard.backend.event_processing import plugin_event_accumulator as pea

    sg = {pea.TENSORS: 0, pea.GRAPH: 0, pea.META_GRAPH: 0, pea.RUN_METADATA: 0}
    mux = pem.EventMultiplexer(size_guidance=sg, purge_orphaned_data=False)
    mux.AddRunsFromDirectory(str(logdir))
    mux.Reload()

    result, runinfo = {}, {}
    covered = set()
    for plugin in sorted(mux.ActivePlugins()):
        for run, tags in sorted(mux.PluginRunToTagToContent(plugin).items()):
            for tag in sorted(tags):
                tensors = mux.Tensors(run, tag)
                result.setdefault(run, {})[tag] = {
                    "plugin": plugin,
                    "kind": KIND.get(plugin, "graph" if plugin.startswith("graph") else "tensor"),
                    "count": len(tensors),
                    "steps": [t.step for t in tensors],
                }
                covered.add((run, tag))
    for run in sorted(mux.Runs()):
        tags = mux.GetAccumulator(run).Tags()
        for tag in sorted(tags.get("tensors", [])):
            if (run, tag) not in covered:
                tensors = mux.Tensors(run, tag)
                result.setdefault(run, {})[tag] = {"plugin": "", "kind": "tensor", "count": len(tensors),
                                                   "steps": [t.step for t in tensors]}
        raw_tags, events, files = _raw_scan(os.path.join(str(logdir), run))
        runinfo[run] = {"events": events, "files": files}
        if tags.get("graph") and "__run_graph__" in result.get(run, {}):
            result[run]["__run_graph__"].update(
                encoding="Event.graph_def", nodes=len(mux.Graph(run).node), events=events.get("graph_def", 0))
        if tags.get("meta_graph"):
            mg = mux.MetaGraph(run)
            result.setdefault(run, {})["__meta_graph__"] = {
                "plugin": "graphs", "kind": "graph", "count": events.get("meta_graph_def", 0), "steps": [],
                "encoding": "Event.meta_graph_def", "nodes": len(mg.graph_def.node)}
        for tag, entry in result.get(run, {}).items():
            if tag in raw_tags and "encoding" not in entry:
                encs = raw_tags[tag]["encodings"]
                entry["encoding"] = " | ".join(encs)
                entry["data_class"] = raw_tags[tag].get("data_class", 0)
                fp = raw_tags[tag].get("file_plugin")
                if fp is not None and fp != entry["plugin"]:
                    entry["plugin_in_file"] = fp
                elif fp is None and encs != ["Event.tagged_run_metadata"]:
                    entry["plugin_in_file"] = None

    for run, embs in _projector(logdir, mux).items():
        result.setdefault(run, {}).update(embs)
    # A projector directory without event files is not a run, so TensorBoard
    # sees its config only when that directory itself is the logdir.
    for root, _dirs, fnames in os.walk(str(logdir)):
        if "projector_config.pbtxt" in fnames:
            run = os.path.relpath(root, str(logdir))
            if run in result and any(e["kind"] == "embedding" for e in result[run].values()):
                continue
            sub = pem.EventMultiplexer(size_guidance=sg, purge_orphaned_data=False)
            sub.AddRunsFromDirectory(root)
            sub.Reload()
            for _r, embs in _projector(root, sub).items():
                for e in embs.values():
                    e["note"] = "seen by TensorBoard only with --logdir at this directory (it holds no event file)"
                result.setdefault(run, {}).update(embs)
                runinfo.setdefault(run, {"events": {}, "files": []})
    return {r: dict(sorted(t.items())) for r, t in sorted(result.items())}, runinfo


def main():
    handler = _Collect()
    logging.getLogger().addHandler(handler)
    logging.getLogger().setLevel(logging.WARNING)

    expected, info = {}, {}
    for w in WRITERS:
        d = HERE / w
        if d.is_dir():
            expected[w], info[w] = read_writer(d)

    with open(HERE / "expected.json", "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")

    import tensorboard

    lines = [
        "# Expected contents of the writer test logs",
        "",
        "Generated by `expected.py` (do not edit by hand) from the directories that",
        "`generate.py` wrote, read back with TensorBoard "
        f"{tensorboard.__version__}'s own reader: `EventMultiplexer` with",
        "size_guidance 0 (keep all) and `purge_orphaned_data=False`, `PluginRunToTagToContent`",
        "for every active plugin, `Tensors(run, tag)` for the count, `Graph`/`MetaGraph`/",
        "`RunMetadata` for graphs, and the projector plugin for embeddings. The same data,",
        "with the full step lists, is in `expected.json`.",
        "",
        "*Wire encoding* is what the event file itself holds (TensorBoard converts",
        "simple_value/histo/image/audio into tensors on load); *steps* are in read order,",
        "so a restart shows as a step range that goes back.",
        "",
    ]
    if handler.records:
        lines += ["Warnings logged by TensorBoard while loading:", ""]
        lines += [f"- `{r}`" for r in handler.records] + [""]
    else:
        lines += ["TensorBoard logged no warning while loading these directories.", ""]
    for w, runs in expected.items():
        total = sum(p.stat().st_size for p in (HERE / w).rglob("*") if p.is_file())
        lines += [f"## {w}/", "", f"{total} bytes in all.", ""]
        lines += ["| run | event file | bytes | records |", "|---|---|---:|---:|"]
        for run in sorted(info[w]):
            for fi in info[w][run]["files"]:
                lines.append(f"| `{run}` | `{fi['file']}` | {fi['bytes']} | {fi['records']} |")
        lines += ["", "| run | tag | kind | plugin | count | steps | wire encoding |",
                  "|---|---|---|---|---:|---|---|"]
        for run, tags in runs.items():
            for tag, e in tags.items():
                enc = e.get("encoding", "")
                if e.get("data_class"):
                    enc += f"; data_class {e['data_class']}"
                if "plugin_in_file" in e:
                    if e["plugin_in_file"] is None:
                        enc += "; no metadata in file"
                    else:
                        enc += f"; metadata in file has plugin `{e['plugin_in_file'] or '(empty)'}`"
                if "nodes" in e:
                    enc += f"; {e['nodes']} nodes"
                if "note" in e:
                    enc += f"; {e['note']}"
                enc = enc.replace("|", "\\|")
                lines.append(f"| `{run}` | `{tag}` | {e['kind']} | `{e['plugin']}` | {e['count']} | "
                             f"{_compress_steps(e['steps'])} | {enc} |")
        lines.append("")
    with open(HERE / "EXPECTED.md", "w") as f:
        f.write("\n".join(lines))
    for r in handler.records:
        print(r, file=sys.stderr)
    print(f"wrote EXPECTED.md and expected.json for {', '.join(expected)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
