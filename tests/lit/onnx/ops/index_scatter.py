# Scatter (opsets 9 and 10, ScatterElements' deprecated alias): along each axis, with
# negative axes, constant and graph-input indices, run through relaxc on lavapipe against
# NumPy; and the refusals (an axis out of range, Scatter in opset 11 by the checker).
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL

import numpy as np
from onnx import helper
from onnx_check import check_node, expect_error, make_model, tensor_info

rng = np.random.default_rng(0)
i64 = lambda v: np.asarray(v, np.int64)


def scatter(data, indices, updates, axis):
    """out[... indices[pos] (at `axis`) ...] = updates[pos], position by position."""
    out = data.copy()
    for pos in np.ndindex(indices.shape):
        target = list(pos)
        target[axis] = indices[pos]
        out[tuple(target)] = updates[pos]
    return out


data = rng.standard_normal((3, 4)).astype(np.float32)
updates = rng.standard_normal((2, 3)).astype(np.float32)
rows = i64([[1, 0, 2], [0, 2, 1]])
check_node("Scatter", {"d": data, "i": rows, "u": updates},
           lambda d, i, u: scatter(d, i, u, 0), opset=9, name="scatter_axis0_opset9")
# CHECK: ok: scatter_axis0_opset9
cols = i64([[3, 1, 0], [0, 2, 3]])
check_node("Scatter", {"d": data, "i": cols, "u": updates},
           lambda d, i, u: scatter(d, i, u, 1), attrs={"axis": 1}, opset=10,
           name="scatter_axis1_opset10")
# CHECK: ok: scatter_axis1_opset10
check_node("Scatter", {"d": data, "i": cols, "u": updates},
           lambda d, i, u: scatter(d, i, u, 1), attrs={"axis": -1}, opset=10,
           constants={"i"}, name="scatter_negative_axis_constant_indices")
# CHECK: ok: scatter_negative_axis_constant_indices
ints = rng.integers(-9, 9, (2, 3, 4)).astype(np.int32)
int_updates = rng.integers(-9, 9, (2, 1, 4)).astype(np.int32)
along_1 = i64([[[2, 0, 1, 2]], [[1, 1, 0, 2]]])
check_node("Scatter", {"d": ints, "i": along_1, "u": int_updates},
           lambda d, i, u: scatter(d, i, u, 1), attrs={"axis": 1}, opset=10,
           name="scatter_int32_rank3")
# CHECK: ok: scatter_int32_rank3


def scatter_model(opset, axis):
    node = helper.make_node("Scatter", ["d", "i", "u"], ["y"], name="scatter", axis=axis)
    return make_model([node], [tensor_info("d", np.float32, [3, 4]),
                               tensor_info("i", np.int64, [2, 3]),
                               tensor_info("u", np.float32, [2, 3])],
                      [tensor_info("y", np.float32, [3, 4])], opset=opset)


# CHECK: ok: scatter axis out of range
# CHECK-NEXT: error: {{.*}}: node 'scatter' (Scatter, opset 10): invalid: attribute 'axis' is 2; it must be in [-2, 2) for a tensor of rank 2
expect_error("scatter axis out of range", scatter_model(10, 2), [data, rows, updates],
             "attribute 'axis' is 2")
# CHECK: ok: scatter opset 11
# CHECK-NEXT: error: {{.*}}: the ONNX checker rejects the model: Op registered for Scatter is deprecated in domain_version of 11
expect_error("scatter opset 11", scatter_model(11, 0), [data, rows, updates],
             "deprecated in domain_version of 11")
