# ONNX BatchNormalization with training_mode = 1 (opsets 14 and 15): Y normalized with the
# batch's statistics (biased variance), the running statistics input * momentum + batch *
# (1 - momentum) as outputs 1 and 2 (both, one or none asked for); rank 2, 3 and 4, a
# symbolic batch, statistics as graph inputs and as initializers; run through relaxc on
# lavapipe against NumPy; and the refusals of what the specification forbids or relaxc
# cannot express.
#
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL

import numpy as np
from onnx import helper
from onnx_check import check_model, check_node, expect_error, make_model, tensor_info

rng = np.random.default_rng(0)


def rand(*shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def batch_norm_training(x, s, b, m, v, epsilon=1e-5, momentum=0.9):
    """The batch's mean and biased variance over every axis but 1 normalize x; the running
    statistics move toward them by 1 - momentum."""
    axes = tuple(a for a in range(x.ndim) if a != 1)
    shape = (1, -1) + (1,) * (x.ndim - 2)
    batch_mean = x.astype(np.float64).mean(axes)
    batch_var = x.astype(np.float64).var(axes)
    y = ((x - batch_mean.reshape(shape)) / np.sqrt(batch_var.reshape(shape) + epsilon)
         * s.reshape(shape) + b.reshape(shape))
    running_mean = m * momentum + batch_mean * (1 - momentum)
    running_var = v * momentum + batch_var * (1 - momentum)
    return tuple(a.astype(np.float32) for a in (y, running_mean, running_var))


x4 = rand(2, 3, 4, 5, lo=-2.0, hi=3.0)
scale, bias, mean, var = rand(3), rand(3), rand(3), rand(3, lo=0.5, hi=2.0)
inputs = {"x": x4, "s": scale, "b": bias, "m": mean, "v": var}
check_node("BatchNormalization", inputs, batch_norm_training, attrs={"training_mode": 1},
           outputs=("y", "running_mean", "running_var"), opset=15, name="training_4d",
           atol=1e-4)
# CHECK: ok: training_4d
check_node("BatchNormalization", {**inputs, "x": rand(6, 3)},
           lambda x, s, b, m, v: batch_norm_training(x, s, b, m, v, 1e-2, 0.5),
           attrs={"training_mode": 1, "epsilon": 1e-2, "momentum": 0.5},
           outputs=("y", "running_mean", "running_var"), opset=14,
           constants={"s", "b", "m", "v"}, name="training_2d_opset14_momentum", atol=1e-4)
# CHECK: ok: training_2d_opset14_momentum
check_node("BatchNormalization", inputs, lambda **a: batch_norm_training(**a)[0],
           attrs={"training_mode": 1}, opset=15, name="training_y_only", atol=1e-4)
# CHECK: ok: training_y_only
running_var_only = make_model(
    [helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "", "rv"],
                      training_mode=1)],
    [tensor_info(k, np.float32, list(a.shape)) for k, a in inputs.items()],
    [tensor_info("y", np.float32, [2, 3, 4, 5]), tensor_info("rv", np.float32, [3])], opset=15)
check_model("training_running_var_only", running_var_only, inputs,
            lambda **a: batch_norm_training(**a)[::2], atol=1e-4)
# CHECK: ok: training_running_var_only

symbolic = make_model(
    [helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "rm", "rv"],
                      training_mode=1, momentum=0.8)],
    [tensor_info("x", np.float32, ["n", 3, 7])],
    [tensor_info("y", np.float32, ["n", 3, 7]), tensor_info("rm", np.float32, [3]),
     tensor_info("rv", np.float32, [3])],
    {"s": scale, "b": bias, "m": mean, "v": var}, opset=15)
check_model("training_symbolic_batch", symbolic,
            [{"x": rand(2, 3, 7)}, {"x": rand(5, 3, 7)}],
            lambda x: batch_norm_training(x, scale, bias, mean, var, momentum=0.8), atol=1e-4)
# CHECK: ok: training_symbolic_batch


def bn_model(outputs, opset=15, **attrs):
    node = helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], outputs, name="bn",
                            **attrs)
    shapes = {"y": [2, 3, 4, 5]}
    return make_model([node], [tensor_info("x", np.float32, [2, 3, 4, 5])],
                      [tensor_info(o, np.float32, shapes.get(o, [3])) for o in outputs if o],
                      {"s": scale, "b": bias, "m": mean, "v": var}, opset=opset)


# CHECK: ok: training_mode 2
# CHECK-NEXT: error: {{.*}}: node 'bn' (BatchNormalization, opset 15): invalid: attribute 'training_mode' is 2; it must be 0 or 1
expect_error("training_mode 2", bn_model(["y"], training_mode=2), [x4],
             "attribute 'training_mode' is 2")
# CHECK: ok: running statistics in inference
# CHECK-NEXT: error: {{.*}}: node 'bn' (BatchNormalization, opset 15): invalid: outputs 1 and 2 (the running statistics) are given only with attribute 'training_mode' = 1
expect_error("running statistics in inference", bn_model(["y", "rm", "rv"]), [x4],
             "given only with attribute 'training_mode' = 1")
# CHECK: ok: training statistics before opset 14
# CHECK-NEXT: error: {{.*}}: node 'bn' (BatchNormalization, opset 9): unsupported: output 1 (a training statistic) is not supported before opset 14: relaxc imports the inference form of BatchNormalization
expect_error("training statistics before opset 14",
             bn_model(["y", "rm", "rv", "sm", "sv"], opset=9), [x4],
             "(a training statistic) is not supported before opset 14")
# CHECK: ok: momentum past 1
# CHECK-NEXT: error: {{.*}}: node 'bn' (BatchNormalization, opset 15): unsupported: attribute 'momentum' is 1.500000; relaxc's batch_norm takes a momentum in [0, 1]
expect_error("momentum past 1", bn_model(["y", "rm", "rv"], training_mode=1, momentum=1.5),
             [x4], "takes a momentum in [0, 1]")
# Opset 15 lets the statistics' dtype differ from X's; relaxc's batch_norm takes one dtype.
# CHECK: ok: float16 data, float32 statistics
# CHECK-NEXT: error: {{.*}}: node 'bn' (BatchNormalization, opset 15): unsupported: input 3 'input_mean' is float32 and input 0 'X' float16; relaxc's batch_norm takes one dtype
half = np.ones(3, np.float16)
mixed = make_model(
    [helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "rm", "rv"],
                      name="bn", training_mode=1)],
    [tensor_info("x", np.float16, [2, 3])],
    [tensor_info("y", np.float16, [2, 3]), tensor_info("rm", np.float32, [3]),
     tensor_info("rv", np.float32, [3])],
    {"s": half, "b": half, "m": mean, "v": var}, opset=15)
expect_error("float16 data, float32 statistics", mixed, [np.ones((2, 3), np.float16)],
             "relaxc's batch_norm takes one dtype")
