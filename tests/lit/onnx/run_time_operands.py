# Operands of the index, reduce and shape families known only at run time (graph
# inputs, not constants): Resize's sizes and scales, ReduceSum's axes, Split's sizes, Pad's pads
# and constant value, TopK's K. Each model is built once and
# run at two values of the operand, compared with NumPy; what ONNX forbids (an axis out
# of range, sizes that change the batch) is a run-time error.
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL

import numpy as np
from onnx import helper
from onnx_check import check_model, expect_error, make_model, tensor_info

f32 = np.float32
i64 = lambda v: np.asarray(v, np.int64)
rng = np.random.default_rng(15)


def model(op_type, inputs, outputs, attrs=None, opset=13):
    node = helper.make_node(op_type, [i[0] for i in inputs], [o[0] for o in outputs],
                            name=op_type.lower(), **(attrs or {}))
    return make_model([node], [tensor_info(*i) for i in inputs],
                      [tensor_info(*o) for o in outputs], opset=opset)


# Resize with run-time sizes, nearest under asymmetric / floor: output pixel (i, j)
# reads input pixel (floor(i * h / H), floor(j * w / W)).
def resize_nearest(x, sizes):
    h, w = x.shape[2:]
    rows = np.floor(np.arange(sizes[2]) * (h / sizes[2])).astype(int)
    columns = np.floor(np.arange(sizes[3]) * (w / sizes[3])).astype(int)
    return x[:, :, rows][:, :, :, columns]


# CHECK: ok: resize sizes
img = rng.standard_normal((1, 2, 4, 6)).astype(f32)
resize = model("Resize", [("x", f32, [1, 2, 4, 6]), ("roi", f32, [0]), ("scales", f32, [0]),
                          ("sizes", np.int64, [4])],
               [("y", f32, [1, 2, None, None])],
               {"mode": "nearest", "coordinate_transformation_mode": "asymmetric",
                "nearest_mode": "floor"})
no = np.zeros(0, f32)
check_model("resize sizes", resize,
            [[img, no, no, i64([1, 2, 8, 3])], [img, no, no, i64([1, 2, 2, 12])]],
            lambda x, roi, scales, sizes: resize_nearest(x, sizes))




# Resize with run-time scales, linear: each output dim is floor(dim * scale) and the
# coordinates divide by the scale as ONNX does (half_pixel: (x + 0.5) / scale - 0.5;
# align_corners: x * (dim - 1) / (dim * scale - 1)), the two taps clamped to the image.
def linear_axis(x, axis, scale, mode):
    n = x.shape[axis]
    out = int(np.floor(f32(n) * f32(scale)))
    o = np.arange(out, dtype=np.float64)
    if mode == "half_pixel":
        src = (o + 0.5) / scale - 0.5
    else:
        length = n * scale
        src = o * (n - 1) / (length - 1) if length != 1 else np.zeros(out)
    low = np.floor(src)
    t = (src - low).reshape([-1 if d == axis else 1 for d in range(x.ndim)])
    i0 = np.clip(low.astype(int), 0, n - 1)
    i1 = np.clip(low.astype(int) + 1, 0, n - 1)
    return np.take(x, i0, axis) * (1 - t) + np.take(x, i1, axis) * t


def resize_linear(x, scales, mode):
    return linear_axis(linear_axis(x, 2, scales[2], mode), 3, scales[3], mode).astype(f32)


for mode in ("half_pixel", "align_corners"):
    # CHECK: ok: resize scales half_pixel
    # CHECK: ok: resize scales align_corners
    resize_s = model("Resize", [("x", f32, [1, 2, 4, 6]), ("roi", f32, [0]),
                                ("scales", f32, [4])],
                     [("y", f32, [1, 2, None, None])],
                     {"mode": "linear", "coordinate_transformation_mode": mode})
    check_model(f"resize scales {mode}", resize_s,
                [[img, no, f32([1, 1, 0.6, 1.7])], [img, no, f32([1, 1, 2.5, 0.5])]],
                lambda x, roi, scales, mode=mode: resize_linear(x, scales, mode), rtol=1e-4)

# ReduceSum with run-time axes (negative ones count from the end), kept or dropped.
def reduce_sum(x, axes, keepdims):
    return np.sum(x, axis=tuple(int(a) for a in axes), keepdims=keepdims)


r = rng.standard_normal((2, 3, 4)).astype(f32)
# CHECK: ok: reduce sum keepdims
rs_keep = model("ReduceSum", [("x", f32, [2, 3, 4]), ("a", np.int64, [2])],
                [("y", f32, [None, None, None])])
check_model("reduce sum keepdims", rs_keep, [[r, i64([0, 2])], [r, i64([-2, 0])]],
            lambda x, a: reduce_sum(x, a, True))
