# relaxc opt runs the named passes in order and prints the module; normalize and
# well-formed leave a normalized, well-formed module as it is.
#
# RUN: %relaxc opt %s --passes=normalize,well-formed | FileCheck %s
# RUN: %relaxc opt --passes well-formed,normalize %s | FileCheck %s
# RUN: %relaxc opt %s --passes=normalize,well-formed > %t.py
# RUN: %relaxc print %s | diff %t.py -
#
# CHECK: @R.function
# CHECK-NEXT: def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
# CHECK-NEXT: n = T.int64()
# CHECK-NEXT: with R.dataflow():
# CHECK-NEXT: lv0: R.Tensor((n, 4), dtype="float32") = R.add(x, y)
# CHECK-NEXT: lv1: R.Tensor((n, 4), dtype="float32") = R.multiply(lv0, lv0)
# CHECK-NEXT: R.output(lv1)
# CHECK-NEXT: return lv1

# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv0 = R.add(x, y)
            lv1 = R.multiply(lv0, lv0)
            R.output(lv1)
        return lv1
