"""Reference outputs for internal/analysis/reduce: numpy's SVD for PCA, scikit-learn's
t-SNE and trustworthiness for the quality tests.

Dev-only; go test needs no Python. Run from the repository root in a venv
with scikit-learn (1.9.1 and numpy 2.4.6 wrote the committed files):

    python3 -m venv .cache/reduce-venv
    .cache/reduce-venv/bin/pip install scikit-learn
    .cache/reduce-venv/bin/python internal/analysis/reduce/testdata/reference.py
    .cache/reduce-venv/bin/python internal/analysis/reduce/testdata/reference.py --time

It writes, beside itself:
  pca.json          a 200 x 12 seeded input, numpy's SVD of it centred:
                    the first 3 coordinates and every component's explained
                    variance ratio
  tsne-<name>.json.gz  for blobs, swissroll, digits and mnist100 (the
                    corpus's projector images): the points (row-major),
                    scikit-learn's TSNE trustworthiness (k = 10) on them and,
                    for blobs, sklearn's embedding itself (to check our
                    trustworthiness against sklearn's on the same embedding)
--corpus FILE adds tsne-tf2proj2500.json.gz, the corpus's embedding at the
default t-SNE cap (see CORPUS_SAMPLE_DIMS), with the 3-D trustworthiness too.
--time prints how long sklearn's TSNE takes on 10,000 x 128 Gaussian points,
the size of the Go benchmark (it writes nothing).
"""

import gzip
import json
import os
import sys
import time

import numpy as np
from sklearn.datasets import load_digits, make_blobs, make_swiss_roll
from sklearn.manifold import TSNE, trustworthiness

HERE = os.path.dirname(os.path.abspath(__file__))
# A real embedding: the 100 MNIST images of the shared corpus's projector,
# read from ../shared beside the repository.
CORPUS_MNIST = os.path.join(HERE, "..", "..", "..", "..", "..", "shared", "corpus",
                            "tbx12-2018-no-file-version", "runs", "May18_10-24-39_NIGSA774680",
                            "00000", "default", "tensors.tsv")

# scikit-learn's defaults (exaggeration 12 for 250 iterations, learning
# rate "auto", 1,000 iterations, angle 0.5 on a cell's full width, so more
# exact than our θ 0.5 on half of it) with our random initialisation: the
# reference our t-SNE, with half the iterations, is held to.
TSNE_ARGS = dict(
    n_components=2,
    perplexity=30.0,
    init="random",
    method="barnes_hut",
    random_state=0,
)

# The corpus's tf2-projector-ckpt embedding embed0:0 at the default t-SNE
# cap: the 2,500 points of project's seeded sample, as raw little-endian
# float32 rows of 16, written by
#   TRAINREPORT_TSNE_DUMP=FILE go test ./internal/analysis/reduce/project -run TestDumpCorpusSample
# and passed as --corpus FILE.
CORPUS_SAMPLE_DIMS = 16


def rows(x):
    return [float(v) for v in np.asarray(x, dtype=np.float32).ravel()]


def pca_case():
    rng = np.random.default_rng(14)
    # Correlated columns so the components are well separated.
    x = rng.normal(size=(200, 12)) @ rng.normal(size=(12, 12))
    x = x.astype(np.float32)
    xc = x.astype(np.float64) - x.astype(np.float64).mean(axis=0)
    u, s, _ = np.linalg.svd(xc, full_matrices=False)
    k = 3
    coords = u[:, :k] * s[:k]
    ratio = s**2 / np.sum(s**2)
    with open(os.path.join(HERE, "pca.json"), "w") as f:
        json.dump(
            {"n": 200, "d": 12, "k": k, "data": rows(x),
             "coords": [float(v) for v in coords.ravel()],
             "explained": [float(v) for v in ratio]},
            f,
        )
        f.write("\n")


def datasets(corpus=None):
    blobs, _ = make_blobs(n_samples=800, n_features=10, centers=6, cluster_std=1.5, random_state=1)
    roll, _ = make_swiss_roll(n_samples=800, noise=0.05, random_state=2)
    digits = load_digits().data  # 1,797 x 64, integers 0..16
    mnist = np.loadtxt(CORPUS_MNIST, delimiter="\t")  # 100 x 784
    sets = {"blobs": blobs, "swissroll": roll, "digits": digits, "mnist100": mnist}
    if corpus:
        sets["tf2proj2500"] = np.fromfile(corpus, dtype="<f4").reshape(-1, CORPUS_SAMPLE_DIMS)
    return sets


def tsne_cases(corpus=None):
    for name, x in datasets(corpus).items():
        x = np.asarray(x, dtype=np.float32)
        y = TSNE(**TSNE_ARGS).fit_transform(x)
        t = trustworthiness(x, y, n_neighbors=10)
        out = {"name": name, "n": x.shape[0], "d": x.shape[1], "data": rows(x),
               "trustworthiness": float(t), "settings": {k: v for k, v in TSNE_ARGS.items()}}
        if name == "tf2proj2500":
            y3 = TSNE(**dict(TSNE_ARGS, n_components=3)).fit_transform(x)
            out["trustworthiness3"] = float(trustworthiness(x, y3, n_neighbors=10))
        if name == "blobs":
            out["embedding"] = rows(y)
            out["embedding_trustworthiness"] = float(
                trustworthiness(x, np.asarray(y, dtype=np.float32), n_neighbors=10))
        path = os.path.join(HERE, "tsne-%s.json.gz" % name)
        # mtime=0: the same data gives the same bytes.
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
            f.write(json.dumps(out).encode())
        print(name, x.shape, "trustworthiness", round(t, 4))


def time_big():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(10000, 128)).astype(np.float32)
    start = time.perf_counter()
    y = TSNE(**TSNE_ARGS).fit_transform(x)
    took = time.perf_counter() - start
    print("sklearn TSNE 10000 x 128: %.1f s, trustworthiness %.4f"
          % (took, trustworthiness(x, y, n_neighbors=10)))


if __name__ == "__main__":
    if sys.argv[1:] == ["--time"]:
        time_big()
    elif sys.argv[1:2] == ["--corpus"]:
        pca_case()
        tsne_cases(sys.argv[2])
    else:
        pca_case()
        tsne_cases()
