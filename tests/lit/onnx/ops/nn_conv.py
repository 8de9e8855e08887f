# ONNX Conv (1-D and 2-D; pads, strides, dilations, groups, depthwise, bias, auto_pad
# SAME_UPPER / SAME_LOWER / VALID, a symbolic batch) and ConvTranspose (2-D and 1-D,
# groups, output_padding, output_shape, auto_pad SAME_UPPER), run through relaxc on
# lavapipe against the loop references of Inputs/nn_reference.py; and the refusals.
#
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx import helper
from nn_reference import conv, conv_transpose
from onnx_check import check_model, check_node, expect_error, make_model, tensor_info

rng = np.random.default_rng(0)


def rand(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


x, w, b = rand(1, 2, 6, 5), rand(4, 2, 3, 3), rand(4)
check_node("Conv", {"x": x, "w": w, "b": b}, lambda x, w, b: conv(x, w, b, pads=[1, 0, 2, 1]),
           attrs={"pads": [1, 0, 2, 1]}, constants={"w", "b"}, name="conv_pads_bias")
# CHECK: ok: conv_pads_bias
check_node("Conv", {"x": x, "w": w},
           lambda x, w: conv(x, w, strides=[2, 1], dilations=[1, 2], pads=[1, 1, 1, 1]),
           attrs={"strides": [2, 1], "dilations": [1, 2], "pads": [1, 1, 1, 1],
                  "kernel_shape": [3, 3]},
           constants={"w"}, name="conv_strides_dilations")
# CHECK: ok: conv_strides_dilations
xg, wg = rand(1, 4, 5, 5), rand(6, 2, 2, 2)
check_node("Conv", {"x": xg, "w": wg}, lambda x, w: conv(x, w, group=2), attrs={"group": 2},
           constants={"w"}, name="conv_groups")
# CHECK: ok: conv_groups
wd = rand(4, 1, 3, 3)
check_node("Conv", {"x": xg, "w": wd}, lambda x, w: conv(x, w, group=4, pads=[1, 1, 1, 1]),
           attrs={"group": 4, "pads": [1, 1, 1, 1]}, constants={"w"}, name="conv_depthwise")
# CHECK: ok: conv_depthwise
# SAME on 6 x 5 with stride 2 and kernel 3: outputs 3 x 3, total padding 1 and 2.
check_node("Conv", {"x": x, "w": w}, lambda x, w: conv(x, w, strides=[2, 2], pads=[0, 1, 1, 1]),
           attrs={"auto_pad": "SAME_UPPER", "strides": [2, 2]}, constants={"w"},
           name="conv_same_upper")
# CHECK: ok: conv_same_upper
check_node("Conv", {"x": x, "w": w}, lambda x, w: conv(x, w, strides=[2, 2], pads=[1, 1, 0, 1]),
           attrs={"auto_pad": "SAME_LOWER", "strides": [2, 2]}, constants={"w"},
           name="conv_same_lower")
# CHECK: ok: conv_same_lower
check_node("Conv", {"x": x, "w": w}, lambda x, w: conv(x, w), attrs={"auto_pad": "VALID"},
           constants={"w"}, name="conv_valid")
# CHECK: ok: conv_valid
x1, w1, b1 = rand(2, 3, 9), rand(4, 3, 3), rand(4)
check_node("Conv", {"x": x1, "w": w1, "b": b1},
           lambda x, w, b: conv(x, w, b, strides=[2], pads=[2, 1], dilations=[2]),
           attrs={"strides": [2], "pads": [2, 1], "dilations": [2]}, constants={"w", "b"},
           name="conv_1d")
# CHECK: ok: conv_1d

# A symbolic batch: built once, run at two sizes.
model = make_model([helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])],
                   [tensor_info("x", np.float32, ["n", 2, 6, 5])],
                   [tensor_info("y", np.float32, ["n", 4, 6, 5])], {"w": w, "b": b})
check_model("conv_symbolic_batch", model, [{"x": rand(1, 2, 6, 5)}, {"x": rand(3, 2, 6, 5)}],
            lambda x: conv(x, w, b, pads=[1, 1, 1, 1]))
# CHECK: ok: conv_symbolic_batch

xt, wt, bt = rand(1, 2, 3, 3), rand(2, 3, 3, 2), rand(3)
check_node("ConvTranspose", {"x": xt, "w": wt, "b": bt},
           lambda x, w, b: conv_transpose(x, w, b, strides=[3, 2], pads=[1, 0, 0, 1],
                                          output_padding=[1, 1]),
           attrs={"strides": [3, 2], "pads": [1, 0, 0, 1], "output_padding": [1, 1]},
           constants={"w", "b"}, name="conv_transpose_pads")
