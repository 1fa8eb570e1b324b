"""Writes linspace.txt: numpy's linspace(0, 1, n) for n = 1..1000, the
thresholds TensorBoard's PR curve writers count at, for
collect's TestPRThresholdsAreNumpyLinspace (so that go test needs no
Python).

Each line is "n differ sha256": n, how many of the n values differ from
i / (n - 1), and the first 16 hex digits of the SHA-256 of the n values
as little-endian float64.

    python3 -m venv /tmp/np && /tmp/np/bin/pip install numpy
    /tmp/np/bin/python collect/testdata/linspace/gen.py > collect/testdata/linspace/linspace.txt
"""
import hashlib

import numpy as np

print("# numpy", np.__version__)
for n in range(1, 1001):
    v = np.linspace(0, 1, n)
    differ = sum(1 for i, x in enumerate(v) if n > 1 and x != i / (n - 1))
    print(n, differ, hashlib.sha256(v.astype("<f8").tobytes()).hexdigest()[:16])
