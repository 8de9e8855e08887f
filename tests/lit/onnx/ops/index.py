# The index family's converters, each node run through relaxc on lavapipe and compared
# with NumPy: Gather, GatherElements, GatherND (batch_dims), ScatterElements and
# ScatterND (reductions), with negative indices as constants and as graph inputs;
# OneHot, Resize (nearest and linear, sizes and scales), DepthToSpace (DCR, CRD),
# SpaceToDepth, Trilu (k a constant or a graph input).
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL

import numpy as np
from onnx import helper
from onnx_check import check_model, check_node, make_model, tensor_info

rng = np.random.default_rng(0)
x = rng.standard_normal((3, 4, 5)).astype(np.float32)
i64 = lambda v: np.asarray(v, np.int64)

idx = i64([[0, -1], [2, -3]])
check_node("Gather", {"x": x, "i": idx}, lambda x, i: np.take(x, i, axis=1), attrs={"axis": 1})
check_node("Gather", {"x": x, "i": idx}, lambda x, i: np.take(x, i, axis=-1),
           attrs={"axis": -1}, constants={"i"}, name="Gather constant indices")
check_node("Gather", {"x": x, "i": i64(-2)}, lambda x, i: x[-2], constants={"i"},
           name="Gather scalar index")

ge = i64(rng.integers(-4, 4, size=(3, 2, 5)))
check_node("GatherElements", {"x": x, "i": ge},
           lambda x, i: np.take_along_axis(x, np.where(i < 0, i + 4, i), 1), attrs={"axis": 1})

gnd = i64([[[0, -1]], [[1, 2]]])
check_node("GatherND", {"x": x[:2], "i": gnd},
           lambda x, i: np.stack([x[0][None, 0, -1], x[1][None, 1, 2]]),
           attrs={"batch_dims": 1}, opset=12)
check_node("GatherND", {"x": x, "i": i64([[0, 1], [-1, -1]])},
           lambda x, i: np.stack([x[0, 1], x[-1, -1]]), name="GatherND negative")


def scatter_elements(data, indices, updates, axis, reduction):
    out = data.copy()
    indices = np.where(indices < 0, indices + data.shape[axis], indices)
    for pos in np.ndindex(indices.shape):
        target = list(pos)
        target[axis] = indices[pos]
        target = tuple(target)
        if reduction == "add":
            out[target] += updates[pos]
        elif reduction == "mul":
            out[target] *= updates[pos]
        else:
            out[target] = updates[pos]
    return out


data = rng.standard_normal((3, 4)).astype(np.float32)
updates = rng.standard_normal((3, 2)).astype(np.float32)
se = i64([[0, -1], [1, 2], [-4, 3]])
for reduction in ("none", "add", "mul"):
    check_node("ScatterElements", {"d": data, "i": se, "u": updates},
               lambda d, i, u: scatter_elements(d, i, u, 1, reduction),
               attrs={"axis": 1, "reduction": reduction}, opset=16,
               name=f"ScatterElements {reduction}")

snd_updates = rng.standard_normal((2, 4)).astype(np.float32)


def scatter_nd(d, i, u, reduction):
    out = d.copy()
    for k, row in enumerate(i):
        if reduction == "add":
            out[row[0]] += u[k]
        else:
            out[row[0]] = u[k]
    return out


check_node("ScatterND", {"d": data, "i": i64([[2], [-3]]), "u": snd_updates},
           lambda d, i, u: scatter_nd(d, i, u, "none"))
check_node("ScatterND", {"d": data, "i": i64([[1], [1]]), "u": snd_updates},
           lambda d, i, u: scatter_nd(d, i, u, "add"), attrs={"reduction": "add"}, opset=16,
           name="ScatterND add")

oh = i64([[0, 2], [-1, 1]])
check_node("OneHot", {"i": oh, "depth": i64(3), "values": np.float32([-1, 5])},
           lambda i, depth, values: np.where(np.eye(3)[i] > 0, 5, -1).astype(np.float32),
           constants={"depth", "values"})
check_node("OneHot", {"i": oh, "depth": i64(3), "values": i64([0, 1])},
           lambda i, depth, values: np.moveaxis(np.eye(3, dtype=np.int64)[i], -1, 0),
           attrs={"axis": 0}, constants={"depth", "values"}, name="OneHot axis 0")

img = rng.standard_normal((1, 2, 3, 4)).astype(np.float32)
empty = np.zeros((0,), np.float32)
check_node("Resize", {"x": img, "": None, "scales": np.float32([1, 1, 2, 2])},
           lambda x, scales: x.repeat(2, 2).repeat(2, 3), attrs={"mode": "nearest"},
           constants={"scales"}, opset=13, name="Resize nearest scales")


