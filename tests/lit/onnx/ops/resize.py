# Resize's cubic mode (cubic_coeff_a, exclude_outside) and tf_crop_and_resize (a constant
# roi, extrapolation_value), each node run through relaxc on lavapipe and compared with
# the reference implementation that ships with ONNX's backend node tests; and Resize's
# refusals of what the spec forbids or relaxc cannot express.
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL

import numpy as np
from onnx import helper
from onnx.backend.test.case.node.resize import (cubic_coeffs, interpolate_nd, linear_coeffs,
                                                 nearest_coeffs)
from onnx_check import check_node, expect_error, make_model, tensor_info

rng = np.random.default_rng(0)
img = rng.standard_normal((1, 2, 5, 6)).astype(np.float32)
empty = np.zeros((0,), np.float32)
i64 = lambda v: np.asarray(v, np.int64)


def reference(coeffs, sizes, **kwargs):
    return lambda x, **_: interpolate_nd(x, coeffs, output_size=sizes, **kwargs).astype(np.float32)


# CHECK: ok: Resize cubic scales
check_node("Resize", {"x": img, "roi": empty, "scales": np.float32([1, 1, 2, 2])},
           lambda x, **_: interpolate_nd(x, cubic_coeffs, scale_factors=np.float32([1, 1, 2, 2]))
           .astype(np.float32), attrs={"mode": "cubic"}, constants={"roi", "scales"},
           rtol=1e-4, name="Resize cubic scales")
# CHECK: ok: Resize cubic align_corners
check_node("Resize", {"x": img, "roi": empty, "scales": empty, "sizes": i64([1, 2, 7, 9])},
           reference(cubic_coeffs, [1, 2, 7, 9], coordinate_transformation_mode="align_corners"),
           attrs={"mode": "cubic", "coordinate_transformation_mode": "align_corners"},
           constants={"roi", "scales", "sizes"}, rtol=1e-4, name="Resize cubic align_corners")
# CHECK: ok: Resize cubic exclude_outside
check_node("Resize", {"x": img, "roi": empty, "scales": empty, "sizes": i64([1, 2, 3, 4])},
           reference(lambda r: cubic_coeffs(r, A=-0.5), [1, 2, 3, 4], exclude_outside=True),
           attrs={"mode": "cubic", "cubic_coeff_a": -0.5, "exclude_outside": 1},
           constants={"roi", "scales", "sizes"}, rtol=1e-4, name="Resize cubic exclude_outside")
# CHECK: ok: Resize cubic asymmetric opset 11
check_node("Resize", {"x": img, "roi": empty, "scales": empty, "sizes": i64([1, 2, 10, 3])},
           reference(cubic_coeffs, [1, 2, 10, 3], coordinate_transformation_mode="asymmetric"),
           attrs={"mode": "cubic", "coordinate_transformation_mode": "asymmetric"},
           constants={"roi", "scales", "sizes"}, opset=11, rtol=1e-4,
           name="Resize cubic asymmetric opset 11")

# CHECK: ok: Resize tf_crop_and_resize linear
# CHECK: ok: Resize tf_crop_and_resize cubic
# CHECK: ok: Resize tf_crop_and_resize nearest
roi = np.float32([0, 0, 0.2, -0.1, 1, 1, 0.9, 1.3])
for mode, coeffs in (("linear", linear_coeffs), ("cubic", cubic_coeffs),
                     ("nearest", nearest_coeffs)):
    check_node("Resize", {"x": img, "roi": roi, "scales": empty, "sizes": i64([1, 2, 4, 6])},
               reference(coeffs, [1, 2, 4, 6], roi=roi, extrapolation_value=7.5,
                         coordinate_transformation_mode="tf_crop_and_resize"),
               attrs={"mode": mode, "coordinate_transformation_mode": "tf_crop_and_resize",
                      "extrapolation_value": 7.5},
               constants={"roi", "scales", "sizes"}, rtol=1e-4,
               name=f"Resize tf_crop_and_resize {mode}")

