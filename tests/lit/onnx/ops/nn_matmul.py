# ONNX Gemm (transA, transB, alpha, beta, C broadcast or absent), MatMul (1-D operands,
# batched with broadcasting, a symbolic batch) and Einsum, run through relaxc on lavapipe
# against NumPy.
#
# RUN: rm -rf %t && %onnx_check %s --work %t | FileCheck %s

import numpy as np
from onnx import helper
from onnx_check import check_model, check_node, make_model, tensor_info

rng = np.random.default_rng(0)


def rand(*shape):
    return rng.uniform(-1, 1, shape).astype(np.float32)


a, b, c = rand(3, 4), rand(4, 5), rand(5)
check_node("Gemm", {"a": a, "b": b, "c": c}, lambda a, b, c: a @ b + c, name="gemm_bias")
# CHECK: ok: gemm_bias
check_node("Gemm", {"a": a.T.copy(), "b": b.T.copy(), "c": rand(3, 1)},
           lambda a, b, c: 0.5 * (a.T @ b.T) + 2.0 * c,
           attrs={"transA": 1, "transB": 1, "alpha": 0.5, "beta": 2.0}, constants={"b"},
           name="gemm_trans_alpha_beta")
# CHECK: ok: gemm_trans_alpha_beta
check_node("Gemm", {"a": a, "b": b}, lambda a, b: a @ b, opset=11, name="gemm_no_c")
# CHECK: ok: gemm_no_c

check_node("MatMul", {"x": rand(4), "w": rand(4, 3)}, lambda x, w: x @ w, name="matmul_1d_lhs")
# CHECK: ok: matmul_1d_lhs
check_node("MatMul", {"x": rand(2, 3, 4), "w": rand(4)}, lambda x, w: x @ w,
           name="matmul_1d_rhs")
# CHECK: ok: matmul_1d_rhs
check_node("MatMul", {"x": rand(2, 1, 3, 4), "w": rand(5, 4, 2)}, lambda x, w: x @ w,
           name="matmul_broadcast")
# CHECK: ok: matmul_broadcast

# A symbolic batch: built once, run at two sizes.
w = rand(4, 3)
model = make_model([helper.make_node("MatMul", ["x", "w"], ["y"])],
                   [tensor_info("x", np.float32, ["batch", 2, 4])],
                   [tensor_info("y", np.float32, ["batch", 2, 3])], {"w": w})
check_model("matmul_symbolic_batch", model, [{"x": rand(1, 2, 4)}, {"x": rand(3, 2, 4)}],
            lambda x: x @ w)
# CHECK: ok: matmul_symbolic_batch

check_node("Einsum", {"a": rand(2, 3, 4), "b": rand(2, 4, 5)},
           lambda a, b: np.einsum("bij,bjk->bik", a, b), attrs={"equation": "bij, bjk -> bik"},
           name="einsum_batched")
# CHECK: ok: einsum_batched
check_node("Einsum", {"x": rand(3, 4)}, lambda x: np.einsum("ij->j", x),
           attrs={"equation": "ij->j"}, name="einsum_reduce")
# CHECK: ok: einsum_reduce
check_node("Einsum", {"a": rand(5), "b": rand(5)}, lambda a, b: np.einsum("i,i", a, b),
           attrs={"equation": "i,i"}, name="einsum_implicit")
# CHECK: ok: einsum_implicit