def linear_align_corners(x, h, w):
    def axis_weights(n_in, n_out):
        pos = np.arange(n_out) * (n_in - 1) / (n_out - 1)
        lo = np.floor(pos).astype(int)
        hi = np.minimum(lo + 1, n_in - 1)
        return lo, hi, (pos - lo).astype(np.float32)
    y0, y1, wy = axis_weights(x.shape[2], h)
    x0, x1, wx = axis_weights(x.shape[3], w)
    rows = x[:, :, y0] * (1 - wy)[:, None] + x[:, :, y1] * wy[:, None]
    return (rows[..., x0] * (1 - wx) + rows[..., x1] * wx).astype(np.float32)


check_node("Resize", {"x": img, "roi": empty, "scales": empty, "sizes": i64([1, 2, 5, 7])},
           lambda x, **_: linear_align_corners(x, 5, 7),
           attrs={"mode": "linear", "coordinate_transformation_mode": "align_corners"},
           constants={"roi", "scales", "sizes"}, opset=13, name="Resize linear sizes")

def linear_half_pixel(x, scale):
    def axis_weights(n_in):
        pos = np.clip((np.arange(n_in * scale) + 0.5) / scale - 0.5, 0, n_in - 1)
        lo = np.floor(pos).astype(int)
        return lo, np.minimum(lo + 1, n_in - 1), (pos - lo).astype(np.float32)
    y0, y1, wy = axis_weights(x.shape[2])
    x0, x1, wx = axis_weights(x.shape[3])
    rows = x[:, :, y0] * (1 - wy)[:, None] + x[:, :, y1] * wy[:, None]
    return (rows[..., x0] * (1 - wx) + rows[..., x1] * wx).astype(np.float32)


check_node("Resize", {"x": img, "roi": empty, "scales": np.float32([1, 1, 2, 2])},
           lambda x, **_: linear_half_pixel(x, 2), attrs={"mode": "linear"},
           constants={"roi", "scales"}, opset=13, name="Resize linear half_pixel")
check_node("Resize", {"x": img, "scales": np.float32([1, 1, 2, 2])},
           lambda x, scales: x.repeat(2, 2).repeat(2, 3), constants={"scales"}, opset=10,
           name="Resize opset 10")

d2s = rng.standard_normal((1, 8, 2, 3)).astype(np.float32)


def depth_to_space(x, b, mode):
    n, c, h, w = x.shape
    if mode == "DCR":
        t = x.reshape(n, b, b, c // (b * b), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        t = x.reshape(n, c // (b * b), b, b, h, w).transpose(0, 1, 4, 2, 5, 3)
    return t.reshape(n, c // (b * b), h * b, w * b)


for mode in ("DCR", "CRD"):
    check_node("DepthToSpace", {"x": d2s}, lambda x: depth_to_space(x, 2, mode),
               attrs={"blocksize": 2, "mode": mode}, name=f"DepthToSpace {mode}")
s2d = rng.standard_normal((1, 2, 4, 6)).astype(np.float32)
check_node("SpaceToDepth", {"x": s2d},
           lambda x: x.reshape(1, 2, 2, 2, 3, 2).transpose(0, 3, 5, 1, 2, 4).reshape(1, 8, 2, 3),
           attrs={"blocksize": 2})

m = rng.standard_normal((2, 4, 5)).astype(np.float32)
check_node("Trilu", {"x": m}, lambda x: np.triu(x), opset=14)
check_node("Trilu", {"x": m, "k": i64(-1)}, lambda x, k: np.tril(x, -1), attrs={"upper": 0},
           constants={"k"}, opset=14, name="Trilu lower k")
# k as a graph input, known only at run time: negative, zero, positive and past the
# matrix either way; an int32 matrix; a matrix of symbolic dims at two sizes.
for upper, reference in ((1, np.triu), (0, np.tril)):
    for k in (-2, 0, 3, -9, 7):
        check_node("Trilu", {"x": m, "k": i64(k)}, lambda x, k: reference(x, k),
                   attrs={"upper": upper}, opset=14, name=f"Trilu upper={upper} k={k} input")
check_node("Trilu", {"x": i64([[1, 2, 3], [4, 5, 6]]).astype(np.int32), "k": i64(1)},
           lambda x, k: np.tril(x, 1), attrs={"upper": 0}, opset=14, name="Trilu int32 k input")
symbolic = make_model([helper.make_node("Trilu", ["x", "k"], ["y"])],
                      [tensor_info("x", np.float32, ["b", "n", "m"]), tensor_info("k", np.int64, [])],
                      [tensor_info("y", np.float32, ["b", "n", "m"])], opset=14)
check_model("Trilu symbolic dims k input", symbolic,
            [{"x": m, "k": i64(1)}, {"x": m[:1, :3, :2], "k": i64(-1)}],
            lambda x, k: np.triu(x, k))
