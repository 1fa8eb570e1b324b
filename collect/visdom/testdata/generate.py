"""Writes the Visdom fixtures of collect/visdom with visdom 0.3 itself.

Run by hand (it needs visdom 0.3, numpy and pillow, Python 3.12):

    python3.12 -m venv .cache/visdom-venv
    .cache/visdom-venv/bin/pip install visdom==0.3.0 av   # av (PyAV) for the video window
    .cache/visdom-venv/bin/python collect/visdom/testdata/generate.py

It writes, beside itself:

  replay.log       a client replay log (Visdom(offline=True, log_to_filename=...)):
                   every window type the client offers, in environment "replay"
  env/replay.json  the same log replayed into a real visdom server (started in
                   this process, without the script download that fails
                   offline) and saved by it: what our replay must equal
  env/exp2.json    a second environment saved by the server, with a window of
                   the same title, for comparison across environments
  expected.json    what was written: per window, its type and the values our
                   reader must return

The server and the client are visdom's; nothing here writes Visdom's formats
by hand.
"""

import base64
import io
import json
import os
import shutil
import socket
import sys
import threading
import time

import numpy as np
from PIL import Image

import visdom
from visdom.server import run_server

HERE = os.path.dirname(os.path.abspath(__file__))
ENV = "replay"


def png(w, h, seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 256, size=(3, h, w), dtype=np.uint8)
    return a


