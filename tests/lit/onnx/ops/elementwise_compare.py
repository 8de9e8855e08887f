# The ONNX comparisons and logic (bool results, NumPy broadcasting), Where, Clip before
# and after opset 11, IsNaN and IsInf, and Cast / CastLike with ONNX's conversions, run
# on lavapipe against NumPy.
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx import helper, TensorProto
from onnx_check import check_model, check_node, make_model, tensor_info

rng = np.random.default_rng(1503)


def node(op, inputs, output, **attrs):
    return helper.make_node(op, inputs, [output], **attrs)


# Comparisons of int32 and float32 with broadcasting, logic on their results, Where.
compare = make_model(
    [node("Equal", ["i", "j"], "eq"), node("Less", ["i", "j"], "lt"),
     node("Greater", ["x", "y"], "gt"), node("LessOrEqual", ["x", "y"], "le"),
     node("GreaterOrEqual", ["i", "j"], "ge"), node("And", ["eq", "gt"], "and"),
     node("Or", ["lt", "gt"], "or"), node("Xor", ["le", "ge"], "xor"),
     node("Not", ["gt"], "not"), node("Where", ["gt", "x", "y"], "where")],
    [tensor_info("i", np.int32, ["n", 3]), tensor_info("j", np.int32, [3]),
     tensor_info("x", np.float32, ["n", 3]), tensor_info("y", np.float32, ["n", 1])],
    [tensor_info(name, np.bool_, ["n", 3])
     for name in ("eq", "lt", "gt", "le", "ge", "and", "or", "xor", "not")] +
    [tensor_info("where", np.float32, ["n", 3])], opset=16)


def compare_run(n):
    # Small integers, so that equal values occur.
    return {"i": rng.integers(-2, 3, (n, 3)).astype(np.int32), "j": np.int32([-1, 0, 1]),
            "x": rng.integers(-2, 3, (n, 3)).astype(np.float32),
            "y": rng.integers(-2, 3, (n, 1)).astype(np.float32)}


def compare_reference(i, j, x, y):
    eq, lt, gt, le, ge = i == j, i < j, x > y, x <= y, i >= j
    return eq, lt, gt, le, ge, eq & gt, lt | gt, le ^ ge, ~gt, np.where(gt, x, y)


check_model("comparisons and logic", compare, [compare_run(1), compare_run(40)],
            compare_reference)
# CHECK: ok: comparisons and logic

# Where with a condition that broadcasts against both branches, on int64.
check_node("Where", {"c": np.bool_([[True], [False]]), "a": np.int64([1, 2, 3]),
                     "b": np.int64(-7)}, lambda c, a, b: np.where(c, a, b),
           name="Where broadcasting int64")
# CHECK: ok: Where broadcasting int64

# Clip from opset 11: bounds are optional scalar inputs (an omitted one is no bound).
v = rng.uniform(-5, 5, (4, 6)).astype(np.float32)
lo, hi = np.float32(-1.5), np.float32(2.0)
check_node("Clip", {"x": v, "min": lo, "max": hi}, lambda x, min, max: np.clip(x, min, max),
           name="Clip both bounds")
# CHECK: ok: Clip both bounds
check_node("Clip", {"x": v, "min": lo}, lambda x, min: np.maximum(x, min), name="Clip min only")
# CHECK: ok: Clip min only
check_node("Clip", {"x": v, "": None, "max": hi}, lambda x, max: np.minimum(x, max),
           name="Clip max only")
# CHECK: ok: Clip max only
check_node("Clip", {"x": v}, lambda x: x, name="Clip unbounded")
# CHECK: ok: Clip unbounded
check_node("Clip", {"x": np.int32([-9, -3, 0, 4, 12]), "min": np.int32(-3), "max": np.int32(5)},
           lambda x, min, max: np.clip(x, min, max), constants={"min", "max"},
           name="Clip int32 constant bounds")
# CHECK: ok: Clip int32 constant bounds
# Before opset 11 the bounds are attributes.
check_node("Clip", {"x": v}, lambda x: np.clip(x, -0.5, 0.5), attrs={"min": -0.5, "max": 0.5},
           opset=10, name="Clip opset 10")
# CHECK: ok: Clip opset 10
check_node("Clip", {"x": v}, lambda x: np.maximum(x, 1.0), attrs={"min": 1.0}, opset=7,
           name="Clip opset 7 min only")
# CHECK: ok: Clip opset 7 min only

# IsNaN and IsInf (both signs, one sign, neither).
special = np.float32([1.0, np.inf, -np.inf, np.nan, -0.0, 3e38])
check_node("IsNaN", {"x": special}, lambda x: np.isnan(x))
# CHECK: ok: IsNaN
for positive, negative in ((1, 1), (1, 0), (0, 1), (0, 0)):
    check_node("IsInf", {"x": special},
               lambda x, p=positive, n=negative: (np.isposinf(x) & bool(p)) |
               (np.isneginf(x) & bool(n)),
               attrs={"detect_positive": positive, "detect_negative": negative},
               name=f"IsInf positive={positive} negative={negative}")
# CHECK: ok: IsInf positive=1 negative=1
# CHECK: ok: IsInf positive=1 negative=0
# CHECK: ok: IsInf positive=0 negative=1
# CHECK: ok: IsInf positive=0 negative=0

# Cast: floats to integers truncate toward zero; anything to bool is "nonzero"; bool to
# numbers is 0 / 1; int64 to float16 rounds.
f = np.float32([-2.7, -1.5, -0.2, 0.0, 0.2, 1.5, 2.7, 100.9])
CASTS = [
    ("float32 to int32", f, TensorProto.INT32, np.int32),
    ("float32 to int8", f, TensorProto.INT8, np.int8),
    ("float32 to bool", f, TensorProto.BOOL, np.bool_),
    ("int64 to bool", np.int64([0, 2, -1, 256]), TensorProto.BOOL, np.bool_),
    ("bool to float32", np.bool_([True, False, True]), TensorProto.FLOAT, np.float32),
    ("int64 to float16", np.int64([1, -2048, 3, 70000]), TensorProto.FLOAT16, np.float16),
    ("float32 to float64", f, TensorProto.DOUBLE, np.float64),
    ("uint8 to int64", np.uint8([0, 7, 255]), TensorProto.INT64, np.int64),
    ("int32 to int32", np.int32([5, -5]), TensorProto.INT32, np.int32),
]
for name, value, to, dtype in CASTS:
    check_node("Cast", {"x": value}, lambda x, dtype=dtype: x.astype(dtype), attrs={"to": to},
               name=f"Cast {name}")
# CHECK: ok: Cast float32 to int32
# CHECK: ok: Cast float32 to int8
# CHECK: ok: Cast float32 to bool
# CHECK: ok: Cast int64 to bool
# CHECK: ok: Cast bool to float32
# CHECK: ok: Cast int64 to float16
# CHECK: ok: Cast float32 to float64
# CHECK: ok: Cast uint8 to int64
# CHECK: ok: Cast int32 to int32

# CastLike takes the second input's element type (opset 15).
check_node("CastLike", {"x": f, "like": np.int16([0])}, lambda x, like: x.astype(np.int16),
           opset=15)
# CHECK: ok: CastLike
