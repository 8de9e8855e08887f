# Opaque code with a T.parallel loop (as TVM's CPU-style TensorIR writes it): the default
# GPU schedule runs the block on one thread, so the parallel loop runs serially in the
# kernel (its iterations are independent), and the result is right.
#
# RUN: %relaxc build %s --target vulkan -o %t.rxe --print-after-each 2>&1 | FileCheck %s
# CHECK: # after default-gpu-schedule
# CHECK: for blockIdx_x in T.thread_binding(1, thread="blockIdx.x"):
# CHECK: for threadIdx_x in T.thread_binding(1, thread="threadIdx.x"):
# CHECK: for row in range(10):
#
# RUN: %op_check %s --work %t.dir --input x:10,16:float32 --reference "np.cumsum(x, axis=1)" --rtol 1e-4 | FileCheck %s --check-prefix=NUMPY
# NUMPY: ok: 1 size(s), 1 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def row_cumsum(x: T.Buffer((10, 16), "float32"), y: T.Buffer((10, 16), "float32")):
        with T.block("cumsum"):
            T.reads(x[0:10, 0:16])
            T.writes(y[0:10, 0:16])
            for row in T.parallel(10):
                y[row, 0] = x[row, 0]
                for k in range(15):
                    y[row, k + 1] = y[row, k] + x[row, k + 1]

    @R.function
    def main(x: R.Tensor((10, 16), dtype="float32")) -> R.Tensor((10, 16), dtype="float32"):
        cls = Module
        with R.dataflow():
            y = R.call_tir(cls.row_cumsum, (x,), out_sinfo=R.Tensor((10, 16), dtype="float32"))
            R.output(y)
        return y
