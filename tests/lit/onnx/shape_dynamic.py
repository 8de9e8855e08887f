# A graph with dynamic batch and sequence length whose shapes are computed the way
# PyTorch exports x.view(batch, seq, heads, dim): Shape, Gather, Unsqueeze, Concat and
# arithmetic on shapes feed Reshape, Range and Slice. The import has symbolic shapes
# only (no data-dependent ones); the model is built ONCE and run at two batch sizes and
# two sequence lengths, compared with NumPy.
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK: ok: import
# CHECK: def main(x: R.Tensor(("batch", "seq", 32), dtype="float32"))
# CHECK: v: R.Tensor((batch, seq, 4, 8), dtype="float32") = R.reshape(x, R.shape([batch, seq, 4, 8]))
# CHECK: z: R.Tensor((batch, seq * 32), dtype="float32") = R.reshape(x, R.shape([batch, seq * 32]))
# CHECK: positions{{.*}}: R.Tensor((seq,), dtype="int64") = R.cumsum(
# CHECK: R.take(x, {{.*}}, axis=1
# CHECK: ok: every shape symbolic
# CHECK: ok: build once
# CHECK: ok: batch 1 seq 3
# CHECK: ok: batch 1 seq 7
# CHECK: ok: batch 4 seq 3
# CHECK: ok: batch 4 seq 7

import os

import numpy as np
import onnx_check
from onnx import helper, numpy_helper
from onnx_check import make_model, tensor_info


def const(name, values):
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(np.asarray(values, np.int64)))


nodes = [
    helper.make_node("Shape", ["x"], ["s"]),
    const("zero", 0), const("one", 1), const("heads_dim", [4, 8]), const("step", 1),
    const("width", [32]), const("last", [-1]), const("axis1", [1]),
    helper.make_node("Gather", ["s", "zero"], ["b"], axis=0),
    helper.make_node("Gather", ["s", "one"], ["q"], axis=0),
    helper.make_node("Unsqueeze", ["b", "zero_axes"], ["ub"]),
    helper.make_node("Unsqueeze", ["q", "zero_axes"], ["uq"]),
    # view(batch, seq, 4, 8) and its heads-first transpose
    helper.make_node("Concat", ["ub", "uq", "heads_dim"], ["target"], axis=0),
    helper.make_node("Reshape", ["x", "target"], ["v"]),
    helper.make_node("Transpose", ["v"], ["y"], perm=[0, 2, 1, 3]),
    # view(batch, seq * 32), the product computed on shapes
    helper.make_node("Mul", ["uq", "width"], ["flat"]),
    helper.make_node("Concat", ["ub", "flat"], ["target2"], axis=0),
    helper.make_node("Reshape", ["x", "target2"], ["z"]),
    # positions arange(seq), and x[:, :seq - 1] (a slice bound computed from seq)
    helper.make_node("Range", ["zero", "q", "step"], ["positions"]),
    helper.make_node("Sub", ["uq", "one_1d"], ["end"]),
    helper.make_node("Slice", ["x", "zero_1d", "end", "axis1"], ["head"]),
    # the shape itself, as an output
    helper.make_node("Shape", ["x"], ["shape"]),
]
nodes += [const("zero_axes", [0]), const("one_1d", [1]), const("zero_1d", [0])]
# Constants first, in the order the graph uses them.
nodes = [n for n in nodes if n.op_type == "Constant"] + \
        [n for n in nodes if n.op_type != "Constant"]
model = make_model(
    nodes, [tensor_info("x", np.float32, ["batch", "seq", 32])],
    [tensor_info("y", np.float32, ["batch", 4, "seq", 8]),
     tensor_info("z", np.float32, ["batch", None]),
     tensor_info("positions", np.int64, [None]),
     tensor_info("head", np.float32, ["batch", None, 32]),
     tensor_info("shape", np.int64, [3])])
path = onnx_check.save("dynamic", model)
relaxc = onnx_check.RELAXC


onnx_check.import_with_symbolic_shapes(path)
executable = os.path.join(onnx_check.WORK, "dynamic.rxe")
onnx_check.step("build once", [relaxc, "build", path, "--target", "vulkan", "-o", executable])
rng = np.random.default_rng(0)
for batch in (1, 4):
    for seq in (3, 7):
        x = rng.standard_normal((batch, seq, 32)).astype(np.float32)
        inputs = os.path.join(onnx_check.WORK, f"x_{batch}_{seq}.npy")
        np.save(inputs, x)
        out = os.path.join(onnx_check.WORK, f"out_{batch}_{seq}")
        name = f"batch {batch} seq {seq}"
        if not onnx_check.step(f"run {name}", [relaxc, "run", executable, "--device",
                                               onnx_check.DEVICE, "--input", inputs,
                                               "--output-dir", out]):
            continue
        expected = [x.reshape(batch, seq, 4, 8).transpose(0, 2, 1, 3),
                    x.reshape(batch, seq * 32), np.arange(seq, dtype=np.int64),
                    x[:, :seq - 1], np.array([batch, seq, 32], np.int64)]
        why = None
        for k, reference in enumerate(expected):
            why = why or onnx_check._compare(name, k, np.load(os.path.join(out, f"main_{k}.npy")),
                                            reference, 1e-6, 1e-6)
        if why:
            onnx_check._fail(name, why)
        else:
            print(f"ok: {name}")
