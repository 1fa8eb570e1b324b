"""Writes reference.json: what numpy computes of a few tensors for the
Exceptions page, the reference TestAgreesWithNumPy compares package
tensorview against (so that go test needs no Python).

Run with any Python that has numpy 2.x:
    python reference.py > reference.json

Per tensor: its shape and values (C order); numpy's nanpercentile of the
finite values at 0, 5, 10, 25, 50, 75, 90, 95, 100 with the midpoint
method; the whiskers up = min(Q3 + 1.5*IQR, max), down = max(Q1 -
1.5*IQR, min); the indices of the values beyond them and of every NaN and
infinity; np.histogram of the finite values with 100 bins; and the tensor
laid out as a matrix (None for the padding of a tiled layout): rank 0 and
1 as one row, rank 2 as is, rank 3 [A, H, W] as the A slices tiled
ceil(sqrt(A)) wide, rank 4 read as NHWC, transposed to NCHW and tiled a
row of channels per sample.
"""
import json
import math

import numpy as np

Q = [0, 5, 10, 25, 50, 75, 90, 95, 100]


def enc(v):
    if v is None:
        return None
    v = float(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def layout(x):
    if x.ndim <= 1:
        return x.reshape(1, -1)
    if x.ndim == 2:
        return x
    if x.ndim == 4:
        n, h, w, c = x.shape
        t = x.transpose(0, 3, 1, 2)  # NHWC -> NCHW
        return t.transpose(0, 2, 1, 3).reshape(n * h, c * w)
    h, w = x.shape[-2:]
    t = x.reshape(-1, h, w)
    a = t.shape[0]
    g = max(1, math.ceil(math.sqrt(a)))
    down = -(-a // g)
    m = np.full((down * h, g * w), np.nan, dtype=object)
    m[:] = None
    for i in range(a):
        r, c = divmod(i, g)
        m[r * h:(r + 1) * h, c * w:(c + 1) * w] = t[i]
    return m


def case(name, x):
    x = np.asarray(x, dtype=np.float64)
    flat = x.reshape(-1)
    fin = flat[np.isfinite(flat)]
    p = np.nanpercentile(fin, Q, method="midpoint")
    q1, q3 = p[3], p[5]
    iqr = q3 - q1
    up, down = min(q3 + 1.5 * iqr, p[8]), max(q1 - 1.5 * iqr, p[0])
    out_idx = [i for i, v in enumerate(flat) if not np.isfinite(v) or v > up or v < down]
    counts, edges = np.histogram(fin, bins=100)
    m = layout(x)
    return {
        "name": name,
        "shape": list(x.shape),
        "values": [enc(v) for v in flat],
        "percentiles": [enc(v) for v in p],
        "box": [enc(down), enc(q1), enc(p[4]), enc(q3), enc(up)],
        "outliers": out_idx,
        "hist_edges": [enc(v) for v in edges],
        "hist_counts": [int(c) for c in counts],
        "matrix": [[enc(v) for v in row] for row in np.asarray(m).tolist()],
    }


def main():
    rng = np.random.default_rng(15)
    grad = rng.normal(0, 1e-3, size=(6, 7)).astype(np.float32)
    grad[2, 3] = 0.5
    grad[4, 1] = np.nan
    grad[0, 6] = -np.inf
    cases = [
        case("normal 1-D, even count", rng.normal(size=200)),
        case("normal 1-D, odd count", rng.normal(size=101)),
        case("float32 gradient with outlier, NaN, -Inf", grad),
        case("integers with ties", rng.integers(-3, 4, size=(5, 9))),
        case("constant", np.full(10, 0.25)),
        case("single value", [3.5]),
        case("3-D, 5 slices tiled 3 wide", rng.normal(size=(5, 3, 4))),
        case("4-D NHWC", rng.normal(size=(2, 3, 4, 5))),
        case("heavy tail", rng.standard_cauchy(size=400)),
        case("5-D", rng.normal(size=(2, 2, 1, 2, 3))),
    ]
    json.dump(cases, __import__("sys").stdout, indent=None, separators=(",", ":"))
    print()


main()
