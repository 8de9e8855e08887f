# ONNX BatchNormalization (inference), InstanceNormalization, LayerNormalization (axis,
# no bias, the Mean and InvStdDev outputs), LRN, and Softmax / LogSoftmax / Hardmax
# before opset 13 (the input seen as 2-D at 'axis') and from 13 (one axis), run through
# relaxc on lavapipe against NumPy. BatchNormalization's training form is nn_norm_training.py's.
#
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx import helper
from onnx_check import check_model, check_node, expect_error, make_model, tensor_info

rng = np.random.default_rng(0)


def rand(*shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def per_channel(v, ndim):
    return v.reshape((1, -1) + (1,) * (ndim - 2))


x = rand(2, 3, 4, 5)
scale, bias, mean, var = rand(3), rand(3), rand(3), rand(3, lo=0.5, hi=2.0)
check_node("BatchNormalization", {"x": x, "s": scale, "b": bias, "m": mean, "v": var},
           lambda x, s, b, m, v: (x - per_channel(m, 4)) / np.sqrt(per_channel(v, 4) + 1e-3)
           * per_channel(s, 4) + per_channel(b, 4),
           attrs={"epsilon": 1e-3}, constants={"s", "b", "m", "v"}, name="batchnorm", atol=1e-4)
# CHECK: ok: batchnorm
check_node("BatchNormalization", {"x": rand(4, 3), "s": scale, "b": bias, "m": mean, "v": var},
           lambda x, s, b, m, v: (x - m) / np.sqrt(v + 1e-5) * s + b, opset=9,
           constants={"s", "b", "m", "v"}, name="batchnorm_2d_opset9", atol=1e-4)
# CHECK: ok: batchnorm_2d_opset9


def instance_norm(x, s, b, eps=1e-5):
    axes = tuple(range(2, x.ndim))
    mu, sigma2 = x.mean(axes, keepdims=True), x.var(axes, keepdims=True)
    return (x - mu) / np.sqrt(sigma2 + eps) * per_channel(s, x.ndim) + per_channel(b, x.ndim)


check_node("InstanceNormalization", {"x": x, "s": scale, "b": bias}, instance_norm,
           constants={"s", "b"}, name="instancenorm", atol=1e-4)
# CHECK: ok: instancenorm
check_node("InstanceNormalization", {"x": rand(2, 3, 7), "s": scale, "b": bias},
           lambda x, s, b: instance_norm(x, s, b, 0.01), attrs={"epsilon": 0.01},
           constants={"s", "b"}, name="instancenorm_1d", atol=1e-4)
# CHECK: ok: instancenorm_1d


def layer_norm(x, s, b, axis, eps=1e-5):
    axes = tuple(range(axis % x.ndim, x.ndim))
    mu = x.mean(axes, keepdims=True)
    inv = 1 / np.sqrt(((x - mu) ** 2).mean(axes, keepdims=True) + eps)
    return ((x - mu) * inv * s + (0 if b is None else b)), mu, inv


check_node("LayerNormalization", {"x": x, "s": rand(5), "b": rand(5)},
           lambda x, s, b: layer_norm(x, s, b, -1)[0], opset=17, constants={"s", "b"},
           name="layernorm_last", atol=1e-4)
# CHECK: ok: layernorm_last
check_node("LayerNormalization", {"x": x, "s": rand(4, 5)},
           lambda x, s: layer_norm(x, s, None, 2, 1e-3), attrs={"axis": 2, "epsilon": 1e-3},
           outputs=("y", "mean", "inv_std_dev"), opset=17, constants={"s"},
           name="layernorm_axis_stats", atol=1e-4)
# CHECK: ok: layernorm_axis_stats


def lrn(x, size, alpha=1e-4, beta=0.75, bias=1.0):
    squares = np.zeros_like(x)
    channels = x.shape[1]
    for c in range(channels):
        lo, hi = max(0, c - (size - 1) // 2), min(channels - 1, c + size // 2)
        squares[:, c] = (x[:, lo:hi + 1] ** 2).sum(1)
    return x / (bias + alpha / size * squares) ** beta


xl = rand(2, 5, 3, 2)
check_node("LRN", {"x": xl}, lambda x: lrn(x, 3), attrs={"size": 3}, name="lrn_3", atol=1e-4)
# CHECK: ok: lrn_3
check_node("LRN", {"x": xl}, lambda x: lrn(x, 4, 0.5, 0.6, 2.0),
           attrs={"size": 4, "alpha": 0.5, "beta": 0.6, "bias": 2.0}, name="lrn_4", atol=1e-4)
# CHECK: ok: lrn_4


def softmax(x, axis):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def hardmax(x, axis):
    hot = np.zeros_like(x)
    np.put_along_axis(hot, np.expand_dims(x.argmax(axis), axis), 1, axis)
    return hot


def coerced(f, x, axis):
    return f(x.reshape(int(np.prod(x.shape[:axis])), -1), 1).reshape(x.shape)


xs = rand(2, 3, 4) * 3
# Hardmax's input has ties (the first maximum wins).
xh = np.float32(rng.integers(0, 3, (2, 3, 4)))
nodes13 = [helper.make_node("Softmax", ["x"], ["softmax"], axis=1),
           helper.make_node("LogSoftmax", ["x"], ["log_softmax"]),
           helper.make_node("Hardmax", ["h"], ["hardmax"], axis=-2)]
nodes11 = [helper.make_node("Softmax", ["x"], ["softmax"]),
           helper.make_node("LogSoftmax", ["x"], ["log_softmax"], axis=2),
           helper.make_node("Hardmax", ["h"], ["hardmax"], axis=0)]
inputs = [tensor_info("x", np.float32, [2, 3, 4]), tensor_info("h", np.float32, [2, 3, 4])]
outputs = [tensor_info(n, np.float32, [2, 3, 4]) for n in ("softmax", "log_softmax", "hardmax")]
check_model("softmax_family_13", make_model(nodes13, inputs, outputs, opset=13),
            {"x": xs, "h": xh},
            lambda x, h: (softmax(x, 1), np.log(softmax(x, -1)), hardmax(h, -2)), atol=1e-5)
# CHECK: ok: softmax_family_13
check_model("softmax_family_11", make_model(nodes11, inputs, outputs, opset=11),
            {"x": xs, "h": xh},
            lambda x, h: (coerced(softmax, x, 1), np.log(softmax(x, 2)),
                          coerced(hardmax, h, 0)), atol=1e-5)
# CHECK: ok: softmax_family_11

# Over a symbolic batch: the coerced Softmax reshapes to (n, 12) and back, LRN to
# (n, 1, 5, 6) and back.
nodes = [helper.make_node("Softmax", ["x"], ["softmax"], axis=1),
         helper.make_node("LRN", ["l"], ["lrn"], size=3)]
model = make_model(nodes, [tensor_info("x", np.float32, ["n", 3, 4]),
                           tensor_info("l", np.float32, ["n", 5, 3, 2])],
                   [tensor_info("softmax", np.float32, ["n", 3, 4]),
                    tensor_info("lrn", np.float32, ["n", 5, 3, 2])], opset=11)
check_model("softmax_lrn_symbolic_batch", model,
            [{"x": rand(1, 3, 4), "l": rand(1, 5, 3, 2)}, {"x": rand(3, 3, 4), "l": rand(3, 5, 3, 2)}],
            lambda x, l: (coerced(softmax, x, 1), lrn(l, 3)), atol=1e-5)
# CHECK: ok: softmax_lrn_symbolic_batch
# Hardmax along a symbolic dim (found by fuzz_onnx: its positions were an arange whose
# bound, a shape variable, the module could not hold).
model = make_model([helper.make_node("Hardmax", ["h"], ["hardmax"])],
                   [tensor_info("h", np.float32, [4, "m"])],
                   [tensor_info("hardmax", np.float32, [4, "m"])], opset=13)
check_model("hardmax_symbolic_axis", model,
            [{"h": np.float32(rng.integers(0, 3, (4, 5)))},
             {"h": np.float32(rng.integers(0, 3, (4, 2)))}],
            lambda h: hardmax(h, -1))
# CHECK: ok: hardmax_symbolic_axis
