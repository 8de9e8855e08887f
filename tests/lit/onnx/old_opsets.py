# Models of opsets 1 to 6 of the default domain, updated to opset 7 by the ONNX library's
# version converter before they are imported, run through relaxc on lavapipe against
# NumPy; and the refusals: an operator the converter has no adapter for, and a model that
# imports only another domain (the training operators of ai.onnx.preview.training).
#
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s
# RUN: %relaxc import %t/opset6.onnx | FileCheck %s --check-prefix=IMPORT

import numpy as np
from onnx import helper
from onnx_check import check_model, expect_error, make_model, tensor_info, write

rng = np.random.default_rng(6)


def rand(*shape, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, shape).astype(np.float32)


# Opset 6: Add broadcasting b from axis 0 through the old 'broadcast' and 'axis'
# attributes (an Unsqueeze after the conversion), BatchNormalization and Dropout with
# 'is_test'.
b, s, bias, m, v = rand(2), rand(3), rand(3), rand(3), rand(3, lo=0.5, hi=2.0)
opset6 = make_model(
    [helper.make_node("Add", ["x", "b"], ["a"], broadcast=1, axis=0),
     helper.make_node("Relu", ["a"], ["r"]),
     helper.make_node("BatchNormalization", ["r", "s", "bias", "m", "v"], ["n"], is_test=1,
                      epsilon=1e-3),
     helper.make_node("Dropout", ["n"], ["y"], is_test=1, ratio=0.25)],
    [tensor_info("x", np.float32, [2, 3, 4, 5])], [tensor_info("y", np.float32, [2, 3, 4, 5])],
    {"b": b, "s": s, "bias": bias, "m": m, "v": v}, opset=6)
write(opset6, "opset6.onnx")


def per_channel(t):
    return t.reshape(1, 3, 1, 1)


def opset6_reference(x):
    r = np.maximum(x + b.reshape(2, 1, 1, 1), 0)
    return (r - per_channel(m)) / np.sqrt(per_channel(v) + 1e-3) * per_channel(s) + \
        per_channel(bias)


check_model("opset 6", opset6, [{"x": rand(2, 3, 4, 5)}], opset6_reference, atol=1e-4)
# CHECK: ok: opset 6
# The Unsqueeze the converter inserted for the broadcast from axis 0.
# IMPORT: R.expand_dims(R.const({{.*}}), axis=[1, 2, 3])
# IMPORT: R.add(x, 

# Opset 1: Reshape's shape as an attribute (an input from opset 5), Softsign and
# GlobalAveragePool.
opset1 = make_model(
    [helper.make_node("Reshape", ["x"], ["r"], shape=[1, 2, 3, 4]),
     helper.make_node("Softsign", ["r"], ["t"]),
     helper.make_node("GlobalAveragePool", ["t"], ["y"])],
    [tensor_info("x", np.float32, [6, 4])], [tensor_info("y", np.float32, [1, 2, 1, 1])],
    opset=1)
check_model("opset 1", opset1, [{"x": rand(6, 4)}],
            lambda x: (x / (1 + np.abs(x))).reshape(1, 2, 3, 4).mean((2, 3), keepdims=True))
# CHECK: ok: opset 1

# A node relaxc refuses names the opset its converter saw and the model's.
pool3d = make_model([helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2, 2, 2],
                                      name="p")],
                    [tensor_info("x", np.float32, [1, 1, 2, 2, 2])],
                    [tensor_info("y", np.float32, [1, 1, 1, 1, 1])], opset=1)
expect_error("refused node", pool3d, [rand(1, 1, 2, 2, 2)], "updated from 1")
# CHECK-LABEL: ok: refused node
# CHECK-NEXT: error: {{.*}}: node 'p' (AveragePool, opset 7 updated from 1): unsupported: 3-D average pooling

# Tile changed at opset 6 and the converter has no adapter for it.
tile = make_model([helper.make_node("Tile", ["x", "tiles", "axis"], ["y"], name="t")],
                  [tensor_info("x", np.float32, [2, 3])], [tensor_info("y", np.float32, [4, 3])],
                  {"tiles": np.int64(2), "axis": np.int64(0)}, opset=1)
expect_error("no adapter", tile, [rand(2, 3)], "cannot update the model")
# CHECK-LABEL: ok: no adapter
# CHECK-NEXT: error: {{.*}}no_adapter.onnx: unsupported: opset 1 of the default ONNX domain: the ONNX version converter cannot update the model to opset 7, the oldest relaxc imports: No Adapter From Version $5 for Tile

