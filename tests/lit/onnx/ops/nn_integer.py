# MatMulInteger and ConvInteger (opset 10): uint8 and int8 operands, zero points per tensor,
# per row of A, per column of B (1-D and N-D forms) and per output channel of W, or none;
# batched and 1-D matmuls, 1-D and 2-D convolutions with pads, strides, dilations and
# groups; int32 results. QLinearMatMul and QLinearConv (opset 10): the same accumulators
# (plus QLinearConv's int32 bias) requantized, rounded half to even and saturated, with
# scales per tensor, row, column or output channel. Run through relaxc on lavapipe
# against NumPy; and the refusals of the types and parameters the specification forbids.
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL

import numpy as np
from onnx import helper
from onnx_check import check_node, expect_error, make_model, tensor_info

rng = np.random.default_rng(0)


def quantized(dtype, *shape):
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max + 1, shape).astype(dtype)


def shifted(x, zero_point=0):
    return x.astype(np.int64) - np.asarray(zero_point).astype(np.int64)


def matmul_integer(a, b, az=0, bz=0):
    return (shifted(a, az) @ shifted(b, bz)).astype(np.int32)


a, b = quantized(np.uint8, 4, 6), quantized(np.uint8, 6, 3)
check_node("MatMulInteger", {"a": a, "b": b, "az": np.uint8(12), "bz": np.uint8(200)},
           matmul_integer, opset=10, name="matmulinteger_uint8_per_tensor")
# CHECK: ok: matmulinteger_uint8_per_tensor
check_node("MatMulInteger", {"a": a, "b": b}, matmul_integer, opset=10,
           name="matmulinteger_no_zero_points")
# CHECK: ok: matmulinteger_no_zero_points
a8, b8 = quantized(np.int8, 4, 6), quantized(np.int8, 6, 3)
check_node("MatMulInteger", {"a": a8, "b": b8, "az": quantized(np.int8, 4),
                             "bz": quantized(np.int8, 3)},
           lambda a, b, az, bz: matmul_integer(a, b, az[:, None], bz), opset=10,
           constants={"az", "bz"}, name="matmulinteger_int8_per_row_and_column")
# CHECK: ok: matmulinteger_int8_per_row_and_column
check_node("MatMulInteger", {"a": a8, "b": b, "az": np.int8([-5]), "bz": np.uint8([7])},
           matmul_integer, opset=10, name="matmulinteger_int8_by_uint8_one_element_zero_points")
# CHECK: ok: matmulinteger_int8_by_uint8_one_element_zero_points
a3 = quantized(np.uint8, 2, 4, 6)
check_node("MatMulInteger", {"a": a3, "b": b, "az": quantized(np.uint8, 2, 4, 1)},
           matmul_integer, opset=10, name="matmulinteger_batched_nd_zero_point")
# CHECK: ok: matmulinteger_batched_nd_zero_point
check_node("MatMulInteger", {"a": a[0], "b": b, "az": np.uint8(3)}, matmul_integer, opset=10,
           name="matmulinteger_1d")
# CHECK: ok: matmulinteger_1d


