# ONNX NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (opsets 12 and 13): the
# reductions none / sum / mean, class weights, ignore_index (inside and outside the class
# range), inputs of shape (N, C) and (N, C, d1, d2), float32 and float16, int32 and int64
# targets, the log_prob output, a symbolic batch; run through relaxc on lavapipe against
# NumPy; and the refusals of inputs and attributes the specification forbids.
#
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx import helper
from onnx_check import check_model, check_node, expect_error, make_model, tensor_info

rng = np.random.default_rng(0)


def rand(*shape):
    return rng.uniform(-2.0, 2.0, shape).astype(np.float32)


def targets(shape, classes, dtype=np.int64):
    return rng.integers(0, classes, shape).astype(dtype)


def log_softmax(x):
    shifted = x - x.max(1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(1, keepdims=True))


def nll(log_prob, target, weight=None, reduction="mean", ignore_index=None):
    """The loss as the specification defines it, written independently of ONNX's own
    reference: an ignored target picks class 0 and weighs 0."""
    counted = np.ones(target.shape, bool) if ignore_index is None else target != ignore_index
    safe = np.where(counted, target, 0)
    picked = -np.take_along_axis(log_prob, np.expand_dims(safe, 1), axis=1)[:, 0]
    scale = (np.ones(target.shape, np.float32) if weight is None else weight[safe]) * counted
    loss = picked * scale
    if reduction == "none":
        return loss.astype(np.float32)
    if reduction == "sum":
        return np.float32(loss.sum())
    return np.float32(loss.sum() / scale.sum())


x2, t2 = rand(4, 5), targets((4,), 5)
x4, t4 = rand(2, 3, 4, 5), targets((2, 4, 5), 3)
t4[0, 1, :] = 2  # an ignore_index of 2 hits some targets whatever the draw
w = rng.uniform(0.5, 2.0, 3).astype(np.float32)

check_node("NegativeLogLikelihoodLoss", {"x": x2, "t": t2},
           lambda x, t: nll(x, t, reduction="none"), attrs={"reduction": "none"},
           name="nll_NC_none")
# CHECK: ok: nll_NC_none
check_node("NegativeLogLikelihoodLoss", {"x": x2, "t": t2.astype(np.int32)},
           lambda x, t: nll(x, t), opset=12, name="nll_NC_mean_int32_opset12")
# CHECK: ok: nll_NC_mean_int32_opset12
check_node("NegativeLogLikelihoodLoss", {"x": x4, "t": t4, "w": w},
           lambda x, t, w: nll(x, t, w), constants={"w"}, name="nll_NCd1d2_weight_mean")
# CHECK: ok: nll_NCd1d2_weight_mean
check_node("NegativeLogLikelihoodLoss", {"x": x4, "t": t4, "w": w},
           lambda x, t, w: nll(x, t, w, "none", 2), attrs={"reduction": "none", "ignore_index": 2},
           name="nll_NCd1d2_weight_ii_none")
# CHECK: ok: nll_NCd1d2_weight_ii_none
check_node("NegativeLogLikelihoodLoss", {"x": x4, "t": t4, "w": w},
           lambda x, t, w: nll(x, t, w, "mean", 2), attrs={"ignore_index": 2},
           name="nll_NCd1d2_weight_ii_mean", atol=1e-4)
# CHECK: ok: nll_NCd1d2_weight_ii_mean
t_outside = np.where(t4 == 2, -100, t4)
check_node("NegativeLogLikelihoodLoss", {"x": x4, "t": t_outside},
           lambda x, t: nll(x, t, None, "mean", -100), attrs={"ignore_index": -100},
           name="nll_NCd1d2_ii_outside_mean", atol=1e-4)
# CHECK: ok: nll_NCd1d2_ii_outside_mean
check_node("NegativeLogLikelihoodLoss", {"x": x4, "t": t_outside},
           lambda x, t: nll(x, t, None, "sum", -100),
           attrs={"reduction": "sum", "ignore_index": -100}, name="nll_NCd1d2_ii_outside_sum",
           atol=1e-4)
