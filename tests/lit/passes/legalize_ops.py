# legalize-ops: operator calls become R.call_tir of TensorIR functions; equal functions
# are shared across call sites and functions (whatever their shape variables are
# called); a shape variable that no buffer binds is passed as tir_vars; hand-written
# call_tir and the views reshape and flatten are left alone.
#
# RUN: %relaxc opt %s --passes=legalize-ops | FileCheck %s
# CHECK:      def first(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
# CHECK:          y: R.Tensor((n, 4), dtype="float32") = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
# CHECK-NEXT:     z: R.Tensor((n, 4), dtype="float32") = R.call_tir(cls.copy, (y,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
# CHECK-NEXT:     f: R.Tensor((n * 4,), dtype="float32") = R.reshape(z, R.shape([n * 4]))
# CHECK:      def second(a: R.Tensor(("m", 4), dtype="float32"), scale: R.Prim(value="k")) -> R.Tensor(("m", 4), dtype="float32"):
# CHECK:          b: R.Tensor((m, 4), dtype="float32") = R.call_tir(cls.exp, (a,), out_sinfo=R.Tensor((m, 4), dtype="float32"))
# CHECK-NEXT:     c: R.Tensor((m, 4), dtype="float32") = R.call_tir(cls.add, (b,), out_sinfo=R.Tensor((m, 4), dtype="float32"), tir_vars=R.shape([k]))
# CHECK:      def exp(var_x: T.handle, var_T_exp: T.handle):
# CHECK:      def add(var_lhs: T.handle, var_T_add: T.handle, k: T.int64):
# CHECK:          T_add[v_ax0, v_ax1] = lhs[v_ax0, v_ax1] + T.Cast("float32", k)
# CHECK-NOT:  def exp1(

# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def copy(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = x[vi, vj]

    @R.function
    def first(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            y = R.exp(x)
            z = R.call_tir(cls.copy, (y,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            f = R.reshape(z, R.shape([n * 4]))
            R.output(z)
        return z

    @R.function
    def second(a: R.Tensor(("m", 4), dtype="float32"), scale: R.Prim(value="k")) -> R.Tensor(("m", 4), dtype="float32"):
        m = T.int64()
        k = T.int64()
        with R.dataflow():
            b = R.exp(a)
            c = R.add(b, R.prim_value(T.Cast("float32", k)))
            R.output(c)
        return c
