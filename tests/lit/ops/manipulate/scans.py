# cumsum and cumprod (an axis, a negative one, exclusive, axis=None, an out dtype) over
# a symbolic length, legalized to reductions in TensorIR and run on lavapipe against
# NumPy.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      def cumsum(
# CHECK-NEXT:     T.func_attr({"op_pattern": 8, "tir.noalias": True})
# CHECK:          T_cumsum[v_ax0, v_ax1] = T_cumsum[v_ax0, v_ax1] + T.Select(v_k0 <= v_ax1, data[v_ax0, v_k0], T.float32(0))
# CHECK:      def cumprod(
# CHECK:          v_ax0, v_ax1, v_k0 = T.axis.remap("SSR", [ax0, ax1, k0])
# CHECK:          with T.init():
# CHECK-NEXT:         T_cumprod[v_ax0, v_ax1] = T.float32(1)
# CHECK-NEXT:     T_cumprod[v_ax0, v_ax1] = T_cumprod[v_ax0, v_ax1] * T.Select(v_k0 < v_ax0, data[v_k0, v_ax1], T.float32(1))
# CHECK:      def cumsum1(var_data: T.handle, var_T_cumsum: T.handle, n: T.int64):
# CHECK:      def cumsum2(
# CHECK:          T.Select(v_k0 <= v_ax1, T.Cast("int64", data[v_ax0, v_k0]), T.int64(0))
#
# RUN: %op_check %s --work %t --input x:n,5:float32:0.5,1.5 --input i:n,5:int32 --sizes n=1 --sizes n=300 --reference "(np.cumsum(x, -1), np.concatenate([np.ones((1, 5), np.float32), np.cumprod(x, 0)[:-1]]), np.cumsum(x), np.cumsum(i, 1).astype(np.int64))" --rtol 1e-4 | FileCheck %s --check-prefix=NUM
# NUM: ok: 2 size(s), 8 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 5), dtype="float32"), i: R.Tensor(("n", 5), dtype="int32")):
        n = T.int64()
        with R.dataflow():
            a = R.cumsum(x, axis=-1)
            b = R.cumprod(x, axis=0, exclusive=True)
            c = R.cumsum(x)
            d = R.cumsum(i, axis=1, dtype="int64")
            R.output(a, b, c, d)
        return (a, b, c, d)