def write_windows(vis, expected):
    """Every window type of the client, each with values recorded in expected."""
    # line: two named traces, then points appended one step at a time.
    steps = np.arange(0, 5)
    train = np.round(1.0 / (steps + 1), 6)
    val = np.round(1.2 / (steps + 1), 6)
    vis.line(X=np.column_stack([steps, steps]), Y=np.column_stack([train, val]), win="loss",
             opts=dict(title="loss", legend=["train", "val"], xlabel="step", ylabel="loss"))
    more = np.arange(5, 8)
    tr2 = np.round(1.0 / (more + 1), 6)
    vis.line(X=more, Y=tr2, win="loss", name="train", update="append")
    expected["loss"] = dict(type="line", traces={
        "train": dict(x=[int(s) for s in np.concatenate([steps, more])], y=[float(v) for v in np.concatenate([train, tr2])]),
        "val": dict(x=[int(s) for s in steps], y=[float(v) for v in val])},
        xlabel="step", ylabel="loss")
    # line with non-integral x (epochs), and a NaN, which visdom writes as null.
    ex = [0.5, 1.0, 1.5, 2.0]
    ey = [0.9, 0.7, float("nan"), 0.4]
    vis.line(X=np.array(ex), Y=np.array(ey), win="acc_epoch", opts=dict(title="accuracy by epoch", xlabel="epoch"))
    expected["acc_epoch"] = dict(type="line", traces={"1": dict(x=ex, y=[0.9, 0.7, None, 0.4])})
    # line whose title holds markup: must stay inert.
    vis.line(X=np.array([0, 1]), Y=np.array([3.0, 2.0]), win="hostile_line",
             opts=dict(title="<script>alert('line')</script>"))
    expected["hostile_line"] = dict(type="line", title="<script>alert('line')</script>",
                                    traces={"1": dict(x=[0, 1], y=[3.0, 2.0])})

    pts = np.array([[0.0, 0.0], [1.0, 2.0], [2.0, 1.0], [3.0, 3.0]])
    lab = np.array([1, 1, 2, 2])
    vis.scatter(X=pts, Y=lab, win="scatter", opts=dict(title="scatter", legend=["a", "b"], markersize=8))
    expected["scatter"] = dict(type="scatter", traces={"a": dict(x=[0.0, 1.0], y=[0.0, 2.0]), "b": dict(x=[2.0, 3.0], y=[1.0, 3.0])})

    sx = np.linspace(0, 2, 5)
    sy = np.round(np.sin(sx), 6)
    vis.stem(X=sy, Y=sx, win="stem", opts=dict(title="stem"))
    expected["stem"] = dict(type="stem", y=[float(v) for v in sy], x=[float(v) for v in sx])

    hm = np.arange(12, dtype=float).reshape(3, 4)
    vis.heatmap(X=hm, win="heatmap", opts=dict(title="heatmap", columnnames=["a", "b", "c", "d"], rownames=["r1", "r2", "r3"]))
    expected["heatmap"] = dict(type="heatmap", z=hm.tolist(), x=["a", "b", "c", "d"], y=["r1", "r2", "r3"])

    vis.bar(X=np.array([3.0, 1.0, 2.0]), win="bar", opts=dict(title="bar", rownames=["x", "y", "z"]))
    expected["bar"] = dict(type="bar", x=["x", "y", "z"], y=[3.0, 1.0, 2.0])

    vals = np.array([0.0, 0.1, 0.2, 0.5, 0.9, 1.0, 1.0, 1.0])
    vis.histogram(X=vals, win="histogram", opts=dict(title="histogram", numbins=4))
    expected["histogram"] = dict(type="histogram", values=vals.tolist(), numbins=4)

    box = np.column_stack([np.arange(1.0, 11.0), np.arange(2.0, 22.0, 2.0)])
    vis.boxplot(X=box, win="boxplot", opts=dict(title="boxplot", legend=["one", "two"]))
    expected["boxplot"] = dict(type="boxplot", boxes={"one": box[:, 0].tolist(), "two": box[:, 1].tolist()})

    surf = np.outer(np.arange(4.0), np.arange(3.0))
    vis.surf(X=surf, win="surf", opts=dict(title="surface"))
    expected["surf"] = dict(type="surf", z=surf.tolist())
    vis.contour(X=surf, win="contour", opts=dict(title="contour"))
    expected["contour"] = dict(type="contour", z=surf.tolist())

    qx = np.array([[1.0, 0.0], [0.0, 1.0]])
    qy = np.array([[0.0, 1.0], [1.0, 0.0]])
    vis.quiver(X=qx, Y=qy, win="quiver", opts=dict(title="quiver"))
    expected["quiver"] = dict(type="quiver")

    vis.pie(X=np.array([1.0, 2.0, 3.0]), win="pie", opts=dict(title="pie", legend=["p", "q", "r"]))
    expected["pie"] = dict(type="pie", labels=["p", "q", "r"], values=[1.0, 2.0, 3.0])

    mx = np.array([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    my = np.array([[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]])
    vis.mesh(X=mx, Y=my, win="mesh", opts=dict(title="mesh", opacity=0.5))
    expected["mesh"] = dict(type="mesh")

    dx = np.arange(4.0)
    vis.dual_axis_lines(X=dx, Y1=dx * 2, Y2=dx * dx, win="dual", opts=dict(title="dual axis", name_y1="twice", name_y2="square"))
    expected["dual"] = dict(type="dual_axis_lines")

    img = png(16, 8, 1)
    vis.image(img, win="image", opts=dict(title="image", caption="one image"))
    expected["image"] = dict(type="image", width=16, height=8, caption="one image",
                             pixel00=[int(v) for v in img[:, 0, 0]])
    batch = np.stack([png(8, 8, s) for s in range(3)])
    vis.images(batch, nrow=3, padding=2, win="images", opts=dict(title="images"))
    # visdom's grid pads each image by 2 on every side: 3 * (8 + 4) wide.
    expected["images"] = dict(type="images", width=3 * (8 + 2 * 2), height=8 + 2 * 2)

    # An image history: a slider over the images sent to one window. An
    # offline client cannot ask whether the window exists, so each image
    # is logged as a new window (events), and the log holds the last.
    for s in range(3):
        vis.image(png(6, 4, 10 + s), win="history", opts=dict(title="history", store_history=True, caption="epoch %d" % s))
    expected["history"] = dict(type="image_history", width=6, height=4, count=1, caption="epoch 2")

    vis.text("<b>hello</b> <i>visdom</i>", win="text", opts=dict(title="notes"))
    vis.text("<br>second line", win="text", append=True)
    # The server joins an appended text with "<br>".
    expected["text"] = dict(type="text", html="<b>hello</b> <i>visdom</i><br><br>second line")
    hostile = '<img src=x onerror="alert(1)"><script>alert(2)</script><a href="javascript:alert(3)">link</a>'
    vis.text(hostile, win="hostile_text", opts=dict(title="<script>alert('t')</script>"))
    expected["hostile_text"] = dict(type="text", html=hostile)

    props = [
        {"type": "text", "name": "optimizer", "value": "adam"},
        {"type": "number", "name": "learning rate", "value": "0.001"},
        {"type": "checkbox", "name": "augment", "value": True},
        {"type": "select", "name": "model", "value": 1, "values": ["resnet", "vit"]},
        {"type": "button", "name": "go", "value": "start"},
    ]
    vis.properties(props, win="properties", opts=dict(title="properties"))
    expected["properties"] = dict(type="properties", rows=props)

    vis.svg(svgstr='<svg height="30" width="30"><circle cx="15" cy="15" r="10" fill="red"/></svg>', win="svg", opts=dict(title="svg"))
    expected["svg"] = dict(type="svg")

    try:
        t = np.sin(np.linspace(0, 2 * np.pi * 440, 800))
        vis.audio(tensor=t, win="audio", opts=dict(title="audio", sample_frequency=8000))
        # visdom writes a 16-bit mono WAV of the samples at that rate.
        expected["audio"] = dict(type="audio", rate=8000, frames=len(t), channels=1)
    except Exception as e:  # scipy is optional for visdom
        print("audio not written:", e, file=sys.stderr)
    try:
        vis.graph([[0, 1], [1, 2]], win="graph", opts=dict(title="graph"))
        expected["graph"] = dict(type="graph")
    except Exception as e:
        print("graph not written:", e, file=sys.stderr)
    # An SVG that would run script if it were placed in the page: the
    # report shows it as an image, where it runs none.
    vis.svg(svgstr='<svg height="20" width="20"><script>console.error("svg script ran")</script>'
            '<circle cx="10" cy="10" r="8" fill="blue" onload="console.error(\'svg onload ran\')"/></svg>',
            win="hostile_svg", opts=dict(title="hostile svg"))
    expected["hostile_svg"] = dict(type="svg")
    try:
        v = np.zeros((2, 8, 8, 3), dtype=np.uint8)
        vis.video(tensor=v, win="video", opts=dict(title="video"))
        expected["video"] = dict(type="video")
    except Exception as e:  # needs opencv or ffmpeg
        print("video not written:", e, file=sys.stderr)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main():
    log = os.path.join(HERE, "replay.log")
    envdir = os.path.join(HERE, "env")
    for p in (log,):
        if os.path.exists(p):
            os.remove(p)
    shutil.rmtree(envdir, ignore_errors=True)
    os.makedirs(envdir)

    expected = {}
    offline = visdom.Visdom(offline=True, log_to_filename=log, env=ENV)
    write_windows(offline, expected)

    # A real server, started in a thread without download_scripts (which
    # fetches the page's scripts and fails offline); only its REST
    # endpoints are used.
    port = free_port()
    th = threading.Thread(target=run_server.start_server, daemon=True,
                          kwargs=dict(port=port, env_path=envdir, base_url="", bind_local=True, print_func=lambda p: None))
    th.start()
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.1)
    online = visdom.Visdom(server="http://127.0.0.1", port=port, env=ENV, raise_exceptions=True)
    online.replay_log(log)
    online.line(X=np.array([0, 1, 2]), Y=np.array([2.0, 1.0, 0.5]), win="loss", env="exp2",
                opts=dict(title="loss", legend=["train"]))
    # Through the server, the history keeps every image.
    for s in range(3):
        online.image(png(6, 4, 10 + s), win="history", env="exp2",
                     opts=dict(title="history", store_history=True, caption="epoch %d" % s))
    expected["exp2/history"] = dict(type="image_history", width=6, height=4, count=3, caption="epoch 2")
    online.save([ENV, "exp2"])
    expected["exp2/loss"] = dict(type="line", traces={"train": dict(x=[0, 1, 2], y=[2.0, 1.0, 0.5])})
    time.sleep(0.5)
    for name in sorted(os.listdir(envdir)):
        if name not in (ENV + ".json", "exp2.json"):
            p = os.path.join(envdir, name)
            shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")
    print("windows:", ", ".join(sorted(expected)))
    os._exit(0)


if __name__ == "__main__":
    main()
