# canonicalize-bindings: x = y chains fold into their uses, a match_cast that already
# holds folds too (one that checks something stays), an item of a known tuple is the
# tuple's field, and an output Var bound to a DataflowVar takes over that binding so
# that nothing dataflow leaves its block.
#
# RUN: %relaxc opt %s --passes=canonicalize-bindings,well-formed | FileCheck %s
#
# CHECK-LABEL: def main(
# CHECK:          with R.dataflow():
# CHECK-NEXT:         a: R.Tensor((4,), dtype="float32") = R.add(x, x)
# CHECK-NEXT:         t: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = (a, x)
# CHECK-NEXT:         gv: R.Tensor((4,), dtype="float32") = R.multiply(a, a)
# CHECK-NEXT:         R.output(gv)
# CHECK-NEXT:     m: R.Tensor((n,), dtype="float32") = R.match_cast(y, R.Tensor((n,), dtype="float32"))
# CHECK-NEXT:     r: R.Tensor((4,), dtype="float32") = R.add(gv, gv)
# CHECK-NEXT:     return r

# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor(ndim=1, dtype="float32")) -> R.Tensor((4,), "float32"):
        n = T.int64()
        with R.dataflow():
            a = R.add(x, x)
            b = a
            c = R.match_cast(b, R.Tensor((4,), "float32"))
            t = (c, x)
            d = t[0]
            e = R.multiply(d, b)
            gv = e
            R.output(gv)
        m = R.match_cast(y, R.Tensor((n,), "float32"))
        g = gv
        r = R.add(g, gv)
        return r
