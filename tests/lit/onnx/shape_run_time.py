# Shape operands known only at run time (graph inputs, not constants): Reshape's shape
# (with 0 = copy and -1 = inferred, and allowzero), Expand's shape, ConstantOfShape's
# input, Tile's repeats, Range's bounds, Slice's starts, ends, axes and steps,
# Unsqueeze's and Squeeze's axes, and OneHot's depth and values. Each becomes R.tensor_to_shape and an
# R.match_cast that binds shape variables named after the node's output; the model is
# built once and run at two values of the operand, compared with NumPy. A negative entry,
# a shape that breaks the element count or the broadcast, and a delta of 0 are run-time
# errors; a shape of unknown length is refused at import.
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL
# RUN: %relaxc import %t/reshape.onnx | FileCheck %s --check-prefix=IMPORT
# IMPORT: R.tensor_to_shape(
# IMPORT: R.match_cast({{.*}}, R.Shape([y_0, y_1, y_2]))
# IMPORT: R.Tensor((y_0, y_1, y_2), dtype="float32") = R.reshape(x, R.shape([y_0, y_1, y_2]))

import numpy as np
from onnx import helper
from onnx_check import check_model, expect_error, make_model, tensor_info, write

i64 = lambda v: np.asarray(v, np.int64)
rng = np.random.default_rng(16)


def model(op_type, inputs, outputs, attrs=None, opset=13):
    node = helper.make_node(op_type, [i[0] for i in inputs], [o[0] for o in outputs],
                            name=op_type.lower(), **(attrs or {}))
    return make_model([node], [tensor_info(*i) for i in inputs],
                      [tensor_info(*o) for o in outputs], opset=opset)


def onnx_reshape(x, s):
    return x.reshape([x.shape[k] if v == 0 else v for k, v in enumerate(s)])


# Reshape: 0 copies the input's dim, -1 is inferred; over a dynamic batch too.
# CHECK: ok: reshape
x = rng.standard_normal((2, 3, 4)).astype(np.float32)
reshape = model("Reshape", [("x", np.float32, [2, 3, 4]), ("s", np.int64, [3])],
                [("y", np.float32, [None, None, None])])
write(reshape, "reshape.onnx")
check_model("reshape", reshape, [[x, i64([4, 0, -1])], [x, i64([-1, 2, 2])]],
            lambda x, s: onnx_reshape(x, s))
# CHECK: ok: reshape dynamic batch
reshape_n = model("Reshape", [("x", np.float32, ["n", 6]), ("s", np.int64, [3])],
                  [("y", np.float32, [None, None, None])])
x2, x5 = (rng.standard_normal((n, 6)).astype(np.float32) for n in (2, 5))
check_model("reshape dynamic batch", reshape_n, [[x2, i64([0, 3, -1])], [x5, i64([-1, 2, 3])]],
            lambda x, s: onnx_reshape(x, s))
# allowzero: 0 is a dim of 0.
# CHECK: ok: reshape allowzero
reshape_az = model("Reshape", [("x", np.float32, ["n", 4]), ("s", np.int64, [2])],
                   [("y", np.float32, [None, None])], {"allowzero": 1}, opset=14)
check_model("reshape allowzero", reshape_az,
            [[np.zeros((0, 4), np.float32), i64([4, 0])], [x2.reshape(3, 4), i64([-1, 2])]],
            lambda x, s: x.reshape(s))

# Expand: the shape broadcasts with the input's dims, a shorter shape on the right.
# CHECK: ok: expand
e = rng.standard_normal((3, 1)).astype(np.float32)
expand = model("Expand", [("x", np.float32, [3, 1]), ("s", np.int64, [3])],
               [("y", np.float32, [None, None, None])])
check_model("expand", expand, [[e, i64([2, 1, 4])], [e, i64([1, 3, 1])]],
            lambda x, s: x * np.ones(s, np.float32))
# CHECK: ok: expand shorter shape
expand2 = model("Expand", [("x", np.float32, [2, 3, 1]), ("s", np.int64, [2])],
                [("y", np.float32, [None, None, None])])
e3 = rng.standard_normal((2, 3, 1)).astype(np.float32)
check_model("expand shorter shape", expand2, [[e3, i64([1, 5])], [e3, i64([3, 1])]],
            lambda x, s: x * np.ones(s, np.float32))

# ConstantOfShape: an int32 fill of a shape given at run time, empty dims included.
# CHECK: ok: constant of shape
cos = model("ConstantOfShape", [("s", np.int64, [2])], [("y", np.int32, [None, None])],
            {"value": helper.make_tensor("v", 6, [1], [7])})
