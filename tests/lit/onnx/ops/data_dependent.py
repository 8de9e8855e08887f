# The operators whose output shape depends on the data: NonZero, Compress and Unique.
# Each becomes R.nonzero or R.unique (computed by the VM on the host) and an R.match_cast
# that binds the unknown dims to shape variables named after the node's output, so the
# nodes after it compute on symbolic shapes: each model is built once and run on
# inputs with different counts, compared with NumPy (ONNX's reference is NumPy's
# nonzero, compress and unique).
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL
# RUN: %relaxc import %t/nonzero_chain.onnx | FileCheck %s --check-prefix=IMPORT
# IMPORT: R.nonzero(x)
# IMPORT: R.match_cast({{.*}}, R.Tensor((2, nz_count), dtype="int64"))
# IMPORT: R.Tensor((2, nz_count), dtype="float32") = R.add(

import numpy as np
from onnx import helper
from onnx_check import check_model, check_node, expect_error, make_model, tensor_info, write

rng = np.random.default_rng(21)
ints = lambda shape: rng.integers(-2, 3, size=shape).astype(np.int32)


def nonzero(x):
    return np.stack(np.nonzero(np.atleast_1d(x))).astype(np.int64)


# NonZero, of floats, ints and bools, with none and all elements nonzero.
# CHECK: ok: NonZero
check_node("NonZero", {"x": rng.standard_normal((3, 4)).astype(np.float32) * (ints((3, 4)) > 0)},
           nonzero)
# CHECK: ok: nonzero of bools, none true
check_node("NonZero", {"x": np.zeros((2, 5), bool)}, nonzero, name="nonzero of bools, none true")
# CHECK: ok: nonzero of int64, all nonzero
check_node("NonZero", {"x": np.arange(1, 7, dtype=np.int64).reshape(1, 2, 3)}, nonzero,
           name="nonzero of int64, all nonzero")

# The count is a shape variable the next node computes on: one build, three counts.
# CHECK: ok: nonzero chain
chain = make_model(
    [helper.make_node("NonZero", ["x"], ["nz"], name="nonzero"),
     helper.make_node("Cast", ["nz"], ["f"], to=1),
     helper.make_node("Add", ["f", "f"], ["y"])],
    [tensor_info("x", np.float32, [3, 4])], [tensor_info("y", np.float32, [2, None])])
write(chain, "nonzero_chain.onnx")
runs = [[ints((3, 4)).astype(np.float32)] for _ in range(2)] + [[np.zeros((3, 4), np.float32)]]
check_model("nonzero chain", chain, runs, lambda x: 2 * nonzero(x).astype(np.float32))

# Compress: along an axis (a condition shorter than the axis drops the rest) and of the
# flattened input; a dynamic batch.
# CHECK: ok: compress axis 1
data = rng.standard_normal((3, 5)).astype(np.float32)
check_node("Compress", {"x": data, "c": np.array([True, False, True, True])},
           lambda x, c: np.compress(c, x, axis=1), attrs={"axis": 1}, name="compress axis 1")
# CHECK: ok: compress negative axis
check_node("Compress", {"x": data, "c": np.array([False, True, True])},
           lambda x, c: np.compress(c, x, axis=0), attrs={"axis": -2},
           name="compress negative axis")
# CHECK: ok: compress flattened
check_node("Compress", {"x": data, "c": ints(15) > 0}, lambda x, c: np.compress(c, x),
           name="compress flattened")
# CHECK: ok: compress dynamic
compress = make_model([helper.make_node("Compress", ["x", "c"], ["y"], axis=0)],
                      [tensor_info("x", np.float32, ["n", 2]), tensor_info("c", bool, ["m"])],
                      [tensor_info("y", np.float32, [None, 2])])
x6 = rng.standard_normal((6, 2)).astype(np.float32)
check_model("compress dynamic", compress,
            [[x6, np.array([True, False, True, True, False, True])], [x6[:4], np.array([True])]],
            lambda x, c: np.compress(c, x, axis=0))
# A condition longer than the axis is invalid (known when both lengths are).
# CHECK: ok: compress condition too long
# CHECK-NEXT: error: {{.*}}node #0 (Compress, opset 13): invalid: input 1 'condition' has 4 entries; the input has 3 along axis 0
too_long = make_model([helper.make_node("Compress", ["x", "c"], ["y"], axis=0)],
                      [tensor_info("x", np.float32, [3, 2]), tensor_info("c", bool, [4])],
                      [tensor_info("y", np.float32, [None, 2])])
expect_error("compress condition too long", too_long, [], "has 4 entries", command="build")


# Unique: every output, sorted and in order of first occurrence, flattened and along an
# axis (ONNX's reference: NumPy's unique, reordered by first occurrence for sorted=0).
def unique(x, sorted=1, axis=None):
    values, index, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                               return_counts=True, axis=axis)
    if not sorted:
        order = np.argsort(index)
        position = np.empty_like(order)
        position[order] = np.arange(len(order))
        values = np.take(values, order, axis=0 if axis is None else axis)
        index, counts, inverse = index[order], counts[order], position[inverse]
    return values, index.astype(np.int64), inverse.reshape(-1).astype(np.int64), \
        counts.astype(np.int64)


outputs = ("y", "indices", "inverse_indices", "counts")
# CHECK: ok: unique sorted
check_node("Unique", {"x": ints((4, 5))}, unique, outputs=outputs, opset=11,
           name="unique sorted")
# CHECK: ok: unique not sorted
check_node("Unique", {"x": rng.integers(0, 5, size=9).astype(np.float32)},
           lambda x: unique(x, sorted=0), attrs={"sorted": 0}, outputs=outputs, opset=11,
           name="unique not sorted")
# CHECK: ok: unique axis
rows = np.array([[1, 0, 1], [2, 2, 2], [1, 0, 1], [0, 5, 1]], np.int64)
check_node("Unique", {"x": rows}, lambda x: unique(x, axis=0), attrs={"axis": 0},
           outputs=outputs, opset=11, name="unique axis")
# CHECK: ok: unique axis not sorted
check_node("Unique", {"x": rows.T.copy()}, lambda x: unique(x, sorted=0, axis=-1),
           attrs={"axis": -1, "sorted": 0}, outputs=outputs, opset=11,
           name="unique axis not sorted")
# CHECK: ok: unique sorted 2
# CHECK-NEXT: error: {{.*}}node #0 (Unique, opset 11): invalid: attribute 'sorted' is 2, expected 0 or 1
bad_sorted = make_model([helper.make_node("Unique", ["x"], ["y"], sorted=2)],
                        [tensor_info("x", np.float32, [4])], [tensor_info("y", np.float32, [None])],
                        opset=11)
expect_error("unique sorted 2", bad_sorted, [], "expected 0 or 1", command="build")