def conv_integer(x, w, xz=0, wz=0, pads=(0, 0, 0, 0), strides=(1, 1), dilations=(1, 1),
                 group=1):
    """A direct 2-D convolution of the shifted operands; x is padded with its zero point,
    so with 0 after the shift."""
    xs = shifted(x, xz)
    wz = np.asarray(wz)
    ws = shifted(w, wz.reshape(-1, 1, 1, 1) if wz.ndim == 1 else wz)
    xs = np.pad(xs, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    n, c, h, width = xs.shape
    m, cg, kh, kw = ws.shape
    oh = (h - (kh - 1) * dilations[0] - 1) // strides[0] + 1
    ow = (width - (kw - 1) * dilations[1] - 1) // strides[1] + 1
    out = np.zeros((n, m, oh, ow), np.int64)
    per_group = m // group
    for o in range(m):
        g = o // per_group
        for i in range(oh):
            for j in range(ow):
                patch = xs[:, g * cg:(g + 1) * cg,
                           i * strides[0]:i * strides[0] + (kh - 1) * dilations[0] + 1:dilations[0],
                           j * strides[1]:j * strides[1] + (kw - 1) * dilations[1] + 1:dilations[1]]
                out[:, o, i, j] = (patch * ws[o]).sum(axis=(1, 2, 3))
    return out.astype(np.int32)


x, w = quantized(np.uint8, 2, 4, 7, 6), quantized(np.uint8, 6, 2, 3, 2)
attrs = {"pads": [1, 0, 2, 1], "strides": [2, 1], "dilations": [1, 2], "group": 2}
check_node("ConvInteger", {"x": x, "w": w, "xz": np.uint8(100), "wz": quantized(np.uint8, 6)},
           lambda x, w, xz, wz: conv_integer(x, w, xz, wz, attrs["pads"], attrs["strides"],
                                             attrs["dilations"], attrs["group"]),
           attrs=attrs, opset=10, constants={"w", "wz"}, name="convinteger_per_channel")
# CHECK: ok: convinteger_per_channel
x8, w8 = quantized(np.int8, 1, 3, 5, 5), quantized(np.int8, 2, 3, 3, 3)
check_node("ConvInteger", {"x": x8, "w": w8, "xz": np.int8([-3]), "wz": np.int8(4)},
           conv_integer, opset=10, name="convinteger_int8_per_tensor")
# CHECK: ok: convinteger_int8_per_tensor
check_node("ConvInteger", {"x": x8, "w": w8}, conv_integer, opset=10,
           name="convinteger_no_zero_points")
# CHECK: ok: convinteger_no_zero_points
x1, w1 = quantized(np.uint8, 1, 2, 9), quantized(np.int8, 3, 2, 3)
check_node("ConvInteger", {"x": x1, "w": w1, "xz": np.uint8(128)},
           lambda x, w, xz: conv_integer(x[:, :, None], w[:, :, None], xz, 0, (0, 1, 0, 1))[:, :, 0],
           attrs={"pads": [1, 1]}, opset=10, name="convinteger_1d")
# CHECK: ok: convinteger_1d


def requantize(acc, scales, y_scale, y_zero_point):
    """acc * (scales / y_scale) in float32, as relaxc orders it, rounded half to even
    (np.round), plus the zero point, saturated to its type."""
    info = np.iinfo(np.asarray(y_zero_point).dtype)
    steps = acc.astype(np.float32) * (np.float32(scales) / np.float32(y_scale))
    q = np.round(steps) + np.asarray(y_zero_point).astype(np.float32)
    return np.clip(q, info.min, info.max).astype(np.asarray(y_zero_point).dtype)


qm_inputs = {"a": a8, "a_scale": rng.uniform(0.01, 0.05, 4).astype(np.float32),
             "a_zero_point": quantized(np.int8, 4), "b": b,
             "b_scale": rng.uniform(0.01, 0.05, 3).astype(np.float32),
             "b_zero_point": quantized(np.uint8, 3),
             "y_scale": rng.uniform(0.2, 0.6, 4).astype(np.float32),
             "y_zero_point": quantized(np.int8, 4)}


def qlinear_matmul(a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point):
    acc = shifted(a, a_zero_point[..., None]) @ shifted(b, b_zero_point)
    return requantize(acc, a_scale[..., None] * b_scale, y_scale[..., None],
                      y_zero_point[..., None])


check_node("QLinearMatMul", qm_inputs, qlinear_matmul, opset=10,
           name="qlinearmatmul_int8_per_row_and_column")
# CHECK: ok: qlinearmatmul_int8_per_row_and_column
per_tensor = {"a": a3, "a_scale": np.float32([0.02]), "a_zero_point": np.uint8([120]),
              "b": b, "b_scale": np.float32(0.03), "b_zero_point": np.uint8(130),
              "y_scale": np.float32(0.05), "y_zero_point": np.uint8(128)}
check_node("QLinearMatMul", per_tensor,
           lambda a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point:
           requantize(shifted(a, a_zero_point) @ shifted(b, b_zero_point),
                      a_scale[0] * b_scale, y_scale, y_zero_point),
           opset=10, constants={"b", "b_scale", "b_zero_point"},
           name="qlinearmatmul_uint8_batched_per_tensor_saturating")
# CHECK: ok: qlinearmatmul_uint8_batched_per_tensor_saturating


def qlinear_conv(x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point,
                 bias=None, **attrs):
    acc = conv_integer(x, w, x_zero_point, w_zero_point, **attrs).astype(np.int64)
    if bias is not None:
        acc = acc + bias.reshape(1, -1, 1, 1)
    scales = x_scale * np.asarray(w_scale).reshape(1, -1, 1, 1)
    return requantize(acc, scales, y_scale, y_zero_point)


qc_inputs = {"x": x, "x_scale": np.float32(0.05), "x_zero_point": np.uint8(100), "w": w,
             "w_scale": rng.uniform(0.01, 0.04, 6).astype(np.float32),
             "w_zero_point": quantized(np.uint8, 6), "y_scale": np.float32(0.3),
             "y_zero_point": np.int8(-10), "bias": rng.integers(-500, 500, 6).astype(np.int32)}
check_node("QLinearConv", qc_inputs,
           lambda **q: qlinear_conv(**q, pads=attrs["pads"], strides=attrs["strides"],
                                    dilations=attrs["dilations"], group=attrs["group"]),
           attrs=attrs, opset=10, constants={"w", "w_scale", "w_zero_point", "bias"},
           name="qlinearconv_per_channel_bias")
# CHECK: ok: qlinearconv_per_channel_bias
qc8 = {"x": x8, "x_scale": np.float32([0.1]), "x_zero_point": np.int8([-3]), "w": w8,
       "w_scale": np.float32(0.02), "w_zero_point": np.int8(0), "y_scale": np.float32(0.05),
       "y_zero_point": np.uint8(128)}
check_node("QLinearConv", qc8, lambda **q: qlinear_conv(**q), opset=10,
           name="qlinearconv_int8_per_tensor_no_bias")
# CHECK: ok: qlinearconv_int8_per_tensor_no_bias


def integer_model(op, inputs, output_shape):
    node = helper.make_node(op, [i[0] for i in inputs], ["y"], name="q")
    return make_model([node], [tensor_info(*i) for i in inputs],
                      [tensor_info("y", np.int32, output_shape)], opset=10)


# CHECK: ok: matmulinteger zero point of another type
# CHECK-NEXT: error: {{.*}}: node 'q' (MatMulInteger, opset 10): invalid: input 2 'a_zero_point' must have the type of input 0 'A' (uint8), got int8
expect_error("matmulinteger zero point of another type",
             integer_model("MatMulInteger", [("a", np.uint8, [4, 6]), ("b", np.uint8, [6, 3]),
                                             ("az", np.int8, [])], [4, 3]),
             [a, b, np.int8(1)], "must have the type of input 0 'A'")
# CHECK: ok: matmulinteger int32 operand
# CHECK-NEXT: error: {{.*}}: node 'q' (MatMulInteger, opset 10): invalid: input 1 'B' must be uint8 or int8, got int32
expect_error("matmulinteger int32 operand",
             integer_model("MatMulInteger", [("a", np.uint8, [4, 6]), ("b", np.int32, [6, 3])],
                           [4, 3]),
             [a, b.astype(np.int32)], "must be uint8 or int8")
# CHECK: ok: convinteger per-channel x zero point
# CHECK-NEXT: error: {{.*}}: node 'q' (ConvInteger, opset 10): invalid: input 2 'x_zero_point' must be a scalar (per-tensor quantization)
expect_error("convinteger per-channel x zero point",
             integer_model("ConvInteger", [("x", np.int8, [1, 3, 5, 5]),
                                           ("w", np.int8, [2, 3, 3, 3]), ("xz", np.int8, [3])],
                           [1, 2, 3, 3]),
             [x8, w8, np.int8([1, 2, 3])], "must be a scalar")


def qlinear_matmul_model(scale_type, zero_point_type):
    """a_scale of `scale_type`, y_zero_point of `zero_point_type`; and arrays to run it."""
    inputs = [("a", np.uint8, [4, 6]), ("as", scale_type, []), ("az", np.uint8, []),
              ("b", np.uint8, [6, 3]), ("bs", np.float32, []), ("bz", np.uint8, []),
              ("ys", np.float32, []), ("yz", zero_point_type, [])]
    arrays = [a, scale_type(1), np.uint8(0), b, np.float32(1), np.uint8(0), np.float32(1),
              zero_point_type(0)]
    return integer_model("QLinearMatMul", inputs, [4, 3]), arrays


# CHECK: ok: qlinearmatmul int32 y_zero_point
# CHECK-NEXT: error: {{.*}}: node 'q' (QLinearMatMul, opset 10): invalid: input 7 'y_zero_point' must be uint8 or int8, got int32
expect_error("qlinearmatmul int32 y_zero_point", *qlinear_matmul_model(np.float32, np.int32),
             "'y_zero_point' must be uint8 or int8")
# CHECK: ok: qlinearmatmul float16 scale
# CHECK-NEXT: error: {{.*}}: node 'q' (QLinearMatMul, opset 10): invalid: input 1 'a_scale' must be float32, got float16
expect_error("qlinearmatmul float16 scale", *qlinear_matmul_model(np.float16, np.uint8),
             "must be float32")
conv_inputs = [("x", np.int8, [1, 3, 5, 5]), ("xs", np.float32, [3]), ("xz", np.int8, []),
               ("w", np.int8, [2, 3, 3, 3]), ("ws", np.float32, []), ("wz", np.int8, []),
               ("ys", np.float32, []), ("yz", np.int8, [])]
conv_arrays = [x8, np.float32([1, 1, 1]), np.int8(0), w8, np.float32(1), np.int8(0),
               np.float32(1), np.int8(0)]
# CHECK: ok: qlinearconv per-channel x_scale
# CHECK-NEXT: error: {{.*}}: node 'q' (QLinearConv, opset 10): invalid: input 1 'x_scale' must be a scalar (per-tensor quantization)
expect_error("qlinearconv per-channel x_scale", integer_model("QLinearConv", conv_inputs, [1, 2, 3, 3]),
             conv_arrays, "must be a scalar")
# CHECK: ok: qlinearconv float bias
# CHECK-NEXT: error: {{.*}}: node 'q' (QLinearConv, opset 10): invalid: input 8 'B' must be int32, got float32
conv_inputs[1] = ("xs", np.float32, [])
conv_arrays[1] = np.float32(1)
expect_error("qlinearconv float bias",
             integer_model("QLinearConv", conv_inputs + [("bias", np.float32, [2])], [1, 2, 3, 3]),
             conv_arrays + [np.float32([1, 2])], "'B' must be int32")
