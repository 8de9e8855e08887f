# The TensorIR that legalize-ops gives the element-wise operators over a symbolic batch:
# a comparison writes bool, where takes a PrimValue branch as a scalar, prelu reads the
# slope of its channel (a broadcast), attributes become constants, dropout is the
# identity as the tuple TVM gives.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      c: R.Tensor((n, 4), dtype="bool") = R.call_tir(cls.less, (x, y), out_sinfo=R.Tensor((n, 4), dtype="bool"))
# CHECK-NEXT: w: R.Tensor((n, 4), dtype="float32") = R.call_tir(cls.where, (c, x), out_sinfo=R.Tensor((n, 4), dtype="float32"))
# CHECK:      p: R.Tensor((n, 4), dtype="float32") = R.call_tir(cls.prelu, (l, a), out_sinfo=R.Tensor((n, 4), dtype="float32"))
# CHECK:      d: R.Tuple(R.Tensor((n, 4), dtype="float32"), R.Tensor((n, 4), dtype="float32")) = (x, x)
# CHECK:      def less(var_x1: T.handle, x2: T.Buffer((T.int64(4),)), var_T_less: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 1, "tir.noalias": True})
# CHECK:          T_less = T.match_buffer(var_T_less, (n, T.int64(4)), "bool")
# CHECK:          for ax0, ax1 in T.grid(n, T.int64(4)):
# CHECK:              v_ax0, v_ax1 = T.axis.remap("SS", [ax0, ax1])
# CHECK:              T_less[v_ax0, v_ax1] = x1[v_ax0, v_ax1] < x2[v_ax1]
# CHECK:      def where(var_condition: T.handle, var_x1: T.handle, var_T_where: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 0, "tir.noalias": True})
# CHECK:              T_where[v_ax0, v_ax1] = T.Select(condition[v_ax0, v_ax1], x1[v_ax0, v_ax1], T.float32(0))
# CHECK:              T_asinh[v_ax0, v_ax1] = T.asinh(x[v_ax0, v_ax1])
# CHECK:              T_leakyrelu[v_ax0, v_ax1] = T.Select(data[v_ax0, v_ax1] > T.float32(0), data[v_ax0, v_ax1], data[v_ax0, v_ax1] * T.float32(0.1))
# CHECK:      def prelu(var_data: T.handle, alpha: T.Buffer((T.int64(4),)), var_T_prelu: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 1, "tir.noalias": True})
# CHECK:              T_prelu[v_ax0, v_ax1] = T.Select(data[v_ax0, v_ax1] > T.float32(0), data[v_ax0, v_ax1], data[v_ax0, v_ax1] * alpha[v_ax1])
# CHECK:              T_clip[v_ax0, v_ax1] = T.min(T.max(x[v_ax0, v_ax1], T.float32(-1)), T.float32(1))
# CHECK:              T_astype[v_ax0, v_ax1] = T.Cast("int32", x[v_ax0, v_ax1])

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((4,), dtype="float32"), a: R.Tensor((4,), dtype="float32")):
        n = T.int64()
        with R.dataflow():
            c = R.less(x, y)
            w = R.where(c, x, R.prim_value(T.float32(0)))
            s = R.asinh(w)
            l = R.nn.leakyrelu(s, alpha=0.1)
            p = R.nn.prelu(l, a, axis=1)
            k = R.clip(p, R.prim_value(T.float32(-1)), R.prim_value(T.float32(1)))
            i = R.astype(k, dtype="int32")
            d = R.nn.dropout(x, rate=0.5)
            out = (i, d)
            R.output(out)
        return out
