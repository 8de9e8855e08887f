# Models relaxc cannot import or run: each is an error that names the file, and for a
# node its name, op type and opset, and what was expected.
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx import helper, numpy_helper, TensorProto
from onnx_check import expect_error, make_model, tensor_info

x23 = np.zeros((2, 3), np.float32)
identity = make_model([helper.make_node("Identity", ["x"], ["y"])],
                      [tensor_info("x", np.float32, [2, 3])], [tensor_info("y", np.float32, [2, 3])])

# The file itself.
serialized = identity.SerializeToString()
expect_error("truncated", serialized[:len(serialized) - 9], [x23], "cannot be parsed")
# CHECK-LABEL: ok: truncated
# CHECK-NEXT: relaxc run: error: {{.*}}truncated.onnx: not an ONNX model: the file cannot be parsed as a ModelProto (truncated or corrupt)
expect_error("corrupt", b"\xff" * 16, [x23], "cannot be parsed", command="import")
# CHECK-LABEL: ok: corrupt
# CHECK-NEXT: relaxc import: error: {{.*}}corrupt.onnx: not an ONNX model: the file cannot be parsed as a ModelProto (truncated or corrupt)
expect_error("empty", b"", [x23], "imports no opset", command="build")
# CHECK-LABEL: ok: empty
# CHECK-NEXT: relaxc build: error: {{.*}}empty.onnx: unsupported: the model imports no opset of the default ONNX domain

# Opsets and domains (opsets before 7: old_opsets.py).
new = make_model([helper.make_node("Identity", ["x"], ["y"])],
                 [tensor_info("x", np.float32, [2, 3])],
                 [tensor_info("y", np.float32, [2, 3])], opset=18)
expect_error("opset 18", new, [x23], "opset 18 of the default ONNX domain")
# CHECK-LABEL: ok: opset 18
# CHECK-NEXT: error: {{.*}}: unsupported: opset 18 of the default ONNX domain: relaxc imports opsets 1 to 17 (the newest the installed ONNX library knows)
other = make_model([helper.make_node("FusedGemm", ["x"], ["y"], domain="com.microsoft", name="fg")],
                   [tensor_info("x", np.float32, [2, 3])], [tensor_info("y", np.float32, [2, 3])])
other.opset_import.append(helper.make_opsetid("com.microsoft", 1))
expect_error("domain", other, [x23], "domain 'com.microsoft'")
# CHECK-LABEL: ok: domain
# CHECK-NEXT: error: {{.*}}: node 'fg' (FusedGemm, domain 'com.microsoft'): unsupported: operators of domain 'com.microsoft'; relaxc imports the default ONNX domain only

# Nodes: an operator without a converter, attribute values and inputs relaxc refuses.
det = make_model([helper.make_node("Det", ["x"], ["y"], name="det")],
                 [tensor_info("x", np.float32, [3, 3])], [tensor_info("y", np.float32, [])],
                 opset=11)
expect_error("unknown op", det, [np.eye(3, dtype=np.float32)], "no converter for Det")
# CHECK-LABEL: ok: unknown op
# CHECK-NEXT: error: {{.*}}: node 'det' (Det, opset 11): unsupported: no converter for Det at opset 11
string_constant = make_model(
    [helper.make_node("Constant", [], ["y"], value_string="hello")], [],
    [tensor_info("y", np.float32, [])])
expect_error("string constant", string_constant, [], "value_string")
# CHECK-LABEL: ok: string constant
# CHECK-NEXT: error: {{.*}}: node #0 (Constant, opset 13): unsupported: attribute 'value_string': relaxc has no string tensors
training = make_model(
    [helper.make_node("Dropout", ["x", "", "t"], ["y"], name="drop")],
    [tensor_info("x", np.float32, [2, 3])], [tensor_info("y", np.float32, [2, 3])],
    {"t": np.bool_(True)})
expect_error("training mode", training, [x23], "training_mode = true")
# CHECK-LABEL: ok: training mode
# CHECK-NEXT: error: {{.*}}: node 'drop' (Dropout, opset 13): unsupported: training_mode = true (dropout at random); relaxc imports models for inference
computed_training = make_model(
    [helper.make_node("Dropout", ["x", "", "t"], ["y"], name="drop")],
    [tensor_info("x", np.float32, [2, 3]), tensor_info("t", np.bool_, [])],
    [tensor_info("y", np.float32, [2, 3])])
expect_error("input not known", computed_training, [x23, np.bool_(False)], "must be known")
# CHECK-LABEL: ok: input not known
# CHECK-NEXT: error: {{.*}}: node 'drop' (Dropout, opset 13): unsupported: input 2 'training_mode' must be known when the model is imported (a constant, or computed from constants and shapes)
wrong_type = make_model(
    [helper.make_node("Constant", [], ["y"], name="c")], [], [tensor_info("y", np.float32, [])])
