# ONNX Upsample (opsets 7 to 9), imported as Resize of opset 10: asymmetric coordinates,
# nearest rounding down; its scales an attribute at opsets 7 and 8 and an input at 9.
# Run through relaxc on lavapipe against NumPy; and the scales relaxc refuses.
#
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx import helper
from onnx_check import check_node, expect_error, make_model, tensor_info

rng = np.random.default_rng(9)
img = rng.standard_normal((1, 2, 3, 4)).astype(np.float32)


def linear_asymmetric(x, sh, sw):
    def axis_weights(n_in, scale):
        pos = np.arange(n_in * scale) / scale
        lo = np.floor(pos).astype(int)
        return lo, np.minimum(lo + 1, n_in - 1), (pos - lo).astype(np.float32)
    y0, y1, wy = axis_weights(x.shape[2], sh)
    x0, x1, wx = axis_weights(x.shape[3], sw)
    rows = x[:, :, y0] * (1 - wy)[:, None] + x[:, :, y1] * wy[:, None]
    return (rows[..., x0] * (1 - wx) + rows[..., x1] * wx).astype(np.float32)


for opset in (7, 8):
    check_node("Upsample", {"x": img}, lambda x: x.repeat(2, 2).repeat(3, 3),
               attrs={"scales": [1.0, 1.0, 2.0, 3.0]}, opset=opset,
               name=f"Upsample nearest opset {opset}")
    check_node("Upsample", {"x": img}, lambda x: linear_asymmetric(x, 3, 2),
               attrs={"scales": [1.0, 1.0, 3.0, 2.0], "mode": "linear"}, opset=opset,
               name=f"Upsample linear opset {opset}")
# CHECK: ok: Upsample nearest opset 7
# CHECK: ok: Upsample linear opset 7
# CHECK: ok: Upsample nearest opset 8
# CHECK: ok: Upsample linear opset 8
check_node("Upsample", {"x": img, "scales": np.float32([1, 1, 2, 3])},
           lambda x, scales: x.repeat(2, 2).repeat(3, 3), attrs={"mode": "nearest"},
           constants={"scales"}, opset=9, name="Upsample nearest opset 9")
# CHECK: ok: Upsample nearest opset 9
check_node("Upsample", {"x": img, "scales": np.float32([1, 1, 2, 2])},
           lambda x, scales: linear_asymmetric(x, 2, 2), attrs={"mode": "linear"},
           constants={"scales"}, opset=9, name="Upsample linear opset 9")
# CHECK: ok: Upsample linear opset 9


def upsample(scales, opset, mode="nearest"):
    attrs = {"mode": mode, "name": "up"}
    inputs = ["x"]
    initializers = {}
    if opset < 9:
        attrs["scales"] = scales
    else:
        inputs.append("scales")
        initializers["scales"] = np.float32(scales)
    return make_model([helper.make_node("Upsample", inputs, ["y"], **attrs)],
                      [tensor_info("x", np.float32, [1, 2, 3, 4])],
                      [tensor_info("y", np.float32, [None] * 4)], initializers, opset)


expect_error("channel scale", upsample([1.0, 2.0, 1.0, 1.0], 7), [img], "batch or channel")
# CHECK-LABEL: ok: channel scale
# CHECK-NEXT: error: {{.*}}: node 'up' (Upsample, opset 7): unsupported: attribute 'scales' resizes the batch or channel dim
expect_error("fractional scale", upsample([1.0, 1.0, 1.5, 1.0], 9), [img], "whole number")
# CHECK-LABEL: ok: fractional scale
# CHECK-NEXT: error: {{.*}}: node 'up' (Upsample, opset 9): unsupported: input 1 'scales': dim 2 times its scale is not a whole number
expect_error("three scales", upsample([1.0, 2.0, 2.0], 8), [img], "4 entries")
# CHECK-LABEL: ok: three scales
# CHECK-NEXT: error: {{.*}}: node 'up' (Upsample, opset 8): invalid: attribute 'scales' must have 4 entries
