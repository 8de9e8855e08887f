# The shape and index families' refusals: each names the node, its op type and opset,
# and the input or attribute it cannot import.
#
# RUN: %onnx_check %s --work %t | FileCheck %s
# CHECK-NOT: FAIL

import numpy as np
from onnx import helper
from onnx_check import expect_error, make_model, tensor_info

i64 = lambda v: np.asarray(v, np.int64)
x = np.zeros((2, 3), np.float32)


def one_node(op_type, inputs, outputs, attrs=None, initializers=None, opset=13, name=None):
    node = helper.make_node(op_type, [i[0] for i in inputs], [o[0] for o in outputs],
                            name=name or op_type.lower(), **(attrs or {}))
    return make_model([node], [tensor_info(*i) for i in inputs if i[0] not in (initializers or {})],
                      [tensor_info(*o) for o in outputs], initializers, opset)


# A Reshape whose entries other than the -1 multiply past int64 (found by fuzz_onnx).
# CHECK: ok: reshape product past int64
# CHECK-NEXT: error: {{.*}}: node 'reshape' (Reshape, opset 13): invalid: input 1 'shape': the product of its entries other than the -1 is past 2^63
expect_error("reshape product past int64",
             one_node("Reshape", [("x", np.float32, [2, 3]), ("s", np.int64, [3])],
                      [("y", np.float32, [None, None, None])],
                      initializers={"s": i64([2**40, 2**40, -1])}),
             [x], "past 2^63")
# A ConstantOfShape whose length, computed from shapes at import, is negative (found by
# fuzz_onnx: the fold at import made a vector of that length and aborted).
# CHECK: ok: constant of shape negative length
# CHECK-NEXT: error: {{.*}}: node 'fill' (ConstantOfShape, opset 13): R.full: dimension 0 of argument 'shape' is -2; dimensions must be non-negative
negative_fill = make_model(
    [helper.make_node("Shape", ["x"], ["s"], name="shape"),
     helper.make_node("Sub", ["s", "five"], ["n"], name="sub"),
     helper.make_node("ConstantOfShape", ["n"], ["y"], name="fill",
                      value=helper.make_tensor("v", 7, [1], [4]))],
    [tensor_info("x", np.float32, [3])], [tensor_info("y", np.int64, [None])],
    {"five": i64([5])})
expect_error("constant of shape negative length", negative_fill, [np.zeros(3, np.float32)],
             "non-negative")
# A negative dimension given to ConstantOfShape (found by fuzz_onnx), with a float and an
# integer fill value (the integer one is computed at import time).
# CHECK: ok: constant of shape negative
# CHECK-NEXT: error: {{.*}}: node 'constantofshape' (ConstantOfShape, opset 13): R.full: dimension 1 of argument 'shape' is -3; dimensions must be non-negative
expect_error("constant of shape negative",
             one_node("ConstantOfShape", [("s", np.int64, [2])], [("y", np.float32, [None, None])],
                      initializers={"s": i64([2, -3])}),
             [], "dimension 1 of argument 'shape' is -3")
# CHECK: ok: constant of shape negative, integer fill
# CHECK-NEXT: error: {{.*}}: node 'constantofshape' (ConstantOfShape, opset 13): {{.*}}-3
expect_error("constant of shape negative, integer fill",
             one_node("ConstantOfShape", [("s", np.int64, [2])], [("y", np.int64, [None, None])],
                      attrs={"value": helper.make_tensor("v", 7, [1], [4])},
                      initializers={"s": i64([2, -3])}),
             [], "-3")

# A shape computed from tensor values whose length is not known either (the output's
# rank depends on the data).
# CHECK: ok: reshape data-dependent
# CHECK-NEXT: error: {{.*}}: node 'reshape' (Reshape, opset 13): unsupported: input 1 'shape' is known only at run time and so is its length, which gives the output's rank; relaxc needs the rank when the model is imported
expect_error("reshape data-dependent",
             one_node("Reshape", [("x", np.float32, [2, 3]), ("s", np.int64, [None])],
                      [("y", np.float32, [None, None])]),
             [x, i64([3, 2])], "input 1 'shape'")
