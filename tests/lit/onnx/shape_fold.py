# Shape computations folded at import on a graph with dynamic dims, in the forms PyTorch
# exports them: x.expand(b, -1, -1) (ConstantOfShape, Mul, Equal, Where on the target),
# zeros(b, n // 2) (Div, ConstantOfShape of a symbolic shape), Size, Cast to int32 and
# back, Max, Slice and Squeeze of a shape, Gather with a negative index, arange(n)
# from a shape. Each model runs at two sizes against NumPy; none has a data-dependent
# shape.
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL
# CHECK: ok: expand
# CHECK-NEXT: y: R.Tensor((b, n, 4), dtype="float32") = R.broadcast_to(x, R.shape([b, n, 4]))
# CHECK: ok: constant of shape
# CHECK-NEXT: y: R.Tensor((b, n // 2), dtype="int32") = R.full(R.shape([b, n // 2]), R.const(7, "int32"), dtype="int32")
# CHECK: ok: tile
# CHECK-NEXT: def main(x: R.Tensor(("b", "n"), dtype="float32")) -> R.Tensor(("b * (b // 2)", "n * 3"), dtype="float32"):
# CHECK: ok: scalars
# CHECK-NEXT: def main(x: R.Tensor(("b", "n", "w"), dtype="float32")) -> R.Tuple(R.Tensor((), dtype="int64"), R.Tensor((), dtype="int64"), R.Tensor(("n",), dtype="int64"), R.Tensor((), dtype="int64"), R.Tensor((), dtype="int64")):

import subprocess

import numpy as np
import onnx_check
from onnx import TensorProto, helper, numpy_helper
from onnx_check import check_model, make_model, tensor_info


def show_import(name, model, needle):
    """Prints the imported module's lines that contain `needle`; fails on a shape not
    known at import (R.Tensor(ndim=...) or R.Tensor(dtype=...))."""
    path = onnx_check.save(name, model)
    result = subprocess.run([onnx_check.RELAXC, "import", path, "-o", "-"],
                            capture_output=True, text=True)
    if result.returncode != 0 or "ndim=" in result.stdout or "R.Tensor(dtype" in result.stdout:
        return onnx_check._fail(name, f"import:\n{result.stdout}{result.stderr}")
    for line in result.stdout.splitlines():
        if needle in line:
            print(line.strip())


def const(name, values, dtype=np.int64):
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(np.asarray(values, dtype)))


def node(op, inputs, outputs, **attrs):
    return helper.make_node(op, inputs, outputs, **attrs)


# x: (1, n, 4) expanded to (b, n, 4), b taken from t: (b,).
expand = make_model([
    const("zero", [0]), const("three", [3]), const("minus_one", -1),
    node("Shape", ["t"], ["st"]),
    node("Gather", ["st", "zero"], ["b"], axis=0),
    const("rest", [-1, -1]),
    node("Concat", ["b", "rest"], ["target"], axis=0),
    node("ConstantOfShape", ["three"], ["ones"],
         value=numpy_helper.from_array(np.int64([1]))),
    node("Mul", ["ones", "minus_one"], ["minus_ones"]),
    node("Equal", ["target", "minus_ones"], ["is_minus_one"]),
    node("Where", ["is_minus_one", "ones", "target"], ["shape"]),
    node("Expand", ["x", "shape"], ["y"]),
], [tensor_info("x", np.float32, [1, "n", 4]), tensor_info("t", np.float32, ["b"])],
    [tensor_info("y", np.float32, ["b", "n", 4])])
runs = [{"x": np.random.rand(1, n, 4).astype(np.float32), "t": np.zeros(b, np.float32)}
        for b, n in ((2, 3), (5, 1))]
check_model("expand", expand, runs, lambda x, t: np.broadcast_to(x, (t.size,) + x.shape[1:]))
show_import("expand import", expand, "R.broadcast_to")

# zeros(b, n // 2) of int32, via Div and a Cast round trip.
zeros = make_model([
    const("zero", [0]), const("one", [1]), const("two", 2),
    node("Shape", ["x"], ["s"]),
    node("Gather", ["s", "zero"], ["b"]),
    node("Gather", ["s", "one"], ["n"]),
    node("Div", ["n", "two"], ["half"]),
    node("Cast", ["half"], ["half32"], to=TensorProto.INT32),
    node("Cast", ["half32"], ["half64"], to=TensorProto.INT64),
    node("Concat", ["b", "half64"], ["shape"], axis=0),
    node("ConstantOfShape", ["shape"], ["y"], value=numpy_helper.from_array(np.int32([7]))),
], [tensor_info("x", np.float32, ["b", "n"])], [tensor_info("y", np.int32, ["b", None])])
check_model("constant of shape", zeros,
            [{"x": np.zeros((2, 6), np.float32)}, {"x": np.zeros((3, 9), np.float32)}],
            lambda x: np.full((x.shape[0], x.shape[1] // 2), 7, np.int32))
show_import("constant of shape import", zeros, "R.full")

# x.repeat(b // 2, 3): Tile with repeats computed from a dynamic dim.
tile = make_model([
    const("zero", [0]), const("two", [2]), const("three", [3]),
    node("Shape", ["x"], ["s"]),
    node("Gather", ["s", "zero"], ["b"]),
    node("Div", ["b", "two"], ["half"]),
    node("Concat", ["half", "three"], ["repeats"], axis=0),
    node("Tile", ["x", "repeats"], ["y"]),
], [tensor_info("x", np.float32, ["b", "n"])], [tensor_info("y", np.float32, [None, None])])
check_model("tile", tile, [{"x": np.random.rand(4, 3).astype(np.float32)},
                           {"x": np.random.rand(2, 1).astype(np.float32)}],
            lambda x: np.tile(x, (x.shape[0] // 2, 3)))
show_import("tile import", tile, "def main")

# Scalars: Size, Max, the last dim by a negative Gather, a Slice and Squeeze of the shape,
# arange(n) from it; every output a tensor the graph computes.
scalars = make_model([
    const("last", -1), const("start", [1]), const("end", [2]), const("step", 1),
    const("zero", 0), const("four", 4),
    node("Shape", ["x"], ["s"]),
    node("Size", ["x"], ["size"]),
    node("Gather", ["s", "last"], ["w"]),
    node("Max", ["w", "four"], ["wide"]),
    node("Slice", ["s", "start", "end"], ["n1"]),
    node("Squeeze", ["n1"], ["n"]),
    node("Range", ["zero", "n", "step"], ["positions"]),
    node("Mod", ["w", "four"], ["rem"]),
    node("Sum", ["w", "n", "four"], ["total"]),
], [tensor_info("x", np.float32, ["b", "n", "w"])],
    [tensor_info("size", np.int64, []), tensor_info("wide", np.int64, []),
     tensor_info("positions", np.int64, [None]), tensor_info("rem", np.int64, []),
     tensor_info("total", np.int64, [])])
check_model("scalars", scalars,
            [{"x": np.zeros((2, 3, 5), np.float32)}, {"x": np.zeros((1, 6, 2), np.float32)}],
            lambda x: (np.int64(x.size), np.int64(max(x.shape[2], 4)),
                       np.arange(x.shape[1], dtype=np.int64), np.int64(x.shape[2] % 4),
                       np.int64(x.shape[2] + x.shape[1] + 4)))
show_import("scalars import", scalars, "def main")
