# The column reduction rule on reductions over outer axes as LegalizeOps writes them: a
# sum over axis 0 (rows of 300, n of them), the same of x * x (an injective producer
# inlined), a max over axis 0, means over axis 1 of NCHW data (a divide epilogue): over
# 16 channels of n images, and over n channels of 2 images (keepdims), and a sum over
# axes 0 and 2 of NCHW data (two reduction loops, fused). Each is one
# kernel whose threadIdx.x runs over adjacent outputs and threadIdx.y over slices of the
# reduction, combined through shared memory. Last, a sum and a mean over axis 0 of
# (4096, 40): 2 tiles of 32 outputs, too few thread blocks, so the rows split over blocks
# too, in two kernels. All run on lavapipe against NumPy at n = 1, 7, 1000 and 4097.
#
# RUN: %relaxc opt %s --passes=legalize-ops,fuse-ops,fuse-tir,default-gpu-schedule | FileCheck %s
# CHECK-LABEL: def sum(
# CHECK: T.thread_binding(T.int64(32), thread="threadIdx.x")
# CHECK: T.thread_binding(T.int64(8), thread="threadIdx.y")
# CHECK-LABEL: def max(
# CHECK: T.thread_binding(T.int64(32), thread="threadIdx.x")
# CHECK: T.thread_binding(T.int64(8), thread="threadIdx.y")
# The mean's divide runs on the thread of threadIdx.y 0 alone, which holds the sum:
# Rows of 7 outputs: 7 threads along x, 16 along y (the 16 channels).
# CHECK-LABEL: def mean(
# CHECK: T.thread_binding(T.int64(7), thread="threadIdx.x")
# CHECK: T.thread_binding(T.int64(16), thread="threadIdx.y")
# CHECK: T.thread_binding(T.int64(16), thread="threadIdx.y")
# CHECK: T.where({{.*}} < T.int64(1))
# Rows of 5 outputs: 5 threads along x, 32 along y.
# CHECK-LABEL: def mean1(
# CHECK: T.thread_binding(T.int64(5), thread="threadIdx.x")
# CHECK: T.thread_binding(T.int64(32), thread="threadIdx.y")
# CHECK-LABEL: def sum1(
# CHECK: T.thread_binding(T.int64(7), thread="threadIdx.x")
# CHECK: T.thread_binding(T.int64(32), thread="threadIdx.y")
# 64 slices of 64 rows, 8 thread blocks of 8 slices per tile of 32 outputs, then one
# thread per output sums its 64 partials (the mean divides on that thread).
# CHECK-LABEL: def sum2(
# CHECK: T_sum_rf = T.alloc_buffer((T.int64(64), T.int64(40)))
# CHECK: T.thread_binding(T.int64(16), thread="blockIdx.x")
# CHECK: T.thread_binding(T.int64(8), thread="threadIdx.y")
# CHECK: T.thread_binding(T.int64(32), thread="threadIdx.x")
# CHECK: for {{.*}} in range(T.int64(64)):
# CHECK: T.thread_binding(T.int64(128), thread="threadIdx.x")
# CHECK: for {{.*}} in range(T.int64(64)):
# CHECK-LABEL: def mean2(
# CHECK: T_sum_rf = T.alloc_buffer((T.int64(64), T.int64(40)))
# CHECK: T.thread_binding(T.int64(16), thread="blockIdx.x")
# CHECK: T.thread_binding(T.int64(128), thread="threadIdx.x")
# CHECK: T.block("T_mean")
# CHECK-LABEL: def fused_multiply_sum(
# CHECK: T.thread_binding(T.int64(32), thread="threadIdx.x")
# CHECK: T.thread_binding(T.int64(8), thread="threadIdx.y")
#
# RUN: %op_check %s --work %t --input x:n,300:float32 --input y:n,16,5,7:float32 --input z:2,n,3,5:float32 --input w:4096,40:float32 --sizes n=1 --sizes n=7 --sizes n=1000 --sizes n=4097 --reference "(x.sum(0), (x * x).sum(0), x.max(0), y.mean(1), z.mean(1, keepdims=True), y.sum((0, 2)), w.sum(0), w.mean(0))" --rtol 1e-4 --atol 1e-3 | FileCheck %s --check-prefix=OUT
# OUT: ok: 4 size(s), 32 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 300), dtype="float32"), y: R.Tensor(("n", 16, 5, 7), dtype="float32"), z: R.Tensor((2, "n", 3, 5), dtype="float32"), w: R.Tensor((4096, 40), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            s = R.sum(x, axis=[0])
            sq = R.sum(R.multiply(x, x), axis=[0])
            m = R.max(x, axis=[0])
            channels = R.mean(y, axis=[1])
            images = R.mean(z, axis=[1], keepdims=True)
            outer = R.sum(y, axis=[0, 2])
            tall = R.sum(w, axis=[0])
            tall_mean = R.mean(w, axis=[0])
            gv = (s, sq, m, channels, images, outer, tall, tall_mean)
            R.output(gv)
        return gv
