# The ONNX importer on models of the core operators (Constant, Identity, Dropout):
# dim_param dims shared between inputs, unnamed dynamic dims, initializers, several
# outputs printed with their ONNX names, and the import / build / run commands.
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s
# RUN: %relaxc import %t/shared.onnx | FileCheck %s --check-prefix=IMPORT
# RUN: %relaxc import %t/shared.onnx -o %t/shared.py
# RUN: %relaxc build %t/shared.py --target "vulkan -profile=desktop" -o %t/from_py.rxe
# RUN: %relaxc build %t/shared.onnx --target "vulkan -profile=desktop" -o %t/shared.rxe
# RUN: %relaxc run %t/shared.rxe --input %t/x2.npy --input %t/z2.npy | FileCheck %s --check-prefix=RXE
# RUN: %relaxc run %t/from_py.rxe --input %t/x2.npy --input %t/z2.npy | FileCheck %s --check-prefix=RXE
# RUN: %relaxc run %t/shared.onnx --input %t/x2.npy --input %t/z2.npy | FileCheck %s --check-prefix=ONNX
# RUN: %relaxc --help | FileCheck %s --check-prefix=HELP
# RUN: %relaxc run --help | FileCheck %s --check-prefix=RUNHELP

import numpy as np
from onnx import helper, mapping, numpy_helper
import onnx_check
from onnx_check import check_model, check_node, make_model, tensor_info, write

rng = np.random.default_rng(15)
x2, x5 = rng.standard_normal((2, 3), np.float32), rng.standard_normal((5, 3), np.float32)
z2, z5 = rng.standard_normal((2, 4), np.float32), rng.standard_normal((5, 7), np.float32)

# Two inputs share `batch`; z's second dim has no name (a shape variable of its own).
shared = make_model(
    [helper.make_node("Identity", ["x"], ["y"]),
     helper.make_node("Dropout", ["z"], ["d", "mask"]),
     helper.make_node("Constant", [], ["c"],
                      value=numpy_helper.from_array(np.float32([[1, 2], [3, 4]])))],
    [tensor_info("x", np.float32, ["batch", 3]), tensor_info("z", np.float32, ["batch", None])],
    [tensor_info("y", np.float32, ["batch", 3]), tensor_info("c", np.float32, [2, 2]),
     tensor_info("d", np.float32, ["batch", None]), tensor_info("mask", np.bool_, ["batch", None])])
write(shared, "shared.onnx")
np.save(onnx_check.WORK + "/x2.npy", x2)
np.save(onnx_check.WORK + "/z2.npy", z2)
check_model("dim_param shared, two sizes", shared, [{"x": x2, "z": z2}, {"x": x5, "z": z5}],
            lambda x, z: (x, np.float32([[1, 2], [3, 4]]), z, np.ones(z.shape, np.bool_)))
# CHECK: ok: dim_param shared, two sizes

# IMPORT: def main(x: R.Tensor(("batch", 3), dtype="float32"), z: R.Tensor(("batch", "z_dim1"), dtype="float32"))
# IMPORT: R.func_attr({"onnx_output_names": ["y", "c", "d", "mask"]})
# IMPORT: with R.dataflow():
# IMPORT: R.ones_like(z, dtype="bool")
# IMPORT: R.const({{.}}[1.0, 2.0], [3.0, 4.0]], "float32")
# IMPORT: return (y, c, d_1, mask)

# RXE: main_0: float32 (2, 3)
# RXE: main_3: bool (2, 4) [true, true,
# ONNX: main_0 'y': float32 (2, 3)
# ONNX: main_1 'c': float32 (2, 2) [1, 2, 3, 4]
# ONNX: main_2 'd': float32 (2, 4)
# ONNX: main_3 'mask': bool (2, 4) [true, true,

# HELP: import  import an ONNX model (FILE.onnx) and print it as a text module
# HELP: a file named *.onnx is an ONNX model
# RUNHELP: or an ONNX model (.onnx, imported as
# RUNHELP: main_0 'logits'

