# The ONNX arithmetic operators (Add, Sub, Mul, Div, Pow, Mod, BitShift, Neg, Abs, Sign,
# Reciprocal, and the variadic Sum, Mean, Max, Min) with NumPy broadcasting over a
# dim_param batch, on float and integer dtypes, run on lavapipe against NumPy.
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx import helper
from onnx_check import check_model, check_node, make_model, tensor_info

rng = np.random.default_rng(1501)


def node(op, inputs, output, **attrs):
    return helper.make_node(op, inputs, [output], **attrs)


def outputs(dtype, rank, names):
    """Graph outputs of `dtype` and `rank`, their dims left to the importer."""
    return [tensor_info(name, dtype, [None] * rank) for name in names]


# Float32: y broadcasts along the batch, z is a column; p is positive for Pow.
floats = make_model(
    [node("Add", ["x", "y"], "add"), node("Sub", ["x", "y"], "sub"),
     node("Mul", ["x", "z"], "mul"), node("Div", ["x", "y"], "div"),
     node("Pow", ["p", "y"], "pow"), node("Mod", ["x", "y"], "fmod", fmod=1),
     node("Sum", ["x", "y", "z"], "sum"), node("Mean", ["x", "y", "z"], "mean"),
     node("Max", ["x", "y", "z"], "max"), node("Min", ["x", "z"], "min"),
     node("Sum", ["x"], "sum1"), node("Neg", ["x"], "neg"), node("Abs", ["x"], "abs"),
     node("Sign", ["x"], "sign"), node("Reciprocal", ["y"], "reciprocal")],
    [tensor_info("x", np.float32, ["batch", 4]), tensor_info("y", np.float32, [4]),
     tensor_info("z", np.float32, ["batch", 1]), tensor_info("p", np.float32, ["batch", 4])],
    outputs(np.float32, 2, ("add", "sub", "mul", "div", "pow", "fmod", "sum", "mean", "max",
                            "min", "sum1", "neg", "abs", "sign")) +
    outputs(np.float32, 1, ("reciprocal",)))


def float_runs(batch):
    return {"x": rng.uniform(-3, 3, (batch, 4)).astype(np.float32),
            "y": rng.uniform(0.5, 2, 4).astype(np.float32) * np.float32([1, -1, 1, -1]),
            "z": rng.uniform(-3, 3, (batch, 1)).astype(np.float32),
            "p": rng.uniform(0.1, 3, (batch, 4)).astype(np.float32)}


check_model("float32 arithmetic", floats, [float_runs(1), float_runs(37)],
            lambda x, y, z, p: (x + y, x - y, x * z, x / y, np.power(p, y), np.fmod(x, y),
                                x + y + z, (x + y + z) / 3, np.maximum(np.maximum(x, y), z),
                                np.minimum(x, z), x, -x, np.abs(x), np.sign(x), 1 / y))
# CHECK: ok: float32 arithmetic

# Int32: Div truncates toward zero; Mod with fmod=0 takes the divisor's sign (NumPy's
# mod), with fmod=1 the dividend's (C's fmod); Pow of integers is exact.
ints = make_model(
    [node("Div", ["i", "j"], "div"), node("Mod", ["i", "j"], "mod"),
     node("Mod", ["i", "j"], "fmod", fmod=1), node("Pow", ["i", "k"], "pow"),
     node("Max", ["i", "j"], "max"), node("Min", ["i", "j"], "min"),
     node("Sum", ["i", "j", "i"], "sum"), node("Mul", ["i", "j"], "mul"),
     node("Neg", ["i"], "neg"), node("Abs", ["i"], "abs"), node("Sign", ["i"], "sign")],
    [tensor_info("i", np.int32, ["n", 4]), tensor_info("j", np.int32, [4]),
     tensor_info("k", np.int32, ["n", 1])],
    outputs(np.int32, 2, ("div", "mod", "fmod", "pow", "max", "min", "sum", "mul", "neg", "abs",
                          "sign")))


def int_runs(n):
    return {"i": rng.integers(-9, 10, (n, 4)).astype(np.int32), "j": np.int32([3, -4, 2, -1]),
            "k": rng.integers(0, 4, (n, 1)).astype(np.int32)}


check_model("int32 arithmetic", ints, [int_runs(2), int_runs(65)],
            lambda i, j, k: (np.fix(i / j).astype(np.int32), np.mod(i, j), np.fmod(i, j),
                             np.power(i, k), np.maximum(i, j), np.minimum(i, j), i + j + i,
                             i * j, -i, np.abs(i), np.sign(i)))
# CHECK: ok: int32 arithmetic

# Other dtypes: int64, uint8 (wrapping), float64, int8.
a64 = rng.integers(-1000, 1000, (3, 5)).astype(np.int64)
check_node("Sub", {"a": a64, "b": a64[:1] * 7}, lambda a, b: a - b, name="int64 Sub")
# CHECK: ok: int64 Sub
u8 = rng.integers(0, 256, (2, 6)).astype(np.uint8)
check_node("Add", {"a": u8, "b": np.uint8([200])}, lambda a, b: a + b, name="uint8 Add wraps")
# CHECK: ok: uint8 Add wraps
f64 = rng.standard_normal((4, 3))
check_node("Mul", {"a": f64, "b": f64[:, :1]}, lambda a, b: a * b, name="float64 Mul")
# CHECK: ok: float64 Mul
i8 = rng.integers(-100, 100, (7,)).astype(np.int8)
check_node("Div", {"a": i8, "b": np.int8(-3)}, lambda a, b: np.fix(a / b).astype(np.int8),
           name="int8 Div by a scalar")
