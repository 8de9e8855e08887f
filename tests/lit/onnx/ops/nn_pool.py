# ONNX MaxPool and AveragePool (1-D and 2-D; pads, strides, dilations, ceil_mode,
# count_include_pad, auto_pad SAME_UPPER / SAME_LOWER), GlobalAveragePool, GlobalMaxPool,
# LpPool and GlobalLpPool, run through relaxc on lavapipe against the loop references of
# Inputs/nn_reference.py; and the refusal of MaxPool's Indices.
#
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx import helper
from nn_reference import pool
from onnx_check import check_model, check_node, expect_error, make_model, tensor_info

rng = np.random.default_rng(0)


def rand(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


x = rand(2, 3, 6, 7)
check_node("MaxPool", {"x": x},
           lambda x: pool(x, "max", [3, 2], strides=[2, 1], pads=[1, 0, 1, 1], dilations=[1, 2]),
           attrs={"kernel_shape": [3, 2], "strides": [2, 1], "pads": [1, 0, 1, 1],
                  "dilations": [1, 2]}, name="maxpool_pads_dilations")
# CHECK: ok: maxpool_pads_dilations
check_node("MaxPool", {"x": x}, lambda x: pool(x, "max", [3, 3], strides=[2, 2], ceil_mode=True),
           attrs={"kernel_shape": [3, 3], "strides": [2, 2], "ceil_mode": 1},
           name="maxpool_ceil")
# CHECK: ok: maxpool_ceil
# SAME on 6 x 7 with stride 2 and kernel 3: outputs 3 x 4, total padding 1 and 2.
check_node("MaxPool", {"x": x}, lambda x: pool(x, "max", [3, 3], strides=[2, 2], pads=[0, 1, 1, 1]),
           attrs={"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_UPPER"},
           name="maxpool_same_upper")
# CHECK: ok: maxpool_same_upper
check_node("AveragePool", {"x": x},
           lambda x: pool(x, "avg", [3, 3], strides=[2, 2], pads=[1, 1, 0, 1]),
           attrs={"kernel_shape": [3, 3], "strides": [2, 2], "auto_pad": "SAME_LOWER"},
           name="avgpool_same_lower")
# CHECK: ok: avgpool_same_lower
check_node("AveragePool", {"x": x},
           lambda x: pool(x, "avg", [2, 3], pads=[1, 1, 0, 2], count_include_pad=True),
           attrs={"kernel_shape": [2, 3], "pads": [1, 1, 0, 2], "count_include_pad": 1},
           name="avgpool_count_include_pad")
# CHECK: ok: avgpool_count_include_pad
check_node("AveragePool", {"x": x},
           lambda x: pool(x, "avg", [3, 3], strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=True),
           attrs={"kernel_shape": [3, 3], "strides": [2, 2], "pads": [1, 1, 1, 1],
                  "ceil_mode": 1}, name="avgpool_ceil_exclude_pad")
# CHECK: ok: avgpool_ceil_exclude_pad
x1 = rand(2, 3, 9)
check_node("MaxPool", {"x": x1}, lambda x: pool(x, "max", [3], strides=[2], pads=[1, 1]),
           attrs={"kernel_shape": [3], "strides": [2], "pads": [1, 1]}, name="maxpool_1d")
# CHECK: ok: maxpool_1d
check_node("AveragePool", {"x": x1}, lambda x: pool(x, "avg", [4], strides=[3]),
           attrs={"kernel_shape": [4], "strides": [3]}, name="avgpool_1d")
# CHECK: ok: avgpool_1d

# The global poolings over a symbolic batch, and 1-D and 2-D inputs in one model.
nodes = [helper.make_node("GlobalAveragePool", ["x"], ["avg"]),
         helper.make_node("GlobalMaxPool", ["x"], ["max"]),
         helper.make_node("GlobalLpPool", ["x"], ["lp3"], p=3),
         helper.make_node("GlobalAveragePool", ["v"], ["avg1"])]
model = make_model(nodes, [tensor_info("x", np.float32, ["n", 3, 6, 7]),
                           tensor_info("v", np.float32, ["n", 2, 5])],
                   [tensor_info("avg", np.float32, ["n", 3, 1, 1]),
                    tensor_info("max", np.float32, ["n", 3, 1, 1]),
                    tensor_info("lp3", np.float32, ["n", 3, 1, 1]),
                    tensor_info("avg1", np.float32, ["n", 2, 1])])
check_model("global_pools", model,
            [{"x": rand(1, 3, 6, 7), "v": rand(1, 2, 5)}, {"x": rand(3, 3, 6, 7), "v": rand(3, 2, 5)}],
            lambda x, v: (x.mean((2, 3), keepdims=True), x.max((2, 3), keepdims=True),
                          np.cbrt((np.abs(x.astype(np.float64)) ** 3).sum((2, 3), keepdims=True))
                          .astype(np.float32), v.mean(2, keepdims=True)), atol=1e-4)
# CHECK: ok: global_pools


def lp_pool(x, p, kernel, strides=None, pads=None):
    window = pool(np.abs(x.astype(np.float64)) ** p, "avg", kernel, strides, pads,
                  count_include_pad=True)
    return ((window * np.prod(kernel)) ** (1.0 / p)).astype(np.float32)


check_node("LpPool", {"x": x}, lambda x: lp_pool(x, 2, [2, 2], [2, 2], [0, 1, 0, 0]),
           attrs={"kernel_shape": [2, 2], "strides": [2, 2], "pads": [0, 1, 0, 0]},
           name="lppool_2", atol=1e-4)
# CHECK: ok: lppool_2
check_node("LpPool", {"x": x1}, lambda x: lp_pool(x, 3, [3]), attrs={"kernel_shape": [3], "p": 3},
           name="lppool_3_1d", atol=1e-4)
# CHECK: ok: lppool_3_1d

model = make_model([helper.make_node("MaxPool", ["x"], ["y", "i"], name="mp", kernel_shape=[2, 2])],
                   [tensor_info("x", np.float32, [2, 3, 6, 7])],
                   [tensor_info("y", np.float32, [None] * 4), tensor_info("i", np.int64, [None] * 4)])
expect_error("maxpool_indices", model, [x], "output 1 'Indices' is not supported")
# CHECK: ok: maxpool_indices
# CHECK-NEXT: error: {{.*}}'mp' (MaxPool, opset 13){{.*}}output 1 'Indices' is not supported