# CHECK: ok: reduce sum drop dims
rs_drop = model("ReduceSum", [("x", f32, ["n", 3, 4]), ("a", np.int64, [1])],
                [("y", f32, [None, None])], {"keepdims": 0})
r5 = rng.standard_normal((5, 3, 4)).astype(f32)
check_model("reduce sum drop dims", rs_drop, [[r, i64([1])], [r5, i64([-1])]],
            lambda x, a: reduce_sum(x, a, False))
# Axes of no entries: every axis, or none with noop_with_empty_axes.
# CHECK: ok: reduce sum empty axes
rs_empty = model("ReduceSum", [("x", f32, [2, 3, 4]), ("a", np.int64, [0])],
                 [("y", f32, [None, None, None])])
check_model("reduce sum empty axes", rs_empty, [[r, i64([])]],
            lambda x, a: np.sum(x, keepdims=True))
# CHECK: ok: reduce sum noop
rs_noop = model("ReduceSum", [("x", f32, [2, 3, 4]), ("a", np.int64, [0])],
                [("y", f32, [None, None, None])], {"noop_with_empty_axes": 1})
check_model("reduce sum noop", rs_noop, [[r, i64([])]], lambda x, a: x)

# Split: the sizes at run time, an empty part included.
# CHECK: ok: split
sp_x = rng.standard_normal((2, 6)).astype(f32)
split = make_model([helper.make_node("Split", ["x", "s"], ["a", "b", "c"], name="split", axis=1)],
                   [tensor_info("x", f32, [2, 6]), tensor_info("s", np.int64, [3])],
                   [tensor_info(o, f32, [2, None]) for o in "abc"])
check_model("split", split, [[sp_x, i64([1, 2, 3])], [sp_x, i64([4, 0, 2])]],
            lambda x, s: tuple(np.split(x, np.cumsum(s)[:-1], axis=1)))


# Pad: pads (all begins, then all ends; negative ones crop) and the value at run time.
def pad(x, pads, mode, value=0.0):
    rank = x.ndim
    begins, ends = pads[:rank], pads[rank:]
    x = x[tuple(slice(max(-b, 0), x.shape[d] - max(-e, 0))
                for d, (b, e) in enumerate(zip(begins, ends)))]
    widths = [(max(b, 0), max(e, 0)) for b, e in zip(begins, ends)]
    if mode == "constant":
        return np.pad(x, widths, mode="constant", constant_values=value)
    return np.pad(x, widths, mode=mode)


p_x = rng.standard_normal((3, 4)).astype(f32)
# CHECK: ok: pad constant
pad_c = model("Pad", [("x", f32, [3, 4]), ("p", np.int64, [4]), ("v", f32, [])],
              [("y", f32, [None, None])])
check_model("pad constant", pad_c,
            [[p_x, i64([1, 0, 2, 3]), f32(1.5)], [p_x, i64([0, -1, 1, 2]), f32(-2)]],
            lambda x, p, v: pad(x, p, "constant", v))
for mode in ("edge", "reflect"):
    # CHECK: ok: pad edge
    # CHECK: ok: pad reflect
    pad_m = model("Pad", [("x", f32, [3, 4]), ("p", np.int64, [4])], [("y", f32, [None, None])],
                  {"mode": mode})
    check_model(f"pad {mode}", pad_m, [[p_x, i64([2, 1, 0, 3])], [p_x, i64([0, 3, 2, 0])]],
                lambda x, p, mode=mode: pad(x, p, mode))

# TopK: K at run time; the whole axis is sorted (ties: the lower index first), then
# its first K kept.
def topk(x, k, largest):
    order = np.argsort(-x if largest else x, axis=1, kind="stable")[:, :int(k[0])]
    return np.take_along_axis(x, order, axis=1), order.astype(np.int64)


