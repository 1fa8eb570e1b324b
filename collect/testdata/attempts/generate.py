"""Writes testdata/attempts/twowriters: two tensorboardX writers into one
run, one after the other, each logging steps 0, 1 and 2 of a scalar, a
histogram and an image: what a rerun into the same log directory leaves.

TensorBoard keeps 6 histograms and 6 images of such a run (its reader
purges only at a SessionLog START, which tensorboardX does not write, in
files of file_version 2); trainreport keeps the 3 of the second writer on
each line and the first writer's 3 as superseded entries of attempt 1.

Run with tensorboardX, numpy and pillow installed (pip install tensorboardX
numpy pillow), from this directory:

    python generate.py

The values are the same on every run; wall times and file names come from
the clock, so the files differ from one run to the next.
"""
import os
import shutil
import socket
import time

import numpy as np
from tensorboardX import SummaryWriter

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "twowriters")


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    socket.gethostname = lambda: "vm"  # the file names' host, fixed
    for writer in (1, 2):
        w = SummaryWriter(OUT)
        for step in range(3):
            value = writer * 10 + step
            w.add_scalar("loss", value, step)
            rng = np.random.default_rng(value)
            w.add_histogram("weights", rng.normal(loc=value, size=200), step)
            img = np.zeros((3, 4, 4), dtype=np.uint8)
            img[writer - 1, :, : step + 1] = 255  # red for writer 1, green for 2
            w.add_image("sample", img, step)
        w.close()
        time.sleep(1.1)  # a second writer's file name comes after the first's


if __name__ == "__main__":
    main()