# From an axis other than 0, unless it puts the input last, the converter of libonnx
# 1.12 would align the input with the last axes: a wrong result.
per_channel_add = make_model(
    [helper.make_node("Add", ["x", "c"], ["y"], broadcast=1, axis=1, name="bias")],
    [tensor_info("x", np.float32, [2, 3, 4, 5])], [tensor_info("y", np.float32, [2, 3, 4, 5])],
    {"c": rand(3)}, opset=6)
expect_error("broadcast axis 1", per_channel_add, [rand(2, 3, 4, 5)], "from axis 1")
# CHECK-LABEL: ok: broadcast axis 1
# CHECK-NEXT: error: {{.*}}: unsupported: opset 6 of the default ONNX domain: the ONNX version converter cannot update the model to opset 7, the oldest relaxc imports: node 'bias' (Add) broadcasts input 1 from axis 1, which the converter of libonnx 1.12 aligns with the last axes instead
c45 = rand(4, 5)
trailing = make_model(
    [helper.make_node("Mul", ["x", "c"], ["y"], broadcast=1, axis=2)],
    [tensor_info("x", np.float32, [2, 3, 4, 5])], [tensor_info("y", np.float32, [2, 3, 4, 5])],
    {"c": c45}, opset=6)
check_model("broadcast to the last axes", trailing, [{"x": rand(2, 3, 4, 5)}],
            lambda x: x * c45)
# CHECK: ok: broadcast to the last axes

# A declared output shape that contradicts the operator's (found by fuzz_onnx: the shape
# inference that the update needs threw past the importer).
contradiction = make_model([helper.make_node("Not", ["x"], ["y"])],
                           [tensor_info("x", np.bool_, [3, 43])],
                           [tensor_info("y", np.bool_, [3, 4])], opset=1)
expect_error("declared shape contradicts", contradiction, [np.zeros((3, 43), np.bool_)],
             "shape inference rejects")
# CHECK-LABEL: ok: declared shape contradicts
# CHECK-NEXT: error: {{.*}}: invalid: ONNX's shape inference rejects the model: [ShapeInferenceError] (op_type:Not): [ShapeInferenceError] Inferred shape and existing shape differ in dimension 1: (43) vs (4)

# A graph output that nothing computes (found by fuzz_onnx: the version converter's graph
# import crashed on it), and a subgraph, which the same import reads.
undefined = make_model([helper.make_node("Softplus", ["x"], ["y"])],
                       [tensor_info("x", np.float32, [3])], [tensor_info("Y", np.float32, [3])],
                       opset=1)
expect_error("undefined output", undefined, [rand(3)], "computed by no node")
# CHECK-LABEL: ok: undefined output
# CHECK-NEXT: error: {{.*}}undefined_output.onnx: graph output 'Y' is computed by no node
# libonnx's old Conv shape inference crashed on these ranks (found by fuzz_onnx).
conv_weights = {"w": np.zeros((4, 1, 3, 3), np.float32)}
flat_conv = make_model([helper.make_node("Conv", ["x", "w"], ["y"], pads=[1, 1, 1, 1])],
                       [tensor_info("x", np.float32, [1, 5])],
                       [tensor_info("y", np.float32, ["n", "c"])], conv_weights, opset=5)
expect_error("conv of a rank-2 input", flat_conv, [rand(1, 5)], "rank 3 or more")
# CHECK-LABEL: ok: conv of a rank-2 input
# CHECK-NEXT: error: {{.*}}: invalid: node #0 (Conv, opset 5): input 0 'x' has rank 2; it must be (N, C, D1, ...), of rank 3 or more
conv_1d = make_model([helper.make_node("Conv", ["x", "w"], ["y"], name="c")],
                     [tensor_info("x", np.float32, [1, 1, 5])],
                     [tensor_info("y", np.float32, ["n", "c", "w"])], conv_weights, opset=5)
expect_error("conv of mismatched ranks", conv_1d, [rand(1, 1, 5)], "must have the rank")
# CHECK-LABEL: ok: conv of mismatched ranks
# CHECK-NEXT: error: {{.*}}: invalid: node 'c' (Conv, opset 5): input 1 'w' has rank 4; it must have the rank of input 0 'x', 3
pool = make_model([helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2])],
                  [tensor_info("x", np.float32, [1, 1, 4, 4])],
                  [tensor_info("y", np.float32, ["n", "c", "h", "w"])], opset=5)
