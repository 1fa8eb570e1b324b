#!/usr/bin/env python3
"""Writes tbx/, a small log directory from tensorboardX's own writer: a
custom-scalars layout and add_hparams, which puts the hparams records and
the metric scalars in a sub-run named by the call (PyTorch's layout too).

Run by hand (pip install tensorboardX==2.6.5), from this directory:

    rm -rf tbx && python3 gen_tbx.py

The output is committed; the tests read it without Python.
"""
from tensorboardX import SummaryWriter

with SummaryWriter("tbx/run") as w:
    for step in range(3):
        w.add_scalar("loss/train", 1.0 / (step + 1), step)
        w.add_scalar("loss/val", 2.0 / (step + 1), step)
        w.add_scalar("acc", 0.5 + step / 10, step)
        w.add_scalar("acc_lo", 0.4 + step / 10, step)
        w.add_scalar("acc_hi", 0.6 + step / 10, step)
    w.add_custom_scalars({
        "Losses": {"all losses": ["Multiline", ["loss/.*"]]},
        "Accuracy": {"band": ["Margin", ["acc", "acc_lo", "acc_hi"]]},
    })
    w.add_hparams({"lr": 0.01, "optimizer": "adam", "amsgrad": True, "layers": 3},
                  {"hparam/accuracy": 0.75, "hparam/loss": 0.25}, name="trial-0")
