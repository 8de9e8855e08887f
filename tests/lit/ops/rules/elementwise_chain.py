# The elementwise rule on injective chains written as FuseTIR makes them (several blocks,
# root intermediates): each becomes one kernel, 4-lane vector accesses where 4 lanes
# times the threads divide the elements (rows of 1024), scalar with a tail guard
# otherwise (rows of 37, a broadcast bias); run on lavapipe against NumPy.
#
# RUN: %relaxc opt %s --passes=default-gpu-schedule,unify-thread-bindings,lower-cross-thread-reduction,lower-blocks,split-host-device | FileCheck %s
# One kernel each (no other def between and after them):
# CHECK-LABEL: def silu_kernel(
# CHECK: T.vectorized(T.int64(4))
# CHECK-NOT: def
# CHECK-LABEL: def bias_exp_kernel(
# CHECK-NOT: T.vectorized
# CHECK-NOT: def
#
# RUN: %op_check %s --work %t --input x:n,1024:float32 --input y:n,37:float32 --input b:37:float32 --sizes n=1 --sizes n=7 --sizes n=1000 --sizes n=4097 --reference "(x / (1 + np.exp(-x)), np.exp(y + b) * (y + b)[:, ::-1])" --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=OUT
# OUT: ok: 4 size(s), 8 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def silu(var_X: T.handle, var_W: T.handle):
        n = T.int64()
        X = T.match_buffer(var_X, (n, T.int64(1024)))
        W = T.match_buffer(var_W, (n, T.int64(1024)))
        S = T.alloc_buffer((n, T.int64(1024)))
        for i, j in T.grid(n, T.int64(1024)):
            with T.block("sigmoid"):
                vi, vj = T.axis.remap("SS", [i, j])
                S[vi, vj] = T.sigmoid(X[vi, vj])
        for i, j in T.grid(n, T.int64(1024)):
            with T.block("mul"):
                vi, vj = T.axis.remap("SS", [i, j])
                W[vi, vj] = X[vi, vj] * S[vi, vj]

    @T.prim_func(private=True)
    def bias_exp(var_Y: T.handle, B: T.Buffer((T.int64(37),), "float32"), var_O: T.handle):
        n = T.int64()
        Y = T.match_buffer(var_Y, (n, T.int64(37)))
        O = T.match_buffer(var_O, (n, T.int64(37)))
        A = T.alloc_buffer((n, T.int64(37)))
        E = T.alloc_buffer((n, T.int64(37)))
        for i, j in T.grid(n, T.int64(37)):
            with T.block("add"):
                vi, vj = T.axis.remap("SS", [i, j])
                A[vi, vj] = Y[vi, vj] + B[vj]
        for i, j in T.grid(n, T.int64(37)):
            with T.block("exp"):
                vi, vj = T.axis.remap("SS", [i, j])
                E[vi, vj] = T.exp(A[vi, vj])
        for i, j in T.grid(n, T.int64(37)):
            with T.block("mul"):
                vi, vj = T.axis.remap("SS", [i, j])
                O[vi, vj] = E[vi, vj] * A[vi, T.int64(36) - vj]

    @R.function
    def main(x: R.Tensor(("n", 1024), dtype="float32"), y: R.Tensor(("n", 37), dtype="float32"), b: R.Tensor((37,), dtype="float32")):
        n = T.int64()
        cls = Module
        with R.dataflow():
            s = R.call_tir(cls.silu, (x,), out_sinfo=R.Tensor((n, 1024), dtype="float32"))
            o = R.call_tir(cls.bias_exp, (y, b), out_sinfo=R.Tensor((n, 37), dtype="float32"))
            gv = (s, o)
            R.output(gv)
        return gv