# CHECK: ok: conv_transpose_pads
wtg = rand(4, 1, 2, 2)
check_node("ConvTranspose", {"x": rand(1, 4, 3, 3), "w": wtg},
           lambda x, w: conv_transpose(x, w, group=2, dilations=[2, 1], strides=[2, 2]),
           attrs={"group": 2, "dilations": [2, 1], "strides": [2, 2]}, constants={"w"},
           name="conv_transpose_groups")
# CHECK: ok: conv_transpose_groups
# output_shape [10, 8] on 3 x 3 with strides [3, 2] and kernel 3: the full output is
# 9 x 7, the missing row and column come as output padding.
w33 = rand(2, 3, 3, 3)
check_node("ConvTranspose", {"x": xt, "w": w33},
           lambda x, w: conv_transpose(x, w, strides=[3, 2], output_padding=[1, 1]),
           attrs={"strides": [3, 2], "output_shape": [10, 8]}, constants={"w"},
           name="conv_transpose_output_shape")
# CHECK: ok: conv_transpose_output_shape
# SAME_UPPER with stride 2: 6 x 6 of the full 7 x 7, the extra element cut at the end.
check_node("ConvTranspose", {"x": xt, "w": w33},
           lambda x, w: conv_transpose(x, w, strides=[2, 2], pads=[0, 0, 1, 1]),
           attrs={"auto_pad": "SAME_UPPER", "strides": [2, 2]}, constants={"w"},
           name="conv_transpose_same_upper")
# CHECK: ok: conv_transpose_same_upper
check_node("ConvTranspose", {"x": rand(2, 2, 4), "w": rand(2, 3, 3)},
           lambda x, w: conv_transpose(x, w, strides=[2], pads=[1, 0]),
           attrs={"strides": [2], "pads": [1, 0]}, constants={"w"}, name="conv_transpose_1d")
# CHECK: ok: conv_transpose_1d

# Refusals.
model = make_model([helper.make_node("Conv", ["x", "w"], ["y"], name="conv3d")],
                   [tensor_info("x", np.float32, [1, 1, 3, 3, 3])],
                   [tensor_info("y", np.float32, [1, 1, 2, 2, 2])], {"w": rand(1, 1, 2, 2, 2)})
expect_error("conv_3d", model, [rand(1, 1, 3, 3, 3)], "3-D convolution")
# CHECK: ok: conv_3d
# CHECK-NEXT: error: {{.*}}'conv3d' (Conv, opset 13){{.*}}3-D convolution (a 5-D input 'X') is not supported
model = make_model([helper.make_node("Conv", ["x", "w"], ["y"], name="same",
                                     auto_pad="SAME_UPPER")],
                   [tensor_info("x", np.float32, [1, 2, "h", 5])],
                   [tensor_info("y", np.float32, [None] * 4)], {"w": w})
expect_error("conv_same_symbolic", model, [x], "auto_pad SAME_UPPER needs a static size")
# CHECK: ok: conv_same_symbolic
# CHECK-NEXT: error: {{.*}}'same' (Conv, opset 13){{.*}}auto_pad SAME_UPPER needs a static size; dimension 2 of input 'X' is symbolic
# Pads that remove more than the transposed convolution produces (found by fuzz_onnx).
model = make_model([helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="overpadded",
                                     pads=[0, 0, 9, 0])],
                   [tensor_info("x", np.float32, [1, 2, 3, 3])],
                   [tensor_info("y", np.float32, [None] * 4)], {"w": wt})
expect_error("conv_transpose_overpadded", model, [xt], "would be -")
# CHECK: ok: conv_transpose_overpadded
# CHECK-NEXT: error: {{.*}}'overpadded' (ConvTranspose, opset 13): R.nn.conv2d_transpose: output dimension 2 would be {{-[0-9]+}}; the padding (0, 9) removes more than the transposed convolution produces
model = make_model([helper.make_node("ConvTranspose", ["x", "w"], ["y"], name="far",
                                     strides=[2, 2], output_shape=[9, 9])],
                   [tensor_info("x", np.float32, [1, 2, 3, 3])],
                   [tensor_info("y", np.float32, [None] * 4)], {"w": wt})
expect_error("conv_transpose_far_output_shape", model, [xt], "is not below the stride")
# CHECK: ok: conv_transpose_far_output_shape
# CHECK-NEXT: error: {{.*}}'far' (ConvTranspose, opset 13){{.*}}an output padding of 2 in spatial dimension 0
