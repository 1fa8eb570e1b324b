"""Writes the test checkpoints of package checkpoint with TensorFlow itself.

Run from this directory, with tensorflow-cpu and tf_keras installed
(python -m venv .cache/tfvenv; .cache/tfvenv/bin/pip install tensorflow-cpu tf_keras):

    TF_USE_LEGACY_KERAS=1 ../../../.cache/tfvenv/bin/python gen.py

It writes
  - dtypes/: a tf.train.Checkpoint of a few small variables of several
    element types (object-based keys, "<name>/.ATTRIBUTES/VARIABLE_VALUE");
  - keras/: a tf_keras run with TensorBoard(embeddings_freq=1): the
    projector config and the embedding checkpoint Keras writes;
  - expected.json: every tensor's key, dtype, shape and values, as
    TensorFlow's own checkpoint reader reads them back, which the Go tests
    compare with what they read.

The outputs are committed so that `go test` needs no Python. Values are
deterministic (fixed seeds, fixed arrays); TensorFlow's bytes may differ
between versions, which the tests do not care about.
"""

import json
import os
import shutil

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf
import tf_keras as keras

HERE = os.path.dirname(os.path.abspath(__file__))


def values(reader, key):
    t = reader.get_tensor(key)
    a = np.asarray(t)
    return a.astype(np.float64).ravel().tolist(), list(a.shape)


def dtype_name(dt):
    return {
        tf.float32: "float32",
        tf.float64: "float64",
        tf.float16: "float16",
        tf.bfloat16: "bfloat16",
        tf.int32: "int32",
        tf.int64: "int64",
        tf.string: "string",
    }[dt]


def describe(prefix):
    """Reads a checkpoint back with TensorFlow's reader."""
    reader = tf.train.load_checkpoint(prefix)
    dtypes = reader.get_variable_to_dtype_map()
    out = []
    for key in sorted(dtypes):
        d = dtype_name(dtypes[key])
        entry = {"key": key, "dtype": d}
        if d != "string":
            entry["values"], entry["shape"] = values(reader, key)
        out.append(entry)
    return out


def dtypes_checkpoint():
    d = os.path.join(HERE, "dtypes")
    shutil.rmtree(d, ignore_errors=True)
    ckpt = tf.train.Checkpoint(
        emb32=tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3) / 7 - 0.5),
        emb64=tf.Variable(np.array([[1 / 3, -2.5e-300], [1e300, 0.0], [-0.0, 42.0]], dtype=np.float64)),
        emb16=tf.Variable(np.array([[0.1, -65504], [6e-8, 3.140625], [1, 2]], dtype=np.float16)),
        embbf=tf.Variable(tf.constant([[0.1, -3.0e38], [1e-38, 3.14159], [7, -8]], dtype=tf.bfloat16)),
        steps=tf.Variable(np.array([1, -2, 3], dtype=np.int32)),
        big=tf.Variable(np.array([2**40, -1], dtype=np.int64)),
        name=tf.Variable("a string"),
        scalar=tf.Variable(2.5),
    )
    prefix = ckpt.write(os.path.join(d, "ckpt"))
    return os.path.relpath(prefix, HERE)


def keras_run():
    d = os.path.join(HERE, "keras")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)  # Keras writes the projector config there before anything else
    keras.utils.set_random_seed(1)
    model = keras.Sequential(
        [
            keras.layers.Embedding(10, 4, input_length=3),
            keras.layers.Flatten(),
            keras.layers.Dense(1),
        ]
    )
    model.compile(optimizer="adam", loss="mse")
    x = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9], [0, 1, 2]])
    y = np.array([[0.0], [1.0], [0.5], [0.25]])
    cb = keras.callbacks.TensorBoard(log_dir=d, embeddings_freq=1, write_graph=False, profile_batch=0)
    model.fit(x, y, epochs=1, verbose=0, callbacks=[cb])
    # The event files are not what the tests read; their names hold a
    # host name and a time.
    for root, _, files in os.walk(d):
        for f in files:
            if "tfevents" in f:
                os.remove(os.path.join(root, f))
    prefix = tf.train.latest_checkpoint(os.path.join(d, "train"))
    return os.path.relpath(prefix, HERE)


def main():
    expected = {}
    for prefix in (dtypes_checkpoint(), keras_run()):
        expected[prefix] = describe(os.path.join(HERE, prefix))
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps({p: [(e["key"], e["dtype"], e.get("shape")) for e in es] for p, es in expected.items()}, indent=1))


if __name__ == "__main__":
    main()
