# fuse-tir on a group whose input is a tuple (a split that stays outside the group, as
# the tuple binding also returns it): the tuple parameter becomes one buffer parameter
# per field, the call site passes the fields, and the group's TupleGetItem reads its
# field's buffer.
#
# RUN: %relaxc opt %s --passes=legalize-ops,fuse-ops | FileCheck %s --check-prefix=OPS
# OPS:          b: R.Tensor((8, 4), dtype="float32") = cls.fused_exp_negative(parts)
# OPS-LABEL:  def fused_exp_negative(parts: R.Tuple(R.Tensor((8, 4), dtype="float32"), R.Tensor((8, 4), dtype="float32"))) -> R.Tensor((8, 4), dtype="float32"):
# OPS:              lv: R.Tensor((8, 4), dtype="float32") = parts[1]
#
# RUN: %relaxc opt %s --passes=legalize-ops,fuse-ops,fuse-tir,well-formed | FileCheck %s
# CHECK:          lv: R.Tensor((8, 4), dtype="float32") = parts[0]
# CHECK-NEXT:     lv_1: R.Tensor((8, 4), dtype="float32") = parts[1]
# CHECK-NEXT:     b: R.Tensor((8, 4), dtype="float32") = R.call_tir(cls.fused_exp_negative, (lv, lv_1), out_sinfo=R.Tensor((8, 4), dtype="float32"))
# CHECK-LABEL: def fused_exp_negative(parts: T.Buffer((T.int64(8), T.int64(4))), parts_1: T.Buffer((T.int64(8), T.int64(4))), T_negative: T.Buffer((T.int64(8), T.int64(4)))):
# CHECK:              T_exp[v_ax0, v_ax1] = T.exp(parts_1[v_ax0, v_ax1])
# CHECK:              T_negative[v_ax0, v_ax1] = T.float32(0) - T_exp[v_ax0, v_ax1]

# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def tuple_param(x: R.Tensor((8, 8), dtype="float32")) -> R.Tuple(R.Tuple(R.Tensor((8, 4), dtype="float32"), R.Tensor((8, 4), dtype="float32")), R.Tensor((8, 4), dtype="float32")):
        with R.dataflow():
            parts = R.split(x, indices_or_sections=2, axis=1)
            a = R.exp(parts[1])
            b = R.negative(a)
            gv = (parts, b)
            R.output(gv)
        return gv
