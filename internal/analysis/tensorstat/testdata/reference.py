"""Writes reference.json: numpy's statistics and histograms of a few tensor
series, the reference TestAgreesWithNumPy compares package tensorstat
against (so that go test needs no Python).

Run with the repository's venv (numpy 2.x):
    ../../../.cache/venv/bin/python reference.py > reference.json

Per series: its steps' values; per step numpy's count, finite count, NaN,
+Inf, -Inf and zero counts, min, max and mean over finite values
(np.nanmin etc. on the finite subset); and np.histogram of every step's
finite values on one grid: 30 equal bins over the finite range of all the
steps ([v-0.5, v+0.5] for a constant), as tensorstat.GridOf builds it.
"""
import json
import math

import numpy as np


def enc(v):
    v = float(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def series(name, steps, bins=30):
    out = {"name": name, "bins": bins, "steps": []}
    finite_all = [s[np.isfinite(s)] for s in steps]
    nonempty = [f for f in finite_all if f.size]
    lo = min(float(f.min()) for f in nonempty)
    hi = max(float(f.max()) for f in nonempty)
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    out["lo"], out["hi"] = lo, hi
    for s, f in zip(steps, finite_all):
        st = {
            "values": [enc(v) for v in s.astype(np.float64)],
            "count": int(s.size),
            "finite": int(f.size),
            "nan": int(np.isnan(s).sum()),
            "pos_inf": int(np.isposinf(s).sum()),
            "neg_inf": int(np.isneginf(s).sum()),
            "zero": int((s == 0).sum()),
            "min": enc(f.min()) if f.size else None,
            "max": enc(f.max()) if f.size else None,
            "mean": enc(np.mean(f.astype(np.float64))) if f.size else None,
            "hist": np.histogram(f.astype(np.float64), bins=bins, range=(lo, hi))[0].tolist(),
        }
        out["steps"].append(st)
    return out


rng = np.random.default_rng(20231114)
normal = [rng.normal(scale=1 + i, size=(4, 25)).astype(np.float32) for i in range(5)]
normal[2][0, :3] = [np.nan, np.inf, -np.inf]
normal[3][:] = np.nan  # nothing finite
ints = [rng.integers(-50, 50, size=(7, 7)).astype(np.int32) for _ in range(3)]
ints[1][0, :5] = 0
bools = [(rng.random(40) < p).astype(np.bool_) for p in (0.1, 0.5, 0.9)]
const = [np.full((3,), 2.5, dtype=np.float64), np.full((2,), 2.5, dtype=np.float64)]
edges = [np.array([0.0, 0.1, 0.2, 0.3, 0.30000000000000004, 0.6, 0.7, 0.7000000000000001, 0.9, 1.0]), np.array([], dtype=np.float64)]

print(json.dumps([
    series("normal float32 with NaN and Inf", [x.reshape(-1) for x in normal]),
    series("int32", [x.reshape(-1) for x in ints]),
    series("bool", [x.astype(np.float64) for x in bools]),
    series("constant", const),
    series("values on bin edges, an empty step", edges, bins=10),
], indent=1))
