"""Writes logs/: OneFlow exception projector files and an event file, the input of the
Exceptions page's tests and screenshots (render's golden
oneflow-exceptions, cmd/trainreport's browser_exceptions_test.go).

No writer of these files installs from a package registry (OneFlow's
summary module and TS-VIS are not on PyPI), so this script writes the
format of docs/FORMATS.md section 9 itself, protobuf's wire format by hand:
one SummaryProjector message per file, projector/projector.gradit.<sec>.log,
metadata type EXCEPTION, a Projector per watched tensor with its step,
wall time and numpy tensor (dtype name, shape, C-order little-endian bytes).

Two watched gradients over 16 steps, seeded: conv1.weight.grad, [2, 5, 6, 3]
(read as NHWC), whose scale shrinks and which holds a NaN, a +Inf and a big
outlier at step 10; fc.weight.grad, [12, 20], with a few large values every
step. Beside them, in tsvis/, a TS-VIS run: a loss and, in its projector
event file, exception records of layer2.grad, [3, 4, 5], over 8 steps, all
zero at the last. Run with any Python that has numpy:
    python generate.py
"""
import os
import struct

import numpy as np


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field, wire):
    return varint(field << 3 | wire)


def ld(field, payload):
    return key(field, 2) + varint(len(payload)) + payload


def tensor(arr):
    shape = b"".join(ld(1, key(1, 0) + varint(d)) for d in arr.shape)
    return ld(1, arr.dtype.name.encode()) + ld(2, shape) + ld(3, arr.astype("<" + arr.dtype.str[1:]).tobytes())


def projector(tag, step, wall, arr):
    return ld(1, tag.encode()) + key(2, 0) + varint(step) + key(3, 1) + struct.pack("<d", wall) + ld(4, tensor(arr))


def crc32c(data):
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def masked(data):
    c = crc32c(data)
    return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def record(payload):
    head = struct.pack("<Q", len(payload))
    return head + struct.pack("<I", masked(head)) + payload + struct.pack("<I", masked(payload))


def event(wall, step, body):
    return key(1, 1) + struct.pack("<d", wall) + key(2, 0) + varint(step) + body


def main():
    rng = np.random.default_rng(2015)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "logs", "projector")
    os.makedirs(out, exist_ok=True)
    for name in os.listdir(out):
        os.remove(os.path.join(out, name))
    t0 = 1_700_000_000
    # A loss beside the gradients, in OneFlow's event/ directory (TFRecord
    # framing, CRC32C, as every event file), so that the directory is a run.
    ev = os.path.join(os.path.dirname(out), "event")
    os.makedirs(ev, exist_ok=True)
    recs = record(event(t0, 0, ld(3, b"brain.Event:2")))
    for step in range(16):
        value = ld(1, b"loss") + key(2, 5) + struct.pack("<f", 2.0 * 0.85 ** step + 0.1)
        recs += record(event(t0 + 10.0 * step, step, ld(5, ld(1, value))))
    with open(os.path.join(ev, "event.%d.log" % t0), "wb") as f:
        f.write(recs)
    for step in range(16):
        conv = (rng.normal(0, 0.05 * 0.8 ** step, size=(2, 5, 6, 3))).astype(np.float32)
        if step == 10:
            conv[0, 1, 2, 0] = np.nan
            conv[1, 4, 5, 2] = np.inf
            conv[1, 0, 0, 1] = 3.0
        fc = rng.normal(0, 0.01, size=(12, 20)).astype(np.float32)
        fc[rng.integers(0, 12, 3), rng.integers(0, 20, 3)] *= 25
        msg = ld(1, projector("conv1.weight.grad", step, t0 + 10.0 * step, conv))
        msg += ld(1, projector("fc.weight.grad", step, t0 + 10.0 * step + 1, fc))
        msg += ld(6, key(1, 0) + varint(1))  # MetaData{type: EXCEPTION}
        with open(os.path.join(out, "projector.gradit.%d.log" % (t0 + 10 * step)), "wb") as f:
            f.write(msg)

    # TS-VIS: a run of its own, tsvis/, its exception records in a
    # projector event file beside the main one (Summary.Value field 7, the
    # plugin "exceptions"): layer2.grad, [3, 4, 5] (tiled), all zero at its
    # last step, a layer that stopped learning.
    ts = os.path.join(os.path.dirname(out), "tsvis")
    os.makedirs(ts, exist_ok=True)
    for name in os.listdir(ts):
        os.remove(os.path.join(ts, name))
    main_recs = record(event(t0, 0, ld(3, b"brain.Event:2")))
    proj_recs = record(event(t0, 0, ld(3, b"brain.Event:2")))
    meta = ld(1, ld(1, b"exceptions"))  # SummaryMetadata{plugin_data{plugin_name}}
    for step in range(8):
        value = ld(1, b"loss") + key(2, 5) + struct.pack("<f", 1.5 * 0.9 ** step)
        main_recs += record(event(t0 + 5.0 * step, step, ld(5, ld(1, value))))
        g = rng.normal(0, 0.02, size=(3, 4, 5)).astype(np.float32)
        if step == 7:
            g[:] = 0
        exc = ld(1, b"layer2.grad") + ld(9, meta) + ld(7, ld(2, ld(1, tensor(g))))
        proj_recs += record(event(t0 + 5.0 * step, step, ld(5, ld(1, exc))))
    with open(os.path.join(ts, "events.out.231114-221320.trainhost"), "wb") as f:
        f.write(main_recs)
    with open(os.path.join(ts, "projector.events.out.231114-221320.trainhost"), "wb") as f:
        f.write(proj_recs)


main()