t_x = rng.integers(0, 4, (3, 5)).astype(f32)
# CHECK: ok: topk largest
# CHECK: ok: topk smallest
for largest in (1, 0):
    topk_m = make_model(
        [helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk", axis=-1, largest=largest)],
        [tensor_info("x", f32, [3, 5]), tensor_info("k", np.int64, [1])],
        [tensor_info("v", f32, [3, None]), tensor_info("i", np.int64, [3, None])])
    check_model("topk " + ("largest" if largest else "smallest"), topk_m,
                [[t_x, i64([2])], [t_x, i64([5])]],
                lambda x, k, largest=largest: topk(x, k, largest))

# Run-time errors: each names the node and what broke.
# CHECK: ok: resize sizes change the channels
# CHECK-NEXT: error: {{.*}}: match_cast 'shape' ({{.*}}.onnx, node 'resize' (Resize, opset 13)), expected R.Shape([1, 2, y_2, y_3]): dimension 1 is 3, expected 2
expect_error("resize sizes change the channels", resize, [img, no, no, i64([1, 3, 8, 3])],
             "dimension 1 is 3, expected 2")
# CHECK: ok: resize scales change the channels
# CHECK-NEXT: error: {{.*}}vm.builtin.tensor_to_shape: entry 1 of the tensor is -1
expect_error("resize scales change the channels", resize_s, [img, no, f32([1, 2, 1, 1])],
             "entry 1 of the tensor is -1")
# CHECK: ok: resize scales not positive
# CHECK-NEXT: error: {{.*}}vm.builtin.tensor_to_shape: entry 3 of the tensor is -1
expect_error("resize scales not positive", resize_s, [img, no, f32([1, 1, 2, 0])],
             "entry 3 of the tensor is -1")
# CHECK: ok: resize scales wrong length
# CHECK-NEXT: error: {{.*}}: node 'resize' (Resize, opset 13): invalid: input 2 'scales' must be a float32 tensor of 4 entries
resize_3 = model("Resize", [("x", f32, [1, 2, 4, 6]), ("roi", f32, [0]), ("scales", f32, [3])],
                 [("y", f32, [1, 2, None, None])], {"mode": "linear"})
expect_error("resize scales wrong length", resize_3, [img, no, f32([1, 1, 2])], "4 entries",
             command="build")
# CHECK: ok: reduce sum axis out of range
# CHECK-NEXT: error: {{.*}}vm.builtin.tensor_to_shape: entry 0 of the tensor is -1
expect_error("reduce sum axis out of range", rs_keep, [r, i64([0, 3])], "is -1")
# CHECK: ok: reduce sum repeated axis
# CHECK-NEXT: error: in main, instruction {{[0-9]+}} ({{.*}}.onnx, node 'reducesum' (ReduceSum, opset 13)): vm.builtin.tensor_to_shape: entry 1 of the tensor is -1
expect_error("reduce sum repeated axis", rs_keep, [r, i64([1, -2])], "is -1")
# Axes whose length is not known at import give the output no rank: refused.
# CHECK: ok: reduce sum unknown length
# CHECK-NEXT: error: {{.*}}: node 'reducesum' (ReduceSum, opset 13): unsupported: input 1 'axes' is known only at run time and so is its length, which gives the output's rank; relaxc needs the rank when the model is imported
rs_any = model("ReduceSum", [("x", f32, [2, 3, 4]), ("a", np.int64, [None])],
               [("y", f32, [None, None, None])])
expect_error("reduce sum unknown length", rs_any, [r, i64([0])], "its length")
# CHECK: ok: split sizes do not add up
# CHECK-NEXT: error: in main, instruction {{[0-9]+}} ({{.*}}.onnx, node 'split' (Split, opset 13)): vm.builtin.tensor_to_shape: entry 0 of the tensor is -1
expect_error("split sizes do not add up", split, [sp_x, i64([1, 2, 2])], "is -1")
# CHECK: ok: pad reflect past the edge
# CHECK-NEXT: error: in main, instruction {{[0-9]+}} ({{.*}}.onnx, node 'pad' (Pad, opset 13)): vm.builtin.tensor_to_shape: entry 1 of the tensor is -1
expect_error("pad reflect past the edge", pad_m, [p_x, i64([0, 4, 0, 0])], "is -1")
# CHECK: ok: pad constant crops too much
# CHECK-NEXT: error: {{.*}}vm.builtin.tensor_to_shape: entry 0 of the tensor is -1
expect_error("pad constant crops too much", pad_c, [p_x, i64([-2, 0, -2, 0]), f32(0)], "is -1")
# CHECK: ok: pad wrong length
# CHECK-NEXT: error: {{.*}}: node 'pad' (Pad, opset 13): invalid: input 1 'pads' has 2 entries; an input of rank 2 needs 4
pad_short = model("Pad", [("x", f32, [3, 4]), ("p", np.int64, [2])], [("y", f32, [None, None])])
expect_error("pad wrong length", pad_short, [p_x, i64([1, 1])], "needs 4", command="build")
# CHECK: ok: topk K past the axis
# CHECK-NEXT: error: in main, instruction {{[0-9]+}} ({{.*}}.onnx, node 'topk' (TopK, opset 13)): vm.builtin.tensor_to_shape: entry 0 of the tensor is -1
expect_error("topk K past the axis", topk_m, [t_x, i64([6])], "is -1")
# CHECK: ok: topk symbolic axis
# CHECK-NEXT: error: {{.*}}: node 'topk' (TopK, opset 13): unsupported: input 1 'K' is known only at run time and axis 1 has the symbolic length n; relaxc sorts the whole axis, whose length it needs at import
topk_n = make_model([helper.make_node("TopK", ["x", "k"], ["v", "i"], name="topk")],
                    [tensor_info("x", f32, [3, "n"]), tensor_info("k", np.int64, [1])],
                    [tensor_info("v", f32, [3, None]), tensor_info("i", np.int64, [3, None])])
expect_error("topk symbolic axis", topk_n, [t_x, i64([2])], "symbolic length", command="build")