check_model("constant of shape", cos, [[i64([2, 3])], [i64([0, 5])]],
            lambda s: np.full(s, 7, np.int32))

# Tile: repeats at run time.
# CHECK: ok: tile
t = rng.standard_normal((2, 3)).astype(np.float32)
tile = model("Tile", [("x", np.float32, [2, 3]), ("r", np.int64, [2])],
             [("y", np.float32, [None, None])])
check_model("tile", tile, [[t, i64([2, 1])], [t, i64([1, 3])]], lambda x, r: np.tile(x, r))

# Range: float and integer bounds at run time, an empty range, a negative delta.
# CHECK: ok: range float
f32 = np.float32
range_f = model("Range", [("a", f32, []), ("b", f32, []), ("d", f32, [])], [("y", f32, [None])])
check_model("range float", range_f,
            [[f32(1), f32(5), f32(2)], [f32(10), f32(4), f32(-3)], [f32(0.5), f32(2), f32(0.25)]],
            lambda a, b, d: np.arange(a, b, d, dtype=f32))
# CHECK: ok: range int32
i32 = np.int32
range_i = model("Range", [("a", i32, []), ("b", i32, []), ("d", i32, [])], [("y", i32, [None])])
check_model("range int32", range_i,
            [[i32(0), i32(7), i32(3)], [i32(5), i32(5), i32(1)], [i32(4), i32(-4), i32(-3)]],
            lambda a, b, d: np.arange(a, b, d, dtype=i32))

# Slice: starts, ends, axes and steps at run time (negative, out of range, backwards).
def onnx_slice(x, starts, ends, axes=None, steps=None):
    axes = range(len(starts)) if axes is None else axes
    steps = [1] * len(starts) if steps is None else steps
    index = [slice(None)] * x.ndim
    for s, e, a, t in zip(starts, ends, axes, steps):
        index[a] = slice(s, e, t)
    return x[tuple(index)]


# CHECK: ok: slice
sl = rng.standard_normal((4, 5, 6)).astype(np.float32)
slice_all = model("Slice", [("x", np.float32, [4, 5, 6]), ("s", np.int64, [2]),
                            ("e", np.int64, [2]), ("a", np.int64, [2]), ("t", np.int64, [2])],
                  [("y", np.float32, [None, None, None])])
check_model("slice", slice_all,
            [[sl, i64([1, -1]), i64([1000, -7]), i64([0, -1]), i64([2, -2])],
             [sl, i64([4, 0]), i64([1, 3]), i64([1, 2]), i64([-1, 1])]],
            lambda x, s, e, a, t: onnx_slice(x, s, e, a, t))
# CHECK: ok: slice default axes
slice_se = model("Slice", [("x", np.float32, [4, 5, 6]), ("s", np.int64, [2]),
                           ("e", np.int64, [2])], [("y", np.float32, [None, None, None])])
check_model("slice default axes", slice_se,
            [[sl, i64([0, 1]), i64([2, 3])], [sl, i64([-3, 0]), i64([-1, -1])]],
            lambda x, s, e: onnx_slice(x, s, e))

# OneHot: depth and values at run time; negative indices wrap, ones out of range match
# nothing; float indices and depth are truncated.
def one_hot(indices, depth, values, axis):
    depth = int(depth)
    indices = indices.astype(np.int64)
    indices = np.where(indices < 0, indices + depth, indices)
    hot = np.expand_dims(indices, axis) == np.arange(depth).reshape(
        [depth if k == (axis % (indices.ndim + 1)) else 1 for k in range(indices.ndim + 1)])
    return np.where(hot, values[1], values[0])


# CHECK: ok: onehot
oh = model("OneHot", [("i", np.int64, [2, 2]), ("d", np.int64, []), ("v", np.float32, [2])],
           [("y", np.float32, [None, None, None])], {"axis": 1}, opset=11)
idx = i64([[1, -1], [3, 9]])
check_model("onehot", oh, [[idx, i64(4), np.float32([0, 5])], [idx, i64(10), np.float32([2, 3])]],
            lambda i, d, v: one_hot(i, d, v, 1))
# CHECK: ok: onehot float
ohf = model("OneHot", [("i", np.float32, [3]), ("d", np.float32, []), ("v", np.int32, [2])],
            [("y", np.int32, [None, None])], opset=11)
check_model("onehot float", ohf,
            [[np.float32([0, 2.7, -1]), np.float32(3.5), np.int32([0, 1])],
             [np.float32([4, 1, 0]), np.float32(5), np.int32([-1, 7])]],
            lambda i, d, v: one_hot(i, d, v, -1))

# Unsqueeze: axes at run time (negative ones count from the output's end).
def unsqueeze(x, axes):
    out_rank = x.ndim + len(axes)
    for a in sorted(int(a) % out_rank for a in axes):
        x = np.expand_dims(x, a)
    return x


