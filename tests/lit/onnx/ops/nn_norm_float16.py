# ONNX LayerNormalization on float16: the statistics in the stash type (float32), Y
# returned as float16, Mean and InvStdDev as float32; run through relaxc on lavapipe
# against NumPy.
#
# REQUIRES: vulkan-float16
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx_check import check_node

rng = np.random.default_rng(0)
x = rng.uniform(-1, 1, (2, 3, 4)).astype(np.float16)
scale = np.float16(np.linspace(0.5, 1.5, 4))
bias = np.float16(np.linspace(-1, 1, 4))


def layer_norm(x, s, b):
    xf = x.astype(np.float32)
    mu = xf.mean(-1, keepdims=True)
    inv = 1 / np.sqrt(((xf - mu) ** 2).mean(-1, keepdims=True) + 1e-5)
    y = (xf - mu) * inv * s.astype(np.float32) + b.astype(np.float32)
    return y.astype(np.float16), mu, inv


check_node("LayerNormalization", {"x": x, "s": scale, "b": bias}, layer_norm,
           outputs=("y", "mean", "inv_std_dev"), opset=17, constants={"s", "b"},
           name="layernorm_float16", rtol=1e-3, atol=1e-3)
# CHECK: ok: layernorm_float16
