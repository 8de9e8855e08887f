#!/usr/bin/env python3
"""The ONNX model of the main job: a small image classifier with a dynamic batch.

  onnx_example.py make DIR [--batch N]   writes DIR/classifier.onnx and DIR/images.npy
                                         (N, 3, 16, 16) float32
  onnx_example.py check DIR OUTPUT.npy   compares OUTPUT.npy with the classifier's
                                         probabilities computed here with NumPy

The graph is what a PyTorch export of a small CNN looks like: Conv + Relu, MaxPool, a
second Conv + Relu, GlobalAveragePool, Flatten, Gemm and Softmax, opset 13, with the
batch dimension named "batch" so that one build runs at every batch size. The weights
come from a fixed seed, so `make` and `check` agree without sharing a file.
Needs Debian's python3-onnx and python3-numpy (run with /usr/bin/python3).
"""
import argparse
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

CLASSES = 10


def weights():
    rng = np.random.default_rng(20261126)
    f32 = np.float32
    return {
        "conv1.weight": (rng.standard_normal((8, 3, 3, 3)) * 0.3).astype(f32),
        "conv1.bias": (rng.standard_normal(8) * 0.1).astype(f32),
        "conv2.weight": (rng.standard_normal((16, 8, 3, 3)) * 0.3).astype(f32),
        "conv2.bias": (rng.standard_normal(16) * 0.1).astype(f32),
        "fc.weight": (rng.standard_normal((CLASSES, 16)) * 0.5).astype(f32),
        "fc.bias": (rng.standard_normal(CLASSES) * 0.1).astype(f32),
    }


def model():
    w = weights()
    nodes = [
        helper.make_node("Conv", ["images", "conv1.weight", "conv1.bias"], ["c1"],
                         name="conv1", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"], name="relu1"),
        helper.make_node("MaxPool", ["r1"], ["p1"], name="pool1", kernel_shape=[2, 2],
                         strides=[2, 2]),
        helper.make_node("Conv", ["p1", "conv2.weight", "conv2.bias"], ["c2"],
                         name="conv2", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c2"], ["r2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["r2"], ["g"], name="gap"),
        helper.make_node("Flatten", ["g"], ["f"], name="flatten", axis=1),
        helper.make_node("Gemm", ["f", "fc.weight", "fc.bias"], ["logits"], name="fc",
                         transB=1),
        helper.make_node("Softmax", ["logits"], ["probabilities"], name="softmax", axis=1),
    ]
    graph = helper.make_graph(
        nodes, "classifier",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["batch", 3, 16, 16])],
        [helper.make_tensor_value_info("probabilities", TensorProto.FLOAT,
                                       ["batch", CLASSES])],
        initializer=[numpy_helper.from_array(v, k) for k, v in w.items()])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)],
                          producer_name="relaxc scripts/onnx_example.py")
    onnx.checker.check_model(m)
    return m


def images(batch):
    rng = np.random.default_rng(batch)
    return rng.standard_normal((batch, 3, 16, 16)).astype(np.float32)


def conv3x3_same(x, w, b):
    n, c, h, wd = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, w.shape[0], h, wd))
    for i in range(3):
        for j in range(3):
            out += np.einsum("nchw,oc->nohw", padded[:, :, i:i + h, j:j + wd], w[:, :, i, j])
    return out + b[None, :, None, None]


def reference(x):
    w = {k: v.astype(np.float64) for k, v in weights().items()}
    r1 = np.maximum(conv3x3_same(x.astype(np.float64), w["conv1.weight"], w["conv1.bias"]), 0)
    n, c, h, wd = r1.shape
    p1 = r1.reshape(n, c, h // 2, 2, wd // 2, 2).max(axis=(3, 5))
    r2 = np.maximum(conv3x3_same(p1, w["conv2.weight"], w["conv2.bias"]), 0)
    logits = r2.mean(axis=(2, 3)) @ w["fc.weight"].T + w["fc.bias"]
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("make")
    make.add_argument("dir")
    make.add_argument("--batch", type=int, default=4)
    check = sub.add_parser("check")
    check.add_argument("dir")
    check.add_argument("output")
    args = parser.parse_args()

    if args.command == "make":
        onnx.save(model(), f"{args.dir}/classifier.onnx")
        np.save(f"{args.dir}/images.npy", images(args.batch))
        print(f"ok: {args.dir}/classifier.onnx and images.npy (batch {args.batch})")
        return
    x = np.load(f"{args.dir}/images.npy")
    got = np.load(args.output)
    want = reference(x)
    if got.shape != want.shape:
        sys.exit(f"error: output shape {got.shape}, expected {want.shape}")
    err = np.abs(got - want).max()
    if not np.allclose(got, want, rtol=1e-4, atol=1e-5):
        sys.exit(f"error: output differs from the NumPy reference (max abs error {err:.3g})")
    print(f"ok: output matches the NumPy reference (max abs error {err:.2g}); "
          f"classes {got.argmax(axis=1).tolist()}")


if __name__ == "__main__":
    main()
