# A classifier over a symbolic batch (x @ W^T + b and x @ W, with m rows): the GEMV rule
# specializes the schedule by shape (passes/tir/gpu_rules/gemv.cc), the GEMV for m <= 4
# and the matmul rule's tiles for more; the host launches the variant whose condition
# holds. Run on lavapipe against NumPy on both sides of the bound, the PTX checked with
# ptxas.
#
# RUN: %op_check %s --work %t --input x:m,300:float32 --input wt:200,300:float32 --input b:200:float32 --input w:300,72:float32 --sizes m=1 --sizes m=4 --sizes m=5 --sizes m=37 --reference "(np.maximum(x @ wt.T + b, 0), x @ w)" --rtol 1e-3 --atol 1e-3 | FileCheck %s --check-prefix=OUT
# OUT: ok: 4 size(s), 8 output(s) match NumPy
#
# RUN: %relaxc opt %s --passes=legalize-ops,default-gpu-schedule | FileCheck %s
# CHECK-LABEL: def linear_relu(
# CHECK: if m <= T.int64(4):
# CHECK: T.thread_binding(64, thread="threadIdx.x")
# CHECK: else:
# CHECK: T.writes(X_pad_shared[
# CHECK-LABEL: def matmul(
# CHECK: if m <= T.int64(4):
# CHECK: thread="threadIdx.y"
# CHECK: else:
#
# RUN: %relaxc build %s -o %t.rxe --target vulkan --report --report-shape m=1 | FileCheck %s --check-prefix=REPORT
# REPORT: function 'linear_relu': {{[0-9]+}} kernels
# REPORT: kernel 'linear_relu_kernel_0' (when m < 5): grid [min(m * 200, 65535), (m * 200 + 65534) // 65535, 1]
# REPORT: kernel 'linear_relu_kernel_1' (when 4 < m):
# REPORT: at these shapes: not launched

# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def linear_relu(var_X: T.handle, W: T.Buffer((200, 300), "float32"), B: T.Buffer((200,), "float32"), var_D: T.handle):
        m = T.int64()
        X = T.match_buffer(var_X, (m, 300))
        D = T.match_buffer(var_D, (m, 200))
        Y = T.alloc_buffer((m, 200))
        for i, j, k in T.grid(m, 200, 300):
            with T.block("Y"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    Y[vi, vj] = T.float32(0)
                Y[vi, vj] = Y[vi, vj] + X[vi, vk] * W[vj, vk]
        for i, j in T.grid(m, 200):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = T.max(Y[vi, vj] + B[vj], T.float32(0))

    @R.function
    def main(x: R.Tensor(("m", 300), dtype="float32"), wt: R.Tensor((200, 300), dtype="float32"), b: R.Tensor((200,), dtype="float32"), w: R.Tensor((300, 72), dtype="float32")):
        m = T.int64()
        cls = Module
        with R.dataflow():
            d = R.call_tir(cls.linear_relu, (x, wt, b), out_sinfo=R.Tensor((m, 200), dtype="float32"))
            xw = R.matmul(x, w)
            gv = (d, xw)
            R.output(gv)
        return gv
