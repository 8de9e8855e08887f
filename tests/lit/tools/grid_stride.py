# A default schedule that needs more thread blocks than Vulkan's 65535 per grid axis:
# the row reduction rule gives each row of the softmax a thread block, n of them (70000
# here). The launch is capped at the target's limit in x and the blocks past it overflow
# onto blockIdx.y, under a guard (split_host_device); run on lavapipe, the result matches
# NumPy.
#
# RUN: %relaxc build %s --target vulkan -o %t.rxe --print-after-each 2>&1 | FileCheck %s --check-prefix=KERNEL
# KERNEL: # after split-host-device
# KERNEL: def softmax_kernel(
# KERNEL: for ax0 in T.thread_binding(T.min(n, T.int64(65535)), thread="blockIdx.x"):
# KERNEL-NEXT: for ax0_overflow in T.thread_binding((n + T.int64(65534)) // T.int64(65535), thread="blockIdx.y"):
# KERNEL-NOT: _stride
# KERNEL: if ax0 + ax0_overflow * T.int64(65535) < n:
# KERNEL: # after insert-shared-barriers
# RUN: %op_check %s --work %t --input x:n,40:float32:-8,8 --sizes n=70000 --reference "np.exp(x - x.max(-1, keepdims=True)) / np.exp(x - x.max(-1, keepdims=True)).sum(-1, keepdims=True)" --atol 1e-6 | FileCheck %s --check-prefix=OUT
# OUT: ok: 1 size(s), 1 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 40), dtype="float32")):
        with R.dataflow():
            y = R.nn.softmax(x, axis=-1)
            R.output(y)
        return y