# Initializers: constants of every element type relaxc has, from raw_data and from the
# typed fields; an input that has an initializer is a constant, not a parameter.
weights = {
    "f32": np.float32([[1.5, -2], [0.25, 8]]), "f64": np.float64([1e-300, 3]),
    "f16": np.float16([1, -0.5, 65504]), "i8": np.int8([-128, 127]), "u8": np.uint8([0, 255]),
    "i16": np.int16([-3, 4]), "u16": np.uint16([65535, 1]), "i32": np.int32([-7, 2**31 - 1]),
    "i64": np.int64([-(2**62), 5]), "u32": np.uint32([2**32 - 1]), "u64": np.uint64([2**63]),
    "b": np.bool_([True, False, True]),
}
names = list(weights)
nodes = [helper.make_node("Identity", [n], ["out_" + n]) for n in names]
outputs = [tensor_info("out_" + n, weights[n].dtype, list(weights[n].shape)) for n in names]
raw = make_model(nodes, [], outputs, weights)
check_model("initializers raw_data", raw, [{}], lambda: tuple(weights.values()))
# CHECK: ok: initializers raw_data
typed = make_model(nodes, [], outputs)
for n in names:
    typed.graph.initializer.append(helper.make_tensor(
        n, mapping.NP_TYPE_TO_TENSOR_TYPE[weights[n].dtype], weights[n].shape,
        weights[n].ravel().tolist()))
check_model("initializers typed fields", typed, [{}], lambda: tuple(weights.values()))
# CHECK: ok: initializers typed fields
defaulted = make_model([helper.make_node("Identity", ["w"], ["y"])],
                       [tensor_info("x", np.float32, [2]), tensor_info("w", np.float32, [2])],
                       [tensor_info("y", np.float32, [2])], {"w": np.float32([4, 5])})
check_model("input with an initializer", defaulted, [{"x": np.float32([0, 0])}],
            lambda x: np.float32([4, 5]))
# CHECK: ok: input with an initializer

# A graph without nodes: its outputs are an input and an initializer themselves.
passthrough = make_model([], [tensor_info("x", np.float32, ["n"])],
                         [tensor_info("x", np.float32, ["n"]), tensor_info("w", np.int64, [2])],
                         {"w": np.int64([3, 4])})
check_model("outputs without nodes", passthrough,
            [{"x": np.float32([1, 2, 3])}, {"x": np.float32([])}],
            lambda x: (x, np.int64([3, 4])))
# CHECK: ok: outputs without nodes

# Constant's value attributes.
for attr, value, expected in [
        ("value_float", 2.5, np.float32(2.5)), ("value_floats", [1.0, -2.0], np.float32([1, -2])),
        ("value_int", -3, np.int64(-3)), ("value_ints", [2**40, 7], np.int64([2**40, 7])),
        ("value", numpy_helper.from_array(np.int32([[1], [2]])), np.int32([[1], [2]]))]:
    check_node("Constant", {}, lambda: expected, attrs={attr: value}, name="Constant " + attr)
# CHECK: ok: Constant value_float
# CHECK: ok: Constant value_floats
# CHECK: ok: Constant value_int
# CHECK: ok: Constant value_ints
# CHECK: ok: Constant value

# Dropout in inference mode: opset 7 gives the mask the data's type, 12+ take ratio and
# training_mode (false) as inputs.
x = rng.standard_normal((3, 4), np.float32)
check_node("Dropout", {"x": x}, lambda x: (x, np.ones_like(x)), outputs=("y", "mask"),
           opset=7, attrs={"ratio": 0.3}, name="Dropout opset 7")
check_node("Dropout", {"x": x, "ratio": np.float32(0.5), "training_mode": np.bool_(False)},
           lambda x, ratio, training_mode: (x, np.ones(x.shape, np.bool_)),
           outputs=("y", "mask"), constants={"ratio", "training_mode"}, name="Dropout opset 13")
check_node("Identity", {"x": np.int64([[1, -2]])}, lambda x: x, opset=16, name="Identity opset 16")
# CHECK: ok: Dropout opset 7
# CHECK: ok: Dropout opset 13
# CHECK: ok: Identity opset 16
