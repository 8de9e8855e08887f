# The shape family's converters on static shapes, each node run through relaxc on
# lavapipe and compared with NumPy: Shape (start/end), Size, Reshape (0, -1,
# allowzero), Flatten, Squeeze/Unsqueeze (axes attribute before opset 13, input after),
# Transpose, Concat, Split, Slice (negative steps, clamping), Expand, Tile, Pad,
# ConstantOfShape, Range, EyeLike.
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL

import numpy as np
from onnx import helper, numpy_helper
from onnx_check import check_node

rng = np.random.default_rng(0)
x = rng.standard_normal((2, 3, 4)).astype(np.float32)
i64 = lambda v: np.asarray(v, np.int64)

check_node("Shape", {"x": x}, lambda x: i64(x.shape))
check_node("Shape", {"x": x}, lambda x: i64(x.shape[1:]), attrs={"start": -2}, opset=15,
           name="Shape start")
check_node("Shape", {"x": x}, lambda x: i64(x.shape[:1]), attrs={"start": 0, "end": 1},
           opset=15, name="Shape end")
check_node("Size", {"x": x}, lambda x: i64(x.size))

check_node("Reshape", {"x": x, "shape": i64([0, -1])}, lambda x, shape: x.reshape(2, 12),
           constants={"shape"})
check_node("Reshape", {"x": x, "shape": i64([4, 3, 2])}, lambda x, shape: x.reshape(4, 3, 2),
           constants={"shape"}, name="Reshape plain")
check_node("Reshape", {"x": np.zeros((0, 3), np.float32), "shape": i64([3, 0])},
           lambda x, shape: x.reshape(3, 0), attrs={"allowzero": 1}, opset=14,
           constants={"shape"}, name="Reshape allowzero")
check_node("Flatten", {"x": x}, lambda x: x.reshape(2, 12))
check_node("Flatten", {"x": x}, lambda x: x.reshape(6, 4), attrs={"axis": -1},
           name="Flatten axis -1")
check_node("Flatten", {"x": x}, lambda x: x.reshape(1, 24), attrs={"axis": 0},
           name="Flatten axis 0")

y = rng.standard_normal((1, 3, 1, 2)).astype(np.float32)
check_node("Squeeze", {"x": y, "axes": i64([0, -2])}, lambda x, axes: x.reshape(3, 2),
           constants={"axes"})
check_node("Squeeze", {"x": y}, lambda x: x.reshape(3, 2), name="Squeeze all")
check_node("Squeeze", {"x": y}, lambda x: x.reshape(3, 1, 2), attrs={"axes": [0]}, opset=11,
           name="Squeeze opset 11")
check_node("Unsqueeze", {"x": x, "axes": i64([0, -1])}, lambda x, axes: x[None, ..., None],
           constants={"axes"})
check_node("Unsqueeze", {"x": x}, lambda x: x[:, None], attrs={"axes": [1]}, opset=11,
           name="Unsqueeze opset 11")

check_node("Transpose", {"x": x}, lambda x: x.transpose())
check_node("Transpose", {"x": x}, lambda x: x.transpose(1, 0, 2), attrs={"perm": [1, 0, 2]},
           name="Transpose perm")
check_node("Concat", {"a": x, "b": x[:, :1]}, lambda a, b: np.concatenate([a, b], 1),
           attrs={"axis": -2})

check_node("Split", {"x": x}, lambda x: tuple(np.split(x, 2, 2)), attrs={"axis": 2},
           outputs=("y0", "y1"))
check_node("Split", {"x": x, "split": i64([1, 3])}, lambda x, split: tuple(np.split(x, [1], 2)),
           attrs={"axis": -1}, outputs=("y0", "y1"), constants={"split"}, name="Split sizes")
check_node("Split", {"x": x}, lambda x: tuple(np.split(x, [2], 1)),
           attrs={"axis": 1, "split": [2, 1]}, outputs=("y0", "y1"), opset=11,
           name="Split opset 11")

big = np.iinfo(np.int64).max
check_node("Slice", {"x": x, "starts": i64([1, -1]), "ends": i64([big, -big]),
                     "axes": i64([1, 2]), "steps": i64([1, -2])},
           lambda x, **_: x[:, 1:, ::-2], constants={"starts", "ends", "axes", "steps"})
check_node("Slice", {"x": x, "starts": i64([-10]), "ends": i64([2])},
           lambda x, **_: x[:2], constants={"starts", "ends"}, name="Slice clamp")
check_node("Slice", {"x": x}, lambda x: x[:, 0:2], attrs={"starts": [0], "ends": [2],
                                                          "axes": [1]}, opset=9,
           name="Slice opset 9")

z = rng.standard_normal((3, 1)).astype(np.float32)
check_node("Expand", {"x": z, "shape": i64([2, 1, 4])},
           lambda x, shape: np.broadcast_to(x, (2, 3, 4)), constants={"shape"})
check_node("Tile", {"x": x, "repeats": i64([1, 2, 3])},
           lambda x, repeats: np.tile(x, (1, 2, 3)), constants={"repeats"})
check_node("Pad", {"x": x, "pads": i64([0, 1, 2, 0, 2, 1]), "value": np.float32(1.5)},
           lambda x, pads, value: np.pad(x, [(0, 0), (1, 2), (2, 1)], constant_values=1.5),
           constants={"pads", "value"})
for mode, np_mode in (("reflect", "reflect"), ("edge", "edge")):
    check_node("Pad", {"x": x, "pads": i64([0, 1, 2, 0, 1, 1])},
               lambda x, pads: np.pad(x, [(0, 0), (1, 1), (2, 1)], mode=np_mode),
               attrs={"mode": mode}, constants={"pads"}, name=f"Pad {mode}")
check_node("Pad", {"x": x}, lambda x: np.pad(x, [(0, 0), (1, 0), (0, 2)]),
           attrs={"pads": [0, 1, 0, 0, 0, 2]}, opset=7, name="Pad opset 7")

check_node("ConstantOfShape", {"shape": i64([2, 3])},
           lambda shape: np.full((2, 3), 7, np.int32), constants={"shape"},
           attrs={"value": numpy_helper.from_array(np.int32([7]))})
check_node("ConstantOfShape", {"shape": i64([4])}, lambda shape: np.zeros(4, np.float32),
           constants={"shape"}, name="ConstantOfShape default")
check_node("Range", {"start": np.float32(1), "limit": np.float32(2.5), "delta": np.float32(0.5)},
           lambda **_: np.arange(1, 2.5, 0.5, dtype=np.float32),
           constants={"start", "limit", "delta"})
check_node("Range", {"start": i64(10), "limit": i64(1), "delta": i64(-3)},
           lambda **_: np.arange(10, 1, -3, dtype=np.int64),
           constants={"start", "limit", "delta"}, name="Range int")
# A tiny step the other way: ONNX's max(ceil((limit - start) / delta), 0) elements is
# none, not a count past what an int64 holds (found by fuzz_onnx; NumPy's arange refuses
# it).
check_node("Range", {"start": np.float32(1), "limit": np.float32(2.75),
                     "delta": np.float32(-1.6e-27)},
           lambda **_: np.zeros((0,), np.float32),
           constants={"start", "limit", "delta"}, name="Range empty")
check_node("EyeLike", {"x": np.zeros((3, 4), np.float32)}, lambda x: np.eye(3, 4, 1, np.float32),
           attrs={"k": 1})
check_node("EyeLike", {"x": np.zeros((3, 3), np.float32)}, lambda x: np.eye(3, dtype=np.int64),
           attrs={"dtype": 7}, name="EyeLike dtype")