# CHECK: ok: int8 Div by a scalar

# Pow with an exponent of another dtype (opset 12 on): the result has the base's dtype.
base = np.float32([[0.5, 1, 2, 3]])
check_node("Pow", {"x": base, "e": np.int64([3, 2, 5, 4])},
           lambda x, e: np.power(x, e.astype(np.float32)), name="Pow float32 ** int64")
# CHECK: ok: Pow float32 ** int64
check_node("Pow", {"x": np.int32([1, 2, 3, 9]), "e": np.float32([4, 5, 6, 0.5])},
           lambda x, e: np.power(x, e).astype(np.int32), name="Pow int32 ** float32")
# CHECK: ok: Pow int32 ** float32

# Pow of negative bases (x ** 2 and x ** 3 in exported LayerNorm and GELU): whole
# exponents give signed results.
signed = rng.uniform(-3, 3, (5, 3)).astype(np.float32)
check_node("Pow", {"x": signed, "e": np.float32([2, 3, -1])}, lambda x, e: np.power(x, e),
           name="Pow of negative bases")
# CHECK: ok: Pow of negative bases

# BitShift on unsigned integers, the shift amounts broadcasting.
shifted = rng.integers(0, 1 << 16, (3, 4)).astype(np.uint32)
amounts = np.uint32([0, 1, 7, 15])
check_node("BitShift", {"x": shifted, "s": amounts}, lambda x, s: x << s,
           attrs={"direction": "LEFT"}, name="BitShift LEFT uint32")
# CHECK: ok: BitShift LEFT uint32
check_node("BitShift", {"x": shifted.astype(np.uint8), "s": np.uint8([1])},
           lambda x, s: x >> s, attrs={"direction": "RIGHT"}, name="BitShift RIGHT uint8")
# CHECK: ok: BitShift RIGHT uint8

# An initializer operand (a constant of the graph) broadcasting against an input.
check_node("Add", {"x": f64.astype(np.float32), "c": np.float32([1, 2, 3])},
           lambda x, c: x + c, constants={"c"}, name="Add of an initializer")
# CHECK: ok: Add of an initializer

# QuantizeLinear (round halves to even, saturate to the zero point's type, uint8 without
# one) and DequantizeLinear, per tensor and per channel (axis 1 of NCHW, axis -1).
real = np.float32([-300, -2.5, -1.5, 0, 0.5, 1.5, 2.5, 127, 300]).reshape(1, 9)
check_node("QuantizeLinear", {"x": real, "s": np.float32(1), "z": np.int8(-1)},
           lambda x, s, z: np.clip(np.round(x / s) + z, -128, 127).astype(np.int8),
           name="QuantizeLinear int8")
# CHECK: ok: QuantizeLinear int8
check_node("QuantizeLinear", {"x": real, "s": np.float32(2)},
           lambda x, s: np.clip(np.round(x / s), 0, 255).astype(np.uint8),
           name="QuantizeLinear uint8 without zero point")
# CHECK: ok: QuantizeLinear uint8 without zero point
nchw = rng.uniform(-50, 50, (2, 3, 2, 2)).astype(np.float32)
scales, points = np.float32([0.5, 1, 2]), np.uint8([0, 128, 10])
per_channel = (slice(None), None, None)
check_node("QuantizeLinear", {"x": nchw, "s": scales, "z": points},
           lambda x, s, z: np.clip(np.round(x / s[per_channel]) + z[per_channel], 0,
                                   255).astype(np.uint8), name="QuantizeLinear per channel")
# CHECK: ok: QuantizeLinear per channel
codes = rng.integers(0, 256, (2, 3, 2, 2)).astype(np.uint8)
check_node("DequantizeLinear", {"x": codes, "s": scales, "z": points},
           lambda x, s, z: ((x.astype(np.int32) - z[per_channel]) * s[per_channel]).astype(
               np.float32), name="DequantizeLinear per channel")
# CHECK: ok: DequantizeLinear per channel
check_node("DequantizeLinear", {"x": codes.astype(np.int8), "s": np.float32([0.5, 0.25])},
           lambda x, s: (x.astype(np.float32) * s), attrs={"axis": -1},
           name="DequantizeLinear int8 axis -1")
# CHECK: ok: DequantizeLinear int8 axis -1

# DynamicQuantizeLinear: the range of x widened to hold 0 gives the scale and the zero
# point; x / scale is rounded (halves to even) before the zero point is added.


def dynamic_quantize(x):
    low, high = min(0.0, float(x.min())), max(0.0, float(x.max()))
    scale = np.float32((high - low) / 255)
    point = np.clip(np.round(-low / scale), 0, 255)
    y = np.clip(np.round(x / scale) + point, 0, 255)
    return y.astype(np.uint8), scale, np.uint8(point)


dynamic = make_model([helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "scale", "point"])],
                     [tensor_info("x", np.float32, ["n", 3])],
                     [tensor_info("y", np.uint8, ["n", 3]), tensor_info("scale", np.float32, []),
                      tensor_info("point", np.uint8, [])], opset=11)
check_model("DynamicQuantizeLinear", dynamic,
            [{"x": rng.uniform(-4, 9, (5, 3)).astype(np.float32)},
             {"x": rng.uniform(1, 2, (2, 3)).astype(np.float32)}], dynamic_quantize)
# CHECK: ok: DynamicQuantizeLinear
