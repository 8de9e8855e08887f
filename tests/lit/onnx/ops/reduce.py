# ONNX reductions: the ten Reduce* operators with axes as an attribute (opset 11) and
# ReduceSum's axes as an input (opset 13: constant, absent, noop_with_empty_axes),
# keepdims, negative axes, a symbolic batch; ArgMax / ArgMin (keepdims,
# select_last_index); TopK (largest, smallest, K an input or, before opset 10, the
# attribute); CumSum (exclusive, reverse, a negative axis); run through relaxc on
# lavapipe against NumPy; and the refusals.
#
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx import helper, TensorProto
from onnx_check import check_model, check_node, expect_error, make_model, tensor_info

rng = np.random.default_rng(0)


def rand(*shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


def f32(v):
    return np.asarray(v, np.float32)


# Every Reduce* in one model (one build, one run per batch size), over a symbolic batch.
references = {
    "ReduceSum": lambda x, a, k: x.sum(a, keepdims=k),
    "ReduceMean": lambda x, a, k: x.mean(a, keepdims=k),
    "ReduceMax": lambda x, a, k: x.max(a, keepdims=k),
    "ReduceMin": lambda x, a, k: x.min(a, keepdims=k),
    "ReduceProd": lambda x, a, k: x.prod(a, keepdims=k),
    "ReduceL1": lambda x, a, k: np.abs(x).sum(a, keepdims=k),
    "ReduceL2": lambda x, a, k: np.sqrt((x * x).sum(a, keepdims=k)),
    "ReduceLogSum": lambda x, a, k: np.log(x.sum(a, keepdims=k)),
    "ReduceLogSumExp": lambda x, a, k: np.log(np.exp(x.astype(np.float64)).sum(a, keepdims=k)),
    "ReduceSumSquare": lambda x, a, k: (x * x).sum(a, keepdims=k),
}
# (axes attribute or None for all, keepdims) per operator, varied across them.
variants = [([1], 1), ([-1], 0), (None, 1), ([0, 2], 0), ([1, 2], 1),
            (None, 0), ([2], 1), ([-3, 1], 1), ([1], 0), ([-2], 0)]
nodes, outputs = [], []
for (op, _), (axes, keep) in zip(references.items(), variants):
    attrs = {"keepdims": keep}
    if axes is not None:
        attrs["axes"] = axes
    nodes.append(helper.make_node(op, ["x"], [op], **attrs))
    rank = 3 if keep else 3 - (3 if axes is None else len(axes))
    outputs.append(tensor_info(op, np.float32, [None] * rank))
model = make_model(nodes, [tensor_info("x", np.float32, ["n", 3, 4])], outputs, opset=11)


def reduce_all(x):
    results = []
    for (op, f), (axes, keep) in zip(references.items(), variants):
        a = None if axes is None else tuple(axes)
        results.append(f32(f(x, a, bool(keep))))
    return tuple(results)


check_model("reduce_all_ops_opset11", model,
            [{"x": rand(1, 3, 4, lo=0.5, hi=1.5)}, {"x": rand(2, 3, 4, lo=0.5, hi=1.5)}],
            reduce_all, atol=1e-4, rtol=1e-4)
# CHECK: ok: reduce_all_ops_opset11

# ReduceSum from opset 13: axes as an input, absent, or empty with noop_with_empty_axes.
x = rand(2, 3, 4)
check_node("ReduceSum", {"x": x, "axes": np.int64([-1, 0])},
           lambda x, axes: x.sum((2, 0), keepdims=False), attrs={"keepdims": 0},
           constants={"axes"}, name="reducesum_axes_input")
# CHECK: ok: reducesum_axes_input
check_node("ReduceSum", {"x": x}, lambda x: x.sum(keepdims=True), name="reducesum_no_axes")
# CHECK: ok: reducesum_no_axes
check_node("ReduceSum", {"x": x, "axes": np.zeros(0, np.int64)}, lambda x, axes: x,
           attrs={"noop_with_empty_axes": 1}, constants={"axes"}, name="reducesum_noop")
# CHECK: ok: reducesum_noop
check_node("ReduceMax", {"x": np.int32(rng.integers(-9, 9, (3, 4)))},
           lambda x: x.max(1, keepdims=True), attrs={"axes": [1]}, name="reducemax_int32")
# CHECK: ok: reducemax_int32

# ArgMax / ArgMin, with ties (integers in a small range).
xi = np.float32(rng.integers(0, 3, (3, 5)))
nodes = [helper.make_node("ArgMax", ["x"], ["amax"], axis=1),
         helper.make_node("ArgMin", ["x"], ["amin"], axis=0, keepdims=0),
         helper.make_node("ArgMax", ["x"], ["amax_last"], axis=-1, keepdims=0,
                          select_last_index=1),
         helper.make_node("ArgMin", ["x"], ["amin_last"], axis=0, select_last_index=1)]
outputs = [tensor_info("amax", np.int64, [3, 1]), tensor_info("amin", np.int64, [5]),
           tensor_info("amax_last", np.int64, [3]), tensor_info("amin_last", np.int64, [1, 5])]
check_model("argmax_argmin", make_model(nodes, [tensor_info("x", np.float32, [3, 5])], outputs),
            {"x": xi},
            lambda x: (x.argmax(1)[:, None], x.argmin(0), 4 - x[:, ::-1].argmax(1),
                       (2 - x[::-1].argmin(0))[None]))
# CHECK: ok: argmax_argmin

# TopK: ties resolved by the lower index first.
xt = np.float32(rng.integers(0, 6, (3, 6)))


def topk(x, k, axis, largest):
    order = np.argsort(-x if largest else x, axis=axis, kind="stable")
    indices = np.take(order, np.arange(k), axis=axis)
    return np.take_along_axis(x, indices, axis), indices.astype(np.int64)


check_node("TopK", {"x": xt, "k": np.int64([3])}, lambda x, k: topk(x, 3, -1, True),
           outputs=("values", "indices"), constants={"k"}, name="topk_largest")
# CHECK: ok: topk_largest
check_node("TopK", {"x": xt, "k": np.int64([2])}, lambda x, k: topk(x, 2, 0, False),
           attrs={"axis": 0, "largest": 0, "sorted": 1}, outputs=("values", "indices"),
           constants={"k"}, name="topk_smallest_axis0")
# CHECK: ok: topk_smallest_axis0
check_node("TopK", {"x": xt}, lambda x: topk(x, 4, 1, True), attrs={"k": 4},
           outputs=("values", "indices"), opset=9, name="topk_attribute_opset9")
# CHECK: ok: topk_attribute_opset9

# CumSum.
xc = rand(2, 3, 4)


def cumsum(x, axis, exclusive=False, reverse=False):
    if reverse:
        x = np.flip(x, axis)
    y = np.cumsum(x, axis)
    if exclusive:
        y = y - x
    return np.flip(y, axis) if reverse else y


check_node("CumSum", {"x": xc, "axis": np.int64(1)}, lambda x, axis: cumsum(x, 1),
           constants={"axis"}, name="cumsum")
# CHECK: ok: cumsum
check_node("CumSum", {"x": xc, "axis": np.int32(-1)},
           lambda x, axis: cumsum(x, 2, exclusive=True, reverse=True),
           attrs={"exclusive": 1, "reverse": 1}, constants={"axis"},
           name="cumsum_exclusive_reverse")
# CHECK: ok: cumsum_exclusive_reverse
check_node("CumSum", {"x": np.int32(rng.integers(-5, 5, (4, 3))), "axis": np.int64(0)},
           lambda x, axis: cumsum(x, 0, reverse=True).astype(np.int32), attrs={"reverse": 1}, constants={"axis"},
           name="cumsum_int32_reverse")
# CHECK: ok: cumsum_int32_reverse

# The axis given at run time: the scan along every axis, the value picking one.
model = make_model([helper.make_node("CumSum", ["x", "axis"], ["y"], exclusive=1)],
                   [tensor_info("x", np.float32, [2, 3, 4]), tensor_info("axis", np.int32, [])],
                   [tensor_info("y", np.float32, [2, 3, 4])])
check_model("cumsum_runtime_axis", model,
            [{"x": xc, "axis": np.int32(1)}, {"x": xc, "axis": np.int32(-3)},
             {"x": xc, "axis": np.int32(2)}],
            [cumsum(xc, 1, exclusive=True), cumsum(xc, 0, exclusive=True),
             cumsum(xc, 2, exclusive=True)])
# CHECK: ok: cumsum_runtime_axis

# Refusals.
model = make_model([helper.make_node("ReduceL2", ["x"], ["y"], name="l2")],
                   [tensor_info("x", np.int32, [2, 3])], [tensor_info("y", np.int32, [1, 1])])
expect_error("reducel2_int", model, [np.int32([[1, 2, 3], [4, 5, 6]])],
             "is not supported: this reduction is computed in floating point")
# CHECK: ok: reducel2_int
# CHECK-NEXT: error: {{.*}}'l2' (ReduceL2, opset 13){{.*}}input 0 'data' of type int32 is not supported
model = make_model([helper.make_node("ArgMax", ["x"], ["y"], name="am", axis=0,
                                     select_last_index=1)],
                   [tensor_info("x", np.float32, ["n", 3])], [tensor_info("y", np.int64, [1, 3])])
expect_error("argmax_last_symbolic", model, [rand(2, 3)], "select_last_index")
# CHECK: ok: argmax_last_symbolic
# CHECK-NEXT: error: {{.*}}'am' (ArgMax, opset 13){{.*}}'select_last_index' = 1 needs a static size of the reduced axis; dimension 0 of input 0 'data' is symbolic