# CHECK: ok: nll_NCd1d2_ii_outside_sum
# An int32 target never equals an ignore_index outside int32's range: nothing is ignored.
check_node("NegativeLogLikelihoodLoss", {"x": x2, "t": t2.astype(np.int32)},
           lambda x, t: nll(x, t), attrs={"ignore_index": 2**40}, name="nll_int32_ii_outside_int32")
# CHECK: ok: nll_int32_ii_outside_int32

check_node("SoftmaxCrossEntropyLoss", {"x": x4, "t": t4},
           lambda x, t: (nll(log_softmax(x), t), log_softmax(x)), outputs=("loss", "log_prob"),
           name="sce_NCd1d2_mean_log_prob", atol=1e-4)
# CHECK: ok: sce_NCd1d2_mean_log_prob
check_node("SoftmaxCrossEntropyLoss", {"x": x4, "t": t4, "w": w},
           lambda x, t, w: (nll(log_softmax(x), t, w, "none", 2), log_softmax(x)),
           attrs={"reduction": "none", "ignore_index": 2}, outputs=("loss", "log_prob"),
           opset=12, name="sce_NCd1d2_weight_ii_none_log_prob_opset12", atol=1e-4)
# CHECK: ok: sce_NCd1d2_weight_ii_none_log_prob_opset12
check_node("SoftmaxCrossEntropyLoss", {"x": x2, "t": t2.astype(np.int32), "w": rand(5) + 3},
           lambda x, t, w: nll(log_softmax(x), t, w, "sum"), attrs={"reduction": "sum"},
           name="sce_NC_weight_sum", atol=1e-4)
# CHECK: ok: sce_NC_weight_sum
check_node("SoftmaxCrossEntropyLoss",
           {"x": x4.astype(np.float16), "t": t4, "w": w.astype(np.float16)},
           lambda x, t, w: np.float16(nll(log_softmax(x.astype(np.float32)), t,
                                          w.astype(np.float32), "mean", 2)),
           attrs={"ignore_index": 2}, name="sce_float16_weight_ii_mean", rtol=1e-2, atol=1e-2)
# CHECK: ok: sce_float16_weight_ii_mean

# A symbolic batch: one build, runs at two batch sizes.
model = make_model([helper.make_node("SoftmaxCrossEntropyLoss", ["x", "t"], ["loss"],
                                     ignore_index=0)],
                   [tensor_info("x", np.float32, ["n", 3, 7]),
                    tensor_info("t", np.int64, ["n", 7])],
                   [tensor_info("loss", np.float32, [])])
runs = [{"x": rand(n, 3, 7), "t": targets((n, 7), 3)} for n in (2, 5)]
check_model("sce_symbolic_batch", model, runs,
            [nll(log_softmax(r["x"]), r["t"], None, "mean", 0) for r in runs], atol=1e-4)
# CHECK: ok: sce_symbolic_batch


# The refusals: each names the node, the input or attribute and what was expected.
def loss_model(op, inputs, attrs=None, opset=13):
    """A one-node model of `op` (named 'loss') on `inputs`, (name, dtype, shape) triples."""
    node = helper.make_node(op, [name for name, _, _ in inputs], ["y"], name="loss",
                            **(attrs or {}))
    return make_model([node], [tensor_info(*i) for i in inputs],
                      [tensor_info("y", np.float32, [])], opset=opset)


def arrays(inputs):
    return [np.zeros(shape, dtype) for _, dtype, shape in inputs]


def refuse(name, op, inputs, message, attrs=None):
    expect_error(name, loss_model(op, inputs, attrs), arrays(inputs), message)


refuse("reduction_max", "NegativeLogLikelihoodLoss",
       [("x", np.float32, [2, 3]), ("t", np.int64, [2])],
       "attribute 'reduction' is 'max'", {"reduction": "max"})
# CHECK: ok: reduction_max
# CHECK-NEXT: error: {{.*}}'loss' (NegativeLogLikelihoodLoss, opset 13): invalid: attribute 'reduction' is 'max'; expected 'none', 'sum' or 'mean'
refuse("input_1d", "SoftmaxCrossEntropyLoss",
       [("x", np.float32, [3]), ("t", np.int64, [3])],
       "input 0 'scores' must have at least 2 dimensions")
