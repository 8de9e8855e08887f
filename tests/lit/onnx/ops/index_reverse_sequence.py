# ReverseSequence (opset 10): batch and time axes either way round, inputs of rank 2 to 4,
# lengths from 0 to the whole time dim as a graph input or an initializer, a symbolic batch
# and time; run through relaxc on lavapipe against NumPy; and the refusals of what the
# specification forbids.
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL

import numpy as np
from onnx import helper
from onnx_check import check_model, check_node, expect_error, make_model, tensor_info

rng = np.random.default_rng(0)
i64 = lambda v: np.asarray(v, np.int64)


def reverse_sequence(x, lens, batch_axis=1, time_axis=0):
    """Batch entry b's first lens[b] steps reversed, the others kept; lengths outside
    [0, time dim] clamped into it."""
    out = x.copy()
    for b, length in enumerate(lens):
        length = min(max(int(length), 0), x.shape[time_axis])
        steps = np.take(x, b, axis=batch_axis)  # the time axis is axis 0 of what is left
        reversed_steps = np.concatenate([steps[:length][::-1], steps[length:]])
        index = [slice(None)] * x.ndim
        index[batch_axis] = b
        out[tuple(index)] = reversed_steps
    return out


x_tb = rng.standard_normal((4, 3)).astype(np.float32)
check_node("ReverseSequence", {"x": x_tb, "lens": i64([4, 0, 2])}, reverse_sequence, opset=10,
           name="reverse_time_major")
# CHECK: ok: reverse_time_major
x_bt = rng.integers(-9, 9, (3, 5, 2)).astype(np.int32)
check_node("ReverseSequence", {"x": x_bt, "lens": i64([1, 5, 3])},
           lambda x, lens: reverse_sequence(x, lens, 0, 1),
           attrs={"batch_axis": 0, "time_axis": 1}, opset=10, constants={"lens"},
           name="reverse_batch_major_rank3_constant_lens")
# CHECK: ok: reverse_batch_major_rank3_constant_lens
x4 = rng.standard_normal((5, 2, 3, 2)).astype(np.float32)
check_node("ReverseSequence", {"x": x4, "lens": i64([3, 5])}, reverse_sequence, opset=10,
           name="reverse_rank4")
# CHECK: ok: reverse_rank4
# Lengths outside [0, time dim], which ONNX forbids, are clamped: no index leaves the tensor.
check_node("ReverseSequence", {"x": x_tb, "lens": i64([9, -2, 3])}, reverse_sequence, opset=10,
           name="reverse_lengths_clamped")
# CHECK: ok: reverse_lengths_clamped

symbolic = make_model(
    [helper.make_node("ReverseSequence", ["x", "lens"], ["y"], batch_axis=0, time_axis=1)],
    [tensor_info("x", np.float32, ["b", "t"]), tensor_info("lens", np.int64, ["b"])],
    [tensor_info("y", np.float32, ["b", "t"])], opset=10)
check_model("reverse_symbolic", symbolic,
            [{"x": x_tb, "lens": i64([3, 1, 0, 2])}, {"x": x_bt[:, :, 0].astype(np.float32),
                                                   "lens": i64([5, 2, 4])}],
            lambda x, lens: reverse_sequence(x, lens, 0, 1))
# CHECK: ok: reverse_symbolic


def reverse_model(x_shape, lens_shape, lens_type=np.int64, **attrs):
    node = helper.make_node("ReverseSequence", ["x", "lens"], ["y"], name="reverse", **attrs)
    return make_model([node], [tensor_info("x", np.float32, x_shape),
                               tensor_info("lens", lens_type, lens_shape)],
                      [tensor_info("y", np.float32, x_shape)], opset=10)


# CHECK: ok: reverse same axes
# CHECK-NEXT: error: {{.*}}: node 'reverse' (ReverseSequence, opset 10): invalid: attributes 'batch_axis' (0) and 'time_axis' (0) must be 0 and 1, one each
expect_error("reverse same axes", reverse_model([4, 3], [3], batch_axis=0), [x_tb, i64([1, 1, 1])],
             "must be 0 and 1, one each")
# CHECK: ok: reverse time axis 2
# CHECK-NEXT: error: {{.*}}: node 'reverse' (ReverseSequence, opset 10): invalid: attributes 'batch_axis' (1) and 'time_axis' (2) must be 0 and 1, one each
expect_error("reverse time axis 2", reverse_model([4, 3, 2], [3], time_axis=2),
             [np.zeros((4, 3, 2), np.float32), i64([1, 1, 1])], "must be 0 and 1, one each")
# CHECK: ok: reverse rank 1
# CHECK-NEXT: error: {{.*}}: node 'reverse' (ReverseSequence, opset 10): invalid: input 0 'input' must have rank 2 or more
expect_error("reverse rank 1", reverse_model([4], [1]), [x_tb[:, 0], i64([1])],
             "must have rank 2 or more")
# CHECK: ok: reverse lengths per batch
# CHECK-NEXT: error: {{.*}}: node 'reverse' (ReverseSequence, opset 10): invalid: input 1 'sequence_lens' must have one entry per batch entry (dim 1 of input 0): it has 2, the batch 3
expect_error("reverse lengths per batch", reverse_model([4, 3], [2]), [x_tb, i64([1, 1])],
             "one entry per batch entry")
# CHECK: ok: reverse lengths not known to match
# CHECK-NEXT: error: {{.*}}: node 'reverse' (ReverseSequence, opset 10): unsupported: input 1 'sequence_lens' must have one entry per batch entry (dim 1 of input 0); their lengths are not known to be equal
expect_error("reverse lengths not known to match", reverse_model(["t", "b"], ["n"]),
             [x_tb, i64([1, 1, 1])], "not known to be equal")
# CHECK: ok: reverse 2-D lengths
# CHECK-NEXT: error: {{.*}}: node 'reverse' (ReverseSequence, opset 10): invalid: input 1 'sequence_lens' must be a 1-D int64 tensor
expect_error("reverse 2-D lengths", reverse_model([4, 3], [3, 1]), [x_tb, i64([[1], [1], [1]])],
             "must be a 1-D int64 tensor")