expect_error("pool kernel of the wrong length", pool, [rand(1, 1, 4, 4)], "spatial dims")
# CHECK-LABEL: ok: pool kernel of the wrong length
# CHECK-NEXT: error: {{.*}}: invalid: node #0 (MaxPool, opset 5): attribute 'kernel_shape' has 1 entries; input 0 'x' has 2 spatial dims, so it needs 2
# A rank that only shape inference gives: Flatten's output of rank 2 into a Conv.
flat_then_conv = make_model(
    [helper.make_node("Flatten", ["x"], ["f"]),
     helper.make_node("Conv", ["f", "w"], ["y"], name="c", pads=[1, 1, 1, 1])],
    [tensor_info("x", np.float32, [1, 1, 2, 3])],
    [tensor_info("y", np.float32, ["n", "c"])], conv_weights, opset=5)
expect_error("conv of an inferred rank-2 value", flat_then_conv, [rand(1, 1, 2, 3)],
             "rank 3 or more")
# CHECK-LABEL: ok: conv of an inferred rank-2 value
# CHECK-NEXT: error: {{.*}}: invalid: node 'c' (Conv, opset 5): input 0 'f' has rank 2; it must be (N, C, D1, ...), of rank 3 or more
pool_pads = make_model([helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2, 2],
                                         pads=[0, 0])],
                       [tensor_info("x", np.float32, [1, 1, 4, 4])],
                       [tensor_info("y", np.float32, ["n", "c", "h", "w"])], opset=5)
expect_error("pool pads of the wrong length", pool_pads, [rand(1, 1, 4, 4)], "needs 4")
# CHECK-LABEL: ok: pool pads of the wrong length
# CHECK-NEXT: error: {{.*}}: invalid: node #0 (AveragePool, opset 5): attribute 'pads' has 2 entries; input 0 'x' has 2 spatial dims, so it needs 4
branch = helper.make_graph([helper.make_node("Identity", ["x"], ["z"])], "branch", [],
                           [tensor_info("z", np.float32, [3])])
with_if = make_model([helper.make_node("If", ["c"], ["y"], name="choose", then_branch=branch,
                                       else_branch=branch)],
                     [tensor_info("x", np.float32, [3]), tensor_info("c", np.bool_, [])],
                     [tensor_info("y", np.float32, [3])], opset=1)
expect_error("subgraph", with_if, [rand(3), np.bool_(True)], "has a subgraph")
# CHECK-LABEL: ok: subgraph
# CHECK-NEXT: error: {{.*}}: unsupported: opset 1 of the default ONNX domain: the ONNX version converter cannot update the model to opset 7, the oldest relaxc imports: node 'choose' (If) has a subgraph (attribute 'else_branch'), which relaxc does not update

# Opset 0 does not exist; opset 18 (past what libonnx 1.12 knows) is in errors.py.
zero = make_model([helper.make_node("Identity", ["x"], ["y"])],
                  [tensor_info("x", np.float32, [2])], [tensor_info("y", np.float32, [2])],
                  opset=0)
expect_error("opset 0", zero, [rand(2)], "opset 0")
# CHECK-LABEL: ok: opset 0
# CHECK-NEXT: error: {{.*}}: unsupported: opset 0 of the default ONNX domain: relaxc imports opsets 1 to 17{{$}}

# A training model (the ONNX node tests test_adagrad, test_adam, test_momentum): its
# operators are of the domain ai.onnx.preview.training, and it imports no other.
training = make_model(
    [helper.make_node("Adagrad", ["r", "t", "x", "g", "h"], ["x_new", "h_new"],
                      domain="ai.onnx.preview.training")],
    [tensor_info(n, np.float32, [2]) for n in ("x", "g", "h")],
    [tensor_info(n, np.float32, [2]) for n in ("x_new", "h_new")],
    {"r": np.float32(0.1), "t": np.int64(0)})
del training.opset_import[:]
training.opset_import.append(helper.make_opsetid("ai.onnx.preview.training", 1))
expect_error("training domain", training, [rand(2)] * 3, "no opset of the default")
# CHECK-LABEL: ok: training domain
# CHECK-NEXT: error: {{.*}}: unsupported: the model imports no opset of the default ONNX domain (it imports 'ai.onnx.preview.training' opset 1; relaxc imports the default domain only)
