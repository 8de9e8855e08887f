# ONNX MeanVarianceNormalization (opsets 9 and 13): (X - mean) / (std + 1e-9) over the
# default axes [0, 2, 3], over given and negative axes, with a symbolic batch; run through
# relaxc on lavapipe against NumPy; and the refusals of axes the specification forbids.
#
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL

import numpy as np
from onnx import helper
from onnx_check import check_model, check_node, expect_error, make_model, tensor_info

rng = np.random.default_rng(0)


def mvn(x, axes=(0, 2, 3)):
    """The biased standard deviation, plus 1e-9, divides the deviation from the mean."""
    x64 = x.astype(np.float64)
    mean = x64.mean(axes, keepdims=True)
    std = np.sqrt(((x64 - mean) ** 2).mean(axes, keepdims=True))
    return ((x64 - mean) / (std + 1e-9)).astype(x.dtype)


x4 = rng.uniform(-2.0, 3.0, (2, 3, 4, 5)).astype(np.float32)
check_node("MeanVarianceNormalization", {"x": x4}, mvn, name="mvn_default_axes", atol=1e-4)
# CHECK: ok: mvn_default_axes
check_node("MeanVarianceNormalization", {"x": x4}, mvn, opset=9, name="mvn_opset9", atol=1e-4)
# CHECK: ok: mvn_opset9
x3 = rng.uniform(-1.0, 1.0, (3, 6, 7)).astype(np.float32)
check_node("MeanVarianceNormalization", {"x": x3}, lambda x: mvn(x, (1,)), attrs={"axes": [1]},
           name="mvn_axis1", atol=1e-4)
# CHECK: ok: mvn_axis1
check_node("MeanVarianceNormalization", {"x": x3}, lambda x: mvn(x, (0, 2)),
           attrs={"axes": [-1, 0]}, name="mvn_negative_axes", atol=1e-4)
# CHECK: ok: mvn_negative_axes
check_node("MeanVarianceNormalization", {"x": x4.astype(np.float16)}, mvn,
           name="mvn_float16", rtol=1e-2, atol=1e-2)
# CHECK: ok: mvn_float16

symbolic = make_model(
    [helper.make_node("MeanVarianceNormalization", ["x"], ["y"], axes=[0, 2])],
    [tensor_info("x", np.float32, ["n", 2, "t"])], [tensor_info("y", np.float32, ["n", 2, "t"])])
check_model("mvn_symbolic", symbolic,
            [{"x": x3[:, :2, :5].copy()}, {"x": x4[:, :2, :, 0].copy()}],
            lambda x: mvn(x, (0, 2)), atol=1e-4)
# CHECK: ok: mvn_symbolic


def mvn_model(shape, axes=None):
    attrs = {} if axes is None else {"axes": axes}
    node = helper.make_node("MeanVarianceNormalization", ["x"], ["y"], name="mvn", **attrs)
    return make_model([node], [tensor_info("x", np.float32, shape)],
                      [tensor_info("y", np.float32, shape)])


# CHECK: ok: mvn default axes of a 3-D input
# CHECK-NEXT: error: {{.*}}: node 'mvn' (MeanVarianceNormalization, opset 13): invalid: attribute 'axes' is 3; it must be in [-3, 3) for a tensor of rank 3
expect_error("mvn default axes of a 3-D input", mvn_model([3, 6, 7]), [x3],
             "attribute 'axes' is 3")
# CHECK: ok: mvn axis twice
# CHECK-NEXT: error: {{.*}}: node 'mvn' (MeanVarianceNormalization, opset 13): invalid: attribute 'axes' names axis 2 twice
expect_error("mvn axis twice", mvn_model([3, 6, 7], [2, -1]), [x3], "names axis 2 twice")
