# to-non-dataflow: the dataflow block becomes a plain block, its DataflowVars Vars.
#
# RUN: %relaxc opt %s --passes=to-non-dataflow,well-formed | FileCheck %s
#
# CHECK-LABEL: def main(
# CHECK-NOT: R.dataflow
# CHECK: a: R.Tensor((4,), dtype="float32") = R.add(x, x)
# CHECK-NEXT: b: R.Tensor((4,), dtype="float32") = R.multiply(a, x)
# CHECK-NEXT: c: R.Tensor((4,), dtype="float32") = R.add(b, b)
# CHECK-NEXT: return c
# CHECK-NOT: R.output

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            a = R.add(x, x)
            b = R.multiply(a, x)
            R.output(b)
        c = R.add(b, b)
        return c