# CHECK: ok: Resize tf_half_pixel_for_nn
# x_original = (x + 0.5) / 2 rounded half up is (x + 1) // 2, clamped to the image.
rows, cols = np.minimum((np.arange(10) + 1) // 2, 4), np.minimum((np.arange(12) + 1) // 2, 5)
check_node("Resize", {"x": img, "roi": empty, "scales": np.float32([1, 1, 2, 2])},
           lambda x, **_: x[:, :, rows[:, None], cols[None, :]],
           attrs={"coordinate_transformation_mode": "tf_half_pixel_for_nn",
                  "nearest_mode": "round_prefer_ceil"},
           constants={"roi", "scales"}, name="Resize tf_half_pixel_for_nn")


def resize(attrs, inits, opset=13, inputs=("x", "r", "", "z")):
    node = helper.make_node("Resize", list(inputs), ["y"], name="resize", **attrs)
    return make_model([node], [tensor_info("x", np.float32, [1, 2, 5, 6])],
                      [tensor_info("y", np.float32, [None] * 4)], inits, opset)


crop = {"coordinate_transformation_mode": "tf_crop_and_resize"}
sizes = {"z": i64([1, 2, 4, 4])}
# CHECK: ok: resize mode
# CHECK-NEXT: error: {{.*}}: node 'resize' (Resize, opset 13): invalid: attribute 'mode' "area"; expected nearest, linear or cubic
expect_error("resize mode", resize({"mode": "area"}, {"r": empty, **sizes}), [img], "\"area\"")
# A scale past what a dim can be (found by fuzz_onnx: its size's conversion to an integer
# was undefined behaviour).
# CHECK: ok: resize huge scale
# CHECK-NEXT: error: {{.*}}: node 'resize' (Resize, opset 10): invalid: input 1 'scales': entry 3 is 38334640028177661952.000000; a scale is positive and less than 2^62
expect_error("resize huge scale",
             resize({}, {"s": np.float32([1, 1, 1, 3.8334640028177662e19])}, 10, ("x", "s")),
             [img], "less than 2^62")
# CHECK: ok: resize cubic opset 10
# CHECK-NEXT: error: {{.*}}: node 'resize' (Resize, opset 10): invalid: attribute 'mode' "cubic"; expected nearest, linear (cubic from opset 11)
expect_error("resize cubic opset 10",
             resize({"mode": "cubic"}, {"s": np.float32([1, 1, 1, 1])}, 10, ("x", "s")), [img],
             "cubic from opset 11")
# CHECK: ok: resize half_pixel_symmetric
# CHECK-NEXT: error: {{.*}}: node 'resize' (Resize, opset 13): unsupported: attribute 'coordinate_transformation_mode' "half_pixel_symmetric" (half_pixel, pytorch_half_pixel, align_corners, asymmetric, tf_half_pixel_for_nn and tf_crop_and_resize are)
expect_error("resize half_pixel_symmetric",
             resize({"coordinate_transformation_mode": "half_pixel_symmetric"},
                    {"r": empty, **sizes}), [img], "half_pixel_symmetric")
# CHECK: ok: resize roi missing
# CHECK-NEXT: error: {{.*}}: node 'resize' (Resize, opset 13): invalid: coordinate_transformation_mode "tf_crop_and_resize" needs input 1 'roi'
expect_error("resize roi missing", resize(crop, sizes, inputs=("x", "", "", "z")), [img],
             "needs input 1 'roi'")
# CHECK: ok: resize roi entries
# CHECK-NEXT: error: {{.*}}: node 'resize' (Resize, opset 13): invalid: input 1 'roi' must have 8 entries (4 starts, 4 ends)
expect_error("resize roi entries", resize(crop, {"r": np.float32([0, 0, 1, 1]), **sizes}),
             [img], "8 entries")
# CHECK: ok: resize roi channels
# CHECK-NEXT: error: {{.*}}: node 'resize' (Resize, opset 13): unsupported: input 1 'roi' crops the batch or channel dim
expect_error("resize roi channels",
             resize(crop, {"r": np.float32([0, 0.5, 0, 0, 1, 1, 1, 1]), **sizes}), [img],
             "crops the batch or channel dim")
