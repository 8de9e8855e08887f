# fold-constant: after legalize-ops a subgraph of constants is a chain of call_tir of
# constants; each is evaluated by the TensorIR interpreter and becomes R.const, and
# dead-code-elimination then drops the bindings and kernels nothing uses. The part that
# depends on the input x stays a kernel call, with the folded constant as its argument.
#
# RUN: %relaxc opt %s --passes=legalize-ops,fold-constant,dead-code-elimination,well-formed | FileCheck %s
#
# CHECK-LABEL: def main(
# CHECK:          with R.dataflow():
# CHECK-NEXT:         c: R.Tensor((2, 2), dtype="float32") = R.const({{\[\[}}2.0, 1.0], [7.0, 4.0]], "float32")
# CHECK-NEXT:         y: R.Tensor((2, 2), dtype="float32") = R.call_tir(cls.matmul, (x, c), out_sinfo=R.Tensor((2, 2), dtype="float32"))
# CHECK-NEXT:         R.output(y)
# CHECK-NEXT:     return y
# CHECK-NOT:  def add(
# CHECK-NOT:  def transpose(
# CHECK:      def matmul(
# CHECK-NOT:  def add(
# CHECK-NOT:  def transpose(

# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 2), "float32")) -> R.Tensor((2, 2), "float32"):
        with R.dataflow():
            w = R.const([[1.0, 6.0], [0.0, 3.0]], "float32")
            a = R.add(w, R.const(1.0, "float32"))
            c = R.permute_dims(a)
            y = R.matmul(x, c)
            R.output(y)
        return y
