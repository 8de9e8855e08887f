# The GEMV rule (passes/tir/gpu_rules/gemv.cc): one to four rows times a weight matrix,
# stored column-contiguous (R.matmul's x @ W, legalized) or k-contiguous (x @ W^T, written
# by hand with a bias and relu epilogue fused), with a symbolic column count; run on
# lavapipe against NumPy, the PTX checked with ptxas.
#
# RUN: %op_check %s --work %t --input x:1,600:float32 --input w:600,n:float32 --input x4:4,600:float32 --input wt:n,600:float32 --input b:n:float32 --sizes n=1 --sizes n=7 --sizes n=1000 --reference "(x @ w, np.maximum(x4 @ wt.T + b, 0))" --rtol 1e-3 --atol 1e-3 | FileCheck %s --check-prefix=OUT
# OUT: ok: 3 size(s), 6 output(s) match NumPy
#
# RUN: %relaxc opt %s --passes=legalize-ops,default-gpu-schedule | FileCheck %s
# CHECK-LABEL: def linear_relu(
# CHECK: T.alloc_buffer((4, n), scope="shared")
# CHECK: thread="blockIdx.x"
# CHECK: T.thread_binding(64, thread="threadIdx.x")
# CHECK: with T.block("Y"):
# CHECK: with T.block("D"):
# CHECK-LABEL: def matmul(
# CHECK: T.thread_binding(T.int64(32), thread="threadIdx.x")
# CHECK: T.thread_binding(T.int64(8), thread="threadIdx.y")

# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def linear_relu(X: T.Buffer((4, 600), "float32"), var_W: T.handle, var_B: T.handle, var_D: T.handle):
        n = T.int64()
        W = T.match_buffer(var_W, (n, 600))
        B = T.match_buffer(var_B, (n,))
        D = T.match_buffer(var_D, (4, n))
        Y = T.alloc_buffer((4, n))
        for i, j, k in T.grid(4, n, 600):
            with T.block("Y"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    Y[vi, vj] = T.float32(0)
                Y[vi, vj] = Y[vi, vj] + X[vi, vk] * W[vj, vk]
        for i, j in T.grid(4, n):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = T.max(Y[vi, vj] + B[vj], T.float32(0))

    @R.function
    def main(x: R.Tensor((1, 600), dtype="float32"), w: R.Tensor((600, "n"), dtype="float32"), x4: R.Tensor((4, 600), dtype="float32"), wt: R.Tensor(("n", 600), dtype="float32"), b: R.Tensor(("n",), dtype="float32")):
        n = T.int64()
        cls = Module
        with R.dataflow():
            xw = R.matmul(x, w)
            d = R.call_tir(cls.linear_relu, (x4, wt, b), out_sinfo=R.Tensor((4, n), dtype="float32"))
            gv = (xw, d)
            R.output(gv)
        return gv
