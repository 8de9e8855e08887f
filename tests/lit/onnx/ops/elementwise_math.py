# The ONNX math functions and activations: each in its domain on float32 over a
# dim_param batch, the activations with their default and given attributes, a few on
# float64, run on lavapipe against NumPy.
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import math

import numpy as np
from onnx import helper
from onnx_check import check_model, check_node, make_model, tensor_info

rng = np.random.default_rng(1502)
erf = np.vectorize(math.erf, otypes=[np.float64])

# Each unary function on inputs drawn from its domain: (op, low, high, reference).
UNARY = [
    ("Sqrt", 0.0, 4.0, np.sqrt), ("Exp", -4.0, 4.0, np.exp), ("Log", 0.01, 9.0, np.log),
    ("Tanh", -3.0, 3.0, np.tanh), ("Sin", -6.0, 6.0, np.sin), ("Cos", -6.0, 6.0, np.cos),
    ("Tan", -1.4, 1.4, np.tan), ("Asin", -0.99, 0.99, np.arcsin),
    ("Acos", -0.99, 0.99, np.arccos), ("Atan", -9.0, 9.0, np.arctan),
    ("Sinh", -3.0, 3.0, np.sinh), ("Cosh", -3.0, 3.0, np.cosh),
    ("Asinh", -9.0, 9.0, np.arcsinh), ("Acosh", 1.0, 9.0, np.arccosh),
    ("Atanh", -0.99, 0.99, np.arctanh), ("Erf", -3.0, 3.0, erf),
    ("Floor", -5.0, 5.0, np.floor), ("Ceil", -5.0, 5.0, np.ceil),
    ("Sigmoid", -8.0, 8.0, lambda x: 1 / (1 + np.exp(-x))),
    ("Relu", -3.0, 3.0, lambda x: np.maximum(x, 0)),
    ("Softplus", -30.0, 30.0, lambda x: np.log1p(np.exp(x))),
    ("Softsign", -5.0, 5.0, lambda x: x / (1 + np.abs(x))),
]
unary = make_model(
    [helper.make_node(op, [op.lower() + "_in"], [op.lower()]) for op, _, _, _ in UNARY],
    [tensor_info(op.lower() + "_in", np.float32, ["batch", 3]) for op, _, _, _ in UNARY],
    [tensor_info(op.lower(), np.float32, ["batch", 3]) for op, _, _, _ in UNARY])


def unary_run(batch):
    return {op.lower() + "_in": rng.uniform(low, high, (batch, 3)).astype(np.float32)
            for op, low, high, _ in UNARY}


def unary_reference(**inputs):
    return tuple(ref(inputs[op.lower() + "_in"].astype(np.float64)).astype(np.float32)
                 for op, _, _, ref in UNARY)


check_model("unary math", unary, [unary_run(2), unary_run(33)], unary_reference,
            rtol=1e-4, atol=1e-5)
# CHECK: ok: unary math

# Round halves to even, as NumPy.
check_node("Round", {"x": np.float32([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.4, -0.6])},
           lambda x: np.round(x))
# CHECK: ok: Round

x = rng.uniform(-4, 4, (3, 5)).astype(np.float32)
x[0, :3] = 0


def elu(x, alpha):
    return np.where(x < 0, alpha * (np.exp(x) - 1), x)


def hard_sigmoid(x, alpha, beta):
    return np.clip(alpha * x + beta, 0, 1)


# (name, op, attributes, reference): defaults first, then given values.
ACTIVATIONS = [
    ("LeakyRelu", "LeakyRelu", {}, lambda x: np.where(x < 0, 0.01 * x, x)),
    ("LeakyRelu alpha", "LeakyRelu", {"alpha": 0.3}, lambda x: np.where(x < 0, 0.3 * x, x)),
    ("Elu", "Elu", {}, lambda x: elu(x, 1.0)),
    ("Elu alpha", "Elu", {"alpha": 0.5}, lambda x: elu(x, 0.5)),
    ("Selu", "Selu", {}, lambda x: 1.0507009873554805 * elu(x, 1.6732632423543772)),
    ("Selu alpha gamma", "Selu", {"alpha": 2.0, "gamma": 3.0}, lambda x: 3.0 * elu(x, 2.0)),
    ("Celu", "Celu", {}, lambda x: elu(x, 1.0)),
    ("Celu alpha", "Celu", {"alpha": 2.0},
     lambda x: np.maximum(0, x) + np.minimum(0, 2.0 * (np.exp(x / 2.0) - 1))),
    ("HardSigmoid", "HardSigmoid", {}, lambda x: hard_sigmoid(x, 0.2, 0.5)),
    ("HardSigmoid alpha beta", "HardSigmoid", {"alpha": 0.5, "beta": 0.6},
     lambda x: hard_sigmoid(x, 0.5, 0.6)),
    ("HardSwish", "HardSwish", {}, lambda x: x * hard_sigmoid(x, 1 / 6, 0.5)),
    ("ThresholdedRelu", "ThresholdedRelu", {}, lambda x: np.where(x > 1.0, x, 0)),
    ("ThresholdedRelu alpha", "ThresholdedRelu", {"alpha": -0.5},
     lambda x: np.where(x > -0.5, x, 0)),
    ("Shrink", "Shrink", {}, lambda x: np.where(x < -0.5, x, np.where(x > 0.5, x, 0))),
    ("Shrink bias lambd", "Shrink", {"bias": 1.5, "lambd": 1.0},
     lambda x: np.where(x < -1.0, x + 1.5, np.where(x > 1.0, x - 1.5, 0))),
]
for name, op, attrs, reference in ACTIVATIONS:
    check_node(op, {"x": x}, lambda x, reference=reference: reference(x).astype(np.float32),
               attrs=attrs, name=name, opset=14, rtol=1e-5, atol=1e-6)