# CHECK: ok: input_1d
# CHECK-NEXT: error: {{.*}}'loss' (SoftmaxCrossEntropyLoss, opset 13): invalid: input 0 'scores' must have at least 2 dimensions (N, C, d1, ..., dk), got 1
refuse("target_rank", "NegativeLogLikelihoodLoss",
       [("x", np.float32, [2, 3, 4]), ("t", np.int64, [2])],
       "input 1 'target' must have 2 dimensions")
# CHECK: ok: target_rank
# CHECK-NEXT: error: {{.*}}'loss' (NegativeLogLikelihoodLoss, opset 13): invalid: input 1 'target' must have 2 dimensions (N, d1, ..., dk: those of input 0 'input' without C), got 1
refuse("target_dim", "SoftmaxCrossEntropyLoss",
       [("x", np.float32, [2, 3, 4]), ("t", np.int64, [2, 3])],
       "dimension 1 of input 1 'labels' is 3")
# CHECK: ok: target_dim
# CHECK-NEXT: error: {{.*}}'loss' (SoftmaxCrossEntropyLoss, opset 13): invalid: dimension 1 of input 1 'labels' is 3; it must be dimension 2 of input 0 'scores', 4
refuse("weight_size", "NegativeLogLikelihoodLoss",
       [("x", np.float32, [2, 3]), ("t", np.int64, [2]), ("w", np.float32, [4])],
       "input 2 'weight' has 4 elements")
# CHECK: ok: weight_size
# CHECK-NEXT: error: {{.*}}'loss' (NegativeLogLikelihoodLoss, opset 13): invalid: input 2 'weight' has 4 elements; it must have C = 3 (dimension 1 of input 0 'input')
refuse("weight_rank", "SoftmaxCrossEntropyLoss",
       [("x", np.float32, [2, 3]), ("t", np.int64, [2]), ("w", np.float32, [1, 3])],
       "input 2 'weights' must have 1 dimension")
# CHECK: ok: weight_rank
# CHECK-NEXT: error: {{.*}}'loss' (SoftmaxCrossEntropyLoss, opset 13): invalid: input 2 'weights' must have 1 dimension (C), got 2
refuse("weight_dtype", "NegativeLogLikelihoodLoss",
       [("x", np.float32, [2, 3]), ("t", np.int64, [2]), ("w", np.float64, [3])],
       "input 2 'weight' must have the type")
# CHECK: ok: weight_dtype
# CHECK-NEXT: error: {{.*}}'loss' (NegativeLogLikelihoodLoss, opset 13): invalid: input 2 'weight' must have the type of input 0 'input', float32, got float64
refuse("target_dtype", "NegativeLogLikelihoodLoss",
       [("x", np.float32, [2, 3]), ("t", np.float32, [2])],
       "input 1 'target' must be an int32 or int64 tensor")
# CHECK: ok: target_dtype
# CHECK-NEXT: error: {{.*}}'loss' (NegativeLogLikelihoodLoss, opset 13): invalid: input 1 'target' must be an int32 or int64 tensor, got float32
refuse("input_dtype", "NegativeLogLikelihoodLoss",
       [("x", np.int32, [2, 3]), ("t", np.int64, [2])],
       "input 0 'input' must be a floating-point tensor")
# CHECK: ok: input_dtype
# CHECK-NEXT: error: {{.*}}'loss' (NegativeLogLikelihoodLoss, opset 13): invalid: input 0 'input' must be a floating-point tensor, got int32
refuse("ignore_index_huge", "NegativeLogLikelihoodLoss",
       [("x", np.float32, [2, 3]), ("t", np.int64, [2])],
       "attribute 'ignore_index' = 9007199254740993 is not supported",
       {"ignore_index": 2**53 + 1})
# CHECK: ok: ignore_index_huge
# CHECK-NEXT: error: {{.*}}'loss' (NegativeLogLikelihoodLoss, opset 13): unsupported: attribute 'ignore_index' = 9007199254740993 is not supported; its magnitude must be at most 2^53
