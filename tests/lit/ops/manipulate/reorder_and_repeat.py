# expand_dims and squeeze (reshape views, no kernel), permute_dims, flip, broadcast_to,
# tile and repeat over a symbolic batch, legalized to TensorIR and run on lavapipe
# against NumPy.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      e: R.Tensor((n, 1, 3), dtype="float32") = R.reshape(x, R.shape([n, 1, 3]))
# CHECK:      q: R.Tensor((n, 3), dtype="float32") = R.reshape(e, R.shape([n, 3]))
# CHECK:      def transpose(
# CHECK-NEXT:     T.func_attr({"op_pattern": 2, "tir.noalias": True})
# CHECK:          T_transpose[v_ax0, v_ax1, v_ax2] = x[v_ax2, v_ax0, v_ax1]
# CHECK:      def flip(
# CHECK:          T_reverse[v_ax0, v_ax1] = data[n - T.int64(1) - v_ax0, v_ax1]
# CHECK:      def flip1(
# CHECK:          T_reverse[v_ax0, v_ax1] = data[v_ax0, T.int64(2) - v_ax1]
# CHECK:      def broadcast_to(
# CHECK-NEXT:     T.func_attr({"op_pattern": 1, "tir.noalias": True})
# CHECK:          T_broadcast_to[v_ax0, v_ax1, v_ax2] = x[v_ax1, T.int64(0)]
# CHECK:      def tile(
# CHECK:          T_tile[v_ax0, v_ax1, v_ax2] = data[v_ax1 % n, v_ax2 % T.int64(3)]
# CHECK:      def repeat(
# CHECK:          T_repeat[v_ax0, v_ax1] = data[v_ax0 // T.int64(2), v_ax1]
#
# RUN: %op_check %s --work %t --input x:n,3:float32 --input z:n,1:float32 --sizes n=1 --sizes n=300 --reference "(x[:, None, :], x, np.transpose(x.reshape(x.shape[0], 3, 1), (1, 2, 0)), np.flip(x, 0), np.flip(x, -1), np.broadcast_to(z, (2, x.shape[0], 5)), np.tile(x, (2, 3, 1)), np.repeat(x, 2, 0), np.repeat(x, 3))" | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 18 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3), dtype="float32"), z: R.Tensor(("n", 1), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            e = R.expand_dims(x, 1)
            q = R.squeeze(e, axis=[-2])
            r = R.reshape(x, R.shape([n, 3, 1]))
            p = R.permute_dims(r, axes=[1, 2, 0])
            f0 = R.flip(x, axis=0)
            f1 = R.flip(x, axis=-1)
            b = R.broadcast_to(z, R.shape([2, n, 5]))
            t = R.tile(x, repeats=[2, 3, 1])
            r0 = R.repeat(x, 2, 0)
            r1 = R.repeat(x, repeats=3)
            R.output(e, q, p, f0, f1, b, t, r0, r1)
        return (e, q, p, f0, f1, b, t, r0, r1)