# CHECK: ok: slice data-dependent
# CHECK-NEXT: error: {{.*}}: node 'slice' (Slice, opset 13): unsupported: input 1 'starts' is known only at run time and so is its length
expect_error("slice data-dependent",
             one_node("Slice", [("x", np.float32, [2, 3]), ("s", np.int64, [None]),
                                ("e", np.int64, [1])], [("y", np.float32, [None, 3])],
                      initializers={"e": i64([2])}),
             [x, i64([0])], "input 1 'starts'")

# A dynamic dim where the operator needs a number.
# CHECK: ok: pad symbolic
# CHECK-NEXT: error: {{.*}}: node 'pad' (Pad, opset 13): unsupported: input 1 'pads' must be constant; entry 0 depends on a dynamic dim
pad = make_model([helper.make_node("Shape", ["x"], ["s"]),
                  helper.make_node("Concat", ["s", "s"], ["p"], axis=0),
                  helper.make_node("Pad", ["x", "p"], ["y"], name="pad")],
                 [tensor_info("x", np.float32, ["n"])], [tensor_info("y", np.float32, [None])])
expect_error("pad symbolic", pad, [np.zeros(2, np.float32)], "must be constant")
# CHECK: ok: squeeze symbolic
# CHECK-NEXT: error: {{.*}}: node 'squeeze' (Squeeze, opset 13): unsupported: no 'axes' and dim 0 is symbolic
expect_error("squeeze symbolic",
             one_node("Squeeze", [("x", np.float32, ["n", 1])], [("y", np.float32, [None])]),
             [np.zeros((1, 1), np.float32)], "no 'axes'")
# CHECK: ok: expand ambiguous
# CHECK-NEXT: error: {{.*}}: node 'expand' (Expand, opset 13): unsupported: dim 0: which of the input's dim and the shape's broadcasts is known only at run time
expand = make_model([helper.make_node("Shape", ["t"], ["s"]),
                     helper.make_node("Expand", ["x", "s"], ["y"], name="expand")],
                    [tensor_info("x", np.float32, ["n"]), tensor_info("t", np.float32, ["m"])],
                    [tensor_info("y", np.float32, [None])])
expect_error("expand ambiguous", expand, [np.zeros(2, np.float32), np.zeros(2, np.float32)],
             "known only at run time")
# CHECK: ok: eyelike dynamic
# CHECK-NEXT: error: {{.*}}: node 'eyelike' (EyeLike, opset 13): unsupported: input 0 has dynamic dims
expect_error("eyelike dynamic",
             one_node("EyeLike", [("x", np.float32, ["n", 2])], [("y", np.float32, [None, 2])]),
             [x], "dynamic dims")
# CHECK: ok: eyelike dtype string
# CHECK-NEXT: error: {{.*}}: node 'eyelike' (EyeLike, opset 13): unsupported: attribute 'dtype': relaxc has no tensors of element type STRING
expect_error("eyelike dtype string",
             one_node("EyeLike", [("x", np.float32, [2, 2])], [("y", np.float32, [2, 2])],
                      attrs={"dtype": 8}),
             [x[:, :2]], "element type STRING")

# Attribute values the library cannot express.
# CHECK: ok: pad wrap
# CHECK-NEXT: error: {{.*}}: node 'pad' (Pad, opset 13): unsupported: attribute 'mode' "wrap" (constant, reflect and edge are)
expect_error("pad wrap",
             one_node("Pad", [("x", np.float32, [2, 3]), ("p", np.int64, [4])],
                      [("y", np.float32, [None, None])], attrs={"mode": "wrap"},
                      initializers={"p": i64([0, 1, 0, 1])}),
             [x], "attribute 'mode' \"wrap\"")
# CHECK: ok: pad negative
# CHECK-NEXT: error: {{.*}}: node 'pad' (Pad, opset 13): unsupported: negative 'pads' (cropping) on dim 1
expect_error("pad negative",
             one_node("Pad", [("x", np.float32, [2, 3]), ("p", np.int64, [4])],
                      [("y", np.float32, [None, None])], initializers={"p": i64([0, -1, 0, 1])}),
             [x], "negative 'pads'")
