"""Writes nan.json and nan.log: Visdom files holding NaN, Infinity and
-Infinity as Python's json module writes them.

Run by hand, with any Python 3 (only the standard library):

    python3 collect/visdom/testdata/python/generate.py

Python's json writes the floats nan, inf and -inf as the bare words NaN,
Infinity and -Infinity (allow_nan is its default), which are not JSON.
Visdom 0.3 writes null instead (its NanSafeEncoder), but a server or client
that dumps with the json module's defaults, as earlier Visdom versions did
and scripts that write Visdom's formats themselves do, writes the words.
The windows are Visdom's shapes (as collect/visdom/testdata/generate.py
records them from visdom 0.3), their numbers floats of each kind:

  nan.json  a saved environment (the server's json.dumps of its state)
  nan.log   a replay log (the client's json.dumps of [endpoint, message]
            per line): the same windows, then a point appended to "loss"
"""

import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
nan, inf = math.nan, math.inf

loss = {"data": [{"x": [1, 2, 3, 4], "y": [0.5, nan, inf, -inf], "name": "train",
                  "type": "scatter", "mode": "lines"}],
        "layout": {"title": "loss"}}
heat = {"data": [{"z": [[1.0, nan], [inf, -inf]], "type": "heatmap", "colorscale": "Viridis"}],
        "layout": {"title": "heat"}}
props = [{"type": "number", "name": "lr", "value": nan},
         {"type": "number", "name": "clip", "value": -inf}]


def saved():
    def plot(id, i, content):
        return {"id": id, "title": id, "type": "plot", "i": i, "content": content, "command": "window"}
    env = {"jsons": {
        "loss": plot("loss", 0, loss),
        "heat": plot("heat", 1, heat),
        "props": {"id": "props", "title": "props", "type": "properties", "i": 2,
                  "content": props, "command": "window"},
    }, "reload": {}}
    with open(os.path.join(HERE, "nan.json"), "w") as f:
        json.dump(env, f)


def log():
    lines = [
        ["events", dict(loss, win="loss", eid="main", opts={"title": "loss"})],
        ["events", dict(heat, win="heat", eid="main", opts={"title": "heat"})],
        ["events", {"data": [{"content": props, "type": "properties"}], "win": "props", "eid": "main",
                    "opts": {"title": "props"}}],
        ["update", {"data": [{"x": [5], "y": [nan], "name": "train", "type": "scatter", "mode": "lines"}],
                    "win": "loss", "eid": "main", "name": "train", "append": True}],
    ]
    with open(os.path.join(HERE, "nan.log"), "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")


saved()
log()
