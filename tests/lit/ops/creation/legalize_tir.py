# The TensorIR that legalize-ops gives the creation operators: shapes from R.shape and
# from the _like input stay symbolic (zeros_like reads no input), the fill value is a
# 0-d buffer, arange and eye compute from their indices, triu and one_hot select.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      a: R.Tensor((m, n), dtype="float16") = R.call_tir(cls.full, (f,), out_sinfo=R.Tensor((m, n), dtype="float16"))
# CHECK-NEXT: z: R.Tensor((n, m), dtype="int32") = R.call_tir(cls.zeros_like, (), out_sinfo=R.Tensor((n, m), dtype="int32"))
# CHECK:      def full(fill_value: T.Buffer(()), var_T_full: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 0, "tir.noalias": True})
# CHECK:          for ax0, ax1 in T.grid(m, n):
# CHECK:              T_full[v_ax0, v_ax1] = T.Cast("float16", fill_value[()])
# CHECK:      def zeros_like(var_T_zeros_like: T.handle):
# CHECK:              T_zeros_like[v_ax0, v_ax1] = 0
# CHECK:      def arange(T_arange: T.Buffer((T.int64(3),))):
# CHECK:              T_arange[v_ax0] = T.Cast("float32", T.int64(1) + v_ax0 * T.int64(3))
# CHECK:              T_eye[v_ax0, v_ax1] = T.Select(v_ax1 - v_ax0 == T.int64(-1), T.float32(1), T.float32(0))
# CHECK:              T_triu[v_ax0, v_ax1] = T.Select(v_ax1 - v_ax0 >= T.int64(1), x[v_ax0, v_ax1], T.float32(0))
# CHECK:      def one_hot(var_indices: T.handle, var_T_one_hot: T.handle):
# CHECK:          for ax0, ax1 in T.grid(T.int64(5), n):
# CHECK:              T_one_hot[v_ax0, v_ax1] = T.Select(T.Cast("int64", indices[v_ax1]) == v_ax0, T.float32(1), T.float32(0))

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), f: R.Tensor((), dtype="float32"), idx: R.Tensor(("n",), dtype="int32")):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            a = R.full(R.shape([m, n]), f, dtype="float16")
            z = R.zeros_like(x, dtype="int32")
            r = R.arange(R.prim_value(1), R.prim_value(10), R.prim_value(3), dtype="float32")
            e = R.eye(R.prim_value(3), R.prim_value(4), R.prim_value(-1), dtype="float32")
            t = R.triu(x, R.prim_value(1))
            o = R.one_hot(idx, R.prim_value(T.float32(1)), R.prim_value(T.float32(0)), depth=5, axis=0)
            out = (a, z, r, e, t, o)
            R.output(out)
        return out