# CHECK: ok: unsqueeze
uq = model("Unsqueeze", [("x", np.float32, [2, 3]), ("a", np.int64, [2])],
           [("y", np.float32, [None, None, None, None])])
check_model("unsqueeze", uq, [[t, i64([0, -1])], [t, i64([2, 1])]],
            lambda x, a: unsqueeze(x, a))

# Squeeze: axes at run time.
# CHECK: ok: squeeze
sq_x = rng.standard_normal((1, 3, 1, 2)).astype(np.float32)
sq = model("Squeeze", [("x", np.float32, [1, 3, 1, 2]), ("a", np.int64, [1])],
           [("y", np.float32, [None, None, None])])
check_model("squeeze", sq, [[sq_x, i64([0])], [sq_x, i64([-2])]],
            lambda x, a: np.squeeze(x, tuple(int(v) for v in a)))

# A delta computed from a dynamic dim: the length is computed at run time too.
# CHECK: ok: range symbolic delta
range_sym = make_model(
    [helper.make_node("Constant", [], ["zero"], value_int=0),
     helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Gather", ["s", "zero"], ["n"]),
     helper.make_node("Range", ["zero", "n", "n"], ["y"], name="range")],
    [tensor_info("x", f32, ["n"])], [tensor_info("y", np.int64, [None])])
check_model("range symbolic delta", range_sym, [[np.zeros(2, f32)], [np.zeros(5, f32)]],
            lambda x: np.arange(0, len(x), len(x)))

# Run-time errors: each names what broke.
# CHECK: ok: constant of shape negative
# CHECK-NEXT: error: {{.*}}vm.builtin.tensor_to_shape: entry 1 of the tensor is -3; a shape's dims are not negative
expect_error("constant of shape negative", cos, [i64([2, -3])], "entry 1 of the tensor is -3")
# CHECK: ok: reshape count
# CHECK-NEXT: error: {{.*}}cannot reshape a tensor of shape (2, 3, 4) (24 elements) to (5, 3, 1) (15 elements)
expect_error("reshape count", reshape, [x, i64([5, 0, 1])], "cannot reshape")
# CHECK: ok: expand mismatch
# CHECK-NEXT: error: {{.*}}: match_cast 'shape' ({{.*}}.onnx, node 'expand' (Expand, opset 13)), expected R.Shape([y_0, 3, y_2]): dimension 1 is 2, expected 3
expect_error("expand mismatch", expand, [e, i64([1, 2, 4])], "dimension 1 is 2, expected 3")
# CHECK: ok: range zero delta
# CHECK-NEXT: error: {{.*}}vm.builtin.tensor_to_shape: entry 0 of the tensor is -1
expect_error("range zero delta", range_i, [i32(0), i32(3), i32(0)], "entry 0 of the tensor is -1")

# CHECK: ok: slice axis out of range
# CHECK-NEXT: error: {{.*}}vm.builtin.tensor_to_shape: entry 0 of the tensor is -1
expect_error("slice axis out of range", slice_all,
             [sl, i64([0, 0]), i64([1, 1]), i64([0, 3]), i64([1, 1])], "is -1")

# CHECK: ok: slice zero step
# CHECK-NEXT: error: {{.*}}vm.builtin.tensor_to_shape: entry 1 of the tensor is -1
expect_error("slice zero step", slice_all,
             [sl, i64([0, 0]), i64([1, 1]), i64([0, 1]), i64([1, 0])], "is -1")

# CHECK: ok: unsqueeze repeated axis
# CHECK-NEXT: error: {{.*}}vm.builtin.tensor_to_shape: entry 1 of the tensor is -1
expect_error("unsqueeze repeated axis", uq, [t, i64([1, 1])], "is -1")

# CHECK: ok: squeeze a dim that is not 1
# CHECK-NEXT: error: {{.*}}vm.builtin.tensor_to_shape: entry 0 of the tensor is -1
expect_error("squeeze a dim that is not 1", sq, [sq_x, i64([1])], "is -1")

# A shape whose length is not known at import gives the output no rank: refused.
# CHECK: ok: reshape unknown length
# CHECK-NEXT: error: {{.*}}: node 'reshape' (Reshape, opset 13): unsupported: input 1 'shape' is known only at run time and so is its length, which gives the output's rank; relaxc needs the rank when the model is imported
reshape_any = model("Reshape", [("x", np.float32, [2, 3, 4]), ("s", np.int64, [None])],
                    [("y", np.float32, [None, None])])
expect_error("reshape unknown length", reshape_any, [x, i64([6, 4])], "its length")
