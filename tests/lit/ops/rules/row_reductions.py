# The row reduction rule on softmax (rows of 300: not a multiple of the threads),
# rms_norm (rows of 37 under two spatial axes) and layer_norm (rows of 4 x 37, two
# reduction axes) as LegalizeOps writes them: each one kernel, one thread block per row,
# the per-row intermediates in shared memory; and layer_norm over short rows (32, as a
# transformer with a small hidden size has): one row per thread, staged in registers and
# loaded 4 elements at a time, gamma and beta in shared memory once per thread block.
# Run on lavapipe against NumPy at n = 1, 7, 1000 and 4097.
#
# RUN: %relaxc opt %s --passes=legalize-ops,default-gpu-schedule,unify-thread-bindings,lower-cross-thread-reduction,lower-blocks,split-host-device | FileCheck %s
# CHECK-LABEL: def softmax_kernel(
# CHECK: T.alloc_buffer((n{{.*}}), scope="shared")
# CHECK-NOT: def
# CHECK-LABEL: def layer_norm_kernel(
# CHECK: T.alloc_buffer((n{{.*}}), scope="shared")
# CHECK-NOT: def
# CHECK-LABEL: def rms_norm_kernel(
# CHECK: T.alloc_buffer((n{{.*}}), scope="shared")
# CHECK-NOT: def
# CHECK-LABEL: def layer_norm1_kernel(
# CHECK-DAG: beta_shared = T.alloc_buffer((T.int64(32),), scope="shared")
# CHECK-DAG: gamma_shared = T.alloc_buffer((T.int64(32),), scope="shared")
# CHECK-DAG: data_local = T.alloc_buffer((n, T.int64(32)), scope="local")
# CHECK: T.vectorized(T.int64(4))
# CHECK: data_local[{{.*}}] = data[
# CHECK: T.vectorized(T.int64(4))
# CHECK: T_layer_norm[{{.*}}] = {{.*}} * gamma_shared[{{.*}}] + beta_shared[
# CHECK-NOT: def
#
# RUN: %op_check %s --work %t --input x:n,300:float32:-8,8 --input y:n,4,37:float32 --input g:4,37:float32 --input b:4,37:float32 --input w:37:float32 --input z:n,32:float32 --input g2:32:float32 --input b2:32:float32 --sizes n=1 --sizes n=7 --sizes n=1000 --sizes n=4097 --reference "(np.exp(x - x.max(-1, keepdims=True)) / np.exp(x - x.max(-1, keepdims=True)).sum(-1, keepdims=True), (y - y.mean((1, 2), keepdims=True)) / np.sqrt(y.var((1, 2), keepdims=True) + 1e-5) * g + b, y / np.sqrt((y * y).mean(-1, keepdims=True) + 1e-5) * w, (z - z.mean(-1, keepdims=True)) / np.sqrt(z.var(-1, keepdims=True) + 1e-5) * g2 + b2)" --atol 1e-4 | FileCheck %s --check-prefix=OUT
# OUT: ok: 4 size(s), 16 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 300), dtype="float32"), y: R.Tensor(("n", 4, 37), dtype="float32"), g: R.Tensor((4, 37), dtype="float32"), b: R.Tensor((4, 37), dtype="float32"), w: R.Tensor((37,), dtype="float32"), z: R.Tensor(("n", 32), dtype="float32"), g2: R.Tensor((32,), dtype="float32"), b2: R.Tensor((32,), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            s = R.nn.softmax(x, axis=-1)
            ln = R.nn.layer_norm(y, g, b, axes=[-2, -1], epsilon=1e-05, center=True, scale=True)
            rms = R.nn.rms_norm(y, w, axes=[-1], epsilon=1e-05)
            short_ln = R.nn.layer_norm(z, g2, b2, axes=[-1], epsilon=1e-05, center=True, scale=True)
            gv = (s, ln, rms, short_ln)
            R.output(gv)
        return gv
