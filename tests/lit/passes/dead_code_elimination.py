# dead-code-elimination: unused pure bindings go, in and outside dataflow blocks, whole
# chains of them at once; impure calls and match_cast checks stay; private functions
# (Relax and TensorIR) that no public function reaches go, also those reached only
# from a removed binding.
#
# RUN: %relaxc opt %s --passes=dead-code-elimination,well-formed | FileCheck %s
#
# CHECK-NOT:  def unused_tir(
# CHECK:      def add_tir(
# CHECK-NOT:  def unused_tir(
# CHECK-LABEL: def main(
# CHECK:          with R.dataflow():
# CHECK-NEXT:         a: R.Tensor((4,), dtype="float32") = R.call_tir(cls.add_tir, (x, x), out_sinfo=R.Tensor((4,), dtype="float32"))
# CHECK-NEXT:         R.output(a)
# CHECK-NEXT:     p: R.Tuple = R.print(a, format="{}")
# CHECK-NEXT:     m: R.Tensor((n,), dtype="float32") = R.match_cast(y, R.Tensor((n,), dtype="float32"))
# CHECK-NEXT:     return a
# CHECK-NOT:  def helper(
# CHECK-NOT:  def only_from_dead(

# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def unused_tir(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("y"):
                vi = T.axis.spatial(4, i)
                y[vi] = x[vi]

    @T.prim_func(private=True)
    def add_tir(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32"), z: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("z"):
                vi = T.axis.spatial(4, i)
                z[vi] = x[vi] + y[vi]

    @R.function(private=True)
    def helper(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.add(x, x)
        return y

    @R.function(private=True)
    def only_from_dead(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.multiply(x, x)
        return y

    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor((4,), "float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            a = R.call_tir(cls.add_tir, (x, x), out_sinfo=R.Tensor((4,), dtype="float32"))
            b = R.multiply(a, a)
            c = R.add(b, a)
            d = cls.only_from_dead(c)
            R.output(a)
        e = R.exp(a)
        p = R.print(a, format="{}")
        m = R.match_cast(y, R.Tensor((n,), "float32"))
        return a
