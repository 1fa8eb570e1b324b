"""Writes the reference clips and previews that internal/analysis/audio's tests compare with.

Run from this directory with the project's venv python (numpy):

    python reference.py

It writes chirp.wav (16-bit PCM stereo, 8 kHz, 0.65 s: a chirp from 200 Hz to
3 kHz in the left channel and a 1 kHz tone in the right, with a little
noise, through Python's wave module) and reference.json: the clip as
Python's wave module reads it, mixed to mono, and its waveform envelope and
spectrogram computed with numpy the way package audio documents them
(periodic Hann windows of 2*bins samples, rfft, 20*log10(|X| / (sum(window)
/ 2)) floored at -120 dB, frames back to back with the last ending at the
clip's end, or spread evenly when there are more than `frames`).
"""
import json
import wave

import numpy as np

RATE, SECONDS = 8000, 0.65
BINS, BUCKETS = 64, 200
FLOOR = -120.0

rng = np.random.default_rng(20231114)
t = np.arange(int(RATE * SECONDS)) / RATE
chirp = 0.6 * np.sin(2 * np.pi * (200 * t + (3000 - 200) / (2 * SECONDS) * t * t))
tone = 0.3 * np.sin(2 * np.pi * 1000 * t)
stereo = np.stack([chirp, tone], axis=1) + 0.01 * rng.standard_normal((len(t), 2))
pcm = np.clip(np.round(stereo * 32767), -32768, 32767).astype("<i2")
with wave.open("chirp.wav", "wb") as w:
    w.setnchannels(2)
    w.setsampwidth(2)
    w.setframerate(RATE)
    w.writeframes(pcm.tobytes())

with wave.open("chirp.wav", "rb") as w:
    raw = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").reshape(-1, w.getnchannels())
samples = (raw.astype(np.float64) / 32768).mean(axis=1)
n = len(samples)

buckets = min(BUCKETS, n)
env = [[float(samples[i * n // buckets:(i + 1) * n // buckets].min()),
        float(samples[i * n // buckets:(i + 1) * n // buckets].max())] for i in range(buckets)]

size = 2 * BINS
window = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(size) / size)
gain = window.sum() / 2


def spectrogram(frames):
    count = min(frames, max(1, -(-n // size)))
    starts = [min(f * size, max(n - size, 0)) for f in range(count)]
    if n > count * size and count > 1:
        starts = [f * (n - size) // (count - 1) for f in range(count)]
    db = []
    for s in starts:
        seq = np.zeros(size)
        part = samples[s:s + size]
        seq[:len(part)] = part
        mag = np.abs(np.fft.rfft(seq * window))[:BINS]
        with np.errstate(divide="ignore"):
            db.append([round(v, 8) for v in np.maximum(FLOOR, 20 * np.log10(mag / gain)).tolist()])
    return {"frames": frames, "times": [(s + size / 2) / RATE for s in starts], "db": db}


with open("reference.json", "w") as f:
    # "frames" are the 16-bit values Python's wave module read, left and
    # right interleaved; the samples are their mean over 32768.
    json.dump({"rate": RATE, "channels": 2, "frames": raw.reshape(-1).tolist(), "wave": env,
               # back to back (41 windows fit in 128 frames), and spread over 16
               "spectrograms": [spectrogram(128), spectrogram(16)]}, f)
