# Binary arithmetic with numpy broadcasting over a symbolic batch, and a PrimValue
# operand, legalized to TensorIR and run on lavapipe against NumPy.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      y: R.Tensor((n, 4), dtype="float32") = R.call_tir(cls.add, (x, b), out_sinfo=R.Tensor((n, 4), dtype="float32"))
# CHECK:      lv_1: R.Tensor((4,), dtype="float32") = R.call_tir(cls.add1, (lv, R.const(1.0, "float32")), out_sinfo=R.Tensor((4,), dtype="float32"))
# CHECK:      v: R.Tensor((n, 4), dtype="float32") = R.call_tir(cls.add2, (w, x), out_sinfo=R.Tensor((n, 4), dtype="float32"))
# CHECK:      def add(var_lhs: T.handle, rhs: T.Buffer((T.int64(4),)), var_T_add: T.handle):
# CHECK-NEXT:     T.func_attr({"op_pattern": 1, "tir.noalias": True})
# CHECK:          T_add[v_ax0, v_ax1] = lhs[v_ax0, v_ax1] + rhs[v_ax1]
# CHECK:      def add2(
# CHECK-NEXT:     T.func_attr({"op_pattern": 0, "tir.noalias": True})
# CHECK:      def multiply1(
# CHECK:          T_multiply[v_ax0, v_ax1] = lhs[v_ax0, v_ax1] * T.float32(2)
#
# RUN: %op_check %s --work %t --input x:n,4:float32 --input b:4:float32 --sizes n=1 --sizes n=300 --reference "(np.exp(np.maximum(x + b, 0)) - x / (b * b + 1)) * 2" | FileCheck %s --check-prefix=NUMPY
# NUMPY: ok: 2 size(s), 2 output(s) match NumPy

# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            y = R.add(x, b)
            z = R.nn.relu(y)
            w = R.exp(z)
            d = R.divide(x, R.add(R.multiply(b, b), R.const(1, "float32")))
            v = R.add(w, x)
            s = R.subtract(w, d)
            u = R.multiply(s, R.prim_value(T.float32(2)))
            R.output(u)
        return u
