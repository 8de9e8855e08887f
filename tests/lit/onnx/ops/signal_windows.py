# HannWindow, HammingWindow and BlackmanWindow (opset 17): periodic and symmetric, the
# size an initializer, a graph input (int32 and int64, read at run time) or computed from
# a symbolic dim, output_datatype float, double, float16 and int32; run through relaxc on
# lavapipe against NumPy's cosine sums; and the refusals of what the specification forbids.
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL

import numpy as np
from onnx import TensorProto, helper
from onnx_check import check_model, check_node, expect_error, make_model, tensor_info

COEFFICIENTS = {"HannWindow": (0.5, 0.5, 0.0), "HammingWindow": (25 / 46, 21 / 46, 0.0),
                "BlackmanWindow": (0.42, 0.5, 0.08)}


def window(op, size, periodic=1, dtype=np.float32):
    """a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), N = size (periodic) or size - 1."""
    a0, a1, a2 = COEFFICIENTS[op]
    n = np.arange(int(size), dtype=np.float64)
    period = int(size) - (1 - periodic)
    w = a0 - a1 * np.cos(2 * np.pi * n / period) + a2 * np.cos(4 * np.pi * n / period)
    return w.astype(dtype)


for op in COEFFICIENTS:
    for periodic in (1, 0):
        check_node(op, {"size": np.int64(10)}, lambda size: window(op, size, periodic),
                   attrs={"periodic": periodic}, opset=17, constants={"size"},
                   name=f"{op}_periodic{periodic}_constant", atol=1e-6)
        check_node(op, {"size": np.int32(7)}, lambda size: window(op, size, periodic),
                   attrs={"periodic": periodic}, opset=17, name=f"{op}_periodic{periodic}_run_time",
                   atol=1e-6)
# CHECK: ok: HannWindow_periodic1_constant
# CHECK: ok: HannWindow_periodic1_run_time
# CHECK: ok: HannWindow_periodic0_constant
# CHECK: ok: HannWindow_periodic0_run_time
# CHECK: ok: HammingWindow_periodic1_constant
# CHECK: ok: HammingWindow_periodic1_run_time
# CHECK: ok: HammingWindow_periodic0_constant
# CHECK: ok: HammingWindow_periodic0_run_time
# CHECK: ok: BlackmanWindow_periodic1_constant
# CHECK: ok: BlackmanWindow_periodic1_run_time
# CHECK: ok: BlackmanWindow_periodic0_constant
# CHECK: ok: BlackmanWindow_periodic0_run_time

check_node("HannWindow", {"size": np.int64(16)}, lambda size: window("HannWindow", size, 1, np.float64),
           attrs={"output_datatype": TensorProto.DOUBLE}, opset=17, name="hann_double",
           atol=1e-6)
# CHECK: ok: hann_double
check_node("BlackmanWindow", {"size": np.int64(9)},
           lambda size: window("BlackmanWindow", size, 0, np.float16),
           attrs={"periodic": 0, "output_datatype": TensorProto.FLOAT16}, opset=17,
           name="blackman_float16", rtol=1e-3, atol=1e-3)
# CHECK: ok: blackman_float16
# An integer output truncates toward zero: the Hann window's 1.0 at n = size / 2 stays 1.
check_node("HannWindow", {"size": np.int64(6)}, lambda size: window("HannWindow", size, 1, np.int32),
           attrs={"output_datatype": TensorProto.INT32}, opset=17, constants={"size"},
           name="hann_int32")
# CHECK: ok: hann_int32
check_node("HammingWindow", {"size": np.int32(0)}, lambda size: window("HammingWindow", size),
           opset=17, name="hamming_empty")
# CHECK: ok: hamming_empty

# The size from a symbolic dim: Shape, Gather of its entry 1.
from_shape = make_model(
    [helper.make_node("Shape", ["x"], ["shape"]),
     helper.make_node("Gather", ["shape", "one"], ["size"]),
     helper.make_node("HannWindow", ["size"], ["y"], periodic=0)],
    [tensor_info("x", np.float32, [2, "n"])], [tensor_info("y", np.float32, ["n"])],
    {"one": np.int64(1)}, opset=17)
check_model("hann_size_from_shape", from_shape,
            [{"x": np.zeros((2, 5), np.float32)}, {"x": np.zeros((2, 12), np.float32)}],
            lambda x: window("HannWindow", x.shape[1], 0), atol=1e-6)
# CHECK: ok: hann_size_from_shape


def window_model(attrs=None, size_type=np.int64, size_shape=(), initializers=None):
    node = helper.make_node("HannWindow", ["size"], ["y"], name="window", **(attrs or {}))
    inputs = [] if initializers else [tensor_info("size", size_type, list(size_shape))]
    return make_model([node], inputs, [tensor_info("y", np.float32, [None])], initializers,
                      opset=17)


# CHECK: ok: window periodic 2
# CHECK-NEXT: error: {{.*}}: node 'window' (HannWindow, opset 17): invalid: attribute 'periodic' is 2; it must be 0 or 1
expect_error("window periodic 2", window_model({"periodic": 2}), [np.int64(4)],
             "attribute 'periodic' is 2")
# CHECK: ok: window bool output
# CHECK-NEXT: error: {{.*}}: node 'window' (HannWindow, opset 17): invalid: attribute 'output_datatype' must be a numeric type, not BOOL
expect_error("window bool output", window_model({"output_datatype": TensorProto.BOOL}),
             [np.int64(4)], "must be a numeric type")
# CHECK: ok: window string output
# CHECK-NEXT: error: {{.*}}: node 'window' (HannWindow, opset 17): unsupported: attribute 'output_datatype': relaxc has no tensors of element type STRING
expect_error("window string output", window_model({"output_datatype": TensorProto.STRING}),
             [np.int64(4)], "element type STRING")
# CHECK: ok: window unknown output type
# CHECK-NEXT: error: {{.*}}: node 'window' (HannWindow, opset 17): invalid: attribute 'output_datatype' (99) is no ONNX element type
expect_error("window unknown output type", window_model({"output_datatype": 99}),
             [np.int64(4)], "(99) is no ONNX element type")
# CHECK: ok: window 1-D size
# CHECK-NEXT: error: {{.*}}: node 'window' (HannWindow, opset 17): invalid: input 0 'size' must be a 0-d int32 or int64 tensor
expect_error("window 1-D size", window_model(size_shape=(1,)), [np.int64([4])],
             "must be a 0-d int32 or int64 tensor")
# CHECK: ok: window negative constant size
# CHECK-NEXT: error: {{.*}}: node 'window' (HannWindow, opset 17): invalid: input 0 'size' is -3; a window's size is not negative
expect_error("window negative constant size", window_model(initializers={"size": np.int64(-3)}),
             [], "a window's size is not negative")
# CHECK: ok: window negative run-time size
# CHECK-NEXT: error: {{.*}}HannWindow{{.*}}negative
expect_error("window negative run-time size", window_model(), [np.int64(-3)], "negative")
