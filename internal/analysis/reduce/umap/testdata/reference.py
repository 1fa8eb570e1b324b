"""Reference figures for internal/analysis/reduce/umap from umap-learn itself.

Run from the repository root in a venv with umap-learn and scikit-learn:

    python3 -m venv .cache/umap-venv
    .cache/umap-venv/bin/pip install umap-learn scikit-learn
    .cache/umap-venv/bin/python internal/analysis/reduce/umap/testdata/reference.py

It writes, beside itself, four datasets (Gaussian blobs, a Swiss roll,
scikit-learn's digits, and a real embedding: the 100 MNIST images of 784
pixels that the shared corpus's tbx12-2018-no-file-version projector holds)
as gzipped tab-separated float32 rows, umap-learn's
2-D layout of the Swiss roll, and reference.json: for each dataset the
trustworthiness (scikit-learn's, k = 10) of umap-learn's 2-D and 3-D
layouts with its defaults and a fixed random_state; scikit-learn's
trustworthiness of the committed layout (to check ours against); and
umap-learn's fitted a, b for a few (min_dist, spread). Timings are printed,
not stored, so the outputs do not change from one run to the next.

With --bench FILE it instead times umap-learn on the benchmark's data, a
raw little-endian float32 file of 10,000 x 128 written by
UMAP_BENCH_DUMP=FILE go test ./internal/analysis/reduce/umap -run '^$' -bench Embed10000 -benchtime 1x
"""

import gzip
import json
import os
import sys
import time

import numpy as np
import sklearn
import umap
from sklearn.datasets import load_digits, make_blobs, make_swiss_roll
from sklearn.manifold import trustworthiness
from umap.umap_ import find_ab_params

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS_MNIST = os.path.join(HERE, "..", "..", "..", "..", "..", "shared", "corpus",
                            "tbx12-2018-no-file-version", "runs", "May18_10-24-39_NIGSA774680",
                            "00000", "default", "tensors.tsv")
SEED = 42


def write_rows(name, x):
    with gzip.GzipFile(os.path.join(HERE, name), "wb", mtime=0) as f:
        for row in x:
            f.write(("\t".join(format(float(v), ".9g") for v in row) + "\n").encode())


def layout(x, dims):
    u = umap.UMAP(n_neighbors=15, min_dist=0.1, spread=1.0, n_components=dims,
                  init="spectral", random_state=SEED)
    t0 = time.perf_counter()
    e = u.fit_transform(x)
    return e, time.perf_counter() - t0


def bench(path):
    x = np.fromfile(path, dtype="<f4").reshape(10000, 128)
    umap.UMAP(random_state=SEED).fit_transform(x[:500])  # compile numba first
    e, secs = layout(x, 2)
    print(f"umap-learn 10000x128 2-D: {secs:.1f} s (single-threaded: random_state set)")
    print(f"trustworthiness k=10 of a 2,000-point sample: "
          f"{trustworthiness(x[:2000], e[:2000], n_neighbors=10):.4f}")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--bench":
        bench(sys.argv[2])
        return
    datasets = {
        "blobs": make_blobs(n_samples=1000, n_features=10, centers=6,
                            cluster_std=1.5, random_state=0)[0],
        "swissroll": make_swiss_roll(n_samples=1500, noise=0.05, random_state=0)[0],
        "digits": load_digits().data,
        "mnist100": np.loadtxt(CORPUS_MNIST, delimiter="\t"),
    }
    out = {"umap_learn": umap.__version__, "scikit_learn": sklearn.__version__,
           "random_state": SEED, "k": 10, "datasets": []}
    umap.UMAP(random_state=SEED).fit_transform(datasets["blobs"][:200])  # compile numba first
    for name, x in datasets.items():
        x = np.asarray(x, dtype=np.float32)
        write_rows(f"{name}.tsv.gz", x)
        entry = {"name": name, "file": f"{name}.tsv.gz", "n": x.shape[0], "d": x.shape[1]}
        for dims in (2, 3):
            e, secs = layout(x, dims)
            entry[f"trust{dims}"] = round(float(trustworthiness(x, e, n_neighbors=10)), 6)
            print(f"{name} {x.shape} {dims}-D: trustworthiness {entry[f'trust{dims}']:.4f}, {secs:.2f} s")
            if name == "swissroll" and dims == 2:
                e = e.astype(np.float32)
                write_rows("swissroll-umap2.tsv.gz", e)
                out["check"] = {"data": f"{name}.tsv.gz", "layout": "swissroll-umap2.tsv.gz",
                                "trust": float(trustworthiness(x, e, n_neighbors=10))}
        out["datasets"].append(entry)
    out["curves"] = [{"min_dist": m, "spread": s, "a": float(a), "b": float(b)}
                     for m, s in ((0.1, 1.0), (0.001, 1.0), (0.5, 2.0))
                     for a, b in [find_ab_params(s, m)]]
    with open(os.path.join(HERE, "reference.json"), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
