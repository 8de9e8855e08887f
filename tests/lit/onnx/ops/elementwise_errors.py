# The elementwise converters' refusals: what ONNX allows and relaxc cannot express is
# "unsupported", what the ONNX specification forbids "invalid"; each names the node, its
# op type and opset, and the attribute or input.
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx import helper, TensorProto
from onnx_check import expect_error, make_model, tensor_info

x = np.float32([[1.5, -2.0, 3.0]])


def one_node(op, inputs, output_dtype, opset=13, **attrs):
    """A model of one node named 'n' on inputs (name, array) with one output 'y'."""
    return make_model([helper.make_node(op, [n for n, _ in inputs], ["y"], name="n", **attrs)],
                      [tensor_info(n, a.dtype, list(a.shape)) for n, a in inputs],
                      [tensor_info("y", output_dtype, [None, None])], opset=opset)


# Cast to an element type relaxc has no tensors of.
expect_error("Cast to STRING", one_node("Cast", [("x", x)], np.object_, to=TensorProto.STRING),
             [x], "unsupported")
# CHECK-LABEL: ok: Cast to STRING
# CHECK-NEXT: error: {{.*}}Cast_to_STRING.onnx: node 'n' (Cast, opset 13): unsupported: attribute 'to': relaxc has no tensors of element type STRING

# Cast's target must be an ONNX element type (the checker does not look).
expect_error("Cast to 99", one_node("Cast", [("x", x)], np.float32, to=99), [x], "invalid")
# CHECK-LABEL: ok: Cast to 99
# CHECK-NEXT: error: {{.*}}: node 'n' (Cast, opset 13): invalid: attribute 'to' (99) is no ONNX element type

# Mod: fmod is 0 or 1, and 1 for floats.
expect_error("Mod fmod=0 on floats", one_node("Mod", [("a", x), ("b", x)], np.float32),
             [x, x], "invalid")
# CHECK-LABEL: ok: Mod fmod=0 on floats
# CHECK-NEXT: error: {{.*}}: node 'n' (Mod, opset 13): invalid: attribute 'fmod' must be 1 for floating-point inputs (float32)
i = np.int32([[1, 2, 3]])
expect_error("Mod fmod=2", one_node("Mod", [("a", i), ("b", i)], np.int32, fmod=2), [i, i],
             "invalid")
# CHECK-LABEL: ok: Mod fmod=2
# CHECK-NEXT: error: {{.*}}: node 'n' (Mod, opset 13): invalid: attribute 'fmod' must be 0 or 1, got 2

# BitShift's direction.
u = np.uint8([[1, 2, 3]])
expect_error("BitShift direction", one_node("BitShift", [("a", u), ("b", u)], np.uint8,
                                            direction="UP"), [u, u], "invalid")
# CHECK-LABEL: ok: BitShift direction
# CHECK-NEXT: error: {{.*}}: node 'n' (BitShift, opset 13): invalid: attribute 'direction' must be "LEFT" or "RIGHT", got "UP"

# Clip's bounds are scalars.
bound = np.float32([0.5])
expect_error("Clip 1-d bound", one_node("Clip", [("x", x), ("lo", bound)], np.float32),
             [x, bound], "invalid")
# CHECK-LABEL: ok: Clip 1-d bound
# CHECK-NEXT: error: {{.*}}: node 'n' (Clip, opset 13): invalid: input 1 'min' must be a scalar (0-d), got 1 dimensions

# Shrink on integers: a bias that is not a whole number has no integer result.
expect_error("Shrink fractional bias on int32", one_node("Shrink", [("x", i)], np.int32,
                                                         bias=0.5), [i], "unsupported")
# CHECK-LABEL: ok: Shrink fractional bias on int32
# CHECK-NEXT: error: {{.*}}: node 'n' (Shrink, opset 13): unsupported: attribute 'bias' (0.5) is not a whole number, on an input of dtype int32

# Celu divides by alpha.
expect_error("Celu alpha=0", one_node("Celu", [("x", x)], np.float32, alpha=0.0), [x],
             "invalid")
# CHECK-LABEL: ok: Celu alpha=0
# CHECK-NEXT: error: {{.*}}: node 'n' (Celu, opset 13): invalid: attribute 'alpha' must not be 0

# Operand dtypes that do not agree (the ONNX checker lets a model without shape
# inference through; the Relax operator reports it as the node's error).
expect_error("Add float32 + int32", make_model(
    [helper.make_node("Add", ["a", "b"], ["y"], name="n")],
    [tensor_info("a", np.float32, [1, 3]), tensor_info("b", np.int32, [1, 3])],
    [tensor_info("y", np.float32, [1, 3])]), [x, i], "Add")
# CHECK-LABEL: ok: Add float32 + int32
# CHECK-NEXT: error: {{.*}}: node 'n' (Add, opset 13): R.add: operand dtypes differ: float32 (x1) vs int32 (x2)

# Quantization parameters are scalars or one per channel of 'axis'.
scale2d = np.float32([[1, 2]])
expect_error("QuantizeLinear 2-d scale", one_node("QuantizeLinear", [("x", x), ("s", scale2d)],
                                                  np.uint8), [x, scale2d], "invalid")
# CHECK-LABEL: ok: QuantizeLinear 2-d scale
# CHECK-NEXT: error: {{.*}}: node 'n' (QuantizeLinear, opset 13): invalid: input 1 must be a scalar or 1-D, got 2 dimensions
scale1d = np.float32([1, 2, 3])
expect_error("DequantizeLinear axis", one_node("DequantizeLinear", [("q", i), ("s", scale1d)],
                                               np.float32, axis=2), [i, scale1d], "invalid")
# CHECK-LABEL: ok: DequantizeLinear axis
# CHECK-NEXT: error: {{.*}}: node 'n' (DequantizeLinear, opset 13): invalid: attribute 'axis' is 2; it must be in [-2, 2) for a tensor of rank 2