wrong_type.graph.node[0].attribute.append(helper.make_attribute("value_float", 1))
wrong_type.graph.node[0].attribute[0].type = helper.AttributeProto.FLOAT
wrong_type.graph.node[0].attribute[0].ClearField("f")
wrong_type.graph.node[0].attribute[0].i = 1
wrong_type.graph.node[0].attribute[0].type = helper.AttributeProto.INT
expect_error("attribute type", wrong_type, [], "Mismatched attribute type")
# CHECK-LABEL: ok: attribute type
# CHECK-NEXT: error: {{.*}}: the ONNX checker rejects the model: Mismatched attribute type in 'c : value_float' ==> Context: Bad node spec for node. Name: c OpType: Constant

# Initializers and inputs relaxc has no tensors of.
external = make_model([helper.make_node("Identity", ["w"], ["y"])], [],
                      [tensor_info("y", np.float32, [2])])
w = TensorProto(name="w", data_type=TensorProto.FLOAT, dims=[2])
w.data_location = TensorProto.EXTERNAL
w.external_data.add(key="location", value="weights.bin")
external.graph.initializer.append(w)
expect_error("external data", external, [], "external file")
# CHECK-LABEL: ok: external data
# CHECK-NEXT: error: {{.*}}: initializer 'w': unsupported: the tensor is stored in an external file, which relaxc does not read; save the model with its weights inside (onnx.save_model(model, path, save_as_external_data=False))
strings = make_model([helper.make_node("Identity", ["s"], ["y"])],
                     [helper.make_tensor_value_info("s", TensorProto.STRING, [2])],
                     [helper.make_tensor_value_info("y", TensorProto.STRING, [2])])
expect_error("string input", strings, [], "element type STRING")
# CHECK-LABEL: ok: string input
# CHECK-NEXT: error: {{.*}}: graph input 's': unsupported: element type STRING, which relaxc has no tensors of

# A graph output declared with another element type or rank than the graph computes.
mistyped = make_model([helper.make_node("Identity", ["x"], ["y"])],
                      [tensor_info("x", np.float32, [2, 3])], [tensor_info("y", np.int64, [2, 3])])
expect_error("declared type", mistyped, [x23], "declared INT64")
# CHECK-LABEL: ok: declared type
# CHECK-NEXT: error: {{.*}}: graph output 'y' is declared INT64 but computed as float32
misranked = make_model([helper.make_node("Identity", ["x"], ["y"])],
                       [tensor_info("x", np.float32, [2, 3])], [tensor_info("y", np.float32, [6])])
expect_error("declared rank", misranked, [x23], "declared of rank 1")
# CHECK-LABEL: ok: declared rank
# CHECK-NEXT: error: {{.*}}: graph output 'y' is declared of rank 1 but computed of rank 2
misshaped = make_model([helper.make_node("Identity", ["x"], ["y"])],
                       [tensor_info("x", np.float32, [2, 3])], [tensor_info("y", np.float32, [2, 4])])
expect_error("declared dims", misshaped, [x23], "declared with dimension 1")
# CHECK-LABEL: ok: declared dims
# CHECK-NEXT: error: {{.*}}: graph output 'y' is declared with dimension 1 of 4 but computed with 3

# Running: the number of --input, and the sizes of a shared dim_param.
shared = make_model([helper.make_node("Identity", ["x"], ["y"]), helper.make_node("Identity", ["z"], ["w"])],
                    [tensor_info("x", np.float32, ["batch", 3]), tensor_info("z", np.float32, ["batch"])],
                    [tensor_info("y", np.float32, ["batch", 3]), tensor_info("w", np.float32, ["batch"])])
expect_error("too few inputs", shared, [x23], "takes 2 arguments")
# CHECK-LABEL: ok: too few inputs
# CHECK-NEXT: relaxc run: error: function 'main' takes 2 arguments (x, z), got 1 --input
expect_error("too many inputs", shared, [x23, np.zeros(2, np.float32), x23], "takes 2 arguments")
# CHECK-LABEL: ok: too many inputs
# CHECK-NEXT: relaxc run: error: function 'main' takes 2 arguments (x, z), got 3 --input
expect_error("batch mismatch", shared, [x23, np.zeros(3, np.float32)], "batch")
# CHECK-LABEL: ok: batch mismatch
# CHECK-NEXT: relaxc run: error: in main, instruction {{[0-9]+}}: main: argument 'z', expected R.Tensor((batch,), dtype="float32"): dimension 0 is 3, expected 2 (the value of batch bound earlier)