# Pads whose sum is past what an int64 holds (found by fuzz_onnx: undefined behaviour in
# the pad operator's inference).
# CHECK: ok: pad overflow
# CHECK-NEXT: error: {{.*}}: node 'pad' (Pad, opset 13): R.nn.pad: attribute 'pad_width' pads dimension 1 by 7233185639183679489 and 4335405630269686802, more than a tensor can hold
expect_error("pad overflow",
             one_node("Pad", [("x", np.float32, [2, 3]), ("p", np.int64, [4])],
                      [("y", np.float32, [None, None])],
                      initializers={"p": i64([0, 7233185639183679489, 0, 4335405630269686802])}),
             [x], "more than a tensor can hold")
# An Expand whose shape has a -1 (PyTorch's expand(-1) exported without the Where that
# replaces it; found by fuzz_onnx as an internal error of the checker).
# CHECK: ok: expand negative
# CHECK-NEXT: error: {{.*}}: node 'expand' (Expand, opset 13): R.broadcast_to: dimension 1 of the result would be -1; a dimension is at least 0
expect_error("expand negative",
             one_node("Expand", [("x", np.float32, [3, 1]), ("s", np.int64, [2])],
                      [("y", np.float32, [None, None])], initializers={"s": i64([3, -1])}),
             [np.zeros((3, 1), np.float32)], "would be -1")
img = np.zeros((1, 1, 2, 2), np.float32)
resize_inputs = [("x", np.float32, [1, 1, 2, 2]), ("r", np.float32, [0]),
                 ("s", np.float32, [4])]
resize_inits = {"r": np.zeros(0, np.float32), "s": np.float32([1, 1, 2, 2])}
# CHECK: ok: resize fractional
# CHECK-NEXT: error: {{.*}}: node 'resize' (Resize, opset 13): unsupported: input 2 'scales': dim 2 times its scale is not a whole number
expect_error("resize fractional",
             one_node("Resize", resize_inputs, [("y", np.float32, [1, 1, 2, 2])],
                      initializers={"r": np.zeros(0, np.float32),
                                    "s": np.float32([1, 1, 1.25, 1.25])}), [img],
             "not a whole number")
# CHECK: ok: scatter reduction
# CHECK-NEXT: error: {{.*}}: node 'scatter' (ScatterElements, opset 16): unsupported: attribute 'reduction' "mean"
scatter = make_model([helper.make_node("ScatterElements", ["d", "i", "u"], ["y"], name="scatter",
                                       reduction="mean")],
                     [tensor_info("d", np.float32, [2, 3]), tensor_info("i", np.int64, [2, 1]),
                      tensor_info("u", np.float32, [2, 1])],
                     [tensor_info("y", np.float32, [2, 3])], opset=16)
expect_error("scatter reduction", scatter, [x, i64([[0], [1]]), np.zeros((2, 1), np.float32)],
             "attribute 'reduction' \"mean\"")

# CHECK: ok: resize rank
# CHECK-NEXT: error: {{.*}}: node 'resize' (Resize, opset 13): unsupported: input 0 has rank 3; only 4-D (NCHW) images are resized
expect_error("resize rank",
             one_node("Resize", [("x", np.float32, [1, 2, 2]), ("r", np.float32, [0]),
                                 ("s", np.float32, [3])], [("y", np.float32, [1, 4, 4])],
                      initializers={"r": np.zeros(0, np.float32),
                                    "s": np.float32([1, 2, 2])}),
             [np.zeros((1, 2, 2), np.float32)], "rank 3")
# CHECK: ok: resize channels
# CHECK-NEXT: error: {{.*}}: node 'resize' (Resize, opset 13): unsupported: input 2 'scales' resizes the batch or channel dim
expect_error("resize channels",
             one_node("Resize", resize_inputs, [("y", np.float32, [1, 2, 4, 4])],
                      initializers={"r": np.zeros(0, np.float32),
                                    "s": np.float32([1, 2, 2, 2])}), [img], "channel")