# CHECK: ok: LeakyRelu
# CHECK: ok: LeakyRelu alpha
# CHECK: ok: Elu
# CHECK: ok: Elu alpha
# CHECK: ok: Selu
# CHECK: ok: Selu alpha gamma
# CHECK: ok: Celu
# CHECK: ok: Celu alpha
# CHECK: ok: HardSigmoid
# CHECK: ok: HardSigmoid alpha beta
# CHECK: ok: HardSwish
# CHECK: ok: ThresholdedRelu
# CHECK: ok: ThresholdedRelu alpha
# CHECK: ok: Shrink
# CHECK: ok: Shrink bias lambd

# Shrink on integers: the strict comparisons hold with lambd truncated.
check_node("Shrink", {"x": np.int32([-4, -2, -1, 0, 1, 2, 4])},
           lambda x: np.where(x < -1.5, x + 1, np.where(x > 1.5, x - 1, 0)).astype(np.int32),
           attrs={"bias": 1.0, "lambd": 1.5}, name="Shrink int32")
# CHECK: ok: Shrink int32
# A lambd past int32's range (found by fuzz_onnx: its conversion to an int32 constant was
# undefined behaviour) saturates, so no element is beyond it.
ints = np.int32([-9, -1, 0, 1, 5, 2147483647, -2147483648])
check_node("Shrink", {"x": ints}, lambda x: np.zeros_like(x),
           attrs={"bias": 1.0, "lambd": 7.2443e22}, name="Shrink int32 huge lambd")
# CHECK: ok: Shrink int32 huge lambd
# A lambd just below int32's largest value (a float32 attribute: 2^31 - 128) still
# shrinks everything but the extremes.
check_node("Shrink", {"x": ints}, lambda x: np.where(x < -2147483520, x + 1,
                                                     np.where(x > 2147483520, x - 1, 0)
                                                     ).astype(np.int32),
           attrs={"bias": 1.0, "lambd": 2147483520.0}, name="Shrink int32 lambd near the limit")
# CHECK: ok: Shrink int32 lambd near the limit

# PRelu: the slope broadcasts to x, per channel (C, 1, 1) or a single one.
image = rng.uniform(-2, 2, (2, 3, 4, 4)).astype(np.float32)
slope = np.float32([0.1, 0.2, 0.3]).reshape(3, 1, 1)
check_node("PRelu", {"x": image, "slope": slope}, lambda x, slope: np.where(x < 0, x * slope, x),
           constants={"slope"}, name="PRelu per channel")
# CHECK: ok: PRelu per channel
check_node("PRelu", {"x": image, "slope": np.float32([0.25])},
           lambda x, slope: np.where(x < 0, x * slope, x), name="PRelu one slope")
# CHECK: ok: PRelu one slope

# float64 (Vulkan composes float64 exp, log and tanh from double arithmetic, to double
# precision; its trigonometry is float32 only).
d = rng.uniform(0.1, 3, (4, 2))
check_node("Exp", {"x": d * 200 - 300}, lambda x: np.exp(x), name="float64 Exp", rtol=1e-14,
           atol=0)
# CHECK: ok: float64 Exp
check_node("Log", {"x": d ** 40}, lambda x: np.log(x), name="float64 Log", rtol=1e-14, atol=0)
# CHECK: ok: float64 Log
check_node("Tanh", {"x": d * 4 - 6}, lambda x: np.tanh(x), name="float64 Tanh", rtol=1e-14,
           atol=0)
# CHECK: ok: float64 Tanh
check_node("Sqrt", {"x": d}, lambda x: np.sqrt(x), name="float64 Sqrt")
# CHECK: ok: float64 Sqrt
check_node("LeakyRelu", {"x": d - 1.5}, lambda x: np.where(x < 0, 0.01 * x, x),
           name="float64 LeakyRelu")
# CHECK: ok: float64 LeakyRelu
